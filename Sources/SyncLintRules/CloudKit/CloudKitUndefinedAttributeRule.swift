/// An attribute of type Undefined in a Core Data model that syncs with CloudKit.
public enum CloudKitUndefinedAttributeRule: ProjectRule {
    public static let description = RuleDescription(
        id: "cloudkit_undefined_attribute",
        name: "CloudKit Undefined Attribute",
        whatItDoes: "Finds attributes of type Undefined in Core Data model files loaded by an `NSPersistentCloudKitContainer`.",
        whyIsThisBad: """
            An Undefined attribute has no CloudKit field type to map to, so the model cannot be loaded in a \
            CloudKit container (the launch crash of a unique constraint under CloudKit, for Core Data). Give it a concrete type; mark it \
            transient if it is never stored.
            """,
        seed: "003, 004",
        severity: .error,
        triggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                ↓        <attribute name="payload" optional="YES" attributeType="Undefined"/>
                """), kind: .coreDataModel),
        ],
        nonTriggeringExamples: [
            RuleExample(CoreDataModelExamples.model("""
                        <attribute name="payload" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                """), kind: .coreDataModel),
            RuleExample(CoreDataModelExamples.model("""
                        <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>
                """), kind: .coreDataModel),
        ],
        knownLimitations: "Transient attributes are not synced and are not reported.",
        messages: [undefinedAttribute])
    static let undefinedAttribute = RuleMessage("undefined_attribute", "attribute `{entity}.{attribute}` has the Undefined type, which CloudKit cannot store (CloudKit is on: {evidence}); give it a concrete type")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        index.coreDataModels.flatMap { model -> [Finding] in
            guard let evidence = index.cloudKit.coreData(modelName: model.modelName, modelPath: model.path) else { return [] }
            return model.syncedEntities.flatMap { entity in
                entity.attributes.filter { $0.type == "Undefined" && !$0.isTransient }.map { attribute in
                    description.finding(inModel: model, line: attribute.line, undefinedAttribute,
                                        ["entity": entity.name, "attribute": attribute.name, "evidence": evidence.text], notes: evidence.notes)
                }
            }
        }
    }
}
