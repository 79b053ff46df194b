/// A relationship without an inverse in a Core Data model that syncs with CloudKit.
public enum CloudKitMissingInverseRule: ProjectRule {
    public static let description = RuleDescription(
        id: "cloudkit_missing_inverse",
        name: "CloudKit Missing Inverse",
        whatItDoes: "Finds relationships without `inverseName` in Core Data model files loaded by an `NSPersistentCloudKitContainer`.",
        whyIsThisBad: """
            `NSPersistentCloudKitContainer` requires every relationship to have an inverse, because it rebuilds \
            relationships from references that sync one record at a time; a model without one fails to load \
            (the launch crash of a unique constraint under CloudKit, for Core Data).
            """,
        seed: "003, 004",
        severity: .error,
        triggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                ↓        <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="ItemList"/>
                """), kind: .coreDataModel),
        ],
        nonTriggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                        <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="ItemList" inverseName="items" inverseEntity="ItemList"/>
                """), kind: .coreDataModel),
            RuleExample(CoreDataModelExamples.model("""
                        <attribute name="title" optional="YES" attributeType="String"/>
                """), kind: .coreDataModel),
        ],
        knownLimitations: "Only models loaded by a CloudKit container (by literal name, or any model when the name is not a literal) are checked.",
        messages: [missingInverse])
    static let missingInverse = RuleMessage("missing_inverse", "relationship `{entity}.{relationship}` has no inverse, which CloudKit requires (CloudKit is on: {evidence}); add the inverse relationship")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        index.coreDataModels.flatMap { model -> [Finding] in
            guard let evidence = index.cloudKit.coreData(modelName: model.modelName, modelPath: model.path) else { return [] }
            return model.syncedEntities.flatMap { entity in
                entity.relationships.filter { $0.inverseName == nil }.map { relationship in
                    description.finding(inModel: model, line: relationship.line, missingInverse,
                                        ["entity": entity.name, "relationship": relationship.name, "evidence": evidence.text], notes: evidence.notes)
                }
            }
        }
    }
}
