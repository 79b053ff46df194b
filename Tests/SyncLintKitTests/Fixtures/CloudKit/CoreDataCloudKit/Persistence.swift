import CoreData

final class PersistenceController {
    let container: NSPersistentCloudKitContainer

    init() {
        container = NSPersistentCloudKitContainer(name: "Lists")
        container.loadPersistentStores { _, error in
            if let error {
                print("Store failed to load: \(error)")
            }
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
    }
}
