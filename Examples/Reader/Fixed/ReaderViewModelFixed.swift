import Foundation
import Observation

@Observable
@MainActor
final class ReaderViewModelFixed {
    var article: Article
    var articleContent: String?
    var isLoading: Bool = false
    var errorMessage: String?

    @ObservationIgnored
    private var loadingTask: Task<Void, Never>?
    private let readerService: ReaderServiceProtocol

    init(article: Article, readerService: ReaderServiceProtocol) {
        self.article = article
        self.readerService = readerService
    }

    func reload() {
        loadingTask?.cancel()
        loadingTask = Task {
            await loadContent()
        }
    }

    func loadContent() async {
        loadingTask?.cancel()

        isLoading = true
        errorMessage = nil

        let task = Task { [weak self] in
            guard let self else { return }

            do {
                try Task.checkCancellation()

                let updated = try await readerService.fetchContent(for: article, forceRefresh: false)

                try Task.checkCancellation()

                article = updated
                articleContent = updated.content
            } catch is CancellationError {
                // Cancelled by a newer load: nothing to show.
            } catch {
                errorMessage = error.localizedDescription
            }

            isLoading = false
        }

        loadingTask = task
        await task.value
    }
}
