import Testing
@testable import SyncLintKit

/// Seeds 000 and 001 for the flow rules: cancellation_reported_as_error, loading_state_not_reset,
/// stale_model_after_await, check_then_act_across_await, missing_cancellation_check.
struct Seed000And001FlowTests {
    static let rules = ["cancellation_reported_as_error", "loading_state_not_reset", "stale_model_after_await",
                        "check_then_act_across_await", "missing_cancellation_check"]

    static let model = """
        @Model final class Article {
            var id: UUID = UUID()
            var title: String = ""
            var content: String?
            var author: String?
            var wordCount: Int?
            var url: URL = URL(string: "https://example.com")!
        }
        """

    private func found(_ code: String) -> [String] {
        Harness.findings(sources: [SourceInput(path: "/seed/Model.swift", text: Self.model), SourceInput(path: "/seed/Code.swift", text: code)],
                         rules: Self.rules)
            .filter { $0.file == "/seed/Code.swift" }
            .map { "\($0.ruleID)@\($0.line)" }
    }

    @Test func seed000WrongStaleReferenceAfterSuspensionIsFound() {
        let wrong = """
            final class ReaderService {
                // WRONG: Using stale reference after suspension
                func fetchAndUpdate(article: Article) async throws -> Article {
                    let content = try await metadataDataSource.fetch(article.url)

                    // ⚠️ article reference may be stale now (CloudKit could have synced)
                    article.content = content  // ⚠️ Writing to potentially invalid object

                    return article
                }
            }
            """
        #expect(found(wrong) == ["stale_model_after_await@7"])
    }

    @Test func seed000RiskyLongLivedReferenceIsFound() {
        let risky = """
            // RISKY: Long-lived reference across suspension
            func process(article: Article) async throws {
                let newContent = try await fetchContent()

                article.content = newContent  // article reference may be stale
            }
            """
        #expect(found(risky) == ["stale_model_after_await@5"])
    }

    @Test func seed001Issue3BeforeIsFound() {
        let before = """
            final class ReaderService {
                // BEFORE - Stale reference after suspension
                func fetchContent(for article: Article, forceRefresh: Bool) async throws -> Article {
                    let content = try await metadataDataSource.fetchContent(for: article.url)  // Suspension point
                    article.content = content.content  // article may be stale!
                    return article
                }
            }
            """
        #expect(found(before) == ["stale_model_after_await@5"])
    }

    /// Seed 001's Issue 2 fragment, with its "... long async operation" comment written out as the load it stands for.
    @Test func seed001Issue2WeakGuardIsFound() {
        let before = """
            @Observable @MainActor final class ReaderViewModel {
                var articleContent: String?
                var isLoading = false
                // BEFORE - Race window between guard and state mutation
                func loadContent() async {
                    guard articleContent == nil else { return }  // Weak guard
                    isLoading = true
                    // ... long async operation
                    let content = await readerService.fetchContent()
                    articleContent = content
                    isLoading = false
                }
            }
            """
        #expect(found(before) == ["check_then_act_across_await@6"])
    }

    @Test func seed000GoodAndCaptureIDAndDefensiveFetchAreQuiet() {
        let correct = """
            final class ReaderService {
                // CORRECT: Re-fetch fresh reference after suspension
                func fetchAndUpdate(article: Article) async throws -> Article {
                    let articleId = article.id  // Capture ID (immutable)

                    let content = try await metadataDataSource.fetch(article.url)

                    // Re-fetch to get fresh reference with latest CloudKit changes
                    let predicate = #Predicate<Article> { $0.id == articleId }
                    let descriptor = FetchDescriptor<Article>(predicate: predicate)

                    guard let freshArticle = try modelContext.fetch(descriptor).first else {
                        throw ReaderServiceError.articleNotFound
                    }

                    freshArticle.content = content  // ✓ Writing to fresh object
                    return freshArticle
                }

                // GOOD: Capture ID before suspension
                func process(article: Article) async throws {
                    let articleId = article.id  // Capture before suspension
                    let title = article.title   // Capture before suspension

                    let newContent = try await fetchContent()

                    // Re-fetch with captured ID
                    let fresh = try fetch(by: articleId)
                    fresh.content = newContent
                }

                // Service method: Safe to CloudKit sync during operation
                func updateArticleContent(articleId: UUID, with newContent: String) async throws {
                    let predicate = #Predicate<Article> { $0.id == articleId }
                    let descriptor = FetchDescriptor<Article>(predicate: predicate)

                    // Fetch fresh before suspension
                    guard let article = try modelContext.fetch(descriptor).first else {
                        throw ArticleServiceError.articleNotFound
                    }

                    let initialState = article.content

                    do {
                        // Long operation with potential CloudKit interference
                        let enrichedContent = try await enrichContent(newContent)

                        // Fetch fresh after suspension
                        guard let freshArticle = try modelContext.fetch(descriptor).first else {
                            throw ArticleServiceError.articleDeleted
                        }

                        // Only update if still empty or was recently emptied
                        if freshArticle.content == nil || freshArticle.content == initialState {
                            freshArticle.content = enrichedContent
                            try modelContext.save()
                        }
                    } catch {
                        throw error
                    }
                }

                // CORRECT: Defensive nil checks
                func updateFromSync(article: Article, metadata: ArticleMetadata) {
                    if article.author == nil, let author = metadata.author {
                        article.author = author
                    }
                    if article.wordCount == nil, let wordCount = metadata.wordCount {
                        article.wordCount = wordCount
                    }
                }
            }
            """
        #expect(found(correct).isEmpty)
    }

