/// How SwiftData and Core Data stores are set up, and whether a store syncs with CloudKit: the reviewed
/// table the store collector reads (which arguments make a store in-memory, what each `cloudKitDatabase`
/// value does, which container class mirrors to CloudKit), each entry citing Apple's documentation. Plain
/// data: no syntax.

/// Whether a store syncs with CloudKit, as its configuration alone says.
public enum StoreSync: String, Codable, Sendable {
    /// Syncs, whatever the entitlements: `cloudKitDatabase: .private("iCloud.…")`; a store of an
    /// `NSPersistentCloudKitContainer`.
    case syncs
    /// Syncs when the target that builds it has the CloudKit entitlement with a container:
    /// `cloudKitDatabase: .automatic`, which is also the default.
    case followsEntitlements
    /// Never syncs: `cloudKitDatabase: .none`; a store of a plain `NSPersistentContainer`.
    case local
    /// Kept in memory: never syncs and never outlives the process.
    case inMemory
}

/// One parameter of a store API, its default, and what SyncLint reads from it.
public struct StoreParameter: Codable, Sendable, Hashable {
    public let label: String
    /// The default value as Apple documents it; nil when the parameter has none.
    public let defaultValue: String?
    public let meaning: String
}

/// One initializer or modifier that sets up a store.
public struct StoreAPI: Codable, Sendable, Hashable {
    public let symbol: String
    public let parameters: [StoreParameter]
    /// Whether the store it sets up syncs when no argument says otherwise.
    public let defaultSync: StoreSync
    public let documentation: String
}

/// A value of `ModelConfiguration.CloudKitDatabase`, as written in source.
public struct CloudKitDatabaseValue: Codable, Sendable, Hashable {
    /// The member as written after the dot: `none`, `automatic`, `private`.
    public let member: String
    public let sync: StoreSync
    public let documentation: String
}

public enum FrameworkStores {
    private static let swiftData = "https://developer.apple.com/documentation/swiftdata/"
    private static let coreData = "https://developer.apple.com/documentation/coredata/"

    /// `ModelConfiguration`'s initializers, with every parameter and its default.
    public static let modelConfigurationInitializers: [StoreAPI] = [
        StoreAPI(symbol: "ModelConfiguration.init(_:schema:isStoredInMemoryOnly:allowsSave:groupContainer:cloudKitDatabase:)",
                 parameters: [
                    StoreParameter(label: "_", defaultValue: "nil", meaning: "the configuration's name"),
                    StoreParameter(label: "schema", defaultValue: "nil", meaning: "the models this store holds; nil: the container's"),
                    StoreParameter(label: "isStoredInMemoryOnly", defaultValue: "false", meaning: "true: an in-memory store"),
                    StoreParameter(label: "allowsSave", defaultValue: "true", meaning: "false: a read-only store"),
                    StoreParameter(label: "groupContainer", defaultValue: ".automatic", meaning: "the app group the file lives in"),
                    StoreParameter(label: "cloudKitDatabase", defaultValue: ".automatic", meaning: "whether and where the store syncs"),
                 ],
                 defaultSync: .followsEntitlements,
                 documentation: swiftData + "modelconfiguration/init(_:schema:isstoredinmemoryonly:allowssave:groupcontainer:cloudkitdatabase:)"),
        StoreAPI(symbol: "ModelConfiguration.init(_:schema:url:allowsSave:cloudKitDatabase:)",
                 parameters: [
                    StoreParameter(label: "_", defaultValue: "nil", meaning: "the configuration's name"),
                    StoreParameter(label: "schema", defaultValue: "nil", meaning: "the models this store holds; nil: the container's"),
                    StoreParameter(label: "url", defaultValue: nil, meaning: "the store file; `/dev/null`: an in-memory store"),
                    StoreParameter(label: "allowsSave", defaultValue: "true", meaning: "false: a read-only store"),
                    StoreParameter(label: "cloudKitDatabase", defaultValue: ".automatic", meaning: "whether and where the store syncs"),
                 ],
                 defaultSync: .followsEntitlements,
                 documentation: swiftData + "modelconfiguration/init(_:schema:url:allowssave:cloudkitdatabase:)"),
        StoreAPI(symbol: "ModelConfiguration.init(for:isStoredInMemoryOnly:)",
                 parameters: [
                    StoreParameter(label: "for", defaultValue: nil, meaning: "the models this store holds"),
                    StoreParameter(label: "isStoredInMemoryOnly", defaultValue: "false", meaning: "true: an in-memory store"),
                 ],
                 defaultSync: .followsEntitlements,
                 documentation: swiftData + "modelconfiguration/init(for:isstoredinmemoryonly:)"),
        StoreAPI(symbol: "ModelConfiguration.init(isStoredInMemoryOnly:)",
                 parameters: [StoreParameter(label: "isStoredInMemoryOnly", defaultValue: "false", meaning: "true: an in-memory store")],
                 defaultSync: .followsEntitlements,
                 documentation: swiftData + "modelconfiguration/init(isstoredinmemoryonly:)"),
    ]

