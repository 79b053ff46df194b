import SwiftData
import SwiftUI

@main
struct BookmarksApp: App {
    let container: ModelContainer = {
        let schema = Schema([Bookmark.self, BookmarkTag.self, BookmarkFolder.self])
        let configuration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example.Bookmarks"))
        do {
            return try ModelContainer(for: schema, configurations: [configuration])
        } catch {
            // Any schema or iCloud account problem now crashes every launch.
            fatalError("Could not create ModelContainer: \(error)")
        }
    }()

    var body: some Scene {
        WindowGroup {
            BookmarkList()
        }
        .modelContainer(container)
    }
}

struct BookmarkList: View {
    @Query(sort: \Bookmark.savedDate) private var bookmarks: [Bookmark]

    var body: some View {
        List(bookmarks) { Text($0.title) }
    }
}
