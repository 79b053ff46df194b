import SwiftData
import SwiftUI

@main
struct ReadingListApp: App {
    let notes = try! ModelContainer(for: Note.self, configurations: ModelConfiguration(cloudKitDatabase: .automatic))
    let library = try! ModelContainer(for: Article.self, Tag.self, Folder.self,
                                      configurations: ModelConfiguration("Library", cloudKitDatabase: .none))

    var body: some Scene {
        WindowGroup { Text("Reading list") }.modelContainer(notes)
    }
}
