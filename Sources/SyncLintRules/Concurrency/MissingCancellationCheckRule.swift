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
            (`task = Task { await recognizer.analyze(image) }`).
            """,
        whyIsThisBad: """
            Cancelling a task only sets a flag; code after a non-throwing `await` runs anyway. A cancelled, \
            superseded load then writes its stale result over the newer one's.
            """,
        seed: "000, 001",
        // Opt-in: judged on apps nobody tuned on (docs/precision.md, "Test half"), it fell far short of the bar for
        // a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        triggeringExamples: [
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
        ],
        nonTriggeringExamples: [
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
        ],
        knownLimitations: """
            Opt-in by its figure on 25 apps nobody tuned on (docs/precision.md, round of issue 21): 0 of 4 findings were right (a guard on the stored handle stopped any newer task; the write was cleanup or held either way). \
            Only tasks stored on `self` directly or through a local constant in the same function are checked; a \
            handle stored in a collection is not, nor one only another type cancels. A method is checked when the \
            task awaits it directly, not through another function. Resets (`isLoading = false`, `task = nil`) and \
            starting the next task are cleanup, not results, and are not reported. After a `try await` that throws `CancellationError` the write is \
            skipped by the throw, so it is not reported, although a callee that ignores cancellation returns normally.
            """,
        messages: [storedTaskWrite, awaitedMethodWrite])
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
              frame.kind == .task, let call = frame.call, let type = context.scope.currentType,
              let handle = context.storedHandleName(ofTask: call), let graph = context.controlFlowGraph(of: closure),
              let write = Self.uncheckedWrite(in: closure.statements, graph: graph,
                                              locals: FlowFacts.localNames(in: closure.statements), skipping: handle) else { return }
        let typeName = type.qualifiedName
        // A handle that is only awaited (`await loadTask?.value`) is never cancelled: the write is not stale.
        context.report(write.target, Self.storedTaskWrite, ["property": write.property],
                       when: .all([.hasProperty(write.property, ofType: typeName),
                                   .isCancellable(.ifHandleCancelled(typeName: typeName, property: handle))]),
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
                  !methods[last].awaits.isEmpty || Self.assignsAwaitedValue(sequence), !Self.resetsToLiteral(sequence),
                  inMethodBody() else { return }
            let locals = FlowFacts.localNames(in: methods[last].body).union(methods[last].parameters)
            guard let property = FlowFacts.selfProperty(target, locals: locals) else { return }
            if !Self.assignsAwaitedValue(sequence) {
                guard let graph = context.controlFlowGraph(of: methods[last].function),
                      Self.isUnchecked(sequence, after: methods[last].awaits, in: graph) else { return }
            }
            methods[last].done = true
            report(write: target, property: property, in: methods[last].key, context: context)
        default:
            break
        }
    }

    private func report(write target: ExprSyntax, property: String, in key: FunctionKey, context: FileContext) {
        context.report(target, Self.awaitedMethodWrite, ["function": key.name, "property": property],
                       answering: .cancelledTaskCaller(of: key), when: .hasProperty(property, ofType: key.typeName ?? ""))
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
                      property != handle, !Self.resetsToLiteral(sequence) {
                writes.append((sequence, target, property))
            }
        }
        guard !awaits.isEmpty else { return nil }
        let write = writes.first { write in
            assignsAwaitedValue(write.sequence) || isUnchecked(write.sequence, after: awaits, in: graph)
        }
        return write.map { ($0.target, $0.property) }
    }

    /// Whether some path of the graph goes from one of the `await`s to the write without a cancellation check.
    static func isUnchecked(_ write: SequenceExprSyntax, after awaits: [AwaitExprSyntax], in built: BuiltControlFlowGraph) -> Bool {
        let targets = Set(built.nodes(for: write))
        guard !targets.isEmpty else { return false }
        let graph = built.graph
        return awaits.contains { suspension in
            built.nodes(for: suspension).contains { start in
                !graph.reachable(from: start, avoiding: { $0.kind == .cancellationCheck }).isDisjoint(with: targets)
            }
        }
    }

    /// `flag = false`, `handle = nil`, `count = 0`, `text = ""`: a reset, not a result; and `handle = Task { }`,
    /// which starts the next task rather than writing this one's result.
    private static func resetsToLiteral(_ sequence: SequenceExprSyntax) -> Bool {
        guard let value = SyntaxFacts.assignment(sequence)?.value else { return false }
        if let call = value.as(FunctionCallExprSyntax.self) {
            let callee = SyntaxFacts.calleeName(call)
            return callee == "Task" || callee == "Task.detached"
        }
        return SyntaxFacts.boolLiteral(value) == false || value.is(NilLiteralExprSyntax.self)
            || value.trimmedText == "0" || value.trimmedText == "\"\""
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
