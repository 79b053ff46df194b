import Testing
@testable import SyncLintKit

/// Seeds 000 and 001 (the Luego reader race) and seed 002 patterns 8–9, for the task rules:
/// task_without_id, unstable_task_id, observed_task_handle, task_handle_overwritten, task_self_capture.
struct Seed000And001TaskTests {
    static let rules = ["task_without_id", "unstable_task_id", "observed_task_handle", "task_handle_overwritten", "task_self_capture"]

    /// The types the seed's snippets use, declared once so the index can answer questions about them.
    static let luegoModel = """
        @Model final class Article {
            var id: UUID = UUID()
            var title: String = ""
            var content: String?
            var url: URL = URL(string: "https://example.com")!
        }
        @Observable @MainActor final class ReaderViewModel {
            var article: Article
            var articleContent: String?
            var isLoading: Bool = false
            var errorMessage: String?
            var computedProperty: String { article.title + (articleContent ?? "") }
            init(article: Article) { self.article = article }
            func loadContent() async {}
        }
        """

    static func view(_ modifier: String) -> String {
        """
        struct ReaderView: View {
            @Bindable var viewModel: ReaderViewModel
            var body: some View {
                Text("Reader")
                    \(modifier)
            }
        }
        """
    }

    private func found(_ code: String, rules: [String] = rules, options: [String: [String: OptionValue]] = [:]) -> [String] {
        Harness.findings(sources: [SourceInput(path: "/seed/Model.swift", text: Self.luegoModel),
                                   SourceInput(path: "/seed/View.swift", text: code)],
                         rules: rules, options: options)
            .filter { $0.file == "/seed/View.swift" }
            .map { "\($0.ruleID)@\($0.line)" }
    }

    @Test func seed001Issue1TaskWithoutIDIsFound() {
        let code = Self.view(".task {\n            await viewModel.loadContent()\n        }")
        #expect(found(code) == ["task_without_id@5"])
        let message = Harness.findings(sources: [SourceInput(path: "/a.swift", text: Self.luegoModel), SourceInput(path: "/b.swift", text: code)],
                                       rules: ["task_without_id"]).first?.message ?? ""
        #expect(message.contains("viewModel.article.id"), "the message suggests the stable id the index finds: \(message)")
    }

    @Test func seed001Fix1AndSeed000CorrectTaskIDAreQuiet() {
        #expect(found(Self.view(".task(id: viewModel.article.id) {\n            await viewModel.loadContent()\n        }")).isEmpty)
    }

    @Test func seed000OneTimeSetupTaskIsQuiet() {
        #expect(found(Self.view(".task {\n            // One-time setup: analytics tracking, background sync\n            await trackScreenView()\n        }")).isEmpty)
    }

