import Testing
@testable import SyncLintKit

/// Seed 002's concurrency and view-lifecycle patterns: Incorrect snippets found, Correct snippets quiet.
struct Seed002ConcurrencyTests {
    static let rules = ["gcd_in_async_context", "uncancellable_task_loop", "unsynchronized_capture_mutation", "on_appear_task",
                        "missing_disappear_cleanup", "alias_computed_property", "blocking_wait_in_async", "task_self_capture"]

    /// Die as seed 002 defines it (pattern 1 and 5), so the index knows its methods.
    static let die = """
        @MainActor
        @Model
        class Die {
            var value: Int = 1
            var locked: Bool = false
            @Transient var isAnimating: Bool = false
            @Transient var animationTask: Task<Void, Never>?
            func startAnimation() {}
            func stopAnimation() {
                animationTask?.cancel()
                animationTask = nil
            }
        }
        """

    private func found(_ code: String) -> [String] {
        Harness.findings(sources: [SourceInput(path: "/seed/Die.swift", text: Self.die), SourceInput(path: "/seed/Code.swift", text: code)],
                         rules: Self.rules)
            .filter { $0.file == "/seed/Code.swift" }
            .map { "\($0.ruleID)@\($0.line)" }
    }

    /// Pattern 4's incorrect `animateRoll`, in the `@MainActor` model the seed's design puts it in.
    @Test func pattern4LegacyGCDIsFoundAndTaskSleepIsQuiet() {
        let incorrect = """
            @MainActor final class DieAnimator {
                var value = 1
                func animateRoll() {
                    // ❌ Using legacy GCD
                    DispatchQueue.main.asyncAfter(deadline: .now() + 0.25) {
                        self.value = Int.random(in: 1...6)
                    }
                }
            }
            """
        #expect(found(incorrect) == ["gcd_in_async_context@5"])
        let correct = """
            @MainActor final class DieAnimator {
                var value = 1
                @MainActor
                func animateRoll() async {
                    let delay = Duration.milliseconds(Int.random(in: 0...250))
                    try? await Task.sleep(for: delay)

                    for _ in 1...10 {
                        self.value = Int.random(in: 1...6)
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                }
            }
            """
        #expect(found(correct).isEmpty)
    }

    @Test func pattern5CancellableAnimationIsQuiet() {
        let correct = """
            @MainActor
            final class DieAnimation {
                var value: Int = 1
                var animationTask: Task<Void, Never>?

                func startAnimation() {
                    animationTask?.cancel()  // Cancel any existing animation

                    animationTask = Task {
                        for step in 1...10 {
                            guard !Task.isCancelled else { return }
                            self.value = Int.random(in: 1...6)
                            try? await Task.sleep(for: .milliseconds(50))
                        }
                    }
                }

                func stopAnimation() {
                    animationTask?.cancel()
                    animationTask = nil
                }
            }
            """
        #expect(found(correct).isEmpty)
    }

    @Test func pattern6CompletionCounterRaceIsFoundAndBothCorrectOptionsAreQuiet() {
        let incorrect = """
            final class DiceTable {
                func rollAllWithAnimation(completion: @escaping () -> Void) {
                    var completedCount = 0  // ❌ Not thread-safe!

                    for die in dice {
                        DispatchQueue.main.async {
                            die.animateRoll {
                                completedCount += 1  // ❌ Race condition!
                                if completedCount == totalCount {
                                    completion()
                                }
                            }
                        }
                    }
                }
            }
            """
        #expect(found(incorrect) == ["unsynchronized_capture_mutation@8"])
        let optionA = """
            final class DiceTable {
                @MainActor
                func rollAllWithAnimation() async {
                    await withTaskGroup(of: Void.self) { group in
                        for die in dice where !die.locked {
                            group.addTask {
                                await die.animateRoll()
                            }
                        }
                    }
                    // All animations complete here
                }
            }
            """
        #expect(found(optionA).isEmpty)
        let optionB = """
            final class DiceTable {
                @MainActor
                func rollAllWithAnimation(completion: @escaping () -> Void) {
                    var completedCount = 0  // Main-actor isolated
                    let totalCount = dice.filter { !$0.locked }.count

                    for die in dice where !die.locked {
                        Task {
                            await die.animateRoll()
                            completedCount += 1
                            if completedCount == totalCount {
                                completion()
                            }
                        }
                    }
                }
            }
            """
        #expect(found(optionB).isEmpty)
    }

    @Test func pattern7DuplicateStateIsFoundByTheOptInRule() {
        let incorrect = """
            struct ContentView: View {
                @State private var diceGroup: DiceGroup
                @State private var isAnimating: Bool = false  // ❌ Duplicate state

                var isAnyDieAnimating: Bool {
                    isAnimating  // ❌ Doesn't check actual dice state
                }
            }
            """
        #expect(found(incorrect) == ["alias_computed_property@5"])
        let correct = """
            struct ContentView: View {
                @State private var diceGroup: DiceGroup

                var isAnyDieAnimating: Bool {
                    diceGroup.dice.contains { $0.isAnimating }  // ✓ Computes from source
                }
            }
            """
        #expect(found(correct).isEmpty)
    }

    @Test func pattern10CleanupOnDisappearIsQuietAndItsAbsenceIsFound() {
        let correct = """
            struct DieView: View {
                let die: Die

                var body: some View {
                    DieContent(value: die.value)
                        .onAppear { die.startAnimation() }
                        .onDisappear {
                            die.stopAnimation()
                        }
                }
            }
            """
        #expect(found(correct).isEmpty)
        let incorrect = correct.replacingOccurrences(of: """
                        .onDisappear {
                            die.stopAnimation()
                        }
            """, with: "")
        #expect(found(incorrect) == ["missing_disappear_cleanup@6"])
    }

    /// Pitfall 4 (no cancellation) and pitfall 5 (ignoring the view lifecycle) in their commonest shapes.
    @Test func pitfalls4And5AreFound() {
        let code = """
            struct DiceBoard: View {
                @State private var dice: [Int] = []
                var body: some View {
                    Text("\\(dice.count)")
                        .onAppear {
                            Task {
                                while true {
                                    dice.shuffle()
                                    try? await Task.sleep(for: .seconds(1))
                                }
                            }
                        }
                }
            }
            """
        #expect(found(code) == ["on_appear_task@5", "uncancellable_task_loop@6"])
    }

    /// Pattern 11's animation modifier and pattern 12's async test are quiet.
    @Test func patterns11And12AreQuiet() {
        let code = """
            struct DieView: View {
                let die: Die
                var body: some View {
                    DieContent(value: die.value)
                        .animation(.easeOut(duration: 0.3), value: die.value)
                }
            }

            @Test
            func testDieAnimation() async throws {
                let die = Die(sides: 6)
                await die.animateRoll()
                #expect(die.value >= 1 && die.value <= 6)
                #expect(die.isAnimating == false)
            }
            """
        #expect(found(code).isEmpty)
    }
}
