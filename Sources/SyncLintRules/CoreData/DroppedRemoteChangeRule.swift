import SwiftSyntax

/// A remote-change handler that returns early without remembering that a reload is due.
public final class DroppedRemoteChangeRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "dropped_remote_change",
        name: "Dropped Remote Change",
        whatItDoes: """
            In a remote-change handler (of the off-main Core Data and CloudKit notifications, or of the app's own \
            notification reposted from one), finds an early `return` under a condition on the object's state \
            (`if isDragging || isEditing { return }`) that does not record that a reload is pending: no property \
            assigned, no work scheduled.
            """,
        whyIsThisBad: """
            Remote changes are not sent again. Dropping one while the user drags means the UI shows stale data until \
            some unrelated reload: changes appear only after switching away and back. Set `needsReload = true` \
            and reload when the drag ends.
            """,
        seed: "004",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        options: [NotificationHandlers.optionDescription],
        triggeringExamples: [
            RuleExample("""
                final class MainViewModel: ObservableObject {
                    @Published var isDragging = false
                    @Published var isEditModeActive = false
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(handleCoreDataRemoteChange(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc private func handleCoreDataRemoteChange(_ notification: Notification) {
                        if isDragging || isEditModeActive {
                            print("Core Data remote change received during edit mode/drag - IGNORING stale data")
                            ↓return
                        }
                        loadLists()
                    }
                }
                """),
            RuleExample("""
                final class ListModel {
                    var isEditing = false
                    func observe() {
                        NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: .main) { [weak self] _ in
                            guard let self, !self.isEditing else { ↓return }
                            self.reload()
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                final class MainViewModel: ObservableObject {
                    @Published var isDragging = false
                    private var needsReload = false
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(handleRemoteChange(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc private func handleRemoteChange(_ notification: Notification) {
                        if isDragging {
                            needsReload = true  // reload when the drag ends
                            return
                        }
                        loadLists()
                    }
                }
                """),
            RuleExample("""
                final class EventLog {
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(handleCloudKitEvent(_:)),
                                                               name: NSPersistentCloudKitContainer.eventChangedNotification, object: nil)
                    }
                    @objc private func handleCloudKitEvent(_ notification: Notification) {
                        guard let event = notification.userInfo?["event"] as? NSPersistentCloudKitContainer.Event else { return }
                        DispatchQueue.main.async { self.record(event) }
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21): 1 finding, wrong (the early return fires only when nothing is pending). \
            Any property assignment or scheduled work in the returning branch counts as recording the reload, even \
            one unrelated to it. Conditions on the notification itself (its user info, its sender) are not state \
            and are not reported.
            """,
        messages: [droppedChange])
    static let droppedChange = RuleMessage("dropped_remote_change", "this return drops a `{0}` remote change, which is not sent again; record it (`needsReload = true`) and reload when the condition clears")

    public static let nodeKinds: Set<SyntaxKind> = [.functionDecl, .closureExpr]

    private let names: Set<String>

    public init(options: RuleOptions) {
        names = NotificationHandlers.names(options)
    }

    public func enter(_ node: Syntax, context: FileContext) {
        guard let handler = NotificationHandler.at(node, context: context) else { return }
        for branch in handler.conditionalBranches {
            guard let exit = branch.body.statements.last.flatMap({ Syntax($0.item).as(ReturnStmtSyntax.self) }),
                  !Self.recordsPendingWork(branch.body, locals: handler.locals) else { continue }
            var properties: [String] = []
            BodyScanner.scan(branch.conditions) { node in
                if let property = NotificationHandlers.selfPropertyAccess(node, locals: handler.locals) { properties.append(property) }
            }
            guard !properties.isEmpty else { continue }
            let readProperties = properties
            let names = self.names
            let typeName = handler.typeName
            let registration = handler.deferred
            context.report(exit, Self.droppedChange, answering: .remoteChangeNotification(registration.registration, names: names),
                           when: .someStoredVar(readProperties, ofType: typeName))
        }
    }

    /// A property assignment, or scheduled work (dispatch, timer, task, perform), in the branch.
    static func recordsPendingWork(_ body: CodeBlockSyntax, locals: Set<String>) -> Bool {
        var records = false
        BodyScanner.scan(body) { node in
            if let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
               FlowFacts.selfProperty(target, locals: locals) != nil {
                records = true
            }
            if let call = node.as(FunctionCallExprSyntax.self) {
                let method = SyntaxFacts.calleeMethodName(call)
                if ["async", "asyncAfter", "scheduledTimer", "perform", "Task", "schedule"].contains(method) || method.hasPrefix("schedule") {
                    records = true
                }
            }
        }
        return records
    }
}
