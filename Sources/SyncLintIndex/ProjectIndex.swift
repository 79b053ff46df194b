/// The project-wide, read-only index the rules consult: declarations across all files, how stores are
/// created, and the non-Swift files (entitlements, Core Data models) found by discovery.
public final class ProjectIndex: Sendable {
    /// Every declaration of a type (primary and extensions), keyed by qualified name (`Outer.Inner`).
    public let typesByName: [String: [TypeFact]]
    /// Qualified names by simple name: `Inner` → [`Outer.Inner`, `Other.Inner`].
    let qualifiedNamesBySimpleName: [String: [String]]
    /// Top-level type aliases to plain type names (`FileFacts.typeAliases`); a name two files alias to different types
    /// is left out, since which one a file sees depends on its module.
    let typeAliasTargets: [String: String]
    public let modelRegistrations: [ModelRegistration]
    public let storeConfigurations: [StoreConfiguration]
    public let resources: [ResourceFile]
    /// The config's `cloudkit` setting: `on`/`off` force CloudKit rules either way.
    public let cloudKitMode: CloudKitMode
    /// Whether stores sync with CloudKit, and where the project says so.
    public let cloudKit: CloudKitEvidence
    /// Notification registrations and posts, background contexts, local-save flags, change merging.
    public let coreData: CoreDataFacts
    /// The Core Data model files, parsed once.
    public let coreDataModels: [CoreDataModel]
    /// Every function's own summary, overloads merged.
    public let functionSummaries: [FunctionKey: FunctionSummary]
    /// Lines of code proven never to run, by file (`isProvenDead(_:)`).
    let deadLines: [String: [ClosedRange<Int>]]
    /// Simple type names some file refers to outside a declaration or extension of that name (`isNamedByOtherCode(_:)`).
    let referencedTypeNames: Set<String>
    /// Whether the project is one program: an Xcode project with an entry point (`@main`, a `main.swift`), so every
    /// caller of its code is in what was linted, or is the system calling a method it knows (`isUncalledInProgram`).
    let isProgram: Bool
    /// Where view types are constructed, by the simple name they are called with.
    let viewConstructionsBySimpleName: [String: [ViewConstruction]]
    /// Every call of the project by the called name, built on first use (most runs never ask).
    let callsByName = LazyBox<[String: [CallPosition]]>()
    /// Names of the functions that block on a semaphore or group, built on first use.
    let blockingFunctionNames = LazyBox<Set<String>>()
    /// Names some function mentions without calling them (`Button(action: save)`), built on first use.
    let passedReferenceNames = LazyBox<Set<String>>()
    /// Task handles some function cancels, built on first use.
    let cancelledHandleSet = LazyBox<Set<TaskHandle>>()
    /// Call sites of the functions rules asked about, each resolved on first ask.
    let callSiteCache = LazyCache<FunctionKey, [CallFact]>()
    /// Restarted task handles by type name, built on first use.
    let restartedHandleMap = LazyBox<[String: [RestartedHandle]]>()
    /// Calls on receivers of unknown type, by method name, built on first use.
    let unresolvedCallMap = LazyBox<[String: [Cancellability]]>()
    /// The models each known set of registered models holds, relationships followed, built on first ask.
    let heldModels = LazyCache<[String], Set<String>>()
    /// SwiftData containers created in code, by where they are created.
    let containerFacts: [SourceLocation: ContainerFact]
    /// One line each for resource files the index could not use (a malformed model).
    public let warnings: [String]

