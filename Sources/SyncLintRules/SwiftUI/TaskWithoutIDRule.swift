import SwiftSyntax

/// `.task { }` without `id:` in a view, working on a value passed into the view.
public final class TaskWithoutIDRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "task_without_id",
        name: "Task Without ID",
        whatItDoes: """
            Finds a `.task { }` modifier without `id:` in a SwiftUI view whose closure awaits work on a value \
            passed into the view (a plain stored `let`/`var` without an initial value, or a property wrapped \
            in `@Bindable`, `@ObservedObject` or `@Binding`) when that value is a persistent model (SwiftData \
            `@Model`, Core Data `NSManagedObject`) or holds one; or, for any value, when the view is shown in a `NavigationSplitView` column \
            (built in its detail column, or pushed by a `NavigationLink` or `navigationDestination` from its \
            sidebar), which keeps the view (and its task) while the selection changes: that place is given as a \
            note, with high confidence when the construction is in the column itself (or the value is a model).
            """,
        whyIsThisBad: """
            A `.task` without `id:` runs once per view identity. When the parent passes a different value \
            (another article, a view model whose model CloudKit just changed), the running task is neither \
            cancelled nor restarted, so it finishes against the old value or races a second load, and a \
            spinner may never stop. `.task(id:)` with the value's stable \
            identity cancels the old task and starts a new one exactly when the identity changes.
            """,
        seed: "000, 001",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @Model final class Article { var id: UUID = UUID() }
                @Observable final class ReaderViewModel { var article: Article; init(article: Article) { self.article = article } }
                struct ReaderView: View {
                    @Bindable var viewModel: ReaderViewModel
                    var body: some View {
                        Text("Reader")
                            ↓.task {
                                await viewModel.loadContent()
                            }
                    }
                }
                """, fixed: """
                @Model final class Article { var id: UUID = UUID() }
                @Observable final class ReaderViewModel { var article: Article; init(article: Article) { self.article = article } }
                struct ReaderView: View {
                    @Bindable var viewModel: ReaderViewModel
                    var body: some View {
                        Text("Reader")
                            .task(id: viewModel.article.id) {
                                await viewModel.loadContent()
                            }
                    }
                }
                """),
            RuleExample("""
                final class Item: NSManagedObject { @NSManaged var name: String? }
                struct ItemView: View {
                    let item: Item
                    var body: some View {
                        Text(item.title)↓.task { await load(self.item) }
                    }
                }
                """, fixed: """
                final class Item: NSManagedObject { @NSManaged var name: String? }
                struct ItemView: View {
                    let item: Item
                    var body: some View {
                        Text(item.title).task(id: item.objectID) { await load(self.item) }
                    }
                }
                """),
            RuleExample("""
                struct Route: Hashable { var id: String; var name: String }
                struct RoutesView: View {
                    @State private var selection: Route?
                    let routes: [Route]
                    var body: some View {
                        NavigationSplitView {
                            List(routes, id: \\.self, selection: $selection) { Text($0.name) }
                        } detail: {
                            if let selection { RouteDetail(route: selection) }
                        }
                    }
                }
                struct RouteDetail: View {
                    let route: Route
                    @State private var stops: [String] = []
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            ↓.task { stops = await loadStops(for: route.id) }
                    }
                }
                """, fixed: """
                struct Route: Hashable { var id: String; var name: String }
                struct RoutesView: View {
                    @State private var selection: Route?
                    let routes: [Route]
                    var body: some View {
                        NavigationSplitView {
                            List(routes, id: \\.self, selection: $selection) { Text($0.name) }
                        } detail: {
                            if let selection { RouteDetail(route: selection) }
                        }
                    }
                }
                struct RouteDetail: View {
                    let route: Route
                    @State private var stops: [String] = []
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            .task(id: route.id) { stops = await loadStops(for: route.id) }
                    }
                }
                """, notes: ["`route` changes here while the view keeps its identity: it is shown in a `NavigationSplitView` column, which keeps its view while the selection changes"],
                confidence: .high),
            RuleExample("""
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct Inspector: View {
                    let selected: TodoTask
                    var body: some View { TaskEditor(task: selected) }
                }
                struct TaskEditor: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title)↓.task { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """, fixed: """
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct Inspector: View {
                    let selected: TodoTask
                    var body: some View { TaskEditor(task: selected) }
                }
                struct TaskEditor: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title).task(id: task.persistentModelID) { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """),
            RuleExample("""
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct TaskList: View {
                    let tasks: [TodoTask]
                    var body: some View {
                        NavigationSplitView {
                            List(tasks) { task in NavigationLink(task.title) { TaskEditor(task: task) } }
                        } detail: { Text("Pick a task") }
                    }
                }
                struct TaskEditor: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title)↓.task { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """, fixed: """
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct TaskList: View {
                    let tasks: [TodoTask]
                    var body: some View {
                        NavigationSplitView {
                            List(tasks) { task in NavigationLink(task.title) { TaskEditor(task: task) } }
                        } detail: { Text("Pick a task") }
                    }
                }
                struct TaskEditor: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title).task(id: task.persistentModelID) { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """, confidence: .high),
            // A destination pushed from a view shown in a split view's sidebar is shown in the detail column, which
            // keeps it while the sidebar's selection changes.
            RuleExample("""
                struct Route: Hashable { var id: String; var name: String }
                struct Shell: View {
                    var body: some View {
                        NavigationSplitView { RouteSidebar() } detail: { Text("Pick a route") }
                    }
                }
                struct RouteSidebar: View {
                    let routes: [Route] = []
                    var body: some View {
                        List(routes, id: \\.self) { route in NavigationLink(route.name, value: route) }
                            .navigationDestination(for: Route.self) { route in RouteDetail(route: route) }
                    }
                }
                struct RouteDetail: View {
                    let route: Route
                    @State private var stops: [String] = []
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            ↓.task { stops = await loadStops(for: route.id) }
                    }
                }
                """, fixed: """
                struct Route: Hashable { var id: String; var name: String }
                struct Shell: View {
                    var body: some View {
                        NavigationSplitView { RouteSidebar() } detail: { Text("Pick a route") }
                    }
                }
                struct RouteSidebar: View {
                    let routes: [Route] = []
                    var body: some View {
                        List(routes, id: \\.self) { route in NavigationLink(route.name, value: route) }
                            .navigationDestination(for: Route.self) { route in RouteDetail(route: route) }
                    }
                }
                struct RouteDetail: View {
                    let route: Route
                    @State private var stops: [String] = []
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            .task(id: route.id) { stops = await loadStops(for: route.id) }
                    }
                }
                """, confidence: .high),
            // No `id`, an `id` that is `Bool` (a flag flips), an `id` that is optional: the index shows no identity
            // that compiles, so the message names no code and there is no fix.
            RuleExample("""
                struct Plain: Hashable { var name: String }
                struct Flag: Hashable { var id: Bool; var name: String }
                struct Draft: Hashable { var id: UUID?; var name: String }
                struct Columns: View {
                    @State private var plain: Plain?
                    @State private var flag: Flag?
                    @State private var draft: Draft?
                    var body: some View {
                        NavigationSplitView { Text("Sidebar") } detail: {
                            if let plain { PlainDetail(value: plain) }
                            if let flag { FlagDetail(value: flag) }
                            if let draft { DraftDetail(value: draft) }
                        }
                    }
                }
                struct PlainDetail: View {
                    let value: Plain
                    var body: some View { Text(value.name)↓.task { await load(value.name) } }
                }
                struct FlagDetail: View {
                    let value: Flag
                    var body: some View { Text(value.name)↓.task { await load(value.name) } }
                }
                struct DraftDetail: View {
                    let value: Draft
                    var body: some View { Text(value.name)↓.task { await load(value.name) } }
                }
                """),
            // An `id` that is optional is no identity; a SwiftData model always has `persistentModelID`.
            RuleExample("""
                @Model final class Note { var id: UUID?; var text: String = "" }
                struct NoteView: View {
                    let note: Note
                    var body: some View {
                        Text(note.text)↓.task { await index(note) }
                    }
                }
                """, fixed: """
                @Model final class Note { var id: UUID?; var text: String = "" }
                struct NoteView: View {
                    let note: Note
                    var body: some View {
                        Text(note.text).task(id: note.persistentModelID) { await index(note) }
                    }
                }
                """),
            // `item.objectID` does not compile on an optional property: no code, no fix.
            RuleExample("""
                final class Item: NSManagedObject { @NSManaged var name: String? }
                struct ItemView: View {
                    let item: Item?
                    var body: some View {
                        Text("Item")↓.task { await load(item) }
                    }
                }
                """),
            // A binding the task reads, in a split view's detail column.
            RuleExample("""
                struct Shell: View {
                    @State private var query = ""
                    var body: some View {
                        NavigationSplitView { TextField("Search", text: $query) } detail: { ResultsBox(query: $query) }
                    }
                }
                struct ResultsBox: View {
                    @Binding var query: String
                    @State private var results: [String] = []
                    var body: some View {
                        List(results, id: \\.self) { Text($0) }↓.task { results = await search(query) }
                    }
                }
                """, message: "key_on_unknown_identity", confidence: .high),
            // The column is given a value that changes while it stays.
            RuleExample("""
                struct Shell: View {
                    @State private var feed = "home"
                    var body: some View {
                        NavigationSplitView { FeedPicker(feed: $feed) } detail: { FeedColumn(feedName: feed) }
                    }
                }
                struct FeedColumn: View {
                    let feedName: String
                    @State private var posts: [String] = []
                    var body: some View {
                        List(posts, id: \\.self) { Text($0) }↓.task { posts = await load(feedName) }
                    }
                }
                """, confidence: .high),
        ],
        nonTriggeringExamples: [
            // Re-identified through the container it is built in: a new identity, and a new task, per task.
            RuleExample("""
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct Inspector: View {
                    let selected: TodoTask
                    var body: some View {
                        Group { TaskEditor(task: selected) }.padding().id(selected.uid)
                    }
                }
                struct TaskEditor: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title).task { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """),
            // Built in a row's body, and the row per task: the editor goes with its row.
            RuleExample("""
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct TaskList: View {
                    let tasks: [TodoTask]
                    var body: some View { List { ForEach(tasks) { task in TaskRow(task: task) } } }
                }
                struct TaskRow: View {
                    let task: TodoTask
                    var body: some View { HStack { TaskBadge(task: task) } }
                }
                struct TaskBadge: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title).task { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """),
            // A `NavigationStack` pushes a new destination per link: its task starts for each task.
            RuleExample("""
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct TaskList: View {
                    let tasks: [TodoTask]
                    var body: some View {
                        NavigationStack {
                            List(tasks) { task in NavigationLink(task.title) { TaskEditor(task: task) } }
                        }
                    }
                }
                struct TaskEditor: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title).task { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """),
            RuleExample("""
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct TaskList: View {
                    let tasks: [TodoTask]
                    var body: some View {
                        List { ForEach(tasks) { task in TaskRow(task: task) } }
                    }
                }
                struct TaskRow: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title).task { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """),
            RuleExample("""
                @Model final class TodoTask { var uid: String = ""; var title: String = "" }
                struct Inspector: View {
                    let selected: TodoTask
                    var body: some View { TaskEditor(task: selected).id(selected.uid) }
                }
                struct TaskEditor: View {
                    let task: TodoTask
                    @State private var hasAlert = false
                    var body: some View {
                        Text(task.title).task { hasAlert = await alerts.contains(task.uid) }
                    }
                }
                """),
            RuleExample("""
                struct ReaderView: View {
                    @Bindable var viewModel: ReaderViewModel
                    var body: some View {
                        Text("Reader")
                            .task(id: viewModel.article.id) {
                                await viewModel.loadContent()
                            }
                    }
                }
                """),
            RuleExample("""
                struct ReaderView: View {
                    @Bindable var viewModel: ReaderViewModel
                    var body: some View {
                        VStack { Text(viewModel.title) }
                            .task {
                                // One-time setup: analytics tracking, background sync
                                await trackScreenView()
                            }
                    }
                }
                """),
            RuleExample("""
                struct LibraryView: View {
                    @State private var model = LibraryModel()
                    @Environment(\\.modelContext) private var context
                    let title = "Library"
                    var body: some View {
                        List(model.items) { Text($0.name) }
                            .task { await model.load(into: context) }
                    }
                }
                """),
            RuleExample("""
                final class Loader {
                    let item: Item
                    func start() { worker.task { await process(item) } }
                }
                """),
            RuleExample("""
                @Model final class Relationship { var note: String = "" }
                struct NoteEditor: View {
                    let relationship: Relationship?
                    @State private var note = ""
                    var body: some View {
                        TextField("Note", text: $note).task { note = relationship?.note ?? "" }
                    }
                }
                """),
            RuleExample("""
                struct Route: Hashable { var id: String; var name: String }
                struct RoutesView: View {
                    let routes: [Route]
                    var body: some View {
                        NavigationStack {
                            List(routes, id: \\.self) { route in
                                NavigationLink(route.name, value: route)
                            }
                            .navigationDestination(for: Route.self) { route in RouteDetail(route: route) }
                        }
                    }
                }
                struct RouteDetail: View {
                    let route: Route
                    @State private var stops: [String] = []
                    var body: some View {
                        List(stops, id: \\.self) { Text($0) }
                            .task { stops = await loadStops(for: route.id) }
                    }
                }
                """),
            RuleExample("""
                struct SearchStore { var query: String }
                struct SuggestionsView: View {
                    var store: SearchStore
                    var body: some View {
                        ProgressView().task { await suggest(for: store.query) }
                    }
                }
                """),
            // A binding the task only assigns is where it reports a result: an output, not a value it works on.
            RuleExample("""
                struct Shell: View {
                    @State private var errorText: String?
                    var body: some View {
                        NavigationSplitView { Text("Sidebar") } detail: { UpdatesBox(errorOutReason: $errorText) }
                    }
                }
                struct UpdatesBox: View {
                    @Binding var errorOutReason: String?
                    @State private var count = 0
                    var body: some View {
                        ProgressView().task {
                            do { count = try await tracker.outdatedCount() } catch { errorOutReason = error.localizedDescription }
                        }
                    }
                }
                """),
            // Every place that builds the column passes the same constant, directly or through a `let` of the view
            // that builds it: the value never changes while the view stays.
            RuleExample("""
                struct Shell: View {
                    var body: some View {
                        NavigationSplitView { Text("Sidebar") } detail: { FeedColumn(feedName: "home") }
                    }
                }
                struct FeedColumn: View {
                    let feedName: String
                    @State private var posts: [String] = []
                    var body: some View {
                        List(posts, id: \\.self) { Text($0) }.task { posts = await load(feedName) }
                    }
                }
                """),
            RuleExample("""
                struct Shell: View {
                    var body: some View {
                        NavigationSplitView { Text("Sidebar") } detail: { Column(feedName: "home") }
                    }
                }
                struct Column: View {
                    let feedName: String
                    var body: some View { FeedList(feedName: feedName) }
                }
                struct FeedList: View {
                    let feedName: String
                    @State private var posts: [String] = []
                    var body: some View {
                        List(posts, id: \\.self) { Text($0) }.task { posts = await load(feedName) }
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21): 3 findings, 1 right (a modal sheet whose value cannot change while shown; a flag set only while another screen is shown). \
            A view the app builds only per value (a `ForEach`, `List` or `Table` row, `navigationDestination(for:)` \
            or a `NavigationLink` outside a split view's sidebar, `sheet(item:)`, or re-identified with `.id(…)`, \
            on the view or on a container it is built in), or only inside views built so, is not reported: each \
            value gets its own task. A destination pushed from a split view's sidebar is reported: the detail \
            column keeps it while the selection changes. A plain value in a view built inside a view that is shown \
            in a split view's column is reported with medium confidence (its argument may not follow the selection). \
            A `@Binding` (or other injected value) the task only assigns (`errorText = error.localizedDescription`) is an \
            output, not a value it works on. A view that every construction in the app gives the same constant (`"home"`, \
            `.red`) for the value, directly or through a `let` of the view that builds it, is not reported: the value \
            never changes while the view stays. Only properties declared in the view's own declaration count; a `.task` in an extension of the \
            view is not checked. To stay precise on real apps (tried on IceCubes: one-time `@State` setup and \
            one-shot loads of plain values made most of the noise) the rule stays quiet when the closure never \
            awaits, and when the value is not a persistent model and holds none the index knows: a detail view \
            that loads a plain `Identifiable` struct without `id:` is reported only when the index sees it built in a \
            split view's column; a view reused with a new argument elsewhere is not seen. A model \
            passed to a view that is recreated for every new model in a way the index does not follow (a row built \
            in a helper function) is reported although its task does restart; suppress it there. \
            The message names an identity, and the fix (unsafe: the task will restart whenever the identity \
            changes) adds `id:` with it, only when the index shows one that compiles: an `id` (or `uuid`) that is \
            neither optional nor `Bool` and is `Equatable` (a known type, a project type that conforms, or any \
            `id` of an `Identifiable` type), a SwiftData model's `persistentModelID`, a managed object's \
            `objectID`; on an optional property, or a type whose identity the index does not show, it names none \
            and has no fix.
            """,
        fixSafety: .unsafe,
        messages: [keyOnIdentity, keyOnUnknownIdentity])
    static let keyOnIdentity = RuleMessage("key_on_identity", "`.task` without `id:` works on `{value}`, which is passed into the view: when it changes the task is neither cancelled nor restarted; use `.task(id: {0})` so it restarts exactly when the identity changes")
    static let keyOnUnknownIdentity = RuleMessage("key_on_unknown_identity", "`.task` without `id:` works on `{value}`, which is passed into the view: when it changes the task is neither cancelled nor restarted; use `.task(id:)` with a stable identity of `{value}` (an `Equatable` value, neither optional nor `Bool`) so it restarts exactly when the identity changes")

    /// The argument holding the identity expression the fix writes (`item.objectID`); absent when the index
    /// shows no identity that compiles, and then there is no fix.
    static let identityArgument = "identity"

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self),
              context.calleeMethodName(call) == "task", ScopeBuilder.classify(call) == .viewTask,
              SyntaxFacts.argument("id", of: call) == nil,
              let closure = SyntaxFacts.closures(of: call).first,
              let view = context.scope.currentType, view.isView,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return }
        guard SyntaxFacts.containsAwait(closure.statements) else { return }
        let properties = ViewProperties(typeNode: view.node)
        // What the task works on: a `@Binding` it only assigns is an output, not a value it depends on.
        guard let used = properties.injectedInputs(usedIn: closure).first else { return }
        let typeName = properties.injected[used] ?? ""
        let isOptional = properties.optional.contains(used)
        let viewName = view.qualifiedName
        // Quiet unless the value can change under the task (`IndexQuery.taskIdentity`); `{0}` is its identity,
        // which the fix writes: it comes from the index, never from the message.
        context.report(member.period, [Self.keyOnIdentity, Self.keyOnUnknownIdentity], ["value": used], answering: .taskIdentity(value: used, typeName: typeName, view: viewName, isOptional: isOptional),
           answerArguments: [Self.identityArgument])
    }
}
