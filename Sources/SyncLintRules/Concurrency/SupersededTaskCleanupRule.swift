import SwiftSyntax

/// The cleanup of a task that a newer run cancels and replaces, resetting state the newer run now owns.
public final class SupersededTaskCleanupRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "superseded_task_cleanup",
        name: "Superseded Task Cleanup",
        whatItDoes: """
            In a method that cancels a stored task and starts a new one in its place (`task?.cancel()` then \
            `task = Task { … }`), finds the task's cleanup that resets shared in-flight state after an `await`: \
            `task = nil` on its own handle, or a flag the method (or the task) sets to `true` reset to `false`, \
            directly or in a `defer`; when some path of the task's control-flow graph goes from an `await` to the \
            reset with no `Task.isCancelled` / `Task.checkCancellation()` and no comparison (`==`, `!=`, `===`, \
            `!==`: a run id or generation token) on the way.
            """,
        whyIsThisBad: """
            Cancelling only sets a flag: the old task runs on to its cleanup after the newer one has started. Its \
            `task = nil` then drops the newer task's handle, so the next `task?.cancel()` misses it and two runs \
            overlap; its `isLoading = false` turns the spinner off while the newer run is still loading, and the \
            empty or stale screen shows as final. Cancellation is cooperative: "the task continues running as \
            before" until it checks (https://developer.apple.com/documentation/swift/task/cancel()). Guard the \
            reset with `if !Task.isCancelled` (the canceller owns the state then) or compare a run id stored when \
            the run started.
            """,
        seed: "—",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Item] = []
                    var isSearching = false
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        isSearching = true
                        searchTask = Task {
                            defer { ↓isSearching = false }
                            results = await api.search(query)
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Syncer {
                    private var syncTask: Task<Void, Never>?
                    func sync() {
                        syncTask?.cancel()
                        syncTask = Task {
                            await store.sync()
                            ↓syncTask = nil
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Item] = []
                    var isSearching = false
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        isSearching = true
                        searchTask = Task {
                            let found = await api.search(query)
                            guard !Task.isCancelled else { return }
                            results = found
                            isSearching = false
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Syncer {
                    private var syncTask: Task<Void, Never>?
                    private var runID = UUID()
                    func sync() {
                        syncTask?.cancel()
                        let id = UUID()
                        runID = id
                        syncTask = Task {
                            await store.sync()
                            if runID == id { syncTask = nil }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Syncer {
                    var isSyncing = false
                    private var syncTask: Task<Void, Never>?
                    func sync() {
                        syncTask = Task {
                            isSyncing = true
                            defer { isSyncing = false }
                            await store.sync()
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Syncer {
                    var hasError = false
                    private var syncTask: Task<Void, Never>?
                    func sync() {
                        syncTask?.cancel()
                        syncTask = Task {
                            await store.sync()
                            hasError = false
                        }
                    }
                }
                """),
        ],
        knownLimitations: """
            Only a handle stored on `self` by the method that cancels it is followed, and only the literal resets \
            `= nil` (of the handle) and `= false` (of a flag set to `true` by the method or the task). A guard \
            that compares anything counts as an identity check, even when it compares something else.
            """,
        messages: [clearsNewerHandle, resetsNewerFlag])
    static let clearsNewerHandle = RuleMessage("clears_newer_handle", "when a newer call cancels this task and stores its own, this still runs after the `await` and sets `{handle}` " +
        "to nil, dropping the newer task's handle; clear it only `if !Task.isCancelled`, or compare a run id")
    static let resetsNewerFlag = RuleMessage("resets_newer_flag", "when a newer call cancels this task and starts its own, this still runs after the `await` and resets " +
        "`{property}` while the newer run is in flight; reset it only `if !Task.isCancelled`, or compare a run id")

    public static let nodeKinds: Set<SyntaxKind> = [.closureExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let closure = node.as(ClosureExprSyntax.self), let frame = context.scope.currentClosure, frame.node.id == closure.id,
              frame.kind == .task, let call = frame.call, let type = context.scope.currentType,
              let handle = context.storedHandleName(ofTask: call), let method = context.scope.currentFunction?.body,
              Self.cancels(handle, in: method) else { return }
        let raised = Self.propertiesSetTrue(in: method).union(Self.propertiesSetTrue(in: closure.statements))
        let locals = FlowFacts.localNames(in: closure.statements)
        var resets: [(sequence: SequenceExprSyntax, target: ExprSyntax, property: String)] = []
        var comparisons: [ConditionElementSyntax] = []
        BodyScanner.scan(closure.statements) { node in
            if let condition = node.as(ConditionElementSyntax.self), Self.compares(condition) {
                comparisons.append(condition)
            } else if let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
                      let property = FlowFacts.selfProperty(assignment.target, locals: locals) {
                let clearsHandle = property == handle && assignment.value.is(NilLiteralExprSyntax.self)
                let lowersFlag = raised.contains(property) && SyntaxFacts.boolLiteral(assignment.value) == false
                if clearsHandle || lowersFlag { resets.append((sequence, assignment.target, property)) }
            }
        }
        guard !resets.isEmpty, let built = context.controlFlowGraph(of: closure) else { return }
        let graph = built.graph
        let guarded = Set(comparisons.flatMap { built.nodes(for: $0) })
        let awaits = graph.nodes(ofKind: .await).map(\.id)
        let open = Set(awaits.flatMap { start in
            graph.reachable(from: start, avoiding: { $0.kind == .cancellationCheck || guarded.contains($0.id) })
        })
        let typeName = type.qualifiedName
        for reset in resets where !open.isDisjoint(with: built.nodes(for: reset.sequence)) {
            if reset.property == handle {
                context.report(reset.target, Self.clearsNewerHandle, ["handle": handle], when: .hasProperty(reset.property, ofType: typeName))
            } else {
                context.report(reset.target, Self.resetsNewerFlag, ["property": reset.property], when: .hasProperty(reset.property, ofType: typeName))
            }
        }
    }

    /// `handle?.cancel()` / `self.handle?.cancel()` in the method, outside the task.
    static func cancels(_ handle: String, in body: CodeBlockSyntax) -> Bool {
        var found = false
        BodyScanner.scan(body) { node in
            guard !found, let call = node.as(FunctionCallExprSyntax.self), SyntaxFacts.calleeMethodName(call) == "cancel",
                  let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
                  TaskFacts.propertyName(receiver.as(OptionalChainingExprSyntax.self)?.expression ?? receiver) == handle else { return }
            found = true
        }
        return found
    }

    /// Properties of `self` set to `true` in a body (nested closures aside).
    static func propertiesSetTrue(in body: some SyntaxProtocol) -> Set<String> {
        var raised: Set<String> = []
        let locals = FlowFacts.localNames(in: body)
        BodyScanner.scan(body) { node in
            guard let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
                  SyntaxFacts.boolLiteral(assignment.value) == true,
                  let property = FlowFacts.selfProperty(assignment.target, locals: locals) else { return }
            raised.insert(property)
        }
        return raised
    }

    /// A condition that compares two values: a run id, a generation, the task's identity.
    static func compares(_ condition: ConditionElementSyntax) -> Bool {
        condition.tokens(viewMode: .sourceAccurate).contains { token in
            if case .binaryOperator(let op) = token.tokenKind { return ["==", "!=", "===", "!=="].contains(op) }
            return false
        }
    }
}
