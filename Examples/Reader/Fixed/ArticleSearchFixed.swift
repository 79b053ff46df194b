import Foundation
import Observation

@Observable
@MainActor
final class ArticleSearchFixed {
    var results: [URL] = []

    @ObservationIgnored
    private var searchTask: Task<Void, Never>?
    private let index: SearchIndex

    init(index: SearchIndex) {
        self.index = index
    }

    func search(_ query: String) {
        searchTask?.cancel()
        searchTask = Task {
            let found = await index.matches(for: query)
            guard !Task.isCancelled else { return }
            results = found
        }
    }
}
