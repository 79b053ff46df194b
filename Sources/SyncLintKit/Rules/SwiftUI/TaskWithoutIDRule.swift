import SwiftSyntax

/// `.task { }` without `id:` in a view, working on a value passed into the view.
public final class TaskWithoutIDRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "task_without_id",
        name: "Task Without ID",
        whatItDoes: """
            Finds a `.task { }` modifier without `id:` in a SwiftUI view whose closure works on a value \
            passed into the view: a plain stored `let`/`var` without an initial value, or a property wrapped \
            in `@Bindable`, `@ObservedObject` or `@Binding`.
            """,
        whyIsThisBad: """
            A `.task` without `id:` runs once per view identity. When the parent passes a different value \
            (another article, a view model whose model CloudKit just changed), the running task is neither \
            cancelled nor restarted, so it finishes against the old value or races a second load: the \
            Luego reader's endless spinner (seeds 000 and 001, Issue 1). `.task(id:)` with the value's stable \
            identity cancels the old task and starts a new one exactly when the identity changes.
            """,
        seed: "000, 001",
        triggeringExamples: [
            RuleExample("""
                struct ReaderView: View {
                    @Bindable var viewModel: ReaderViewModel
                    var body: some View {
                        Text("Reader")
                            ↓.task {
                                await viewModel.loadContent()
                            }
                    }
                }
                """),
            RuleExample("""
                struct ItemView: View {
                    let item: Item
                    var body: some View {
                        Text(item.title)↓.task { await load(self.item) }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
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
        ],
        knownLimitations: """
            Only properties declared in the view's own declaration count; a `.task` in an extension of the \
            view is not checked. A value passed in that never changes for the view's lifetime (a constant \
            configuration) is reported too: suppress it, or pass it as `id:`.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self),
              ScopeBuilder.classify(call) == .viewTask,
              SyntaxFacts.argument("id", of: call) == nil,
              let closure = SyntaxFacts.closures(of: call).first,
              let view = context.scope.currentType, view.isView,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return }
        let properties = ViewProperties(typeNode: view.node)
        guard let used = properties.injectedNames(usedIn: closure).first else { return }
        let typeName = properties.injected[used] ?? ""
        context.report(member.period) { index in
            let identity = StableIdentity.suggestion(for: used, typeName: typeName, index: index)
            return "`.task` without `id:` works on `\(used)`, which is passed into the view: when it changes the task is " +
                "neither cancelled nor restarted; use `.task(id: \(identity))` so it restarts exactly when the identity changes"
        }
    }
}
