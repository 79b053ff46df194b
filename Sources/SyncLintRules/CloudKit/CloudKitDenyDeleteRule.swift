/// A `.deny` delete rule on a synced relationship.
public enum CloudKitDenyDeleteRule: ProjectRule {
    public static let description = RuleDescription(
        id: "cloudkit_deny_delete_rule",
        name: "CloudKit Deny Delete Rule",
        whatItDoes: """
            Finds `@Relationship(deleteRule: .deny)` on SwiftData models and `deletionRule="Deny"` in Core Data \
            model files, where the store syncs with CloudKit.
            """,
        whyIsThisBad: """
            CloudKit cannot enforce a deny rule across devices (another device may already have deleted the \
            related record), so a CloudKit-backed schema with one fails to load and the app crashes at launch \
            (the same launch crash as a unique constraint under CloudKit). Use `.nullify` or `.cascade` and check in code before deleting.
            """,
        seed: "003",
        severity: .error,
        triggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                ↓        <relationship name="list" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="ItemList" inverseName="items" inverseEntity="ItemList"/>
                """), kind: .coreDataModel),
            RuleExample("""
                @Model final class Folder {
                    @Relationship(deleteRule: .deny) var ↓bookmarks: [Bookmark]? = []
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
            RuleExample("""
                @Model final class Author {
                    @Relationship(deleteRule: .deny, inverse: \\Book.author) var ↓books: [Book]?
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Model final class Folder {
                    @Relationship(deleteRule: .nullify) var bookmarks: [Bookmark]? = []
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
            RuleExample("""
                @Model final class Folder {
                    @Relationship(deleteRule: .deny) var bookmarks: [Bookmark]? = []
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .none)
                """),
        ],
        knownLimitations: """
            A SwiftData model counts as synced where a store that may hold it syncs (the stores of the targets that compile \
            it, less those whose models the file that builds them names and that hold it neither directly nor through \
            relationships); a store whose models are built elsewhere may hold any model.
            """,
        messages: [denyOnModel, denyInModelFile])
    static let denyOnModel = RuleMessage("deny_on_model", "`.deny` on `{model}.{property}` makes the CloudKit store fail to load (CloudKit is on: {evidence}); use `.nullify` or `.cascade` and check before deleting")
    static let denyInModelFile = RuleMessage("deny_in_model_file", "relationship `{entity}.{relationship}` uses the Deny delete rule, which CloudKit does not support (CloudKit is on: {evidence}); use Nullify or Cascade")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        var findings: [Finding] = []
        for property in ModelSchema.synced(index: index).properties
        where property.fact.attributes.contains(where: { $0.name == "Relationship" && $0.arguments.contains(".deny") }) {
            if let evidence = index.cloudKitEvidence(forModel: property.model, declaredIn: property.fact.location.file) {
                findings.append(description.finding(at: property.fact.location, denyOnModel,
                                                    ["model": property.model, "property": property.fact.name, "evidence": evidence.text],
                                                    notes: evidence.notes))
            }
        }
        for model in index.coreDataModels {
            guard let evidence = index.cloudKit.coreData(modelName: model.modelName, modelPath: model.path) else { continue }
            for entity in model.syncedEntities {
                for relationship in entity.relationships where relationship.deletionRule == "Deny" {
                    findings.append(description.finding(inModel: model, line: relationship.line, denyInModelFile,
                                                        ["entity": entity.name, "relationship": relationship.name, "evidence": evidence.text],
                                                        notes: evidence.notes))
                }
            }
        }
        return findings
    }
}
