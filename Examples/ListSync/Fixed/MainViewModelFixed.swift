import Combine
import CoreData
import Foundation

final class MainViewModelFixed: ObservableObject {
    @Published var lists: [ItemList] = []
    @Published var isDragging = false {
        didSet {
            if !isDragging, needsReload { loadLists() }
        }
    }
    private var needsReload = false

    init() {
        NotificationCenter.default.addObserver(
            self,
            selector: #selector(handleCoreDataRemoteChange(_:)),
            name: .coreDataRemoteChangeFixed,
            object: nil
        )
    }

    @objc private func handleCoreDataRemoteChange(_ notification: Notification) {
        if isDragging {
            needsReload = true  // reload as soon as the drag ends
            return
        }
        loadLists()
    }

    func loadLists() {
        needsReload = false
        let request = ItemList.fetchRequest()
        lists = (try? CoreDataManagerFixed.shared.viewContext.fetch(request)) ?? []
    }
}
