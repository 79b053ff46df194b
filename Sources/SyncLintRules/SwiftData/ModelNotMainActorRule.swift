/// A `@Model` class without `@MainActor` (opt-in).
public enum ModelNotMainActorRule: ProjectRule {
    public static let description = RuleDescription(
        id: "model_not_main_actor",
        name: "Model Not Main Actor",
        whatItDoes: """
            Finds a `@Model` class that is not isolated to the main actor: not annotated `@MainActor`, in a module \
            that does not default to it (Swift 6.2's `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor` or \
            `.defaultIsolation(MainActor.self)`). A model declared `nonisolated` opts out on purpose and is not \
            reported; in a project that declares a `@ModelActor` actor (background model work by design) the finding \
            has medium confidence, since the rule cannot tell which models that actor uses, and so has a model of an \
            Xcode target built in the Swift 6 language mode (`SWIFT_VERSION = 6`), where a model used across \
            isolation domains is already a compile error.
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
            // The current schema version's model, nested in its `VersionedSchema`: no other `Note` exists, so the app uses
            // this one.
            RuleExample("""
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Note.self] }
                    ↓@Model final class Note { var body: String = "" }
                }
                """),
            // The project does background model work in a `@ModelActor`: the model may be used there by design.
            RuleExample("""
                ↓@Model final class Episode { var title: String = "" }
                @ModelActor actor EpisodeImporter {
                    func importAll(_ titles: [String]) throws {
                        for title in titles { modelContext.insert(Episode(title: title)) }
                        try modelContext.save()
                    }
                }
                """, confidence: .medium),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @MainActor
                @Model
                class Die {
                    var value: Int = 1
                }
                """),
            // Declared `nonisolated`: the module defaults to the main actor and this model opts out on purpose.
            RuleExample("""
                @Model
                nonisolated final class Recipe {
                    var name: String = ""
                }
                """),
            // The frozen copy of an older schema version, read only by the migration plan; the current `Video` is reported
            // on its own.
            RuleExample("""
                @MainActor @Model final class Video { var title: String = ""; var watched = false }
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Video.self] }
                    @Model final class Video { var title: String = "" }
                }
                """),
            RuleExample("""
                @Observable final class DiceViewModel { var total = 0 }
                struct Roll: Codable { var value: Int }
                """),
        ],
        knownLimitations: """
            Off by default: `@ModelActor` background importers, and apps that pass `PersistentIdentifier`s between \
            actors, deliberately keep models unisolated. A background `ModelContext(container)` made off the main actor \
            without a `@ModelActor` is not seen. A model nested in a `VersionedSchema` is taken for an older version's frozen \
            copy (not reported) only when its name from the top level is another model.
            """,
        messages: [notMainActor])
    static let notMainActor = RuleMessage("not_main_actor", "`{model}` is not isolated to the main actor; annotate it `@MainActor` so off-main access is a compile error")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        // A project that declares a `@ModelActor` actor does model work off the main actor by design; which models it
        // uses is not followed, so its unisolated models may be used there on purpose: medium.
        let backgroundModelWork = index.typesByName.values.joined().contains { type in
            type.kind == .actor && (type.hasAttribute("ModelActor") || type.inheritedTypes.contains("ModelActor"))
                && index.codeKind(of: type.location) == .app
        }
        // Isolated as Swift infers it: its own `@MainActor`, or a module that defaults to the main actor (Swift 6.2).
        // A model declared `nonisolated` has opted out of that default on purpose: the advice is wrong there.
        return ModelSchema(index: index).models.filter { model in
            index.isolation(ofType: model.qualifiedName) != .mainActor
                && !index.declarations(of: model.qualifiedName).contains { $0.kind != .extension && $0.isNonisolated }
                && !isOlderSchemaSnapshot(model, index: index)
        }.map { model -> Finding in
            // In the Swift 6 language mode the compiler already rejects a model used across isolation domains: the
            // annotation would add checking only where the app keeps models on one actor by design, which the rule
            // cannot tell: medium.
            let compilerChecksRaces = index.compilesInSwift6Mode(model.location.file)
            return description.finding(at: model.location, notMainActor, ["model": model.name],
                                       confidence: backgroundModelWork || compilerChecksRaces ? .medium : .high)
        }
    }

    /// A model declared inside a `VersionedSchema` whose name, looked up from the top level, is another model: the frozen
    /// copy of an older schema version, which only a migration plan reads. The app's code uses the current model.
    static func isOlderSchemaSnapshot(_ model: TypeFact, index: ProjectIndex) -> Bool {
        guard let dot = model.qualifiedName.lastIndex(of: ".") else { return false }
        let schema = String(model.qualifiedName[..<dot])
        guard index.declarations(of: schema).contains(where: { $0.inheritedTypes.contains("VersionedSchema") }),
              let current = index.resolveType(model.name), current != model.qualifiedName else { return false }
        return index.isSwiftDataModel(current)
    }
}
