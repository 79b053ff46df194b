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
            once, and whichever finishes last wins, even if it is the stale one (a reading app's guide to task races, "Cancellation \
            Pattern": always cancel previous operations before starting new ones).
            """,
        seed: "000, 001",
        // Opt-in until narrowed further: 0 of 19 findings right on eight public apps: the old task was awaited on purpose, guarded by an `if let` or an in-progress flag, kept in a dictionary cancelled by key, or started once (`viewDidLoad`) (docs/precision.md).
        isOptIn: true,
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
            RuleExample("""
                @MainActor final class Player {
                    private var playback: Task<Void, Never>?
                    func skip() { playback?.cancel(); begin() }
                    func resume() { begin() }
                    private func begin() { ↓playback = Task { await self.play() } }
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
                @MainActor final class Search {
                    private var searchTask: Task<Void, Never>?
                    func search(_ text: String) {
                        if let task = self.searchTask { task.cancel() }
                        searchTask = Task { await self.run(text) }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Feed {
                    private var loadTask: Task<Void, Never>?
                    func reload() {
                        stopLoading()
                        loadTask = Task { await self.load() }
                    }
                    func stopLoading() { loadTask?.cancel() }
                }
                """),
            RuleExample("""
                @MainActor final class Player {
                    private var playback: Task<Void, Never>?
                    func skip() { playback?.cancel(); begin() }
                    func restart() { playback?.cancel(); begin() }
                    private func begin() { playback = Task { await self.play() } }
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
            The handle counts as cancelled by a `cancel()` call (or a nil test) earlier in the same function, also \
            through a local bound from it (`if let task = handle { task.cancel() }`), by a method of the same type \
            called first that cancels it (followed three calls deep), or when every caller of the function \
            cancels it. Cancelling through another object is not seen. Assignments in `init` are skipped: there is \
            no earlier task yet. \
            Opt-in: 0 of 19 findings right on eight public apps: the old task was awaited on purpose, guarded by an `if let` or an in-progress flag, kept in a dictionary cancelled by key, or started once (`viewDidLoad`); see docs/precision.md.
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
        let position = target.positionAfterSkippingLeadingTrivia
        if Self.handleIsSettled(name, in: body, before: position) { return }
        let typeName = type.qualifiedName
        let functionKey = FunctionKey(typeName: typeName, name: function.name)
        let helpersCalledBefore = Self.methodsCalled(in: body, before: position)
        context.report(target) { index in
            guard let property = index.property(name, of: typeName), property.isStoredVar else { return nil }
            // A helper called first that cancels the handle (to three calls deep), or callers that all cancel it.
            let cancels = { (key: FunctionKey) in
                index.reachableSummaries(from: key).contains { $0.summary.cancelledHandles.contains(name) && $0.summary.key.typeName == typeName }
            }
            if helpersCalledBefore.contains(where: { cancels(FunctionKey(typeName: typeName, name: $0)) }) { return nil }
            let callers = index.callSites(of: functionKey)
            if !callers.isEmpty, callers.allSatisfy({ index.summary(of: $0.caller)?.cancelledHandles.contains(name) == true }) { return nil }
            return "assigning a new task to `\(name)` drops the running one without cancelling it; call `\(name)?.cancel()` first"
        }
    }

    /// Methods of `self` called (unqualified or through `self.`) before the position, outside closures.
    static func methodsCalled(in body: Syntax, before position: AbsolutePosition) -> [String] {
        var names: [String] = []
        BodyScanner.scan(body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self), call.endPosition <= position else { return }
            if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { names.append(reference.baseName.text) }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, SyntaxFacts.isSelf(base) {
                names.append(member.declName.baseName.text)
            }
        }
        return names
    }

    /// `name?.cancel()` / `name.cancel()` / `name == nil` / `name != nil` before the position, also through a
    /// local bound from the handle (`if let task = self.name { task.cancel() }`, `if let name { name.cancel() }`).
    static func handleIsSettled(_ name: String, in body: Syntax, before position: AbsolutePosition) -> Bool {
        var aliases: Set<String> = [name]
        var previous: [String] = []
        for token in body.tokens(viewMode: .sourceAccurate) {
            if token.position >= position { break }
            if let binding = token.parent?.as(IdentifierPatternSyntax.self)?.parent?.as(OptionalBindingConditionSyntax.self),
               binding.initializer.map({ ["\(name)", "self.\(name)"].contains($0.value.trimmedDescription) }) ?? false {
                aliases.insert(token.text)
            }
            previous.append(token.text)
            if previous.count > 5 { previous.removeFirst() }
            let text = previous.joined()
            for alias in aliases where text.hasSuffix("\(alias)?.cancel") || text.hasSuffix("\(alias).cancel")
                || text.hasSuffix("\(alias)==nil") || text.hasSuffix("\(alias)!=nil") {
                return true
            }
        }
        return false
    }
}
