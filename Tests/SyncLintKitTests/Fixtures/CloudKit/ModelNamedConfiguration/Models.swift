import Foundation
import SwiftData

@Model
final class Article {
    @Attribute(.unique) var url: URL
    var title: String = ""
    var tags: [Tag] = []
    @Relationship(deleteRule: .deny) var folder: Folder?

    init(url: URL) {
        self.url = url
    }
}

@Model
final class Tag {
    var name: String = ""
    var articles: [Article]?
}

@Model
final class Folder {
    var name: String = ""
    var articles: [Article]?
}