    /// Seed 001's Fix 2 and Fix 3 and seed 000's "Real-World Example": all flow rules stay quiet.
    @Test func seedAfterCodeIsQuiet() {
        let after = """
            @Observable
            @MainActor
            final class ReaderViewModel {
                var article: Article
                var articleContent: String?
                var isLoading: Bool = false
                var errorMessage: String?

                @ObservationIgnored
                private var loadingTask: Task<Void, Never>?

                func loadContent() async {
                    guard articleContent == nil else { return }

                    loadingTask?.cancel()

                    isLoading = true
                    errorMessage = nil

                    let task = Task { [weak self] in
                        guard let self else { return }

                        do {
                            try Task.checkCancellation()

                            let updatedArticle = try await readerService.fetchContent(for: article, forceRefresh: false)

                            try Task.checkCancellation()

                            article = updatedArticle
                            articleContent = updatedArticle.content
                        } catch is CancellationError {
                            // Silently handle - task was cancelled, no error to show
                        } catch {
                            errorMessage = error.localizedDescription
                        }

                        isLoading = false
                    }

                    loadingTask = task
                    await task.value
                }
            }

            @MainActor
            final class ReaderService: ReaderServiceProtocol {
                func fetchContent(for article: Article, forceRefresh: Bool = false) async throws -> Article {
                    let articleId = article.id  // Capture ID before suspension

                    guard forceRefresh || article.content == nil else {
                        return article
                    }

                    let content = try await metadataDataSource.fetchContent(for: article.url, timeout: nil, forceRefresh: forceRefresh)

                    // Re-fetch fresh article from ModelContext after suspension
                    let predicate = #Predicate<Article> { $0.id == articleId }
                    let descriptor = FetchDescriptor<Article>(predicate: predicate)

                    guard let freshArticle = try modelContext.fetch(descriptor).first else {
                        throw ReaderServiceError.articleNotFound
                    }

                    // Use nil guards to prevent overwriting CloudKit-synced data
                    if freshArticle.content == nil {
                        freshArticle.content = content.content
                    }

                    if freshArticle.author == nil, let author = content.author {
                        freshArticle.author = author
                    }

                    try modelContext.save()
                    return freshArticle
                }
            }
            """
        #expect(found(after).isEmpty)
    }

    @Test func seed000ViewModelSafeErrorHandlingIsQuietAndItsWrongTwinIsFound() {
        let correct = """
            @MainActor final class ReaderViewModel {
                var content: String?
                var errorMessage: String?
                // ViewModel: Safe error handling
                func loadContent() async {
                    do {
                        let content = try await service.fetch(articleId)
                        self.content = content
                    } catch is CancellationError {
                        // Silently handle cancellation
                        Logger.reader.debug("Load cancelled")
                    } catch let error as LoadingError {
                        // Show user-friendly message
                        self.errorMessage = error.errorDescription
                    } catch {
                        // Unexpected error
                        self.errorMessage = "An unexpected error occurred. Please try again."
                    }
                }
            }
            """
        #expect(found(correct).isEmpty)
        let withoutCancellation = correct.replacingOccurrences(of: """
                    } catch is CancellationError {
                        // Silently handle cancellation
                        Logger.reader.debug("Load cancelled")
                    } catch let error as LoadingError {
            """, with: """
                    } catch let error as LoadingError {
            """)
        #expect(found(withoutCancellation) == ["cancellation_reported_as_error@12"])
    }

    /// The "isLoading set to false in all paths" checklist item: an early return in a catch skips the reset.
    @Test func loadingFlagLeftSetOnTheErrorPathIsFound() {
        let code = """
            @MainActor final class ReaderViewModel {
                var isLoading = false
                var errorMessage: String?
                func loadContent() async {
                    isLoading = true
                    do {
                        articleContent = try await service.fetch()
                    } catch is CancellationError {
                        return
                    } catch {
                        errorMessage = error.localizedDescription
                    }
                    isLoading = false
                }
            }
            """
        #expect(found(code) == ["loading_state_not_reset@9"])
    }
}
