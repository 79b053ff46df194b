/// A synced relationship that is not optional.
public enum CloudKitNonoptionalRelationshipRule: ProjectRule {
    public static let description = RuleDescription(
        id: "cloudkit_nonoptional_relationship",
        name: "CloudKit Non-optional Relationship",
        whatItDoes: """
            Finds a SwiftData relationship (a property whose type is another model or a collection of one) that \
            is not optional, and a non-optional Core Data relationship, where the store syncs with CloudKit.
            """,
        whyIsThisBad: """
            CloudKit requires every relationship to be optional: records and their references sync separately \
            and arrive in any order. A non-optional relationship, including the common `var items: [Item] = []`, \
            makes the CloudKit-backed store fail to load and the app crash at launch (the same crash as a unique constraint under CloudKit).
            """,
        seed: "003",
        severity: .error,
        triggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                ↓        <relationship name="list" maxCount="1" deletionRule="Nullify" destinationEntity="ItemList" inverseName="items" inverseEntity="ItemList"/>
                """), kind: .coreDataModel),
            RuleExample("""
                @Model final class DiceGroup {
                    var name: String = ""
                    var ↓dice: [Die] = []
                }
                @Model final class Die { var value: Int = 1; var ↓group: DiceGroup }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.Dice"))
                """),
            RuleExample("""
                @Model final class Folder {
                    @Relationship(deleteRule: .cascade) var ↓bookmarks: [Bookmark] = []
                }
                @Model final class Bookmark { var folder: Folder? }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
        ],
        nonTriggeringExamples: [
            // Optional without an annotation: the value is spelled with its optional type.
            RuleExample("""
                @Model final class Diary {
                    var objects = [DiaryObject]?.some([])
                    var recipe = Recipe?.none
                }
                @Model final class DiaryObject { var diary: Diary? }
                @Model final class Recipe { var diaries: [Diary]? = [] }
                let config = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                """),
            RuleExample("""
                @Model final class DiceGroup {
                    var name: String = ""
                    @Relationship(deleteRule: .cascade, inverse: \\Die.group) var dice: [Die]? = []
                }
                @Model final class Die { var value: Int = 1; var group: DiceGroup? }
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.Dice"))
                """),
            RuleExample("""
                @Model final class DiceGroup { var dice: [Die] = [] }
                @Model final class Die { var value: Int = 1 }
                let configuration = ModelConfiguration(cloudKitDatabase: .none)
                """),
        ],
        knownLimitations: """
            A relationship is recognized by `@Relationship` or by a property type that is a `@Model` class the \
            index knows (or an array or set of one). \
            A SwiftData model counts as synced where a store that may hold it syncs (the stores of the targets that compile \
            it, less those whose models the file that builds them names and that hold it neither directly nor through \
            relationships); a store whose models are built elsewhere may hold any model.
            """,
        messages: [nonoptionalOnModel, nonoptionalInModelFile])
    static let nonoptionalOnModel = RuleMessage("nonoptional_relationship", "relationship `{model}.{property}` is not optional, so the CloudKit store fails to load (CloudKit is on: {evidence}); declare it optional, e.g. `[{element}]?`")
    static let nonoptionalInModelFile = RuleMessage("nonoptional_relationship_in_model_file", "relationship `{entity}.{relationship}` is not optional, which CloudKit does not allow (CloudKit is on: {evidence}); mark it optional")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        var findings: [Finding] = []
        for property in ModelSchema.synced(index: index).properties where property.isRelationship && !property.fact.isOptional {
            if let evidence = index.cloudKitEvidence(forModel: property.model, declaredIn: property.fact.location.file) {
                findings.append(description.finding(at: property.fact.location, nonoptionalOnModel,
                                                    ["model": property.model, "property": property.fact.name, "evidence": evidence.text,
                                                     "element": property.fact.elementTypeName ?? "Item"], notes: evidence.notes))
            }
        }
        for model in index.coreDataModels {
            guard let evidence = index.cloudKit.coreData(modelName: model.modelName, modelPath: model.path) else { continue }
            for entity in model.syncedEntities {
                for relationship in entity.relationships where !relationship.isOptional {
                    findings.append(description.finding(inModel: model, line: relationship.line, nonoptionalInModelFile,
                                                        ["entity": entity.name, "relationship": relationship.name, "evidence": evidence.text],
                                                        notes: evidence.notes))
                }
            }
        }
        return findings
    }
}
