import SwiftParser
import SwiftSyntax
import Testing
@testable import SyncLintKit
@testable import SyncLintSyntax

/// The framework table (`FrameworkCalls`, `FrameworkCallbacks`, `FrameworkStores`), one test per entry: each
/// entry is found from a small source exactly as the walker looks it up, and does there what SyncLint uses
/// it for (the closure's kind, where it runs, whether it can be cancelled, what a store holds and whether
/// it syncs).
struct FrameworkCallTests {
    /// What the code at `probe()` sees: the innermost closure's kind, where it runs, whether it can be cancelled.
    struct Seen: Equatable {
        var closure: ClosureKind?
        var context: ExecutionContext
        var cancellation: Cancellability
    }

    static func seen(_ source: String) -> Seen? {
        var result: Seen?
        _ = Probe.index(["/v/Code.swift": source]) { node, context in
            guard let call = node.as(FunctionCallExprSyntax.self), SyntaxFacts.calleeName(call) == "probe" else { return }
            result = Seen(closure: context.scope.closures.first?.kind, context: ExecutionContexts.current(in: context),
                          cancellation: context.cancellabilityHere())
        }
        return result
    }

    /// The table entry the walker finds for the first call of `method` in `source`.
    static func entry(for method: String, in source: String) -> FrameworkCall? {
        var found: FrameworkCall?
        _ = Probe.index(["/v/Code.swift": source]) { node, _ in
            guard found == nil, let call = node.as(FunctionCallExprSyntax.self), SyntaxFacts.calleeMethodName(call) == method else { return }
            found = FrameworkCalls.lookup(method: method, receiver: SyntaxFacts.receiverText(call) ?? "", callee: SyntaxFacts.calleeName(call),
                                          labels: call.arguments.compactMap { $0.label?.text })
        }
        return found
    }

