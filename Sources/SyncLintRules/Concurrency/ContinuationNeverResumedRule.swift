import SwiftSyntax

/// A path through a continuation's closure, or through the callback that should resume it, that never resumes it.
public final class ContinuationNeverResumedRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "continuation_never_resumed",
        name: "Continuation Never Resumed",
        whatItDoes: """
            In the closure of `withCheckedContinuation`, `withCheckedThrowingContinuation` and their unsafe kin, and in \
            the callbacks inside it that resume the continuation, finds a path of the control-flow graph from the \
            start to the end (an early `return`, a `guard … else { return }`, a branch that falls off the end, an \
            error that leaves) that neither resumes the continuation nor hands it to a callback that does. The \
            finding is at the `return` that leaves, or at the closing brace when the path falls off the end. The \
            continuation must stay in the closure (never stored or passed on).
            """,
        whyIsThisBad: """
            Apple: "Never resuming leaves the task in a suspended state indefinitely, and leaks any associated \
            resources" (https://developer.apple.com/documentation/swift/checkedcontinuation). The `await` never \
            returns: a spinner spins forever, a save never reports, and everything the task holds stays in memory. \
            A checked continuation only logs "leaked its continuation" when it is freed. Public fix: \
            MarkEdit-app/MarkEdit pull request 1438, "Ensure continuations are always resumed".
            """,
        seed: "—",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                func currentLocation() async -> Location? {
                    await withCheckedContinuation { continuation in
                        manager.requestLocation { location, error in
                            guard let location else { ↓return }
                            continuation.resume(returning: location)
                        }
                    }
                }
                """),
            RuleExample("""
                func load(_ id: String) async throws -> Item {
                    try await withCheckedThrowingContinuation { continuation in
                        guard let url = URL(string: id) else { ↓return }
                        api.fetch(url) { result in continuation.resume(with: result) }
                    }
                }
                """),
            RuleExample("""
                func ask(_ question: String) async -> Bool {
                    await withCheckedContinuation { continuation in
                        presenter.confirm(question) { answer in
                            if answer != nil {
                                continuation.resume(returning: answer!)
                            }
                        ↓}
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                func currentLocation() async -> Location? {
                    await withCheckedContinuation { continuation in
                        manager.requestLocation { location, error in
                            guard let location else { return continuation.resume(returning: nil) }
                            continuation.resume(returning: location)
                        }
                    }
                }
                """),
            RuleExample("""
                func load(_ id: String) async throws -> Item {
                    try await withCheckedThrowingContinuation { continuation in
                        guard let url = URL(string: id) else {
                            continuation.resume(throwing: URLError(.badURL))
                            return
                        }
                        api.fetch(url) { result in
                            defer { log("fetched") }
                            continuation.resume(with: result)
                        }
                    }
                }
                """),
            RuleExample("""
                final class Prompt {
                    private var pending: CheckedContinuation<Bool, Never>?
                    func ask() async -> Bool {
                        await withCheckedContinuation { continuation in
                            guard pending == nil else { return }
                            pending = continuation
                        }
                    }
                }
                """),
            RuleExample("""
                func firstFix() async -> Location {
                    await withCheckedContinuation { continuation in
                        var didResume = false
                        manager.startUpdates { location in
                            guard !didResume else { return }
                            didResume = true
                            continuation.resume(returning: location)
                        }
                    }
                }
                """),
            RuleExample("""
                func ask(_ question: String) async -> Bool {
                    await withCheckedContinuation { continuation in
                        presenter.confirm(question) { answer in
                            guard let answer else { fatalError("confirm always answers") }
                            continuation.resume(returning: answer)
                        }
                    }
                }
                """),
        ],
        knownLimitations: """
            A continuation stored on `self`, passed to a function or captured by a nested function is not followed. \
            A callback that the API calls many times (an observer, a delegate, a publisher's sink) and that resumes \
            only once its value arrives, with no claim flag (`guard !didResume else { return }`), is reported on the calls that wait: there the pattern is intended, but the \
            same code resumes twice if the value comes twice; suppress it or remove the observer after resuming. \
            Whether the API calls the callback at all is not known.
            """,
        messages: [neverResumed])
    static let neverResumed = RuleMessage("never_resumed", "on this path `{name}` is never resumed, so the awaiting task waits forever; " +
        "resume it (with a value or an error) before leaving")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), let use = ContinuationUse.of(call) else { return }
        for level in use.levels {
            guard let built = context.controlFlowGraph(of: level.closure),
                  let leak = Self.pathWithoutResume(in: level, claimTests: use.claimTests(in: level.closure), graph: built) else { continue }
            if let offset = leak {
                context.report(at: context.location(at: AbsolutePosition(utf8Offset: offset)), Self.neverResumed, ["name": use.name])
            } else {
                context.report(level.closure.rightBrace, Self.neverResumed, ["name": use.name])
            }
        }
    }

    /// A way out of the level's closure that passes no resume and creates no callback that resumes: `.some(offset)`
    /// of the first `return` that leaves so, `.some(nil)` when the path falls off the end (or an error leaves),
    /// nil when every path resumes. Each callback answers for its own paths; a path through a test of a claim flag is
    /// left alone.
    static func pathWithoutResume(in level: ContinuationUse.Level, claimTests: [ConditionElementSyntax],
                                  graph built: BuiltControlFlowGraph) -> Int?? {
        let graph = built.graph
        // A path through a claim test (`guard !didResume else { return }`) is the callback's second call: it must not resume.
        let resuming = Set((level.resumes.map { Syntax($0) } + level.children.map { Syntax($0) } + claimTests.map { Syntax($0) })
            .flatMap { built.nodes(for: $0) })
        let avoided: (ControlFlowGraph.Node) -> Bool = { resuming.contains($0.id) }
        let open = graph.reachable(from: graph.entry, avoiding: avoided)
        guard !open.isDisjoint(with: graph.exits) else { return nil }
        let leavingReturn = open.map { graph.nodes[$0] }
            .filter { $0.kind == .returnStatement }
            .sorted { $0.start < $1.start }
            .first { !graph.reachable(from: $0.id, avoiding: avoided).isDisjoint(with: graph.exits) }
        return .some(leavingReturn?.start)
    }
}
