/// What one file contributes to the project index, collected during its single walk.
public struct FileFacts: Sendable, Codable {
    public var types: [TypeFact] = []
    public var modelRegistrations: [ModelRegistration] = []
    public var storeConfigurations: [StoreConfiguration] = []
    /// Containers built in the file, and the `Schema([...])` values it names, so each store can be given
    /// the models it holds (`StoreFacts.resolve`).
    public var containers: [ContainerFact] = []
    public var schemaBindings: [SchemaBinding] = []
    public var coreData = CoreDataFacts()
    /// What each function of the file does; see `FunctionSummary`.
    public var functionSummaries: [FunctionSummary] = []
    /// SwiftUI view types constructed in the file's views.
    public var viewConstructions: [ViewConstruction] = []
    /// Whether the file is test code, and where its preview code is.
    public var codePlaces = FileCodePlaces()
    /// Properties the file's `#Predicate`s look models up by.
    public var fetchKeys: [FetchKey] = []
    /// Static members of SwiftData versioned schemas and migration plans (`versionIdentifier`, `models`, `schemas`).
    public var schemaMembers: [SchemaMemberFact] = []
    /// Members of models that the file's `#Predicate`s read.
    public var predicateMembers: [PredicateMemberFact] = []
    /// Names the file's view code reads (`model.errorMessage`, `$error`, `alertItem`); see `ProjectIndex.viewReadNames`.
    public var viewReadNames: Set<String> = []
    /// Code that never runs, and what decides whether a type is ever built; see `DeadCodeFacts`.
    public var deadCode = DeadCodeFacts()
    /// The targets a `Package.swift` declares, with the folders of their sources and their default isolation.
    public var packageTargets: [PackageTargetFact] = []
    /// The file's top-level `typealias Name = Target` declarations whose target is a plain type name (`OfflineTrack =
    /// OfflineTrackV2`, `Item = SchemaV2.Item`): a name the module's code uses for that type.
    public var typeAliases: [String: String] = [:]

    public init() {}
}

/// A target declared in a `Package.swift`: the folder its sources are in (`path:`, else `Sources/<name>`, or
/// `Tests/<name>` for a test target, below the manifest's folder) and whether its `swiftSettings` make the module
/// default to the main actor (`.defaultIsolation(MainActor.self)`, Swift 6.2).
public struct PackageTargetFact: Sendable, Codable, Hashable {
    public let name: String
    /// Absolute path of the folder of the target's sources.
    public let folder: String
    public let defaultsToMainActor: Bool
    /// `.enableUpcomingFeature("NonisolatedNonsendingByDefault")` (SE-0461): its async functions with no isolation run
    /// on their caller's actor.
    public var nonisolatedAsyncRunsOnCaller = false

    package init(name: String, folder: String, defaultsToMainActor: Bool, nonisolatedAsyncRunsOnCaller: Bool = false) {
        self.name = name
        self.folder = folder
        self.defaultsToMainActor = defaultsToMainActor
        self.nonisolatedAsyncRunsOnCaller = nonisolatedAsyncRunsOnCaller
    }
}

/// A place that lists `@Model` types for a container: `.modelContainer(for:)`, `ModelContainer(for:)`,
/// `Schema([...])`, `VersionedSchema.models`.
public struct ModelRegistration: Sendable, Codable {
    public let typeNames: [String]
    public let location: SourceLocation
    /// The type the registration is written in (qualified), where its names are looked up first: an older schema
    /// version's `models` list names its own nested `Item`.
    public var scope: String?

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(typeNames: [String], location: SourceLocation) {
        self.typeNames = typeNames
        self.location = location
    }
}

