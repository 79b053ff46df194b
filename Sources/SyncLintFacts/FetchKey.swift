/// A property the project looks a model up by: `#Predicate<Article> { $0.url == url }`. What the app
/// itself fetches by is its natural key, far more reliably than a name or a comment.
public struct FetchKey: Sendable, Hashable, Codable {
    public let modelName: String
    public let property: String
    public let location: SourceLocation
    /// The other properties the same lookup compares with `&&` (`$0.feed == feed && $0.guid == guid`): the key is
    /// then all of them together, and `property` alone is not unique.
    public let lookedUpWith: [String]

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(modelName: String, property: String, location: SourceLocation, lookedUpWith: [String] = []) {
        self.modelName = modelName
        self.property = property
        self.location = location
        self.lookedUpWith = lookedUpWith
    }
}
