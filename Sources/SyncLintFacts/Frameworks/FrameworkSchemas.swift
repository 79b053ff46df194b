/// What SwiftData's schema versioning and predicates are, as the schema and predicate rules read them. Part of
/// the reviewed framework table (see `FrameworkCalls`), each entry citing Apple's documentation. Plain data.
public struct SchemaFact: Codable, Sendable, Hashable {
    public let symbol: String
    public let fact: String
    public let documentation: String
}

public enum FrameworkSchemas {
    private static let swiftData = "https://developer.apple.com/documentation/swiftdata/"

    /// `VersionedSchema`: "a specific version of a schema, including the models it contains"; its static
    /// `versionIdentifier` and `models` are what SwiftData reads.
    public static let versionedSchema = SchemaFact(
        symbol: "VersionedSchema", fact: "a schema version: `static var versionIdentifier: Schema.Version`, `static var models`",
        documentation: swiftData + "versionedschema")
    /// `SchemaMigrationPlan`: "the evolution of a schema"; its static `schemas` lists the versions, `stages` the steps.
    public static let migrationPlan = SchemaFact(
        symbol: "SchemaMigrationPlan", fact: "a plan: `static var schemas: [any VersionedSchema.Type]`, `static var stages`",
        documentation: swiftData + "schemamigrationplan")
    /// `Schema.Version(_:_:_:)`: major, minor and patch; written `Schema.Version(1, 0, 0)` or `.init(1, 0, 0)`.
    public static let version = SchemaFact(
        symbol: "Schema.Version.init(_:_:_:)", fact: "a version identifier from three integers",
        documentation: swiftData + "schema/version")
    public static let versionInitializers: Set<String> = ["Schema.Version", "Version", ".init", "Schema.Version.init"]

    /// `@Transient`: "Tells SwiftData not to persist the annotated property": no column, so no predicate on it.
    public static let transient = SchemaFact(
        symbol: "Transient()", fact: "the property is not persisted", documentation: swiftData + "transient()")
    public static let notPersistedAttribute = "Transient"

    /// `PersistentModel.persistentModelID`: the model's identifier, which a predicate may compare on any model
    /// type, generic ones included (it is not one of the model's own properties).
    public static let identifier = SchemaFact(
        symbol: "PersistentModel.persistentModelID", fact: "the persistent identifier, not a property from the model's metadata",
        documentation: swiftData + "persistentmodel/persistentmodelid")
    public static let identifierProperty = "persistentModelID"

    /// `SortDescriptor(_:order:)` with a key path: SwiftData sorts in the store by the key path's column.
    public static let sortDescriptor = SchemaFact(
        symbol: "SortDescriptor", fact: "a sort by a key path's column, resolved through the model's metadata",
        documentation: "https://developer.apple.com/documentation/foundation/sortdescriptor")

    public static let entries: [SchemaFact] = [versionedSchema, migrationPlan, version, transient, identifier, sortDescriptor]
}
