/// A synced attribute that is neither optional nor has a default value.
public enum CloudKitNonoptionalAttributeRule: ProjectRule {
    public static let description = RuleDescription(
        id: "cloudkit_nonoptional_attribute",
        name: "CloudKit Non-optional Attribute",
        whatItDoes: """
            Finds a stored property of a SwiftData model (not `@Transient`, not a relationship) that is neither \
            optional nor has a default value, and a non-optional Core Data attribute without a default value, \
            where the store syncs with CloudKit.
            """,
        whyIsThisBad: """
            CloudKit records can arrive without any given field, so a CloudKit-backed schema requires every \
            attribute to be optional or to have a default; otherwise loading the store fails and the app crashes \
            at launch the same way a unique constraint does. A value assigned only in `init` is not a \
            schema default.
            """,
        seed: "003",
        severity: .error,
        triggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                ↓        <attribute name="title" attributeType="String"/>
                        <attribute name="orderNumber" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                        <attribute name="note" optional="YES" attributeType="String"/>
                """), kind: .coreDataModel),
            RuleExample("""
                @Model final class Article {
                    var ↓url: URL
                    var title: String = ""
                    init(url: URL) { self.url = url }
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
            RuleExample("""
                @Model final class Die {
                    var ↓value: Int
                    var ↓locked: Bool
                    init(value: Int) { self.value = value; self.locked = false }
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
            RuleExample("""
                @Model final class Note { var body: String = "" }
                @Model final class CachedImage {
                    var ↓url: URL
                    init(url: URL) { self.url = url }
                }
                let synced = try ModelContainer(for: Note.self, CachedImage.self,
                                                configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App")))
                let cache = try ModelContainer(for: CachedImage.self, configurations: ModelConfiguration(cloudKitDatabase: .none))
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Model final class Article {
                    var url: URL?
                    var title: String = ""
                    var savedDate: Date = Date()
                    @Transient var isSelected: Bool
                    var summary: String { title }
                }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
            RuleExample("""
                @Model final class Article {
                    var url: URL
                    init(url: URL) { self.url = url }
                }
                let container = try ModelContainer(for: Article.self, configurations: ModelConfiguration(cloudKitDatabase: .none))
                """),
            RuleExample("""
                @Model final class Item { var timestamp: Date; init(timestamp: Date) { self.timestamp = timestamp } }
                @Model final class Chore { var title: String = "" }
                let schema = Schema([Chore.self])
                let configuration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
            RuleExample("""
                @Model final class Note { var body: String = "" }
                @Model final class CachedImage {
                    var url: URL
                    init(url: URL) { self.url = url }
                }
                let synced = try ModelContainer(for: Note.self, configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App")))
                let cache = try ModelContainer(for: CachedImage.self, configurations: ModelConfiguration(cloudKitDatabase: .none))
                """),
            RuleExample("""
                @Model final class Note { var body: String = "" }
                @Model final class CachedImage {
                    var url: URL
                    init(url: URL) { self.url = url }
                }
                let synced = ModelConfiguration("Synced", schema: Schema([Note.self]), cloudKitDatabase: .private("iCloud.com.example.App"))
                let cache = ModelConfiguration("Cache", schema: Schema([CachedImage.self]), cloudKitDatabase: .none)
                let container = try ModelContainer(for: Note.self, CachedImage.self, configurations: synced, cache)
                """),
        ],
        knownLimitations: """
            Relationships are left to `cloudkit_nonoptional_relationship`. A SwiftData model counts as synced where a store that may hold it syncs (the stores of the targets that compile \
            it, less those whose models the file that builds them names and that hold it neither directly nor through \
            relationships); a store whose models are built elsewhere may hold any model. When the project registers models, only registered models (and those \
            reachable from them) are checked, as with every SwiftData CloudKit rule.
            """,
        messages: [nonoptionalOnModel, nonoptionalInModelFile])
    static let nonoptionalOnModel = RuleMessage("nonoptional_attribute", "`{model}.{property}` is neither optional nor defaulted, so the CloudKit store fails to load (CloudKit is on: {evidence}); give it a default value or make it optional")
    static let nonoptionalInModelFile = RuleMessage("nonoptional_attribute_in_model_file", "attribute `{entity}.{attribute}` is neither optional nor defaulted, which CloudKit does not allow (CloudKit is on: {evidence}); make it optional or give it a default value")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        var findings: [Finding] = []
        for property in ModelSchema.synced(index: index).properties where !property.isRelationship && !property.fact.isOptional && !property.fact.hasDefault {
            if let evidence = index.cloudKitEvidence(forModel: property.model, declaredIn: property.fact.location.file) {
                findings.append(description.finding(at: property.fact.location, nonoptionalOnModel,
                                                    ["model": property.model, "property": property.fact.name, "evidence": evidence.text],
                                                    notes: evidence.notes))
            }
        }
        for model in index.coreDataModels {
            guard let evidence = index.cloudKit.coreData(modelName: model.modelName, modelPath: model.path) else { continue }
            for entity in model.syncedEntities {
                for attribute in entity.attributes where !attribute.isOptional && !attribute.isTransient && !attribute.hasDefault {
                    findings.append(description.finding(inModel: model, line: attribute.line, nonoptionalInModelFile,
                                                        ["entity": entity.name, "attribute": attribute.name, "evidence": evidence.text],
                                                        notes: evidence.notes))
                }
            }
        }
        return findings
    }
}