    /// The project's roots and Xcode targets.
    public let layout: ProjectLayout
    /// What each file says about where its code lives, by path.
    let codePlaces: [String: FileCodePlaces]
    /// Properties the project looks each model up by (`#Predicate<Model> { $0.key == value }`), by model name.
    public let fetchKeysByModel: [String: [FetchKey]]
    /// Every member or name read in view code (SwiftUI views, UIKit/AppKit views, cells and controllers), by
    /// name only (`$x` counted as `x`): state that no view reads under any name reaches no user.
    public let viewReadNames: Set<String>
    /// Static members of SwiftData versioned schemas and migration plans; see `SchemaVersioning`.
    public let schemaMembers: [SchemaMemberFact]
    /// Members of models that `#Predicate`s read.
    public let predicateMembers: [PredicateMemberFact]
    /// The targets the project's `Package.swift` files declare.
    public let packageTargets: [PackageTargetFact]
    /// Whether each file asked about is in a module that defaults to the main actor, answered on first ask.
    let mainActorDefaultFiles = LazyCache<String, Bool>()
    /// The types views hold with `@StateObject`, `@ObservedObject` or `@EnvironmentObject`, built on first use.
    let viewObservedTypeSet = LazyBox<Set<String>>()
    /// Whether views observe each type asked about (`isObservedByViews`), answered on first ask.
    let observedByViewsCache = LazyCache<String, Bool>()
    /// The project types that list each project type among their supertypes (a protocol's conformers), built on first use.
    let directSubtypes = LazyBox<[String: [String]]>()
    /// For each simple type name some stored property's value builds, whether every such property is held once per
    /// process (a static, or a property of the app or its delegate): `livesOncePerProcess`, built on first use.
    let propertyBuiltTypes = LazyBox<[String: Bool]>()
    /// Names of the functions that return a stream they finish (`FunctionSummary.returnsFinishedStream`), built on first use.
    let finishedStreamMakers = LazyBox<Set<String>>()

