import SwiftUI

struct ReaderViewFixed: View {
    @Bindable var viewModel: ReaderViewModelFixed

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
        // Restarts only when the reader shows a different article.
        .task(id: viewModel.article.id) {
            await viewModel.loadContent()
        }
    }
}

struct ArticleHeaderFixed: View {
    let article: Article

    var body: some View {
        Text(article.title)
            .task(id: article.id) {
                await SummaryCache.shared.prefetch(article.url)
            }
    }
}