/// How the project creates a persistent store, and whether that store syncs with CloudKit.
public struct StoreConfiguration: Sendable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// `ModelConfiguration(cloudKitDatabase: .private(...))` / `.automatic`.
        case swiftDataCloudKit
        /// `ModelConfiguration(cloudKitDatabase: .none)`.
        case swiftDataLocal
        /// A `ModelConfiguration` or `.modelContainer` without `cloudKitDatabase`: syncs when entitlements allow.
        case swiftDataAutomatic
        /// `NSPersistentCloudKitContainer(...)`.
        case coreDataCloudKit
        /// `NSPersistentContainer(...)`.
        case coreDataLocal
        /// A store kept in memory (`isStoredInMemoryOnly: true`, `inMemory: true`, a `/dev/null` URL, or a
        /// container whose function always sets `NSInMemoryStoreType` or `/dev/null`): never synced.
        case inMemory
    }

    public let kind: Kind
    public let location: SourceLocation
    /// For Core Data: the model name passed to the container, if written as a literal.
    public let modelName: String?
    /// The name the configuration (or Core Data container) is bound to: `config` in
    /// `let config = ModelConfiguration(...)`, `container` in `container = NSPersistentContainer(...)`.
    public var bindingName: String?
    /// Models the configuration names itself: `ModelConfiguration(for: A.self)`, `schema: Schema([A.self])`.
    public var ownModels: [String]?
    /// The schema variable the configuration names: `schema` in `ModelConfiguration(schema: schema)`.
    public var ownSchemaName: String?
    /// Where the container that builds this store is created, once known.
    public var container: SourceLocation?
    /// The models the store holds, once known; nil when unknown (then it may hold any model).
    public var models: [String]?

    public init(kind: Kind, location: SourceLocation, modelName: String?, bindingName: String? = nil,
                ownModels: [String]? = nil, ownSchemaName: String? = nil, container: SourceLocation? = nil, models: [String]? = nil) {
        self.kind = kind
        self.location = location
        self.modelName = modelName
        self.bindingName = bindingName
        self.ownModels = ownModels
        self.ownSchemaName = ownSchemaName
        self.container = container
        self.models = models
    }

    /// Whether the store syncs, as its configuration alone says (the target's entitlements decide `.followsEntitlements`).
    public var sync: StoreSync {
        switch kind {
        case .swiftDataCloudKit, .coreDataCloudKit: return .syncs
        case .swiftDataAutomatic: return .followsEntitlements
        case .swiftDataLocal, .coreDataLocal: return .local
        case .inMemory: return .inMemory
        }
    }
}

/// A SwiftData container created in code: `ModelContainer(for: A.self, B.self, configurations: config)`,
/// `.modelContainer(for: [A.self])`.
public struct ContainerFact: Sendable, Codable {
    public let location: SourceLocation
    /// The models it is created for (`X.self` outside its configurations).
    public let models: [String]
    /// The schema variable it is created for: `schema` in `ModelContainer(for: schema, ...)`.
    public let schemaName: String?
    /// The configuration variables it names: `config` in `configurations: config` or `[config]`.
    public let configurationNames: [String]
    /// How many configuration expressions it is given (`configurations: a, b`, `[a, b]`; an array built
    /// elsewhere, `configurations: configs`, counts one).
    public let configurationCount: Int

    package init(location: SourceLocation, models: [String], schemaName: String?, configurationNames: [String], configurationCount: Int) {
        self.location = location
        self.models = models
        self.schemaName = schemaName
        self.configurationNames = configurationNames
        self.configurationCount = configurationCount
    }
}

/// `let schema = Schema([A.self, B.self])`: a schema bound to a name in a file. Also a list of model types bound to a
/// name (`static let entries: [any PersistentModel.Type] = [A.self, B.self]`), and a schema made from such a list by
/// name (`static let schema = Schema(Store.entries)`: `listName` is `entries`, resolved across the project by the index).
public struct SchemaBinding: Sendable, Codable {
    public let name: String
    public let models: [String]
    public let location: SourceLocation
    /// The name of the model list the schema is made from, when it is given by name (`Store.entries` for a type's
    /// member, as written).
    public var listName: String?
    /// The simple name of the type whose member the binding is (`static let schema` in `Store`); nil for a local.
    public var ownerType: String?

    package init(name: String, models: [String], location: SourceLocation, listName: String? = nil, ownerType: String? = nil) {
        self.name = name
        self.models = models
        self.location = location
        self.listName = listName
        self.ownerType = ownerType
    }
}
