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
                """, message: "task_hides_own_view", confidence: .medium),
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
                """, message: "task_hides_own_view", confidence: .medium),
            // The task tests state before its work: it may run once, which the rule does not follow.
            RuleExample("""
                struct MainView: View {
                    @State private var hasInitializedFeed = false
                    var body: some View {
                        FeedView()↓.onAppear {
                            Task {
                                if !hasInitializedFeed {
                                    hasInitializedFeed = true
                                    await restoreLastFeed()
                                }
                            }
                        }
                    }
                }
                """, message: "task_outlives_view", confidence: .medium),
            // In a menu's content: the work is for one opening of the menu, and a `.task` would end as it closes.
            RuleExample("""
                struct StatusRow: View {
                    @State private var model: StatusRowModel
                    var body: some View {
                        Text(model.text)
                            .contextMenu {
                                Button("Follow") { model.follow() }
                                    ↓.onAppear { Task { await model.loadRelationship() } }
                            }
                    }
                }
                """, message: "task_outlives_view", confidence: .medium),
            // A window's root view (built in the scene, through plain containers) appears once per window and goes with
            // it: the task outliving it is not proven to outlive anything that matters: medium, with a note.
            RuleExample("""
                @main struct NotesApp: App {
                    var body: some Scene { WindowGroup { RootView() } }
                }
                struct RootView: View {
                    var body: some View { VStack { SessionView() } }
                }
                struct SessionView: View {
                    @State private var model = SessionModel()
                    var body: some View {
                        Text(model.status)↓.onAppear { Task { await model.connect() } }
                    }
                }
                """, fixed: """
                @main struct NotesApp: App {
                    var body: some Scene { WindowGroup { RootView() } }
                }
                struct RootView: View {
                    var body: some View { VStack { SessionView() } }
                }
                struct SessionView: View {
                    @State private var model = SessionModel()
                    var body: some View {
                        Text(model.status).task { await model.connect() }
                    }
                }
                """, message: "task_outlives_view", notes: ["the view is the root of a window or a hosting controller here, built once for it"],
                confidence: .medium),
            // The look-alike: the same view also presented in a sheet, shown and dismissed again and again: high.
            RuleExample("""
                @main struct NotesApp: App {
                    var body: some Scene { WindowGroup { RootView() } }
                }
                struct RootView: View {
                    @State private var showsSession = false
                    var body: some View {
                        SessionView().sheet(isPresented: $showsSession) { SessionView() }
                    }
                }
                struct SessionView: View {
                    @State private var model = SessionModel()
                    var body: some View {
                        Text(model.status)↓.onAppear { Task { await model.connect() } }
                    }
                }
                """, fixed: """
                @main struct NotesApp: App {
                    var body: some Scene { WindowGroup { RootView() } }
                }
                struct RootView: View {
                    @State private var showsSession = false
                    var body: some View {
                        SessionView().sheet(isPresented: $showsSession) { SessionView() }
                    }
                }
                struct SessionView: View {
                    @State private var model = SessionModel()
                    var body: some View {
                        Text(model.status).task { await model.connect() }
                    }
                }
                """, message: "task_outlives_view", confidence: .high),
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
            // Run once per view (the flag is never set back): the task is started once, not on every appearance, and
            // `.task` would be cancelled and never run again; it still outlives the view.
            RuleExample("""
                struct EditorView: View {
                    @State private var store = EditorStore()
                    @State private var hasInitialized = false
                    var body: some View {
                        TextEditor(text: $store.text)
                            ↓.onAppear {
                                guard !hasInitialized else { return }
                                hasInitialized = true
                                Task { await store.prepare() }
                            }
                    }
                }
                """, message: "task_outlives_view", confidence: .medium),
            RuleExample("""
                struct StopsView: View {
                    @State private var stops: [String] = []
                    @State private var didLoad = false
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            ↓.onAppear { load() }
                    }
                    func load() {
                        guard !didLoad else { return }
                        didLoad = true
                        Task { stops = await fetchStops() }
                    }
                }
                """, message: "task_started_by_callee", confidence: .medium),
            // The flag is set back when the view goes: the task starts again on every appearance.
            RuleExample("""
                struct FeedView: View {
                    @State private var model = FeedModel()
                    @State private var isShown = false
                    var body: some View {
                        List(model.posts) { Text($0.title) }
                            ↓.onAppear {
                                guard !isShown else { return }
                                isShown = true
                                Task { await model.refresh() }
                            }
                            .onDisappear { isShown = false }
                    }
                }
                """, message: "task_outlives_view", confidence: .high),
            // The awaited method suspends (a network load): the task can outlive the view.
            RuleExample("""
                @MainActor final class HistoryModel {
                    var entries: [String] = []
                    func loadInitialContent() async { entries = await api.entries() }
                }
                struct HistoryView: View {
                    @State private var model = HistoryModel()
                    var body: some View {
                        List(model.entries, id: \\.self) { Text($0) }
                            ↓.onAppear { Task { await model.loadInitialContent() } }
                    }
                }
                """, fixed: """
                @MainActor final class HistoryModel {
                    var entries: [String] = []
                    func loadInitialContent() async { entries = await api.entries() }
                }
                struct HistoryView: View {
                    @State private var model = HistoryModel()
                    var body: some View {
                        List(model.entries, id: \\.self) { Text($0) }
                            .task { await model.loadInitialContent() }
                    }
                }
                """, message: "task_outlives_view", confidence: .high),
        ],
        nonTriggeringExamples: [
            // Every method the task awaits has no `await` of its own (a synchronous fetch): it cannot suspend, so the task
            // runs to its end on its first turn and nothing is left to outlive the view.
            RuleExample("""
                @MainActor final class HistoryModel {
                    var entries: [String] = []
                    func loadInitialContent() async { entries = (try? context.fetch(request)) ?? [] }
                }
                struct HistoryView: View {
                    @State private var model = HistoryModel()
                    var body: some View {
                        List(model.entries, id: \\.self) { Text($0) }
                            .onAppear { Task { await model.loadInitialContent() } }
                    }
                }
                """),
            // The task never suspends: it runs to its end on the main actor's next turn, nothing is left to cancel.
            RuleExample("""
                struct SelectionRestorer: ViewModifier {
                    @Binding var selection: Set<Int>
                    func body(content: Content) -> some View {
                        content.onAppear {
                            guard let value = selection.first else { return }
                            selection.remove(value)
                            Task { @MainActor in selection.insert(value) }
                        }
                    }
                }
                """),
            // One call away, the same: the method's task never suspends.
            RuleExample("""
                struct ToastHost: View {
                    @State private var toasts: [String] = []
                    var body: some View {
                        List(toasts, id: \\.self) { Text($0) }
                            .onAppear { show("Welcome") }
                    }
                    func show(_ text: String) {
                        Task { @MainActor in toasts.append(text) }
                    }
                }
                """),
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
            // One call away, a task that uses nothing of the view: a save for the app, meant to outlive the screen.
            RuleExample("""
                struct UpdatesView: View {
                    let entries: [Entry]
                    var body: some View {
                        List(entries) { entry in
                            NavigationLink(destination: MangaView(manga: entry.manga).onAppear { setOpened(manga: entry.manga) }) {
                                Text(entry.title)
                            }
                        }
                    }
                    private func setOpened(manga: Manga) {
                        Task {
                            await LibraryStore.shared.setOpened(mangaId: manga.key)
                            NotificationCenter.default.post(name: .updateLibrary, object: nil)
                        }
                    }
                }
                """),
        ],
        knownLimitations: """
            A task that must outlive the view on purpose (fire-and-forget analytics, a save that must finish) is \
            reported when it is in the closure itself; a task with no `await` in it (here or one call away) (it runs to its end on the actor's \
            next turn) is not reported, nor one whose every `await` is a call of a project function with no `await` of \
            its own (`await loadInitialContent()` over a synchronous fetch: it cannot suspend, a hop to its actor aside); in a menu's content (`Menu { }`, `.contextMenu { }`: `FrameworkViewState.menuContentBuilders`) \
            the view appears each time the menu opens and a `.task` would end as it closes, so the finding is medium, \
            as it is for a task whose first statement tests state (`if !hasInitialized { ... }`: it may run once); \
            a load-more marker whose load writes what shows it (no fix) is medium too: the load is meant to outlive it; one call away, a task that uses nothing of the object that starts \
            it (neither `self` nor a member of its type: only its parameters and globals) is taken for such work and not \
            reported. A closure or method that runs its work once per view (`guard !hasInitialized else { return }` and \
            sets the flag `true`, with nothing setting it back) is reported with medium confidence: the task starts once, \
            and `.task` would be cancelled and never run again. The fix (unsafe: the task is now cancelled when the view disappears, \
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
        // A closure that runs its work once per view (`guard !hasInitialized else { return }; hasInitialized = true`,
        // nothing in the view sets the flag back) starts the task once, not on every appearance; and `.task` would be
        // cancelled and never run again. What is left is a task outliving the view: medium.
        // A view in a menu's content appears when the menu opens: work started there is for that opening, and a
        // `.task` would be cancelled as the menu closes. Whether outliving the menu does harm is not known: medium.
        let runsOnce = context.scope.currentType.map { Self.runsOnce(closure, in: $0.node) } == true
        let baseConfidence: Confidence = runsOnce || Self.isInMenuContent(call) ? .medium : .high
        let startedTasks = closure.statements.compactMap { item -> FunctionCallExprSyntax? in
            guard let started = Syntax(item.item).as(FunctionCallExprSyntax.self),
                  TaskFacts.isTaskCreation(started) && SyntaxFacts.calleeName(started) == "Task" else { return nil }
            return started
        }
        // A task that never suspends (`Task { @MainActor in selection.insert(value) }`) runs to its end on the actor's
        // next turn: nothing is left running to cancel.
        if !startedTasks.isEmpty, startedTasks.allSatisfy({ task in
            SyntaxFacts.closures(of: task).allSatisfy { !$0.statements.isEmpty && !SyntaxFacts.containsAwait($0.statements) }
        }) { return }
        let startsTask = !startedTasks.isEmpty
        // A task that tests state before its work (`Task { if !hasInitializedFeed { ... } }`, `guard loadingState ==
        // .idle`) may run its work once, or as a state machine's single flight, which the rule does not follow: medium.
        let confidence: Confidence = startsTask && startedTasks.allSatisfy(TaskHandleOverwrittenRule.testsStateFirst) ? .medium : baseConfidence
        guard startsTask else {
            // One call away: a method of the view the closure calls starts the task (known once the index is built).
            let ownMethods = Self.ownMethodCalls(in: closure, context: context)
            guard !ownMethods.isEmpty else { return }
            context.report(member.period, [Self.startedByCallee],
                           answering: .startsDiscardedTask(methods: ownMethods.sorted(), viewType: context.scope.currentType?.qualifiedName),
                           confidence: confidence)
            return
        }
        // A view shown only while a condition holds (a load-more marker under `if hasNextPage`) disappears when
        // its load flips that condition: with `.task` the load would cancel itself. What the condition reads,
        // the closure touches or the view's own methods it calls write, is that state: then there is no fix.
        let conditionNames = Self.namesShowingView(call)
        guard !conditionNames.isEmpty else {
            // A window's (or hosting controller's) root view appears once per window: medium (the index knows).
            guard let viewType = context.scope.currentType?.qualifiedName else {
                context.report(member.period, Self.outlivesView, confidence: confidence)
                return
            }
            // Every `await` of the task a call of a project function: the index tells whether any of them can suspend.
            if let calls = Self.awaitedCallsOnly(in: startedTasks, context: context) {
                context.report(member.period, Self.outlivesView, answering: .appearanceTaskAwaits(view: viewType, calls: calls), confidence: confidence)
            } else {
                context.report(member.period, Self.outlivesView, answering: .taskOutlivesView(view: viewType), confidence: confidence)
            }
            return
        }
        let touched = Self.identifiers(in: closure)
        let shared = conditionNames.intersection(touched)
        guard shared.isEmpty else {
            // The load writes what shows the view (a load-more marker): it is meant to finish after the view it hides,
            // so the task outliving the view is what the code needs, not proven harm: medium.
            context.report(member.period, Self.hidesOwnView, [Self.hidingStateArgument: shared.sorted().joined(separator: ", "),
                                                              "states": shared.sorted().map { "`\($0)`" }.joined(separator: ", ")],
                           confidence: .medium)
            return
        }
        let ownMethods = Self.ownMethodCalls(in: closure, context: context)
        let viewType = context.scope.currentType?.qualifiedName
        // Whether the view's own methods the closure calls write that state is known once the index is built.
        context.report(member.period, [Self.outlivesView, Self.hidesOwnView],
                       answering: .viewStateWrittenBy(methods: ownMethods.sorted(), viewType: viewType, conditionNames: conditionNames),
                       answerArguments: [Self.hidingStateArgument, "states"], confidence: confidence)
    }

    /// The calls the tasks await (`await model.load()`, `try await refresh()`), as the index can resolve them; nil when
    /// some `await` is not a plain call (`await task.value`, `for await`, `async let`), which may suspend whatever
    /// the index knows.
    static func awaitedCallsOnly(in tasks: [FunctionCallExprSyntax], context: FileContext) -> [CallReference]? {
        let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
        var calls: [CallReference] = []
        var other = false
        for task in tasks {
            for closure in SyntaxFacts.closures(of: task) {
                BodyScanner.scan(closure.statements) { node in
                    if let loop = node.as(ForStmtSyntax.self), loop.awaitKeyword != nil { other = true }
                    guard let suspension = node.as(AwaitExprSyntax.self) else { return }
                    guard let awaited = SyntaxFacts.withoutTryOrAwait(suspension.expression).as(FunctionCallExprSyntax.self), !SyntaxFacts.containsAwait(awaited.arguments) else {
                        other = true
                        return
                    }
                    let method = SyntaxFacts.calleeMethodName(awaited)
                    if let member = awaited.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, !SyntaxFacts.isSelf(base) {
                        calls.append(CallReference(caller: caller, callee: method, receiver: ValueTypes.of(base, in: context)))
                    } else {
                        calls.append(CallReference(caller: caller, callee: method, receiver: nil))
                    }
                }
            }
        }
        return other || calls.isEmpty ? nil : calls
    }

    /// Whether the modifier is applied inside the content closure of a menu (`FrameworkViewState.menuContentBuilders`:
    /// `Menu { ... }`, `.contextMenu { ... }`), up to the declaration that builds it.
    static func isInMenuContent(_ call: FunctionCallExprSyntax) -> Bool {
        var node = Syntax(call)
        while let parent = node.parent, !parent.is(DeclSyntax.self) {
            if let closure = node.as(ClosureExprSyntax.self) {
                let label = closure.parent?.as(LabeledExprSyntax.self)?.label?.text
                    ?? closure.parent?.as(MultipleTrailingClosureElementSyntax.self)?.label.text
                let builder = closure.parent?.as(FunctionCallExprSyntax.self)
                    ?? closure.parent?.parent?.as(FunctionCallExprSyntax.self)
                    ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
                if let builder {
                    let name = SyntaxFacts.calleeMethodName(builder)
                    let isFirstTrailing = builder.trailingClosure?.id == closure.id
                    if FrameworkViewState.menuContentBuilders.contains(where: { entry in
                        entry.name == name && (label == entry.contentLabel || (label == nil && isFirstTrailing))
                    }) { return true }
                }
            }
            node = parent
        }
        return false
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

    /// Whether the closure's first statements return on a flag of the view (`guard !hasInitialized else { return }`,
    /// `if hasInitialized { return }`) that the closure then sets `true`, and that nothing in the view's declaration
    /// sets back to anything else: the rest of the closure runs once per view.
    static func runsOnce(_ closure: ClosureExprSyntax, in view: Syntax) -> Bool {
        var guarded: Set<String> = []
        for item in closure.statements {
            if let guardStatement = item.item.as(GuardStmtSyntax.self) {
                for condition in guardStatement.conditions {
                    if let negation = condition.condition.as(PrefixOperatorExprSyntax.self), negation.operator.text == "!",
                       let flag = stateName(negation.expression) { guarded.insert(flag) }
                }
            } else if let ifStatement = item.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) ?? item.item.as(IfExprSyntax.self),
                      ifStatement.body.statements.last?.item.is(ReturnStmtSyntax.self) == true {
                for condition in ifStatement.conditions {
                    if let expression = condition.condition.as(ExprSyntax.self), let flag = stateName(expression) { guarded.insert(flag) }
                }
            } else {
                break
            }
        }
        guard !guarded.isEmpty else { return false }
        var setTrue: Set<String> = []
        var setOtherwise: Set<String> = []
        for node in view.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = node.tokenKind, guarded.contains(name),
                  let sequence = node.parent?.parent?.parent?.parent?.as(SequenceExprSyntax.self)
                    ?? node.parent?.parent?.parent?.as(SequenceExprSyntax.self),
                  let assignment = SyntaxFacts.assignment(sequence), stateName(assignment.target) == name else { continue }
            if SyntaxFacts.boolLiteral(assignment.value) == true, sequence.isInside(closure) { setTrue.insert(name) } else { setOtherwise.insert(name) }
        }
        return !setTrue.subtracting(setOtherwise).isEmpty
    }

    /// `flag` or `self.flag`.
    static func stateName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, SyntaxFacts.isSelf(base) { return member.declName.baseName.text }
        return nil
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
