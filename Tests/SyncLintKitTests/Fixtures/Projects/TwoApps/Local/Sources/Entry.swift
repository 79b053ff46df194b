import SwiftData

@Model
final class Entry {
    @Attribute(.unique) var day: String
    var text: String = ""

    init(day: String) { self.day = day }
}
