import SwiftSyntax

/// An NSWorkspace notification observed on `NotificationCenter.default`, where it is never posted.
public final class WorkspaceNotificationOnDefaultCenterRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "workspace_notification_on_default_center",
        name: "Workspace Notification On Default Center",
        whatItDoes: """
            Finds an observer of an `NSWorkspace` notification (`NSWorkspace.didWakeNotification`, \
            `willSleepNotification`, `didActivateApplicationNotification`, ...) registered on \
            `NotificationCenter.default`: `addObserver(_:selector:name:object:)`, `addObserver(forName:object:queue:using:)`, \
            `publisher(for:)` or `notifications(named:)`. The names come from the framework table \
            (`FrameworkObservers.workspaceNotifications`, each citing Apple's page).
            """,
        whyIsThisBad: """
            NSWorkspace posts its notifications to its own centre, `NSWorkspace.shared.notificationCenter`, never to \
            the app's default centre, so the observer is never called: the app does not pause before sleep, refresh \
            after wake, or notice the frontmost app change, and nothing says so. Apple's documentation of \
            `NSWorkspace.notificationCenter` and of each notification says where it is posted; public fixes move the \
            registration there (yanue/V2rayU#1685 for sleep and wake, wkaisertexas/ScreenTimeLapse#54 for app launches). \
            Register on `NSWorkspace.shared.notificationCenter` instead.
            """,
        seed: "issue 23 candidate 8",
        triggeringExamples: [
            RuleExample("""
                final class SleepWatcher {
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(wake(_:)),
                                                               name: ↓NSWorkspace.didWakeNotification, object: nil)
                    }
                    @objc func wake(_ note: Notification) { reconnect() }
                }
                """),
            RuleExample("""
                struct FrontmostAppLabel: View {
                    @State private var name = ""
                    var body: some View {
                        Text(name)
                            .onReceive(NotificationCenter.default.publisher(for: ↓NSWorkspace.didActivateApplicationNotification)) { note in
                                name = (note.userInfo?[NSWorkspace.applicationUserInfoKey] as? NSRunningApplication)?.localizedName ?? ""
                            }
                    }
                }
                """),
            RuleExample("""
                func watchSleep() -> NSObjectProtocol {
                    NotificationCenter.default.addObserver(forName: ↓NSWorkspace.willSleepNotification, object: nil, queue: .main) { _ in
                        disconnect()
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                final class SleepWatcher {
                    init() {
                        NSWorkspace.shared.notificationCenter.addObserver(self, selector: #selector(wake(_:)),
                                                                          name: NSWorkspace.didWakeNotification, object: nil)
                    }
                    @objc func wake(_ note: Notification) { reconnect() }
                }
                """),
            RuleExample("""
                final class WindowWatcher {
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(closed(_:)),
                                                               name: NSWindow.willCloseNotification, object: nil)
                        NotificationCenter.default.addObserver(self, selector: #selector(closed(_:)),
                                                               name: NSApplication.didBecomeActiveNotification, object: nil)
                    }
                    @objc func closed(_ note: Notification) {}
                }
                """),
            RuleExample("""
                func post() {
                    NotificationCenter.default.post(name: NSWorkspace.didWakeNotification, object: nil)
                    let label = NSWorkspace.applicationUserInfoKey
                }
                """),
        ],
        knownLimitations: """
            Only the centre written at the call counts: `let center = NotificationCenter.default` followed by \
            `center.addObserver(...)` is not followed, and neither is a name held in a variable. A notification the \
            app posts itself on the default centre under a workspace name (a test double) would be reported. \
            It decides from exact facts only (the receiver as written and a name from Apple's list).
            """,
        messages: [wrongCenter])
    static let wrongCenter = RuleMessage("observed_on_default_center", "`{type}.{name}` is posted only to `{center}`, so this observer on " +
        "`NotificationCenter.default` is never called; register it on `{center}`")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self) else { return }
        let method = context.calleeMethodName(call)
        guard FrameworkObservers.registrations.contains(where: { $0.method == method }),
              let receiver = SyntaxFacts.receiverText(call), FrameworkObservers.defaultCenterReceivers.contains(receiver) else { return }
        for registration in FrameworkObservers.registrations where registration.method == method {
            guard let name = SyntaxFacts.argument(registration.nameLabel, of: call)?.as(MemberAccessExprSyntax.self),
                  let type = name.base.map({ SyntaxFacts.dottedName($0) }),
                  let notification = FrameworkObservers.ownCenterNotification(type: type, member: name.declName.baseName.text) else { continue }
            context.report(name, Self.wrongCenter, ["type": notification.type, "name": notification.name, "center": notification.center])
            return
        }
    }
}
