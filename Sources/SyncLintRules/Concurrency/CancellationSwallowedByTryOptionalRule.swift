import SwiftSyntax

/// `try?` on a call that reports cancellation by throwing, in code that is cancelled, followed by work that runs anyway.
public final class CancellationSwallowedByTryOptionalRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "cancellation_swallowed_by_try_optional",
        name: "Cancellation Swallowed by try?",
        whatItDoes: """
            Finds `try?` on a call that reports cancellation by throwing (the framework table's `Task.sleep`, \
            `Task.checkCancellation()`, URLSession's async transfers) in code that is cancelled: a SwiftUI `.task`, \
            `.task(id:)` or `.refreshable` closure, a task-group child, or an async function whose callers the index \
            finds cancellable; when some path of the body's control-flow graph goes from the call on to a write, a \
            call or another `await` with no `Task.isCancelled` or `Task.checkCancellation()` on the way. The \
            debounce `try? await Task.sleep(for: .milliseconds(300))` followed by a search is the usual case. \
            A `Task { }` whose handle is stored is left to `missing_cancellation_check`.
            """,
        whyIsThisBad: """
            `Task.sleep` throws `CancellationError` as soon as its task is cancelled; `try?` turns that into `nil`, \
            so a superseded run does not stop: `.task(id: query)` cancels the old run when the query changes, the \
            sleep returns at once, and the old query's search still goes out and writes its results, racing the new \
            one (https://developer.apple.com/documentation/swift/task/sleep(for:tolerance:clock:): "If the task is \
            canceled before the time ends, this function throws CancellationError").
            """,
        seed: "—",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                struct SearchView: View {
                    @State private var query = ""
                    @State private var results: [Item] = []
                    var body: some View {
                        List(results) { Text($0.name) }
                            .searchable(text: $query)
                            .task(id: query) {
                                ↓try? await Task.sleep(for: .milliseconds(300))
                                results = await api.search(query)
                            }
                    }
                }
                """),
            RuleExample("""
                struct FeedView: View {
                    let model: FeedModel
                    var body: some View {
                        List(model.posts) { Text($0.title) }
                            .refreshable {
                                ↓try? await Task.sleep(nanoseconds: 500_000_000)
                                model.markRefreshed()
                            }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                struct SearchView: View {
                    @State private var query = ""
                    @State private var results: [Item] = []
                    var body: some View {
                        List(results) { Text($0.name) }
                            .task(id: query) {
                                try? await Task.sleep(for: .milliseconds(300))
                                guard !Task.isCancelled else { return }
                                results = await api.search(query)
                            }
                    }
                }
                """),
            RuleExample("""
                struct SearchView: View {
                    @State private var query = ""
                    @State private var results: [Item] = []
                    var body: some View {
                        List(results) { Text($0.name) }
                            .task(id: query) {
                                do {
                                    try await Task.sleep(for: .milliseconds(300))
                                    results = await api.search(query)
                                } catch {}
                            }
                    }
                }
                """),
            RuleExample("""
                final class Toast {
                    var message: String?
                    func show(_ text: String) {
                        message = text
                        Task {
                            try? await Task.sleep(for: .seconds(2))
                            message = nil
                        }
                    }
                }
                """),
            RuleExample("""
                struct PulseView: View {
                    @State private var phase = false
                    var body: some View {
                        Circle().task {
                            while !Task.isCancelled {
                                phase.toggle()
                                try? await Task.sleep(for: .seconds(1))
                            }
                        }
                    }
                }
                """),
        ],
        knownLimitations: """
            A `Task { }` whose handle nobody keeps is never cancelled and is not reported; one whose handle is stored \
            is `missing_cancellation_check`'s. Any call after the `try?` counts as work, a log line too. A callee that \
            checks for cancellation itself, first thing, makes the finding harmless; callees are not followed.
            """,
        messages: [swallowed])
    static let swallowed = RuleMessage("cancellation_swallowed", "`try?` turns the cancellation `{callee}` throws into nil, so when this task is cancelled the code after it " +
        "still runs ({next}); use `try await` and let the error end the task, or check `Task.isCancelled` right after")

    public static let nodeKinds: Set<SyntaxKind> = [.tryExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let tryExpression = node.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark?.tokenKind == .postfixQuestionMark,
              let found = Self.cancellingCall(tryExpression.expression) else { return }
        let (call, suspension) = found
        let cancellability = context.cancellabilityHere()
        switch cancellability {
        case .never, .ifHandleCancelled: return
        case .always, .ifCallersCancellable: break
        }
        guard let body = Self.innermostBody(context), let built = context.controlFlowGraph(of: body) else { return }
        let starts = suspension.map { built.nodes(for: $0) } ?? built.nodes(for: call)
        let graph = built.graph
        let locals = FlowFacts.localNames(in: body)
        let reached = starts.flatMap { graph.reachable(from: $0, avoiding: { $0.kind == .cancellationCheck }) }
        let ownNodes = Set(starts + built.nodes(for: call))
        // Ordered by place, then by the graph's own node order: two nodes can start at the same offset (a call
        // and the member it reads), and a set's order differs from run to run.
        let work = Set(reached).subtracting(ownNodes).sorted().map { graph.nodes[$0] }.filter { node in
            switch node.kind {
            case .call, .await: return true
            case .write: return !(node.label.map { locals.contains($0) } ?? false)
            default: return false
            }
        }
        guard let first = work.min(by: { $0.start < $1.start }) else { return }
        let callee = SyntaxFacts.calleeName(call)
        let next = first.kind == .await ? "another `await`" : "`\(first.label ?? "it")`"
        let arguments = ["callee": callee, "next": next]
        if case .always = cancellability {
            context.report(tryExpression, Self.swallowed, arguments)
        } else {
            context.report(tryExpression, Self.swallowed, arguments, when: .isCancellable(cancellability))
        }
    }

    /// The call under `try?` (and its `await`) when the framework table says it throws on cancellation.
    static func cancellingCall(_ expression: ExprSyntax) -> (FunctionCallExprSyntax, AwaitExprSyntax?)? {
        let suspension = expression.as(AwaitExprSyntax.self)
        guard let call = (suspension?.expression ?? expression).as(FunctionCallExprSyntax.self) else { return nil }
        let entry = FrameworkCalls.lookup(method: SyntaxFacts.calleeMethodName(call), receiver: SyntaxFacts.receiverText(call) ?? "",
                                          callee: SyntaxFacts.calleeName(call), labels: call.arguments.compactMap { $0.label?.text })
        guard entry?.throwsOnCancellation != nil else { return nil }
        return (call, suspension)
    }

    /// The closure or function whose body the node is in: its graph is asked.
    static func innermostBody(_ context: FileContext) -> Syntax? {
        if let closure = context.scope.currentClosure { return Syntax(closure.node) }
        return context.scope.currentFunction?.node
    }
}
