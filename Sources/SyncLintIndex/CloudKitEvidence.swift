import Foundation

/// Whether stores sync with CloudKit, and the file and line that says so. Every CloudKit rule applies
/// only where this finds evidence, and names it in its message.
///
/// Evidence is asked for a place (a model's file, a container's file): it comes from the stores of the
/// Xcode targets that compile that file, and from those targets' own entitlements, so an app target that
/// syncs never decides for a widget that does not. A file in no known target (a folder or package with no
/// Xcode project) takes the whole project's stores and entitlements. Stores built in tests or previews,
/// and in-memory stores, were left out before they got here.
public struct CloudKitEvidence: Sendable {
    /// The app's stores: app code only, in-memory ones removed.
    let stores: [StoreConfiguration]
    /// Paths of the project's entitlements plists that list CloudKit and an iCloud container.
    let cloudKitEntitlements: [String]
    let layout: ProjectLayout
    let mode: CloudKitMode

    static let forced = "the configuration's `cloudkit: on`"

    init(stores: [StoreConfiguration], resources: [ResourceFile], layout: ProjectLayout, mode: CloudKitMode) {
        self.stores = stores
        self.cloudKitEntitlements = resources.filter { $0.kind == .entitlements && Self.listsCloudKit($0) }.map(\.path)
        self.layout = layout
        self.mode = mode
    }

    /// The stores and entitlements that decide for code in one place.
    private struct Scope {
        let target: String?
        let stores: [StoreConfiguration]
        let entitlements: String?

        func described(_ evidence: String) -> String {
            target.map { "\(evidence) (target `\($0)`)" } ?? evidence
        }
    }

    private func scopes(for file: String) -> [Scope] {
        let targets = layout.targets(containing: file).filter { !$0.isTest }
        guard !targets.isEmpty else { return [Scope(target: nil, stores: stores, entitlements: cloudKitEntitlements.first)] }
        return targets.map { target in
            Scope(target: target.name, stores: stores.filter { target.contains($0.location.file) },
                  entitlements: target.entitlements.flatMap { cloudKitEntitlements.contains($0) ? $0 : nil })
        }
    }

    /// Evidence that SwiftData models declared (or containers built) in `file` sync, or nil.
    public func swiftData(for file: String) -> String? {
        switch mode {
        case .off: return nil
        case .on: return Self.forced
        case .auto: break
        }
        for scope in scopes(for: file) {
            for store in scope.stores {
                switch store.kind {
                case .swiftDataCloudKit:
                    return scope.described("`cloudKitDatabase` at \(store.location.description)")
                case .swiftDataAutomatic:
                    if let entitlements = scope.entitlements {
                        return scope.described("the default configuration at \(store.location.description) with CloudKit in \(entitlements)")
                    }
                default: break
                }
            }
        }
        return nil
    }

    /// Evidence that the Core Data model at `modelPath` syncs: a CloudKit container that loads it by name
    /// (or by a name the index cannot read) in a target that holds the model, or the configuration.
    public func coreData(modelName: String, modelPath: String) -> String? {
        coreDataContainer(for: modelPath) { $0 == nil || $0 == modelName }
    }

    /// Evidence that a Core Data store built in `file` syncs.
    public func coreDataAny(for file: String) -> String? {
        coreDataContainer(for: file) { _ in true }
    }

    private func coreDataContainer(for file: String, loading matches: (String?) -> Bool) -> String? {
        switch mode {
        case .off: return nil
        case .on: return Self.forced
        case .auto: break
        }
        for scope in scopes(for: file) {
            if let store = scope.stores.first(where: { $0.kind == .coreDataCloudKit && matches($0.modelName) }) {
                return scope.described("`NSPersistentCloudKitContainer` at \(store.location.description)")
            }
        }
        return nil
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
