import SwiftData
import SwiftUI

@main
struct ReaderApp: App {
    var body: some Scene {
        WindowGroup {
            LibraryView()
        }
        .modelContainer(for: Article.self)
    }
}

struct LibraryView: View {
    @Query(sort: \Article.title) private var articles: [Article]

    var body: some View {
        // A split view: the detail column keeps the reader while the sidebar's selection changes.
        NavigationSplitView {
            List(articles) { article in
                NavigationLink(article.title) {
                    ReaderView(viewModel: ReaderViewModel(article: article, readerService: LiveReaderService()))
                    ReaderViewFixed(viewModel: ReaderViewModelFixed(article: article, readerService: LiveReaderService()))
                }
            }
        } detail: {
            Text("Select an article")
        }
    }
}

protocol ReaderServiceProtocol: Sendable {
    func fetchContent(for article: Article, forceRefresh: Bool) async throws -> Article
}

protocol MetadataDataSource: Sendable {
    func fetchContent(for url: URL) async throws -> ArticleContent
}

struct ArticleContent: Sendable {
    let content: String
    let author: String?
}
