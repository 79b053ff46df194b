import Foundation
import SwiftData

@MainActor
@Model
final class DieFixed {
    var value: Int = 1
    var locked: Bool = false
    var group: DiceGroupFixed?

    @Transient var isAnimating: Bool = false
    @Transient var animationTask: Task<Void, Never>?

    init(value: Int = 1) {
        self.value = value
    }

    func startAnimation() {
        animationTask?.cancel()
        isAnimating = true
        animationTask = Task { [weak self] in
            while !Task.isCancelled {
                self?.value = Int.random(in: 1...6)
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    func stopAnimation() {
        animationTask?.cancel()
        animationTask = nil
        isAnimating = false
    }

    func animateRoll() async {
        try? await Task.sleep(for: .milliseconds(250))
        value = Int.random(in: 1...6)
    }
}

@MainActor
@Model
final class DiceGroupFixed {
    var name: String = ""
    @Relationship(deleteRule: .cascade, inverse: \DieFixed.group) var dice: [DieFixed]? = []

    init(name: String) {
        self.name = name
    }
}