    /// The containers and modifiers that build stores.
    public static let containers: [StoreAPI] = [
        // "If you don't specify any [configuration] at initialization, the framework creates an instance of
        // ModelConfiguration for you by combining your app's entitlements with the type's default values."
        StoreAPI(symbol: "ModelContainer.init(for:migrationPlan:configurations:)",
                 parameters: [
                    StoreParameter(label: "for", defaultValue: nil, meaning: "the models (or the schema) the container holds"),
                    StoreParameter(label: "migrationPlan", defaultValue: "nil", meaning: "how older stores migrate"),
                    StoreParameter(label: "configurations", defaultValue: "one default configuration",
                                   meaning: "the stores; each holds its own schema's models, or all the container's"),
                 ],
                 defaultSync: .followsEntitlements,
                 documentation: swiftData + "modelcontainer/configurations"),
        StoreAPI(symbol: "View.modelContainer(for:inMemory:isAutosaveEnabled:isUndoEnabled:onSetup:)",
                 parameters: [
                    StoreParameter(label: "for", defaultValue: nil, meaning: "the models the container holds"),
                    StoreParameter(label: "inMemory", defaultValue: "false", meaning: "true: an in-memory store"),
                    StoreParameter(label: "isAutosaveEnabled", defaultValue: "true", meaning: "saves on its own"),
                    StoreParameter(label: "isUndoEnabled", defaultValue: "false", meaning: "registers undo"),
                    StoreParameter(label: "onSetup", defaultValue: "{ _ in }", meaning: "called with the result"),
                 ],
                 defaultSync: .followsEntitlements,
                 documentation: "https://developer.apple.com/documentation/swiftui/view/modelcontainer(for:inmemory:isautosaveenabled:isundoenabled:onsetup:)"),
        // A plain container never mirrors to CloudKit, even with `cloudKitContainerOptions` set.
        StoreAPI(symbol: "NSPersistentContainer.init(name:)",
                 parameters: [StoreParameter(label: "name", defaultValue: nil, meaning: "the model file loaded")],
                 defaultSync: .local,
                 documentation: coreData + "nspersistentcontainer"),
        // Mirrors its stores to the CloudKit container its store descriptions name (by default the first
        // container in the entitlements); a description whose `cloudKitContainerOptions` is nil stays local.
        StoreAPI(symbol: "NSPersistentCloudKitContainer.init(name:)",
                 parameters: [StoreParameter(label: "name", defaultValue: nil, meaning: "the model file loaded")],
                 defaultSync: .syncs,
                 documentation: coreData + "nspersistentcloudkitcontainer"),
        StoreAPI(symbol: "NSPersistentStoreDescription.cloudKitContainerOptions",
                 parameters: [StoreParameter(label: "cloudKitContainerOptions", defaultValue: "set from the entitlements by NSPersistentCloudKitContainer",
                                             meaning: "nil: this store stays local")],
                 defaultSync: .syncs,
                 documentation: coreData + "nspersistentstoredescription/cloudkitcontaineroptions"),
    ]

    /// `ModelConfiguration.CloudKitDatabase`'s values.
    public static let cloudKitDatabaseValues: [CloudKitDatabaseValue] = [
        CloudKitDatabaseValue(member: "none", sync: .local,
                              documentation: swiftData + "modelconfiguration/cloudkitdatabase-swift.struct/none"),
        // The default: the store syncs with the first CloudKit container of the entitlements, if there is one.
        CloudKitDatabaseValue(member: "automatic", sync: .followsEntitlements,
                              documentation: swiftData + "modelconfiguration/cloudkitdatabase-swift.struct/automatic"),
        CloudKitDatabaseValue(member: "private", sync: .syncs,
                              documentation: swiftData + "modelconfiguration/cloudkitdatabase-swift.struct/private(_:)"),
    ]

    /// Arguments that make a SwiftData store in-memory: `isStoredInMemoryOnly: true`
    /// (`ModelConfiguration`), `inMemory: true` (`.modelContainer(for:inMemory:)`).
    public static let inMemoryLabels: Set<String> = ["isStoredInMemoryOnly", "inMemory"]

    /// What makes a store in-memory when it appears as a store type or URL: Core Data's in-memory store
    /// type, and a `/dev/null` URL (a SQLite store at `/dev/null` keeps nothing).
    public static let inMemoryStoreTypeName = "NSInMemoryStoreType"
    public static let inMemoryStorePath = "/dev/null"
    public static let inMemoryDocumentation = coreData + "nsinmemorystoretype"

    /// The store description property that turns mirroring off for one store when set to nil.
    public static let cloudKitOptionsProperty = "cloudKitContainerOptions"

    /// The container classes, by name, and what their stores do.
    public static let containerClasses: [String: StoreSync] = [
        "NSPersistentContainer": .local,
        "NSPersistentCloudKitContainer": .syncs,
    ]

    /// What a `cloudKitDatabase:` argument written as `text` does: `.none`, `.automatic`, `.private("…")`,
    /// also spelled `ModelConfiguration.CloudKitDatabase.none`. Any other expression (a variable, a
    /// condition) may sync: nil, and the caller decides what unknown means for it.
    public static func cloudKitDatabase(_ text: String) -> StoreSync? {
        var member = text
        if let open = member.firstIndex(of: "(") { member = String(member[..<open]) }
        for prefix in ["ModelConfiguration.CloudKitDatabase.", "."] where member.hasPrefix(prefix) {
            let name = String(member.dropFirst(prefix.count))
            return cloudKitDatabaseValues.first { $0.member == name }?.sync
        }
        return nil
    }

    /// Whether a store of a configuration, built with the given sync and a target's entitlements, syncs.
    public static func syncs(_ sync: StoreSync, targetHasCloudKitEntitlement: Bool) -> Bool {
        switch sync {
        case .syncs: return true
        case .followsEntitlements: return targetHasCloudKitEntitlement
        case .local, .inMemory: return false
        }
    }
}