    public init(files: [FileFacts], resources: [ResourceFile] = [], cloudKitMode: CloudKitMode = .auto,
                layout: ProjectLayout = ProjectLayout()) {
        var types: [String: [TypeFact]] = [:]
        var registrations: [ModelRegistration] = []
        var stores: [StoreConfiguration] = []
        var containers: [SourceLocation: ContainerFact] = [:]
        var coreData = CoreDataFacts()
        var constructions: [String: [ViewConstruction]] = [:]
        var codePlaces: [String: FileCodePlaces] = [:]
        var fetchKeys: [String: [FetchKey]] = [:]
        var viewReads: Set<String> = []
        var schemaMembers: [SchemaMemberFact] = []
        var predicateMembers: [PredicateMemberFact] = []
        var packageTargets: [PackageTargetFact] = []
        var schemaBindings: [String: [SchemaBinding]] = [:]
        // The function summaries (the largest part of the merge) and the dead lines are made on a thread of their own
        // while this one merges the rest: each part goes through the files in their order, so the index is the same.
        let apart = Apart(inline: files.count < Self.filesMergedApart) {
            let referenced = files.reduce(into: Set<String>()) { $0.formUnion($1.deadCode.referencedTypeNames) }
            return (Self.mergedSummaries(of: files),
                    Self.deadLines(of: files, referenced: referenced, layout: layout), referenced)
        }
        var aliases: [String: String] = [:], conflictingAliases: Set<String> = []
        for facts in files {
            for (name, target) in facts.typeAliases {
                if let known = aliases[name], known != target { conflictingAliases.insert(name) } else { aliases[name] = target }
            }
            packageTargets += facts.packageTargets
            schemaMembers += facts.schemaMembers
            predicateMembers += facts.predicateMembers
            viewReads.formUnion(facts.viewReadNames)
            codePlaces[facts.codePlaces.file] = facts.codePlaces
            for key in facts.fetchKeys { fetchKeys[key.modelName, default: []].append(key) }
            for construction in facts.viewConstructions { constructions[construction.typeName, default: []].append(construction) }
            for type in facts.types { types[type.qualifiedName, default: []].append(type) }
            registrations += facts.modelRegistrations
            stores += StoreFacts.resolve(facts)
            for binding in facts.schemaBindings { schemaBindings[binding.name, default: []].append(binding) }
            for container in facts.containers { containers[container.location] = container }
            coreData.registrations += facts.coreData.registrations
            coreData.posts += facts.coreData.posts
            coreData.localSaveFlags += facts.coreData.localSaveFlags
            coreData.backgroundContextProperties += facts.coreData.backgroundContextProperties
            coreData.mainQueueContextProperties += facts.coreData.mainQueueContextProperties
            coreData.storeLoads += facts.coreData.storeLoads
            coreData.mergesRemoteChanges += facts.coreData.mergesRemoteChanges
            coreData.backgroundContextsMade += facts.coreData.backgroundContextsMade
        }
        self.coreData = coreData
        self.isProgram = !layout.xcodeProjects.isEmpty && files.contains { $0.deadCode.hasEntryPoint }
        (self.functionSummaries, self.deadLines, self.referencedTypeNames) = apart.value
        self.viewConstructionsBySimpleName = constructions
        self.typesByName = types
        var bySimpleName: [String: [String]] = [:]
        for name in types.keys.sorted() {
            bySimpleName[name.split(separator: ".").last.map(String.init) ?? name, default: []].append(name)
        }
        self.qualifiedNamesBySimpleName = bySimpleName
        self.typeAliasTargets = aliases.filter { !conflictingAliases.contains($0.key) }
        self.layout = layout
        self.codePlaces = codePlaces
        self.fetchKeysByModel = fetchKeys
        self.viewReadNames = viewReads
        self.schemaMembers = schemaMembers
        self.predicateMembers = predicateMembers
        self.packageTargets = packageTargets
        self.modelRegistrations = registrations
        stores = StoreFacts.resolveAcrossFiles(stores, containers: containers, schemaBindings: schemaBindings)
        self.storeConfigurations = stores
        self.containerFacts = containers
        self.resources = resources
        self.cloudKitMode = cloudKitMode
        // A container built in a test or a preview, or kept in memory, never decides whether the app syncs.
        let appStores = stores.filter { Self.codeKind(of: $0.location, layout: layout, places: codePlaces) == .app }
        self.cloudKit = CloudKitEvidence(stores: appStores, resources: resources, layout: layout, mode: cloudKitMode)
        var models: [CoreDataModel] = []
        var warnings: [String] = []
        for file in resources where file.kind == .coreDataModel {
            switch CoreDataModel.parse(file) {
            case .success(let model): models.append(model)
            case .failure(let failure): warnings.append(failure.description)
            }
        }
        for file in resources where file.kind == .entitlements {
            if let problem = CloudKitEvidence.entitlementsProblem(file) { warnings.append(problem) }
        }
        self.coreDataModels = models
        self.warnings = warnings
    }

    /// From how many files on the index merges its function summaries on a second thread (`Apart`); below, starting
    /// the thread costs more than it saves.
    static let filesMergedApart = 64

    /// Every function's own summary, overloads merged in the files' order.
    static func mergedSummaries(of files: [FileFacts]) -> [FunctionKey: FunctionSummary] {
        var summaries: [FunctionKey: FunctionSummary] = [:]
        // Sized once: growing the table of a large project's summaries step by step took a tenth of its merge.
        summaries.reserveCapacity(files.reduce(0) { $0 + $1.functionSummaries.count })
        for facts in files {
            for summary in facts.functionSummaries {
                if let existing = summaries[summary.key] {
                    summaries[summary.key] = existing.merged(with: summary)
                } else {
                    summaries[summary.key] = summary
                }
            }
        }
        return summaries
    }

    // MARK: Dead code

    /// Whether the code at a place never runs: under `if false` or `#if false`, or in a type that is never built (in an
    /// Xcode project with an entry point, a struct or enum only Swift code can build whose name no file refers to outside
    /// the type itself; see `DeadCodeFacts`), or in a file its Xcode project leaves out of every target while compiling
    /// the files beside it (`filesLeftOutOfTargets`). Findings there say nothing about the app.
    public func isProvenDead(_ location: SourceLocation) -> Bool {
        deadLines[location.file]?.contains { $0.contains(location.line) } ?? false
    }

