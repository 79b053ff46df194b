/// Two `VersionedSchema`s of one migration plan with the same `versionIdentifier`.
public enum ReusedSchemaVersionIdentifierRule: ProjectRule {
    public static let description = RuleDescription(
        id: "reused_schema_version_identifier",
        name: "Reused Schema Version Identifier",
        whatItDoes: """
            Finds a `VersionedSchema` listed in a `SchemaMigrationPlan`'s `schemas` whose `versionIdentifier` \
            (`Schema.Version(major, minor, patch)` written with integer literals) equals that of an earlier version \
            of the same plan, usually a copied schema file whose identifier was not bumped.
            """,
        whyIsThisBad: """
            A migration plan is a chain of distinct versions: a store records the version it was written with, and \
            SwiftData finds the stage to run from it. One identifier naming two different model sets means a store \
            stamped with it matches one of them and not the other, so opening the container fails at launch with \
            "Cannot use staged migration with an unknown model version" or migrates from the wrong version. A \
            reviewer caught exactly this in dashpay/platform#4818 ("`2.0.0` now names two different shapes across \
            builds ... Neither resolves"); Apple documents `versionIdentifier` as the schema version's identity \
            (https://developer.apple.com/documentation/swiftdata/versionedschema/versionidentifier).
            """,
        seed: "issue 23",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                enum SchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static let ↓versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = ""; var done: Bool = false }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
            RuleExample("""
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
                    static var stages: [MigrationStage] { [] }
                }
                enum V1: VersionedSchema { static var versionIdentifier: Schema.Version { .init(1, 0, 0) }; static var models: [any PersistentModel.Type] { [] } }
                enum V2: VersionedSchema { static var versionIdentifier: Schema.Version { .init(2, 0, 0) }; static var models: [any PersistentModel.Type] { [] } }
                enum V3: VersionedSchema { static var ↓versionIdentifier: Schema.Version { .init(2, 0, 0) }; static var models: [any PersistentModel.Type] { [] } }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                enum SchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [] }
                }
                enum SchemaV2: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 1, 0)
                    static var models: [any PersistentModel.Type] { [] }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [] }
                }
                """),
            // Two plans for two stores (an app and its widget) may each start at 1.0.0.
            RuleExample("""
                enum AppSchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [] }
                }
                enum CacheSchemaV1: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [] }
                }
                enum AppPlan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [AppSchemaV1.self] }
                    static var stages: [MigrationStage] { [] }
                }
                enum CachePlan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [CacheSchemaV1.self] }
                    static var stages: [MigrationStage] { [] }
                }
                """),
            // An identifier computed from a constant is not compared.
            RuleExample("""
                enum SchemaV1: VersionedSchema { static let versionIdentifier = Schema.Version(1, 0, 0) }
                enum SchemaV2: VersionedSchema { static let versionIdentifier = Schema.Version(major, 0, 0) }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [] }
                }
                """),
        ],
        knownLimitations: """
            Compares only identifiers written as three integer literals, of versions listed in one plan's \
            `schemas` array literal; an identifier built from constants or a shared helper is not read. Opt-in \
            until it has been measured on apps that version their schemas; it decides only from these exact facts.
            """,
        messages: [reused])
    static let reused = RuleMessage("reused_identifier", "`{version}` has the version identifier {identifier} of `{earlier}`; give each schema version its own identifier")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        var findings: [Finding] = []
        var reported: Set<SourceLocation> = []
        for (_, versions) in index.migrationPlans() {
            var firstWithIdentifier: [[String]: String] = [:]
            for version in versions {
                guard let identifier = index.schemaMember(.versionIdentifier, of: version) else { continue }
                if let earlier = firstWithIdentifier[identifier.values], earlier != version {
                    guard reported.insert(identifier.location).inserted else { continue }
                    let notes = index.schemaMember(.versionIdentifier, of: earlier).map {
                        [FindingNote("`\(simpleName(earlier))` declares it here", at: $0.location)]
                    } ?? []
                    findings.append(description.finding(at: identifier.location, reused,
                        ["version": simpleName(version), "identifier": identifier.values.joined(separator: "."), "earlier": simpleName(earlier)],
                        notes: notes))
                } else {
                    firstWithIdentifier[identifier.values] = version
                }
            }
        }
        return findings
    }

    private static func simpleName(_ qualified: String) -> String {
        qualified.split(separator: ".").last.map(String.init) ?? qualified
    }
}
