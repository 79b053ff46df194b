import SwiftSyntax

/// `_model = StateObject(wrappedValue: model)` where `model` was built before the call: by the caller, or a
/// line earlier in `init`.
public final class StateObjectBuiltOutsideAutoclosureRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "state_object_built_outside_autoclosure",
        name: "State Object Built Outside Autoclosure",
        whatItDoes: """
            Finds `StateObject(wrappedValue: name)` whose argument is a bare name for an object built before the call: \
            a parameter of the enclosing function (the caller built it) or a local bound earlier in it \
            (`let model = Model(); _model = StateObject(wrappedValue: model)`).
            """,
        whyIsThisBad: """
            `StateObject(wrappedValue:)` takes an autoclosure that SwiftUI runs only the first time the view appears \
            with a given identity; Apple's documentation says later calls of the initializer are ignored. The parent \
            re-runs this `init` on every update of its body, so an object built outside the autoclosure is built \
            every time and thrown away at once: its `init` runs again and again (requests started, observers \
            registered, timers scheduled), and a different object passed in later is silently ignored. Public fixes \
            move the construction into the argument (RevenueCat/purchases-ios#4271, asuc-octo/berkeley-mobile-ios#351). \
            Build the object inside the argument, `StateObject(wrappedValue: Model(id: id))`, passing in what it \
            needs; or, when the parent owns the object, take it as `@ObservedObject`.
            """,
        seed: "issue 23 candidate 6",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                struct AccountRow: View {
                    @StateObject private var viewModel: AccountRowViewModel
                    init(viewModel: AccountRowViewModel) {
                        _viewModel = StateObject(wrappedValue: ↓viewModel)
                    }
                    var body: some View { Text(viewModel.name) }
                }
                """, confidence: .medium),
            // The list builds a new view model for each row on every update of its body.
            RuleExample("""
                struct AccountList: View {
                    let accounts: [Account]
                    var body: some View {
                        List(accounts) { account in AccountRow(viewModel: AccountRowViewModel(account: account)) }
                    }
                }
                struct AccountRow: View {
                    @StateObject private var viewModel: AccountRowViewModel
                    init(viewModel: AccountRowViewModel) {
                        _viewModel = StateObject(wrappedValue: ↓viewModel)
                    }
                    var body: some View { Text(viewModel.name) }
                }
                """, notes: ["the object passed as `viewModel:` is built here, each time this body runs"], confidence: .high),
            RuleExample("""
                struct HomeView: View {
                    @StateObject private var model: HomeViewModel
                    init(service: Service) {
                        let model = HomeViewModel(service: service)
                        model.start()
                        self._model = StateObject(wrappedValue: ↓model)
                    }
                    var body: some View { List(model.items) { Text($0.title) } }
                }
                """),
        ],
        nonTriggeringExamples: [
            // Every place that builds the row passes an object the parent already keeps: nothing is rebuilt.
            RuleExample("""
                struct AccountList: View {
                    @StateObject private var store = AccountStore()
                    var body: some View {
                        List(store.accounts) { account in AccountRow(viewModel: store.rowModel(for: account)) }
                    }
                }
                struct AccountRow: View {
                    @StateObject private var viewModel: AccountRowViewModel
                    init(viewModel: AccountRowViewModel) {
                        _viewModel = StateObject(wrappedValue: viewModel)
                    }
                    var body: some View { Text(viewModel.name) }
                }
                """),
            RuleExample("""
                struct AccountRow: View {
                    @StateObject private var viewModel: AccountRowViewModel
                    init(account: Account) {
                        _viewModel = StateObject(wrappedValue: AccountRowViewModel(account: account))
                    }
                    var body: some View { Text(viewModel.name) }
                }
                """),
            RuleExample("""
                struct SearchSheet: View {
                    @StateObject private var viewModel: SearchViewModel
                    @StateObject private var inspector: Inspector
                    init(viewModel: @autoclosure @escaping () -> SearchViewModel, inspector: Inspector? = nil) {
                        _viewModel = StateObject(wrappedValue: viewModel())
                        _inspector = StateObject(wrappedValue: inspector ?? Inspector())
                    }
                    var body: some View { Text(viewModel.query) }
                }
                """),
            RuleExample("""
                struct RootView: View {
                    @StateObject private var store = AppStore.shared
                    @StateObject private var settings: Settings
                    init() {
                        _settings = StateObject(wrappedValue: AppStore.shared.settings)
                    }
                    var body: some View { Text(store.title) }
                }
                """),
        ],
        knownLimitations: """
            Opt-in. A parameter is reported when a place that builds the view passes an object built right there \
            (`Row(model: RowModel(item))`); when every place the index sees passes an object it already has (a \
            shared model, a factory's result) it is quiet, and when the index sees the view built nowhere (a UIKit \
            host, a helper outside a view) the finding has medium confidence. `param ?? Model()` is quiet: the fallback is built in the autoclosure and the parameter \
            is usually given only by previews and tests. `@State` has no autoclosure (every form builds its value \
            each time), so it is not this rule's business.
            """,
        messages: [builtByCaller, builtBefore])
    static let builtByCaller = RuleMessage("built_by_caller", "`{name}` is built by the caller on every update of its body, and `{wrapper}` keeps only the " +
        "first one, so each later one is built and thrown away; build it inside `{wrapper}({label}: ...)` " +
        "from what it needs, or take it as `@ObservedObject` if the caller owns it")
    static let builtBefore = RuleMessage("built_before_autoclosure", "`{name}` is built before `{wrapper}` runs its autoclosure, so every update of the parent " +
        "builds one and throws it away; build it inside `{wrapper}({label}: ...)`")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self) else { return }
        let callee = SyntaxFacts.calleeName(call)
        guard let initializer = FrameworkViewState.lazyInitializers.first(where: { $0.type == callee || $0.type + ".init" == callee }),
              let argument = SyntaxFacts.argument(initializer.label, of: call)?.as(DeclReferenceExprSyntax.self),
              argument.argumentNames == nil, let function = context.scope.currentFunction, let body = function.body else { return }
        let name = argument.baseName.text
        if let parameter = function.parameterClause?.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name }) {
            let arguments = ["name": name, "wrapper": initializer.type, "label": initializer.label]
            // Whether the caller builds a new object for each update is known from where the app builds the view.
            guard parameter.firstName.tokenKind != .wildcard, let view = context.scope.currentType?.qualifiedName else {
                context.report(argument, Self.builtByCaller, arguments, confidence: .medium)
                return
            }
            context.report(argument, Self.builtByCaller, arguments,
                           answering: .stateObjectArgumentBuilt(view: view, label: parameter.firstName.text))
        } else if Self.isBoundEarlier(name, in: body, before: call.positionAfterSkippingLeadingTrivia) {
            context.report(argument, Self.builtBefore, ["name": name, "wrapper": initializer.type, "label": initializer.label])
        }
    }

    /// `let name = ...` / `var name = ...` in the body before the position, outside nested closures and functions.
    static func isBoundEarlier(_ name: String, in body: CodeBlockSyntax, before position: AbsolutePosition) -> Bool {
        body.statements.contains { item in
            guard item.endPosition <= position, let variable = Syntax(item.item).as(VariableDeclSyntax.self) else { return false }
            return variable.bindings.contains { binding in
                binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && binding.initializer != nil
            }
        }
    }
}