    /// Whether any code of the project names the type (simple name) outside the type's own declarations and
    /// extensions: builds it, fetches it, lists it in a schema, declares a property or relationship of it. A type no
    /// other code names can only be reached by code outside the project.
    public func isNamedByOtherCode(_ simpleName: String) -> Bool {
        referencedTypeNames.contains(simpleName)
    }

    static func deadLines(of files: [FileFacts], referenced: Set<String>, layout: ProjectLayout) -> [String: [ClosedRange<Int>]] {
        // Without an entry point (a library, a snippet) every type may be built by code the project does not show; a
        // folder of sources outside any Xcode project (case studies side by side, one with an app) is no one program.
        let hasEntryPoint = !layout.xcodeProjects.isEmpty && files.contains { $0.deadCode.hasEntryPoint }
        let leftOut = Self.filesLeftOutOfTargets(files.map(\.deadCode.file), layout: layout)
        var dead: [String: [ClosedRange<Int>]] = [:]
        for facts in files {
            if leftOut.contains(facts.deadCode.file) {
                dead[facts.deadCode.file] = [1...Int.max]
                continue
            }
            var lines = facts.deadCode.unreachableLines
            if hasEntryPoint { lines += facts.deadCode.unbuiltCandidates.filter { !referenced.contains($0.name) }.map(\.lines) }
            if !lines.isEmpty { dead[facts.deadCode.file, default: []] += lines }
        }
        return dead
    }

    /// Files an Xcode project leaves out of every target while a target compiles a file beside them (in the same
    /// folder): a stale copy, or a file taken out of the build, whose code never runs. A folder none of whose files a
    /// target lists (a Swift package's, or a project the run could not read) says nothing.
    static func filesLeftOutOfTargets(_ paths: [String], layout: ProjectLayout) -> Set<String> {
        guard !layout.xcodeProjects.isEmpty else { return [] }
        func folder(_ path: String) -> Substring { path[..<(path.lastIndex(of: "/") ?? path.startIndex)] }
        // A project made on macOS may spell a file's name in another case than the disk does (`AppState+Transition.swift`
        // for `AppState+transition.swift`): the file system there ignores case, and so does this question. A file a
        // synchronized folder excludes counts as listed: only a folder's explicit lists say a file is left out.
        let listed = Set(layout.xcodeProjects.flatMap(\.targets).flatMap { $0.files.union($0.folders) }.map { $0.lowercased() })
        func isListed(_ path: String) -> Bool {
            var ancestor = path.lowercased()
            while true {
                if listed.contains(ancestor) { return true }
                guard let slash = ancestor.lastIndex(of: "/"), slash > ancestor.startIndex else { return false }
                ancestor = String(ancestor[..<slash])
            }
        }
        var compiled: Set<String> = [], notCompiled: [String] = []
        for path in paths where path.hasSuffix(".swift") {
            if isListed(path) { compiled.insert(path) } else { notCompiled.append(path) }
        }
        let compiledFolders = Set(compiled.map(folder))
        return Set(notCompiled.filter { compiledFolders.contains(folder($0)) })
    }

    // MARK: Where code lives

    /// App, test or preview code: from the file's place (a test target, a `*Tests` folder, `Preview
    /// Content`), then from the file itself (imports XCTest or Testing; `#Preview` and `PreviewProvider`).
    public func codeKind(of location: SourceLocation) -> CodeKind {
        Self.codeKind(of: location, layout: layout, places: codePlaces)
    }

