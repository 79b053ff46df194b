/// A `@Model` class that no container, schema or versioned schema lists.
public enum UnregisteredModelRule: ProjectRule {
    public static let description = RuleDescription(
        id: "unregistered_model",
        name: "Unregistered Model",
        whatItDoes: """
            Finds a `@Model` class that is neither listed in any `.modelContainer(for:)`, `ModelContainer(for:)`, \
            `Schema([...])` or `VersionedSchema.models`, nor reachable through relationships from one that is. \
            With `strict: true`, models reachable only through relationships are reported too.
            """,
        whyIsThisBad: """
            A model the container does not know is not part of the store's schema: inserting it crashes, and a \
            model added later only through a relationship is easy to miss in migrations and CloudKit schema \
            initialization.
            """,
        seed: "002",
        // Opt-in by its figure on apps nobody tuned on (docs/precision.md, round 8 of issue 21): 1 of 8 findings right.
        isOptIn: true,
        options: [RuleOptionDescription("strict", default: "false", "also report models reachable only through relationships")],
        triggeringExamples: [
            RuleExample("""
                @Model final class DiceGroup { var name: String = "" }
                ↓@Model final class Die { var value: Int = 1 }
                let app = WindowGroup { ContentView() }.modelContainer(for: DiceGroup.self)
                func roll(in context: ModelContext) { context.insert(Die()) }
                """),
            RuleExample("""
                @Model final class DiceGroup { var dice: [Die]? = [] }
                ↓@Model final class Die { var value: Int = 1 }
                let app = WindowGroup { ContentView() }.modelContainer(for: DiceGroup.self)
                """, options: ["strict": .bool(true)]),
            // A model no other code names outside its own declaration (a leftover, a test stub) is never inserted or
            // fetched by this project: medium confidence, hidden by default.
            RuleExample("""
                @Model final class DiceGroup { var name: String = "" }
                ↓@Model final class LeftoverModel {
                    var value: Int = 1
                    static func make() -> LeftoverModel { LeftoverModel() }
                }
                extension LeftoverModel { var doubled: Int { value * 2 } }
                let app = WindowGroup { ContentView() }.modelContainer(for: DiceGroup.self)
                """, confidence: .medium),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Model final class DiceGroup { var name: String = "" }
                @Model final class Die { var value: Int = 1 }
                let app = WindowGroup { ContentView() }.modelContainer(for: [DiceGroup.self, Die.self])
                """),
            RuleExample("""
                @Model final class DiceGroup { var dice: [Die]? = [] }
                @Model final class Die { var value: Int = 1 }
                let schema = Schema([DiceGroup.self])
                """),
            RuleExample("""
                @Model public final class LibraryModel { var name: String = "" }
                """),
            // The schema lists a generic parameter (and a view of the same name exists): either model may be registered.
            RuleExample("""
                struct Row: View { var body: some View { Text("row") } }
                protocol CacheRow: PersistentModel {}
                @Model final class CachedRecord: CacheRow { var key: String = "" }
                @Model final class IndexedCachedRecord: CacheRow { var key: String = "" }
                enum RecordCache {
                    static func open<Row: CacheRow>(_ row: Row.Type) -> ModelContainer? {
                        try? ModelContainer(for: Schema([Row.self]))
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in: on apps nobody tuned on (docs/precision.md, rounds 3 to 8 of issue 21) 1 of 8 findings was right; \
            round 8's six wrong ones were models registered through a type alias (`typealias OfflineTrack = \
            OfflineTrackV2`, `Schema([OfflineTrack.self])`), read as an older nested model of the same name; a \
            top-level alias is now followed as Swift looks the name up from where the list is written. \
            A model no other code names (outside its own declaration and extensions: no insert, fetch, query, property \
            or relationship of it) is reported with medium confidence (hidden by default): it is dead code or used only \
            by code outside the project, so nothing here proves the crash. Silent when the project registers no models at all (a library whose app registers them). Models \
            registered through a helper that builds the type list at run time are not seen and are reported. A \
            registration that lists a name that is no model of the project (a generic parameter, a model of another \
            module) leaves what is registered unknown, and the rule is then silent for the project.
            """,
        messages: [reachedOnlyThroughRelationships, unregistered])
    static let reachedOnlyThroughRelationships = RuleMessage("reached_only_through_relationships", "`{model}` is reached only through relationships; list it in the container's models too")
    static let unregistered = RuleMessage("unregistered_model", "`{model}` is in no model container or schema; add `{model}.self` to `.modelContainer(for:)` or the `Schema`")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        guard !index.modelRegistrations.isEmpty else { return [] }
        let schema = ModelSchema(index: index)
        let listed = Set(index.modelRegistrations.flatMap(index.modelNames(of:)))
        // A listed name that is no model the project declares (a generic parameter, `Schema([Row.self])`, even when
        // some view is also called `Row`; or a model of another module) may stand for any model: what the
        // containers hold is then unknown, so nothing is reported.
        guard listed.isSubset(of: Set(schema.models.map(\.name))) else { return [] }
        let reachable = schema.reachable(from: listed)
        let strict = options.bool("strict", default: false)
        let registered = index.modelRegistrations.map { FindingNote("models are registered here", at: $0.location) }.prefix(3)
        return schema.models.compactMap { model in
            if listed.contains(model.name) { return nil }
            // A model no other code names (no insert, fetch, query, property or relationship of it) is dead code, or
            // used only by code outside the project: the crash needs code that inserts or fetches it, so nothing proves
            // it can happen here.
            let named = index.isNamedByOtherCode(model.name.split(separator: ".").last.map(String.init) ?? model.name)
            let confidence: Confidence = named ? .high : .medium
            if reachable.contains(model.name) {
                guard strict else { return nil }
                return description.finding(at: model.location, reachedOnlyThroughRelationships, ["model": model.name], notes: Array(registered),
                                           confidence: confidence)
            }
            return description.finding(at: model.location, unregistered, ["model": model.name], notes: Array(registered), confidence: confidence)
        }
    }
}
