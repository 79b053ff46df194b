import SwiftSyntax

/// `.onAppear { Task { ... } }`: an unstructured task that outlives the view.
public final class OnAppearTaskRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "on_appear_task",
        name: "On Appear Task",
        whatItDoes: """
            Finds `.onAppear { }` whose closure starts a `Task { }` (as all of the closure, or as its async part), \
            or calls a method of the view that starts one, or whose direct callee does, and keeps no handle to it \
            (`onAppear { load() }` where `load()` runs `Task { ... }`).
        """,
        whyIsThisBad: """
            The task is not tied to the view: it keeps running after the view disappears, is never cancelled, \
            and starts again each time the view reappears, so loads overlap and finish against a screen that is \
            gone. `.task { }` \
            starts when the view appears and is cancelled when it disappears.
            """,
        seed: "002",
        // Opt-in until narrowed further: 9 of 15 findings right on eight public apps: run-once loads guarded by a flag, `onAppear` on menu content, and a load-more marker that hides itself, where `.task` would be cancelled at once (docs/precision.md).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                struct ArticleList: View {
                    @State private var model = ArticleListModel()
                    var body: some View {
                        List(model.articles) { Text($0.title) }
                            ↓.onAppear {
                                Task {
                                    await model.load()
                                }
                            }
                    }
                }
                """, fixed: """
                struct ArticleList: View {
                    @State private var model = ArticleListModel()
                    var body: some View {
                        List(model.articles) { Text($0.title) }
                            .task {
                                await model.load()
                            }
                    }
                }
                """),
            RuleExample("""
                struct DieView: View {
                    let die: Die
                    var body: some View {
                        Text("\\(die.value)")↓.onAppear {
                            analytics.log("die shown")
                            Task { await die.animateRoll() }
                        }
                    }
                }
                """),
            // A load-more marker: the load flips the state that shows it, so `.task` would cancel its own load.
            // No fix, and the message says why.
            RuleExample("""
                struct FeedView: View {
                    @State private var model = FeedModel()
                    var body: some View {
                        List {
                            ForEach(model.posts) { Text($0.title) }
                            if model.hasNextPage {
                                ProgressView()↓.onAppear {
                                    Task { await model.loadNextPage() }
                                }
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                struct CommentsView: View {
                    @State private var hasMore = true
                    @State private var comments: [String] = []
                    var body: some View {
                        List {
                            ForEach(comments, id: \\.self) { Text($0) }
                            if hasMore {
                                ProgressView()↓.onAppear { Task { await loadMore() } }
                            }
                        }
                    }
                    func loadMore() async {
                        let page = await fetchComments(after: comments.count)
                        comments += page
                        hasMore = !page.isEmpty
                    }
                }
                """),
            // Shown under a condition the load does not touch: the fix applies.
            RuleExample("""
                struct ProfileView: View {
                    let showsStats: Bool
                    @State private var model = ProfileModel()
                    var body: some View {
                        if showsStats {
                            StatsView(stats: model.stats)↓.onAppear {
                                Task { await model.loadStats() }
                            }
                        }
                    }
                }
                """, fixed: """
                struct ProfileView: View {
                    let showsStats: Bool
                    @State private var model = ProfileModel()
                    var body: some View {
                        if showsStats {
                            StatsView(stats: model.stats).task { await model.loadStats() }
                        }
                    }
                }
                """),
            // One call away: `load()` starts the task. No fix: the `Task` is in `load()`, not in the closure.
            RuleExample("""
                struct StopsView: View {
                    @State private var stops: [String] = []
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            ↓.onAppear { load() }
                    }
                    func load() {
                        Task { stops = await fetchStops() }
                    }
                }
                """, message: "task_started_by_callee",
                notes: ["`load()` starts this `Task`, whose handle nobody keeps"], confidence: .high),
        ],
        nonTriggeringExamples: [
            // The method keeps the task's handle, and the view cancels it when it goes.
            RuleExample("""
                struct StopsView: View {
                    @State private var stops: [String] = []
                    @State private var loadTask: Task<Void, Never>?
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            .onAppear { load() }
                            .onDisappear { loadTask?.cancel() }
                    }
                    func load() {
                        loadTask = Task { stops = await fetchStops() }
                    }
                }
                """),
            // The method the closure calls starts no task.
            RuleExample("""
                struct StopsView: View {
                    @State private var stops: [String] = []
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            .onAppear { load() }
                    }
                    func load() {
                        stops = cachedStops()
                    }
                }
                """),
            RuleExample("""
                struct ArticleList: View {
                    @State private var model = ArticleListModel()
                    var body: some View {
                        List(model.articles) { Text($0.title) }
                            .task { await model.load() }
                    }
                }
                """),
            RuleExample("""
                struct DieView: View {
                    let die: Die
                    var body: some View {
                        Text("\\(die.value)")
                            .onAppear { die.startAnimation() }
                            .onDisappear { die.stopAnimation() }
                            .onTapGesture { Task { await die.animateRoll() } }
                    }
                }
                """),
        ],
        knownLimitations: """
            A task that must outlive the view on purpose (fire-and-forget analytics, a save that must finish) is \
            reported too; suppress it there. The fix (unsafe: the task is now cancelled when the view disappears, \
            which is the point, and changes what the code does) rewrites `.onAppear { Task { ... } }` to \
            `.task { ... }` only when the `Task { }` is the whole closure, with no arguments and no capture list; \
            other shapes are left to you. There is no fix, and the message says why, when the view is shown under \
            an `if` or `switch` whose condition reads state the closure uses or the view's own methods it calls \
            write (a load-more marker under `if hasNextPage`): the load would hide the view and cancel itself; a \
            call the index does not know counts as writing it. A task one call away is seen only in a method of \
            the view itself (`load()`, `self.load()`) or a function it calls directly, not in a view model's \
            method (`model.load()`); it has no fix. \
            Opt-in: 9 of 15 findings right on eight public apps: run-once loads guarded by a flag, `onAppear` on menu content, and a load-more marker that hides itself, where `.task` would be cancelled at once; see docs/precision.md.
            """,
        fixSafety: .unsafe,
        messages: [outlivesView, hidesOwnView, startedByCallee])
    static let startedByCallee = RuleMessage("task_started_by_callee", "`{0}()` starts a `Task` that outlives the view and is never cancelled; make `{0}` `async` and call it from `.task { }`, or keep the task's handle and cancel it in `.onDisappear`")
    static let outlivesView = RuleMessage("task_outlives_view", "this `Task` outlives the view and is never cancelled; use `.task { }`, which is cancelled when the view disappears")
    static let hidesOwnView = RuleMessage("task_hides_own_view", "this `Task` outlives the view and is never cancelled; but `.task { }` is no fix here: the load works on {states}, which decides whether this view is shown, so a `.task` would cancel its own load; keep the task's handle and cancel it when the screen goes away")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), context.calleeMethodName(call) == "onAppear",
              let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let closure = SyntaxFacts.closures(of: call).first else { return }
        let startsTask = closure.statements.contains { item in
            guard let started = Syntax(item.item).as(FunctionCallExprSyntax.self) else { return false }
            return TaskFacts.isTaskCreation(started) && SyntaxFacts.calleeName(started) == "Task"
        }
        guard startsTask else {
            // One call away: a method of the view the closure calls starts the task (known once the index is built).
            let ownMethods = Self.ownMethodCalls(in: closure, context: context)
            guard !ownMethods.isEmpty else { return }
            context.report(member.period, [Self.startedByCallee],
                           answering: .startsDiscardedTask(methods: ownMethods.sorted(), viewType: context.scope.currentType?.qualifiedName))
            return
        }
        // A view shown only while a condition holds (a load-more marker under `if hasNextPage`) disappears when
        // its load flips that condition: with `.task` the load would cancel itself. What the condition reads,
        // the closure touches or the view's own methods it calls write, is that state: then there is no fix.
        let conditionNames = Self.namesShowingView(call)
        guard !conditionNames.isEmpty else {
            context.report(member.period, Self.outlivesView)
            return
        }
        let touched = Self.identifiers(in: closure)
        let shared = conditionNames.intersection(touched)
        guard shared.isEmpty else {
            context.report(member.period, Self.hidesOwnView, [Self.hidingStateArgument: shared.sorted().joined(separator: ", "),
                                                              "states": shared.sorted().map { "`\($0)`" }.joined(separator: ", ")])
            return
        }
        let ownMethods = Self.ownMethodCalls(in: closure, context: context)
        let viewType = context.scope.currentType?.qualifiedName
        // Whether the view's own methods the closure calls write that state is known once the index is built.
        context.report(member.period, [Self.outlivesView, Self.hidesOwnView],
                       answering: .viewStateWrittenBy(methods: ownMethods.sorted(), viewType: viewType, conditionNames: conditionNames),
                       answerArguments: [Self.hidingStateArgument, "states"])
    }

    /// The state that shows the view and that its load may change (`hasNextPage`); present, there is no fix.
    static let hidingStateArgument = "hidingState"

    /// Names read by the `if` conditions and `switch` subjects that decide, within the declaration that builds
    /// it, whether the modified view is shown.
    static func namesShowingView(_ call: FunctionCallExprSyntax) -> Set<String> {
        var names: Set<String> = []
        var node = Syntax(call)
        while let parent = node.parent, !parent.is(DeclSyntax.self) {
            if let branch = parent.as(IfExprSyntax.self), Syntax(branch.conditions).id != node.id {
                names.formUnion(identifiers(in: branch.conditions))
            } else if let switchCase = parent.as(SwitchCaseSyntax.self),
                      let subject = switchCase.parent?.parent?.as(SwitchExprSyntax.self)?.subject {
                names.formUnion(identifiers(in: subject))
            }
            node = parent
        }
        return names
    }

    static func identifiers(in node: some SyntaxProtocol) -> Set<String> {
        Set(node.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .identifier(let name) = token.tokenKind { return name }
            return nil
        })
    }

    /// Calls of the view's own methods in the closure: `load()` and `self.load()`.
    static func ownMethodCalls(in closure: ClosureExprSyntax, context: FileContext) -> Set<String> {
        var names: Set<String> = []
        for token in closure.tokens(viewMode: .sourceAccurate) {
            // An uppercase callee is a type being built (`Task { }`), not a method.
            guard case .identifier(let name) = token.tokenKind, name.first?.isUppercase == false,
                  let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            let callee: ExprSyntax
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                guard let base = member.base, SyntaxFacts.isSelf(base) else { continue }
                callee = ExprSyntax(member)
            } else {
                callee = ExprSyntax(reference)
            }
            // `load?()`: an optional closure called through its optional chain.
            let called = callee.parent?.as(OptionalChainingExprSyntax.self).map(ExprSyntax.init) ?? callee
            if let call = called.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == called.id { names.insert(name) }
        }
        return names
    }
}
