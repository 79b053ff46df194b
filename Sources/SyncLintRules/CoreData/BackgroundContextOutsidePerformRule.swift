import SwiftSyntax

/// A private-queue context used outside its own `perform`.
public final class BackgroundContextOutsidePerformRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "background_context_outside_perform",
        name: "Background Context Outside Perform",
        whatItDoes: """
            Finds a private-queue context (from `newBackgroundContext()` or \
            `NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)`) used outside its `perform` or \
            `performAndWait`: `fetch`, `save`, `count`, `execute`, `delete`, `existingObject`, `object(with:)`, or \
            `Entity(context:)`.
            """,
        whyIsThisBad: """
            A private-queue context may only be touched on its own queue; called from the current thread it \
            corrupts its row cache and crashes intermittently, and Core Data's concurrency debugging \
            (`-com.apple.CoreData.ConcurrencyDebug 1`) traps on it.
            """,
        seed: "004",
        // Opt-in: judged on apps nobody tuned on (docs/precision.md, "Test half"), it fell far short of the bar for
        // a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                func importItems(_ records: [Record]) throws {
                    let context = container.newBackgroundContext()
                    for record in records {
                        let item = Item(context: ↓context)
                        item.title = record.title
                    }
                    try ↓context.save()
                }
                """),
            RuleExample("""
                final class Purger {
                    private lazy var backgroundContext = container.newBackgroundContext()
                    func purge(_ request: NSBatchDeleteRequest) throws {
                        try ↓backgroundContext.execute(request)
                    }
                }
                """),
            // A managed object of the project's built into the context: `init(context:)` inserts into it.
            RuleExample("""
                final class Bookmark: NSManagedObject {}
                final class Importer {
                    private lazy var backgroundContext = container.newBackgroundContext()
                    func add() { _ = Bookmark(context: ↓backgroundContext) }
                }
                """),
            // A helper called inside `perform` in one place and outside it in another.
            RuleExample("""
                final class LogStore {
                    private lazy var backgroundContext = container.newBackgroundContext()
                    func record(_ message: String) {
                        backgroundContext.perform { self.saveIfNeeded() }
                    }
                    func applicationWillTerminate() { saveIfNeeded() }
                    private func saveIfNeeded() {
                        try? ↓backgroundContext.save()
                    }
                }
                """),
            // A context passed in as a parameter, from a caller that made it and is not in its `perform`.
            RuleExample("""
                final class Importer {
                    let container: NSPersistentContainer
                    init(container: NSPersistentContainer) { self.container = container }
                    func run(_ records: [Record]) {
                        let context = container.newBackgroundContext()
                        insert(records, into: context)
                    }
                    private func insert(_ records: [Record], into context: NSManagedObjectContext) {
                        for record in records {
                            let item = Item(context: ↓context)
                            item.title = record.title
                        }
                        try? ↓context.save()
                    }
                }
                """),
            // A look-alike of the store's own `perform` wrapper below: it runs the closure after `perform` returns, on the
            // caller's thread.
            RuleExample("""
                final class LogStore {
                    private lazy var backgroundContext = container.newBackgroundContext()
                    func perform(_ changes: @escaping (NSManagedObjectContext) -> Void) {
                        backgroundContext.perform { self.flush() }
                        changes(backgroundContext)
                    }
                    func record(_ message: String) {
                        perform { _ in self.insert(message) }
                    }
                    private func flush() {}
                    private func insert(_ message: String) {
                        try? ↓backgroundContext.save()
                    }
                }
                """),
            // Another look-alike: the closure is called inside `perform`, but on a queue of its own.
            RuleExample("""
                final class LogStore {
                    private lazy var backgroundContext = container.newBackgroundContext()
                    func perform(_ changes: @escaping () -> Void) {
                        backgroundContext.perform { DispatchQueue.global().async { changes() } }
                    }
                    func record(_ message: String) {
                        perform { try? ↓self.backgroundContext.save() }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            // The store's own wrapper runs the closure inside the background context's `perform`: a helper called only
            // there, and a use in the closure itself, are on the context's queue.
            RuleExample("""
                final class LogStore {
                    private lazy var backgroundContext = container.newBackgroundContext()
                    func perform(_ changes: @escaping (NSManagedObjectContext) -> Void) {
                        backgroundContext.perform { changes(self.backgroundContext) }
                    }
                    func record(_ message: String) {
                        perform { _ in self.insert(message) }
                    }
                    func clear() {
                        perform { _ in try? self.backgroundContext.execute(NSBatchDeleteRequest(fetchRequest: LogEntry.fetchRequest())) }
                    }
                    private func insert(_ message: String) {
                        let entry = LogEntry(context: backgroundContext)
                        entry.message = message
                        try? backgroundContext.save()
                    }
                }
                """),
            // A type of the project's own that only keeps the context it is given (and uses it in `perform`).
            RuleExample("""
                final class BookmarkCache {
                    let context: NSManagedObjectContext
                    init(context: NSManagedObjectContext) { self.context = context }
                }
                final class Importer {
                    private lazy var backgroundContext = container.newBackgroundContext()
                    func makeCache() -> BookmarkCache { BookmarkCache(context: backgroundContext) }
                }
                """),
            RuleExample("""
                func importItems(_ records: [Record]) {
                    let context = container.newBackgroundContext()
                    context.perform {
                        for record in records {
                            let item = Item(context: context)
                            item.title = record.title
                        }
                        try? context.save()
                    }
                }
                """),
            RuleExample("""
                actor StoreWorker {
                    private let backgroundContext: NSManagedObjectContext
                    private let executor: ContextExecutor
                    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
                    init(container: NSPersistentContainer) {
                        backgroundContext = container.newBackgroundContext()
                        executor = ContextExecutor(context: backgroundContext)
                    }
                    func purge(_ request: NSBatchDeleteRequest) throws {
                        try backgroundContext.execute(request)
                    }
                }
                """),
            RuleExample("""
                @MainActor func addItem(title: String) throws {
                    let item = Item(context: viewContext)
                    item.title = title
                    try viewContext.save()
                }
                """),
            // A private helper whose every caller is inside the context's `perform`: it runs on the context's queue.
            RuleExample("""
                final class LogStore {
                    private lazy var backgroundContext = container.newBackgroundContext()
                    func record(_ message: String) {
                        backgroundContext.perform { self.insert(message) }
                    }
                    func flush() {
                        backgroundContext.performAndWait { try? self.saveIfNeeded() }
                    }
                    private func insert(_ message: String) {
                        let entry = LogEntry(context: backgroundContext)
                        entry.message = message
                        try? saveIfNeeded()
                    }
                    private func saveIfNeeded() throws {
                        if backgroundContext.hasChanges { try backgroundContext.save() }
                    }
                }
                """),
            // A helper handed the context of an actor whose custom executor runs every job in the context's `perform`.
            RuleExample("""
                final class Store {
                    func createEntry(_ word: String, context: NSManagedObjectContext) {
                        let entry = Entry(context: context)
                        entry.word = word
                    }
                }
                actor EntryWriter {
                    private let context: NSManagedObjectContext
                    private let executor: ContextExecutor
                    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
                    init(container: NSPersistentContainer) {
                        context = container.newBackgroundContext()
                        executor = ContextExecutor(context: context)
                    }
                    func add(_ word: String) { Store().createEntry(word, context: context) }
                }
                """),
            // The same helper called inside the context's `perform`, and one handed the view context on the main actor.
            RuleExample("""
                final class Importer {
                    let container: NSPersistentContainer
                    init(container: NSPersistentContainer) { self.container = container }
                    func run(_ records: [Record]) {
                        let context = container.newBackgroundContext()
                        context.perform { self.insert(records, into: context) }
                    }
                    @MainActor func addDraft(_ record: Record) {
                        insert([record], into: container.viewContext)
                    }
                    private func insert(_ records: [Record], into context: NSManagedObjectContext) {
                        for record in records {
                            let item = Item(context: context)
                            item.title = record.title
                        }
                        try? context.save()
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on apps nobody tuned on (docs/precision.md, round 9 of issue 21): over the whole corpus with round 12's fresh set, 13 of its 27 judged findings are right. The wrong ones were nearly all one class: a private helper reached only through the project's own wrapper around `perform`/`performAndWait` (a method taking a closure that it runs on the context's queue). Such a wrapper is now followed: a project function that calls its closure parameter only inside the `perform` of its receiver, of a property of `self` or of a parameter runs a closure given to it on that context's queue, as a `perform` block does (a use in that closure, and a helper whose callers are all in such closures, are quiet); a wrapper that calls the closure after `perform` returns, or on another queue inside it, is not one. A wrapper that hands the closure to another wrapper is not followed. Pulse's helpers more than three calls below its wrapper are still reported. A context given to a constructor is a use only when the type is a managed object (or one the project does not declare, as Core Data's generated classes): a type of the project's own that keeps the context is not reported, even one whose initializer uses the context at once. \
            A helper that uses a context property outside a `perform` is not reported when every caller (followed up \
            through callers with no isolation of their own, to three calls) is inside a private-queue context's \
            `perform`; which context's `perform` is not checked. \
            Contexts are tracked as locals made in the same function and as properties the type assigns from \
            `newBackgroundContext()`, when their name contains "context"; a context passed in as a parameter is \
            tracked to the project's calls that pass one (made there, a local bound to one, or a property holding one) \
            outside a `perform` (and outside an actor with such an executor), one call up (a parameter passed on again \
            is not followed). An actor that declares a custom executor (`unownedExecutor`) is taken to run its jobs \
            inside the context's `perform`, as such executors are written for; its methods are not reported.
            """,
        messages: [outsidePerform])
    static let outsidePerform = RuleMessage("outside_perform", "`{context}` is a private-queue context used outside its queue; do this inside `{context}.perform { }`")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    static let contextMethods: Set<String> = ["fetch", "save", "count", "execute", "delete", "existingObject", "object", "obtainPermanentIDs"]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self) else { return }
        let method = context.calleeMethodName(call)
        let used: ExprSyntax?
        // Built with the context: a use only when the type inserts into it (a managed object's `init(context:)`); a
        // type of the project's own that only keeps the context (`Cache(context: background)`) is not.
        var handedOver: [IndexCondition] = []
        if Self.contextMethods.contains(method) {
            used = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
        } else if SyntaxFacts.isTypeName(method) {
            used = SyntaxFacts.argument("context", of: call)
            handedOver = [.not(.isDeclaredOtherThanPersistentModel(method))]
        } else {
            used = nil
        }
        guard let used, let path = SyntaxFacts.memberPath(used) else { return }
        let name = path.root == "self" ? path.members.first : (path.members.isEmpty ? path.root : nil)
        // Contexts are named as such; checking the name first keeps this off every `count` and constructor call.
        guard let name, name.lowercased().contains("context") else { return }
        let insidePerform = context.scope.closures.contains { closure in
            switch closure.kind {
            case .perform(let receiver), .performAndWait(let receiver):
                return receiver == name || receiver == "self.\(name)"
            default: return false
            }
        }
        guard !insidePerform else { return }
        // Inside a closure given to a project function that runs it in this context's own `perform` (a wrapper such as
        // `store.perform { _ in ... }` or `context.performAndReturn { ... }`): on the context's queue.
        let closureArguments = ExecutionContexts.closureArguments(in: context, locals: [name])
        if !closureArguments.isEmpty { handedOver.append(.not(.closureRunsOnOwnQueue(closureArguments, context: name))) }
        if path.root != "self", let body = context.scope.currentFunction?.body, Self.isLocalBackgroundContext(name, in: body) {
            context.report(used, Self.outsidePerform, ["context": name], when: handedOver.isEmpty ? nil : .all(handedOver))
            return
        }
        // A context passed in (`insert(_:into context:)`): a private-queue one when some caller outside a `perform`
        // hands one over (`insert(records, into: container.newBackgroundContext())`).
        if path.root != "self", let function = context.scope.currentFunction,
           let (position, label) = ContextArguments.parameter(named: name, in: function.parameterClause) {
            let key = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
            var conditions: [IndexCondition] = [.receivesBackgroundContextOutsidePerform(key, position: position, label: label)] + handedOver
            if !context.scope.closures.contains(where: { ExecutionContexts.ofClosure($0) != nil }) {
                conditions.append(.not(.runsOnlyInPerform(key)))
            }
            context.report(used, Self.outsidePerform, ["context": name], when: .all(conditions))
            return
        }
        guard let type = context.scope.currentType else { return }
        let typeName = type.qualifiedName
        // An actor with a custom serial executor (`unownedExecutor`) that runs each job inside the context's
        // `perform`: its methods already run on the context's queue. A helper whose every caller is inside a
        // `perform` block runs inside it too.
        var conditions: [IndexCondition] = [.holdsBackgroundContext(TypeProperty(typeName: typeName, property: name)),
                                            .not(.hasProperty("unownedExecutor", ofType: typeName))] + handedOver
        if let function = context.scope.currentFunction, !context.scope.closures.contains(where: { ExecutionContexts.ofClosure($0) != nil }) {
            conditions.append(.not(.runsOnlyInPerform(FunctionKey(typeName: typeName, name: function.name))))
        }
        context.report(used, Self.outsidePerform, ["context": name], when: .all(conditions))
    }

    static func isLocalBackgroundContext(_ name: String, in body: CodeBlockSyntax) -> Bool {
        var found = false
        BodyScanner.scan(body) { node in
            guard let binding = node.as(PatternBindingSyntax.self),
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
                  let value = binding.initializer?.value.trimmedText else { return }
            found = value.contains("newBackgroundContext") || value.contains("privateQueueConcurrencyType")
        }
        return found
    }
}
