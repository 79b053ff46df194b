import SwiftData
import SwiftUI

@main
struct ReadingListApp: App {
    let container: ModelContainer = {
        let configuration = ModelConfiguration(cloudKitDatabase: .none)
        return try! ModelContainer(for: Article.self, Tag.self, Folder.self, configurations: configuration)
    }()

    var body: some Scene {
        WindowGroup { Text("Reading list") }.modelContainer(container)
    }
}
