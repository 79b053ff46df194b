import Foundation

/// Whether the project syncs its stores with CloudKit, and the file and line that says so.
/// Every CloudKit rule applies only where this finds evidence, and names it in its message.
public struct CloudKitEvidence: Sendable {
    /// Evidence that SwiftData models sync, or nil when they do not.
    public let swiftData: String?
    /// Evidence per Core Data model name ("" for containers whose model name is not a literal).
    let coreDataContainers: [(modelName: String?, evidence: String)]
    let forcedOn: Bool

    init(stores: [StoreConfiguration], resources: [ResourceFile], mode: Configuration.CloudKitMode) {
        forcedOn = mode == .on
        guard mode != .off else {
            swiftData = nil
            coreDataContainers = []
            return
        }
        if mode == .on {
            swiftData = "the configuration's `cloudkit: on`"
            coreDataContainers = []
            return
        }
        let entitlements = resources.filter { $0.kind == .entitlements }.first(where: Self.listsCloudKit)
        var swiftData: String?
        for store in stores {
            switch store.kind {
            case .swiftDataCloudKit:
                swiftData = swiftData ?? "`cloudKitDatabase` at \(store.location.description)"
            case .swiftDataAutomatic:
                if let entitlements {
                    swiftData = swiftData ?? "the default configuration at \(store.location.description) with CloudKit in \(entitlements.path)"
                }
            default: break
            }
        }
        self.swiftData = swiftData
        coreDataContainers = stores.filter { $0.kind == .coreDataCloudKit }
            .map { ($0.modelName, "`NSPersistentCloudKitContainer` at \($0.location.description)") }
    }

    /// Evidence that a Core Data model syncs: a CloudKit container that loads it by name (or by a name
    /// the index cannot read), or the configuration forcing CloudKit on.
    public func coreData(modelName: String) -> String? {
        if forcedOn { return "the configuration's `cloudkit: on`" }
        return coreDataContainers.first { $0.modelName == nil || $0.modelName == modelName }?.evidence
    }

    /// Evidence that any Core Data store syncs.
    public var coreDataAny: String? {
        forcedOn ? "the configuration's `cloudkit: on`" : coreDataContainers.first?.evidence
    }

    /// One warning line for an entitlements file that is not a property list dictionary: it is then
    /// no evidence either way, and the user should know that SyncLint did not read it.
    static func entitlementsProblem(_ file: ResourceFile) -> String? {
        let plist = try? PropertyListSerialization.propertyList(from: Data(file.text.utf8), format: nil)
        guard plist as? [String: Any] == nil else { return nil }
        return "warning: \(file.path): not a property list dictionary; its entitlements are ignored"
    }

    /// An entitlements plist that lists the CloudKit service and at least one iCloud container.
    static func listsCloudKit(_ file: ResourceFile) -> Bool {
        guard let plist = try? PropertyListSerialization.propertyList(from: Data(file.text.utf8), format: nil) as? [String: Any]
        else { return false }
        let services = plist["com.apple.developer.icloud-services"] as? [String] ?? []
        let containers = plist["com.apple.developer.icloud-container-identifiers"] as? [String] ?? []
        return services.contains { $0.hasPrefix("CloudKit") } && !containers.isEmpty
    }
}
