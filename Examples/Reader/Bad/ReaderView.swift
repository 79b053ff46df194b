import SwiftUI

struct ReaderView: View {
    @Bindable var viewModel: ReaderViewModel

    var body: some View {
        Group {
            if viewModel.isLoading {
                ProgressView()
            } else if let content = viewModel.articleContent {
                ScrollView { Text(content) }
            } else if let error = viewModel.errorMessage {
                Text(error)
            }
        }
        // Runs once per view identity: a new article from the parent neither cancels nor restarts it.
        .task {
            await viewModel.loadContent()
        }
    }
}

struct ArticleHeader: View {
    let article: Article

    var body: some View {
        Text(article.title)
            // CloudKit rewrites the title while the summary loads, restarting the load each time.
            .task(id: article.title) {
                await SummaryCache.shared.prefetch(article.url)
            }
    }
}
