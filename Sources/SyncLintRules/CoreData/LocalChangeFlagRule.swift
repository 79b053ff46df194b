import SwiftSyntax

/// A Bool set around `save()` to tell local saves from remote changes in the remote-change handler.
public final class LocalChangeFlagRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "local_change_flag",
        name: "Local Change Flag",
        whatItDoes: """
            Finds a remote-change handler that tests a Bool property and resets it, where the same type sets that \
            property to `true` in a function that saves a context: the "was this my own save?" flag.
            """,
        whyIsThisBad: """
            The flag is racy by design: the notification for a local save arrives later, on another thread, and a \
            remote change that lands in between is taken for the local save and ignored, so the UI never shows it. \
            Persistent history tracking answers the question exactly: set the context's \
            `transactionAuthor` when saving and skip transactions whose `author` is yours.
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
                    func save() {
                        isLocalSave = true
                        try? viewContext.save()
                    }
                    @objc private func handlePersistentStoreRemoteChange(_ notification: Notification) {
                        if ↓isLocalSave {
                            isLocalSave = false
                            return
                        }
                        reload()
                    }
                }
                """),
            RuleExample("""
                final class Store {
                    var savingLocally = false
                    func commit() { savingLocally = true; try? context.save() }
                    func observe() {
                        NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: .main) { _ in
                            guard !↓self.savingLocally else { self.savingLocally = false; return }
                            self.reload()
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                final class CoreDataManager {
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(handleRemoteChange(_:)),
                                                               name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    func save() {
                        viewContext.transactionAuthor = "app"
                        try? viewContext.save()
                    }
                    @objc private func handleRemoteChange(_ notification: Notification) {
                        let transactions = fetchHistory(excludingAuthor: "app")
                        guard !transactions.isEmpty else { return }
                        DispatchQueue.main.async { self.reload() }
                    }
                }
                """),
            RuleExample("""
                final class Editor {
                    private var isDirty = false
                    func edit() { isDirty = true }
                    init() {
                        NotificationCenter.default.addObserver(self, selector: #selector(remote(_:)), name: .NSPersistentStoreRemoteChange, object: nil)
                    }
                    @objc func remote(_ notification: Notification) {
                        if isDirty { isDirty = false; return }
                    }
                }
                """),
        ],
        knownLimitations: """
            The flag is recognized when it is set to `true` anywhere in a function that also calls `save()` on \
            something; a flag set in one method and saved in another is not.
            """,
        messages: [timingFlag])
    static let timingFlag = RuleMessage("timing_flag", "`{flag}` tells local saves from remote changes by timing, which races with the notification's thread; set `transactionAuthor` when saving and skip your own transactions with persistent history tracking")

    public static let nodeKinds: Set<SyntaxKind> = [.functionDecl, .closureExpr]

    private let names: Set<String>

    public init(options: RuleOptions) {
        names = NotificationHandlers.names(options)
    }

    public func enter(_ node: Syntax, context: FileContext) {
        guard let handler = NotificationHandler.at(node, context: context) else { return }
        for test in handler.conditionalBranches {
            guard let flag = Self.flagTested(test.conditions, resetIn: test.body, locals: handler.locals) else { continue }
            let names = self.names
            let typeName = handler.typeName
            let registration = handler.deferred
            context.report(flag.node, Self.timingFlag, ["flag": flag.name],
                           answering: .remoteChangeNotification(registration.registration, names: names),
                           when: .isLocalSaveFlag(TypeProperty(typeName: typeName, property: flag.name)))
            return
        }
    }

    /// A property the conditions read that the body sets to `false`.
    static func flagTested(_ conditions: ConditionElementListSyntax, resetIn body: CodeBlockSyntax,
                           locals: Set<String>) -> (name: String, node: Syntax)? {
        var reset: Set<String> = []
        BodyScanner.scan(body) { node in
            if let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
               SyntaxFacts.boolLiteral(assignment.value) == false,
               let property = FlowFacts.selfProperty(assignment.target, locals: locals) {
                reset.insert(property)
            }
        }
        var found: (name: String, node: Syntax)?
        BodyScanner.scan(conditions) { node in
            guard found == nil, let property = NotificationHandlers.selfPropertyAccess(node, locals: locals), reset.contains(property) else { return }
            found = (property, node)
        }
        return found
    }
}