    static func codeKind(of location: SourceLocation, layout: ProjectLayout, places: [String: FileCodePlaces]) -> CodeKind {
        if let kind = layout.kind(ofFile: location.file) { return kind }
        guard let place = places[location.file] else { return .app }
        if place.importsTestFramework { return .test }
        if place.previewLines.contains(where: { $0.contains(location.line) }) { return .preview }
        return .app
    }

    /// Model registrations in app code: a container listed in a test or a preview says nothing about the
    /// app's schema.
    public var appModelRegistrations: [ModelRegistration] {
        modelRegistrations.filter { codeKind(of: $0.location) == .app }
    }

    // MARK: Types

    /// Every declaration (primary and extensions) of a type. The name is resolved as `resolveType` does
    /// from the top level; a simple name that several nested types share resolves to none of them.
    public func declarations(of typeName: String, from scope: String? = nil) -> [TypeFact] {
        guard let qualified = resolveType(typeName, from: scope) else { return [] }
        return typesByName[qualified] ?? []
    }

    /// The qualified name a type name written inside `scope` (a qualified type name, or nil at the top level)
    /// refers to, as Swift looks it up: the scope's nested types first, then each enclosing type's, then
    /// the top level; then, for a name declared nowhere at the top level, the one nested type that has
    /// that simple name. Two types sharing a simple name are never merged: an ambiguous name is unknown.
    public func resolveType(_ typeName: String, from scope: String? = nil) -> String? {
        let name = TypeNames.element(of: typeName)
        if var enclosing = scope {
            while !enclosing.isEmpty {
                if typesByName[enclosing + "." + name] != nil { return enclosing + "." + name }
                guard let dot = enclosing.lastIndex(of: ".") else { break }
                enclosing = String(enclosing[..<dot])
            }
        }
        if typesByName[name] != nil { return name }
        // A top-level alias names its target wherever no nested type of that name is in scope (checked above).
        if let target = typeAliasTargets[name], target != name, typeAliasTargets[target] == nil, let resolved = resolveType(target) {
            return resolved
        }
        let simple = name.split(separator: ".").last.map(String.init) ?? name
        if let candidates = qualifiedNamesBySimpleName[simple] {
            let matching = candidates.filter { $0 == name || $0.hasSuffix("." + name) }
            if matching.count == 1 { return matching[0] }
        }
        return nil
    }

    /// The models a registration lists, by their simple names as `ModelSchema` keys models. A name that a top-level type
    /// alias also spells is looked up as Swift would from where the registration is written: a nested type of that name
    /// in scope first (an older schema version's `Item`), else the alias's target (`typealias OfflineTrack =
    /// OfflineTrackV2` makes `Schema([OfflineTrack.self])` register `OfflineTrackV2`).
    public func modelNames(of registration: ModelRegistration) -> [String] {
        registration.typeNames.map { name in
            guard typeAliasTargets[TypeNames.element(of: name)] != nil, let resolved = resolveType(name, from: registration.scope) else { return name }
            return resolved.split(separator: ".").last.map(String.init) ?? resolved
        }
    }

    public func typeExists(_ typeName: String) -> Bool {
        !declarations(of: typeName).isEmpty
    }

    public func hasAttribute(_ attribute: String, type typeName: String) -> Bool {
        declarations(of: typeName).contains { $0.hasAttribute(attribute) }
    }

