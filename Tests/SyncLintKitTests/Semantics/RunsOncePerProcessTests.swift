import Foundation
import SyncLintFacts
import Testing
@testable import SyncLintKit

/// Set-up that runs once per process (`ProjectIndex.runsOncePerProcess`): in a program, a method every call of which is
/// made, outside loops, from the `init` of a singleton (or from such a method in turn) registers its observer and starts
/// its listener once, for the life of the app. A second caller elsewhere (a view's `onAppear`), a call in a loop, or a
/// library (callers outside the run) keep the findings.
struct RunsOncePerProcessTests {
    static let app = """
        @main struct PlayerApp: App {
            var body: some Scene { WindowGroup { Text("Player") } }
        }
        """
    /// `setupObservers()` drops an observer token and starts an endless listener; only the singleton's `init` calls it.
    static let endpoint = """
        final class AudioEndpoint {
            static let shared = AudioEndpoint()
            private init() {
                configure()
            }
            private func configure() {
                setupObservers()
            }
        }
        extension AudioEndpoint {
            func setupObservers() {
                NotificationCenter.default.addObserver(forName: .routeChanged, object: nil, queue: .main) { _ in }
                Task {
                    for await _ in NotificationCenter.default.notifications(named: .settingsChanged) { await reload() }
                }
            }
            func reload() async {}
        }
        """
    static let view = """
        struct PlayerView: View {
            var body: some View { Text("Playing").onAppear { AudioEndpoint.shared.setupObservers() } }
        }
        """

    private func findingLines(_ sources: [(String, String)], inXcodeProject: Bool = true) -> [Int] {
        var configuration = Configuration()
        configuration.onlyRules = ["discarded_observer_token", "uncancellable_task_loop"]
        configuration.confidence = .medium
        let target = XcodeTarget(name: "Player", productType: "com.apple.product-type.application", files: Set(sources.map(\.0)), entitlements: nil)
        let layout = inXcodeProject ? ProjectLayout(xcodeProjects: [XcodeProject(path: "/app/Player.xcodeproj/project.pbxproj", sourceRoot: "/app",
                                                                                 targets: [target])]) : ProjectLayout()
        return Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, layout: layout, configuration: configuration)
            .findings.map(\.line).sorted()
    }

    @Test func aMethodCalledOnlyFromASingletonsInitRunsOnce() {
        #expect(findingLines([("/app/PlayerApp.swift", Self.app), ("/app/AudioEndpoint.swift", Self.endpoint)]) == [])
    }

    @Test func aSecondCallerFromAViewRunsItOnEveryAppearance() {
        #expect(findingLines([("/app/PlayerApp.swift", Self.app), ("/app/AudioEndpoint.swift", Self.endpoint),
                              ("/app/PlayerView.swift", Self.view)]) == [12, 13])
    }

    @Test func aCallInALoopRunsItAgain() {
        let looped = Self.endpoint.replacingOccurrences(of: "        setupObservers()\n", with: "        for _ in 0..<2 { setupObservers() }\n")
        #expect(findingLines([("/app/PlayerApp.swift", Self.app), ("/app/AudioEndpoint.swift", looped)]) == [12, 13])
    }

    @Test func withoutAProgramItsCallersMayBeOutsideTheRun() {
        #expect(findingLines([("/app/PlayerApp.swift", Self.app), ("/app/AudioEndpoint.swift", Self.endpoint)], inXcodeProject: false) == [12, 13])
    }
}
