import Foundation

/// Proof that a store syncs with CloudKit: the words a message prints (`text`, also its `description`, so it reads
/// as before in an interpolation) and the places a finding's notes point at (the store, the entitlements).
public struct CloudKitProof: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    public let notes: [FindingNote]

    public init(_ text: String, notes: [FindingNote] = []) {
        self.text = text
        self.notes = notes
    }

    public var description: String { text }
}

/// Whether stores sync with CloudKit, and the file and line that says so. Every CloudKit rule applies
/// only where this finds evidence, and names it in its message (relative to the linted folder).
///
/// Evidence is asked for a place (a model's file, a container's file): it comes from the stores of the
/// Xcode targets that compile that file, and from those targets' own entitlements, so an app target that
/// syncs never decides for a widget that does not. A file in no known target (a folder or package with no
/// Xcode project) takes the whole project's stores and entitlements. Stores built in tests or previews
/// were left out before they got here; in-memory stores are kept (they never count as evidence).
public struct CloudKitEvidence: Sendable {
    /// The app's stores: app code only (in-memory ones included: they never count as evidence, and they
    /// tell that a container is not synced).
    let stores: [StoreConfiguration]
    /// Paths of the project's entitlements plists that list CloudKit and an iCloud container.
    let cloudKitEntitlements: [String]
    /// Per entitlements file that lists CloudKit, the line that names the CloudKit service (for a note).
    let cloudKitEntitlementLines: [String: Int]
    let layout: ProjectLayout
    let mode: CloudKitMode

    static let forced = CloudKitProof("the configuration's `cloudkit: on`")

    init(stores: [StoreConfiguration], resources: [ResourceFile], layout: ProjectLayout, mode: CloudKitMode) {
        self.stores = stores
        let listing = resources.filter { $0.kind == .entitlements && Self.listsCloudKit($0) }
        self.cloudKitEntitlements = listing.map(\.path)
        var lines: [String: Int] = [:]
        for file in listing {
            let number = file.text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(">CloudKit") }
            lines[file.path] = (number ?? 0) + 1
        }
        self.cloudKitEntitlementLines = lines
        self.layout = layout
        self.mode = mode
    }

    /// The stores and entitlements that decide for code in one place.
    private struct Scope {
        let target: String?
        let stores: [StoreConfiguration]
        let entitlements: String?

        /// Whether code of this scope may use CloudKit: a known target only when its entitlements list CloudKit
        /// (an `NSPersistentCloudKitContainer` takes its container from them, and mirrors nothing without); code
        /// in no known target may (a folder with no Xcode project says nothing about entitlements).
        var mayUseCloudKit: Bool { target == nil || entitlements != nil }

        func described(_ evidence: String, notes: [FindingNote]) -> CloudKitProof {
            CloudKitProof(target.map { "\(evidence) (target `\($0)`)" } ?? evidence, notes: notes)
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

    /// Evidence that SwiftData models declared (or containers built) in `file` sync, or nil. Only the stores
    /// `counts` accepts are asked (every store by default): the ones that hold a model, or that a container
    /// builds.
    public func swiftData(for file: String, counting counts: (StoreConfiguration) -> Bool = { _ in true }) -> CloudKitProof? {
        switch mode {
        case .off: return nil
        case .on: return Self.forced
        case .auto: break
        }
        for scope in scopes(for: file) {
            for store in scope.stores where counts(store) {
                switch store.kind {
                case .swiftDataCloudKit:
                    return scope.described("`cloudKitDatabase` at \(layout.shown(store.location))",
                                           notes: [FindingNote("this store syncs with CloudKit (`cloudKitDatabase`)", at: store.location)])
                case .swiftDataAutomatic:
                    if let entitlements = scope.entitlements {
                        return scope.described("the default configuration at \(layout.shown(store.location)) with CloudKit in \(layout.shown(entitlements))",
                                               notes: [FindingNote("this store syncs with CloudKit by default", at: store.location),
                                                       entitlementsNote(entitlements)])
                    }
                default: break
                }
            }
        }
        return nil
    }

    /// Evidence that the Core Data model at `modelPath` syncs: a CloudKit container that loads it by name
    /// (or by a name the index cannot read) in a target that holds the model, or the configuration.
    public func coreData(modelName: String, modelPath: String) -> CloudKitProof? {
        coreDataContainer(for: modelPath) { $0 == nil || $0 == modelName }
    }

    /// Whether the app targets that compile `file` may use CloudKit at all: one of them has entitlements listing
    /// CloudKit. A `NSPersistentCloudKitContainer` in targets without them never syncs. True when no target is
    /// known to hold the file (a folder with no Xcode project says nothing about entitlements), or when the
    /// configuration forces CloudKit on.
    public func entitlementsAllowCloudKit(for file: String) -> Bool {
        switch mode {
        case .off: return false
        case .on: return true
        case .auto: break
        }
        return scopes(for: file).contains(where: \.mayUseCloudKit)
    }

    /// Evidence that a Core Data store built in `file` syncs.
    public func coreDataAny(for file: String) -> CloudKitProof? {
        coreDataContainer(for: file) { _ in true }
    }

    /// Evidence that the SwiftData container created at `location` syncs: asked of its own stores when the
    /// file says what every one of them is (inline, or bound to a name the container uses); nil when each is
    /// local or in memory. A container whose configurations are built elsewhere is judged by its file's
    /// targets, as any store built there.
    public func swiftData(containerAt location: SourceLocation, configurationCount: Int?) -> CloudKitProof? {
        let own = stores.filter { $0.container == location }
        guard let configurationCount, !own.isEmpty, own.count >= configurationCount else { return swiftData(for: location.file) }
        return swiftData(for: location.file) { $0.container == location }
    }

    /// Evidence that the Core Data container bound to `name` in `file` (`container` for `container.loadPersistentStores`)
    /// syncs: nil when every container of that name built in the file is local or in memory; the file's
    /// targets decide when the file builds none of that name.
    public func coreData(containerNamed name: String, in file: String) -> CloudKitProof? {
        guard mode == .auto else { return coreDataAny(for: file) }
        let named = stores.filter { $0.location.file == file && $0.bindingName == name && [.coreDataCloudKit, .coreDataLocal, .inMemory].contains($0.kind) }
        guard !named.isEmpty else { return coreDataAny(for: file) }
        guard named.contains(where: { $0.kind == .coreDataCloudKit }) else { return nil }
        return coreDataAny(for: file)
    }

    private func coreDataContainer(for file: String, loading matches: (String?) -> Bool) -> CloudKitProof? {
        switch mode {
        case .off: return nil
        case .on: return Self.forced
        case .auto: break
        }
        // In a known target whose entitlements list no CloudKit the container mirrors nothing: a local store.
        for scope in scopes(for: file) where scope.mayUseCloudKit {
            if let store = scope.stores.first(where: { $0.kind == .coreDataCloudKit && matches($0.modelName) }) {
                var notes = [FindingNote("this container syncs with CloudKit", at: store.location)]
                if let entitlements = scope.entitlements { notes.append(entitlementsNote(entitlements)) }
                return scope.described("`NSPersistentCloudKitContainer` at \(layout.shown(store.location))", notes: notes)
            }
        }
        return nil
    }

    /// A note at the line of the entitlements that turns CloudKit on.
    private func entitlementsNote(_ path: String) -> FindingNote {
        FindingNote("CloudKit is turned on here", at: SourceLocation(file: path, line: cloudKitEntitlementLines[path] ?? 1, column: 1))
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
