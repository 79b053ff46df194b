import SwiftSyntax

/// A run-loop timer scheduled on a thread whose run loop nobody runs.
public final class TimerWithoutRunLoopRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "timer_without_run_loop",
        name: "Timer Without Run Loop",
        whatItDoes: """
            Finds `Timer.scheduledTimer` and `RunLoop.current.add(timer, ...)` in code that runs off the main thread: \
            the handler of an off-main notification before it hops to main, a `DispatchQueue.global()` or other \
            queue's closure, a private-queue context's `perform` block, `Task.detached`, or an actor method; and in a \
            synchronous method with no isolation of its own (a small wrapper such as `startPolling()`) whose callers \
            run in one of those places, followed up through callers with no isolation of their own to three calls; \
            and in an async function with no isolation (`nonisolated`, `@concurrent`, or a method of a type that is \
            neither `@MainActor` nor an actor, through its project superclasses and protocols), which runs on the \
            concurrency pool. Which calls schedule on the current run loop is the framework table's \
            (`FrameworkCalls`, `schedulesOnCurrentRunLoop`).
        """,
        whyIsThisBad: """
            `scheduledTimer` adds the timer to the current thread's run loop. Only the main thread's run loop runs \
            by itself; on a GCD worker or the private thread that posts `NSPersistentStoreRemoteChange`, nothing \
            runs it, so the timer never fires. A debounce timer created in a remote-change \
            handler is one: remote changes then show only after something else reloads. Hop to the main thread first, or debounce with `Task.sleep` in a task.
            """,
        seed: "004",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        options: [NotificationHandlers.optionDescription],
        triggeringExamples: [
            RuleExample("""
                final class CoreDataManager {
                    private var remoteChangeDebounceTimer: Timer?
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(handlePersistentStoreRemoteChange(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc private func handlePersistentStoreRemoteChange(_ notification: Notification) {
                        remoteChangeDebounceTimer?.invalidate()
                        remoteChangeDebounceTimer = ↓Timer.scheduledTimer(withTimeInterval: 0.5, repeats: false) { [weak self] _ in
                            self?.processRemoteChange()
                        }
                    }
                }
                """),
            RuleExample("""
                func startHeartbeat() {
                    DispatchQueue.global().async {
                        let timer = Timer(timeInterval: 1, repeats: true) { _ in ping() }
                        ↓RunLoop.current.add(timer, forMode: .common)
                    }
                    Task.detached { ↓Timer.scheduledTimer(withTimeInterval: 5, repeats: false) { _ in ping() } }
                }
                """),
            RuleExample("""
                final class SyncPoller {
                    private var timer: Timer?
                    func observe() {
                        NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { [weak self] _ in
                            self?.startPolling()
                        }
                    }
                    func startPolling() {
                        timer?.invalidate()
                        timer = ↓Timer.scheduledTimer(withTimeInterval: 5, repeats: true) { [weak self] _ in self?.poll() }
                    }
                    func poll() {}
                }
                """),
            RuleExample("""
                final class Uploader {
                    private var retryTimer: Timer?
                    func upload(_ data: Data) {
                        DispatchQueue.global(qos: .utility).async {
                            if !self.send(data) { self.retryLater() }
                        }
                    }
                    private func retryLater() { scheduleRetry(after: 30) }
                    private func scheduleRetry(after seconds: TimeInterval) {
                        retryTimer = ↓Timer.scheduledTimer(withTimeInterval: seconds, repeats: false) { [weak self] _ in self?.resend() }
                    }
                    private func send(_ data: Data) -> Bool { false }
                    private func resend() {}
                }
                """),
            RuleExample("""
                final class Heartbeat {
                    private var timer: Timer?
                    func begin() async {
                        await connect()
                        timer = ↓Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in }
                    }
                    nonisolated func resume() async {
                        ↓RunLoop.current.add(Timer(timeInterval: 30, repeats: true) { _ in }, forMode: .common)
                    }
                    func connect() async {}
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                final class CoreDataManager {
                    private var remoteChangeDebounceTimer: Timer?
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(handlePersistentStoreRemoteChange(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc private func handlePersistentStoreRemoteChange(_ notification: Notification) {
                        DispatchQueue.main.async {
                            self.remoteChangeDebounceTimer?.invalidate()
                            self.remoteChangeDebounceTimer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: false) { [weak self] _ in
                                self?.processRemoteChange()
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Clock {
                    var timer: Timer?
                    func start() {
                        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in tick() }
                    }
                }
                """),
            RuleExample("""
                final class SyncPoller {
                    private var timer: Timer?
                    func observe() {
                        NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: .main) { [weak self] _ in
                            self?.startPolling()
                        }
                        DispatchQueue.global().async {
                            let interval = self.loadInterval()
                            DispatchQueue.main.async { self.startPolling(every: interval) }
                        }
                        present(settings, animated: true, completion: { self.startPolling() })
                    }
                    func startPolling(every interval: TimeInterval = 5) {
                        timer = Timer.scheduledTimer(withTimeInterval: interval, repeats: true) { [weak self] _ in self?.poll() }
                    }
                    func loadInterval() -> TimeInterval { 5 }
                    func poll() {}
                }
                """),
            RuleExample("""
                final class Uploader {
                    private var retryTimer: Timer?
                    func upload(_ data: Data) {
                        Task.detached { await self.retryLater() }
                    }
                    @MainActor private func retryLater() {
                        retryTimer = Timer.scheduledTimer(withTimeInterval: 30, repeats: false) { _ in }
                    }
                }
                """),
            RuleExample("""
                @MainActor class Connection {}
                final class Heartbeat: Connection {
                    private var timer: Timer?
                    func begin() async {
                        await connect()
                        timer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in }
                    }
                    func resume() async {
                        await MainActor.run { RunLoop.main.add(Timer(timeInterval: 30, repeats: true) { _ in }, forMode: .common) }
                    }
                    func connect() async {}
                }
                """),
            RuleExample("""
                final class Heartbeat {
                    private var timer: Timer?
                    @MainActor func begin() async {
                        timer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in }
                    }
                    func resume() async {
                        await MainActor.run { self.timer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in } }
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21): 1 finding, wrong (a target built with main-actor default isolation). \
            A thread that runs its own run loop (a dedicated `Thread` calling `RunLoop.current.run()`) is not \
            recognized; timers scheduled there are fine and reported. `perform` on a context whose name ends in \
            `viewContext` runs on the main thread and is not reported. A caller in a completion handler is not counted \
            (many are called on the main queue), nor one after a `guard Thread.isMainThread` re-dispatch in a notification \
            handler, which is taken for the handler's thread and reported; suppress it there. An async function with no isolation \
            is taken to run on the concurrency pool, as Swift 6.0 and 6.1 run it, unless its module turns on \
            SE-0461's `NonisolatedNonsendingByDefault` (the Xcode setting, Approachable Concurrency, or \
            `.enableUpcomingFeature` in `Package.swift`): it then runs on its caller's actor and is not reported \
            (a `@concurrent` one still is). A setting in an `.xcconfig` file is not read.
            """,
        messages: [scheduledOffMain, scheduledInActor, scheduledInHandler, callerDetached, callerQueue, callerPerform, callerActor, callerHandler, scheduledOnPool])
    static let scheduledOffMain = RuleMessage("scheduled_off_main", "this timer is scheduled {place}, whose run loop never runs, so it never fires; schedule it on the main thread or use `Task.sleep`")
    static let scheduledInActor = RuleMessage("scheduled_in_actor", "this timer is scheduled in an actor method, on a pool thread whose run loop never runs, so it never fires; use `Task.sleep` in a task")
    static let scheduledInHandler = RuleMessage("scheduled_in_handler", "this timer is scheduled in the `{0}` handler, on the private thread that posts it, whose run loop never runs, so it never fires; hop to the main thread first")
    static let callerDetached = RuleMessage("caller_detached_task", "`{function}` schedules this timer on its caller's thread, and it is called from `Task.detached`, whose run loop never runs, so the timer never fires; call it on the main thread or schedule the timer there")
    static let callerQueue = RuleMessage("caller_dispatch_queue", "`{function}` schedules this timer on its caller's thread, and it is called from a dispatch queue, whose run loop never runs, so the timer never fires; call it on the main thread or schedule the timer there")
    static let callerPerform = RuleMessage("caller_private_queue", "`{function}` schedules this timer on its caller's thread, and it is called from a private-queue context's `perform` block, whose run loop never runs, so the timer never fires; call it on the main thread or schedule the timer there")
    static let callerActor = RuleMessage("caller_actor", "`{function}` schedules this timer on its caller's thread, and it is called from an actor method, whose run loop never runs, so the timer never fires; call it on the main thread or schedule the timer there")
    static let callerHandler = RuleMessage("caller_notification_handler", "`{function}` schedules this timer on its caller's thread, and it is called from the `{0}` handler, on the private thread that posts it, whose run loop never runs, so the timer never fires; call it on the main thread or schedule the timer there")
    static let scheduledOnPool = RuleMessage("scheduled_on_pool", "`{function}` is an async function with no isolation, which runs on the concurrency pool, whose run loops never run, so this timer never fires; schedule it from the main actor (`@MainActor`, `MainActor.run`) or use `Task.sleep`")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    private let names: Set<String>

    public init(options: RuleOptions) {
        names = NotificationHandlers.names(options)
    }

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self) else { return }
        // The framework table says which calls add a timer to the current thread's run loop.
        guard FrameworkCalls.schedulesOnCurrentRunLoop(method: context.calleeMethodName(call),
                                                        receiverText: { SyntaxFacts.receiverText(call) ?? "" },
                                                        calleeText: { SyntaxFacts.calleeName(call) }) else { return }
        if let place = Self.offMainClosure(context.scope.closures) {
            context.report(call, Self.scheduledOffMain, ["place": place])
            return
        }
        guard context.scope.closures.allSatisfy({ Self.isPassThrough($0.kind) }) else { return }
        if context.scope.currentType?.isActor == true {
            context.report(call, Self.scheduledInActor)
            return
        }
        guard let function = context.scope.currentFunction else { return }
        if function.isAsync {
            reportIfOnConcurrencyPool(call, function: function, context: context)
            return
        }
        let names = self.names
        guard let handler = NotificationHandler.at(function.node, context: context) else {
            reportIfCallersRunOffMain(call, function: function, context: context)
            return
        }
        // An off-main notification handler, before its hop.
        guard handler.statementsBeforeHop.contains(where: { call.isInside($0) }) else { return }
        let registration = handler.deferred
        context.report(call, Self.scheduledInHandler, answering: .offMainNotification(registration.registration, names: names))
    }

    /// A timer scheduled in a synchronous method with no isolation of its own, which runs where its callers run:
    /// reported when a caller (followed up through callers with no isolation of their own, to three calls) runs
    /// on a queue, in a detached task, in a private-queue `perform`, or in an off-main notification handler.
    /// Completion handlers are not counted: many are called on the main queue.
    private func reportIfCallersRunOffMain(_ call: FunctionCallExprSyntax, function: FunctionScope, context: FileContext) {
        let type = context.scope.currentType
        guard !function.isAsync, !context.scope.isMainActorIsolated else { return }
        let key = FunctionKey(typeName: type?.qualifiedName, name: function.name)
        let names = self.names
        // The places in the order of `IndexQuery.offMainCaller`'s variants.
        context.report(call, [Self.callerDetached, Self.callerQueue, Self.callerPerform, Self.callerActor, Self.callerHandler],
                       ["function": function.name], answering: .offMainCaller(key, names: names))
    }

    /// A timer scheduled in an async function with no isolation: it runs on the concurrency pool's threads, whose
    /// run loops never run. A `nonisolated` or `@concurrent` one is known from its declaration; a method of a type
    /// with no isolation in this file is asked of the index (a project superclass or protocol may make it `@MainActor`).
    private func reportIfOnConcurrencyPool(_ call: FunctionCallExprSyntax, function: FunctionScope, context: FileContext) {
        let arguments = ["function": function.name]
        // SE-0461 (`NonisolatedNonsendingByDefault`, Xcode's Approachable Concurrency): an async function with no
        // isolation runs on its caller's actor, not on the pool; `@concurrent` still runs on the pool.
        let onPool: IndexCondition = .not(.nonisolatedAsyncRunsOnCaller(file: context.path))
        switch ExecutionContexts.current(in: context) {
        case .concurrent:
            context.report(call, Self.scheduledOnPool, arguments, when: function.isConcurrent ? nil : onPool)
        // The type's isolation, or the module's default for a free function (Swift 6.2), is known to the index.
        case .typeIsolation, .moduleDefault:
            context.report(call, Self.scheduledOnPool, arguments,
                           when: .all([.runsOffMain(FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)), onPool]))
        default:
            return
        }
    }

    /// Closures that run where their function runs (synchronous helpers, the timer's own block).
    static func isPassThrough(_ kind: ClosureKind) -> Bool {
        if case .other = kind { return true }
        return false
    }

    static func offMainClosure(_ closures: [ClosureScope]) -> String? {
        for closure in closures {
            if closure.isMainActorAnnotated { return nil }
            switch closure.kind {
            case .mainQueue, .mainActorRun: return nil
            case .backgroundQueue: return "on a dispatch queue"
            case .detachedTask: return "in `Task.detached`"
            case .perform(let receiver), .performAndWait(let receiver):
                return receiver.hasSuffix("viewContext") ? nil : "in a private-queue context's `perform` block"
            default: continue
            }
        }
        return nil
    }
}