    /// Whether the type, or a supertype declared in the project, inherits or conforms to `supertype`.
    public func inherits(_ typeName: String, from supertype: String) -> Bool {
        var seen: Set<String> = []
        var queue = resolveType(typeName).map { [$0] } ?? []
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            for declaration in typesByName[next] ?? [] {
                if declaration.inheritedTypes.contains(supertype) { return true }
                queue += declaration.inheritedTypes.compactMap { resolveType($0, from: Self.enclosingScope(of: next)) }
            }
        }
        return false
    }

    /// A SwiftData `@Model` class.
    public func isSwiftDataModel(_ typeName: String) -> Bool {
        hasAttribute("Model", type: typeName)
    }

    /// A Core Data managed object subclass declared in Swift.
    public func isManagedObject(_ typeName: String) -> Bool {
        inherits(typeName, from: "NSManagedObject")
    }

    /// A persistent model object: SwiftData `@Model` or Core Data `NSManagedObject` subclass.
    public func isPersistentModel(_ typeName: String) -> Bool {
        isSwiftDataModel(typeName) || isManagedObject(typeName)
    }

    /// `@Observable` class or `ObservableObject`.
    public func isObservable(_ typeName: String) -> Bool {
        hasAttribute("Observable", type: typeName) || inherits(typeName, from: "ObservableObject")
    }

    /// SwiftUI observes an instance of the type: some view declares a property of it (or of a project subclass of
    /// it, or optional) with `@StateObject`, `@ObservedObject` or `@EnvironmentObject`.
    public func isObservedByViews(_ typeName: String) -> Bool {
        guard let target = resolveType(typeName) else { return false }
        return observedByViewsCache.value(for: target) {
            viewObservedTypes.contains { held in held == target || inherits(held, from: target) || inherits(target, from: held) }
        }
    }

    /// The project types some view holds with an observing wrapper, resolved once: asking every view type of a large
    /// project again for each written property made this the slowest query of a run with every rule on.
    var viewObservedTypes: Set<String> {
        viewObservedTypeSet.value {
            var held: Set<String> = []
            for (name, declarations) in typesByName where isView(name) {
                for declaration in declarations {
                    for property in declaration.properties where Self.viewObservingWrappers.contains(where: property.hasAttribute) {
                        if let type = property.typeName.flatMap({ resolveType($0) }) ?? property.defaultValue.flatMap({ staticMemberType($0) }) {
                            held.insert(type)
                        }
                    }
                }
            }
            return held
        }
    }

    static let viewObservingWrappers = ["StateObject", "ObservedObject", "EnvironmentObject"]

    /// The project type of a property declared with no type and a project type's static member as its value
    /// (`@ObservedObject var connections = Connections.shared`): the member's declared type, asked of the index.
    func staticMemberType(_ value: String) -> String? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].first?.isUppercase == true,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }),
              let member = resolve(.member(.named(String(parts[0]), scope: nil), String(parts[1]))), !member.isCollection else { return nil }
        return resolveType(member.name)
    }

    public func isView(_ typeName: String) -> Bool {
        inherits(typeName, from: "View")
    }

    public var swiftDataModelNames: [String] {
        typesByName.keys.filter { isSwiftDataModel($0) }.sorted()
    }

    // MARK: Members

    /// A property declared on the type or any of its extensions.
    public func property(_ name: String, of typeName: String) -> PropertyFact? {
        for declaration in declarations(of: typeName) {
            if let property = declaration.properties.first(where: { $0.name == name }) { return property }
        }
        return nil
    }

    public func properties(of typeName: String) -> [PropertyFact] {
        declarations(of: typeName).flatMap(\.properties)
    }

    public func methods(of typeName: String) -> [MethodFact] {
        declarations(of: typeName).flatMap(\.methods)
    }

    /// Follows `a.b.c` from a starting type: returns the property each step lands on, in order.
    /// Stops (returning what it has) at the first member the index does not know.
    public func resolveChain(from typeName: String, members: [String]) -> [PropertyFact] {
        var result: [PropertyFact] = []
        guard var current = resolveType(typeName) else { return result }
        for member in members {
            guard let property = property(member, of: current) else { break }
            result.append(property)
            guard let written = property.typeName, let next = resolveType(written, from: current) else { break }
            current = next
        }
        return result
    }

    /// `Outer` for `Outer.Inner`; nil for a top-level type.
    static func enclosingScope(of qualifiedName: String) -> String? {
        guard let dot = qualifiedName.lastIndex(of: ".") else { return nil }
        return String(qualifiedName[..<dot])
    }
}
