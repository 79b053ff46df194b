import SwiftSyntax

/// Grand Central Dispatch used where Swift concurrency already runs.
public final class GCDInAsyncContextRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "gcd_in_async_context",
        name: "GCD In Async Context",
        whatItDoes: """
            Finds `DispatchQueue.main.async`, `DispatchQueue.main.asyncAfter` and `DispatchQueue.global().async` \
            inside an `async` function, a `Task` body, or a method of a type (or a function) marked `@MainActor`; \
            and `DispatchQueue.main.asyncAfter` or `DispatchQueue.global().async` whose closure writes the object's own \
            state in any method of a `@Model` or `@Observable` type.
            """,
        whyIsThisBad: """
            The dispatched closure escapes the task: it is not cancelled with it, its errors cannot be thrown to \
            the caller, and it gives no actor isolation, so the compiler cannot check what it touches. \
            `Task.sleep(for:)` replaces \
            `asyncAfter`, `await MainActor.run` (or simply the code, when already on the main actor) replaces \
            `main.async`, and an async function or `Task.detached` replaces `global().async`.
            """,
        seed: "002",
        // Opt-in until narrowed further: 8 of 30 findings right on eight public apps: most GCD calls in async code were deliberate (a continuation bridge, a one-turn deferral on the main actor, a hop back from a background callback, a cosmetic delay) (docs/precision.md).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @MainActor final class Die {
                    var value = 1
                    func animateRoll() {
                        // ❌ Using legacy GCD
                        ↓DispatchQueue.main.asyncAfter(deadline: .now() + 0.25) {
                            self.value = Int.random(in: 1...6)
                        }
                    }
                }
                """),
            RuleExample("""
                func refresh() async {
                    let items = await api.items()
                    ↓DispatchQueue.main.async { self.items = items }
                    Task { ↓DispatchQueue.global(qos: .utility).async { cache.write(items) } }
                }
                """),
            RuleExample("""
                @Model final class Die {
                    var value: Int = 1
                    func animateRoll() {
                        ↓DispatchQueue.main.asyncAfter(deadline: .now() + 0.25) {
                            self.value = Int.random(in: 1...6)
                        }
                    }
                }
                """),
            RuleExample("""
                @Observable final class Gallery {
                    var thumbnails: [Data] = []
                    func makeThumbnails(from images: [Data]) {
                        ↓DispatchQueue.global(qos: .userInitiated).async {
                            let made = images.map { $0.prefix(64) }
                            self.thumbnails = made.map { Data($0) }
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                final class AppDelegate: NSObject, NSApplicationDelegate {
                    func applicationDidFinishLaunching(_ notification: Notification) {
                        DispatchQueue.main.async { self.showWelcomeWindow() }
                    }
                }
                """),
            RuleExample("""
                @MainActor func animateRoll() async {
                    try? await Task.sleep(for: .milliseconds(250))
                    value = Int.random(in: 1...6)
                }
                """),
            RuleExample("""
                @MainActor struct AccountsSelector: View {
                    @State private var isPresented = false
                    var body: some View {
                        Button("Add account") {
                            isPresented = false
                            DispatchQueue.main.asyncAfter(deadline: .now() + 0.3) { router.present(.addAccount) }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class NetworkMonitor {
                    private let monitor = NWPathMonitor()
                    var isConnected = true
                    func start() {
                        monitor.pathUpdateHandler = { path in
                            DispatchQueue.main.async { self.isConnected = path.status == .satisfied }
                        }
                        center.requestAuthorization(options: [.alert]) { granted, _ in
                            DispatchQueue.main.async { self.isConnected = granted }
                        }
                    }
                }
                """),
            RuleExample("""
                func importFile(at url: URL, completion: @escaping (Data?) -> Void) {
                    DispatchQueue.global().async { completion(try? Data(contentsOf: url)) }
                }
                """),
            RuleExample("""
                @Observable final class Gallery {
                    var thumbnails: [Data] = []
                    func makeThumbnails(from images: [Data], done: @escaping ([Data]) -> Void) {
                        DispatchQueue.global(qos: .userInitiated).async {
                            var made: [Data] = []
                            for image in images { made.append(Data(image.prefix(64))) }
                            done(made)
                        }
                        DispatchQueue.main.async { self.thumbnails = [] }
                    }
                }
                """),
        ],
        knownLimitations: """
            SwiftUI views are main-actor isolated, but a dispatch in a view's synchronous code is not reported: \
            it is a style question there, not a cancellation bug. Nor is one inside a callback closure of a \
            `@MainActor` type (a completion handler may run on any thread). Code in a `@MainActor` type that must defer work \
            to the next run-loop turn (`DispatchQueue.main.async` on purpose) is reported; suppress it there. \
            Opt-in: 8 of 30 findings right on eight public apps: most GCD calls in async code were deliberate (a continuation bridge, a one-turn deferral on the main actor, a hop back from a background callback, a cosmetic delay); see docs/precision.md.
            """,
        messages: [escapesConcurrency])
    static let escapesConcurrency = RuleMessage("escapes_concurrency", "`{receiver}.{method}` escapes Swift concurrency here: it is not cancelled with the task and has no actor isolation; {replacement}")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self) else { return }
        let method = context.calleeMethodName(call)
        guard method == "async" || method == "asyncAfter", let receiver = SyntaxFacts.receiverText(call) else { return }
        let replacement: String
        if receiver == "DispatchQueue.main" {
            replacement = method == "asyncAfter"
                ? "use `try await Task.sleep(for:)` and then the code, on the main actor"
                : "use `await MainActor.run { }`, or just the code when already on the main actor"
        } else if receiver.hasPrefix("DispatchQueue.global") {
            replacement = "make the work an async function, or use `Task.detached`"
        } else {
            return
        }
        let scope = context.scope
        // A view's synchronous code (a button action that defers a sheet) is style, not a cancellation bug.
        let isMainActorCode = scope.currentType?.isView != true
            && (scope.currentFunction?.isMainActor == true || scope.currentType?.isMainActor == true)
        // Inside a callback (`monitor.pathUpdateHandler = { ... }`, a completion handler) the code may run on
        // any thread, and hopping to the main queue there is right.
        if case .other? = scope.currentClosure?.kind, !scope.isAsyncContext { return }
        guard scope.isAsyncContext || isMainActorCode || Self.schedulesModelWrite(call, method: method, receiver: receiver, scope: scope) else { return }
        context.report(call, Self.escapesConcurrency, ["receiver": receiver, "method": method, "replacement": replacement])
    }

    /// A later or background write of the object's own state from a `@Model` or `@Observable` type's method
    /// (`DispatchQueue.main.asyncAfter { self.value = ... }`, `DispatchQueue.global().async { self.items = ... }`):
    /// in model code the closure outlives the call whatever the function's isolation, and lands on an object that
    /// may have been deleted or changed again meanwhile. A one-turn `DispatchQueue.main.async` is left out.
    static func schedulesModelWrite(_ call: FunctionCallExprSyntax, method: String, receiver: String, scope: ScopeStack) -> Bool {
        guard let type = scope.currentType, type.isSwiftDataModel || type.hasAttribute("Observable"),
              method == "asyncAfter" || receiver.hasPrefix("DispatchQueue.global"),
              let closure = SyntaxFacts.closures(of: call).first else { return false }
        var outside = FlowFacts.localNames(in: closure.statements)
        if let function = scope.currentFunction {
            outside.formUnion(function.parameters.map(\.name))
            if let body = function.body { outside.formUnion(FlowFacts.localNames(in: body)) }
        }
        var writes = false
        BodyScanner.scan(closure.statements) { node in
            guard !writes, let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence) else { return }
            writes = FlowFacts.selfProperty(target, locals: outside) != nil
        }
        return writes
    }
}