    /// A source per entry, and what code inside the entry's closure sees (nil for entries without a closure).
    static var cases: [String: (source: String, method: String, seen: Seen?)] { [
        "Task.init(priority:operation:)": ("""
            final class Loader { func start() { Task { probe() } } }
            """, "Task", Seen(closure: .task, context: .typeIsolation("Loader", isAsync: false), cancellation: .never)),
        "Task.detached(priority:operation:)": ("""
            final class Loader { func start() { Task.detached { probe() } } }
            """, "detached", Seen(closure: .detachedTask, context: .detachedTask, cancellation: .never)),
        "TaskGroup.addTask(priority:operation:)": ("""
            func loadAll() async { await withTaskGroup(of: Void.self) { group in group.addTask { probe() } } }
            """, "addTask", Seen(closure: .taskGroupChild, context: .concurrent,
                                 cancellation: .ifCallersCancellable(FunctionKey(typeName: nil, name: "loadAll")))),
        "TaskGroup.addTaskUnlessCancelled(priority:operation:)": ("""
            func loadAll() async { await withTaskGroup(of: Void.self) { group in group.addTaskUnlessCancelled { probe() } } }
            """, "addTaskUnlessCancelled", Seen(closure: .taskGroupChild, context: .concurrent,
                                                cancellation: .ifCallersCancellable(FunctionKey(typeName: nil, name: "loadAll")))),
        "MainActor.run(resultType:body:)": ("""
            func refresh() async { await MainActor.run { probe() } }
            """, "run", Seen(closure: .mainActorRun, context: .mainActor, cancellation: .never)),
        "Task.sleep(for:tolerance:clock:)": ("func wait() async throws { try await Task.sleep(for: .seconds(1)) }", "sleep", nil),
        "Task.checkCancellation()": ("func step() throws { try Task.checkCancellation() }", "checkCancellation", nil),
        "Task.yield()": ("func step() async { await Task.yield() }", "yield", nil),
        "withCheckedThrowingContinuation(isolation:function:_:)": ("""
            func load() async throws -> Data { try await withCheckedThrowingContinuation { continuation in fetch { continuation.resume(with: $0) } } }
            """, "withCheckedThrowingContinuation", nil),
        "withUnsafeThrowingContinuation(isolation:_:)": ("""
            func load() async throws -> Data { try await withUnsafeThrowingContinuation { continuation in fetch { continuation.resume(with: $0) } } }
            """, "withUnsafeThrowingContinuation", nil),
        "View.task(priority:_:)": ("""
            struct Feed: View { var body: some View { List {}.task { probe() } } }
            """, "task", Seen(closure: .viewTask, context: .mainActor, cancellation: .always)),
        "View.task(id:priority:_:)": ("""
            struct Feed: View { let id: Int; var body: some View { List {}.task(id: id) { probe() } } }
            """, "task", Seen(closure: .viewTask, context: .mainActor, cancellation: .always)),
        "View.refreshable(action:)": ("""
            struct Feed: View { var body: some View { List {}.refreshable { probe() } } }
            """, "refreshable", Seen(closure: .other(callee: "refreshable"), context: .mainActor, cancellation: .always)),
        "View.onAppear(perform:)": ("""
            struct Feed: View { var body: some View { List {}.onAppear { probe() } } }
            """, "onAppear", Seen(closure: .onAppear, context: .mainActor, cancellation: .never)),
        "View.onDisappear(perform:)": ("""
            struct Feed: View { var body: some View { List {}.onDisappear { probe() } } }
            """, "onDisappear", Seen(closure: .onDisappear, context: .mainActor, cancellation: .never)),
        "View.onChange(of:initial:_:)": ("""
            struct Feed: View { let id: Int; var body: some View { List {}.onChange(of: id) { probe() } } }
            """, "onChange", Seen(closure: .other(callee: "onChange"), context: .mainActor, cancellation: .never)),
        "DispatchQueue.concurrentPerform(iterations:execute:)": ("""
            func crunch() { DispatchQueue.concurrentPerform(iterations: 4) { _ in probe() } }
            """, "concurrentPerform", Seen(closure: .backgroundQueue, context: .concurrent, cancellation: .never)),
        "OperationQueue.main.addOperation(_:)": ("""
            func show() { OperationQueue.main.addOperation { probe() } }
            """, "addOperation", Seen(closure: .mainQueue, context: .mainActor, cancellation: .never)),
        "OperationQueue.addOperation(_:)": ("""
            func crunch(queue: OperationQueue) { queue.addOperation { probe() } }
            """, "addOperation", Seen(closure: .backgroundQueue, context: .serialQueue, cancellation: .never)),
        "NSManagedObjectContext.perform(_:)": ("""
            func save(background: NSManagedObjectContext) { background.perform { probe() } }
            """, "perform", Seen(closure: .perform(receiver: "background"), context: .privateQueue, cancellation: .never)),
        "NSManagedObjectContext.performAndWait(_:)": ("""
            func save(viewContext: NSManagedObjectContext) { viewContext.performAndWait { probe() } }
            """, "performAndWait", Seen(closure: .performAndWait(receiver: "viewContext"), context: .mainActor, cancellation: .never)),
        "URLSession.data(from:delegate:)": ("func get(url: URL) async throws { _ = try await URLSession.shared.data(from: url) }", "data", nil),
        "URLSession.download(from:delegate:)": ("func get(url: URL) async throws { _ = try await session.download(from: url) }", "download", nil),
        "URLSession.upload(for:from:delegate:)": ("func put(r: URLRequest, d: Data) async throws { _ = try await session.upload(for: r, from: d) }", "upload", nil),
        "URLSession.bytes(from:delegate:)": ("func get(url: URL) async throws { _ = try await URLSession.shared.bytes(from: url) }", "bytes", nil),
        "Timer.scheduledTimer(withTimeInterval:repeats:block:)": ("func f() { Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in } }", "scheduledTimer", nil),
        "RunLoop.add(_:forMode:)": ("func f(timer: Timer) { RunLoop.current.add(timer, forMode: .common) }", "add", nil),
    ].merging(dispatchCases, uniquingKeysWith: { first, _ in first }) }

    static var dispatchCases: [String: (source: String, method: String, seen: Seen?)] {
        var cases: [String: (source: String, method: String, seen: Seen?)] = [:]
        for (method, symbol) in [("async", "async(group:qos:flags:execute:)"), ("asyncAfter", "asyncafter(deadline:qos:flags:execute:)"),
                                 ("sync", "sync(execute:)"), ("asyncAndWait", "asyncandwait(execute:)")] {
            let arguments = method == "asyncAfter" ? "(deadline: .now() + 1)" : ""
            cases["DispatchQueue.main." + symbol] = ("func f() { DispatchQueue.main.\(method)\(arguments) { probe() } }", method,
                                                     Seen(closure: .mainQueue, context: .mainActor, cancellation: .never))
            cases["OperationQueue.main." + symbol] = ("func f() { OperationQueue.main.\(method)\(arguments) { probe() } }", method,
                                                      Seen(closure: .mainQueue, context: .mainActor, cancellation: .never))
            cases["DispatchQueue.global(qos:)." + symbol] = ("func f() { DispatchQueue.global(qos: .utility).\(method)\(arguments) { probe() } }", method,
                                                              Seen(closure: .backgroundQueue, context: .concurrent, cancellation: .never))
            cases["DispatchQueue." + symbol] = ("func f() { DispatchQueue(label: \"x\").\(method)\(arguments) { probe() } }", method,
                                                Seen(closure: .backgroundQueue, context: .serialQueue, cancellation: .never))
            cases["a queue of the app's own." + symbol] = ("func f() { syncQueue.\(method)\(arguments) { probe() } }", method,
                                                           Seen(closure: .backgroundQueue, context: .serialQueue, cancellation: .never))
        }
        return cases
    }

