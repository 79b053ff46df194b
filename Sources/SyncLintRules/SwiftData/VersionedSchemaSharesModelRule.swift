/// An older `VersionedSchema` of a migration plan that lists a model type a later version lists too.
public enum VersionedSchemaSharesModelRule: ProjectRule {
    public static let description = RuleDescription(
        id: "versioned_schema_shares_model",
        name: "Versioned Schema Shares Model",
        whatItDoes: """
            Finds a `VersionedSchema` listed in a `SchemaMigrationPlan`'s `schemas` whose `models` names the same \
            model type as a later version of the same plan (the live `Item` instead of its own frozen copy \
            `SchemaV1.Item`). Names are resolved as Swift resolves them: a type nested in the schema (or in an \
            extension of it) first, then enclosing types, then the top level.
            """,
        whyIsThisBad: """
            SwiftData identifies a store's version by the checksum of the models its schema lists. A shipped \
            version that lists the live model type changes its checksum as soon as the live model changes, so a \
            store written by that shipped build no longer matches any version of the plan and opening the \
            container fails at launch with "Cannot use staged migration with an unknown model version" \
            (NSCocoaErrorDomain 134504); two versions that list exactly the same types have one checksum, so a \
            store cannot be told to belong to either. Real fixes freeze each historical version's models inside it: \
            everpcpc/KMReader#803 ("fix: freeze historical SwiftData schemas", a TestFlight crash at startup) and \
            #542, dashpay/platform#4644.
            """,
        seed: "issue 23",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @Model final class Item { var title: String = "" }
                enum SchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var ↓models: [any PersistentModel.Type] { [Item.self] }
                }
                enum SchemaV2: VersionedSchema {
                    static let versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
            RuleExample("""
                enum SchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static let ↓models: [any PersistentModel.Type] = [Tag.self, SchemaV1.Note.self]
                    @Model final class Note { var text: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static let versionIdentifier = Schema.Version(2, 0, 0)
                    static let models: [any PersistentModel.Type] = [Tag.self, Note.self]
                    @Model final class Note { var text: String = ""; var pinned: Bool = false }
                }
                @Model final class Tag { var name: String = "" }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [] }
                }
                """),
        ],
        nonTriggeringExamples: [
            // Each version lists its own nested copies; the live name is a typealias to the newest.
            RuleExample("""
                enum SchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static let versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = ""; var done: Bool = false }
                }
                typealias Item = SchemaV2.Item
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
            // The frozen copies are declared in extensions of the versions, in other files as often as not.
            RuleExample("""
                enum SchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                }
                extension SchemaV1 { @Model final class Item { var title: String = "" } }
                enum SchemaV2: VersionedSchema {
                    static let versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                }
                extension SchemaV2 { @Model final class Item { var title: String = ""; var done = false } }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [] }
                }
                """),
            // Two schemas that share a model but belong to no migration plan (separate stores).
            RuleExample("""
                @Model final class Item { var title: String = "" }
                enum WidgetSchema: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                }
                enum AppSchema: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                }
                """),
        ],
        knownLimitations: """
            Opt-in: a shared model only breaks a store once the live model changes after the older version \
            shipped, which the code alone cannot tell (a model that never changed since is harmless). Silent \
            when a list is built at run time (`SchemaV1.models + [Tag.self]`), when a name is a typealias or \
            a type from another module (never guessed), and for versions not listed in a plan's `schemas`.
            """,
        messages: [sameModels, sharedModels])
    static let sameModels = RuleMessage("same_models", "`{version}` lists {names}, which `{later}` lists too: both versions list exactly the same models, so they have one checksum; declare frozen copies of these models inside `{version}`")
    static let sharedModels = RuleMessage("shared_models", "`{version}` lists {names}, which `{later}` lists too: its checksum follows the live model; declare frozen copies of these models inside `{version}`")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        var findings: [Finding] = []
        var reported: Set<SourceLocation> = []
        for (_, versions) in index.migrationPlans() {
            let models = versions.map { version -> (version: String, fact: SchemaMemberFact, types: [String: String])? in
                guard let fact = index.schemaMember(.models, of: version) else { return nil }
                var types: [String: String] = [:]
                for written in fact.values {
                    if let declared = index.declaredTypeName(written, in: version) { types[declared] = written }
                }
                return (version, fact, types)
            }
            for (position, older) in models.enumerated() {
                guard let older, !reported.contains(older.fact.location) else { continue }
                // The latest later version that lists one of the same types names the clash.
                for later in models[(position + 1)...].reversed() {
                    guard let later else { continue }
                    let shared = older.types.keys.filter { later.types[$0] != nil }.sorted()
                    guard !shared.isEmpty else { continue }
                    let names = shared.map { "`\(older.types[$0] ?? $0)`" }.joined(separator: ", ")
                    let identical = Set(older.types.keys) == Set(later.types.keys) && older.fact.values.count == later.fact.values.count
                    let note = FindingNote("`\(simpleName(later.version))` lists them here", at: later.fact.location)
                    findings.append(description.finding(at: older.fact.location, identical ? sameModels : sharedModels,
                        ["version": simpleName(older.version), "names": names, "later": simpleName(later.version)], notes: [note]))
                    reported.insert(older.fact.location)
                    break
                }
            }
        }
        return findings
    }

    private static func simpleName(_ qualified: String) -> String {
        qualified.split(separator: ".").last.map(String.init) ?? qualified
    }
}
