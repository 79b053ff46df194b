import SwiftData
import SwiftUI

@main
struct DiceRollerApp: App {
    var body: some Scene {
        WindowGroup {
            TableViewFixed()
        }
        .modelContainer(for: [DiceGroup.self, Die.self, DiceGroupFixed.self, DieFixed.self])
    }
}
