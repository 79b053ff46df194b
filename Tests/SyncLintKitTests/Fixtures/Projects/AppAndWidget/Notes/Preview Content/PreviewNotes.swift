import SwiftData

@MainActor
let previewContainer = try! ModelContainer(for: Note.self, configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.Notes")))
