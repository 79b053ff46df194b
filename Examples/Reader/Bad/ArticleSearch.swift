import Foundation
import Observation

@Observable
@MainActor
final class ArticleSearch {
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
            // A cancelled, older search still overwrites the newer results.
            results = found
        }
    }
}

protocol SearchIndex: Sendable {
    func matches(for query: String) async -> [URL]
}
