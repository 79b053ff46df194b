import SwiftData
import SwiftUI

@main
struct ReadingListApp: App {
    var body: some Scene {
        WindowGroup { Text("Reading list") }
            .modelContainer(for: [Article.self, Tag.self, Folder.self])
    }
}
