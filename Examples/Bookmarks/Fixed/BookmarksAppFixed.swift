import SwiftData
import SwiftUI

struct BookmarksAppFixed: App {
    let container: ModelContainer = {
        let schema = Schema([BookmarkFixed.self, BookmarkTagFixed.self, BookmarkFolderFixed.self, ReadingStatsFixed.self])
        let configuration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example.Bookmarks"))
        do {
            return try ModelContainer(for: schema, configurations: [configuration])
        } catch {
            // Keep the app usable: a local store this session, and tell the user sync is off.
            SyncStatus.shared.report(error)
            let local = ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)
            return try! ModelContainer(for: schema, configurations: [local])
        }
    }()

    var body: some Scene {
        WindowGroup {
            Text("Bookmarks")
        }
        .modelContainer(container)
    }
}
