import CoreData
import Foundation

extension Notification.Name {
    static let coreDataRemoteChangeFixed = Notification.Name("coreDataRemoteChangeFixed")
}

final class CoreDataManagerFixed {
    static let shared = CoreDataManagerFixed()
    static let localAuthor = "app"

    let persistentContainer = NSPersistentCloudKitContainer(name: "ListSyncFixed")
    var viewContext: NSManagedObjectContext { persistentContainer.viewContext }

    private var remoteChangeDebounceTimer: Timer?

    init() {
        persistentContainer.loadPersistentStores { _, error in
            if let error { print("Store failed: \(error)") }
        }
        viewContext.automaticallyMergesChangesFromParent = true
        viewContext.transactionAuthor = Self.localAuthor
        NotificationCenter.default.addObserver(
            self,
            selector: #selector(handlePersistentStoreRemoteChange(_:)),
            name: .NSPersistentStoreRemoteChange,
            object: persistentContainer.persistentStoreCoordinator
        )
    }

    func save() {
        guard viewContext.hasChanges else { return }
        try? viewContext.save()
    }

    @objc private func handlePersistentStoreRemoteChange(_ notification: Notification) {
        guard Thread.isMainThread else {
            DispatchQueue.main.async { [weak self] in
                self?.handlePersistentStoreRemoteChange(notification)
            }
            return
        }
        // Local saves are told apart by their transaction author in persistent history, not by a flag.
        remoteChangeDebounceTimer?.invalidate()
        remoteChangeDebounceTimer = Timer.scheduledTimer(withTimeInterval: 0.2, repeats: false) { [weak self] _ in
            self?.processRemoteChange()
        }
    }

    private func processRemoteChange() {
        viewContext.perform {
            self.viewContext.refreshAllObjects()
            DispatchQueue.main.async {
                NotificationCenter.default.post(name: .coreDataRemoteChangeFixed, object: nil)
            }
        }
    }

    func importLists(named names: [String]) {
        let context = persistentContainer.newBackgroundContext()
        context.transactionAuthor = Self.localAuthor
        context.perform {
            for name in names {
                let list = ItemList(context: context)
                list.name = name
            }
            try? context.save()
        }
    }

    func countLists(completion: @escaping (Int) -> Void) {
        viewContext.perform {
            let count = (try? self.viewContext.count(for: ItemList.fetchRequest())) ?? 0
            completion(count)
        }
    }
}
