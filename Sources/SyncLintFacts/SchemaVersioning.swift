/// What a SwiftData `VersionedSchema` or `SchemaMigrationPlan` declares about itself, one static member at a
/// time: `static let versionIdentifier = Schema.Version(1, 0, 0)`, `static var models: [any PersistentModel.Type]
/// { [A.self, B.self] }`, `static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }`. The type's
/// conformance is read from the index's type facts (it may be declared in an extension in another file).
public struct SchemaMemberFact: Sendable, Codable, Equatable {
    public enum Member: String, Sendable, Codable {
        /// `versionIdentifier`; `values` are its three integers when all are literals.
        case versionIdentifier
        /// `models`; `values` are the listed types as written (`Item`, `SchemaV1.Item`).
        case models
        /// `schemas` of a migration plan; `values` are the listed schema types as written.
        case schemas
    }

    /// The qualified name of the type (or extended type) the member is declared in.
    public let typeName: String
    public let member: Member
    public let values: [String]
    public let location: SourceLocation

    package init(typeName: String, member: Member, values: [String], location: SourceLocation) {
        self.typeName = typeName
        self.member = member
        self.values = values
        self.location = location
    }
}

/// A member of a `#Predicate` closure's parameter that the predicate reads: `title` in
/// `#Predicate<Book> { $0.title == name }`. SwiftData turns each into a column by the model's metadata.
public struct PredicateMemberFact: Sendable, Codable, Equatable {
    /// The predicate's subject type as written (`Book`), from the macro's generic argument or the
    /// `FetchDescriptor<Book>` / `Predicate<Book>` it is written for.
    public let modelName: String
    public let property: String
    public let location: SourceLocation

    package init(modelName: String, property: String, location: SourceLocation) {
        self.modelName = modelName
        self.property = property
        self.location = location
    }
}