    @Test func everyEntryHasACaseAndCitesApple() {
        for entry in FrameworkCalls.entries {
            #expect(Self.cases[entry.symbol] != nil, "no test source for \(entry.symbol)")
            #expect(entry.documentation.hasPrefix("https://developer.apple.com/documentation/"), "\(entry.symbol)")
        }
        #expect(Set(FrameworkCalls.entries.map(\.symbol)).count == FrameworkCalls.entries.count, "symbols are unique")
    }

    @Test(arguments: FrameworkCalls.entries.map(\.symbol))
    func entryIsFoundAndDoesWhatTheTableSays(_ symbol: String) throws {
        let testCase = try #require(Self.cases[symbol])
        let entry = try #require(Self.entry(for: testCase.method, in: testCase.source), "\(symbol): no entry found")
        #expect(entry.symbol == symbol)
        if let expected = testCase.seen {
            #expect(Self.seen(testCase.source) == expected, "\(symbol)")
        }
        if entry.throwsOnCancellation == .urlErrorCancelled {
            let body = try #require(Parser.parseBody(testCase.source))
            #expect(CatchFacts.awaitsURLSessionCall(body), "\(symbol) reports cancellation as URLError.cancelled")
        }
    }

    @Test func runLoopTimersAreScheduledOnTheCurrentThreadsRunLoop() {
        func schedules(_ method: String, receiver: String, callee: String) -> Bool {
            FrameworkCalls.schedulesOnCurrentRunLoop(method: method, receiverText: { receiver }, calleeText: { callee })
        }
        #expect(schedules("scheduledTimer", receiver: "Timer", callee: "Timer.scheduledTimer"))
        #expect(schedules("add", receiver: "RunLoop.current", callee: "RunLoop.current.add"))
        // The main run loop runs by itself; other `add` and timer calls schedule nothing.
        #expect(!schedules("add", receiver: "RunLoop.main", callee: "RunLoop.main.add"))
        #expect(!schedules("add", receiver: "items", callee: "items.add"))
        #expect(!schedules("scheduledTimer", receiver: "clock", callee: "clock.scheduledTimer"))
        #expect(FrameworkCalls.entries.filter(\.schedulesOnCurrentRunLoop).map(\.method).sorted() == ["add", "scheduledTimer"])
    }

    @Test func cancellationErrorsAreCaughtByTheirPatterns() {
        #expect(CatchFacts.catches(.cancellationError, pattern: "is CancellationError"))
        #expect(CatchFacts.catches(.urlErrorCancelled, pattern: "let error as URLError where error.code == .cancelled"))
        #expect(!CatchFacts.catches(.urlErrorCancelled, pattern: "let error as URLError"))
        #expect(FrameworkCalls.entries.filter { $0.throwsOnCancellation == .cancellationError }.map(\.method).sorted() == ["checkCancellation", "sleep"])
    }

    @Test func continuationsAndClosureRunnersReportNoCancellationOfTheirOwn() {
        let quiet = FrameworkCalls.entries.filter(\.throwsOnlyClosureErrors).map(\.method).sorted()
        #expect(quiet == ["perform", "performAndWait", "run", "withCheckedThrowingContinuation", "withUnsafeThrowingContinuation"])
        #expect(FrameworkCalls.entries.allSatisfy { !($0.throwsOnlyClosureErrors && $0.throwsOnCancellation != nil) })
    }

    @Test func aTypeReceiverIsNotAViewTask() {
        let seen = Self.seen("func f() async { Foo.task { probe() } }")
        #expect(seen?.closure == .other(callee: "task"))
        #expect(seen?.cancellation == .ifCallersCancellable(FunctionKey(typeName: nil, name: "f")), "unknown: its callers decide, not SwiftUI")
        #expect(Self.entry(for: "task", in: "func f() { Foo.task { } }") == nil)
    }
}

