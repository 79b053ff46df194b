import Combine
import CoreData
import Foundation

final class MainViewModel: ObservableObject {
    @Published var lists: [ItemList] = []
    @Published var isDragging = false
    @Published var isEditModeActive = false

    init() {
        NotificationCenter.default.addObserver(
            self,
            selector: #selector(handleCoreDataRemoteChange(_:)),
            name: .coreDataRemoteChange,
            object: nil
        )
    }

    @objc private func handleCoreDataRemoteChange(_ notification: Notification) {
        if isDragging || isEditModeActive {
            // The change is dropped: nothing reloads once the drag ends.
            return
        }
        loadLists()
    }

    func loadLists() {
        let request = ItemList.fetchRequest()
        lists = (try? CoreDataManager.shared.viewContext.fetch(request)) ?? []
    }
}
