/// What one file contributes to the project index, collected during its single walk.
public struct FileFacts: Sendable, Codable {
    public var types: [TypeFact] = []
    public var modelRegistrations: [ModelRegistration] = []
    public var storeConfigurations: [StoreConfiguration] = []
    public var coreData = CoreDataFacts()
    /// What each function of the file does; see `FunctionSummary`.
    public var functionSummaries: [FunctionSummary] = []
    /// SwiftUI view types constructed in the file's views.
    public var viewConstructions: [ViewConstruction] = []
    /// Whether the file is test code, and where its preview code is.
    public var codePlaces = FileCodePlaces()
    /// Properties the file's `#Predicate`s look models up by.
    public var fetchKeys: [FetchKey] = []
    /// Names the file's view code reads (`model.errorMessage`, `$error`, `alertItem`); see `ProjectIndex.viewReadNames`.
    public var viewReadNames: Set<String> = []

    public init() {}
}

/// A place that lists `@Model` types for a container: `.modelContainer(for:)`, `ModelContainer(for:)`,
/// `Schema([...])`, `VersionedSchema.models`.
public struct ModelRegistration: Sendable, Codable {
    public let typeNames: [String]
    public let location: SourceLocation

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

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(kind: Kind, location: SourceLocation, modelName: String?) {
        self.kind = kind
        self.location = location
        self.modelName = modelName
    }
}
