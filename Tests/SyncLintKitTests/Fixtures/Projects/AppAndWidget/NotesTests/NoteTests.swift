import SwiftData
import XCTest

final class NoteTests: XCTestCase {
    func testInsert() throws {
        let container = try! ModelContainer(for: Note.self, configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.Notes")))
        let context = ModelContext(container)
        context.insert(Note(title: "a"))
        try context.save()
    }
}
