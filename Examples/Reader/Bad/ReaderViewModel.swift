import Foundation
import Observation

@Observable
@MainActor
final class ReaderViewModel {
    var article: Article
    var articleContent: String?
    var isLoading: Bool = false
    var errorMessage: String?

    // Observed: storing the handle invalidates every view that reads the model.
    private var loadingTask: Task<Void, Never>?
    private let readerService: ReaderServiceProtocol

    init(article: Article, readerService: ReaderServiceProtocol) {
        self.article = article
        self.readerService = readerService
    }

    func reload() {
        // The previous load keeps running; whichever finishes last wins.
        loadingTask = Task {
            await loadContent()
        }
    }

    func loadContent() async {
        guard articleContent == nil else { return }
        isLoading = true
        do {
            let updated = try await readerService.fetchContent(for: article, forceRefresh: false)
            article = updated
            articleContent = updated.content
        } catch {
            // A cancelled load shows "cancelled" to the user.
            errorMessage = error.localizedDescription
            return
        }
        isLoading = false
    }
}