struct FrameworkCallbackTests {
    @Test func observerWithoutAQueueRunsOnThePostersThread() {
        let seen = FrameworkCallTests.seen("""
            final class Sync { func start() { NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { _ in probe() } } }
            """)
        #expect(seen?.context == .notificationHandler(NotificationNames.normalized(".NSPersistentStoreRemoteChange")))
        #expect(FrameworkCallbacks.notificationObserver.documentation.hasPrefix("https://developer.apple.com/documentation/"))
    }

    @Test func observerOnTheMainQueueRunsOnTheMainActor() {
        let seen = FrameworkCallTests.seen("""
            final class Sync { func start() { NotificationCenter.default.addObserver(forName: .x, object: nil, queue: .main) { _ in probe() } } }
            """)
        #expect(seen?.context == .mainActor)
    }

    @Test func completionHandlersRunOnTheAPIsQueue() {
        for source in ["func f(s: URLSession, u: URL) { s.dataTask(with: u, completionHandler: { _, _, _ in probe() }) }",
                       "func f(c: UNUserNotificationCenter) { c.getNotificationSettingsWithCompletionHandler { _ in probe() } }"] {
            #expect(FrameworkCallTests.seen(source)?.context == .completionHandler, "\(source)")
        }
        #expect(FrameworkCallbacks.completionHandler.documentation.hasPrefix("https://developer.apple.com/documentation/"))
    }

    @Test func mainQueueContextsRunPerformOnTheMainActor() {
        for (receiver, expected) in [("container.viewContext", ExecutionContext.mainActor), ("container.mainContext", .mainActor),
                                     ("backgroundContext", .privateQueue)] {
            let seen = FrameworkCallTests.seen("func f() { \(receiver).perform { probe() } }")
            #expect(seen?.context == expected, "\(receiver)")
        }
        #expect(FrameworkCallbacks.mainQueueContexts.count == FrameworkCallbacks.mainQueueContextNames.count)
    }

    @Test func backgroundTaskAndStoreLoadingAreCited() {
        for fact in [FrameworkCallbacks.backgroundTask, FrameworkCallbacks.loadPersistentStores] {
            #expect(fact.documentation.hasPrefix("https://developer.apple.com/documentation/coredata/"), "\(fact.symbol)")
        }
    }
}

/// The contexts' table (`FrameworkContexts`): every entry cites Apple, and each does in a small source what the
/// rules that read it use it for.
struct FrameworkContextTests {
    private func findings(_ code: String, rule: String) -> [String] {
        var configuration = Configuration()
        configuration.onlyRules = [rule]
        return Linter.lint(sources: [SourceInput(path: "/v/Store.swift", text: code)], resources: [], configuration: configuration)
            .findings.map(\.ruleID)
    }

    @Test func everyEntryCitesApple() {
        let facts = FrameworkContexts.save + FrameworkContexts.discardsPendingChanges + FrameworkContexts.insertsChange
            + FrameworkContexts.shortLivedContexts + [FrameworkContexts.performEnqueues, FrameworkContexts.notificationPost]
        for fact in facts {
            #expect(fact.documentation.hasPrefix("https://developer.apple.com/documentation/"), "\(fact.symbol)")
        }
        #expect(Set(facts.map(\.symbol)).count == facts.count, "symbols are unique")
    }

    /// A failed save is quiet exactly when the catch discards the pending changes (each discarding method).
    @Test func discardingMethodsQuietAFailedSave() {
        let code = { (recovery: String) in """
            final class Store {
                let modelContext: ModelContext
                init(modelContext: ModelContext) { self.modelContext = modelContext }
                func add(_ tag: Tag) {
                    do {
                        modelContext.insert(tag)
                        try modelContext.save()
                    } catch {
                        \(recovery)
                    }
                }
            }
            """ }
        #expect(findings(code("print(error)"), rule: "save_failure_without_rollback") == ["save_failure_without_rollback"])
        for method in FrameworkContexts.discardingMethods.sorted() {
            #expect(findings(code("modelContext.\(method)()"), rule: "save_failure_without_rollback").isEmpty, "\(method)")
        }
    }

