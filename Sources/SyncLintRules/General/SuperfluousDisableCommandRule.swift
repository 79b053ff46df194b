/// A `synclint:disable` comment that suppresses nothing.
///
/// Its findings depend on every other rule's findings, so they are made where suppression is applied
/// (`SuppressionOutcome.apply`), after all rules ran; `check` itself finds nothing.
public enum SuperfluousDisableCommandRule: ProjectRule {
    public static let description = RuleDescription(
        id: "superfluous_disable_command",
        name: "Superfluous Disable Command",
        whatItDoes: """
            Finds a `synclint:disable` comment (any form: region, `:next`, `:this`, `:previous`, in Swift or in a \
            Core Data model's XML) that suppresses no finding of a rule that ran. `all` counts as superfluous when \
            it suppresses nothing at all.
            """,
        whyIsThisBad: """
            A disable comment outlives the code it was written for: once the finding is fixed or the line moves, \
            the comment silences nothing today and hides the next real finding on that line tomorrow. Removing \
            stale comments keeps suppression meaningful, as SwiftLint's rule of the same name does.
            """,
        seed: "—",
        triggeringExamples: [
            RuleExample("""
                struct ItemView: View {
                    let item: Item
                    var body: some View {
                        ↓// synclint:disable:next unstable_task_id
                        Text(item.title).task(id: item.id) { await load(item) }
                    }
                }
                @Model final class Item { var title: String = "" }
                """),
            RuleExample("""
                let total = 1 + 1 ↓// synclint:disable:this all
                """),
            RuleExample("""
                ↓// synclint:disable unstable_task_id, transient_ui_state
                struct ItemView: View {
                    let item: Item
                    var body: some View {
                        Text(item.title).task(id: item.title) { await load(item) }
                    }
                }
                @Model final class Item { var title: String = "" }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                struct ItemView: View {
                    let item: Item
                    var body: some View {
                        // synclint:disable:next unstable_task_id - restarts on purpose when the title changes
                        Text(item.title).task(id: item.title) { await load(item) }
                    }
                }
                @Model final class Item { var title: String = "" }
                """),
            RuleExample("""
                // synclint:disable all
                struct ItemView: View {
                    let item: Item
                    var body: some View {
                        Text(item.title).task(id: item.title) { await load(item) }
                    }
                }
                @Model final class Item { var title: String = "" }
                // synclint:enable all
                """),
            RuleExample("""
                // Mentions synclint:disable:next task_without_id in prose, which is not a directive.
                let help = "// synclint:disable:next task_without_id"
                """),
        ],
        knownLimitations: """
            Only rules that ran are judged: a comment naming a disabled or opt-in rule that is off is never \
            reported, since that rule might fire when turned on. A comment naming this rule itself is never \
            reported. Its examples run with every default rule on, since it judges their findings.
            """,
        messages: [suppressesNothing])
    static let suppressesNothing = RuleMessage("suppresses_nothing", "`synclint:{command} {rule}` suppresses nothing ({what} {scope}); remove it")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] { [] }
}
