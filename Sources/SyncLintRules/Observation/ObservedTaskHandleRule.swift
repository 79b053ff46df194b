import SwiftSyntax

/// A `Task` handle stored in an `@Observable` class without `@ObservationIgnored`.
public final class ObservedTaskHandleRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "observed_task_handle",
        name: "Observed Task Handle",
        whatItDoes: """
            Finds a stored `var` whose type is `Task<...>` (optional, or in a collection) in an `@Observable` \
            class, without `@ObservationIgnored`.
            """,
        whyIsThisBad: """
            The `@Observable` macro tracks every stored property. Storing or clearing a task handle then \
            invalidates every view that read it, which re-evaluates bodies and can restart `.task` modifiers in \
            the middle of the work the handle belongs to. \
            A task handle is bookkeeping, not state a view shows: mark it `@ObservationIgnored`.
            """,
        seed: "000, 001",
        // Opt-in until narrowed further: 0 of 3 findings right on eight public apps: every handle was private and no view read it, so Observation invalidated nothing (docs/precision.md).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @Observable
                final class BadViewModel {
                    var ↓loadingTask: Task<Void, Never>?
                }
                """, fixed: """
                @Observable
                final class BadViewModel {
                    @ObservationIgnored var loadingTask: Task<Void, Never>?
                }
                """),
            RuleExample("""
                @Observable @MainActor
                final class SyncModel {
                    private var ↓tasks: [UUID: Task<Void, Error>] = [:]
                    var ↓refresh = Task<Void, Never> {}
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Observable
                final class GoodViewModel {
                    @ObservationIgnored
                    private var loadingTask: Task<Void, Never>?
                }
                """),
            RuleExample("""
                final class Loader: ObservableObject {
                    @Published var isLoading = false
                    private var loadingTask: Task<Void, Never>?
                }
                """),
            RuleExample("""
                @Observable
                final class TaskListModel {
                    var tasks: [TodoTask] = []
                    var current: TaskItem?
                    static var shared: Task<Void, Never>?
                }
                """),
        ],
        knownLimitations: """
            Only the `@Observable` macro is checked; an `ObservableObject` publishes only `@Published` \
            properties, so its plain task handles are fine. A type alias for `Task` is not recognized. The fix \
            (`@ObservationIgnored` in front of the declaration) is skipped for a declaration that binds several \
            properties. It is unsafe: a view that shows whether the task runs (reading the handle, or a computed \
            property over it) stops updating once Observation ignores the handle. \
            Opt-in: 0 of 3 findings right on eight public apps: every handle was private and no view read it, so Observation invalidated nothing; see docs/precision.md. \
            Not narrowed to handles a view reads, on purpose: Observation invalidates only views that read the property, \
            so the invalidation this rule names happens only then; but then the view shows the task's state and wants \
            the update, and the fix would freeze it. Narrowed that way, the rule would find none of the findings judged \
            so far nor the Reader sample app under Examples (a private handle no view reads). It stays an opt-in reminder that a handle \
            is bookkeeping, not a proven bug.
            """,
        fixSafety: .unsafe,
        messages: [observedHandle])
    static let observedHandle = RuleMessage("observed_task_handle", "task handle `{property}` is tracked by `@Observable`, so storing it invalidates views; mark it `@ObservationIgnored`")

    public static let nodeKinds: Set<SyntaxKind> = [.variableDecl]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let variable = node.as(VariableDeclSyntax.self),
              variable.bindingSpecifier.tokenKind == .keyword(.var),
              let type = context.scope.currentType, type.hasAttribute("Observable"),
              context.scope.currentFunction == nil, context.scope.currentClosure == nil,
              !SyntaxFacts.hasAttribute("ObservationIgnored", variable.attributes),
              !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { return }
        for property in DeclarationCollector.properties(of: variable, context: context) where !property.isComputed {
            guard let typeName = property.typeName, Self.holdsTask(typeName) else { continue }
            context.report(at: property.location, Self.observedHandle, ["property": property.name])
        }
    }

    /// `Task<...>`, `Task`, `[Task<...>]`, `[Key: Task<...>]`, `Set<Task<...>>`.
    static func holdsTask(_ typeName: String) -> Bool {
        let compact = typeName.replacingOccurrences(of: " ", with: "")
        return compact == "Task" || compact.hasPrefix("Task<") || compact.contains("[Task<") || compact.contains(":Task<")
            || compact.contains("<Task<")
    }
}
