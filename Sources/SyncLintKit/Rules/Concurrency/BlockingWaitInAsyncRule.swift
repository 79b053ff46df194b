import SwiftSyntax

/// A thread-blocking wait inside async code.
public final class BlockingWaitInAsyncRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "blocking_wait_in_async",
        name: "Blocking Wait In Async",
        whatItDoes: """
            Inside an async function or a task, finds `DispatchSemaphore.wait()`, `DispatchGroup.wait()`, \
            `Thread.sleep`, `usleep`/`sleep`, and an `NSLock`/`lock()` held across an `await`.
            """,
        whyIsThisBad: """
            Swift concurrency runs on a small cooperative pool, one thread per core. A blocked thread is a lost \
            core, and when every pool thread waits for work that needs a pool thread, the app deadlocks; a lock \
            held across an `await` may be released on another thread, or never (a dice app's pattern guide: mixing GCD \
            and Swift concurrency). Use `Task.sleep(for:)`, `await` the work, or an actor instead.
            """,
        seed: "002",
        triggeringExamples: [
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
        ],
        nonTriggeringExamples: [
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
            `wait()` is recognized by name on any receiver; a type with its own async-safe `wait()` method called \
            without `await` would be reported. A lock is checked only for `lock()`/`unlock()` pairs in the same body.
            """,
        // A deadlock or a lost update fails a test run as surely as an app: tests are checked too.
        appliesTo: [.app, .tests])

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), context.scope.isAsyncContext,
              call.parent?.is(AwaitExprSyntax.self) != true else { return }
        let callee = SyntaxFacts.calleeName(call)
        let method = context.calleeMethodName(call)
        if method == "wait", SyntaxFacts.receiverText(call) != nil, call.arguments.allSatisfy({ $0.label?.text == "timeout" || $0.label?.text == "wallTimeout" }) {
            context.report(call, "`\(callee)()` blocks a thread of the cooperative pool and can deadlock it; `await` the work instead (e.g. with a continuation)")
        } else if callee == "Thread.sleep" || callee == "usleep" || callee == "sleep" {
            context.report(call, "`\(callee)` blocks a thread of the cooperative pool; use `try await Task.sleep(for:)`")
        } else if method == "lock", call.arguments.isEmpty, let receiver = SyntaxFacts.receiverText(call),
                  Self.heldAcrossAwait(receiver, lockCall: call, body: context.scope.currentFunction?.body) {
            context.report(call, "`\(receiver)` is held across an `await`: the task may resume on another thread, and other tasks block meanwhile; release it before suspending or use an actor")
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