    /// A context made for one job is thrown away after a failed save: each way of making one is quiet.
    @Test func shortLivedContextsAreQuiet() {
        let makers = ["let context = container.newBackgroundContext()", "let context = ModelContext(container)",
                      "let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)"]
        #expect(makers.count + 1 == FrameworkContexts.shortLivedContexts.count)
        for maker in makers {
            let code = """
                final class Importer {
                    let container: ModelContainer
                    init(container: ModelContainer) { self.container = container }
                    func importTags(_ names: [String]) {
                        \(maker)
                        do {
                            for name in names { context.insert(Tag(name: name)) }
                            try context.save()
                        } catch {
                            print(error)
                        }
                    }
                }
                """
            #expect(findings(code, rule: "save_failure_without_rollback").isEmpty, "\(maker)")
        }
        let handedOver = """
            final class Importer {
                let container: NSPersistentContainer
                init(container: NSPersistentContainer) { self.container = container }
                func importTags(_ names: [String]) {
                    container.performBackgroundTask { context in
                        do {
                            for name in names { _ = Tag(context: context) }
                            try context.save()
                        } catch {
                            print(error)
                        }
                    }
                }
            }
            """
        #expect(findings(handedOver, rule: "save_failure_without_rollback").isEmpty)
    }

    /// `perform(_:)` enqueues: a post after it runs first; `performAndWait` waits, so a post after it is in order.
    @Test func performEnqueuesAndAPostAfterItRunsFirst() {
        let code = { (method: String) in """
            final class Sync {
                let context: NSManagedObjectContext
                init(context: NSManagedObjectContext) { self.context = context }
                func reload() {
                    context.\(method) { self.context.refreshAllObjects() }
                    NotificationCenter.default.post(name: .didReload, object: nil)
                }
            }
            """ }
        #expect(findings(code(FrameworkContexts.performMethod), rule: "post_before_perform_completes") == ["post_before_perform_completes"])
        #expect(findings(code("performAndWait"), rule: "post_before_perform_completes").isEmpty)
    }
}

/// Stores: every `ModelConfiguration` initializer, the containers, `cloudKitDatabase` values, the in-memory
/// forms, several configurations in one container, and the Core Data containers.
struct FrameworkStoreTests {
    static let models = """
        @Model final class Note { var body: String = ""; var folder: Folder? }
        @Model final class Folder { var name: String = ""; var notes: [Note]? }
        @Model final class CachedImage { var url: URL?; init() {} }
        """

    static func stores(_ source: String) -> (stores: [StoreConfiguration], index: ProjectIndex) {
        let index = Probe.index(["/v/Models.swift": models, "/v/App.swift": source])
        return (index.storeConfigurations, index)
    }

