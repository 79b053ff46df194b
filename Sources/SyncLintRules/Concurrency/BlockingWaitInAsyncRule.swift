import SwiftSyntax

/// A thread-blocking wait inside async code.
public final class BlockingWaitInAsyncRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "blocking_wait_in_async",
        name: "Blocking Wait In Async",
        whatItDoes: """
            Inside an async function or a task, finds `DispatchSemaphore.wait()`, `DispatchGroup.wait()`, \
            `Thread.sleep`, `usleep`/`sleep`, and an `NSLock`/`lock()` held across an `await`; a call from async code \
            to a synchronous function of the project that waits on a semaphore or group; and, in synchronous code, \
            a `wait()` with no deadline on a semaphore or group that a `Task { }` of the same type signals. \
            Synchronous code that Swift runs on the cooperative pool counts as async code: an actor's own \
            (isolated) method, and a Swift Testing `@Test` function.
            """,
        whyIsThisBad: """
            Swift concurrency runs on a small cooperative pool, one thread per core. A blocked thread is a lost \
            core, and when every pool thread waits for work that needs a pool thread, the app deadlocks; a lock \
            held across an `await` may be released on another thread, or never. Use `Task.sleep(for:)`, `await` the work, or an actor instead.
            """,
        seed: "002",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        triggeringExamples: [
            // An actor's synchronous method and a Swift Testing test run on the cooperative pool.
            RuleExample("""
                actor ImageCache {
                    func image(for url: URL) -> Data? {
                        let semaphore = DispatchSemaphore(value: 0)
                        var result: Data?
                        session.dataTask(with: url) { data, _, _ in result = data; semaphore.signal() }.resume()
                        ↓semaphore.wait()
                        return result
                    }
                }
                @Test func uploadFinishes() {
                    let done = DispatchSemaphore(value: 0)
                    uploader.upload { done.signal() }
                    ↓done.wait()
                    ↓Thread.sleep(forTimeInterval: 0.5)
                }
                """),
            RuleExample("""
                func loadAll() async {
                    let semaphore = DispatchSemaphore(value: 0)
                    legacyLoad { semaphore.signal() }
                    ↓semaphore.wait()
                    ↓Thread.sleep(forTimeInterval: 0.5)
                }
                """),
            RuleExample("""
                actor Cache {
                    let lock = NSLock()
                    func refresh() async {
                        ↓lock.lock()
                        await reload()
                        lock.unlock()
                    }
                }
                """),
            RuleExample("""
                func currentToken() -> String {
                    let semaphore = DispatchSemaphore(value: 0)
                    var token = ""
                    Task {
                        token = await auth.refreshToken()
                        semaphore.signal()
                    }
                    ↓semaphore.wait()
                    return token
                }
                """),
            RuleExample("""
                final class Blocking<T> {
                    let done = DispatchGroup()
                    var value: T?
                    init(_ work: @escaping () async -> T) {
                        done.enter()
                        Task { value = await work(); done.leave() }
                    }
                    func get() -> T? { ↓done.wait(); return value }
                }
                """),
            RuleExample("""
                final class Thumbnailer {
                    let renderSemaphore = DispatchSemaphore(value: 1)
                    func render() async {
                        ↓prepare()
                    }
                    func prepare() {
                        renderSemaphore.wait()
                        defer { renderSemaphore.signal() }
                    }
                }
                """),
            // A receiver whose type the index cannot tell: only the name says it waits.
            RuleExample("""
                func flush() async {
                    ↓legacyBridge.completion.wait()
                }
                """, confidence: .medium),
            RuleExample("""
                final class Exporter {
                    let finished = DispatchGroup()
                    func export() async {
                        ↓finished.wait()
                    }
                }
                """, confidence: .high),
        ],
        nonTriggeringExamples: [
            // A UI test's own `wait()` (it polls for an element): the receiver's type is the app's, not a semaphore's.
            RuleExample("""
                struct TabBar { let settingsButton: Element }
                struct Element { func wait() { } }
                struct AppScreen { let tabBar: TabBar }
                final class SettingsUITests: XCTestCase {
                    let app = AppScreen(tabBar: TabBar(settingsButton: Element()))
                    func testOpensSettings() async {
                        app.tabBar.settingsButton.wait()
                    }
                }
                """),
            // A `nonisolated` member does not run on the actor; a class's method and an XCTest method run where called.
            RuleExample("""
                actor Downloader {
                    nonisolated func waitForLegacyCallback() {
                        let done = DispatchSemaphore(value: 0)
                        legacy.start { done.signal() }
                        done.wait()
                    }
                }
                final class Importer {
                    func run() { Thread.sleep(forTimeInterval: 1) }
                }
                final class ImporterTests: XCTestCase {
                    func testRun() {
                        let done = DispatchSemaphore(value: 0)
                        Importer().start { done.signal() }
                        done.wait()
                    }
                }
                """),
            RuleExample("""
                func legacyValue() -> Int {
                    let semaphore = DispatchSemaphore(value: 0)
                    var value = 0
                    DispatchQueue.global().async { value = compute(); semaphore.signal() }
                    semaphore.wait()
                    return value
                }
                """),
            RuleExample("""
                func testRefresh() {
                    let semaphore = DispatchSemaphore(value: 0)
                    Task { await store.refresh(); semaphore.signal() }
                    _ = semaphore.wait(timeout: .now() + 5)
                }
                """),
            RuleExample("""
                func loadAll() async {
                    try? await Task.sleep(for: .milliseconds(500))
                    await withCheckedContinuation { continuation in legacyLoad { continuation.resume() } }
                }
                """),
            RuleExample("""
                func waitForLegacy() {
                    let group = DispatchGroup()
                    group.enter(); legacyLoad { group.leave() }
                    group.wait()
                    Thread.sleep(forTimeInterval: 0.1)
                }
                """),
            RuleExample("""
                func bump() async {
                    lock.lock()
                    counter += 1
                    lock.unlock()
                    await save()
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21): 298 findings, 3 right: 293 were one app's UI-test helper named `wait()` (since then the receiver's type decides), and without them 3 of 5 (a semaphore used as a lock on a serial queue; a script's top-level code). \
            A `wait()` in async code is reported when its receiver's type is known to be a `DispatchSemaphore`, \
            `DispatchGroup`, `DispatchWorkItem` or `NSCondition` (`FrameworkBlockingWaits`); on a receiver of another \
            type (an app's own `wait()`, such as a UI test's helper) it is quiet, and on a receiver whose type the \
            index cannot tell it is reported with medium confidence (only the name says it waits). A lock is checked only for `lock()`/`unlock()` pairs in the same body. \
            Synchronous waits are matched to signals by name, in the same file and type (a local only within its \
            function); a wait for a GCD callback and a `wait(timeout:)` with a deadline are not reported. A waiting \
            function is known by its summary only when its receiver is named like a semaphore or group.
            """,
        // A deadlock or a lost update fails a test run as surely as an app: tests are checked too.
        appliesTo: [.app, .tests],
        messages: [waitWithoutDeadline, sleepInAsync, lockAcrossAwait, blockingCallee, waitForOwnTask])
    static let waitWithoutDeadline = RuleMessage("wait_in_async", "`{callee}()` blocks a thread of the cooperative pool and can deadlock it; `await` the work instead (e.g. with a continuation)")
    static let sleepInAsync = RuleMessage("sleep_in_async", "`{callee}` blocks a thread of the cooperative pool; use `try await Task.sleep(for:)`")
    static let lockAcrossAwait = RuleMessage("lock_across_await", "`{lock}` is held across an `await`: the task may resume on another thread, and other tasks block meanwhile; release it before suspending or use an actor")
    static let blockingCallee = RuleMessage("blocking_callee", "`{method}` ({0}) waits on a semaphore or group, so calling it from async code blocks a thread of the cooperative pool (and the main thread, on the main actor); make it async and `await` the work")
    static let waitForOwnTask = RuleMessage("wait_for_own_task", "`{name}.wait()` blocks this thread until a `Task` it started signals it: on the main actor the task can never run (deadlock), elsewhere it holds a thread the task may need; make the caller async and `await` the task's value")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    /// Semaphores and groups signalled inside a `Task { }`, by type and name (`self.` dropped), with the
    /// function that does it (a local can only be signalled by its own function).
    private var signalledInTask: [(type: String?, function: SyntaxIdentifier?, name: String)] = []
    /// Waits with no deadline in synchronous code, to match against those signals when the file ends.
    private var syncWaits: [(type: String?, function: SyntaxIdentifier?, name: String, isLocal: Bool, node: FunctionCallExprSyntax)] = []

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), call.parent?.is(AwaitExprSyntax.self) != true else { return }
        let signalMethod = context.calleeMethodName(call)
        if signalMethod == "signal" || signalMethod == "leave", let receiver = SyntaxFacts.receiverText(call),
           context.scope.closures.contains(where: { $0.kind == .task || $0.kind == .detachedTask }) {
            signalledInTask.append((context.scope.currentType?.qualifiedName, context.scope.currentFunction?.node.id,
                                    receiver.hasPrefix("self.") ? String(receiver.dropFirst(5)) : receiver))
            return
        }
        guard context.scope.isAsyncContext || Self.runsOnCooperativePool(context.scope) else {
            recordSynchronous(call, context: context)
            return
        }
        let method = context.calleeMethodName(call)
        let callee = method == "wait" || method == "sleep" || method == "usleep" ? SyntaxFacts.calleeName(call) : method
        if method == "wait", let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
           call.arguments.allSatisfy({ $0.label?.text == "timeout" || $0.label?.text == "wallTimeout" }) {
            // The receiver's type decides: a semaphore, group or condition blocks; an app's own `wait()` does not.
            context.report(call, Self.waitWithoutDeadline, ["callee": callee],
                           answering: .blockingWaitReceiver(context.valueType(ofReceiver: receiver)))
        } else if callee == "Thread.sleep" || callee == "usleep" || callee == "sleep" {
            context.report(call, Self.sleepInAsync, ["callee": callee])
        } else if method == "lock", call.arguments.isEmpty, let receiver = SyntaxFacts.receiverText(call),
                  Self.heldAcrossAwait(receiver, lockCall: call, body: context.scope.currentFunction?.body) {
            context.report(call, Self.lockAcrossAwait, ["lock": receiver])
        } else if method.startsLowercase, let function = context.scope.currentFunction {
            // A synchronous function of the project that blocks on a semaphore or group, called from async code.
            let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
            let receiver: ValueType?
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
                guard let base = member.base else { return }
                receiver = SyntaxFacts.isSelf(base) ? nil : context.valueType(ofReceiver: base)
                if receiver?.isKnown == false { return }
            } else if call.calledExpression.is(DeclReferenceExprSyntax.self) {
                receiver = nil
            } else {
                return
            }
            let reference = CallReference(caller: caller, callee: method, receiver: receiver)
            // The message says where the blocking function is: it is another function, often in another file.
            context.report(call, Self.blockingCallee, ["method": method], answering: .blockingCallee(reference))
        }
    }

    /// In synchronous code: `signal()`/`leave()` inside a `Task { }`, and waits with no deadline.
    /// Synchronous code, outside closures, that Swift runs on the cooperative pool: a method isolated to an actor
    /// (it runs on the actor's executor, a pool thread unless the actor names its own), and a Swift Testing `@Test`
    /// function (the test runner calls it from a task). `nonisolated` and `@MainActor` members are not the actor's.
    static func runsOnCooperativePool(_ scope: ScopeStack) -> Bool {
        guard scope.currentClosure == nil, let function = scope.currentFunction, !function.isAsync else { return false }
        if function.attributes.contains(where: { $0.name == "Test" }) { return true }
        guard scope.currentType?.isActor == true, function.node.is(FunctionDeclSyntax.self) else { return false }
        return !function.isNonisolated && !function.isMainActor
            && function.node.as(FunctionDeclSyntax.self)?.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) != true
    }

    private func recordSynchronous(_ call: FunctionCallExprSyntax, context: FileContext) {
        let method = context.calleeMethodName(call)
        guard method == "wait", let receiver = SyntaxFacts.receiverText(call) else { return }
        let name = receiver.hasPrefix("self.") ? String(receiver.dropFirst(5)) : receiver
        let type = context.scope.currentType?.qualifiedName
        let function = context.scope.currentFunction?.node.id
        if FunctionSummaryCollector.waitsForever(call), context.scope.currentClosure == nil {
            let locals = context.scope.currentFunction?.body.map { FlowFacts.localNames(in: $0) } ?? []
            syncWaits.append((type, function, name, locals.contains(name) && !receiver.hasPrefix("self."), call))
        }
    }

    public func finishFile(context: FileContext) {
        for wait in syncWaits where signalledInTask.contains(where: { signal in
            signal.type == wait.type && signal.name == wait.name && (!wait.isLocal || signal.function == wait.function)
        }) {
            context.report(wait.node, Self.waitForOwnTask, ["name": wait.name])
        }
    }

    /// An `await` between `receiver.lock()` and the next `receiver.unlock()` (or the end of the body).
    static func heldAcrossAwait(_ receiver: String, lockCall: FunctionCallExprSyntax, body: CodeBlockSyntax?) -> Bool {
        guard let body else { return false }
        var held = false
        var crossed = false
        BodyScanner.scan(body) { node in
            if node.id == lockCall.id { held = true; return }
            guard held else { return }
            if let call = node.as(FunctionCallExprSyntax.self), SyntaxFacts.calleeMethodName(call) == "unlock",
               SyntaxFacts.receiverText(call) == receiver {
                held = false
            } else if node.is(AwaitExprSyntax.self) {
                crossed = true
            }
        }
        return crossed
    }
}
