import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintIndex

/// Swift 6.2's default actor isolation as a fact of the project: Xcode's `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`
/// per target, SwiftPM's `.defaultIsolation(MainActor.self)` per package target. In such a module every declaration
/// with no isolation of its own is `@MainActor`; `nonisolated`, `@concurrent`, actors and `Task.detached` keep theirs.
struct DefaultIsolationTests {
    static let project = Repository.path("Tests/SyncLintKitTests/Fixtures/Projects/DefaultIsolation")

    // MARK: The fact

    @Test func xcodeTargetsTakeTheSettingWhenEveryConfigurationAgrees() throws {
        let path = "\(Self.project)/Clock.xcodeproj/project.pbxproj"
        let project = try XcodeProject.read(path: path, text: String(contentsOfFile: path, encoding: .utf8)).get()
        let byName = Dictionary(uniqueKeysWithValues: project.targets.map { ($0.name, $0.defaultsToMainActor) })
        #expect(byName["Clock"] == true, "the project's Debug and Release both say MainActor; the target sets nothing")
        #expect(byName["ClockWatch"] == false, "Debug says MainActor, Release nonisolated: no default")
        #expect(byName["ClockWidget"] == false, "the target's own nonisolated wins over the project's")
    }

    @Test func packageTargetsAreReadFromTheManifest() {
        let index = Probe.index([
            "/pkg/Package.swift": Self.manifest,
            "/pkg/Sources/Feature/Feed.swift": "final class Feed { func load() {} }",
            "/pkg/Sources/Legacy/Store.swift": "final class Store { func load() {} }",
            "/pkg/Custom/Code/Sync.swift": "final class Sync { func load() {} }",
        ])
        #expect(index.packageTargets.map(\.name) == ["Feature", "Legacy", "Custom", "FeatureTests"])
        #expect(index.defaultsToMainActor("/pkg/Sources/Feature/Feed.swift"))
        #expect(!index.defaultsToMainActor("/pkg/Sources/Legacy/Store.swift"))
        #expect(index.defaultsToMainActor("/pkg/Custom/Code/Sync.swift"), "`path:` and settings bound to a name")
        #expect(!index.defaultsToMainActor("/pkg/Tests/FeatureTests/FeedTests.swift"), "a condition makes configurations differ")
        #expect(index.isolation(ofType: "Feed") == .mainActor)
        #expect(index.isolation(ofType: "Store") == .none)
    }

    static let manifest = """
        // swift-tools-version: 6.2
        import PackageDescription

        let shared: [SwiftSetting] = [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]

        let package = Package(
            name: "Feature",
            targets: [
                .target(name: "Feature", swiftSettings: [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]),
                .target(name: "Legacy", swiftSettings: [.swiftLanguageMode(.v5)]),
                .target(name: "Custom", path: "Custom/Code", swiftSettings: shared),
                .testTarget(name: "FeatureTests", swiftSettings: [.defaultIsolation(MainActor.self, .when(configuration: .debug))]),
            ]
        )
        """

    // MARK: Isolation in a module that defaults to the main actor

    @Test func declarationsWithoutIsolationOfTheirOwnAreMainActor() {
        let index = Probe.index([
            "/pkg/Package.swift": Self.manifest,
            "/pkg/Sources/Feature/Code.swift": """
                final class Plain { func work() {}; func load() async {} }
                nonisolated final class Unbound { func work() {} }
                actor Cache { func work() {} }
                @globalActor actor StoreActor { static let shared = StoreActor() }
                @StoreActor final class Stored { func work() {} }
                extension Plain {
                    nonisolated func key() -> String { "" }
                    @concurrent func fetch() async {}
                }
                func helper() {}
                func loader() async {}
                nonisolated func free() async {}
                """,
            "/pkg/Sources/Legacy/Code.swift": "func legacyLoader() async {}\nfinal class Old { func work() {} }",
        ])
        func own(_ type: String?, _ name: String) -> ExecutionContext? {
            index.summary(of: FunctionKey(typeName: type, name: name)).map { index.resolved($0.declaredContext) }
        }
        #expect(index.isolation(ofType: "Plain") == .mainActor)
        #expect(index.isolation(ofType: "Unbound") == .none, "declared nonisolated")
        #expect(index.isolation(ofType: "Cache") == .actor)
        #expect(index.isolation(ofType: "Stored") == .none, "another global actor is not the main actor")
        #expect(own("Plain", "work") == .mainActor && own("Plain", "load") == .mainActor)
        #expect(own("Unbound", "work") == .callers)
        #expect(own("Plain", "key") == .callers && own("Plain", "fetch") == .concurrent)
        #expect(own(nil, "helper") == .mainActor && own(nil, "loader") == .mainActor)
        #expect(own(nil, "free") == .concurrent)
        #expect(own(nil, "legacyLoader") == .concurrent, "a module with no default: the concurrency pool")
        #expect(index.isolation(ofType: "Old") == .none)
    }

