import Testing
@testable import SyncLintKit

/// The framework table's entries for notification centres, observers, timers and SwiftUI's owned state and
/// representables (`FrameworkObservers`, `FrameworkTimers`, `FrameworkViewState`): each cites Apple, and each is
/// found from a small source by the rule that uses it, through the production pipeline.
struct ObjectFrameworkModelTests {
    static let apple = "https://developer.apple.com/documentation/"

    @Test func everyEntryCitesApple() {
        let pages = FrameworkObservers.workspaceNotifications.map(\.documentation) + FrameworkViewState.representables.map(\.documentation)
            + FrameworkViewState.lazyInitializers.map(\.documentation)
            + [FrameworkObservers.blockObserverDocumentation, FrameworkTimers.documentation]
            + FrameworkObservers.appLifetimeSupertypes.map(\.documentation) + FrameworkObservers.launchMethods.map(\.documentation)
        for page in pages { #expect(page.hasPrefix(Self.apple), "\(page) is not Apple's documentation") }
        #expect(Set(FrameworkObservers.workspaceNotifications.map(\.name)).count == FrameworkObservers.workspaceNotifications.count)
    }

    @Test(arguments: FrameworkObservers.workspaceNotifications)
    func workspaceNotificationIsHeardOnlyOnTheWorkspaceCenter(_ notification: OwnCenterNotification) {
        let rule = [WorkspaceNotificationOnDefaultCenterRule.description.id]
        let onDefault = "func watch() { _ = NotificationCenter.default.publisher(for: \(notification.type).\(notification.name)) }"
        let onOwn = "func watch() { _ = \(notification.center).publisher(for: \(notification.type).\(notification.name)) }"
        #expect(Harness.findings(onDefault, rules: rule).count == 1)
        #expect(Harness.findings(onOwn, rules: rule).isEmpty)
    }

    @Test(arguments: FrameworkViewState.representables)
    func representableUpdateIsWhereNewInputsArrive(_ representable: ViewRepresentable) {
        let rule = [RepresentableUpdateIgnoresInputsRule.description.id]
        func source(update: String) -> String {
            """
            struct Bridge: \(representable.protocolName) {
                let title: String
                func \(representable.makeMethod)(context: Context) -> Platform { let view = Platform(); view.title = title; return view }
                func \(representable.updateMethod)(_ view: Platform, context: Context) { \(update) }
            }
            """
        }
        #expect(Harness.findings(source(update: ""), rules: rule).map(\.line) == [4])
        #expect(Harness.findings(source(update: "view.title = title"), rules: rule).isEmpty)
    }

    @Test func stateObjectBuildsItsValueLazily() {
        let rule = [StateObjectBuiltOutsideAutoclosureRule.description.id]
        for initializer in FrameworkViewState.lazyInitializers {
            let passed = "struct Screen { init(model: Model) { _model = \(initializer.type)(\(initializer.label): model) } }"
            let built = "struct Screen { init(id: Int) { _model = \(initializer.type)(\(initializer.label): Model(id: id)) } }"
            #expect(Harness.findings(passed, rules: rule).count == 1)
            #expect(Harness.findings(built, rules: rule).isEmpty)
        }
    }

    @Test func blockObserverReturnsTheOnlyToken() {
        let rule = [DiscardedObserverTokenRule.description.id]
        let labels = FrameworkObservers.blockObserverLabels.map { "\($0): nil" }.joined(separator: ", ")
        let call = "NotificationCenter.default.\(FrameworkObservers.blockObserverMethod)(\(labels)) { _ in }"
        #expect(Harness.findings("func watch() { \(call) }", rules: rule).count == 1)
        #expect(Harness.findings("final class W { var token: Any?; func watch() { token = \(call) } }", rules: rule).isEmpty)
    }

    /// An observer the app's delegate registers at launch, also from an extension in another file, stays for the
    /// process's life on purpose; the same code in another method, or in any other type, is reported.
    @Test(arguments: FrameworkObservers.appLifetimeSupertypes.map(\.name))
    func appLifetimeObjectKeepsItsObservers(_ supertype: String) {
        let rule = [DiscardedObserverTokenRule.description.id]
        let labels = FrameworkObservers.blockObserverLabels.map { "\($0): nil" }.joined(separator: ", ")
        let call = "NotificationCenter.default.\(FrameworkObservers.blockObserverMethod)(\(labels)) { _ in }"
        let owner = SourceInput(path: "/v/Owner.swift", text: "final class Owner: NSObject, \(supertype) {}")
        let observer = SourceInput(path: "/v/Observe.swift", text: "extension Owner { func applicationDidFinishLaunching(_ note: Notification) { \(call) } }")
        #expect(Harness.findings(sources: [owner, observer], rules: rule).isEmpty)
        // Another method of the same object may run many times.
        let again = SourceInput(path: "/v/Observe.swift", text: "extension Owner { func observe() { \(call) } }")
        #expect(Harness.findings(sources: [owner, again], rules: rule).count == 1)
        let other = SourceInput(path: "/v/Owner.swift", text: "final class Owner: NSObject {}")
        #expect(Harness.findings(sources: [other, observer], rules: rule).count == 1)
    }

    /// A scheduled timer is stopped only by `invalidate()`, also when a helper in another file calls it.
    @Test func scheduledTimerIsStoppedByInvalidate() {
        let rule = [TimerReplacedWithoutInvalidateRule.description.id]
        for callee in FrameworkTimers.scheduledTimerCallees {
            let model = """
                final class Poller {
                    var timer: Timer?
                    func start() { \(callee)(withTimeInterval: 1, repeats: true) { _ in } }
                    func restart() { stopAll(); timer = \(callee)(withTimeInterval: 1, repeats: true) { _ in } }
                    func rearm() { timer = \(callee)(withTimeInterval: 1, repeats: true) { _ in } }
                }
                """
            let helper = "extension Poller { func stopAll() { timer?.\(FrameworkTimers.stopMethod)() } }"
            let withHelper = Harness.findings(sources: [SourceInput(path: "/v/Poller.swift", text: model), SourceInput(path: "/v/Stop.swift", text: helper)], rules: rule)
            #expect(withHelper.map(\.line) == [5])
            let withoutHelper = Harness.findings(sources: [SourceInput(path: "/v/Poller.swift", text: model),
                                                           SourceInput(path: "/v/Stop.swift", text: "extension Poller { func stopAll() {} }")], rules: rule)
            #expect(withoutHelper.map(\.line) == [4, 5])
        }
    }
}
