/// A `@Model` class without `@MainActor` (opt-in).
public enum ModelNotMainActorRule: ProjectRule {
    public static let description = RuleDescription(
        id: "model_not_main_actor",
        name: "Model Not Main Actor",
        whatItDoes: """
            Finds a `@Model` class that is not isolated to the main actor: not annotated `@MainActor`, in a module \
            that does not default to it (Swift 6.2's `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor` or \
            `.defaultIsolation(MainActor.self)`).
            """,
        whyIsThisBad: """
            A model context is not thread-safe, and isolating models to the main actor lets \
            the compiler reject every access from another thread. Opt-in, because apps that do background work \
            through `@ModelActor` contexts must not follow it: their models are used on those actors by design.
            """,
        seed: "002",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                ↓@Model
                class Die {
                    var value: Int = 1
                }
                """),
            RuleExample("""
                import SwiftData
                ↓@Model final class DiceGroup { var name: String = "" }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @MainActor
                @Model
                class Die {
                    var value: Int = 1
                }
                """),
            RuleExample("""
                @Observable final class DiceViewModel { var total = 0 }
                struct Roll: Codable { var value: Int }
                """),
        ],
        knownLimitations: """
            Off by default: `@ModelActor` background importers, and apps that pass `PersistentIdentifier`s between \
            actors, deliberately keep models unisolated.
            """,
        messages: [notMainActor])
    static let notMainActor = RuleMessage("not_main_actor", "`{model}` is not isolated to the main actor; annotate it `@MainActor` so off-main access is a compile error")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        // Isolated as Swift infers it: its own `@MainActor`, or a module that defaults to the main actor (Swift 6.2).
        ModelSchema(index: index).models.filter { index.isolation(ofType: $0.qualifiedName) != .mainActor }.map { model in
            description.finding(at: model.location, notMainActor, ["model": model.name])
        }
    }
}