    // MARK: Rules

    static func findings(_ rule: String, _ files: [String: String], layout: ProjectLayout = ProjectLayout(),
                         confidence: Confidence? = nil) -> [String] {
        var configuration = Configuration()
        configuration.onlyRules = [rule]
        configuration.confidence = confidence
        let sources = files.keys.sorted().map { SourceInput(path: $0, text: files[$0] ?? "") }
        return Linter.lint(sources: sources, layout: layout, configuration: configuration).findings.map { "\($0.file):\($0.line)" }
    }

    /// The same code in a package target with the default and in one without it (`XX` in names becomes the target's
    /// name, so that no two types or free functions share a name).
    static func inBothTargets(_ code: String, manifest: String = DefaultIsolationTests.manifest) -> [String: String] {
        ["/pkg/Package.swift": manifest,
         "/pkg/Sources/Feature/Code.swift": code.replacingOccurrences(of: "XX", with: "Feature"),
         "/pkg/Sources/Legacy/Code.swift": code.replacingOccurrences(of: "XX", with: "Legacy")]
    }

    @Test func timerWithoutRunLoopIsQuietInMainActorCodeAndFiresOffIt() {
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
                func start() {
                    Task.detached { Timer.scheduledTimer(withTimeInterval: 5, repeats: false) { _ in } }
                }
            }
            func XXpoll() async {
                _ = Timer.scheduledTimer(withTimeInterval: 5, repeats: false) { _ in }
            }
            """
        let found = Self.findings("timer_without_run_loop", Self.inBothTargets(code))
        #expect(found == [
            "/pkg/Sources/Feature/Code.swift:8", "/pkg/Sources/Feature/Code.swift:11", "/pkg/Sources/Feature/Code.swift:14",
            "/pkg/Sources/Legacy/Code.swift:5", "/pkg/Sources/Legacy/Code.swift:8", "/pkg/Sources/Legacy/Code.swift:11",
            "/pkg/Sources/Legacy/Code.swift:14", "/pkg/Sources/Legacy/Code.swift:18",
        ], "in the MainActor-default target the plain async method and free function are quiet; nonisolated, @concurrent and Task.detached fire")
    }

    @Test func timerInAHelperCalledFromABackgroundQueue() {
        let code = """
            import Foundation
            final class XXUploader {
                var retryTimer: Timer?
                func upload() { DispatchQueue.global().async { self.retryLater() } }
                func retryLater() {
                    retryTimer = Timer.scheduledTimer(withTimeInterval: 30, repeats: false) { _ in }
                }
            }
            """
        #expect(Self.findings("timer_without_run_loop", Self.inBothTargets(code)) == ["/pkg/Sources/Legacy/Code.swift:6"],
                "a main-actor method runs on the main actor whoever calls it (the compiler makes the queue hop)")
    }

    @Test func viewContextOffMainIsQuietInMainActorCodeAndFiresOffIt() {
        let code = """
            import CoreData
            final class XXSyncService {
                let viewContext: NSManagedObjectContext
                init(viewContext: NSManagedObjectContext) { self.viewContext = viewContext }
                func sync() async throws {
                    _ = try viewContext.fetch(Item.fetchRequest())
                }
                func purge() {
                    Task.detached { try? self.viewContext.save() }
                }
            }
            func XXrefresh(_ viewContext: NSManagedObjectContext) async {
                viewContext.refreshAllObjects()
            }
            """
        #expect(Self.findings("view_context_off_main", Self.inBothTargets(code)) == [
            "/pkg/Sources/Feature/Code.swift:9",
            "/pkg/Sources/Legacy/Code.swift:6", "/pkg/Sources/Legacy/Code.swift:9", "/pkg/Sources/Legacy/Code.swift:13",
        ])
    }

    @Test func theXcodeTargetDecidesForItsFiles() throws {
        let path = "\(Self.project)/Clock.xcodeproj/project.pbxproj"
        let project = try XcodeProject.read(path: path, text: String(contentsOfFile: path, encoding: .utf8)).get()
        var files: [String: String] = [:]
        for target in ["Clock", "ClockWatch", "ClockWidget"] {
            let file = "\(Self.project)/\(target)/\(target)Ticker.swift"
            files[file] = try String(contentsOfFile: file, encoding: .utf8)
        }
        let layout = ProjectLayout(roots: [.init(path: Self.project, isOwnProject: true)], xcodeProjects: [project])
        let found = Self.findings("timer_without_run_loop", files, layout: layout).map { $0.replacingOccurrences(of: Self.project + "/", with: "") }
        #expect(found == ["ClockWatch/ClockWatchTicker.swift:7", "ClockWidget/ClockWidgetTicker.swift:7"])
        // The same through discovery, reading the project from disk.
        var configuration = Configuration()
        configuration.onlyRules = ["timer_without_run_loop"]
        let linted = Linter.lint(paths: [Self.project], configuration: configuration)
        #expect(linted.findings.map { "\($0.file.replacingOccurrences(of: Self.project + "/", with: "")):\($0.line)" } == found)
    }

    @Test func modelNotMainActorIsQuietInAModuleThatDefaultsToIt() {
        let code = """
            import SwiftData
            @Model final class XXItem { var title = "" }
            """
        #expect(Self.findings("model_not_main_actor", Self.inBothTargets(code)) == ["/pkg/Sources/Legacy/Code.swift:2"])
    }

    /// Interleaving across an `await` needs an actor: in a module that defaults to the main actor, a plain class's async
    /// method has one; in a module without, and in a `nonisolated` type, it has none and the rules stay quiet.
    @Test func checkThenActAndStaleSnapshotSeeTheDefaultActor() {
        let code = """
            final class XXReader {
                var content: String?
                var balance = 0
                func load() async {
                    guard content == nil else { return }
                    content = await service.fetch()
                }
                func pay(_ amount: Int) async {
                    let current = balance
                    let fee = await pricing.fee()
                    balance = current - amount - fee
                }
            }
            nonisolated final class XXLoose {
                var content: String?
                func load() async {
                    guard content == nil else { return }
                    content = await service.fetch()
                }
            }
            """
        // A fetched value stored after the check is medium (the method builds nothing it stores).
        #expect(Self.findings("check_then_act_across_await", Self.inBothTargets(code), confidence: .medium) == ["/pkg/Sources/Feature/Code.swift:5"])
        #expect(Self.findings("stale_snapshot_write_across_await", Self.inBothTargets(code)) == ["/pkg/Sources/Feature/Code.swift:11"])
    }

    /// Tasks started in a loop inherit the function's actor: in a module that defaults to the main actor they run one at a
    /// time and a captured counter does not race; a global queue's closures still do.
    @Test func unsynchronizedCaptureMutationSeesTheDefaultActor() {
        let code = """
            import Foundation
            final class XXRoller {
                func rollAll(_ dice: [Die], completion: @escaping () -> Void) {
                    var completed = 0
                    for die in dice {
                        Task {
                            await die.roll()
                            completed += 1
                            if completed == dice.count { completion() }
                        }
                    }
                }
                func sum(_ parts: [Int]) {
                    var total = 0
                    for part in parts {
                        DispatchQueue.global().async { total += part }
                    }
                }
            }
            """
        #expect(Self.findings("unsynchronized_capture_mutation", Self.inBothTargets(code)) == [
            "/pkg/Sources/Feature/Code.swift:16", "/pkg/Sources/Legacy/Code.swift:8", "/pkg/Sources/Legacy/Code.swift:16",
        ])
    }

    /// A helper an off-main notification handler calls writes state on the handler's thread, unless it is `@MainActor`:
    /// as written, or by its module's default.
    @Test func unsynchronizedNotificationStateFollowsNoMainActorHelper() {
        let code = """
            import Foundation
            final class XXNoteList: ObservableObject {
                @Published var notes: [String] = []
                func observe() {
                    NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { [weak self] _ in
                        self?.reload()
                    }
                }
                private func reload() { apply(fetchTitles()) }
                private func apply(_ titles: [String]) { notes = titles }
                private func fetchTitles() -> [String] { [] }
            }
            """
        #expect(Self.findings("unsynchronized_notification_state", Self.inBothTargets(code)) == ["/pkg/Sources/Legacy/Code.swift:6"])
    }
}
