import Foundation
import SwiftData

@Model
final class Bookmark {
    // CloudKit has no unique constraints: the CloudKit store fails to load.
    @Attribute(.unique) var url: URL
    // Neither optional nor defaulted: CloudKit records may lack it.
    var title: String
    var savedDate: Date = Date()
    // Relationships must be optional with CloudKit.
    var tags: [BookmarkTag] = []
    @Relationship(deleteRule: .deny) var folder: BookmarkFolder?
    // UI state saved to disk and synced to every device.
    var isSelected: Bool = false

    init(url: URL, title: String) {
        self.url = url
        self.title = title
    }
}

@Model
final class BookmarkTag {
    var name: String = ""
    var bookmarks: [Bookmark]?
}

@Model
final class BookmarkFolder {
    var name: String = ""
    var bookmarks: [Bookmark]?
}

/// Never added to the container below.
@Model
final class ReadingStats {
    var articlesRead: Int = 0
}
