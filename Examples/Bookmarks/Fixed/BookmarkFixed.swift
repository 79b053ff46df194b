import Foundation
import SwiftData

/// A saved link. Unique by `url`: CloudKit cannot enforce it, so `BookmarkServiceFixed` looks for an
/// existing bookmark before inserting.
@Model
final class BookmarkFixed {
    var url: URL?
    var title: String = ""
    var savedDate: Date = Date()
    @Relationship(inverse: \BookmarkTagFixed.bookmarks) var tags: [BookmarkTagFixed]? = []
    @Relationship(deleteRule: .nullify) var folder: BookmarkFolderFixed?
    @Transient var isSelected: Bool = false

    init(url: URL, title: String) {
        self.url = url
        self.title = title
    }
}

@Model
final class BookmarkTagFixed {
    var name: String = ""
    var bookmarks: [BookmarkFixed]?
}

@Model
final class BookmarkFolderFixed {
    var name: String = ""
    var bookmarks: [BookmarkFixed]?
}

@Model
final class ReadingStatsFixed {
    var articlesRead: Int = 0
}
