import SwiftSyntax

/// A crash where a persistent container fails to load its stores: an error where the store syncs, a warning where it is local.
public final class FatalErrorOnContainerInitRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "fatal_error_on_container_init",
        name: "Fatal Error On Container Init",
        whatItDoes: """
            Finds `fatalError`, `preconditionFailure` or `try!` where `ModelContainer(...)` creation, \
            `loadPersistentStores`, or a project function that loads a container's stores (`try container.loadStore()`) \
            fails. An error where the store syncs with CloudKit, a warning where it is a local store on disk; quiet \
            for stores kept in memory (previews, tests, scratch containers).
            """,
        whyIsThisBad: """
            With CloudKit, container creation fails for reasons outside the app's control at run time: a schema \
            CloudKit rejects, an account or container problem, a migration. A `fatalError` there turns each of them \
            into a crash on every launch, and the user can do nothing about it. A local store fails too: a \
            migration the model cannot infer, a full disk or a damaged file crash every launch until the app is \
            deleted, with the user's data. Fall back to a local or in-memory store and tell the user.
            """,
        seed: "003",
        // Opt-in by its figure on apps nobody tuned on (docs/precision.md, round 8 of issue 21): 49 of 59 findings right
        // over rounds 4 to 8 (83%), below the 90% bar; round 8's fresh set was the one it was kept on for, and gave 6 of 8.
        isOptIn: true,
        severity: .error,
        triggeringExamples: [
            RuleExample("""
                let modelConfiguration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example.App"))
                func makeContainer() -> ModelContainer {
                    do {
                        return try ModelContainer(for: schema, configurations: [modelConfiguration])
                    } catch {
                        ↓fatalError("Could not create ModelContainer: \\(error)")
                    }
                }
                """),
            RuleExample("""
                let container = NSPersistentCloudKitContainer(name: "Lists")
                func load() {
                    container.loadPersistentStores { _, error in
                        if let error { ↓fatalError("Unresolved error \\(error)") }
                    }
                }
                """),
            RuleExample("""
                let shared = ↓try! ModelContainer(for: Item.self, configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App")))
                """),
            RuleExample("""
                let preview = ModelConfiguration(isStoredInMemoryOnly: true)
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                let previewContainer = try! ModelContainer(for: Item.self, configurations: preview)
                let shared = ↓try! ModelContainer(for: Item.self, configurations: cloud)
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                let fallback = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.Other"))
                func makeContainer() -> ModelContainer {
                    do { return try ModelContainer(for: Item.self, configurations: cloud) }
                    catch {
                        do { return try ModelContainer(for: Item.self, configurations: fallback) }
                        catch { ↓fatalError("No store at all: \\(error)") }
                    }
                }
                """),
            RuleExample("""
                let cloudContainer = NSPersistentCloudKitContainer(name: "Lists")
                func load() {
                    cloudContainer.loadPersistentStores { _, error in
                        guard error != nil else { return }
                        let retry = NSPersistentCloudKitContainer(name: "Lists")
                        retry.loadPersistentStores { _, error in
                            if let error { ↓fatalError("Unresolved error \\(error)") }
                        }
                    }
                }
                """),
            // A local store crashes every launch too, when a migration fails: a warning, not an error.
            RuleExample("""
                let modelConfiguration = ModelConfiguration(schema: schema, cloudKitDatabase: .none)
                func makeContainer() -> ModelContainer {
                    do { return try ModelContainer(for: schema, configurations: [modelConfiguration]) }
                    catch { ↓fatalError("Could not create ModelContainer: \\(error)") }
                }
                """, message: "crash_on_failed_local_store"),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                let local = ModelConfiguration(cloudKitDatabase: .none)
                func makeContainer() -> ModelContainer {
                    do { return try ModelContainer(for: Item.self, configurations: cloud) }
                    catch {
                        do { return try ModelContainer(for: Item.self, configurations: local) }
                        catch { ↓fatalError("Not even a local store: \\(error)") }
                    }
                }
                """, message: "crash_on_failed_local_store"),
            RuleExample("""
                struct PersistenceController {
                    let container = NSPersistentContainer(name: "Notes")
                    init() {
                        container.loadPersistentStores { _, error in
                            if let error = error as NSError? { ↓fatalError("Unresolved error \\(error), \\(error.userInfo)") }
                        }
                    }
                }
                """, message: "crash_on_failed_local_store"),
            // A retry of the same store, nothing removed first: it fails as the first attempt did, and the crash after it
            // comes on every launch.
            RuleExample("""
                enum ProfileStore {
                    static func makeContainer(config: ModelConfiguration) -> ModelContainer {
                        do {
                            return try ModelContainer(for: Schema([Profile.self]), configurations: [config])
                        } catch {
                            do {
                                return try ModelContainer(for: Schema([Profile.self]), configurations: [config])
                            } catch {
                                log.error("second attempt failed: \\(error)")
                            }
                            ↓preconditionFailure("no profile store")
                        }
                    }
                }
                """, message: "crash_on_failed_local_store"),
            // The stores are loaded by a project function that throws the handler's error.
            RuleExample("""
                let persistentContainer: NSPersistentContainer = {
                    let container = NSPersistentContainer(name: "Events")
                    do {
                        try container.loadStore()
                    } catch let error as NSError {
                        ↓fatalError("Error loading Core Data store: \\(error)")
                    }
                    return container
                }()
                extension NSPersistentContainer {
                    func loadStore() throws {
                        var captured: Error?
                        loadPersistentStores { _, error in captured = error }
                        if let captured { throw captured }
                    }
                }
                """, message: "crash_on_failed_local_store"),
        ],
        nonTriggeringExamples: [
            // A damaged cache store is removed and made again; the crash comes only when the second attempt, on an empty
            // store, fails too.
            RuleExample("""
                func removeStore(at url: URL) {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + suffix)) }
                }
                let cacheContainer: ModelContainer = {
                    let config = ModelConfiguration(schema: cacheSchema, url: storeURL, cloudKitDatabase: .none)
                    do {
                        return try ModelContainer(for: cacheSchema, configurations: [config])
                    } catch {
                        removeStore(at: storeURL)
                        do {
                            return try ModelContainer(for: cacheSchema, configurations: [config])
                        } catch {
                            fatalError("Could not create the cache container: \\(error)")
                        }
                    }
                }()
                """),
            // The retry's failure falls through to a crash after it, in the same `catch`: after the files were removed.
            RuleExample("""
                enum ProfileStore {
                    static func makeContainer(config: ModelConfiguration) -> ModelContainer {
                        do {
                            return try ModelContainer(for: Schema([Profile.self]), configurations: [config])
                        } catch {
                            for url in [config.url, config.url.appendingPathExtension("wal")] {
                                try? FileManager.default.removeItem(at: url)
                            }
                            do {
                                return try ModelContainer(for: Schema([Profile.self]), configurations: [config])
                            } catch {
                                log.error("second attempt failed: \\(error)")
                            }
                            preconditionFailure("no profile store")
                        }
                    }
                }
                """),
            // A store that fails to load is destroyed and loaded again; the crash comes only when that reset fails.
            RuleExample("""
                final class Persistence: NSPersistentCloudKitContainer {
                    func load() {
                        loadPersistentStores { [weak self] description, error in
                            guard let self, error != nil else { return }
                            do {
                                try self.reset(description)
                            } catch {
                                fatalError("Unrecoverable: \\(error)")
                            }
                        }
                    }
                    func reset(_ description: NSPersistentStoreDescription) throws {
                        try persistentStoreCoordinator.destroyPersistentStore(at: description.url!, type: .sqlite)
                        loadPersistentStores { _, _ in }
                    }
                }
                """),
            // A preview's container, its configuration written as `.init(...)`: kept in memory.
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                func makePreviewContainer() -> ModelContainer {
                    do {
                        return try ModelContainer(for: Recipe.self, configurations: .init(isStoredInMemoryOnly: true))
                    } catch {
                        fatalError("Failed to create the preview container: \\(error)")
                    }
                }
                """),
            // The template's preview branch: the store it loads is at `/dev/null`, in memory.
            RuleExample("""
                init(inMemory: Bool = false) {
                    container = NSPersistentCloudKitContainer(name: "Tickets")
                    if inMemory {
                        container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")
                        container.loadPersistentStores { _, error in
                            if error != nil { fatalError() }
                        }
                    } else {
                        container.loadPersistentStores { _, error in
                            if let error { logger.error("\\(error)") }
                        }
                    }
                }
                """),
            RuleExample("""
                let modelConfiguration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example.App"))
                func makeContainer() -> ModelContainer {
                    do {
                        return try ModelContainer(for: schema, configurations: [modelConfiguration])
                    } catch {
                        logger.error("CloudKit store failed: \\(error)")
                        return try! ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
                    }
                }
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                let preview = ModelConfiguration(isStoredInMemoryOnly: true)
                let previewContainer = try! ModelContainer(for: Item.self, configurations: preview)
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                func makeScratchContainer() -> ModelContainer {
                    do {
                        return try ModelContainer(for: Item.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: "/dev/null")))
                    } catch {
                        fatalError("Could not create the scratch container: \\(error)")
                    }
                }
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                var sharedModelContainer: ModelContainer = {
                    if let container = try? ModelContainer(for: Item.self, configurations: cloud) { return container }
                    do {
                        return try ModelContainer(for: Item.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
                    } catch {
                        fatalError("Could not create ModelContainer: \\(error)")
                    }
                }()
                """),
            RuleExample("""
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                func parse(_ data: Data) -> Config {
                    do { return try JSONDecoder().decode(Config.self, from: data) } catch { fatalError("bad bundled config") }
                }
                """),
            // The fixed loader: the failure is reported and the app starts without the store.
            RuleExample("""
                let persistentContainer: NSPersistentContainer = {
                    let container = NSPersistentContainer(name: "Events")
                    do { try container.loadStore() } catch { print("Failed to load the store: \\(error)") }
                    return container
                }()
                extension NSPersistentContainer {
                    func loadStore() throws {
                        var captured: Error?
                        loadPersistentStores { _, error in captured = error }
                        if let captured { throw captured }
                    }
                }
                """),
            // A throwing project call that loads no store: bundled settings.
            RuleExample("""
                let settings: Settings = {
                    let store = SettingsStore()
                    do { return try store.load() } catch { fatalError("bad bundled settings: \\(error)") }
                }()
                final class SettingsStore {
                    func load() throws -> Settings { try JSONDecoder().decode(Settings.self, from: Data()) }
                }
                """),
            // A preview's Core Data container kept in memory.
            RuleExample("""
                func makePreviewContainer() -> NSPersistentContainer {
                    let container = NSPersistentContainer(name: "Notes")
                    container.persistentStoreDescriptions.first?.url = URL(fileURLWithPath: "/dev/null")
                    container.loadPersistentStores { _, error in
                        if let error { fatalError("Unresolved error \\(error)") }
                    }
                    return container
                }
                """),
        ],
        knownLimitations: """
            Opt-in: on apps nobody tuned on (docs/precision.md, rounds 4 to 9 of issue 21) 53 of 63 findings were \
            right (84%, below the 90% bar; 4 of 4 on round 11's fresh set). Round 7 kept it on for one more fresh set, on which it gave 6 of 8: a \
            retry after the store's files were deleted that it did not recognise, and a stale copy of a file that no \
            target compiles. The earlier wrong ones were a crash only after a reset or a fallback failed too, \
            in-memory preview containers written as `.init(...)` or in a `/dev/null` branch, and a logout path right \
            after the store was destroyed. \
            Asks whether the container created there syncs: a container whose configurations are all written in \
            the same file (inline or bound to a name it uses) is judged by them, so an in-memory, `/dev/null` or \
            `cloudKitDatabase: .none` fallback is not reported; a container whose configurations come from \
            elsewhere is judged by the targets that compile its file. A `try!` inside a `catch` is not \
            reported. A crash reached only after a recovery failed too is judged by what was tried last: a fallback \
            container made in an inner `catch` by that container alone (a local fallback that fails is a local-store \
            crash, a warning), and a retry in the `catch` of a first attempt, or a recovery in a `loadPersistentStores` \
            handler, is not reported when the store's files were deleted before it (`removeItem`, \
            `destroyPersistentStore`, directly or through project functions three calls deep): the retried store starts \
            empty, so the failure does not repeat on every launch. A `loadPersistentStores` whose statements beside it \
            point the store at `/dev/null` (the template's `if inMemory` branch) loads a preview's store and is not \
            reported. A Core Data crash is judged by the container the handler's receiver names in the same file. \
            A project function counts as loading stores when it calls `loadPersistentStores` (to three calls deep); \
            stores added to an `NSPersistentStoreCoordinator` by hand are not followed.
            """,
        messages: [crashOnFailedStore, crashOnFailedLocalStore])
    static let crashOnFailedStore = RuleMessage("crash_on_failed_store", "{crash} turns a failed CloudKit store into a crash on every launch (CloudKit is on: {0}); fall back to a local or in-memory store and report the error")
    static let crashOnFailedLocalStore = RuleMessage("crash_on_failed_local_store", "{crash} turns a store that fails to load (a migration, a full disk, a damaged file) into a crash on every launch; report the error and fall back to an in-memory store or start without the store", severity: .warning)

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr, .tryExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        if let tryExpression = node.as(TryExprSyntax.self) {
            guard tryExpression.questionOrExclamationMark?.tokenKind == .exclamationMark, !Self.isInsideCatch(node) else { return }
            if Self.createsContainer(tryExpression.expression) {
                report(tryExpression.tryKeyword, what: "`try!`",
                       store: .swiftData(file: context.path, containers: Self.containerLocations(in: tryExpression.expression, context: context)),
                       context: context)
            } else if let loader = Self.loaderCall(tryExpression.expression, context: context) {
                report(tryExpression.tryKeyword, what: "`try!`", store: loader, context: context)
            }
            return
        }
        guard let call = node.as(FunctionCallExprSyntax.self),
              ["fatalError", "preconditionFailure"].contains(context.calleeMethodName(call)),
              call.calledExpression.is(DeclReferenceExprSyntax.self) else { return }
        let what = "`\(SyntaxFacts.calleeName(call))`"
        // The innermost `loadPersistentStores` handler: a fallback container loaded inside another's handler decides.
        if let handler = context.scope.closures.first(where: { $0.kind == .other(callee: FrameworkCallbacks.loadPersistentStoresMethod) }) {
            // `if inMemory { description.url = URL(fileURLWithPath: "/dev/null"); container.loadPersistentStores { ... } }`:
            // this load is of the preview's or test's store, kept in memory; the app's own load is elsewhere.
            if let load = handler.call, SyntaxFacts.storeIsInMemory(beside: load) { return }
            let receiver = handler.call?.calledExpression.as(MemberAccessExprSyntax.self)?.base.flatMap(SyntaxFacts.memberPath)
            let name = receiver.map { $0.members.last ?? $0.root }
            // `if let error { do { try reset() } catch { fatalError() } }`: the crash comes only when the recovery fails;
            // after one that deletes the store's files (`destroyPersistentStore`), that is no crash on every launch.
            if let clause = node.ancestorOrSelf(mapping: { $0.as(CatchClauseSyntax.self) }),
               let recovery = clause.parent?.parent?.as(DoStmtSyntax.self), recovery.position > handler.node.position {
                let calls = Self.calls(in: recovery.body, context: context)
                if calls.removesStore { return }
                report(call.calledExpression, what: what, store: .coreDataAfter(file: context.path, containerName: name, resets: calls.projectCalls),
                       context: context)
                return
            }
            report(call.calledExpression, what: what, store: .coreData(file: context.path, containerName: name), context: context)
            return
        }
        guard let clause = node.ancestorOrSelf(mapping: { $0.as(CatchClauseSyntax.self) }),
              let doStatement = clause.parent?.parent?.as(DoStmtSyntax.self) else { return }
        // The crash comes only after a recovery failed too: a fallback container made in an inner `catch` (a local
        // store when the synced one fails) is judged by the fallback alone; a retry in the `catch` of a first attempt
        // after the store's files were deleted (`removeItem`, `destroyPersistentStore`, directly or in a project
        // function) starts from an empty store and is no crash on every launch.
        let fallbacks = Self.fallbackCatches(inside: doStatement.body)
        if !fallbacks.isEmpty {
            report(call.calledExpression, what: what,
                   store: .swiftData(file: context.path, containers: fallbacks.flatMap { Self.containerLocations(in: $0.body, context: context) }),
                   context: context)
            return
        }
        // A retry in the `catch` of a first attempt: the crash is in the retry's own `catch`, or follows the retry in the
        // first attempt's (`catch { removeItem(...); do { return try ModelContainer(...) } catch { log(error) }; fatalError() }`).
        if Self.createsContainer(doStatement.body),
           let (retry, attempt) = Self.retry(in: clause, before: node).map({ ($0, clause) })
               ?? Self.firstAttemptCatch(of: doStatement).map({ (doStatement, $0) }) {
            let calls = Self.callsBefore(retry, in: attempt, context: context)
            if calls.removesStore { return }
            report(call.calledExpression, what: what,
                   store: .swiftDataRetryAfter(file: context.path, containers: Self.containerLocations(in: retry.body, context: context),
                                               resets: calls.projectCalls),
                   context: context)
            return
        }
        if Self.createsContainer(doStatement.body) {
            report(call.calledExpression, what: what,
                   store: .swiftData(file: context.path, containers: Self.containerLocations(in: doStatement.body, context: context)), context: context)
            return
        }
        // `do { try container.loadStore() } catch { fatalError() }`: a project function that loads the stores and
        // throws their error. The index says which of the calls loads stores; one pending finding per call.
        var asked: Set<FailingStore> = []
        BodyScanner.scan(doStatement.body) { node in
            guard let tryExpression = node.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark == nil,
                  let loader = Self.loaderCall(tryExpression.expression, context: context), asked.insert(loader).inserted else { return }
            self.report(call.calledExpression, what: what, store: loader, context: context)
        }
    }

    /// A throwing call that may load a Core Data container's stores in a project function (`container.loadStore()`,
    /// `loadStores()` on `self`), as a question for the index.
    static func loaderCall(_ expression: ExprSyntax, context: FileContext) -> FailingStore? {
        var current = expression
        while let awaited = current.as(AwaitExprSyntax.self) { current = awaited.expression }
        guard let call = current.as(FunctionCallExprSyntax.self) else { return nil }
        let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
        let method = SyntaxFacts.calleeMethodName(call)
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, !SyntaxFacts.isSelf(base) {
            let receiver = SyntaxFacts.memberPath(base)
            return .loader(file: context.path, call: CallReference(caller: caller, callee: method, receiver: ValueTypes.of(base, in: context)),
                           containerName: receiver.map { $0.members.last ?? $0.root })
        }
        guard call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calledExpression.is(MemberAccessExprSyntax.self) else { return nil }
        return .loader(file: context.path, call: CallReference(caller: caller, callee: method, receiver: nil), containerName: nil)
    }

    private func report(_ node: some SyntaxProtocol, what: String, store: FailingStore, context: FileContext) {
        var notes: [FindingNote] = []
        switch store {
        case .swiftData(_, let locations), .swiftDataRetryAfter(_, let locations, _):
            notes = locations.prefix(1).map { FindingNote("the container is created here", at: $0) }
        case .coreData, .coreDataAfter, .loader:
            break
        }
        // A fallback to an in-memory container, or a preview's, cannot fail for a user: the index keeps it quiet.
        context.report(node, [Self.crashOnFailedStore, Self.crashOnFailedLocalStore], ["crash": what],
                       answering: .failingStore(store), notes: notes)
    }

    static func createsContainer(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.text == "ModelContainer" && $0.nextToken(viewMode: .sourceAccurate)?.text == "(" }
    }

    /// Where each `ModelContainer(...)` in `node` is created, as the store collector recorded it.
    static func containerLocations(in node: some SyntaxProtocol, context: FileContext) -> [SyncLintFacts.SourceLocation] {
        node.tokens(viewMode: .sourceAccurate).compactMap { token -> SyncLintFacts.SourceLocation? in
            guard token.text == "ModelContainer", let call = token.parent?.parent?.as(FunctionCallExprSyntax.self),
                  SyntaxFacts.calleeName(call) == "ModelContainer" else { return nil }
            return context.location(of: call)
        }
    }

    /// The `catch` clauses inside `body` that make a container again: fallbacks when the first one fails.
    static func fallbackCatches(inside body: CodeBlockSyntax) -> [CatchClauseSyntax] {
        var found: [CatchClauseSyntax] = []
        BodyScanner.scan(body) { node in
            if let clause = node.as(CatchClauseSyntax.self), createsContainer(clause.body) { found.append(clause) }
        }
        return found
    }

    /// The `catch` of a first attempt that a `do` is written in, when that attempt made a container: the `do` is a
    /// second attempt after the first failed.
    static func firstAttemptCatch(of doStatement: DoStmtSyntax) -> CatchClauseSyntax? {
        guard let clause = doStatement.parent?.ancestorOrSelf(mapping: { $0.as(CatchClauseSyntax.self) }),
              let outer = clause.parent?.parent?.as(DoStmtSyntax.self), createsContainer(outer.body) else { return nil }
        return clause
    }

    /// A `do` in the `catch` of a first attempt that makes a container again and ends before the crash: a retry whose
    /// failure falls through to the crash after it.
    static func retry(in clause: CatchClauseSyntax, before crash: Syntax) -> DoStmtSyntax? {
        var found: DoStmtSyntax?
        BodyScanner.scan(clause.body) { node in
            guard found == nil, let retry = node.as(DoStmtSyntax.self), retry.endPosition <= crash.position,
                  createsContainer(retry.body) else { return }
            found = retry
        }
        return found
    }

    /// The calls a `catch` makes before the retry `do` in it: whether one is a framework call that deletes a store's
    /// files, and the project calls (the index says whether they do).
    static func callsBefore(_ retry: DoStmtSyntax, in clause: CatchClauseSyntax,
                            context: FileContext) -> (removesStore: Bool, projectCalls: [CallReference]) {
        calls(in: clause.body, before: retry.position, context: context)
    }

    /// The calls a body makes (before `limit`): whether one is a framework call that deletes a store's files, and the
    /// project calls (the index says whether they do).
    static func calls(in body: CodeBlockSyntax, before limit: AbsolutePosition? = nil,
                      context: FileContext) -> (removesStore: Bool, projectCalls: [CallReference]) {
        var removes = false
        var projectCalls: [CallReference] = []
        let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
        BodyScanner.scan(body) { node in
            guard limit.map({ node.position < $0 }) ?? true, let call = node.as(FunctionCallExprSyntax.self) else { return }
            let method = SyntaxFacts.calleeMethodName(call)
            if FrameworkCallbacks.storeRemovalMethods.contains(method) { removes = true; return }
            let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
            // `Store.removeFiles(at:)`: a static method, looked up in that type as a call on `self` is in the caller's.
            if let typeName = base?.as(DeclReferenceExprSyntax.self)?.baseName.text, SyntaxFacts.isTypeName(typeName) {
                projectCalls.append(CallReference(caller: FunctionKey(typeName: typeName, name: caller.name), callee: method, receiver: nil))
                return
            }
            projectCalls.append(CallReference(caller: caller, callee: method, receiver: base.flatMap { SyntaxFacts.isSelf($0) ? nil : ValueTypes.of($0, in: context) }))
        }
        return (removes, projectCalls)
    }

    static func isInsideCatch(_ node: Syntax) -> Bool {
        node.ancestorOrSelf(mapping: { $0.as(CatchClauseSyntax.self) }) != nil
    }
}
