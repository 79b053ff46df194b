import SwiftData
import SwiftUI

@Model
final class APIConfiguration {
    var endpoint: String = ""
}

@main
struct ReadingListApp: App {
    let container = try! ModelContainer(for: Article.self, Tag.self, Folder.self, APIConfiguration.self)

    var body: some Scene {
        WindowGroup { Text("Reading list") }.modelContainer(container)
    }
}
