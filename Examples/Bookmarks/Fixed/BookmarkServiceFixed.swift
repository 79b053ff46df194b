import Foundation
import SwiftData

@MainActor
final class BookmarkServiceFixed {
    private let modelContext: ModelContext

    init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    private func findExistingBookmark(for url: URL) -> BookmarkFixed? {
        let predicate = #Predicate<BookmarkFixed> { $0.url == url }
        return try? modelContext.fetch(FetchDescriptor<BookmarkFixed>(predicate: predicate)).first
    }

    func save(url: URL, title: String) throws -> BookmarkFixed {
        if let existing = findExistingBookmark(for: url) {
            return existing
        }
        let bookmark = BookmarkFixed(url: url, title: title)
        modelContext.insert(bookmark)
        do {
            try modelContext.save()
        } catch {
            modelContext.rollback()
            if let existing = findExistingBookmark(for: url) {
                return existing  // another device synced the same URL meanwhile
            }
            throw error
        }
        return bookmark
    }

    func refreshTitle(of bookmark: BookmarkFixed, using fetcher: TitleFetcher) async {
        let id = bookmark.persistentModelID
        guard let url = bookmark.url else { return }
        let title = await Task.detached { fetcher.title(for: url) }.value
        // Re-fetch after the suspension: sync may have changed or deleted the bookmark meanwhile.
        guard let fresh = modelContext.model(for: id) as? BookmarkFixed else { return }
        fresh.title = title
    }
}
