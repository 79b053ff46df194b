import SwiftData

/// The widget keeps its own local store of what it last showed.
@Model
final class Snapshot {
    @Attribute(.unique) var noteTitle: String
    var shownAt: Date

    init(noteTitle: String, shownAt: Date) {
        self.noteTitle = noteTitle
        self.shownAt = shownAt
    }
}
