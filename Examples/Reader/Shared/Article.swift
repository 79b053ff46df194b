import Foundation
import SwiftData

/// A saved article. Synced with CloudKit, so every attribute has a default or is optional.
@Model
final class Article {
    var id: UUID = UUID()
    var url: URL = URL(string: "about:blank")!
    var title: String = ""
    var content: String?
    var author: String?
    var readPosition: Double = 0

    init(url: URL, title: String) {
        self.url = url
        self.title = title
    }
}
