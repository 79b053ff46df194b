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
                """, confidence: .high),
            // A `.task` without `id:` of a view that pushes nothing: cancelled only when the view goes away for good, so
            // no newer run races this one; the request it still sends is waste, not proven harm.
            RuleExample("""
                struct SplashView: View {
                    @State private var news: [Item] = []
                    var body: some View {
                        List(news) { Text($0.name) }
                            .task {
                                ↓try? await Task.sleep(for: .seconds(1))
                                news = await api.news()
                            }
                    }
                }
                """, confidence: .medium),
            // The same view pushing a detail: the task is cancelled while the view stays, and starts again on return,
            // while the swallowed run goes on: two runs write `news`.
            RuleExample("""
                struct NewsView: View {
                    @State private var news: [Item] = []
                    var body: some View {
                        List(news) { item in NavigationLink(item.name) { NewsDetail(item: item) } }
                            .task {
                                ↓try? await Task.sleep(for: .seconds(1))
                                news = await api.news()
                            }
                    }
                }
                """, confidence: .high),
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
                """, confidence: .medium),
            // The value is bound, but the code after the `if` runs for a cancelled call too.
            RuleExample("""
                struct AvatarView: View {
                    let url: URL
                    @State private var image: UIImage?
                    @State private var loads = 0
                    var body: some View {
                        Text("").task(id: url) {
                            if let (data, _) = ↓try? await URLSession.shared.data(from: url) { image = UIImage(data: data) }
                            loads += 1
                        }
                    }
                }
                """),
            // An async function with no caller in the project: cancellable as far as anything says, not proven.
            RuleExample("""
                final class Poller {
                    var ticks = 0
                    func poll() async {
                        ↓try? await Task.sleep(for: .seconds(1))
                        ticks += 1
                    }
                }
                """, confidence: .medium),
        ],
        nonTriggeringExamples: [
            // The `guard`'s `else` returns: a cancelled transfer ends the task there, and the code after the `if`
            // around the `guard` runs only with the data.
            RuleExample("""
                struct ArtworkView: View {
                    let album: Album?
                    @State private var image: Image?
                    @State private var artist: String?
                    var body: some View {
                        Text("").task(id: album?.id) {
                            if let cached = album?.cachedImage {
                                image = cached
                            } else if let url = album?.artworkURL {
                                guard let (data, _) = try? await URLSession.shared.data(from: url) else {
                                    return
                                }
                                image = Image(data: data)
                            }
                            artist = await album?.loadArtist()
                        }
                    }
                }
                """),
            // After the swallowed pause, the next thing is a throwing `try await` of a URLSession transfer: in a cancelled
            // task it throws at once, so nothing is sent and nothing after it runs.
            RuleExample("""
                final class Catalog {
                    var overlay: Data?
                    func refresh(from url: URL) async throws {
                        try? await Task.sleep(for: .seconds(1))
                        let (data, _) = try await URLSession.shared.data(from: url)
                        overlay = data
                    }
                }
                struct CatalogView: View {
                    let catalog: Catalog
                    let url: URL
                    var body: some View { Text("").task(id: url) { try? await catalog.refresh(from: url) } }
                }
                """),
            // A cancelled transfer gives nil and the `guard` leaves: the code after it needs the value.
            RuleExample("""
                struct AvatarView: View {
                    let url: URL
                    @State private var image: UIImage?
                    var body: some View {
                        Text("").task(id: url) {
                            guard let (data, _) = try? await URLSession.shared.data(from: url) else { return }
                            image = UIImage(data: data)
                        }
                    }
                }
                """),
            RuleExample("""
                struct AvatarView: View {
                    let url: URL
                    @State private var image: UIImage?
                    var body: some View {
                        Text("").task(id: url) {
                            let result = try? await URLSession.shared.data(from: url)
                            guard let data = result?.0 else { return }
                            image = UIImage(data: data)
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
            A `.task { }` without `id:` is cancelled only when its view disappears: in a view that pushes no destination \
            over itself no newer run races the swallowed one, so its finding is medium; a view hidden another way (a \
            tab) is not seen. \
            A `Task { }` whose handle nobody keeps is never cancelled and is not reported; one whose handle is stored \
            is `missing_cancellation_check`'s. Any call after the `try?` counts as work, a log line too. A callee that \
            checks for cancellation itself, first thing, makes the finding harmless; callees are not followed. A `try?` \
            whose value a `guard` binds (directly, or through the local it initializes just before) runs only the \
            `guard`'s `else` when cancelled, and leaving it (`return .init()`, `throw`) is no work; the body of an `if` \
            that binds it runs only with a value. The finding is high when the code that runs on goes on to await \
            (a search, a request; not another swallowed sleep), medium when it only writes or calls synchronously (a \
            flag set after a delay, a scroll). In an async function, the finding is high when a caller the index \
            resolves proves it cancellable (a `.task` closure, a handle its type cancels, such a caller's caller); a \
            function the project never calls, or calls only on receivers of unknown type, gives medium confidence. \
            Calls through a view's `@Environment(\\.key)` value, a property holding a shared instance \
            (`= Store.shared`) or an `any`/`some` protocol type count as callers (a call through a protocol may run \
            another conformer, so it is never proof); a function reached only from tasks whose handle is dropped is \
            quiet, and so is one nothing calls in an app (an Xcode project with an entry point) whose type adopts no \
            framework protocol or superclass: nothing can cancel it. A library's uncalled function stays medium.
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
        // A later `try await` (not `try?`) of a call that throws on cancellation stops a cancelled run as a check does:
        // `Task.sleep` throws at once, a URLSession transfer started in a cancelled task is cancelled before it sends.
        let stops = Self.throwingCancellingAwaits(in: body, graph: built)
        let reached = starts.flatMap { graph.reachable(from: $0, avoiding: { $0.kind == .cancellationCheck || stops.contains($0.id) }) }
        let ownNodes = Set(starts + built.nodes(for: call))
        // Ordered by place, then by the graph's own node order: two nodes can start at the same offset (a call
        // and the member it reads), and a set's order differs from run to run.
        // `guard let data = try? await …` (or a local the next `guard` binds): a cancelled call gives nil, so only
        // the `guard`'s `else` runs; `if let value = try? await …` skips its body. The rest needs a value.
        // Leaving the `else` with a value or an error (`return .init()`, `throw`) is no work either.
        let noWork = Self.regionsNeedingValue(of: tryExpression)
        let work = Set(reached).subtracting(ownNodes).sorted().map { graph.nodes[$0] }.filter { node in
            if noWork.contains(where: { $0.contains(node.start) }) { return false }
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
        // What a cancelled run goes on to do: more asynchronous work (a search, a request: an `await` that is not
        // itself another swallowed sleep) is the cost the rule is about; a write or a synchronous call alone (a flag
        // set after a short delay, a scroll) is what the view would have done anyway, often harmlessly: medium.
        let swallowedAwaits = Self.swallowedCancellingAwaits(in: body)
        let goesOnAwaiting = work.contains { $0.kind == .await && !swallowedAwaits.contains($0.start) }
        if case .always = cancellability {
            // A `.task { }` without `id:` is cancelled only when its view disappears: no newer run replaces this one
            // unless the view comes back, which a view that pushes a destination over itself does (then two runs
            // overlap). A view that pushes nothing is gone for good: what the run goes on to do is not proven seen.
            guard goesOnAwaiting, ExecutionContexts.isCancelledOnlyOnDisappear(in: context), let view = context.scope.currentType?.qualifiedName else {
                context.report(tryExpression, Self.swallowed, arguments, confidence: goesOnAwaiting ? .high : .medium)
                return
            }
            context.report(tryExpression, Self.swallowed, arguments, when: .pushesDestination(view), confidence: .high)
            context.report(tryExpression, Self.swallowed, arguments, when: .not(.pushesDestination(view)), confidence: .medium)
        } else {
            // An async function is high when a resolved caller proves it cancellable; one the project never calls, or
            // calls only on receivers of unknown type, is cancellable as far as anything says: medium.
            let proven: IndexCondition = .isProvenCancellable(cancellability)
            context.report(tryExpression, Self.swallowed, arguments, when: proven, confidence: goesOnAwaiting ? .high : .medium)
            context.report(tryExpression, Self.swallowed, arguments, when: .all([.isCancellable(cancellability), .not(proven)]),
                           confidence: .medium)
        }
    }

    /// The graph nodes of the body's `try await` (not `try?`, not `try!`) of a call the framework table says throws on
    /// cancellation: a cancelled run throws there and goes no further on that path.
    static func throwingCancellingAwaits(in body: Syntax, graph built: BuiltControlFlowGraph) -> Set<Int> {
        var nodes: Set<Int> = []
        BodyScanner.scan(body) { node in
            guard let tryExpression = node.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark == nil,
                  let (call, suspension) = cancellingCall(tryExpression.expression), let suspension else { return }
            nodes.formUnion(built.nodes(for: call))
            nodes.formUnion(built.nodes(for: suspension))
        }
        return nodes
    }

    /// Where the body's `try? await` of a call that throws on cancellation start (UTF-8 offsets of their `await`s):
    /// when cancelled they return at once, so they are no further work.
    static func swallowedCancellingAwaits(in body: Syntax) -> Set<Int> {
        var starts: Set<Int> = []
        BodyScanner.scan(body) { node in
            guard let tryExpression = node.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark?.tokenKind == .postfixQuestionMark,
                  let (_, suspension) = cancellingCall(tryExpression.expression), let suspension else { return }
            starts.insert(suspension.positionAfterSkippingLeadingTrivia.utf8Offset)
        }
        return starts
    }

    /// The UTF-8 offsets that run only when the `try?` gave a value, so never for a cancelled call: the code after a
    /// `guard` that binds it (directly, or the local it initializes in the statement just before), to the end of the
    /// block; the body of an `if` that binds it so. With them, the `return` and `throw` statements of that `guard`'s
    /// `else`: leaving with an empty value or an error is no work done anyway. Empty when its value is not bound.
    static func regionsNeedingValue(of tryExpression: TryExprSyntax) -> [Range<Int>] {
        guard let statement = bindingStatement(of: tryExpression) ?? bindingOfLocal(initializedBy: tryExpression) else { return [] }
        if let guardStatement = statement.as(GuardStmtSyntax.self) {
            let start = guardStatement.body.endPosition.utf8Offset
            let end = guardStatement.parent?.parent?.as(CodeBlockItemListSyntax.self)?.endPosition.utf8Offset ?? start
            let leaving = guardStatement.body.statements.compactMap { item -> Range<Int>? in
                guard item.item.is(ReturnStmtSyntax.self) || item.item.is(ThrowStmtSyntax.self) else { return nil }
                return item.position.utf8Offset..<item.endPosition.utf8Offset
            }
            // An `else` that leaves the function (`return`, `throw`; not `continue` or `break`, which go on in the body)
            // is the only way on for a cancelled call: whatever else follows, after the `if` or loop around too, needs the value.
            if let last = guardStatement.body.statements.last?.item, last.is(ReturnStmtSyntax.self) || last.is(ThrowStmtSyntax.self) {
                return [0..<guardStatement.body.position.utf8Offset, guardStatement.body.endPosition.utf8Offset..<Int.max] + leaving
            }
            return [start..<max(start, end)] + leaving
        }
        guard let ifStatement = statement.as(IfExprSyntax.self) else { return [] }
        return [ifStatement.body.position.utf8Offset..<ifStatement.body.endPosition.utf8Offset]
    }

    /// The `guard` or `if` whose optional binding the expression is in (`guard let data = try? await …`).
    private static func bindingStatement(of expression: TryExprSyntax) -> Syntax? {
        var current = Syntax(expression)
        while let parent = current.parent {
            if let binding = parent.as(OptionalBindingConditionSyntax.self) {
                let statement = binding.parent?.parent?.parent
                return statement?.is(GuardStmtSyntax.self) == true || statement?.is(IfExprSyntax.self) == true ? statement : nil
            }
            if parent.is(CodeBlockItemSyntax.self) || parent.is(ClosureExprSyntax.self) { return nil }
            current = parent
        }
        return nil
    }

    /// `let result = try? await …` followed at once by a `guard` or `if` that optionally binds from `result`.
    private static func bindingOfLocal(initializedBy expression: TryExprSyntax) -> Syntax? {
        guard let binding = expression.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
              let local = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let item = binding.ancestorOrSelf(mapping: { $0.as(CodeBlockItemSyntax.self) }),
              let list = item.parent?.as(CodeBlockItemListSyntax.self),
              let index = list.firstIndex(where: { $0.id == item.id }), list.index(after: index) != list.endIndex else { return nil }
        let next = list[list.index(after: index)].item
        let statement: Syntax
        let conditions: ConditionElementListSyntax
        if let guardStatement = next.as(GuardStmtSyntax.self) {
            (statement, conditions) = (Syntax(guardStatement), guardStatement.conditions)
        } else if let ifStatement = next.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) {
            (statement, conditions) = (Syntax(ifStatement), ifStatement.conditions)
        } else {
            return nil
        }
        let binds = conditions.contains { element in
            guard let optional = element.condition.as(OptionalBindingConditionSyntax.self) else { return false }
            let source = optional.initializer.map { Syntax($0.value) } ?? Syntax(optional.pattern)
            return source.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(local) }
        }
        return binds ? statement : nil
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
