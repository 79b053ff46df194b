import SwiftData

enum WidgetStore {
    static func make() throws -> ModelContainer {
        let configuration = ModelConfiguration(cloudKitDatabase: .none)
        return try ModelContainer(for: Snapshot.self, configurations: configuration)
    }
}
