import SwiftSyntax

/// Something started when a view appears and never stopped when it disappears.
public final class MissingDisappearCleanupRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "missing_disappear_cleanup",
        name: "Missing Disappear Cleanup",
        whatItDoes: """
            Finds `x.startSomething()` in a view's `.onAppear` where the type of `x` (from the project index) has a \
            matching `stopSomething()` or `cancelSomething()`, and the view has no `.onDisappear` that calls it.
            """,
        whyIsThisBad: """
            Animations, timers and observers started on appear keep running after the view is gone: they burn \
            CPU, hold the objects they capture, and write to state no screen shows.
            """,
        seed: "002",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @Model final class Die {
                    var value: Int = 1
                    func startAnimation() {}
                    func stopAnimation() {}
                }
                struct DieView: View {
                    let die: Die
                    var body: some View {
                        Text("\\(die.value)")
                            .onAppear { ↓die.startAnimation() }
                    }
                }
                """),
            RuleExample("""
                final class LocationFeed { func startUpdates() {}; func cancelUpdates() {} }
                struct MapScreen: View {
                    @State private var feed = LocationFeed()
                    var body: some View {
                        MapView().onAppear {
                            ↓feed.startUpdates()
                        }
                        .onDisappear { print("bye") }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Model final class Die {
                    var value: Int = 1
                    func startAnimation() {}
                    func stopAnimation() {}
                }
                struct DieView: View {
                    let die: Die
                    var body: some View {
                        Text("\\(die.value)")
                            .onAppear { die.startAnimation() }
                            .onDisappear { die.stopAnimation() }
                    }
                }
                """),
            RuleExample("""
                final class Session { func startSession() {} }
                struct Root: View {
                    let session: Session
                    var body: some View { Text("").onAppear { session.startSession() } }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21): 1 finding, wrong (a view the app never builds, which owns its manager). \
            Only `.onAppear` closures are checked, and only receivers that are stored properties of the view with a \
            written or simply inferred type. A stop called from somewhere else (a parent view, `deinit`) is not seen.
            """,
        messages: [neverStopped])
    static let neverStopped = RuleMessage("never_stopped", "`{receiver}.{method}()` runs on appear but nothing stops it; call `{receiver}.{0}()` in `.onDisappear`")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self),
              let appear = context.scope.currentClosure, appear.kind == .onAppear,
              let view = context.scope.currentType, view.isView,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let receiver = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text else { return }
        let method = member.declName.baseName.text
        guard method.hasPrefix("start"), method.count > 5,
              let receiverType = ViewProperties(typeNode: view.node).types[receiver] else { return }
        let subject = String(method.dropFirst(5))
        let stoppers = ["stop" + subject, "cancel" + subject]
        let stoppedOnDisappear = Self.disappearCalls(in: view.node).contains { stoppers.contains($0) }
        guard !stoppedOnDisappear else { return }
        context.report(call, Self.neverStopped, ["receiver": receiver, "method": method], answering: .firstMethod(ofType: receiverType, named: stoppers))
    }

    /// Method names called inside the view's `.onDisappear` closures.
    static func disappearCalls(in view: Syntax) -> Set<String> {
        var names: Set<String> = []
        for token in view.tokens(viewMode: .sourceAccurate) where token.text == "onDisappear" {
            guard let call = token.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
                    ?? token.parent?.parent?.as(FunctionCallExprSyntax.self),
                  let closure = SyntaxFacts.closures(of: call).first else { continue }
            for inner in closure.tokens(viewMode: .sourceAccurate) {
                if case .identifier(let name) = inner.tokenKind { names.insert(name) }
            }
        }
        return names
    }
}
