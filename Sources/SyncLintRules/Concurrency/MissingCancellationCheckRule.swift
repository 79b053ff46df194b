import SwiftSyntax

/// A stored (cancellable) task that writes state after an `await` without checking for cancellation.
public final class MissingCancellationCheckRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "missing_cancellation_check",
        name: "Missing Cancellation Check",
        whatItDoes: """
            Inside a `Task { }` whose handle is stored on `self` and cancelled somewhere in the type, finds a write \
            to state of `self` after an `await` that cannot throw (no `try`, or `try?`), or of the value such an \
            `await` returns (`results = await search()`), when some path of the task's control-flow graph goes from \
            the `await` to the write with no `Task.checkCancellation()` or `Task.isCancelled` test on it (a check or \
            an `await` in another branch, or in a `guard`'s `else` that leaves, is not on the way); and the same in an async method that such a task awaits directly \
            (`task = Task { await recognizer.analyze(image) }`). \
            Also a `Task { }` whose handle nobody keeps, started by a handler that runs again with a new value each \
            time (`onChange`, `onReceive`, `onSubmit`, a binding's setter, a `didSet`/`willSet`), that writes state a \
            view reads after an `await` (a value that differs from run to run, not a literal), itself or in a \
            project function it awaits (to three calls deep), unless a function on the way returns early while a call \
            is in flight (`guard !isLoading else { return }` before its first `await`, with `isLoading = true`).
            """,
        whyIsThisBad: """
            Cancelling a task only sets a flag; code after a non-throwing `await` runs anyway. A cancelled, \
            superseded load then writes its stale result over the newer one's. A task nobody keeps cannot be \
            cancelled at all: when its event comes again before it finishes, two tasks run and the older one's \
            result can land last.
            """,
        seed: "000, 001",
        // Opt-in: judged on apps nobody tuned on (docs/precision.md, "Test half"), it fell far short of the bar for
        // a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        triggeringExamples: [
            // The awaited method suspends (it awaits another module's call): the stored task can be cancelled in between.
            RuleExample("""
                struct WindowPicker: View {
                    @State private var windows: [String] = []
                    @State private var captureTask: Task<Void, Never>?
                    var body: some View {
                        List(windows, id: \\.self) { Text($0) }
                            .onAppear {
                                captureTask?.cancel()
                                captureTask = Task { ↓windows = await captureWindows() }
                            }
                    }
                    private func captureWindows() async -> [String] {
                        await WindowServer.shared.list()
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        searchTask = Task {
                            let found = await api.search(query)
                            ↓results = found
                        }
                    }
                }
                """, message: "stored_task_write", notes: ["the task starts here, stored in `searchTask`"]),
            RuleExample("""
                final class Poller {
                    var status = ""
                    private var pollTask: Task<Void, Never>?
                    func start() {
                        let task = Task { [weak self] in
                            try? await Task.sleep(for: .seconds(5))
                            ↓self?.status = "stale"
                        }
                        pollTask = task
                    }
                    func stop() { pollTask?.cancel() }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        searchTask = Task { ↓results = await api.search(query) }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Recognizer {
                    var observations: [String] = []
                    func analyze(_ image: Data) async {
                        let found = await recognize(image)
                        ↓observations = found
                    }
                }
                @MainActor final class Scheduler {
                    var recognizer: Recognizer = Recognizer()
                    private var task: Task<Void, Never>?
                    func schedule(_ image: Data) {
                        task?.cancel()
                        task = Task { await recognizer.analyze(image) }
                    }
                }
                """, message: "awaited_method_write", notes: ["awaited here by the task that is cancelled"]),
            // The handle is the caller's, passed `inout`: the helper cancels it before storing the next task there.
            RuleExample("""
                final class TextRecognizer {
                    var observations: [String] = []
                    func analyze(_ image: Data) async {
                        ↓observations = await recognize(image)
                    }
                }
                enum AnalysisScheduler {
                    static func schedule(task: inout Task<Void, Never>?, recognizer: inout TextRecognizer?, image: Data) {
                        task?.cancel()
                        let current = recognizer
                        task = Task { [weak current] in
                            guard let current else { return }
                            await current.analyze(image)
                        }
                    }
                }
                """, message: "awaited_method_write", notes: ["awaited here by the task that is cancelled"]),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    var status = ""
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        searchTask = Task {
                            let found = await api.search(query)
                            if found.isEmpty {
                                guard !Task.isCancelled else { return }
                                status = "No results"
                            }
                            ↓results = found
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String, prefetch: Bool) {
                        searchTask?.cancel()
                        searchTask = Task {
                            if prefetch { await api.prefetch(query) }
                            ↓results = cache.results(for: query)
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class TimelineModel: ObservableObject {
                    @Published var statuses: [String] = []
                    @Published var filter = "home" {
                        didSet {
                            Task {
                                let fresh = await api.statuses(for: filter)
                                ↓statuses = fresh
                            }
                        }
                    }
                }
                struct TimelineView: View {
                    @StateObject var model = TimelineModel()
                    var body: some View { List(model.statuses, id: \\.self) { Text($0) } }
                }
                """, message: "overlapping_task_write", notes: ["the task starts here, on each set of the property"], confidence: .high),
            RuleExample("""
                @MainActor @Observable final class LookupModel {
                    var detail: String?
                    func lookUp(_ query: String) async {
                        let found = await api.lookup(query)
                        detail = found
                    }
                }
                struct LookupView: View {
                    @State private var model = LookupModel()
                    @State private var query = ""
                    var body: some View {
                        TextField("Word", text: $query)
                            .onSubmit {
                                ↓Task { await model.lookUp(query) }
                            }
                        Text(model.detail ?? "")
                    }
                }
                """, message: "overlapping_task_call"),
            RuleExample("""
                @MainActor final class FeedModel: ObservableObject {
                    @Published var posts: [String] = []
                    func reload(_ sort: String) async {
                        let page = try? await api.posts(sortedBy: sort)
                        withAnimation { posts = page ?? [] }
                    }
                }
                struct FeedView: View {
                    @StateObject var model = FeedModel()
                    @State private var sort = "hot"
                    var body: some View {
                        List(model.posts, id: \\.self) { Text($0) }
                            .onChange(of: sort, perform: { newValue in ↓Task { await model.reload(newValue) } })
                    }
                }
                """, message: "overlapping_task_call", confidence: .high),
            RuleExample("""
                @MainActor @Observable final class SourcesModel {
                    var sources: [String] = []
                    func reload(_ filter: String?) async {
                        let fresh = await api.sources(filter)
                        sources = fresh
                    }
                }
                struct AddSourceView: View {
                    @State private var model = SourcesModel()
                    var body: some View {
                        List(model.sources, id: \\.self) { Text($0) }
                            .onReceive(NotificationCenter.default.publisher(for: .filterExternalSources)) { note in
                                ↓Task { await model.reload(note.object as? String) }
                            }
                    }
                }
                """, message: "overlapping_task_call"),
            RuleExample("""
                @MainActor @Observable final class HomeModel {
                    var entries: [String] = []
                    private var loadTask: Task<Void, Never>?
                    func reload() async {
                        loadTask = Task { await load() }
                        await loadTask?.value
                    }
                    func load() async {
                        let page = await api.entries()
                        entries = page
                    }
                }
                struct HomeView: View {
                    @State private var model = HomeModel()
                    @State private var selection = 0
                    var body: some View {
                        List(model.entries, id: \\.self) { Text($0) }
                            .onChange(of: selection) { ↓Task { await model.reload() } }
                    }
                }
                """, message: "overlapping_task_call", confidence: .medium),
            // The awaited method reads the observed value itself: an older span's list can land last.
            RuleExample("""
                @MainActor @Observable final class TopModel {
                    var daySpan = 7
                    var top: [String] = []
                    func load() async {
                        let fresh = await api.top(days: daySpan)
                        top = fresh
                    }
                }
                struct TopView: View {
                    @State private var model = TopModel()
                    var body: some View {
                        List(model.top, id: \\.self) { Text($0) }
                            .onChange(of: model.daySpan) { ↓Task { await model.load() } }
                    }
                }
                """, message: "overlapping_task_call", confidence: .high),
        ],
        nonTriggeringExamples: [
            // The awaited method is the view's own (main actor) and awaits nothing: awaiting it never suspends, so the
            // task runs through to the write in one turn of the main actor and nothing can cancel it in between.
            RuleExample("""
                struct WindowPicker: View {
                    @State private var windows: [String] = []
                    @State private var captureTask: Task<Void, Never>?
                    var body: some View {
                        List(windows, id: \\.self) { Text($0) }
                            .onAppear {
                                captureTask?.cancel()
                                captureTask = Task { windows = await captureWindows() }
                            }
                    }
                    private func captureWindows() async -> [String] {
                        WindowServer.shared.listNow()
                    }
                }
                """),
            // Each submit starts a task nobody keeps, but the main-actor method it awaits awaits only another main-actor
            // method with no `await`: two runs cannot overlap.
            RuleExample("""
                @MainActor final class Vault {
                    func unlock(with password: String) async -> Bool { password.count > 8 }
                }
                struct UnlockView: View {
                    let vault: Vault
                    @State private var password = ""
                    @State private var unlocked = false
                    var body: some View {
                        SecureField("", text: $password)
                            .onSubmit { Task { await submit(password) } }
                        Text(unlocked ? "Open" : "Locked")
                    }
                    func submit(_ entered: String) async {
                        unlocked = await vault.unlock(with: String(entered))
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String, prefetch: Bool) {
                        searchTask?.cancel()
                        searchTask = Task {
                            if prefetch {
                                await api.prefetch(query)
                            } else {
                                results = cache.results(for: query)
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        searchTask = Task {
                            guard let cached = cache.results(for: query) else {
                                await api.prefetch(query)
                                return
                            }
                            results = cached
                        }
                    }
                }
                """),
            RuleExample("""
                final class Poller {
                    var status = ""
                    private var pollTask: Task<Void, Never>?
                    func start() {
                        pollTask = Task { [weak self] in
                            try? await Task.sleep(for: .seconds(5))
                            self?.status = "polled"
                        }
                    }
                    func waitForPoll() async { await pollTask?.value }
                }
                """),
            RuleExample("""
                @MainActor final class Recognizer {
                    var observations: [String] = []
                    var isAnalyzing = false
                    func analyze(_ image: Data) async {
                        let found = await recognize(image)
                        isAnalyzing = false
                        guard !Task.isCancelled else { return }
                        observations = found
                    }
                    func preview(_ image: Data) async { observations = await recognize(image) }
                }
                @MainActor final class Scheduler {
                    var recognizer: Recognizer = Recognizer()
                    private var task: Task<Void, Never>?
                    func schedule(_ image: Data) {
                        task?.cancel()
                        task = Task { await recognizer.analyze(image) }
                    }
                    func show(_ image: Data) { Task { await recognizer.preview(image) } }
                }
                """),
            // An `inout` handle the helper only stores, never cancels: nothing says the task is cancelled.
            RuleExample("""
                final class TextRecognizer {
                    var observations: [String] = []
                    func analyze(_ image: Data) async {
                        observations = await recognize(image)
                    }
                }
                enum AnalysisScheduler {
                    static func schedule(task: inout Task<Void, Never>?, recognizer: TextRecognizer, image: Data) {
                        task = Task { await recognizer.analyze(image) }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class LibraryModel {
                    var refreshTask: Task<Void, Never>?
                    func refresh() {
                        refreshTask?.cancel()
                        refreshTask = Task {
                            await library.reload()
                            refreshTask = nil
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        searchTask = Task {
                            let found = await api.search(query)
                            guard !Task.isCancelled else { return }
                            results = found
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ReaderModel {
                    var article: Article?
                    private var loadingTask: Task<Void, Never>?
                    func load() {
                        loadingTask = Task {
                            do {
                                let fresh = try await service.fetch()
                                article = fresh
                            } catch {}
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Logger {
                    var lines: [String] = []
                    func log(_ line: String) {
                        Task {
                            await store.append(line)
                            lines.append(line)
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    var query = ""
                    private var searchTask: Task<Void, Never>?
                    func search(_ text: String) {
                        searchTask?.cancel()
                        searchTask = Task {
                            let found = await api.search(text)
                            guard text == query else { return }
                            results = found
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Lane {
                    var cursor = 0
                    var generation = 0
                    func loadMore() async {
                        let started = generation
                        let page = await api.page(after: cursor)
                        if started != generation { return }
                        cursor = page
                    }
                }
                @MainActor final class Timeline {
                    var lane = Lane()
                    private var task: Task<Void, Never>?
                    func more() {
                        task?.cancel()
                        task = Task { await lane.loadMore() }
                    }
                }
                """),
            RuleExample("""
                @MainActor @Observable final class PosterModel {
                    var detail: String?
                    var isOpening = false
                    func open() async {
                        guard !isOpening else { return }
                        isOpening = true
                        defer { isOpening = false }
                        let found = await api.lookup()
                        detail = found
                    }
                }
                struct PosterView: View {
                    @State private var model = PosterModel()
                    @State private var selection = 0
                    var body: some View {
                        Text(model.detail ?? "")
                            .onChange(of: selection) {
                                Task { await model.open() }
                            }
                    }
                }
                """),
            RuleExample("""
                @MainActor @Observable final class PosterModel {
                    var detail: String?
                    func open() async {
                        let found = await api.lookup()
                        detail = found
                    }
                }
                struct PosterView: View {
                    @State private var model = PosterModel()
                    var body: some View {
                        Button("Open") {
                            Task { await model.open() }
                        }
                        Text(model.detail ?? "")
                    }
                }
                """),
            RuleExample("""
                @MainActor final class PagerModel: ObservableObject {
                    @Published var detents: [Int] = [0]
                    var isPresented = false {
                        didSet {
                            Task {
                                await animate()
                                detents = [1]
                            }
                        }
                    }
                }
                struct PagerView: View {
                    @StateObject var model = PagerModel()
                    var body: some View { Text("\\(model.detents.count)") }
                }
                """),
            RuleExample("""
                @MainActor @Observable final class DraftStore {
                    var drafts: [String] = []
                    func save(_ draft: String) async {
                        drafts.append(draft)
                        await api.upload(draft)
                    }
                }
                struct DraftView: View {
                    @State private var store = DraftStore()
                    var body: some View {
                        Text("\\(store.drafts.count)")
                            .onSubmit {
                                Task { await store.save("draft") }
                            }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel: ObservableObject {
                    @Published var results: [String] = []
                    func search(_ query: String) async {
                        let found = await api.search(query)
                        guard !Task.isCancelled else { return }
                        results = found
                    }
                }
                struct SearchView: View {
                    @StateObject var model = SearchModel()
                    @State private var query = ""
                    @State private var searchTask: Task<Void, Never>?
                    var body: some View {
                        List(model.results, id: \\.self) { Text($0) }
                            .onChange(of: query) {
                                searchTask?.cancel()
                                searchTask = Task { await model.search(query) }
                            }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SyncModel: ObservableObject {
                    @Published var items: [String] = []
                    var lastSync: Date?
                    var isSyncing = false {
                        didSet {
                            Task {
                                await api.ping()
                                lastSync = Date()
                            }
                        }
                    }
                }
                struct SyncView: View {
                    @StateObject var model = SyncModel()
                    var body: some View { List(model.items, id: \\.self) { Text($0) } }
                }
                """),
            RuleExample("""
                @MainActor @Observable final class SourcesModel {
                    var sources: [String] = []
                    func reload() async {
                        let fresh = await api.sources()
                        sources = fresh
                    }
                }
                struct AddSourceView: View {
                    @State private var model = SourcesModel()
                    var body: some View {
                        List(model.sources, id: \\.self) { Text($0) }
                            .onReceive(NotificationCenter.default.publisher(for: .filterExternalSources)) { _ in
                                Task { await model.reload() }
                            }
                    }
                }
                """),
            RuleExample("""
                @MainActor @Observable final class HomeModel {
                    var entries: [String] = []
                    private var loadTask: Task<Void, Never>?
                    func reload() async {
                        loadTask?.cancel()
                        loadTask = Task { await load() }
                        await loadTask?.value
                    }
                    func load() async {
                        let page = await api.entries()
                        guard !Task.isCancelled else { return }
                        entries = page
                    }
                }
                struct HomeView: View {
                    @State private var model = HomeModel()
                    @State private var selection = 0
                    var body: some View {
                        List(model.entries, id: \\.self) { Text($0) }
                            .onChange(of: selection) { Task { await model.reload() } }
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 25 apps nobody tuned on (docs/precision.md, round of issue 21): 0 of 4 findings were right (a guard on the stored handle stopped any newer task; the write was cleanup or held either way). \
            Only tasks stored on `self` directly or through a local constant in the same function are checked, or in \
            an `inout` parameter the function cancels before storing the next task (`task?.cancel(); task = Task { … }` \
            in `schedule(task: inout Task<Void, Never>?)`); a handle stored in a collection is not, nor one only another \
            type cancels. A method is checked when the \
            task awaits it directly, not through another function. Resets (`isLoading = false`, `task = nil`) and \
            starting the next task are cleanup, not results, and are not reported. After a `try await` that throws `CancellationError` the write is \
            skipped by the throw, so it is not reported, although a callee that ignores cancellation returns normally. \
            Overlapping tasks: a button's action, a tap and a notification block repeat the same work and are not \
            checked, although a double tap can start it twice; so is an `onReceive` of a notification centre's \
            `publisher(for:)` whose closure ignores its parameter (another publisher's ignored value is still checked). \
            Work a called function runs in a task it restarts (cancels the stored handle, then stores the new task) is \
            superseded by the next call and not counted; that the restarted work checks for cancellation is the \
            stored-task check's business. Only a task started directly in the handler's closure \
            (or observer) is checked, not one \
            started by a method the handler calls; a generation or token compared after the `await`, a button disabled \
            while loading, or a handler that cannot fire twice in practice are not seen. An overlapping task is high \
            only when it takes the value its handler runs for (the closure's parameter, the last name of what \
            `onChange(of:)` observes, or the observed property in a `didSet`), or awaits a project function that reads \
            that member itself (to three calls deep); one that takes none of it repeats the same \
            work, whose results agree unless what it reads changed meanwhile: medium. An `await` that cannot suspend \
            gives nothing a chance to cancel the task or start a second one before the write: when every `await` on the \
            way is a call of a main-actor project function from main-actor code (a view's method, a `@MainActor` \
            type's), and that function awaits only such calls in turn (followed five calls deep), the task is quiet. \
            A call on a receiver whose type the index cannot tell (a dependency container's `Container.shared.x()`), \
            or of another module, may suspend.
            """,
        messages: [storedTaskWrite, awaitedMethodWrite, OverlappingTasks.overlappingWrite, OverlappingTasks.overlappingCall])
    static let storedTaskWrite = RuleMessage("stored_task_write", "this task is stored to be cancelled, but writes `{property}` after an `await` without checking; add `guard !Task.isCancelled else { return }` (or `try Task.checkCancellation()`) before the write")
    static let awaitedMethodWrite = RuleMessage("awaited_method_write", "`{function}` is awaited by a task that `{0}` stores ({1}) and that is cancelled, but it writes `{property}` after an `await` without checking; add `guard !Task.isCancelled else { return }` (or `try Task.checkCancellation()`) before the write")

    public static let nodeKinds: Set<SyntaxKind> = [
        .closureExpr, .functionDecl, .awaitExpr, .sequenceExpr,
    ]

    public init(options: RuleOptions) {}

    /// An async method being walked that has no finding yet. Its body is followed as the walk goes, not scanned
    /// again: every async method is a candidate, and few are awaited by a stored task.
    private struct MethodWalk {
        let id: SyntaxIdentifier
        let function: FunctionDeclSyntax
        let key: FunctionKey
        let body: CodeBlockSyntax
        let parameters: Set<String>
        /// The non-throwing `await`s of the body met so far. A write after one in source order is asked of the
        /// method's graph: whether some path from one reaches it with no cancellation check.
        var awaits: [AwaitExprSyntax] = []
        var done = false
    }

    private var methods: [MethodWalk] = []

    public func enter(_ node: Syntax, context: FileContext) {
        switch node.kind {
        case .functionDecl:
            startMethod(node, context: context)
        case .closureExpr:
            checkStoredTask(node, context: context)
        default:
            followMethod(node, context: context)
        }
    }

    public func exit(_ node: Syntax, context: FileContext) {
        if methods.last?.id == node.id { methods.removeLast() }
    }

    private func checkStoredTask(_ node: Syntax, context: FileContext) {
        guard let closure = node.as(ClosureExprSyntax.self), let frame = context.scope.currentClosure,
              frame.kind == .task, let call = frame.call, let type = context.scope.currentType else { return }
        guard let handle = context.storedHandleName(ofTask: call) else {
            OverlappingTasks.check(closure, startedBy: call, in: type, context: context)
            return
        }
        // Names of the function around the task (its parameters, its locals) are captured values, not properties.
        var locals = FlowFacts.localNames(in: closure.statements)
        if let function = context.scope.currentFunction {
            locals.formUnion(function.parameters.map(\.name))
            if let body = function.body { locals.formUnion(FlowFacts.localNames(in: body)) }
        }
        guard let graph = context.controlFlowGraph(of: closure),
              let write = Self.uncheckedWrite(in: closure.statements, graph: graph, locals: locals, skipping: handle) else { return }
        let typeName = type.qualifiedName
        // A handle that is only awaited (`await loadTask?.value`) is never cancelled: the write is not stale. A task
        // whose `await`s never suspend runs through to the write on its actor's turn: nothing comes in between.
        context.report(write.target, Self.storedTaskWrite, ["property": write.property],
                       when: .all([.hasProperty(write.property, ofType: typeName),
                                   .isCancellable(.ifHandleCancelled(typeName: typeName, property: handle)),
                                   Self.maySuspend(in: closure.statements, before: write.target, context: context)]),
                       notes: [context.note("the task starts here, stored in `\(handle)`", at: call.calledExpression)])
    }

    /// An async method that a stored task awaits directly (`task = Task { await model.analyze(image) }`) runs on
    /// after a non-throwing `await` when that task is cancelled, just as the task's own code does.
    private func startMethod(_ node: Syntax, context: FileContext) {
        guard let function = node.as(FunctionDeclSyntax.self), function.signature.effectSpecifiers?.asyncSpecifier != nil,
              let body = function.body, let type = context.scope.currentType,
              context.scope.currentFunction?.node.id == function.id else { return }
        let parameters = Set(function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
        methods.append(MethodWalk(id: node.id, function: function, key: FunctionKey(typeName: type.qualifiedName, name: function.name.text),
                                  body: body, parameters: parameters))
    }

    /// A node of the method's own body (not of a closure or a nested function in it), in source order. Asked for
    /// every call and assignment of the file: the cheap tests come first.
    private func followMethod(_ node: Syntax, context: FileContext) {
        guard !methods.isEmpty, !methods[methods.count - 1].done else { return }
        let last = methods.count - 1
        func inMethodBody() -> Bool {
            context.scope.currentClosure == nil && context.scope.currentFunction?.node.id == methods[last].id
        }
        switch node.kind {
        case .awaitExpr:
            if let suspension = node.as(AwaitExprSyntax.self), FlowFacts.isNonThrowingAwait(suspension), inMethodBody() {
                methods[last].awaits.append(suspension)
            }
        case .sequenceExpr:
            guard let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
                  !methods[last].awaits.isEmpty || Self.assignsAwaitedValue(sequence), !FunctionSummaryCollector.resetsToLiteral(sequence),
                  inMethodBody() else { return }
            let locals = FlowFacts.localNames(in: methods[last].body).union(methods[last].parameters)
            guard let property = FlowFacts.selfProperty(target, locals: locals) else { return }
            if !Self.assignsAwaitedValue(sequence) {
                guard let graph = context.controlFlowGraph(of: methods[last].function),
                      Self.isUnchecked(sequence, after: methods[last].awaits, in: graph,
                                       stops: Self.staleChecks(in: methods[last].body, graph: graph, locals: locals, handle: nil))
                else { return }
            }
            methods[last].done = true
            report(write: target, property: property, in: methods[last].key, context: context)
        default:
            break
        }
    }

    private func report(write target: ExprSyntax, property: String, in key: FunctionKey, context: FileContext) {
        let body = methods.last.map { Syntax($0.body) }
        context.report(target, Self.awaitedMethodWrite, ["function": key.name, "property": property],
                       answering: .cancelledTaskCaller(of: key),
                       when: .all([.hasProperty(property, ofType: key.typeName ?? ""),
                                   body.map { Self.maySuspend(in: $0, before: target, context: context) } ?? .all([])]))
    }

    /// Whether the code's own `await`s (not those of closures in it) may suspend, as a condition on the index: each
    /// `await` that covers one call of a project function is asked of the index (`IndexCondition.neverSuspends`: a
    /// main-actor function awaited from the main actor, that awaits only such functions, never gives up the actor);
    /// an `await` of anything else may.
    /// With `before`, only the `await`s that start before that write ends count, unless the write is in a loop (where
    /// a later `await` comes before it on the next turn).
    static func maySuspend(in body: some SyntaxProtocol, before write: ExprSyntax? = nil, context: FileContext) -> IndexCondition {
        let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
        var calls: [CallReference] = []
        var other = false
        let limit = write.flatMap { Self.isInLoop($0, within: Syntax(body)) ? nil : $0.parent?.endPosition ?? $0.endPosition }
        BodyScanner.scan(body) { node in
            if let limit, node.position >= limit { return }
            if let loop = node.as(ForStmtSyntax.self), loop.awaitKeyword != nil { other = true }
            guard let suspension = node.as(AwaitExprSyntax.self) else { return }
            if let found = FunctionSummaryCollector.awaitedCalls(suspension, caller: caller, context: context) { calls += found } else { other = true }
        }
        guard !other, !calls.isEmpty else { return .all([]) }
        return .not(.neverSuspends(calls, on: ExecutionContexts.current(in: context)))
    }

    /// A `for`, `while` or `repeat` between the node and `body`.
    static func isInLoop(_ node: ExprSyntax, within body: Syntax) -> Bool {
        var current = node.parent
        while let parent = current, parent.id != body.id {
            if parent.is(ForStmtSyntax.self) || parent.is(WhileStmtSyntax.self) || parent.is(RepeatStmtSyntax.self) { return true }
            current = parent.parent
        }
        return false
    }

    /// The first write (in source order) to a property of `self` that some path from a non-throwing `await`
    /// reaches with no cancellation check on it (or that takes such an `await`'s value, as
    /// `results = await search()`), outside nested closures. An `await` or a check in another branch, or in a
    /// `guard`'s `else` that leaves, is not on the way.
    static func uncheckedWrite(in body: some SyntaxProtocol, graph: BuiltControlFlowGraph, locals: Set<String>,
                               skipping handle: String?) -> (target: ExprSyntax, property: String)? {
        var awaits: [AwaitExprSyntax] = []
        var writes: [(sequence: SequenceExprSyntax, target: ExprSyntax, property: String)] = []
        BodyScanner.scan(body) { node in
            if let suspension = node.as(AwaitExprSyntax.self) {
                if FlowFacts.isNonThrowingAwait(suspension) { awaits.append(suspension) }
            } else if let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
                      let property = FlowFacts.selfProperty(target, locals: locals),
                      // The task clearing its own handle, or a flag or value reset (`isLoading = false`, `task = nil`),
                      // is cleanup that must run when it is cancelled too.
                      property != handle, !FunctionSummaryCollector.resetsToLiteral(sequence) {
                writes.append((sequence, target, property))
            }
        }
        guard !awaits.isEmpty else { return nil }
        let stops = staleChecks(in: body, graph: graph, locals: locals, handle: handle)
        let write = writes.first { write in
            assignsAwaitedValue(write.sequence) || isUnchecked(write.sequence, after: awaits, in: graph, stops: stops)
        }
        return write.map { ($0.target, $0.property) }
    }

    /// Whether some path of the graph goes from one of the `await`s to the write without a cancellation check.
    static func isUnchecked(_ write: SequenceExprSyntax, after awaits: [AwaitExprSyntax], in built: BuiltControlFlowGraph,
                            stops: Set<Int> = []) -> Bool {
        let targets = Set(built.nodes(for: write))
        guard !targets.isEmpty else { return false }
        let graph = built.graph
        return awaits.contains { suspension in
            built.nodes(for: suspension).contains { start in
                !graph.reachable(from: start, avoiding: { $0.kind == .cancellationCheck || stops.contains($0.id) })
                    .isDisjoint(with: targets)
            }
        }
    }

    /// The graph nodes of conditions that stop a superseded run as a cancellation check does: a `guard`, or an `if`
    /// that returns, comparing a property of `self` with a value the run holds (a parameter, a local, a captured
    /// generation or token: `guard generation == self.generation`, `guard query == self.query`), or naming the
    /// task's own handle (`guard loadTask == currentTask`).
    static func staleChecks(in body: some SyntaxProtocol, graph built: BuiltControlFlowGraph, locals: Set<String>,
                            handle: String?) -> Set<Int> {
        let comparisons: Set<String> = ["==", "!=", "===", "!=="]
        var stops: Set<Int> = []
        BodyScanner.scan(body) { node in
            for condition in SyntaxFacts.earlyExitConditions(node) ?? [] {
                let tokens = condition.tokens(viewMode: .sourceAccurate)
                guard tokens.contains(where: { comparisons.contains($0.text) }) else { continue }
                var readsProperty = false, readsHeld = false
                for token in tokens {
                    guard case .identifier(let name) = token.tokenKind,
                          let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                    if name == handle { readsProperty = true; readsHeld = true; continue }
                    if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                        if let base = member.base, SyntaxFacts.isSelf(base) { readsProperty = true }
                        continue
                    }
                    if locals.contains(name) { readsHeld = true } else if FlowFacts.selfProperty(ExprSyntax(reference), locals: locals) != nil {
                        readsProperty = true
                    }
                }
                if readsProperty && readsHeld { stops.formUnion(built.nodes(for: condition)) }
            }
        }
        return stops
    }

    /// `x = await f()`: the write happens after the suspension, when the value comes back.
    private static func assignsAwaitedValue(_ sequence: SequenceExprSyntax) -> Bool {
        guard let value = SyntaxFacts.assignment(sequence)?.value else { return false }
        var current = value
        while let wrapped = current.as(TryExprSyntax.self) {
            guard wrapped.questionOrExclamationMark != nil else { return false }  // a throwing `try await` skips the write
            current = wrapped.expression
        }
        guard let suspension = current.as(AwaitExprSyntax.self) else { return false }
        return FlowFacts.isNonThrowingAwait(suspension)
    }
}

/// Overlapping tasks: a `Task { }` whose handle nobody keeps, started by a handler that runs again on each event
/// (`FrameworkHandlers`: a tap, a change, a notification, a property observer), that writes state after an `await`
/// itself or awaits a project function that does (`FunctionSummary.writesAfterAwait`). Nothing can cancel an
/// earlier task, so when the event comes again before it finishes, the two write in whatever order they finish.
enum OverlappingTasks {
    static let overlappingWrite = RuleMessage("overlapping_task_write", "this `Task { }` runs on {handler} and keeps no handle, so an earlier one still running writes `{property}` after its `await` over a newer one's; store the task and cancel it before starting the next, then check `Task.isCancelled` after the `await`")
    static let overlappingCall = RuleMessage("overlapping_task_call", "this `Task { }` runs on {handler} and keeps no handle, but awaits `{0}`, which writes `{1}` after an `await` ({2}): an earlier task still running writes over a newer one's; store the task and cancel it before starting the next, then check `Task.isCancelled` after the `await`")

    static func check(_ closure: ClosureExprSyntax, startedBy call: FunctionCallExprSyntax, in type: TypeScope,
                      context: FileContext) {
        // The cheap tests first: the handle is thrown away, the task awaits, and it is started by a repeating handler.
        guard discardsHandle(call), SyntaxFacts.containsAwait(closure.statements),
              let handler = repeatingHandler(around: call, context: context) else { return }
        let start = context.note("the task starts here, on \(handler.runsOn)", at: call.calledExpression)
        var locals = FlowFacts.localNames(in: closure.statements)
        if let enclosing = handler.closure {
            locals.formUnion(FlowFacts.localNames(in: enclosing.statements))
            locals.formUnion(NotificationHandler.parameterNames(enclosing))
        }
        if let body = context.scope.currentFunction?.body { locals.formUnion(FlowFacts.localNames(in: body)) }
        // The older run's result is stale only when runs differ: the task takes the value the handler was run for
        // (its parameter, the value `onChange(of:)` observes, the observed property). A task that takes none of it
        // repeats the same work, whose results agree whichever lands last, unless what it reads changed meanwhile:
        // not proven, medium.
        let confidence: Confidence = takesNewValue(closure, names: handler.newValues) ? .high : .medium
        // Two runs overlap only if the first gives up its actor: a task whose `await`s never suspend runs to its end.
        let suspends = MissingCancellationCheckRule.maySuspend(in: closure.statements, context: context)
        if let graph = context.controlFlowGraph(of: closure), let write = writeAfterAwait(in: closure, graph: graph, locals: locals) {
            context.report(write.target, overlappingWrite, ["property": write.property, "handler": handler.runsOn],
                           when: .all([.hasProperty(write.property, ofType: type.qualifiedName), .readByViews(write.property),
                                       MissingCancellationCheckRule.maySuspend(in: closure.statements, before: write.target, context: context)]),
                           notes: [start], confidence: confidence)
            return
        }
        let calls = awaitedCalls(in: closure, context: context)
        guard !calls.isEmpty else { return }
        guard confidence == .medium else {
            context.report(call.calledExpression, overlappingCall, ["handler": handler.runsOn], answering: .overlappingTaskWrite(calls: calls),
                           when: suspends)
            return
        }
        // The awaited function may read the value itself (`load()` reading `daySpan`): that proves it too.
        let reads: IndexCondition = .someCalleeReads(calls, names: handler.newValues.sorted())
        context.report(call.calledExpression, overlappingCall, ["handler": handler.runsOn], answering: .overlappingTaskWrite(calls: calls),
                       when: .all([reads, suspends]))
        context.report(call.calledExpression, overlappingCall, ["handler": handler.runsOn], answering: .overlappingTaskWrite(calls: calls),
                       when: .all([.not(reads), suspends]), confidence: .medium)
    }

    /// Whether the task's code mentions one of the names that carry the handler's new value (or `$0`, `$1`).
    static func takesNewValue(_ closure: ClosureExprSyntax, names: Set<String>) -> Bool {
        closure.statements.tokens(viewMode: .sourceAccurate).contains { token in
            switch token.tokenKind {
            case .dollarIdentifier: return true
            case .identifier(let name): return names.contains(name)
            default: return false
            }
        }
    }

    /// The names that carry a handler's new value: its closure's parameters (not `_`), and the value it observes,
    /// by the last name of its path (`onChange(of: model.query)`: `query`).
    static func newValueNames(handlerClosure: ClosureExprSyntax, call: FunctionCallExprSyntax) -> Set<String> {
        var names = NotificationHandler.parameterNames(handlerClosure).subtracting(["_"])
        if let observed = SyntaxFacts.argument("of", of: call), let path = SyntaxFacts.memberPath(observed) {
            names.insert(path.members.last ?? path.root)
        }
        return names
    }

    /// `Task { }` as a statement of its own, or `_ = Task { }`: nobody can cancel it or wait for it.
    static func discardsHandle(_ call: FunctionCallExprSyntax) -> Bool {
        if call.parent?.is(CodeBlockItemSyntax.self) == true { return true }
        guard let sequence = call.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self),
              let target = SyntaxFacts.writeTarget(sequence) else { return false }
        return target.is(DiscardAssignmentExprSyntax.self)
    }

    /// The handler the task is started in: the closure around the task's own is a repeating handler's
    /// (`FrameworkHandlers.repeatingHandlers`), or the task sits in a property observer (`didSet`, `willSet`).
    static func repeatingHandler(around call: FunctionCallExprSyntax, context: FileContext)
        -> (runsOn: String, closure: ClosureExprSyntax?, newValues: Set<String>)? {
        let closures = context.scope.closures
        if closures.count > 1, let handlerCall = closures[1].call {
            let enclosing = closures[1].node
            let label = enclosing.parent?.as(LabeledExprSyntax.self)?.label?.text
            let handler = FrameworkHandlers.repeatingHandler(
                method: context.calleeMethodName(handlerCall), label: label,
                isFirstTrailing: handlerCall.trailingClosure?.id == enclosing.id,
                argumentLabels: handlerCall.arguments.compactMap { $0.label?.text })
            // A repeat of the same work (a tap, a bare notification) gives results that agree whichever lands last.
            guard let handler, handler.carriesValue else { return nil }
            // So is a notification received and ignored (`onReceive(center.publisher(for: .refresh)) { _ in ... }`):
            // the handler's parameter is the only new value it gets, and the notification carries nothing else.
            if handler.valueOnlyInParameter, ignoresParameter(enclosing), let publisher = handlerCall.arguments.first?.expression,
               NotificationHandlers.notificationPublisher(publisher) != nil { return nil }
            return (handler.runsOn, enclosing, newValueNames(handlerClosure: enclosing, call: handlerCall))
        }
        guard closures.count == 1 else { return nil }
        var current = Syntax(call)
        while let parent = current.parent {
            if let accessor = parent.as(AccessorDeclSyntax.self) {
                // An observer's new value: the property itself, `newValue`/`oldValue`, or the name it gives them.
                var names: Set<String> = ["newValue", "oldValue"]
                if let named = accessor.parameters?.name.text { names.insert(named) }
                if let property = accessor.ancestorOrSelf(mapping: { $0.as(PatternBindingSyntax.self) })?.pattern
                    .as(IdentifierPatternSyntax.self)?.identifier.text { names.insert(property) }
                return FrameworkHandlers.propertyObservers.contains(accessor.accessorSpecifier.text)
                    ? (FrameworkHandlers.propertyObserversRunOn, nil, names) : nil
            }
            if parent.is(FunctionDeclSyntax.self) || parent.is(ClosureExprSyntax.self) && parent.id != closures.first?.node.id {
                return nil
            }
            current = parent
        }
        return nil
    }

    /// The closure never reads its parameter: `{ _ in ... }`, or a named one (or `$0`) it never mentions.
    static func ignoresParameter(_ closure: ClosureExprSyntax) -> Bool {
        let names = NotificationHandler.parameterNames(closure).subtracting(["_"])
        return !closure.statements.tokens(viewMode: .sourceAccurate).contains { token in
            switch token.tokenKind {
            case .dollarIdentifier: return true
            case .identifier(let name): return names.contains(name)
            default: return false
            }
        }
    }

    /// The first write (in source order) of a property of `self`, a result and not a reset, that some path of the
    /// task's graph reaches from an `await` (throwing or not: nobody cancels this task, and a call that succeeds
    /// late writes as late). Writes in closures that run in place (`withAnimation`) count.
    static func writeAfterAwait(in closure: ClosureExprSyntax, graph: BuiltControlFlowGraph, locals: Set<String>)
        -> (target: ExprSyntax, property: String)? {
        var writes: [(property: String, node: Syntax, target: ExprSyntax)] = []
        var stack: [Syntax] = [Syntax(closure.statements)]
        while let node = stack.popLast() {
            if let sequence = node.as(SequenceExprSyntax.self), let target = FunctionSummaryCollector.resultTarget(sequence),
               let property = FlowFacts.selfProperty(target, locals: locals) {
                writes.append((property, node, target))
            }
            stack.append(contentsOf: node.children(viewMode: .sourceAccurate).reversed())
        }
        writes.sort { $0.node.position < $1.node.position }
        let after = FunctionSummaryCollector.writesAfterAwait(writes.map { ($0.property, $0.node) }, in: closure.statements,
                                                              graph: graph)
        return writes.first { after.contains($0.property) }.map { ($0.target, $0.property) }
    }

    /// The project calls the task awaits in its own code (`await model.load()`, `try await refresh()`), to be
    /// resolved by the index.
    static func awaitedCalls(in closure: ClosureExprSyntax, context: FileContext) -> [CallReference] {
        let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
        var calls: [CallReference] = []
        BodyScanner.scan(closure.statements) { node in
            guard let suspension = node.as(AwaitExprSyntax.self) else { return }
            guard let awaited = SyntaxFacts.withoutTryOrAwait(suspension.expression).as(FunctionCallExprSyntax.self) else { return }
            let method = SyntaxFacts.calleeMethodName(awaited)
            if let member = awaited.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, !SyntaxFacts.isSelf(base) {
                calls.append(CallReference(caller: caller, callee: method, receiver: ValueTypes.of(base, in: context)))
            } else {
                calls.append(CallReference(caller: caller, callee: method, receiver: nil))
            }
        }
        return calls
    }
}
