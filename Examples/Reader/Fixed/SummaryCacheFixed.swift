import Foundation

final class SummaryCacheFixed {
    private var summaries: [URL: String] = [:]
    private var refreshTask: Task<Void, Never>?

    func startRefreshing() {
        refreshTask?.cancel()
        refreshTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(60))
                guard let self else { return }
                self.refreshAll()
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
