import Foundation
import SwiftData

@MainActor
final class BookmarkService {
    private let modelContext: ModelContext

    init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    func save(url: URL, title: String) throws -> Bookmark {
        // No lookup first: saving the same URL twice (or on two devices) makes duplicates.
        let bookmark = Bookmark(url: url, title: title)
        modelContext.insert(bookmark)
        do {
            try modelContext.save()
        } catch {
            // The failed insert stays in the context; every later save fails too.
            throw error
        }
        return bookmark
    }

    func refreshTitle(of bookmark: Bookmark, using fetcher: TitleFetcher) {
        DispatchQueue.global().async {
            // Written off the main thread the context belongs to.
            bookmark.title = fetcher.title(for: bookmark.url)
        }
    }
}

protocol TitleFetcher: Sendable {
    func title(for url: URL) -> String
}
