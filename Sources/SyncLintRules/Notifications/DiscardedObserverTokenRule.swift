import SwiftSyntax

/// `addObserver(forName:object:queue:using:)` whose returned token is thrown away.
public final class DiscardedObserverTokenRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "discarded_observer_token",
        name: "Discarded Observer Token",
        whatItDoes: """
            Finds a block-based notification observer, `addObserver(forName:object:queue:using:)` on any \
            notification centre, whose returned token is thrown away: the call stands as a statement, or is \
            assigned to `_`.
            """,
        whyIsThisBad: """
            The token is the only handle on a block observer: Apple's documentation says to pass it to \
            `removeObserver(_:)` to stop observing, and `removeObserver(self)` does not remove blocks. Thrown away, \
            the block and everything it captures stay registered for the life of the process; each time the \
            registering code runs again (a cell configured, a screen opened, a manager rebuilt) one more copy runs \
            on every notification, doing its work twice, three times, and keeping dead screens alive. Public fixes \
            keep the tokens and remove them (pascalpp/FreeRuler#153, sfsam/Itsycal#289, WordPress-iOS#753). Keep the \
            token in a property and remove it when the owner goes away, or observe with a Combine publisher kept in \
            a cancellable, or with `for await` over `notifications(named:)` in a task that is cancelled.
            """,
        seed: "issue 23 candidate 8",
        isOptIn: true,
        triggeringExamples: [
            // A singleton's other methods, and the app delegate's other methods, may run many times: each call adds
            // one more block.
            RuleExample("""
                final class AppDelegate: UIResponder, UIApplicationDelegate {
                    func presentRenameAlert(field: UITextField) {
                        ↓NotificationCenter.default.addObserver(forName: UITextField.textDidChangeNotification, object: field, queue: .main) { _ in }
                    }
                }
                final class Store {
                    static let shared = Store()
                    func startObserving() {
                        ↓NotificationCenter.default.addObserver(forName: .NSCalendarDayChanged, object: nil, queue: .main) { [weak self] _ in
                            self?.refresh()
                        }
                    }
                    func refresh() {}
                }
                """),
            RuleExample("""
                final class SettingsCell: UITableViewCell {
                    func configure(key: String) {
                        ↓NotificationCenter.default.addObserver(forName: UserDefaults.didChangeNotification, object: nil, queue: .main) { _ in
                            self.toggle.isOn = UserDefaults.standard.bool(forKey: key)
                        }
                    }
                }
                """),
            RuleExample("""
                final class Player {
                    func start(item: AVPlayerItem) {
                        _ = ↓center.addObserver(forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: nil) { [weak self] _ in
                            self?.next()
                        }
                    }
                }
                """),
            // A view model's `init` runs for each view that builds one: each screen adds a block.
            RuleExample("""
                final class KeyboardModel: ObservableObject {
                    init() {
                        ↓NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillShowNotification, object: nil, queue: .main) { _ in }
                    }
                }
                struct FormView: View {
                    @StateObject private var keyboard = KeyboardModel()
                    var body: some View { Text("Form") }
                }
                """),
            // A static member builds another type whose name ends the same way (`SecretStore`), not this one.
            RuleExample("""
                final class Store {
                    init() {
                        ↓NotificationCenter.default.addObserver(forName: .storeChanged, object: nil, queue: .main) { _ in }
                    }
                }
                enum Stores {
                    static let secrets = { SecretStore() }()
                }
                """),
        ],
        nonTriggeringExamples: [
            // Built only as a static member's value: one instance, whose `init` runs once.
            RuleExample("""
                final class CertificateStore {
                    init() {
                        NotificationCenter.default.addObserver(forName: .certificateStoreReloaded, object: nil, queue: .main) { _ in }
                    }
                }
                enum Stores {
                    static let certificates = CertificateStore()
                }
                """),
            // The app delegate and a singleton's `init` register once, for the life of the process.
            RuleExample("""
                final class AppDelegate: UIResponder, UIApplicationDelegate {
                    func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                        NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main) { _ in
                            Store.shared.refresh()
                        }
                        return true
                    }
                }
                final class Store {
                    static let shared = Store()
                    private init() {
                        NotificationCenter.default.addObserver(forName: .NSCalendarDayChanged, object: nil, queue: .main) { [weak self] _ in
                            self?.refresh()
                        }
                    }
                    func refresh() {}
                }
                """),
            RuleExample("""
                final class Player {
                    private var observers: [NSObjectProtocol] = []
                    private var endObserver: NSObjectProtocol?
                    func start(item: AVPlayerItem) {
                        endObserver = NotificationCenter.default.addObserver(forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: nil) { _ in }
                        observers.append(NotificationCenter.default.addObserver(forName: .AVPlayerItemPlaybackStalled, object: item, queue: .main) { _ in })
                        let token = NotificationCenter.default.addObserver(forName: .AVPlayerItemNewErrorLogEntry, object: item, queue: .main) { _ in }
                        observers.append(token)
                    }
                    deinit { observers.forEach(NotificationCenter.default.removeObserver) }
                }
                """),
            RuleExample("""
                final class Watcher {
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(changed(_:)), name: UserDefaults.didChangeNotification, object: nil)
                    }
                    func observe(_ name: Notification.Name) -> NSObjectProtocol {
                        NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in }
                    }
                    var tokens: [NSObjectProtocol] {
                        [.one, .two].map { NotificationCenter.default.addObserver(forName: $0, object: nil, queue: nil) { _ in } }
                    }
                    @objc func changed(_ note: Notification) {}
                }
                """),
        ],
        knownLimitations: """
            Opt-in. An observer registered once by an object that lives as long as the app is not reported: in the \
            `init` of the app (`App`), of its delegate or of a singleton (`static let shared = Type()` and no \
            `deinit`), or in the delegate's launch method (`application(_:didFinishLaunchingWithOptions:)`, \
            `applicationDidFinishLaunching(_:)`); nor one in the `init` of a type built only as a static member's value or a \
            property of the app's delegate, nor (in a program, all of whose callers were linted) in a method called, outside \
            loops, only from such set-up (`ProjectIndex.runsOncePerProcess`). Code the index cannot see calling it (a \
            library's client) keeps it reported. A single-expression closure or function that returns the call hands the token on \
            and is quiet.
            """,
        messages: [discarded])
    static let discarded = RuleMessage("token_discarded", "the token this returns is the only way to remove the observer; thrown away, the block stays registered " +
        "for the life of the app and one more copy runs each time this code runs: keep it and pass it to `removeObserver(_:)`")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), context.calleeMethodName(call) == FrameworkObservers.blockObserverMethod,
              call.arguments.prefix(FrameworkObservers.blockObserverLabels.count).map({ $0.label?.text ?? "_" }) == FrameworkObservers.blockObserverLabels,
              Self.isDiscarded(call) else { return }
        // Registered once by an object that lives as long as the app (the app's or a singleton's `init`, the app
        // delegate's launch): the block is meant to stay for the process's life and runs once per notification.
        guard let type = context.scope.currentType, let function = context.scope.currentFunction,
              context.scope.closures.isEmpty else {
            context.report(call, Self.discarded)
            return
        }
        context.report(call, Self.discarded, when: Self.notOneTimeSetUp(function, in: type))
    }

    /// When code in `function` is not part of the app's one-time set-up: in the delegate's launch method, when the type
    /// is not the app's delegate; in any other function, when some run of it is not set-up (the `init` of an object
    /// with one instance for the process, or a method called only from such set-up: `ProjectIndex.runsOncePerProcess`).
    /// What such set-up registers or starts is meant to last for the process's life.
    static func notOneTimeSetUp(_ function: FunctionScope, in type: TypeScope) -> IndexCondition {
        if FrameworkObservers.launchMethods.contains(where: { $0.selector == selector(of: function.node) }) {
            return .not(.isAppLifetimeObject(typeName: type.qualifiedName, orSingleton: false))
        }
        return .not(.runsOncePerProcess(FunctionKey(typeName: type.qualifiedName, name: function.name)))
    }

    /// `application(_:didFinishLaunchingWithOptions:)`: a function's name with its argument labels.
    static func selector(of node: Syntax) -> String? {
        guard let function = node.as(FunctionDeclSyntax.self) else { return nil }
        return function.name.text + "(" + function.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined() + ")"
    }

    /// The call stands as a statement that is not an implicit return, or is assigned to `_`.
    static func isDiscarded(_ call: FunctionCallExprSyntax) -> Bool {
        var expression = Syntax(call)
        while let parent = expression.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) { expression = parent }
        if let list = expression.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self),
           let assignment = SyntaxFacts.assignment(sequence), assignment.value.id == expression.id {
            return assignment.target.is(DiscardAssignmentExprSyntax.self)
        }
        guard let item = expression.parent?.as(CodeBlockItemSyntax.self), let items = item.parent?.as(CodeBlockItemListSyntax.self) else { return false }
        // The only statement of a closure, a getter or a function with a result is returned, not dropped.
        guard items.count == 1 else { return true }
        if items.parent?.is(ClosureExprSyntax.self) == true || items.parent?.is(AccessorBlockSyntax.self) == true { return false }
        if let block = items.parent?.as(CodeBlockSyntax.self) {
            if let function = block.parent?.as(FunctionDeclSyntax.self) { return function.signature.returnClause == nil }
            if block.parent?.is(AccessorDeclSyntax.self) == true { return block.parent?.as(AccessorDeclSyntax.self)?.accessorSpecifier.text != "get" }
        }
        return true
    }
}
