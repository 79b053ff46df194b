import SwiftData
import SwiftUI

@main
struct ReadingListApp: App {
    let container: ModelContainer = {
        let schema = Schema([Article.self, Tag.self, Folder.self])
        let configuration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example.ReadingList"))
        return try! ModelContainer(for: schema, configurations: [configuration])
    }()

    var body: some Scene {
        WindowGroup { Text("Reading list") }.modelContainer(container)
    }
}
