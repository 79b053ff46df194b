import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintIndex

/// SE-0461's `NonisolatedNonsendingByDefault` as a fact of the project: an async function with no isolation then runs on
/// its caller's actor instead of the concurrency pool. Xcode turns it on with its own setting or with Approachable
/// Concurrency (`SWIFT_APPROACHABLE_CONCURRENCY = YES`, Xcode 26); SwiftPM with `.enableUpcomingFeature`.
struct NonisolatedNonsendingTests {
    static let fixture = Repository.path("Tests/SyncLintKitTests/Fixtures/Projects/DefaultIsolation/Clock.xcodeproj/project.pbxproj")

    @Test func xcodeTargetsTakeTheFeatureWhenEveryConfigurationHasIt() throws {
        // The default-isolation fixture with its settings swapped: the project says Approachable Concurrency in both
        // configurations; the watch target turns the feature on for Debug only and Approachable Concurrency off for Release.
        let text = try String(contentsOfFile: Self.fixture, encoding: .utf8)
            .replacingOccurrences(of: "SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor; SWIFT_VERSION = 6.0;", with: "SWIFT_APPROACHABLE_CONCURRENCY = YES;")
            .replacingOccurrences(of: "buildSettings = {SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor; }; name = Debug;",
                                  with: "buildSettings = {SWIFT_UPCOMING_FEATURE_NONISOLATED_NONSENDING_BY_DEFAULT = YES; }; name = Debug;")
            .replacingOccurrences(of: "buildSettings = {SWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated; }; name = Release; };\n\t\tC0000031",
                                  with: "buildSettings = {SWIFT_APPROACHABLE_CONCURRENCY = NO; }; name = Release; };\n\t\tC0000031")
        #expect(text.contains("SWIFT_APPROACHABLE_CONCURRENCY = NO"), "the fixture still has the shape this test edits")
        let project = try XcodeProject.read(path: Self.fixture, text: text).get()
        let byName = Dictionary(uniqueKeysWithValues: project.targets.map { ($0.name, $0.nonisolatedAsyncRunsOnCaller) })
        #expect(byName["Clock"] == true, "the project's Debug and Release both turn on Approachable Concurrency")
        #expect(byName["ClockWatch"] == false, "Debug has the feature, Release turns Approachable Concurrency off")
        #expect(byName["ClockWidget"] == true, "the target sets neither key: the project's settings apply")
        let unchanged = try XcodeProject.read(path: Self.fixture, text: String(contentsOfFile: Self.fixture, encoding: .utf8)).get()
        #expect(unchanged.targets.allSatisfy { !$0.nonisolatedAsyncRunsOnCaller }, "no target of the original fixture has it")
    }

    static let manifest = """
        // swift-tools-version: 6.2
        import PackageDescription

        let package = Package(
            name: "Feature",
            targets: [
                .target(name: "Feature", swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]),
                .target(name: "Legacy", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
            ]
        )
        """

    @Test func packageTargetsAreReadFromTheManifest() {
        let index = Probe.index([
            "/pkg/Package.swift": Self.manifest,
            "/pkg/Sources/Feature/Feed.swift": "final class Feed { func load() async {} }",
            "/pkg/Sources/Legacy/Store.swift": "final class Store { func load() async {} }",
        ])
        #expect(index.nonisolatedAsyncRunsOnCaller("/pkg/Sources/Feature/Feed.swift"))
        #expect(!index.nonisolatedAsyncRunsOnCaller("/pkg/Sources/Legacy/Store.swift"))
        #expect(!index.nonisolatedAsyncRunsOnCaller("/elsewhere/Loose.swift"), "a file of no target: the language's default")
    }

    @Test func publishedWriteOffMainKeepsOnlyTheTaskWhereAsyncMethodsRunOnTheirCaller() {
        let code = """
            final class XXModel: ObservableObject {
                @Published var items: [Int] = []
                @Published var isLoading = false
                func load() async {
                    isLoading = true
                }
                func refresh() {
                    Task {
                        items = await fetch()
                    }
                }
            }
            struct XXView: View {
                @StateObject var model = XXModel()
                var body: some View { Text(model.isLoading ? "…" : "\\(model.items.count)") }
            }
            """
        let found = Self.findings("published_write_off_main", code)
        #expect(found == ["/pkg/Sources/Feature/Code.swift:9", "/pkg/Sources/Legacy/Code.swift:5", "/pkg/Sources/Legacy/Code.swift:9"],
                "the async method runs on its caller's actor in Feature; a Task of a class with no isolation runs on the pool in both")
    }

    /// The rule's findings on the same code in the target with the feature and in the one without it (`XX` in names
    /// becomes the target's name), linted as `DefaultIsolationTests` lints its two targets.
    static func findings(_ rule: String, _ code: String) -> [String] {
        DefaultIsolationTests.findings(rule, DefaultIsolationTests.inBothTargets(code, manifest: Self.manifest))
    }

    @Test func timerWithoutRunLoopKeepsOnlyConcurrentFunctionsWhereAsyncFunctionsRunOnTheirCaller() {
        let code = """
            import Foundation
            final class XXPoller {
                var timer: Timer?
                func refresh() async {
                    timer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in }
                }
                nonisolated func resume() async {
                    RunLoop.current.add(Timer(timeInterval: 30, repeats: true) { _ in }, forMode: .common)
                }
                @concurrent func sync() async {
                    RunLoop.current.add(Timer(timeInterval: 30, repeats: true) { _ in }, forMode: .common)
                }
            }
            """
        #expect(Self.findings("timer_without_run_loop", code) == [
            "/pkg/Sources/Feature/Code.swift:11",
            "/pkg/Sources/Legacy/Code.swift:5", "/pkg/Sources/Legacy/Code.swift:8", "/pkg/Sources/Legacy/Code.swift:11",
        ], "in Feature the plain and nonisolated async methods run on their caller's actor; @concurrent runs on the pool")
    }

    @Test func viewContextOffMainKeepsOnlyConcurrentFunctionsWhereAsyncFunctionsRunOnTheirCaller() {
        let code = """
            import CoreData
            final class XXStore {
                let container = NSPersistentContainer(name: "Model")
                func load() async {
                    _ = try? container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item"))
                }
                nonisolated func refresh() async {
                    container.viewContext.refreshAllObjects()
                }
                @concurrent func purge() async {
                    container.viewContext.reset()
                }
            }
            """
        #expect(Self.findings("view_context_off_main", code) == [
            "/pkg/Sources/Feature/Code.swift:11",
            "/pkg/Sources/Legacy/Code.swift:5", "/pkg/Sources/Legacy/Code.swift:8", "/pkg/Sources/Legacy/Code.swift:11",
        ], "in Feature the plain and nonisolated async methods run on their caller's actor; @concurrent runs on the pool")
    }
}
