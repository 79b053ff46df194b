import SwiftSyntax

/// `handle = Task { }` without cancelling the task the handle held before.
public final class TaskHandleOverwrittenRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "task_handle_overwritten",
        name: "Task Handle Overwritten",
        whatItDoes: """
            Finds `handle = Task { ... }` (or `Task.detached`; or `let task = Task { ... }` then `handle = task`) \
            assigned to a stored property with no \
            `handle?.cancel()` or `handle.cancel()` earlier in the same function, and no earlier test that the \
            handle is nil; and a second entry point (`refresh()`) that awaits the same async load that another \
            method runs in a handle it cancels first, without cancelling or awaiting that handle.
            """,
        whyIsThisBad: """
            Overwriting the handle drops the only way to cancel the task that was running: two loads now run at \
            once, and whichever finishes last wins, even if it is the stale one. Cancel \
            the previous operation before starting a new one.
            """,
        seed: "000, 001",
        // Opt-in: 0 of 19 findings right before the narrowing; 0 of the 8 left (1 unsure), judged again (docs/precision.md).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @MainActor final class EpisodeStore {
                    private var fetchTask: Task<Void, Never>?
                    private var fetchSeriesID: Int?
                    func maybeFetch(_ seriesID: Int) async {
                        if let fetchTask, fetchSeriesID == seriesID {
                            return await fetchTask.value
                        }
                        let task = Task { await fetch(seriesID) }
                        ↓fetchTask = task
                        fetchSeriesID = seriesID
                        await task.value
                    }
                    func fetch(_ seriesID: Int) async {}
                }
                """),
            RuleExample("""
                @MainActor final class EpisodeLoader {
                    private var fetchTask: Task<Void, Never>?
                    func fetch(_ season: Int) {
                        let task = Task { await load(season) }
                        ↓fetchTask = task
                    }
                    func load(_ season: Int) async {}
                }
                """),
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    private var loadingTask: Task<Void, Never>?
                    func reload() {
                        ↓loadingTask = Task { await self.load() }
                    }
                }
                """),
            RuleExample("""
                final class Poller {
                    var pollTask: Task<Void, Error>?
                    func start() {
                        ↓self.pollTask = Task.detached { try await poll() }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Player {
                    private var playback: Task<Void, Never>?
                    func skip() { playback?.cancel(); begin() }
                    func resume() { begin() }
                    private func begin() { ↓playback = Task { await self.play() } }
                }
                """),
            RuleExample("""
                @MainActor final class TimelineModel {
                    private var loadTask: Task<Void, Never>?
                    func reload() {
                        loadTask?.cancel()
                        loadTask = Task { await self.fetchLatest() }
                    }
                    func refresh() async {
                        await ↓fetchLatest()
                    }
                    func fetchLatest() async { items = await api.latest() }
                }
                """, message: "restarted_load", confidence: .high),
            // The careful task runs the load in a loop (a poll): a one-off reload beside it is not proven to race: medium.
            RuleExample("""
                @MainActor final class InboxModel {
                    private var pollTask: Task<Void, Never>?
                    func startPolling() {
                        pollTask?.cancel()
                        pollTask = Task {
                            while !Task.isCancelled {
                                await self.reload()
                                try? await Task.sleep(for: .seconds(30))
                            }
                        }
                    }
                    func refresh() async {
                        await ↓reload()
                    }
                    func reload() async { messages = await api.inbox() }
                }
                """, message: "restarted_load", confidence: .medium),
            // The load restarts a task of its own (a debounced update): a second call cancels the first's work: medium.
            RuleExample("""
                @MainActor final class FeedState {
                    private var loadMoreTask: Task<Void, Never>?
                    private var updateTask: Task<Void, Never>?
                    func loadMore() {
                        loadMoreTask?.cancel()
                        loadMoreTask = Task { await self.updatePosts() }
                    }
                    func refresh() async {
                        await ↓updatePosts()
                    }
                    func updatePosts() async {
                        updateTask?.cancel()
                        updateTask = Task { posts = await model.posts() }
                    }
                }
                """, message: "restarted_load", confidence: .medium),
            // The load is one step of the careful task's longer pipeline, a helper other work shares: medium.
            RuleExample("""
                @MainActor final class LibraryModel {
                    private var updateTask: Task<Void, Never>?
                    func updateLibrary() {
                        updateTask?.cancel()
                        updateTask = Task {
                            let artists = await self.fetchArtists()
                            await self.fetchAlbums(artists)
                        }
                    }
                    func addSeries(_ artist: Artist) async {
                        await ↓fetchAlbums([artist])
                    }
                    func fetchArtists() async -> [Artist] { await api.artists() }
                    func fetchAlbums(_ artists: [Artist]) async { albums += await api.albums(artists) }
                }
                """, message: "restarted_load", confidence: .medium),
            // The task tests a state first (a state machine's single flight the rule does not follow): medium.
            RuleExample("""
                @MainActor final class HistoryScreen {
                    private var loadTask: Task<Void, Never>?
                    let model: HistoryModel
                    func loadMore() {
                        ↓loadTask = Task {
                            if model.loadingState == .idle {
                                await model.loadMore()
                            }
                        }
                    }
                }
                """, message: "dropped_task", confidence: .medium),
            // Called from a view's button: the method runs again on the same object while the first task may run.
            RuleExample("""
                @MainActor final class SearchModel {
                    private var searchTask: Task<Void, Never>?
                    func search(_ text: String) { ↓searchTask = Task { await self.run(text) } }
                    func run(_ text: String) async {}
                }
                struct SearchView: View {
                    @State private var model = SearchModel()
                    var body: some View { Button("Go") { model.search("swift") } }
                }
                """, message: "dropped_task", confidence: .high),
            // Called only by code the index sees run once (a session built and started by its owner): the old handle may
            // never be live when it is reassigned; not proven: medium.
            RuleExample("""
                final class StreamSession {
                    private var consumeTask: Task<Void, Never>?
                    func start() { ↓consumeTask = Task { await self.consume() } }
                    func consume() async {}
                }
                final class Recorder {
                    func record() {
                        let session = StreamSession()
                        session.start()
                    }
                }
                """, message: "dropped_task", confidence: .medium),
            // Reached from a view's button, but only through a call on an object the caller has just built
            // (`let session = StreamSession(); session.start()`): each session is started once; not proven: medium.
            RuleExample("""
                final class StreamSession {
                    private var consumeTask: Task<Void, Never>?
                    func start() { ↓consumeTask = Task { await self.consume() } }
                    func consume() async {}
                }
                @MainActor final class MirrorModel {
                    var session: StreamSession?
                    func connect() {
                        let session = StreamSession()
                        self.session = session
                        session.start()
                    }
                }
                struct MirrorView: View {
                    @State private var model = MirrorModel()
                    var body: some View { Button("Connect") { model.connect() } }
                }
                """, message: "dropped_task", confidence: .medium),
            // One control that starts the action is outside the view `.disabled` while the task runs.
            RuleExample("""
                struct ControlsView: View {
                    @State private var actionTask: Task<Void, Never>?
                    var body: some View {
                        VStack {
                            HStack {
                                Button("Start") { runAction { await controller.start() } }
                            }
                            .disabled(actionTask != nil)
                            Button("Stop") { runAction { await controller.stop() } }
                        }
                    }
                    private func runAction(_ action: @escaping () async -> Void) {
                        ↓actionTask = Task {
                            defer { actionTask = nil }
                            await action()
                        }
                    }
                }
                """, message: "dropped_task"),
            // The task stored is not chained on the one the handle held.
            RuleExample("""
                actor MutationCoordinator {
                    private var tail: Task<Void, Never>?
                    func run(_ operation: @escaping @Sendable () async throws -> Void) async throws {
                        let task = Task<Void, Error> { try await operation() }
                        ↓tail = Task { _ = try? await task.value }
                        try await task.value
                    }
                }
                """, message: "dropped_task"),
            // `main()` of a type that is not an `Operation` may run again.
            RuleExample("""
                final class LoopRunner {
                    private var task: Task<Void, Never>?
                    func main() {
                        ↓task = Task { await self.loop() }
                    }
                    func loop() async {}
                }
                """, message: "dropped_task"),
        ],
        nonTriggeringExamples: [
            // Every control that starts the action is in the view `.disabled` while the handle holds a task.
            RuleExample("""
                struct ControlsView: View {
                    @State private var actionTask: Task<Void, Never>?
                    var body: some View {
                        HStack {
                            Button("Start") { runAction { await controller.start() } }
                            Button("Stop") { runAction { await controller.stop() } }
                        }
                        .disabled(actionTask != nil)
                    }
                    private func runAction(_ action: @escaping () async -> Void) {
                        actionTask = Task {
                            defer { actionTask = nil }
                            await action()
                        }
                    }
                }
                """),
            // A serial chain through a task that awaits the previous one first.
            RuleExample("""
                actor MutationCoordinator {
                    private var tail: Task<Void, Never>?
                    func run(_ operation: @escaping @Sendable () async throws -> Void) async throws {
                        let preceding = tail
                        let task = Task<Void, Error> {
                            if let preceding { await preceding.value }
                            try await operation()
                        }
                        tail = Task { _ = try? await task.value }
                        try await task.value
                    }
                }
                """),
            // An operation's `main()` runs once per operation object.
            RuleExample("""
                final class LoopOperation: Operation {
                    private var task: Task<Void, Never>?
                    override func main() {
                        task = Task { await self.loop() }
                    }
                    func loop() async {}
                }
                """),
            // The only caller first calls a helper that cancels the handle (`teardown()` → `cancelTasks()`).
            RuleExample("""
                final class SocketClient {
                    private var receiveTask: Task<Void, Never>?
                    func connect() {
                        teardown()
                        startReceiveLoop()
                    }
                    private func teardown() { cancelTasks() }
                    private func cancelTasks() { receiveTask?.cancel(); receiveTask = nil }
                    private func startReceiveLoop() { receiveTask = Task { await self.receive() } }
                    func receive() async {}
                }
                """),
            // The load run again cancels the careful handle itself (`stop()` begins with `limitTask?.cancel()`): the second
            // entry point stops the careful task's run rather than overlapping it.
            RuleExample("""
                @MainActor final class RecordingModel {
                    private var limitTask: Task<Void, Never>?
                    var isStopping = false
                    func scheduleLimit() {
                        limitTask?.cancel()
                        limitTask = Task { try? await Task.sleep(for: .seconds(60)); await self.stop() }
                    }
                    func stopTapped() async { await stop() }
                    func stop() async {
                        limitTask?.cancel()
                        limitTask = nil
                        isStopping = true
                        await recorder.finish()
                        isStopping = false
                    }
                }
                """),
            // A flag tested around the assignment and set before it: a second call does not get there.
            RuleExample("""
                @MainActor final class UpdatesScreen {
                    private var loadingTask: Task<Void, Never>?
                    private var loadingMore = false
                    func markerAppeared() {
                        if !loadingMore {
                            loadingMore = true
                            loadingTask = Task { await self.loadNewEntries(); self.loadingMore = false }
                        }
                    }
                }
                """),
            // A precondition on a flag the function then sets: a second call stops the program before the assignment.
            RuleExample("""
                @MainActor final class StoreObserver {
                    private var isObserving = false
                    private var receiptTask: Task<Void, Never>?
                    func observe() {
                        precondition(!isObserving)
                        isObserving = true
                        receiptTask = Task { for await _ in updates { await self.reloadReceipt() } }
                    }
                }
                """),
            // The previous task's result is awaited first.
            RuleExample("""
                @MainActor final class Multiplexer {
                    private var ongoingTask: Task<Int, Error>?
                    func perform() async throws -> Int {
                        _ = await ongoingTask?.result
                        let task = Task { try await self.pick() }
                        ongoingTask = task
                        return try await task.value
                    }
                }
                """),
            // Called from `init` and from a method that cancels the handle first.
            RuleExample("""
                @MainActor final class FeedState {
                    private var refreshTask: Task<Void, Never>?
                    init() { startMonitoring() }
                    func feedChanged() {
                        refreshTask?.cancel()
                        startMonitoring()
                    }
                    private func startMonitoring() { refreshTask = Task { await self.monitor() } }
                }
                """),
            // The task never suspends: once started it runs to its end, so there is nothing to cancel.
            RuleExample("""
                @MainActor final class StateObserver {
                    private var observationTask: Task<Void, Never>?
                    func startObserving() {
                        observationTask = Task { @MainActor in
                            withObservationTracking { _ = model.value } onChange: { self.changed() }
                        }
                    }
                }
                """),
            // Called only from a method that runs once per object (its flag is never set back).
            RuleExample("""
                @MainActor final class StopModel {
                    private var surveyTask: Task<Void, Never>?
                    private var didSetUp = false
                    func loaded() {
                        guard !didSetUp else { return }
                        didSetUp = true
                        refreshSurveys()
                    }
                    private func refreshSurveys() { surveyTask = Task { await self.surveys.refresh() } }
                }
                """),
            // Called only from `init`: there is no earlier task to drop.
            RuleExample("""
                @MainActor final class Clock {
                    private var tickTask: Task<Void, Never>?
                    init() { startTicking() }
                    private func startTicking() { tickTask = Task { await self.tick() } }
                }
                """),
            // The load awaited again is a getter: it writes nothing, so two runs overwrite nothing.
            RuleExample("""
                @MainActor final class IgnoreModel {
                    private var savingTask: Task<Void, Never>?
                    var patterns: [String] = []
                    func save() {
                        savingTask?.cancel()
                        savingTask = Task { let url = try? await self.fileURL(); write(patterns, to: url) }
                    }
                    func monitor() async {
                        let url = try? await fileURL()
                        watch(url)
                    }
                    private func fileURL() async throws -> URL { try await config.url(for: "excludesfile") }
                }
                """),
            RuleExample("""
                @MainActor final class EpisodeLoader {
                    private var fetchTask: Task<Void, Never>?
                    func fetch(_ season: Int) {
                        fetchTask?.cancel()
                        let task = Task { await load(season) }
                        fetchTask = task
                    }
                    func load(_ season: Int) async {}
                }
                """),
            RuleExample("""
                @MainActor final class TimelineModel {
                    private var loadTask: Task<Void, Never>?
                    func reload() {
                        loadTask?.cancel()
                        loadTask = Task { await self.fetchLatest() }
                    }
                    func refresh() async {
                        loadTask?.cancel()
                        await fetchLatest()
                    }
                    func fetchLatest() async { items = await api.latest() }
                }
                """),
            RuleExample("""
                @MainActor final class Pager {
                    private var pageTask: Task<Void, Never>?
                    func loadMore() async {
                        await pageTask?.value
                        pageTask = Task { await self.fetchPage() }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Thumbnails {
                    private var tasks: [UUID: Task<Void, Never>] = [:]
                    func load(_ id: UUID) {
                        tasks[id]?.cancel()
                        tasks[id] = Task { await self.render(id) }
                    }
                    func preload(_ id: UUID) { tasks[id] = Task { await self.render(id) } }
                }
                """),
            RuleExample("""
                final class StatusController: UIViewController {
                    private var pollTask: Task<Void, Never>?
                    override func viewDidLoad() { pollTask = Task { await self.poll() } }
                }
                """),
            RuleExample("""
                @MainActor final class Syncer {
                    private var syncTask: Task<Void, Never>?
                    private var isSyncing = false
                    func sync() {
                        guard !isSyncing else { return }
                        isSyncing = true
                        syncTask = Task { await self.run(); self.isSyncing = false }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    private var loadingTask: Task<Void, Never>?
                    func reload() {
                        loadingTask?.cancel()
                        loadingTask = Task { await self.load() }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Syncer {
                    private var syncTask: Task<Void, Never>?
                    func syncIfIdle() {
                        guard syncTask == nil else { return }
                        syncTask = Task { await self.sync(); self.syncTask = nil }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Search {
                    private var searchTask: Task<Void, Never>?
                    func search(_ text: String) {
                        if let task = self.searchTask { task.cancel() }
                        searchTask = Task { await self.run(text) }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Feed {
                    private var loadTask: Task<Void, Never>?
                    func reload() {
                        stopLoading()
                        loadTask = Task { await self.load() }
                    }
                    func stopLoading() { loadTask?.cancel() }
                }
                """),
            RuleExample("""
                @MainActor final class Player {
                    private var playback: Task<Void, Never>?
                    func skip() { playback?.cancel(); begin() }
                    func restart() { playback?.cancel(); begin() }
                    private func begin() { playback = Task { await self.play() } }
                }
                """),
            RuleExample("""
                final class Loader {
                    private var task: Task<Void, Never>?
                    init() { task = Task { await warmUp() } }
                    func run() { let task = Task { await work() }; _ = task }
                }
                """),
            RuleExample("""
                @MainActor final class StreamWatcher {
                    private var lastTask: Task<Void, Never>?
                    func handle(_ event: String) {
                        let previousTask = lastTask
                        let task = Task {
                            await previousTask?.value
                            await apply(event)
                        }
                        lastTask = task
                    }
                    func apply(_ event: String) async {}
                }
                """),
            RuleExample("""
                @MainActor final class EpisodeStore {
                    private var fetchTask: Task<Void, Never>?
                    func maybeFetch(_ seriesID: Int) async {
                        if let fetchTask, !fetchTask.isCancelled {
                            return await fetchTask.value
                        }
                        fetchTask = Task { await fetch(seriesID) }
                    }
                    func fetch(_ seriesID: Int) async {}
                }
                """),
        ],
        knownLimitations: """
            A handle the new task awaits first through a local read before it (`let previous = handle`, then \
            `await previous?.value` in the task, or in a task it awaits: `let task = Task { await previous?.value; ... }`, \
            `handle = Task { await task.value }`) is a serial chain, not an overwrite. Quiet too: a function every use of \
            whose name in its file sits in a view `.disabled(handle != nil)` (a `private` method, or a view's), since \
            SwiftUI disables every control in that view while a task is held; and `main()` or `start()` of an \
            `Operation` subclass (an operation runs once). A nil test joined to another \
            condition (`if let handle, seriesID == id { return await handle.value }`) settles nothing when the other \
            test fails. \
            The handle counts as cancelled by a `cancel()` call (or a nil test) earlier in the same function, also \
            through a local bound from it (`if let task = handle { task.cancel() }`), by a method of the same type \
            called first that cancels it (followed three calls deep), or when every caller of the function \
            cancels it. Cancelling through another object is not seen. Assignments in `init` are skipped: there is \
            no earlier task yet. \
            Quiet: a task with no `await` and no cancellation check (it runs to its end once started), a handle \
            awaited first (`await handle?.value`), an early exit on an in-progress or run-once flag \
            (`guard !isSyncing`), a property tested before the assignment (an early exit, or an `if` around it) that the \
            function sets in between (`if !loadingMore { loadingMore = true; task = Task { } }`), a function every call of \
            which is in `init` or `viewDidLoad` or in a function that runs once per object (`guard !didSetUp else { return }; \
            didSetUp = true`, the flag never set back), a second entry point whose load writes no state (a getter awaited for its \
            value), a function every caller of which cancels the handle, returns early on a flag it sets first, or runs \
            once; medium: a task whose first statement tests state before its work (`if model.state == .idle { ... }`) \
            or an assignment under a test of state (`if inProgress != nil { cancel() } else { task = Task { } }`), a \
            single flight the rule does not follow, and a second entry point (`restarted_load`) whose load the careful task \
            runs in a loop (a poll or an observation loop: `CallFact.repeats`) or as one step of a longer pipeline (it calls \
            another async method of the type too), or a load that cancels and restarts a task of its own (a debounced update, \
            which stops its previous run itself): the load is then not proven to be the careful task's one-off work. A \
            second entry point whose load is the careful task's only async method, run once, is high; one whose load \
            cancels the handle itself (`stop()` beginning with `limitTask?.cancel()`) is not reported. A dropped task is \
            high only where the function is proven to run again on the same object (`ProjectIndex.mayRunAgain`: some \
            chain of its callers reaches a SwiftUI view's code, a loop, a notification or completion handler, or a \
            function handed to someone to call); a function called only from code the index sees run once (a session \
            object built and started by its owner, a `connect()` called once) is medium: the old handle may never be \
            live when it is reassigned. A caller that first calls a function cancelling the handle (`teardown()` → \
            `cancelTasks()`, three calls deep) counts as cancelling it. Whether the two runs \
            write different values (the same server state fetched twice is harmless) is not known. A function the load \
            itself calls is part of the load, not a second entry point. \
            Opt-in: 0 of 19 findings right before this narrowing; of the 8 left on ten public apps (the \
            second-entry-point class gives none there), a careful judgement found none right and one unsure: the \
            handle cancelled in another method that always runs first, a task chained on purpose, in-progress flags \
            set around the assignment or checked inside the task, tasks that never suspend; see docs/precision.md.
            """,
        messages: [droppedTask, droppedTaskCancelledElsewhere, restartedLoad])
    static let droppedTask = RuleMessage("dropped_task", "assigning a new task to `{handle}` drops the running one without cancelling it; call `{handle}?.cancel()` first")
    static let droppedTaskCancelledElsewhere = RuleMessage("dropped_task_cancelled_elsewhere", "assigning a new task to `{handle}` drops the running one without cancelling it, though `{0}` cancels it first; call `{handle}?.cancel()` first")
    static let restartedLoad = RuleMessage("restarted_load", "`{method}()` starts again here while `{0}` may still be running it: `{1}`{2} cancels `{0}` before starting it, this entry point neither cancels nor awaits it; call `{0}?.cancel()` first (or start the load through `{1}`)")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    /// Functions that run once per object: a handle assigned there has no earlier task to drop.
    static let runOnce: Set<String> = ["init", "viewDidLoad", "loadView", "awakeFromNib", "applicationDidFinishLaunching"]

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), let type = context.scope.currentType,
              let function = context.scope.currentFunction, !Self.runOnce.contains(function.name) else { return }
        let typeName = type.qualifiedName
        let functionKey = FunctionKey(typeName: typeName, name: function.name)
        let body = Syntax(function.node)
        if TaskFacts.isTaskCreation(call, context: context) {
            // A handle in a dictionary (`tasks[id] = Task { }`) is one task per key, not one handle.
            // Stored directly (`handle = Task { }`) or through a local (`let task = Task { }; handle = task`).
            guard let target = TaskFacts.storedHandleTarget(of: call, in: function.body), !target.is(SubscriptCallExprSyntax.self),
                  let name = TaskFacts.propertyName(target) else { return }
            // Through a local, what comes before the task's creation decides: its own body is not "earlier".
            let position = min(target.positionAfterSkippingLeadingTrivia, call.positionAfterSkippingLeadingTrivia)
            // A task that never suspends and never asks whether it was cancelled runs to its end once started:
            // cancelling it would change nothing, so dropping its handle drops nothing.
            if Self.neverSuspends(call) { return }
            if Self.handleIsSettled(name, in: body, before: position) || Self.guardedBefore(position, in: body)
                || Self.flagSetBefore(position, target: target, in: body)
                || Self.chainsOnPrevious(name, task: call, in: body, before: position)
                || Self.entryPointsDisabledWhileHeld(name, function: function.name, in: body,
                                                    calledOnlyInType: type.isView || Self.isPrivate(function.node)) { return }
            let helpersCalledBefore = FlowFacts.selfMethodCalls(in: body).filter { $0.node.endPosition <= position }.map(\.name)
            // A task whose work waits on a test of state first (`if model.loadingState == .idle { await model.loadMore() }`)
            // may be a state machine's single flight, which the rule does not follow: medium.
            // So may an assignment under a test of state (`if inProgressAction != nil { cancel() } else { task = Task { } }`).
            let confidence: Confidence = Self.testsStateFirst(call) || Self.underStateTest(target, in: body) ? .medium : .high
            // Every call of the function is in code that runs once per object (`init`, `viewDidLoad`): no earlier task.
            context.report(target, [Self.droppedTask, Self.droppedTaskCancelledElsewhere], ["handle": name],
                           answering: .overwrittenHandle(name, typeName: typeName, function: functionKey, helpers: helpersCalledBefore),
                           when: .not(.any([.everyCallerIn(functionKey, names: Self.runOnce.sorted()), .everyCallerRunsOnce(functionKey)]
                                            + Self.operationEntryPoints(function.name, typeName: typeName))),
                           confidence: confidence)
            return
        }
        // The load a careful entry point runs in its handle's task, started here again with no cancel.
        guard call.parent?.is(AwaitExprSyntax.self) == true || context.scope.currentClosure?.kind == .task else { return }
        let method: String
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            method = reference.baseName.text
        } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, SyntaxFacts.isSelf(base) {
            method = member.declName.baseName.text
        } else {
            return
        }
        guard method.startsLowercase, method != function.name else { return }
        let cancellation = context.cancellabilityHere()
        let position = call.positionAfterSkippingLeadingTrivia
        if Self.guardedBefore(position, in: body) { return }
        let helpersCalledBefore = FlowFacts.selfMethodCalls(in: body).filter { $0.node.endPosition <= position }.map(\.name)
        context.report(call, Self.restartedLoad, ["method": method], answering: .restartedLoad(method: method, typeName: typeName, function: functionKey, cancellation: cancellation,
                                                 helpers: helpersCalledBefore))
    }

    /// An early exit before the position that tests an in-progress flag (`guard !isLoading else { return }`,
    /// `if isRefreshing { return }`) or a run-once flag (`guard !hasStarted`): the old task is not running.
    static func guardedBefore(_ position: AbsolutePosition, in body: Syntax) -> Bool {
        var guarded = false
        BodyScanner.scan(body) { node in
            guard !guarded, node.endPosition <= position else { return }
            guard let conditions = SyntaxFacts.earlyExitConditions(node) else { return }
            guarded = conditions.tokens(viewMode: .sourceAccurate).contains { token in
                let name = token.text
                return ["is", "has", "did"].contains { name.hasPrefix($0) && name.dropFirst($0.count).startsUppercase }
                    || name.hasSuffix("InProgress") || name.hasSuffix("Running") || name.hasSuffix("Started")
            }
        }
        return guarded
    }

    /// A stored property of `self` tested before the position, by an early exit (`guard !isLoadingMore else { return }`)
    /// or by an `if` around it (`if !loadingMore { ... }`), and set by the function between that test and the position
    /// (`loadingMore = true`): a second call finds it set and does not reach the assignment while the first run holds it.
    static func flagSetBefore(_ position: AbsolutePosition, target: ExprSyntax, in body: Syntax) -> Bool {
        let locals = FlowFacts.localNames(in: body)
        // Each test with the statements that run after it and before the assignment: the rest of the body after an
        // early exit, the `if`'s own body around the assignment (a closure's `if` included).
        var tests: [(end: AbsolutePosition, properties: Set<String>, scope: Syntax)] = []
        BodyScanner.scan(body) { node in
            guard node.endPosition <= position else { return }
            if let conditions = SyntaxFacts.earlyExitConditions(node) {
                tests.append((node.endPosition, CheckThenActAcrossAwaitRule.propertiesRead(conditions, locals: locals), body))
            } else if let call = node.as(FunctionCallExprSyntax.self), SyntaxFacts.calleeName(call) == "precondition",
                      let condition = call.arguments.first?.expression {
                // `precondition(!isObserving)` stops the program (in release builds too) when the flag is set: an early
                // exit as final as a `guard`'s.
                tests.append((node.endPosition, Self.propertiesRead(condition, locals: locals), body))
            }
        }
        var current = target.parent
        while let node = current, node.id != body.id {
            if let branch = node.as(IfExprSyntax.self), target.isInside(branch.body) {
                let scopeLocals = locals.union(FlowFacts.localNames(in: branch.body))
                tests.append((branch.conditions.endPosition, CheckThenActAcrossAwaitRule.propertiesRead(branch.conditions, locals: scopeLocals),
                              Syntax(branch.body)))
            }
            current = node.parent
        }
        return tests.contains { test in
            guard !test.properties.isEmpty else { return false }
            var set = false
            BodyScanner.scan(test.scope) { node in
                guard !set, node.position >= test.end, node.endPosition <= position, let sequence = node.as(SequenceExprSyntax.self),
                      let written = SyntaxFacts.writeTarget(sequence), let property = FlowFacts.selfProperty(written, locals: locals) else { return }
                set = test.properties.contains(property)
            }
            return set
        }
    }

    /// Stored properties of `self` an expression reads (`!isObserving`, `self.count == 0`).
    static func propertiesRead(_ expression: ExprSyntax, locals: Set<String>) -> Set<String> {
        var reads: Set<String> = []
        for token in expression.tokens(viewMode: .sourceAccurate) {
            guard case .identifier = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                if let base = member.base, SyntaxFacts.isSelf(base) { reads.insert(reference.baseName.text) }
                continue
            }
            if let property = FlowFacts.selfProperty(ExprSyntax(reference), locals: locals) { reads.insert(property) }
        }
        return reads
    }

    /// The task's closure has no `await` (nor `for await`) and no cancellation check in its own body.
    static func neverSuspends(_ call: FunctionCallExprSyntax) -> Bool {
        let closures = SyntaxFacts.closures(of: call)
        guard !closures.isEmpty else { return false }
        // An empty body (`Task { /* ... */ }`) is a placeholder for work, not a task known to do none.
        return closures.allSatisfy { closure in
            guard !closure.statements.isEmpty, !SyntaxFacts.containsAwait(closure.statements) else { return false }
            var checks = false
            BodyScanner.scan(closure.statements) { node in if FlowFacts.isCancellationCheck(node) { checks = true } }
            return !checks
        }
    }

    /// The assignment is in a branch of an `if` whose condition reads a stored property of `self`.
    static func underStateTest(_ target: ExprSyntax, in body: Syntax) -> Bool {
        let locals = FlowFacts.localNames(in: body)
        var current = target.parent
        while let node = current, node.id != body.id {
            if let branch = node.as(IfExprSyntax.self), !target.isInside(branch.conditions),
               !CheckThenActAcrossAwaitRule.propertiesRead(branch.conditions, locals: locals).isEmpty { return true }
            current = node.parent
        }
        return false
    }

    /// The task's first statement tests a condition that is not only a cancellation check or an unwrap of `self`, and
    /// its work waits on it: `Task { if model.loadingState == .idle { await model.loadMore() } }`, `Task { guard !isBusy ... }`.
    static func testsStateFirst(_ call: FunctionCallExprSyntax) -> Bool {
        guard let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self) else { return false }
        // Unwrapping `self` first (`guard let self else { return }`) is no test of state.
        let items = Array(closure.statements.drop { item in
            item.item.as(GuardStmtSyntax.self)?.conditions.allSatisfy { $0.condition.is(OptionalBindingConditionSyntax.self) } == true
        })
        guard let first = items.first else { return false }
        let conditions: ConditionElementListSyntax
        if let guardStatement = first.item.as(GuardStmtSyntax.self) {
            conditions = guardStatement.conditions
        } else if let branch = first.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) ?? first.item.as(IfExprSyntax.self),
                  items.count == 1, branch.elseBody == nil {
            conditions = branch.conditions
        } else {
            return false
        }
        return conditions.contains { element in
            guard case .expression(let expression) = element.condition else { return false }
            return !expression.tokens(viewMode: .sourceAccurate).contains { $0.text == "isCancelled" }
        }
    }

    /// `private` or `fileprivate`: only its own file, here its type's declaration or an extension, calls it.
    static func isPrivate(_ node: Syntax) -> Bool {
        node.as(FunctionDeclSyntax.self)?.modifiers.contains {
            $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate)
        } ?? false
    }

    /// An `Operation`'s `main()` (or `start()`) runs once per operation object: an operation is single-shot (Apple:
    /// "An operation object is a single-shot object—that is, it executes its task once and cannot be used to execute
    /// it again"), so a handle assigned there has no earlier task. Whether the type is one is the index's question.
    static func operationEntryPoints(_ function: String, typeName: String) -> [IndexCondition] {
        ["main", "start"].contains(function) ? [.inherits(typeName, from: "Operation")] : []
    }

    /// Every entry to the function (each use of its name in its file, outside the function itself) sits
    /// in a view disabled while the handle holds a task (`.disabled(actionTask != nil)`): SwiftUI's `disabled(_:)`
    /// turns off every control in the view it modifies, so no second run can start while one is held, and the
    /// assignment never replaces a running task. Only for a function its file is the only caller of (a `private`
    /// one, or a view's).
    static func entryPointsDisabledWhileHeld(_ name: String, function: String, in body: Syntax, calledOnlyInType: Bool) -> Bool {
        guard calledOnlyInType else { return false }
        // The whole file: a `private` method may be called from an extension there too.
        var members = body
        while let parent = members.parent { members = parent }
        var disabledViews: [Range<AbsolutePosition>] = []
        var entries: [AbsolutePosition] = []
        for token in members.tokens(viewMode: .sourceAccurate) {
            guard case .identifier = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            if token.text == function, !reference.isInside(body) {
                // `self.run` names the method; `other.run` another object's.
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id,
                   let base = member.base, !SyntaxFacts.isSelf(base) { continue }
                entries.append(reference.position)
            } else if token.text == "disabled", let member = reference.parent?.as(MemberAccessExprSyntax.self),
                      member.declName.id == reference.id, let base = member.base,
                      let modifier = member.parent?.as(FunctionCallExprSyntax.self), let argument = modifier.arguments.first?.expression,
                      SyntaxFacts.equalityTests(in: argument).contains(where: { test in
                          test.op == "!=" && [(test.left, test.right), (test.right, test.left)].contains { handle, other in
                              other.is(NilLiteralExprSyntax.self) && FlowFacts.selfProperty(handle, locals: []) == name
                          }
                      }) {
                disabledViews.append(base.position..<base.endPosition)
            }
        }
        return !entries.isEmpty && entries.allSatisfy { entry in disabledViews.contains { $0.contains(entry) } }
    }

    /// `let previous = handle` read before the new task, which awaits `previous.value` (or `previous?.value`)
    /// first: a serial chain, each task waiting for the one before it, so nothing is dropped. Also through a task
    /// started before it that awaits the previous one (`let task = Task { await previous?.value; ... }`, then
    /// `handle = Task { await task.value }`).
    static func chainsOnPrevious(_ name: String, task call: FunctionCallExprSyntax, in body: Syntax,
                                 before position: AbsolutePosition) -> Bool {
        var previous: Set<String> = []
        for token in body.tokens(viewMode: .sourceAccurate) {
            if token.position >= position { break }
            guard let binding = token.parent?.as(IdentifierPatternSyntax.self)?.parent?.as(PatternBindingSyntax.self),
                  let value = binding.initializer?.value.trimmedText, value == name || value == "self.\(name)" else { continue }
            previous.insert(token.text)
        }
        guard !previous.isEmpty else { return false }
        func awaitsValue(of names: Set<String>, in task: FunctionCallExprSyntax) -> Bool {
            guard let closure = task.trailingClosure ?? task.arguments.last?.expression.as(ClosureExprSyntax.self) else { return false }
            var chained = false
            BodyScanner.scan(closure.statements) { node in
                guard !chained, let member = node.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "value",
                      let base = member.base else { return }
                let root = base.as(OptionalChainingExprSyntax.self)?.expression ?? base
                if let reference = root.as(DeclReferenceExprSyntax.self), names.contains(reference.baseName.text) { chained = true }
            }
            return chained
        }
        // Locals bound before the position to a task that itself awaits the previous one.
        var chainedTasks = previous
        BodyScanner.scan(body) { node in
            guard node.endPosition <= position, let binding = node.as(PatternBindingSyntax.self),
                  let local = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let task = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                  SyntaxFacts.calleeName(task).hasPrefix("Task"), awaitsValue(of: previous, in: task) else { return }
            chainedTasks.insert(local)
        }
        return awaitsValue(of: chainedTasks, in: call)
    }

    /// `name?.cancel()` / `name.cancel()` / `name == nil` / `name != nil` / an await of its `value` or `result` before the position, also through a
    /// local bound from the handle (`if let task = self.name { task.cancel() }`, `if let name { name.cancel() }`).
    static func handleIsSettled(_ name: String, in body: Syntax, before position: AbsolutePosition) -> Bool {
        var aliases: Set<String> = [name]
        var previous: [String] = []
        var unsettling: [Range<AbsolutePosition>] = []
        for token in body.tokens(viewMode: .sourceAccurate) {
            if token.position >= position { break }
            if let binding = token.parent?.as(IdentifierPatternSyntax.self)?.parent?.as(OptionalBindingConditionSyntax.self) {
                let bindsHandle = binding.initializer.map { ["\(name)", "self.\(name)"].contains($0.value.trimmedText) }
                    ?? (token.text == name)
                if bindsHandle {
                    aliases.insert(token.text)
                    if let statement = binding.parent?.parent?.parent?.as(IfExprSyntax.self) {
                        let alias = token.text
                        // `if let handle, otherID == id { await handle.value }`: when the other test fails, the running
                        // task is still there, and what the body does to it settles nothing after the `if`.
                        let unrelated = statement.conditions.contains { condition in
                            !condition.tokens(viewMode: .sourceAccurate).contains { $0.text == alias }
                        }
                        if unrelated {
                            unsettling.append(statement.body.position..<statement.body.endPosition)
                        } else if statement.body.statements.contains(where: { $0.item.is(ReturnStmtSyntax.self) }) {
                            // `if let handle { return }`: a nil test that leaves while a task is there.
                            return true
                        }
                    }
                }
            }
            if unsettling.contains(where: { $0.contains(token.position) }) { continue }
            previous.append(token.text)
            if previous.count > 5 { previous.removeFirst() }
            let text = previous.joined()
            for alias in aliases where text.hasSuffix("\(alias)?.cancel") || text.hasSuffix("\(alias).cancel")
                || text.hasSuffix("\(alias)?.value") || text.hasSuffix("\(alias).value") || text.hasSuffix("\(alias)!.value")
                || text.hasSuffix("\(alias)?.result") || text.hasSuffix("\(alias).result")
                || text.hasSuffix("\(alias)==nil") || text.hasSuffix("\(alias)!=nil") {
                return true
            }
        }
        return false
    }
}
