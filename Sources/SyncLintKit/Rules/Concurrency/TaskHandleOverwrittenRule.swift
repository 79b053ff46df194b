import SwiftSyntax

/// `handle = Task { }` without cancelling the task the handle held before.
public final class TaskHandleOverwrittenRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "task_handle_overwritten",
        name: "Task Handle Overwritten",
        whatItDoes: """
            Finds `handle = Task { ... }` (or `Task.detached`) assigned to a stored property with no \
            `handle?.cancel()` or `handle.cancel()` earlier in the same function, and no earlier test that the \
            handle is nil.
            """,
        whyIsThisBad: """
            Overwriting the handle drops the only way to cancel the task that was running: two loads now run at \
            once, and whichever finishes last wins, even if it is the stale one (seed 000, "Cancellation \
            Pattern": always cancel previous operations before starting new ones).
            """,
        seed: "000, 001",
        triggeringExamples: [
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    private var loadingTask: Task<Void, Never>?
                    func reload() {
                        ↓loadingTask = Task { await self.load() }
                    }
                }
                """),
            RuleExample("""
                final class Poller {
                    var pollTask: Task<Void, Error>?
                    func start() {
                        ↓self.pollTask = Task.detached { try await poll() }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    private var loadingTask: Task<Void, Never>?
                    func reload() {
                        loadingTask?.cancel()
                        loadingTask = Task { await self.load() }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Syncer {
                    private var syncTask: Task<Void, Never>?
                    func syncIfIdle() {
                        guard syncTask == nil else { return }
                        syncTask = Task { await self.sync(); self.syncTask = nil }
                    }
                }
                """),
            RuleExample("""
                final class Loader {
                    private var task: Task<Void, Never>?
                    init() { task = Task { await warmUp() } }
                    func run() { let task = Task { await work() }; _ = task }
                }
                """),
        ],
        knownLimitations: """
            The handle is known cancelled only by a `cancel()` call (or a nil test) earlier in the same function; \
            cancelling in a helper method called first is not seen, so such code is reported. Assignments in \
            `init` are skipped: there is no earlier task yet.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), TaskFacts.isTaskCreation(call, context: context),
              let target = TaskFacts.assignmentTarget(ofValue: call),
              let name = TaskFacts.propertyName(target),
              let type = context.scope.currentType,
              let function = context.scope.currentFunction, function.name != "init" else { return }
        let body = Syntax(function.node)
        if Self.handleIsSettled(name, in: body, before: target.positionAfterSkippingLeadingTrivia) { return }
        let typeName = type.qualifiedName
        context.report(target) { index in
            guard let property = index.property(name, of: typeName), property.isStoredVar else { return nil }
            return "assigning a new task to `\(name)` drops the running one without cancelling it; call `\(name)?.cancel()` first"
        }
    }

    /// `name?.cancel()` / `name.cancel()` / `name == nil` / `name != nil` before the position.
    static func handleIsSettled(_ name: String, in body: Syntax, before position: AbsolutePosition) -> Bool {
        var previous: [String] = []
        for token in body.tokens(viewMode: .sourceAccurate) {
            if token.position >= position { break }
            previous.append(token.text)
            if previous.count > 5 { previous.removeFirst() }
            let text = previous.joined()
            if text.hasSuffix("\(name)?.cancel") || text.hasSuffix("\(name).cancel")
                || text.hasSuffix("\(name)==nil") || text.hasSuffix("\(name)!=nil") {
                return true
            }
        }
        return false
    }
}