    @Test func everyStoreEntryCitesApple() {
        let all = FrameworkStores.modelConfigurationInitializers + FrameworkStores.containers
        for api in all { #expect(api.documentation.hasPrefix("https://developer.apple.com/documentation/"), "\(api.symbol)") }
        for value in FrameworkStores.cloudKitDatabaseValues { #expect(value.documentation.hasPrefix("https://developer.apple.com/documentation/")) }
        let parameters = FrameworkStores.modelConfigurationInitializers[0].parameters.map(\.label)
        #expect(parameters == ["_", "schema", "isStoredInMemoryOnly", "allowsSave", "groupContainer", "cloudKitDatabase"])
        #expect(FrameworkStores.modelConfigurationInitializers[0].parameters.last?.defaultValue == ".automatic")
    }

    @Test func cloudKitDatabaseValuesDecideTheStore() {
        #expect(FrameworkStores.cloudKitDatabase(".none") == .local)
        #expect(FrameworkStores.cloudKitDatabase("ModelConfiguration.CloudKitDatabase.none") == .local)
        #expect(FrameworkStores.cloudKitDatabase(".automatic") == .followsEntitlements)
        #expect(FrameworkStores.cloudKitDatabase(".private(\"iCloud.com.example\")") == .syncs)
        #expect(FrameworkStores.cloudKitDatabase("useCloud ? .automatic : .none") == nil, "an expression the table does not know stays unknown")
        let kinds = Self.stores("""
            let a = ModelConfiguration(cloudKitDatabase: .none)
            let b = ModelConfiguration(cloudKitDatabase: .automatic)
            let c = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example"))
            let d = ModelConfiguration()
            """).stores.map(\.kind)
        #expect(kinds == [.swiftDataLocal, .swiftDataAutomatic, .swiftDataCloudKit, .swiftDataAutomatic])
    }

    @Test func namedSchemaInitializerHoldsItsSchemasModels() {
        let (stores, _) = Self.stores("""
            let schema = Schema([Note.self])
            let config = ModelConfiguration("Notes", schema: schema, isStoredInMemoryOnly: false, allowsSave: true, cloudKitDatabase: .none)
            let container = try ModelContainer(for: schema, configurations: [config])
            """)
        #expect(stores.count == 1)
        #expect(stores.first?.models == ["Note"])
        #expect(stores.first?.container?.line == 3)
        #expect(stores.first?.sync == .local)
    }

    @Test func urlInitializerAtDevNullIsInMemory() {
        let (stores, _) = Self.stores("let config = ModelConfiguration(schema: Schema([Note.self]), url: URL(fileURLWithPath: \"/dev/null\"))")
        #expect(stores.map(\.kind) == [.inMemory])
        #expect(stores.first?.models == ["Note"])
    }

    @Test func forTypesInitializerHoldsItsTypes() {
        let (stores, _) = Self.stores("let config = ModelConfiguration(for: Note.self, CachedImage.self, isStoredInMemoryOnly: true)")
        #expect(stores.map(\.kind) == [.inMemory])
        #expect(stores.first?.models == ["Note", "CachedImage"])
    }

    @Test func inMemoryInitializerIsInMemory() {
        let (stores, _) = Self.stores("let config = ModelConfiguration(isStoredInMemoryOnly: true)")
        #expect(stores.map(\.kind) == [.inMemory])
    }

    @Test func containerWithoutConfigurationsBuildsADefaultOneForItsModels() {
        // A model type named like a configuration is a model, not a configuration.
        let (stores, _) = Self.stores("let container = try ModelContainer(for: Note.self, APIConfiguration.self)")
        #expect(stores.map(\.kind) == [.swiftDataAutomatic])
        #expect(stores.first?.models == ["Note", "APIConfiguration"])
    }

    @Test func severalConfigurationsEachHoldTheirOwnModels() {
        let (stores, index) = Self.stores("""
            let synced = ModelConfiguration("Synced", schema: Schema([Note.self]), cloudKitDatabase: .private("iCloud.com.example"))
            let cache = ModelConfiguration("Cache", schema: Schema([CachedImage.self]), cloudKitDatabase: .none)
            let container = try ModelContainer(for: Note.self, CachedImage.self, configurations: synced, cache)
            """)
        #expect(stores.map(\.models) == [["Note"], ["CachedImage"]])
        #expect(stores.allSatisfy { $0.container?.line == 3 })
        #expect(index.cloudKitEvidence(forModel: "Note", declaredIn: "/v/Models.swift") != nil)
        #expect(index.cloudKitEvidence(forModel: "Folder", declaredIn: "/v/Models.swift") != nil, "related to a synced model")
        #expect(index.cloudKitEvidence(forModel: "CachedImage", declaredIn: "/v/Models.swift") == nil)
    }

    @Test func aConfigurationWithoutItsOwnSchemaHoldsTheContainersModels() {
        let (stores, index) = Self.stores("""
            let synced = try ModelContainer(for: Note.self, configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example")))
            let cache = try ModelContainer(for: CachedImage.self, configurations: ModelConfiguration(cloudKitDatabase: .none))
            """)
        #expect(stores.map(\.models) == [["Note"], ["CachedImage"]])
        #expect(index.cloudKitEvidence(forModel: "CachedImage", declaredIn: "/v/Models.swift") == nil)
        #expect(index.cloudKitEvidence(forModel: "Note", declaredIn: "/v/Models.swift") != nil)
    }

    @Test func aStoreWhoseModelsAreUnknownMayHoldAnyModel() {
        let (_, index) = Self.stores("""
            let synced = ModelConfiguration(schema: AppSchema.current, cloudKitDatabase: .private("iCloud.com.example"))
            """)
        #expect(index.cloudKitEvidence(forModel: "CachedImage", declaredIn: "/v/Models.swift") != nil)
    }

    @Test func modelContainerModifierHoldsItsModelsAndMayBeInMemory() {
        let (stores, _) = Self.stores("""
            struct AppView: View { var body: some View { List {}.modelContainer(for: [Note.self], inMemory: true) } }
            struct Other: View { var body: some View { List {}.modelContainer(for: CachedImage.self) } }
            """)
        #expect(stores.map(\.kind) == [.inMemory, .swiftDataAutomatic])
        #expect(stores.map(\.models) == [["Note"], ["CachedImage"]])
    }

    @Test func containerEvidenceFollowsItsOwnStores() {
        let (stores, index) = Self.stores("""
            let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example"))
            let preview = ModelConfiguration(isStoredInMemoryOnly: true)
            let a = try! ModelContainer(for: Note.self, configurations: cloud)
            let b = try! ModelContainer(for: Note.self, configurations: preview)
            let c = try! ModelContainer(for: Note.self, configurations: elsewhere)
            """)
        let containers = stores.compactMap(\.container)
        #expect(containers.map(\.line) == [3, 4])
        #expect(index.cloudKitEvidence(forContainerAt: containers[0]) != nil)
        #expect(index.cloudKitEvidence(forContainerAt: containers[1]) == nil)
        let unknown = SourceLocation(file: "/v/App.swift", line: 5, column: 10)
        #expect(index.cloudKitEvidence(forContainerAt: unknown) != nil, "configurations built elsewhere: the file's targets decide, as before")
    }

    @Test func coreDataContainerClassesDecide() {
        let (stores, index) = Self.stores("""
            let cloud = NSPersistentCloudKitContainer(name: "Model")
            let local = NSPersistentContainer(name: "Model")
            """)
        #expect(stores.map(\.kind) == [.coreDataCloudKit, .coreDataLocal])
        #expect(stores.map(\.bindingName) == ["cloud", "local"])
        #expect(index.cloudKit.coreData(containerNamed: "local", in: "/v/App.swift") == nil)
        #expect(index.cloudKit.coreData(containerNamed: "cloud", in: "/v/App.swift") != nil)
        #expect(FrameworkStores.containerClasses == ["NSPersistentContainer": .local, "NSPersistentCloudKitContainer": .syncs])
    }

    @Test func clearingCloudKitOptionsOnEveryPathKeepsTheStoreLocal() {
        let (stores, _) = Self.stores("""
            func makeLocal() -> NSPersistentContainer {
                let container = NSPersistentCloudKitContainer(name: "Model")
                container.persistentStoreDescriptions.first?.cloudKitContainerOptions = nil
                return container
            }
            func makeMaybeSynced(sync: Bool) -> NSPersistentContainer {
                let container = NSPersistentCloudKitContainer(name: "Model")
                if !sync { container.persistentStoreDescriptions.first?.cloudKitContainerOptions = nil }
                return container
            }
            """)
        #expect(stores.map(\.kind) == [.coreDataLocal, .coreDataCloudKit])
    }

    @Test func coreDataInMemoryStoreTypeIsInMemory() {
        let (stores, _) = Self.stores("""
            func makePreview() -> NSPersistentContainer {
                let container = NSPersistentCloudKitContainer(name: "Model")
                container.persistentStoreDescriptions.first?.type = NSInMemoryStoreType
                return container
            }
            """)
        #expect(stores.map(\.kind) == [.inMemory])
        #expect(FrameworkStores.inMemoryDocumentation.hasPrefix("https://developer.apple.com/documentation/"))
    }
}

private extension Parser {
    /// The body of the first function in `source`.
    static func parseBody(_ source: String) -> CodeBlockSyntax? {
        Parser.parse(source: source).statements.lazy.compactMap { $0.item.as(FunctionDeclSyntax.self)?.body }.first
    }
}

/// Continuations and async streams (`FrameworkContinuations`): each function is found from a small source as the
/// rules look it up, with its continuation's resumes; each stream initializer is found from its call.
struct FrameworkContinuationTests {
    static func use(_ source: String) -> ContinuationUse? {
        var found: ContinuationUse?
        _ = Probe.index(["/v/Code.swift": source]) { node, _ in
            guard found == nil, let call = node.as(FunctionCallExprSyntax.self) else { return }
            found = ContinuationUse.of(call)
        }
        return found
    }

    @Test(arguments: FrameworkContinuations.continuationFunctions.map(\.callee))
    func everyContinuationFunctionIsFoundWithItsResumes(_ callee: String) throws {
        let use = try #require(Self.use("""
            func f() async { await \(callee) { continuation in api.load { continuation.resume(returning: $0) } } }
            """), "\(callee) not found")
        #expect(use.name == "continuation")
        #expect(use.resumes.count == 1)
        #expect(use.levels.count == 2, "the continuation's closure and the callback")
    }

    @Test func aContinuationLetOutIsNotFollowed() {
        #expect(Self.use("func f() async { await withCheckedContinuation { c in self.pending = c } }") == nil)
        #expect(Self.use("func f() async { await withCheckedContinuation { c in register(c) } }") == nil)
        #expect(Self.use("func f() async { await withCheckedContinuation { $0.resume() } }") == nil, "no name to follow")
        #expect(Self.use("func f() async { await withContinuation { c in c.resume() } }") == nil, "not in the table")
    }

    @Test func streamsAndTheirEndsAreInTheTable() {
        #expect(FrameworkContinuations.streamInitializer(named: "AsyncStream") != nil)
        #expect(FrameworkContinuations.streamInitializer(named: "AsyncThrowingStream") != nil)
        #expect(FrameworkContinuations.streamInitializer(named: "AsyncStream.makeStream") == nil)
        #expect(FrameworkContinuations.endsStream(member: "finish") && FrameworkContinuations.endsStream(member: "onTermination"))
        #expect(!FrameworkContinuations.endsStream(member: "yield"))
    }

    @Test func everyEntryCitesApple() {
        let all = FrameworkContinuations.continuationFunctions + FrameworkContinuations.streamInitializers + FrameworkContinuations.streamEnd
            + [FrameworkContinuations.resumeMethod]
        for api in all { #expect(api.documentation.hasPrefix("https://developer.apple.com/documentation/swift/"), "\(api.symbol)") }
    }
}

/// The repeating handlers' table (`FrameworkHandlers`): every entry cites its documentation, and a `Task { }` nobody
/// keeps, started in each handler's closure and awaiting a load that writes shown state, is an overlapping task.
struct FrameworkHandlerTests {
    static func messageIDs(inView handler: String) -> [String] {
        let code = """
            @MainActor @Observable final class Model {
                var items: [Int] = []
                func load() async {
                    let found = await api.fetch()
                    items = found
                }
            }
            struct ModelView: View {
                @State private var model = Model()
                @State private var query = ""
                var body: some View {
                    Text("\\(model.items.count)")
                    \(handler)
                }
            }
            """
        var configuration = Configuration()
        configuration.onlyRules = ["missing_cancellation_check"]
        // Whether the handler starts overlapping tasks at all; the tier (this task takes no new value: medium) is the
        // rule examples' business.
        configuration.confidence = .medium
        return Linter.lint(sources: [SourceInput(path: "/v/ModelView.swift", text: code)], resources: [], configuration: configuration)
            .findings.map(\.messageID)
    }

    static let handlers: [String: String] = [
        "onChange": ".onChange(of: query) { Task { await model.load() } }",
        "onReceive": ".onReceive(timer) { _ in Task { await model.load() } }",
        "onTapGesture": ".onTapGesture { Task { await model.load() } }",
        "onSubmit": ".onSubmit { Task { await model.load() } }",
        "Button": "Button(\"Load\") { Task { await model.load() } }",
        "Binding": "TextField(\"Query\", text: Binding(get: { query }, set: { query = $0; Task { await model.load() } }))",
        "addObserver": """
            .onAppear {
                NotificationCenter.default.addObserver(forName: .refresh, object: nil, queue: .main) { _ in
                    Task { await model.load() }
                }
            }
            """,
    ]

    @Test func everyEntryCitesItsDocumentation() {
        for entry in FrameworkHandlers.repeatingHandlers {
            #expect(entry.documentation.hasPrefix("https://developer.apple.com/documentation/"), "\(entry.symbol)")
        }
        #expect(Set(FrameworkHandlers.repeatingHandlers.map(\.method)).count == FrameworkHandlers.repeatingHandlers.count)
    }

    @Test(arguments: FrameworkHandlers.repeatingHandlers.map(\.method))
    func aTaskStartedInTheHandlerOverlapsTheLastOne(method: String) throws {
        let handler = try #require(Self.handlers[method], "no case for \(method)")
        let entry = try #require(FrameworkHandlers.repeatingHandlers.first { $0.method == method })
        // A handler without a new value each run repeats the same work: not reported.
        #expect(Self.messageIDs(inView: handler) == (entry.carriesValue ? ["overlapping_task_call"] : []), "\(method)")
    }

    /// The same task in a closure that runs once per appearance, in a button's label, or in a binding's getter is not
    /// started by a repeating handler.
    @Test func otherClosuresAreNotHandlers() {
        #expect(Self.messageIDs(inView: ".onAppear { Task { await model.load() } }").isEmpty)
        // Not code a compiler takes (a label builds a view), only where the closure stands.
        #expect(Self.messageIDs(inView: "Button(action: { print(query) }) { Task { await model.load() }; Text(\"x\") }").isEmpty)
        #expect(Self.messageIDs(inView: "TextField(\"Query\", text: Binding(get: { Task { await model.load() }; return query }, set: { query = $0 }))").isEmpty)
    }

    @Test func propertyObserversRunOnEverySet() {
        #expect(FrameworkHandlers.propertyObservers == ["didSet", "willSet"])
        #expect(FrameworkHandlers.repeatingHandlers.filter { !$0.carriesValue }.map(\.method).sorted() == ["Button", "addObserver", "onTapGesture"])
    }
}
