import SwiftData

@Model
final class Note {
    @Attribute(.unique) var title: String
    var body: String = ""

    init(title: String) { self.title = title }
}
