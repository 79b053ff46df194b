import Foundation
import SwiftData

@MainActor
final class LiveReaderService: ReaderServiceProtocol {
    private let modelContext: ModelContext
    private let metadataDataSource: MetadataDataSource

    init(modelContext: ModelContext, metadataDataSource: MetadataDataSource) {
        self.modelContext = modelContext
        self.metadataDataSource = metadataDataSource
    }

    func fetchContent(for article: Article, forceRefresh: Bool = false) async throws -> Article {
        guard forceRefresh || article.content == nil else { return article }

        let content = try await metadataDataSource.fetchContent(for: article.url)

        // CloudKit may have changed or deleted the article during the await.
        article.content = content.content
        try modelContext.save()
        return article
    }
}
