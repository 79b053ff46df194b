/// Runtime or UI state persisted in a `@Model` because it lacks `@Transient`.
public enum TransientUIStateRule: ProjectRule {
    static let defaultNames = ["isAnimating", "isFlipping", "isRolling", "isSelected", "isExpanded", "isHighlighted", "isEditing", "isDragging"]

    public static let description = RuleDescription(
        id: "transient_ui_state",
        name: "Transient UI State",
        whatItDoes: """
            Finds a stored property of a `@Model` without `@Transient` whose type is runtime machinery (`Task`, \
            `Timer`, `AnyCancellable`, a closure) or whose name says UI or animation state (`isAnimating`, \
            `isSelected`, `isExpanded`, ...; configurable).
            """,
        whyIsThisBad: """
            Everything a model stores is saved and, with CloudKit, synced to every device: an animation flag \
            saved mid-animation comes back `true` at the next launch, and a task or timer cannot be persisted \
            at all.
            """,
        seed: "002",
        options: [RuleOptionDescription("names", default: "[isAnimating, isFlipping, isRolling, isSelected, isExpanded, isHighlighted, isEditing, isDragging]",
                                        "property names that mean UI state")],
        triggeringExamples: [
            RuleExample("""
                @Model final class Die {
                    var value: Int = 1
                    var ↓isAnimating: Bool = false
                }
                """, message: "runtime_state", confidence: .medium),
            RuleExample("""
                @Model final class Die {
                    var ↓animationTask: Task<Void, Never>?
                    var ↓onRolled: (() -> Void)?
                }
                """, message: "runtime_state", confidence: .high),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @MainActor @Model final class Die {
                    var value: Int = 1
                    @Transient var isAnimating: Bool = false
                    @Transient var animationTask: Task<Void, Never>?
                }
                """),
            RuleExample("""
                @Model final class Todo {
                    var isCompleted: Bool = false
                    var isArchived: Bool = false
                    var parentTask: Task?
                }
                @Model final class Task { var title: String = "" }
                final class DieViewModel { var isAnimating = false }
                """),
        ],
        knownLimitations: """
            A model the app itself names `Task` is recognized as a model, not as Swift's `Task`. Names are matched exactly; a UI flag under another name is not found, and a model that really means \
            to sync a "selected" state across devices should suppress the finding. A property found by its name alone (the `names` \
            option) has medium confidence, shown with `--confidence medium`; one found by its type (a task, timer, closure) has high.
            """,
        messages: [runtimeState])
    static let runtimeState = RuleMessage("runtime_state", "`{model}.{property}` is runtime or UI state that would be saved and synced; mark it `@Transient`")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        let names = Set(options.strings("names", default: defaultNames))
        // An app may call its own model `Task`: then a bare `Task` is that model, not Swift's.
        let projectDeclaresTask = index.typeExists("Task")
        return ModelSchema(index: index).properties.compactMap { property in
            guard !property.isRelationship else { return nil }
            let typeName = (property.fact.typeName ?? "").replacingOccurrences(of: " ", with: "")
            let isSwiftTask = typeName.hasPrefix("Task<") || (typeName == "Task" && !projectDeclaresTask)
            let isMachinery = isSwiftTask || typeName == "Timer" || typeName == "AnyCancellable"
                || typeName.contains("->") || typeName.hasPrefix("Set<AnyCancellable")
            guard isMachinery || names.contains(property.fact.name) else { return nil }
            // A task, timer or closure is runtime state by its type; a flag is UI state only by its name: medium.
            return description.finding(at: property.fact.location, runtimeState, ["model": property.model, "property": property.fact.name],
                                       confidence: isMachinery ? .high : .medium)
        }
    }
}
