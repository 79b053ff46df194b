import Foundation
import SwiftData

@MainActor
@Model
final class Die {
    var value: Int = 1
    var locked: Bool = false
    var group: DiceGroup?

    @Transient var isAnimating: Bool = false
    @Transient var animationTask: Task<Void, Never>?

    init(value: Int = 1) {
        self.value = value
    }

    func startAnimation() {
        animationTask?.cancel()
        isAnimating = true
        // Nothing can stop this loop: the handle is thrown away and it never checks for cancellation.
        Task {
            while true {
                value = Int.random(in: 1...6)
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    func stopAnimation() {
        animationTask?.cancel()
        isAnimating = false
    }

    func animateRoll(completion: @escaping () -> Void) {
        // Legacy GCD inside a main-actor model.
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.25) {
            self.value = Int.random(in: 1...6)
            completion()
        }
    }
}

@MainActor
@Model
final class DiceGroup {
    var name: String = ""
    @Relationship(deleteRule: .cascade, inverse: \Die.group) var dice: [Die]? = []

    init(name: String) {
        self.name = name
    }
}
