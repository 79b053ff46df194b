/// A uniqueness constraint on a model that syncs with CloudKit.
public enum CloudKitUniqueConstraintRule: ProjectRule {
    public static let description = RuleDescription(
        id: "cloudkit_unique_constraint",
        name: "CloudKit Unique Constraint",
        whatItDoes: """
            Finds `@Attribute(.unique)` and `#Unique` on SwiftData models, and `uniquenessConstraints` in Core \
            Data model files, where the store syncs with CloudKit.
            """,
        whyIsThisBad: """
            CloudKit supports no unique constraint at all. With one in the schema, loading a CloudKit-backed \
            store fails, `ModelContainer` creation throws, and the usual `fatalError` in its `catch` crashes the \
            app on every launch. A unique synthetic id (`@Attribute(.unique) private(set) var id: UUID`) \
            fails exactly the same way, so it is reported too.
            """,
        seed: "003",
        severity: .error,
        triggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                        <attribute name="url" optional="YES" attributeType="URI"/>
                        <uniquenessConstraints>
                ↓            <uniquenessConstraint>
                                <constraint value="url"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                """), kind: .coreDataModel, message: "uniqueness_constraint", notes: ["this container syncs with CloudKit"]),
            RuleExample("""
                @Model final class Article {
                    var id: UUID = UUID()
                    @Attribute(.unique) var ↓url: URL = URL(string: "about:blank")!
                    var title: String = ""
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """, message: "unique_attribute", notes: ["this store syncs with CloudKit (`cloudKitDatabase`)"]),
            RuleExample("""
                @Model final class Article {
                    @Attribute(.unique) private(set) var ↓id: UUID = UUID()  // "OK: synthetic ID" (it is not)
                    ↓#Unique<Article>([\\.url])
                    var url: URL?
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """, messageIDs: ["unique_attribute", "unique_macro"]),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Model final class Article {
                    var id: UUID = UUID()
                    var url: URL?  // unique by convention: checked before insert
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
            RuleExample("""
                @Model final class Article {
                    @Attribute(.unique) var url: URL
                    init(url: URL) { self.url = url }
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .none)
                """),
            RuleExample("""
                @Model final class Tag {
                    @Attribute(.externalStorage) var icon: Data?
                    @Attribute(originalName: "title") var name: String = ""
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
        ],
        knownLimitations: """
            A SwiftData model counts as synced where a store that may hold it syncs (the stores of the targets that compile \
            it, less those whose models the file that builds them names and that hold it neither directly nor through \
            relationships); a store whose models are built elsewhere may hold any model. A unique synthetic id is \
            reported like any other unique attribute.
            """,
        messages: [uniqueAttribute, uniqueMacro, uniquenessConstraint])
    static let uniqueAttribute = RuleMessage("unique_attribute", "`@Attribute(.unique)` on `{model}.{property}` makes the CloudKit store fail to load (CloudKit is on: {evidence}); remove it and check for an existing record before inserting")
    static let uniqueMacro = RuleMessage("unique_macro", "`#Unique` on `{model}` makes the CloudKit store fail to load (CloudKit is on: {evidence}); remove it and check for an existing record before inserting")
    static let uniquenessConstraint = RuleMessage("uniqueness_constraint", "entity `{entity}` has a uniqueness constraint, which CloudKit does not support (CloudKit is on: {evidence}); remove it and deduplicate in code")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        var findings: [Finding] = []
        do {
            let schema = ModelSchema.synced(index: index)
            for property in schema.properties where property.fact.attributes.contains(where: { $0.name == "Attribute" && $0.arguments.contains(".unique") }) {
                guard let evidence = index.cloudKitEvidence(forModel: property.model, declaredIn: property.fact.location.file) else { continue }
                findings.append(description.finding(at: property.fact.location, uniqueAttribute,
                                                    ["model": property.model, "property": property.fact.name, "evidence": evidence.text],
                                                    notes: evidence.notes))
            }
            for model in schema.models {
                for macro in model.memberMacros where macro.name == "Unique" {
                    guard let evidence = index.cloudKitEvidence(forModel: model.name, declaredIn: macro.location.file) else { continue }
                    findings.append(description.finding(at: macro.location, uniqueMacro, ["model": model.name, "evidence": evidence.text],
                                                        notes: evidence.notes))
                }
            }
        }
        for model in index.coreDataModels {
            guard let evidence = index.cloudKit.coreData(modelName: model.modelName, modelPath: model.path) else { continue }
            for entity in model.syncedEntities {
                for line in entity.uniquenessConstraintLines {
                    findings.append(description.finding(inModel: model, line: line, uniquenessConstraint,
                                                        ["entity": entity.name, "evidence": evidence.text], notes: evidence.notes))
                }
            }
        }
        return findings
    }
}