    @Test func seed000WrongMutableAndComputedTaskIDsAreFound() {
        #expect(found(Self.view(".task(id: viewModel.article.title) {  // Could change if article syncs\n            await viewModel.loadContent()\n        }"))
                == ["unstable_task_id@5"])
        #expect(found(Self.view(".task(id: viewModel.computedProperty) {  // Changes too frequently\n            await viewModel.loadContent()\n        }"))
                == ["unstable_task_id@5"])
    }

    @Test func seed000ObservedTaskPropertyIsFoundAndIgnoredOneIsQuiet() {
        let wrong = """
            // WRONG: Task property is observed
            @Observable
            final class BadViewModel {
                var loadingTask: Task<Void, Never>?  // ⚠️ SwiftUI watches this

                func load() async {
                    let task = Task { /* ... */ }
                    loadingTask = task  // ⚠️ Triggers view update, causes issues
                }
            }
            """
        // The seed is about observation; `load()` also replaces the handle (through a local) without cancelling
        // the task it held, which `task_handle_overwritten` reports in both versions.
        #expect(found(wrong) == ["observed_task_handle@4", "task_handle_overwritten@8"])
        let correct = """
            // CORRECT: Task property is hidden from observation
            @Observable
            final class GoodViewModel {
                @ObservationIgnored
                private var loadingTask: Task<Void, Never>?  // ✓ SwiftUI ignores

                func load() async {
                    let task = Task { /* ... */ }
                    loadingTask = task  // ✓ No unexpected view updates
                }
            }
            """
        #expect(found(correct) == ["task_handle_overwritten@9"], "hidden from observation, still replaced without a cancel")
    }

    /// Seed 000's whole "Real-World Example" and seed 001's Fix 2: every task rule stays quiet.
    @Test func seedCorrectViewModelIsQuiet() {
        let correct = """
            @Observable
            @MainActor
            final class ReaderViewModelFixed {
                var article: Article
                var articleContent: String?
                var isLoading: Bool = false
                var errorMessage: String?

                @ObservationIgnored
                private var loadingTask: Task<Void, Never>?
                private let readerService: ReaderServiceProtocol

                func loadContent() async {
                    loadingTask?.cancel()  // Cancel previous load

                    isLoading = true
                    errorMessage = nil

                    let task = Task { [weak self] in
                        guard let self else { return }

                        do {
                            try Task.checkCancellation()

                            let updated = try await readerService.fetchContent(
                                for: article,
                                forceRefresh: false
                            )

                            try Task.checkCancellation()

                            article = updated
                            articleContent = updated.content
                        } catch is CancellationError {
                            Logger.reader.debug("Load cancelled")
                        } catch {
                            errorMessage = error.localizedDescription
                        }

                        isLoading = false
                    }

                    loadingTask = task
                    await task.value
                }
            }
            """
        #expect(found(correct, options: ["task_self_capture": ["strict": .bool(true)]]).isEmpty)
    }

    /// Seed 000 calls a strong capture in a one-shot task a retain cycle. It is a temporary one that ends
    /// when the task does, so the default mode stays quiet and `strict: true` reports it (docs/departures-from-seeds.md).
    @Test func seed000StrongCaptureIsFoundInStrictMode() {
        let wrong = """
            final class FeedModel {
                var property: Int = 0
                func refresh() {
                    // WRONG: strong capture prevents deallocation
                    let task = Task {
                        let result = try await self.service.fetch()  // ⚠️ Retain cycle
                        self.property = result
                    }
                    _ = task
                }
            }
            """
        #expect(found(wrong, rules: ["task_self_capture"]).isEmpty)
        #expect(found(wrong, rules: ["task_self_capture"], options: ["task_self_capture": ["strict": .bool(true)]]) == ["task_self_capture@5"])
        let correct = wrong.replacingOccurrences(of: "let task = Task {\n", with: "let task = Task { [weak self] in\n            guard let self else { return }\n")
        #expect(found(correct, rules: ["task_self_capture"], options: ["task_self_capture": ["strict": .bool(true)]]).isEmpty)
    }

    @Test func seed002Pattern8ScheduledTaskIsFoundInStrictModeOnly() {
        let incorrect = """
            final class Die {
                func scheduleWork() {
                    Task {
                        // ❌ Strong capture of self - potential retain cycle
                        try? await Task.sleep(for: .seconds(1))
                        self.updateValue()
                    }
                }
            }
            """
        #expect(found(incorrect, rules: ["task_self_capture"]).isEmpty)
        #expect(found(incorrect, rules: ["task_self_capture"], options: ["task_self_capture": ["strict": .bool(true)]]) == ["task_self_capture@3"])
        let correct = """
            final class Die {
                func scheduleWork() {
                    Task { [weak self] in
                        try? await Task.sleep(for: .seconds(1))
                        guard let self else { return }
                        self.updateValue()
                    }
                }
            }
            """
        #expect(found(correct, rules: ["task_self_capture"], options: ["task_self_capture": ["strict": .bool(true)]]).isEmpty)
    }

    @Test func seed002Pattern9NestedStrongCaptureIsFound() {
        let incorrect = """
            final class Die {
                var value = 1
                func animateStep(step: Int) {
                    Task { [weak self] in
                        guard let self else { return }
                        // ...
                        Task {
                            self.animateStep(step: step + 1)  // ❌ Nested strong capture
                        }
                    }
                }
            }
            """
        #expect(found(incorrect, rules: ["task_self_capture"]) == ["task_self_capture@7"])
        let correct = """
            @MainActor @Model final class Die {
                var value: Int = 1
                func animateStep(step: Int) {
                    guard step < 10 else { return }

                    Task { [weak self] in
                        try? await Task.sleep(for: .milliseconds(50))
                        guard let self else { return }
                        self.value = Int.random(in: 1...6)
                        self.animateStep(step: step + 1)  // Recursive call with weak self
                    }
                }
            }
            """
        #expect(found(correct, rules: ["task_self_capture"], options: ["task_self_capture": ["strict": .bool(true)]]).isEmpty)
    }

    /// Seed 002 pattern 5's correct code stores an animation task that uses `self` strongly, but its loop is
    /// over a literal range and ends by itself, so the cycle is temporary: quiet. The same task polling in a
    /// `while` loop is a cycle that never ends.
    @Test func seed002Pattern5BoundedAnimationIsQuietAndEndlessOneIsFound() {
        let code = """
            @MainActor
            @Model
            class Die {
                var value: Int = 1
                @Transient
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
            }
            """
        #expect(found(code).isEmpty)
        let endless = code.replacingOccurrences(of: "for step in 1...10 {", with: "while true {")
        #expect(found(endless) == ["task_self_capture@11"])
    }
}
