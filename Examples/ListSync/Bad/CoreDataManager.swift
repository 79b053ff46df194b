import CoreData
import Foundation

extension Notification.Name {
    static let coreDataRemoteChange = Notification.Name("coreDataRemoteChange")
}

final class CoreDataManager {
    static let shared = CoreDataManager()

    let persistentContainer = NSPersistentCloudKitContainer(name: "ListSync")
    var viewContext: NSManagedObjectContext { persistentContainer.viewContext }

    private var isLocalSave = false
    private var remoteChangeDebounceTimer: Timer?

    init() {
        persistentContainer.loadPersistentStores { _, error in
            if let error { print("Store failed: \(error)") }
        }
        viewContext.automaticallyMergesChangesFromParent = true
        NotificationCenter.default.addObserver(
            self,
            selector: #selector(handlePersistentStoreRemoteChange(_:)),
            name: .NSPersistentStoreRemoteChange,
            object: persistentContainer.persistentStoreCoordinator
        )
    }

    func save() {
        guard viewContext.hasChanges else { return }
        // Tells local saves from remote ones by timing.
        isLocalSave = true
        try? viewContext.save()
    }

    // Runs on the private thread that posts NSPersistentStoreRemoteChange.
    @objc private func handlePersistentStoreRemoteChange(_ notification: Notification) {
        if isLocalSave {
            isLocalSave = false
            return
        }
        remoteChangeDebounceTimer?.invalidate()
        // Scheduled on a thread whose run loop never runs: it never fires.
        remoteChangeDebounceTimer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: false) { [weak self] _ in
            self?.processRemoteChange()
        }
    }

    private func processRemoteChange() {
        viewContext.perform {
            self.viewContext.refreshAllObjects()
        }
        // Posted before the refresh above has run.
        NotificationCenter.default.post(name: .coreDataRemoteChange, object: nil)
    }

    func importLists(named names: [String]) throws {
        let context = persistentContainer.newBackgroundContext()
        for name in names {
            // A private-queue context used from the caller's thread.
            let list = ItemList(context: context)
            list.name = name
        }
        try context.save()
    }

    func countLists(completion: @escaping (Int) -> Void) {
        DispatchQueue.global(qos: .utility).async {
            // The main-queue context used from a background queue.
            let count = (try? self.viewContext.count(for: ItemList.fetchRequest())) ?? 0
            completion(count)
        }
    }
}
