import Foundation

final class DiceTable {
    let dice: [Die]

    init(dice: [Die]) {
        self.dice = dice
    }

    func rollAll(completion: @escaping () -> Void) {
        var completedCount = 0
        for die in dice {
            DispatchQueue.main.async {
                die.animateRoll {
                    // Each completion bumps the same counter with no synchronization.
                    completedCount += 1
                    if completedCount == self.dice.count {
                        completion()
                    }
                }
            }
        }
    }

    func waitForRolls() async {
        let semaphore = DispatchSemaphore(value: 0)
        rollAll { semaphore.signal() }
        // Blocks a thread of the cooperative pool.
        semaphore.wait()
    }
}
