/// A `#Predicate` on a `@Model` that reads a computed or `@Transient` property.
public enum PredicateOnNonPersistentPropertyRule: ProjectRule {
    public static let description = RuleDescription(
        id: "predicate_on_non_persistent_property",
        name: "Predicate on Non-Persistent Property",
        whatItDoes: """
            Finds a `#Predicate<Model>` (or one written for `FetchDescriptor<Model>`, `Predicate<Model>`) that reads \
            a property of a `@Model` class which the store does not hold: a computed property or one marked \
            `@Transient`, in the class or any extension of it.
            """,
        whyIsThisBad: """
            A SwiftData predicate runs in the store, not in memory: SwiftData turns each key path into a column by \
            the metadata the `@Model` macro generated, and a computed or transient property has none. The code \
            compiles and the fetch (or the `@Query`) stops the app with "Fatal error: Couldn't find \\Model.x on \
            Model with fields [...]" — the same trap as kasianov-mikhail/scout#1152. Apple: `@Transient` "tells \
            SwiftData not to persist the annotated property" \
            (https://developer.apple.com/documentation/swiftdata/transient()), and Core Data, under SwiftData, \
            "cannot fetch using a predicate based on transient properties".
            """,
        seed: "issue 23",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @Model final class Book {
                    var title: String = ""
                    var pages: Int = 0
                    var isLong: Bool { pages > 500 }
                }
                let longBooks = FetchDescriptor<Book>(predicate: #Predicate { $0.↓isLong })
                """),
            RuleExample("""
                @Model final class Download {
                    var url: URL?
                    @Transient var isRunning = false
                }
                struct Downloads: View {
                    @Query(filter: #Predicate<Download> { download in download.↓isRunning == true }) var running: [Download]
                    var body: some View { Text("\\(running.count)") }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Model final class Book {
                    var title: String = ""
                    var pages: Int = 0
                    var isLong: Bool { pages > 500 }
                }
                let longBooks = FetchDescriptor<Book>(predicate: #Predicate { $0.pages > 500 })
                let shown = try context.fetch(FetchDescriptor<Book>()).filter { $0.isLong }
                """),
            // A computed property of a type that is not a model is evaluated in memory.
            RuleExample("""
                struct Row { var pages: Int; var isLong: Bool { pages > 500 } }
                let long = [Row(pages: 600)].filter(#Predicate<Row> { $0.isLong })
                """),
            // Stored in one declaration, so the name is persisted; a nested closure reads another type.
            RuleExample("""
                @Model final class Shelf { var books: [Book] = []; var name: String = "" }
                @Model final class Book { var title: String = ""; var isLong: Bool = false }
                extension Book { var summary: String { title } }
                let shelves = FetchDescriptor<Shelf>(predicate: #Predicate { $0.books.contains { $0.isLong } })
                """),
        ],
        knownLimitations: """
            Reads only the first member of the predicate's subject (`$0.author` in `$0.author?.name`); a property \
            the index cannot find (inherited, from another module) is not reported. `Predicate`s evaluated in \
            memory with `evaluate(_:)` on a model are reported too, though they work. Opt-in until measured.
            """,
        messages: [notPersisted])
    static let notPersisted = RuleMessage("non_persistent_property", "`{model}.{property}` is {kind}, so the store has no column for it and the fetch traps; filter on stored properties in the predicate and apply this condition to the fetched results")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        var findings: [Finding] = []
        for read in index.predicateMembers {
            let declarations = index.declarations(of: read.modelName)
            guard declarations.contains(where: { $0.hasAttribute("Model") }) else { continue }
            let properties = declarations.flatMap(\.properties).filter { $0.name == read.property && !$0.isStatic }
            guard !properties.isEmpty else { continue }
            let persisted = properties.contains { !$0.isComputed && !$0.attributes.contains { $0.name == FrameworkSchemas.notPersistedAttribute } }
            guard !persisted else { continue }
            let kind = properties.contains { $0.attributes.contains { $0.name == FrameworkSchemas.notPersistedAttribute } } ? "`@Transient`" : "computed"
            findings.append(description.finding(at: read.location, notPersisted, ["model": read.modelName, "property": read.property, "kind": kind]))
        }
        return findings
    }
}
