/// An ordered relationship in a Core Data model that syncs with CloudKit.
public enum CloudKitOrderedRelationshipRule: ProjectRule {
    public static let description = RuleDescription(
        id: "cloudkit_ordered_relationship",
        name: "CloudKit Ordered Relationship",
        whatItDoes: "Finds `ordered=\"YES\"` relationships in Core Data model files loaded by an `NSPersistentCloudKitContainer`.",
        whyIsThisBad: """
            CloudKit does not support ordered relationships; a model with one fails to load in an \
            `NSPersistentCloudKitContainer`, crashing at launch when the load error is fatal (the same \
            launch crash as a unique constraint under CloudKit, for Core Data). Keep an explicit sort-order attribute instead.
            """,
        seed: "003, 004",
        severity: .error,
        triggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                        <attribute name="title" optional="YES" attributeType="String"/>
                ↓        <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" ordered="YES" destinationEntity="ItemList" inverseName="items" inverseEntity="ItemList"/>
                """), kind: .coreDataModel),
        ],
        nonTriggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                        <attribute name="orderNumber" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                        <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="ItemList" inverseName="items" inverseEntity="ItemList"/>
                """), kind: .coreDataModel),
            RuleExample(CoreDataModelExamples.model("""
                        <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" ordered="NO" destinationEntity="ItemList" inverseName="items" inverseEntity="ItemList"/>
                """), kind: .coreDataModel),
        ],
        knownLimitations: "Only models loaded by a CloudKit container (by literal name, or any model when the name is not a literal) are checked.",
        messages: [orderedRelationship])
    static let orderedRelationship = RuleMessage("ordered_relationship", "relationship `{entity}.{relationship}` is ordered, which CloudKit does not support (CloudKit is on: {evidence}); make it unordered and sort by an explicit order attribute")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        index.coreDataModels.flatMap { model -> [Finding] in
            guard let evidence = index.cloudKit.coreData(modelName: model.modelName, modelPath: model.path) else { return [] }
            return model.syncedEntities.flatMap { entity in
                entity.relationships.filter(\.isOrdered).map { relationship in
                    description.finding(inModel: model, line: relationship.line, orderedRelationship,
                                        ["entity": entity.name, "relationship": relationship.name, "evidence": evidence.text], notes: evidence.notes)
                }
            }
        }
    }
}
