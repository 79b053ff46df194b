import SwiftSyntax

/// `.onAppear { Task { ... } }`: an unstructured task that outlives the view.
public final class OnAppearTaskRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "on_appear_task",
        name: "On Appear Task",
        whatItDoes: """
            Finds `.onAppear { }` whose closure starts a `Task { }` (as all of the closure, or as its async part).
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
        ],
        nonTriggeringExamples: [
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
            reported too; suppress it there. `--fix` rewrites `.onAppear { Task { ... } }` to `.task { ... }` only \
            when the `Task { }` is the whole closure, with no arguments and no capture list; other shapes are left \
            to you. \
            Opt-in: 9 of 15 findings right on eight public apps: run-once loads guarded by a flag, `onAppear` on menu content, and a load-more marker that hides itself, where `.task` would be cancelled at once; see docs/precision.md.
            """,
        fixSafety: .safe)

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
        guard startsTask else { return }
        context.report(member.period, "this `Task` outlives the view and is never cancelled; use `.task { }`, which is cancelled when the view disappears")
    }
}
