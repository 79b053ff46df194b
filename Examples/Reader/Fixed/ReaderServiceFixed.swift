import Foundation
import SwiftData

@MainActor
final class LiveReaderServiceFixed: ReaderServiceProtocol {
    private let modelContext: ModelContext
    private let metadataDataSource: MetadataDataSource

    init(modelContext: ModelContext, metadataDataSource: MetadataDataSource) {
        self.modelContext = modelContext
        self.metadataDataSource = metadataDataSource
    }

    func fetchContent(for article: Article, forceRefresh: Bool = false) async throws -> Article {
        let articleId = article.id  // Capture the id before the suspension.

        guard forceRefresh || article.content == nil else { return article }

        let content = try await metadataDataSource.fetchContent(for: article.url)

        // Re-fetch a fresh reference after the suspension.
        let predicate = #Predicate<Article> { $0.id == articleId }
        guard let freshArticle = try modelContext.fetch(FetchDescriptor<Article>(predicate: predicate)).first else {
            throw ReaderServiceError.articleNotFound
        }
        if freshArticle.content == nil {
            freshArticle.content = content.content
        }
        try modelContext.save()
        return freshArticle
    }
}

enum ReaderServiceError: Error {
    case articleNotFound
}
