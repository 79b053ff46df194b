/// Core Data model files used as examples by the CloudKit schema rules, built from one template so
/// each example shows only the element it is about.
enum CoreDataModelExamples {
    static func model(_ entityBody: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="22522" minimumToolsVersion="Automatic" usedWithCloudKit="YES">
            <entity name="ListItem" representedClassName="ListItem" syncable="YES">
        \(entityBody)
            </entity>
            <entity name="ItemList" representedClassName="ItemList" syncable="YES">
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="ListItem" inverseName="list" inverseEntity="ListItem"/>
            </entity>
        </model>
        """
    }
}
