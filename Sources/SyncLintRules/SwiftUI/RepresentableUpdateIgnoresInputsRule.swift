import SwiftSyntax

/// A `UIViewRepresentable`/`NSViewRepresentable` that configures its view from its inputs in `make…` and never
/// reads them again in `update…`.
public final class RepresentableUpdateIgnoresInputsRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "representable_update_ignores_inputs",
        name: "Representable Update Ignores Inputs",
        whatItDoes: """
            Finds a `UIViewRepresentable`, `NSViewRepresentable` or view-controller representable whose \
            `makeUIView`/`makeNSView` (or `makeUIViewController`/`makeNSViewController`) reads an input (a stored \
            property the parent passes: a plain `let`/`var` without a default, a `@Binding`, an `@ObservedObject`) \
            that its `update…` method never reads. Methods of the same type that either calls count as theirs, and an \
            `update…` that hands `self` on (`context.coordinator.parent = self`) reads every input.
            """,
        whyIsThisBad: """
            SwiftUI calls `make…` once per view identity and `update…` every time the parent passes new values \
            (Apple's documentation of `updateUIView(_:context:)`). An input applied only in `make…` is applied once: \
            when the parent later passes a new URL, text, colour or selection, the platform view keeps the old one, \
            and the screen silently disagrees with the app's state. Apply each input in `update…` too (comparing with \
            the view's current value where setting it is costly), or give the view a new identity with `.id(…)` when \
            the input changes.
            """,
        seed: "issue 23 candidate 7",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                struct WebView: UIViewRepresentable {
                    let url: URL
                    func makeUIView(context: Context) -> WKWebView {
                        let view = WKWebView()
                        view.load(URLRequest(url: url))
                        return view
                    }
                    func ↓updateUIView(_ uiView: WKWebView, context: Context) {}
                }
                """, confidence: .medium),
            // The browser passes its state: the web view stays while `url` changes, and keeps the first page.
            RuleExample("""
                struct Browser: View {
                    @State private var url = URL(string: "https://example.com")!
                    var body: some View {
                        VStack {
                            WebView(url: url)
                            Button("Next") { url = url.appendingPathComponent("next") }
                        }
                    }
                }
                struct WebView: UIViewRepresentable {
                    let url: URL
                    func makeUIView(context: Context) -> WKWebView {
                        let view = WKWebView()
                        view.load(URLRequest(url: url))
                        return view
                    }
                    func ↓updateUIView(_ uiView: WKWebView, context: Context) {}
                }
                """, notes: ["built here, where `url` can change while the view keeps its identity"], confidence: .high),
            // A Safari view takes its URL only when it is built: `update…` could not apply a new one (medium), though the
            // page goes stale all the same unless the parent gives it a new identity.
            RuleExample("""
                struct Browser: View {
                    @State private var url = URL(string: "https://example.com")!
                    var body: some View { SafariView(url: url) }
                }
                struct SafariView: UIViewControllerRepresentable {
                    let url: URL
                    func makeUIViewController(context: Context) -> SFSafariViewController { SFSafariViewController(url: url) }
                    func ↓updateUIViewController(_ controller: SFSafariViewController, context: Context) {}
                }
                """, notes: ["built here, where `url` can change while the view keeps its identity"], confidence: .medium),
            // One place passes a signed literal, another its `@State`: the second can change.
            RuleExample("""
                struct HelpScreen: View {
                    var body: some View { TextPanel(insets: UIEdgeInsets(top: 0, left: 0, bottom: 0, right: -20)) }
                }
                struct Editor: View {
                    @State private var insets = UIEdgeInsets()
                    var body: some View { TextPanel(insets: insets) }
                }
                struct TextPanel: UIViewRepresentable {
                    let insets: UIEdgeInsets
                    func makeUIView(context: Context) -> UITextView {
                        let view = UITextView()
                        view.verticalScrollIndicatorInsets = insets
                        return view
                    }
                    func ↓updateUIView(_ view: UITextView, context: Context) {}
                }
                """, notes: ["built here, where `insets` can change while the view keeps its identity"], confidence: .high),
            RuleExample("""
                struct SearchField: NSViewRepresentable {
                    @Binding var text: String
                    var placeholder: String
                    func makeNSView(context: Context) -> NSSearchField {
                        let field = NSSearchField()
                        field.placeholderString = placeholder
                        field.stringValue = text
                        return field
                    }
                    func ↓updateNSView(_ field: NSSearchField, context: Context) {
                        field.placeholderString = placeholder
                    }
                }
                """, confidence: .medium),
        ],
        nonTriggeringExamples: [
            // Constants built from signed literals and arrays of literals never change.
            RuleExample("""
                struct HelpScreen: View {
                    var body: some View { TextPanel(insets: UIEdgeInsets(top: 0, left: 0, bottom: 0, right: -20), stops: [0.2, -0.5]) }
                }
                struct TextPanel: UIViewRepresentable {
                    let insets: UIEdgeInsets
                    let stops: [Double]
                    func makeUIView(context: Context) -> UITextView {
                        let view = UITextView()
                        view.verticalScrollIndicatorInsets = insets
                        view.tag = stops.count
                        return view
                    }
                    func updateUIView(_ view: UITextView, context: Context) {}
                }
                """),
            // Every place that builds it passes a constant: the input never changes while the view lives.
            RuleExample("""
                struct HelpScreen: View {
                    var body: some View { WebView(url: URL(string: "https://example.com/help")!) }
                }
                struct WebView: UIViewRepresentable {
                    let url: URL
                    func makeUIView(context: Context) -> WKWebView {
                        let view = WKWebView()
                        view.load(URLRequest(url: url))
                        return view
                    }
                    func updateUIView(_ uiView: WKWebView, context: Context) {}
                }
                """),
            // Re-identified with the input: a new `url` makes a new web view, and `make…` runs again.
            RuleExample("""
                struct Browser: View {
                    @State private var url = URL(string: "https://example.com")!
                    var body: some View { WebView(url: url).id(url) }
                }
                struct WebView: UIViewRepresentable {
                    let url: URL
                    func makeUIView(context: Context) -> WKWebView {
                        let view = WKWebView()
                        view.load(URLRequest(url: url))
                        return view
                    }
                    func updateUIView(_ uiView: WKWebView, context: Context) {}
                }
                """),
            RuleExample("""
                struct WebView: UIViewRepresentable {
                    let url: URL
                    func makeUIView(context: Context) -> WKWebView { WKWebView() }
                    func updateUIView(_ uiView: WKWebView, context: Context) {
                        if uiView.url != url { uiView.load(URLRequest(url: url)) }
                    }
                }
                """),
            RuleExample("""
                struct MapView: UIViewRepresentable {
                    let region: MKCoordinateRegion
                    var onSelect: (String) -> Void
                    private let style = MKMapConfiguration()
                    func makeCoordinator() -> Coordinator { Coordinator(self) }
                    func makeUIView(context: Context) -> MKMapView {
                        let map = MKMapView()
                        map.delegate = context.coordinator
                        configure(map)
                        return map
                    }
                    func updateUIView(_ map: MKMapView, context: Context) {
                        context.coordinator.parent = self
                        configure(map)
                    }
                    private func configure(_ map: MKMapView) { map.setRegion(region, animated: false) }
                }
                """),
            RuleExample("""
                struct PlayerView: UIViewRepresentable {
                    let player: AVPlayer
                    func makeUIView(context: Context) -> PlayerUIView { PlayerUIView(player: player) }
                    func updateUIView(_ view: PlayerUIView, context: Context) { view.playerLayer.player = player }
                }
                """),
        ],
        knownLimitations: """
            Opt-in. Quiet when every place the app builds the view passes the ignored inputs a constant (a literal, a \
            static member, a type built from literals), or builds it only per value (a row, `.id(…)`, directly or \
            through the view around it): `make…` then runs for each value. Built nowhere the index sees (a UIKit \
            host, a preview), it is reported with medium confidence. An input the parent passes from a value it never \
            changes (a `let` of its own, a one-off URL in a sheet) still makes the finding harmless. Closures (`(T) -> Void`) are \
            not counted as inputs. A representable whose methods live in an extension is not checked, and helpers \
            are followed one call deep.
            """,
        messages: [ignoresInput, ignoresInputs])
    static let ignoresInput = RuleMessage("update_ignores_input", "`{make}` applies {names} but `{update}` never reads it, " +
        "so when the parent passes a new value the view keeps the old one; apply it in `{update}` too")
    static let ignoresInputs = RuleMessage("update_ignores_inputs", "`{make}` applies {names} but `{update}` never reads them, " +
        "so when the parent passes a new value the view keeps the old one; apply them in `{update}` too")

    public static let nodeKinds: Set<SyntaxKind> = [.structDecl]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let declaration = node.as(StructDeclSyntax.self),
              let representable = FrameworkViewState.representable(
                conformingTo: declaration.inheritanceClause?.inheritedTypes.map { SyntaxFacts.simpleTypeName($0.type) } ?? []) else { return }
        var methods: [String: FunctionDeclSyntax] = [:]
        for member in declaration.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self), function.body != nil else { continue }
            methods[function.name.text] = methods[function.name.text] ?? function
        }
        guard let make = methods[representable.makeMethod], let update = methods[representable.updateMethod] else { return }
        let properties = ViewProperties(typeNode: node)
        let inputs = properties.injected.filter { !$0.value.contains("->") }
        guard !inputs.isEmpty else { return }
        let readByUpdate = Self.reads(of: update, methods: methods, properties: properties)
        guard let readByUpdate else { return }
        let ignored = (Self.reads(of: make, methods: methods, properties: properties) ?? [])
            .filter { inputs[$0] != nil && !readByUpdate.contains($0) }
        guard !ignored.isEmpty else { return }
        let names = ignored.map { "`\($0)`" }.joined(separator: ", ")
        // Whether an input can change while the platform view lives is known from where the app builds it.
        let viewName = context.scope.currentType.flatMap { $0.node.id == node.id ? $0.qualifiedName : nil } ?? declaration.name.text
        // A controller whose content is fixed when it is built (`SFSafariViewController`'s URL) cannot take a new value
        // in `update…` at all: a changed input needs a new identity, which the rule cannot tell is missing (medium).
        let built = make.signature.returnClause.map { SyntaxFacts.simpleTypeName($0.type) }
        let fixedAtCreation = FrameworkViewState.fixedAtCreationControllers.contains { $0.name == built }
        context.report(update.name, ignored.count == 1 ? Self.ignoresInput : Self.ignoresInputs,
                       ["make": representable.makeMethod, "names": names, "update": representable.updateMethod],
                       answering: .representableInputChanges(view: viewName, inputs: ignored), confidence: fixedAtCreation ? .medium : .high)
    }

    /// The inputs a method reads, with those of the type's own methods it calls (one call deep); nil when it hands
    /// `self` on as a value, which reads every input.
    static func reads(of function: FunctionDeclSyntax, methods: [String: FunctionDeclSyntax], properties: ViewProperties) -> [String]? {
        guard let body = function.body else { return [] }
        if Self.handsOnSelf(body) { return nil }
        var names = properties.injectedNames(usedIn: body)
        for helper in Self.calledMethods(in: body, methods: methods) where helper.name.text != function.name.text {
            guard let helperBody = helper.body else { continue }
            if Self.handsOnSelf(helperBody) { return nil }
            for name in properties.injectedNames(usedIn: helperBody) where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// `self` used as a value (`Coordinator(self)`, `parent = self`), not as the base of `self.member`.
    static func handsOnSelf(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.tokenKind == .keyword(.self), let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return false }
            return reference.parent?.as(MemberAccessExprSyntax.self)?.base?.id != reference.id
        }
    }

    /// The type's own methods called as `name(...)` or `self.name(...)`.
    static func calledMethods(in body: CodeBlockSyntax, methods: [String: FunctionDeclSyntax]) -> [FunctionDeclSyntax] {
        var called: [FunctionDeclSyntax] = []
        for token in body.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, let method = methods[name],
                  let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            let callee = reference.parent?.as(MemberAccessExprSyntax.self).map { member -> Syntax? in
                guard let base = member.base, SyntaxFacts.isSelf(base) else { return nil }
                return Syntax(member)
            } ?? Syntax(reference)
            guard let callee, callee.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == callee.id,
                  !called.contains(where: { $0.id == method.id }) else { continue }
            called.append(method)
        }
        return called
    }
}
