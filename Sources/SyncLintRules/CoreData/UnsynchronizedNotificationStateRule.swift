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
            not an actor; or that calls, before its hop, a method of `self` that writes such a property on the \
            handler's thread, itself or through the methods of `self` it calls (to three calls deep).
            """,
        whyIsThisBad: """
            Core Data posts these notifications on a private thread, and a selector or `queue: nil` handler runs \
            right there, while the main thread uses the same properties: an `isLocalSave` flag read and \
            reset that way, so a remote change is randomly taken for a local save and dropped, and a `@Published` \
            property changed there updates SwiftUI off the main thread. Hop first \
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
            RuleExample("""
                final class NoteList: ObservableObject {
                    @Published var notes: [String] = []
                    func observe() {
                        NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { [weak self] _ in
                            ↓self?.reload()
                        }
                    }
                    private func reload() { apply(fetchTitles()) }
                    private func apply(_ titles: [String]) { notes = titles }
                    private func fetchTitles() -> [String] { [] }
                }
                """),
            RuleExample("""
                final class SyncStatus {
                    var lastSync: Date?
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(storeChanged(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc private func storeChanged(_ notification: Notification) {
                        let stamp = Date()
                        ↓markSynced(at: stamp)
                    }
                    private func markSynced(at date: Date) { lastSync = date }
                }
                """),
            // Set again after the observer is registered: a save on another thread can read it while it is written.
            RuleExample("""
                final class DatabaseManager {
                    private var validationContext: NSManagedObjectContext?
                    func prepare() {
                        NotificationCenter.default.addObserver(self, selector: #selector(contextDidSave(_:)),
                                                               name: .NSManagedObjectContextDidSave, object: nil)
                        validationContext = container.newBackgroundContext()
                    }
                    @objc private func contextDidSave(_ notification: Notification) {
                        guard (notification.object as? NSManagedObjectContext) != ↓validationContext else { return }
                        validationContext?.perform { self.refreshShortcuts() }
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
            RuleExample("""
                final class NoteList: ObservableObject {
                    @Published var notes: [String] = []
                    private let store = NoteStore()
                    func observe() {
                        NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { [weak self] _ in
                            self?.reload()
                            self?.store.invalidate()
                            DispatchQueue.main.async { self?.apply([]) }
                        }
                        NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: .main) { [weak self] _ in
                            self?.apply([])
                        }
                    }
                    private func reload() {
                        let titles = fetchTitles()
                        DispatchQueue.main.async { self.notes = titles }
                    }
                    private func apply(_ titles: [String]) { notes = titles }
                    private func fetchTitles() -> [String] { [] }
                }
                """),
            RuleExample("""
                final class SyncStatus {
                    var lastSync: Date?
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(storeChanged(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc private func storeChanged(_ notification: Notification) { markSynced() }
                    private func markSynced() {
                        guard Thread.isMainThread else {
                            DispatchQueue.main.async { self.markSynced() }
                            return
                        }
                        lastSync = Date()
                    }
                }
                """),
            // Set once, above the registration of the only handler that reads it, and private: no write can race the
            // handler's read.
            RuleExample("""
                final class DatabaseManager {
                    private var validationContext: NSManagedObjectContext?
                    func prepare() {
                        validationContext = container.newBackgroundContext()
                        NotificationCenter.default.addObserver(self, selector: #selector(contextDidSave(_:)),
                                                               name: .NSManagedObjectContextDidSave, object: nil)
                    }
                    @objc private func contextDidSave(_ notification: Notification) {
                        guard (notification.object as? NSManagedObjectContext) != validationContext else { return }
                        validationContext?.perform { self.refreshShortcuts() }
                    }
                }
                """),
        ],
        knownLimitations: """
            The handler's own statements are checked up to its first hop; of the helpers it calls before hopping, \
            only writes are followed (a read in a helper is not reported), only through methods of `self`, and not \
            into a helper that is `@MainActor`, `async`, or hops to the main thread anywhere in its body (its writes \
            may sit behind a `Thread.isMainThread` re-dispatch). A property protected by a lock is reported too; suppress it there. `let` constants are safe to \
            read and are not reported, nor is a `private` property assigned only in `init` or above the selector \
            handler's registration in the function that registers it (set up once, then observed).
            """,
        messages: [usedBeforeHop, helperWrites, helperWritesThrough])
    static let usedBeforeHop = RuleMessage("used_before_hop", "`{property}` is used in the `{0}` handler before hopping to the main thread, but that notification arrives on a private thread; hop first (`guard Thread.isMainThread else { DispatchQueue.main.async { ... }; return }`) or observe with `queue: .main`")
    static let helperWrites = RuleMessage("helper_writes", "`{helper}()`{2} writes `{0}` on the thread that runs this `{1}` handler, a private thread; hop to the main thread before calling it (`DispatchQueue.main.async { ... }`) or observe with `queue: .main`")
    static let helperWritesThrough = RuleMessage("helper_writes_through", "`{helper}()`{3} writes `{0}` (through `{1}()`) on the thread that runs this `{2}` handler, a private thread; hop to the main thread before calling it (`DispatchQueue.main.async { ... }`) or observe with `queue: .main`")

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
        guard let access else {
            reportHelperWrites(handler, context: context)
            return
        }
        let names = self.names
        let typeName = handler.typeName
        let property = access.property
        let registration = handler.deferred
        context.report(access.node, Self.usedBeforeHop, ["property": property],
                       answering: .offMainNotification(registration.registration, names: names),
                       when: property == "viewContext" ? nil : .all([.someStoredVar([property], ofType: typeName),
                                                                      .not(.setOnlyBeforeRegistration(property, ofType: typeName, handler: registration.registration))]))
    }

    /// A handler that touches no state itself but calls a method of `self` (before its hop) that writes a stored
    /// property on the handler's thread, directly or through the methods it calls (the index's function summaries).
    private func reportHelperWrites(_ handler: NotificationHandler, context: FileContext) {
        var helpers: [(node: FunctionCallExprSyntax, name: String)] = []
        for statement in handler.statementsBeforeHop {
            BodyScanner.scan(statement) { node in
                guard let call = node.as(FunctionCallExprSyntax.self) else { return }
                let callee = call.calledExpression
                if let reference = callee.as(DeclReferenceExprSyntax.self), !handler.locals.contains(reference.baseName.text),
                   !SyntaxFacts.isTypeName(reference.baseName.text) {
                    helpers.append((call, reference.baseName.text))
                } else if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base,
                          SyntaxFacts.isSelf(base.as(OptionalChainingExprSyntax.self)?.expression ?? base) {
                    helpers.append((call, member.declName.baseName.text))
                }
            }
        }
        let names = self.names
        let typeName = handler.typeName
        let registration = handler.deferred
        for helper in helpers {
            let name = helper.name
            context.report(helper.node, [Self.helperWrites, Self.helperWritesThrough], ["helper": name], answering: .helperWritesOffMain(FunctionKey(typeName: typeName, name: name), handler: registration.registration, names: names))
        }
    }
}
