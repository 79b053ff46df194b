import Testing
@testable import SyncLintKit

/// Seed 003 (the app that would not launch) and seed 002's SwiftData model conventions.
struct Seed002And003ModelTests {
    static let syncedApp = """
        // In LuegoApp.swift
        let modelConfiguration = ModelConfiguration(
            schema: schema,
            cloudKitDatabase: .private("iCloud.com.example.App")
        )
        """

    private func found(_ code: String, rules: [String]? = nil, options: [String: [String: OptionValue]] = [:], synced: Bool = true) -> [String] {
        var sources = [SourceInput(path: "/seed/Code.swift", text: code)]
        if synced { sources.append(SourceInput(path: "/seed/App.swift", text: Self.syncedApp)) }
        let ruleIDs = rules ?? RuleRegistry.allDescriptions.filter { !$0.isOptIn }.map(\.id)
        return Harness.findings(sources: sources, rules: ruleIDs, options: options)
            .filter { $0.file == "/seed/Code.swift" }
            .map { "\($0.ruleID)@\($0.line)" }
    }

    @Test func seed003FailureScenarioIsFoundWithTheCrash() {
        let code = """
            @Model
            final class Article {
                var id: UUID = UUID()
                @Attribute(.unique) var url: URL  // FATAL ERROR with CloudKit sync!
                var title: String = ""
            }

            // In LuegoApp.swift
            let modelConfiguration = ModelConfiguration(
                schema: schema,
                cloudKitDatabase: .private("iCloud.com.example.App")
            )
            func makeContainer() -> ModelContainer {
                do {
                    return try ModelContainer(for: schema, configurations: [modelConfiguration])
                } catch {
                    fatalError("Could not create ModelContainer: \\(error)")
                    // Will crash here with CloudKit + @Attribute(.unique)
                }
            }
            """
        // `fatal_error_on_container_init` is opt-in (its figure on unseen apps); the seed's crash is found when it is on.
        let rules = RuleRegistry.allDescriptions.filter { !$0.isOptIn }.map(\.id) + ["fatal_error_on_container_init"]
        #expect(Set(found(code, rules: rules, synced: false)) == [
            "cloudkit_unique_constraint@4", "cloudkit_nonoptional_attribute@4", "fatal_error_on_container_init@17",
        ])
    }

    @Test func seed003RedFlag1IsFound() {
        let code = """
            // RED FLAG #1: Unique constraint on CloudKit model
            @Model
            final class Article {
                @Attribute(.unique) var url: URL?  // ❌ INCOMPATIBLE WITH CLOUDKIT
            }
            """
        #expect(found(code, rules: ["cloudkit_unique_constraint"]) == ["cloudkit_unique_constraint@4"])
        #expect(found(code, rules: ["cloudkit_unique_constraint"], synced: false).isEmpty, "no CloudKit, no finding")
    }

    /// Seed 003 calls a unique synthetic id "OK". CloudKit supports no unique constraint at all, so it is reported.
    @Test func seed003SyntheticUniqueIDIsReportedDespiteTheSeed() {
        let code = """
            @Model
            final class Article {
                @Attribute(.unique) private(set) var id: UUID = UUID()  // OK: synthetic ID
                // ❌ DON'T DO THIS:
                // @Attribute(.unique) var url: URL

                var url: URL?  // OK: no constraint, but we'll check uniqueness manually
                var title: String = ""
                var savedDate: Date = Date()
            }
            """
        #expect(found(code, rules: ["cloudkit_unique_constraint"]) == ["cloudkit_unique_constraint@3"])
    }

    static let documentedArticle = """
        /// Stores articles for the reading list with CloudKit sync.
        ///
        /// **Uniqueness Guarantee:**
        /// While `url` is not enforced with `@Attribute(.unique)` (incompatible with CloudKit),
        /// the service layer ensures at most one article per URL.
        @Model
        final class Article {
            var id: UUID = UUID()
            var url: URL?
            var title: String = ""
            init(url: URL, title: String) { self.url = url; self.title = title }
        }

        """

    @Test func seed003RedFlags3And4AreFound() {
        let code = Self.documentedArticle + """
            @MainActor final class ArticleService {
                func add(url: URL, title: String) throws {
                    // RED FLAG #3: Missing duplicate detection before insert
                    let article = Article(url: url, title: title)
                    modelContext.insert(article)  // ❌ No prior check, race condition possible
                    try modelContext.save()
                }

                func store(_ article: Article) throws {
                    // RED FLAG #4: No error handling for constraint violations
                    do {
                        modelContext.insert(article)
                        try modelContext.save()
                    } catch {
                        throw error  // ❌ No fallback to existing record
                    }
                }
            }
            """
        // Red flag #3's save also lets its error leave `add` with the insert still in the context, and no
        // caller rolls back: the propagated-save case of save_failure_without_rollback.
        #expect(found(code, rules: ["insert_without_duplicate_check", "save_failure_without_rollback"]) == [
            "insert_without_duplicate_check@17", "save_failure_without_rollback@18", "save_failure_without_rollback@26",
        ])
    }

    @Test func seed003RecommendedServiceIsQuiet() {
        let code = Self.documentedArticle + """
            @MainActor
            final class ArticleService {
                private let modelContext: ModelContext

                // Fast-path duplicate check
                private func findExistingArticle(for url: URL) -> Article? {
                    let predicate = #Predicate<Article> { $0.url == url }
                    let descriptor = FetchDescriptor<Article>(predicate: predicate)
                    return try? modelContext.fetch(descriptor).first
                }

                // Approach 1 + 2: Check then insert with error recovery
                func saveEphemeralArticle(_ ephemeralArticle: EphemeralArticle) async throws -> Article {
                    // Fast-path check
                    if let existingArticle = findExistingArticle(for: ephemeralArticle.url) {
                        return existingArticle
                    }

                    let article = Article(
                        url: ephemeralArticle.url,
                        title: ephemeralArticle.title
                    )

                    do {
                        modelContext.insert(article)
                        try modelContext.save()
                        return article
                    } catch {
                        // Error recovery fallback
                        modelContext.rollback()
                        if let existingArticle = findExistingArticle(for: ephemeralArticle.url) {
                            Logger.article.debug("Duplicate detected via constraint: \\(ephemeralArticle.url.absoluteString)")
                            return existingArticle
                        }
                        throw error
                    }
                }

                /// Finds duplicate articles by URL and merges them into one
                func mergeDuplicates(for url: URL) async throws {
                    let predicate = #Predicate<Article> { $0.url == url }
                    let articles = try modelContext.fetch(FetchDescriptor<Article>(predicate: predicate))
                    guard articles.count > 1 else { return }
                    let primary = articles[0]
                    for article in articles where article.id != primary.id {
                        modelContext.delete(article)
                    }
                    try modelContext.save()
                }
            }
            """
        #expect(found(code).isEmpty)
    }

    @Test func seed002Pattern1IncorrectIsFoundAndCorrectIsQuiet() {
        let incorrect = """
            @Model
            class Die {
                var value: Int = 1

                func roll() {
                    // ❌ No actor isolation - potential data races
                    DispatchQueue.global().async {
                        self.value = Int.random(in: 1...6)  // Crash risk!
                    }
                }
            }
            """
        #expect(found(incorrect, rules: ["model_mutated_off_main", "model_not_main_actor"], synced: false)
                == ["model_not_main_actor@1", "model_mutated_off_main@8"])
        let correct = """
            @MainActor
            @Model
            class Die {
                var value: Int = 1
                var locked: Bool = false

                func roll() {
                    // All property access is main-actor isolated
                    self.value = Int.random(in: 1...6)
                }
            }
            """
        #expect(found(correct, synced: false).isEmpty)
        #expect(found(correct, rules: ["model_not_main_actor"], synced: false).isEmpty)
    }

    @Test func seed002Pattern2TransientStateIsQuietAndItsMissingTransientIsFound() {
        let correct = """
            @MainActor
            @Model
            class Die {
                var value: Int = 1  // Persisted

                @Transient
                var isAnimating: Bool = false  // Not persisted

                @Transient
                var animationTask: Task<Void, Never>?
            }
            """
        #expect(found(correct).isEmpty)
        let incorrect = correct.replacingOccurrences(of: "@Transient\n", with: "")
        #expect(found(incorrect, rules: ["transient_ui_state"]) == ["transient_ui_state@6", "transient_ui_state@8"])
    }

    @Test func seed002Pattern3UnregisteredModelIsFound() {
        let models = """
            @Model final class DiceGroup { var name: String = "" }
            @Model final class Die { var value: Int = 1 }

            """
        let incorrect = models + """
            @main
            struct DiceSackApp: App {
                var body: some Scene {
                    WindowGroup { ContentView() }
                    // ❌ Only registering DiceGroup, but Die is also a @Model
                    .modelContainer(for: DiceGroup.self)
                }
            }
            """
        #expect(found(incorrect, rules: ["unregistered_model"]) == ["unregistered_model@2"])
        let correct = models + """
            @main
            struct DiceSackApp: App {
                var body: some Scene {
                    WindowGroup { ContentView() }
                    .modelContainer(for: [DiceGroup.self, Die.self])
                }
            }
            """
        #expect(found(correct, rules: ["unregistered_model"], options: ["unregistered_model": ["strict": .bool(true)]]).isEmpty)
        let related = incorrect.replacingOccurrences(of: "var name: String = \"\"", with: "var dice: [Die]? = []")
        #expect(found(related, rules: ["unregistered_model"]).isEmpty, "reachable through a relationship: default mode is quiet")
        #expect(found(related, rules: ["unregistered_model"], options: ["unregistered_model": ["strict": .bool(true)]]) == ["unregistered_model@2"])
    }
}
