import Foundation

@MainActor
final class DiceTableFixed {
    let dice: [DieFixed]

    init(dice: [DieFixed]) {
        self.dice = dice
    }

    func rollAll() async {
        await withTaskGroup(of: Void.self) { group in
            for die in dice where !die.locked {
                group.addTask {
                    await die.animateRoll()
                }
            }
        }
        // All animations complete here.
    }
}
