/// A property the project looks a model up by: `#Predicate<Article> { $0.url == url }`. What the app
/// itself fetches by is its natural key, far more reliably than a name or a comment.
public struct FetchKey: Sendable, Hashable, Codable {
    public let modelName: String
    public let property: String
    public let location: SourceLocation

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(modelName: String, property: String, location: SourceLocation) {
        self.modelName = modelName
        self.property = property
        self.location = location
    }
}
