import SwiftData

@Model
final class Book {
    @Attribute(.unique) var isbn: String
    var title: String = ""

    init(isbn: String) { self.isbn = isbn }
}
