import SwiftSyntax

/// `.task(id:)` keyed on a mutable, non-identity property or a computed property.
public final class UnstableTaskIDRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "unstable_task_id",
        name: "Unstable Task ID",
        whatItDoes: """
            Finds `.task(id: expr)` where `expr` ends in a mutable stored property (`var`) of a persistent \
            model (SwiftData `@Model`, Core Data `NSManagedObject`) that is not an identity (`id`, `...ID`, \
            `persistentModelID`, `objectID`, `uuid`), or in a computed property of a model, observable or \
            view-model type.
            """,
        whyIsThisBad: """
            SwiftUI cancels and restarts the task every time the id changes. A title or a status that CloudKit \
            sync rewrites mid-load restarts the load under the user's feet, and a computed property can change on \
            every evaluation. The id should be immutable for the \
            entity's lifetime: its `id`.
            """,
        seed: "000",
        triggeringExamples: [
            RuleExample("""
                @Model final class Article { var id: UUID = UUID(); var title: String = "" }
                @Observable final class ReaderViewModel { var article: Article; init(article: Article) { self.article = article } }
                struct ReaderView: View {
                    @Bindable var viewModel: ReaderViewModel
                    var body: some View {
                        Text("")↓.task(id: viewModel.article.title) { await viewModel.loadContent() }
                    }
                }
                """),
            RuleExample("""
                @Observable final class ReaderViewModel {
                    var article: Article?
                    var computedProperty: String { article?.title ?? "" }
                }
                struct ReaderView: View {
                    @State private var viewModel = ReaderViewModel()
                    var body: some View {
                        Text("")↓.task(id: viewModel.computedProperty) { await viewModel.loadContent() }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Model final class Article { var id: UUID = UUID(); var title: String = "" }
                @Observable final class ReaderViewModel { var article: Article; init(article: Article) { self.article = article } }
                struct ReaderView: View {
                    @Bindable var viewModel: ReaderViewModel
                    var body: some View {
                        Text("").task(id: viewModel.article.id) { await viewModel.loadContent() }
                    }
                }
                """),
            RuleExample("""
                struct SearchView: View {
                    @State private var query = ""
                    var body: some View {
                        TextField("Search", text: $query).task(id: query) { await search(query) }
                    }
                }
                """),
            RuleExample("""
                @Observable final class SearchViewModel { var searchQuery = "" }
                struct AccountsListView: View {
                    @State private var viewModel = SearchViewModel()
                    var body: some View {
                        List {}.task(id: viewModel.searchQuery) { await viewModel.search() }
                    }
                }
                """),
            RuleExample("""
                struct Settings { let accountName: String }
                struct AccountView: View {
                    let settings: Settings
                    var body: some View {
                        Text("").task(id: settings.accountName) { await refresh() }
                    }
                }
                """),
        ],
        knownLimitations: """
            The chain is followed through the project index only: a root that is a local or a closure \
            parameter (`ForEach(items) { item in ... .task(id: item.title) }`) is not checked, nor are types \
            declared outside the project. A stored property of an observable view model (a search query, a \
            setting) is usually meant to restart the task, so only persistent models' properties are reported \
            (on IceCubes, six settings and two search queries were such intended restarts). A computed property \
            that is meant to restart the task on every change of its inputs is reported; suppress it there. A \
            computed property's findings have medium confidence (shown with `--confidence medium`): what its getter \
            reads is not followed, and a key computed from an entity's fixed fields is as stable as its `id` (one \
            judged finding on apps nobody tuned on, wrong for that reason; docs/precision.md, round 8).
            """,
        messages: [computedKey, syncedKey])
    static let computedKey = RuleMessage("computed_key", "`.task(id: {expression})` is keyed on a computed property that can change on every evaluation; use `.task(id:)` with the entity's immutable identity (such as its `id`)")
    static let syncedKey = RuleMessage("synced_key", "`.task(id: {expression})` restarts whenever `{0}` changes, and sync can change it mid-load; use `.task(id:)` with the entity's immutable identity (such as its `id`)")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self),
              context.calleeMethodName(call) == "task", ScopeBuilder.classify(call) == .viewTask,
              let id = SyntaxFacts.argument("id", of: call),
              let path = SyntaxFacts.memberPath(id), let last = path.members.last,
              !TypeNames.isIdentityName(last),
              let view = context.scope.currentType, view.isView,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return }
        let rootName = path.root == "self" ? path.members.first : path.root
        let members = path.root == "self" ? Array(path.members.dropFirst()) : path.members
        guard let rootName, !members.isEmpty,
              let rootType = ViewProperties(typeNode: view.node).types[rootName] else { return }
        let expression = id.trimmedText
        context.report(member.period, [Self.computedKey, Self.syncedKey], ["expression": expression], answering: .taskIDMember(rootType: rootType, members: members))
    }
}
