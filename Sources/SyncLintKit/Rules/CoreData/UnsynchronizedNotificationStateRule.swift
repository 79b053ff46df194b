import SwiftSyntax

/// A handler of an off-main notification that touches `self`'s state before hopping to the main thread.
public final class UnsynchronizedNotificationStateRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "unsynchronized_notification_state",
        name: "Unsynchronized Notification State",
        whatItDoes: """
            Finds the handler of a notification that arrives off the main thread (`NSPersistentStoreRemoteChange`, \
            `NSPersistentCloudKitContainer.eventChangedNotification`, context save and change notifications from any \
            context, and configured ones) that reads or writes a stored property of `self` (`@Published` and \
            `@Observable` properties included) or `viewContext` before any hop to the main thread, in a type that is \
            not an actor.
            """,
        whyIsThisBad: """
            Core Data posts these notifications on a private thread, and a selector or `queue: nil` handler runs \
            right there, while the main thread uses the same properties: a macOS app's `isLocalSave` flag is read and \
            reset that way, so a remote change is randomly taken for a local save and dropped, and a `@Published` \
            property changed there updates SwiftUI off the main thread (from that app's sync analysis). Hop first \
            (`guard Thread.isMainThread else { DispatchQueue.main.async { ... }; return }`), or register with `queue: .main`.
            """,
        seed: "004",
        options: [NotificationHandlers.optionDescription],
        triggeringExamples: [
            RuleExample("""
                final class CoreDataManager {
                    private var isLocalSave = false
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(handlePersistentStoreRemoteChange(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc private func handlePersistentStoreRemoteChange(_ notification: Notification) {
                        if ↓isLocalSave {
                            isLocalSave = false
                            return
                        }
                    }
                }
                """),
            RuleExample("""
                final class SyncMonitor: ObservableObject {
                    @Published var lastEvent: String = ""
                    func start() {
                        NotificationCenter.default.addObserver(forName: NSPersistentCloudKitContainer.eventChangedNotification,
                                                               object: nil, queue: nil) { [weak self] note in
                            ↓self?.lastEvent = note.name.rawValue
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                final class CoreDataManager {
                    private var isLocalSave = false
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(handlePersistentStoreRemoteChange(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc private func handlePersistentStoreRemoteChange(_ notification: Notification) {
                        guard Thread.isMainThread else {
                            DispatchQueue.main.async { [weak self] in
                                self?.handlePersistentStoreRemoteChange(notification)
                            }
                            return
                        }
                        if isLocalSave {
                            isLocalSave = false
                            return
                        }
                    }
                }
                """),
            RuleExample("""
                final class SyncMonitor: ObservableObject {
                    @Published var lastEvent: String = ""
                    func start() {
                        NotificationCenter.default.addObserver(forName: NSPersistentCloudKitContainer.eventChangedNotification,
                                                               object: nil, queue: .main) { [weak self] note in
                            self?.lastEvent = note.name.rawValue
                        }
                    }
                }
                """),
            RuleExample("""
                final class Settings {
                    var theme = "light"
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(defaultsChanged(_:)),
                                                               name: UserDefaults.didChangeNotification, object: nil)
                    }
                    @objc func defaultsChanged(_ notification: Notification) { theme = "dark" }
                }
                """),
        ],
        knownLimitations: """
            The handler's own statements are checked up to its first hop; a helper it calls before hopping is not \
            followed. A property protected by a lock is reported too; suppress it there. `let` constants are safe to \
            read and are not reported.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.functionDecl, .closureExpr]

    private let names: Set<String>

    public init(options: RuleOptions) {
        names = NotificationHandlers.names(options)
    }

    public func enter(_ node: Syntax, context: FileContext) {
        guard let handler = NotificationHandler.at(node, context: context) else { return }
        var access: (node: Syntax, property: String)?
        for statement in handler.statementsBeforeHop where access == nil {
            BodyScanner.scan(statement) { node in
                guard access == nil, let property = NotificationHandlers.selfPropertyAccess(node, locals: handler.locals) else { return }
                access = (node, property)
            }
        }
        guard let access else { return }
        let names = self.names
        let typeName = handler.typeName
        let property = access.property
        let registration = handler.deferred
        context.report(access.node) { index in
            guard let notification = registration.runsOffMain(index, names: names) else { return nil }
            if property != "viewContext" {
                guard let fact = index.property(property, of: typeName), fact.isStoredVar else { return nil }
            }
            return "`\(property)` is used in the `\(notification)` handler before hopping to the main thread, but that notification " +
                "arrives on a private thread; hop first (`guard Thread.isMainThread else { DispatchQueue.main.async { ... }; return }`) or observe with `queue: .main`"
        }
    }
}
