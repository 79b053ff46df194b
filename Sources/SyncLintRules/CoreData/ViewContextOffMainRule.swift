import SwiftSyntax

/// The main-queue `viewContext` used from a background queue, a detached task or another context's queue.
public final class ViewContextOffMainRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "view_context_off_main",
        name: "View Context Off Main",
        whatItDoes: """
            Finds the view context (`viewContext`, or a local or property declared as it) used inside a \
            `DispatchQueue.global()` (or other queue's) closure, `Task.detached`, a task-group child, a background \
            context's `perform` block, an async function with no isolation or an actor's method; or in a \
            synchronous helper whose callers run there.
            """,
        whyIsThisBad: """
            `viewContext` is a main-queue context: it and its objects may only be used on the main thread. From \
            another thread it races with SwiftUI reading the same objects and crashes intermittently. Use \
            `viewContext.perform { }`, or a background context with objects fetched by id.
            """,
        seed: "004",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                func refreshInBackground() {
                    DispatchQueue.global(qos: .background).async {
                        let items = try? self.container.↓viewContext.fetch(Item.fetchRequest())
                        print(items?.count ?? 0)
                    }
                }
                """),
            RuleExample("""
                func merge(from background: NSManagedObjectContext) {
                    background.perform {
                        try? background.save()
                        ↓viewContext.refreshAllObjects()
                    }
                }
                """),
            // Through a property declared as the view context.
            RuleExample("""
                final class NoteStore {
                    let container = NSPersistentContainer(name: "Notes")
                    var context: NSManagedObjectContext { container.viewContext }
                    func importNotes(_ titles: [String]) {
                        DispatchQueue.global().async {
                            for title in titles { let note = Note(context: self.context); note.title = title }
                            try? self.↓context.save()
                        }
                    }
                }
                """),
            // Through a shared stack, in an async method of a type with no isolation: the concurrency pool.
            RuleExample("""
                final class CoreDataStack {
                    static let shared = CoreDataStack()
                    let container = NSPersistentContainer(name: "Model")
                    lazy var context = container.viewContext
                }
                final class SyncService {
                    func sync() async throws {
                        let remote = try await api.items()
                        let existing = try CoreDataStack.shared.↓context.fetch(Item.fetchRequest())
                        print(remote.count, existing.count)
                    }
                }
                """),
            RuleExample("""
                func purge() {
                    let context = persistentContainer.viewContext
                    Task.detached {
                        try? ↓context.save()
                    }
                }
                """),
            // A helper that uses it where its caller runs, called on a background queue.
            RuleExample("""
                final class Store {
                    let container = NSPersistentContainer(name: "Model")
                    func saveAll() { try? container.↓viewContext.save() }
                    func importInBackground() {
                        DispatchQueue.global().async { self.saveAll() }
                    }
                }
                """, message: "caller_dispatch_queue"),
            // A project method of the context that does its work where it is called, not on the context's queue.
            RuleExample("""
                extension NSManagedObjectContext {
                    func saveIfNeeded() throws { if hasChanges { try save() } }
                }
                func flush() {
                    Task.detached { try? persistentContainer.↓viewContext.saveIfNeeded() }
                }
                """),
            // A helper called in a private-queue context's `performAndWait`, the context made into a local.
            RuleExample("""
                final class Subscriptions {
                    let container = NSPersistentContainer(name: "Model")
                    func saveAll() { try? container.↓viewContext.save() }
                    func toggle() {
                        let context = container.newBackgroundContext()
                        context.performAndWait { self.saveAll() }
                    }
                }
                """, message: "caller_private_queue"),
            // A helper called in a closure that the store's own wrapper runs in its background context's `perform`.
            RuleExample("""
                final class Store {
                    let container = NSPersistentContainer(name: "Model")
                    lazy var background = container.newBackgroundContext()
                    func perform(_ work: @escaping () -> Void) { background.perform { work() } }
                    func saveAll() { try? container.↓viewContext.save() }
                    func importInBackground() { perform { self.saveAll() } }
                }
                """, message: "caller_private_queue"),
            // The same `perform` block of a parameter, given a background context by its caller.
            RuleExample("""
                final class Patcher {
                    let container = NSPersistentContainer(name: "Model")
                    func setMetadata() { try? container.↓viewContext.save() }
                    func start() { patch(context: container.newBackgroundContext()) }
                    func patch(context: NSManagedObjectContext) {
                        context.performAndWait { self.setMetadata() }
                    }
                }
                """, message: "caller_private_queue"),
            // A look-alike of a wrapper that runs its closure in the context's `perform`: this one runs it on a global queue.
            RuleExample("""
                extension NSManagedObjectContext {
                    func performLater(_ work: @escaping () -> Void) { DispatchQueue.global().async { work() } }
                }
                final class Exporter {
                    let container = NSPersistentContainer(name: "Model")
                    var context: NSManagedObjectContext { container.viewContext }
                    func export() async {
                        context.performLater { _ = try? self.↓context.count(for: Item.fetchRequest()) }
                    }
                }
                """),
            // The view context passed as a parameter to a function that uses it on a background queue.
            RuleExample("""
                final class Exporter {
                    let container: NSPersistentContainer
                    init(container: NSPersistentContainer) { self.container = container }
                    @MainActor func start() { export(from: container.viewContext) }
                    func export(from context: NSManagedObjectContext) {
                        DispatchQueue.global().async {
                            let items = try? ↓context.fetch(Item.fetchRequest())
                            print(items?.count ?? 0)
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            // A project method of the context that runs its closure inside the context's own `performAndWait`, called on
            // the view context: the closure runs on the main queue.
            RuleExample("""
                extension NSManagedObjectContext {
                    func performAndReturn<T>(_ closure: () throws -> T) throws -> T {
                        var result: Result<T, Error>?
                        performAndWait { result = Result { try closure() } }
                        return try result!.get()
                    }
                }
                final class Exporter {
                    let container = NSPersistentContainer(name: "Model")
                    var context: NSManagedObjectContext { container.viewContext }
                    func export() async throws -> Int {
                        try context.performAndReturn { try context.count(for: Item.fetchRequest()) }
                    }
                }
                """),
            // A `perform` block of a context passed as a parameter, which every caller (one passing it on) gives the view
            // context: the block runs on the main queue.
            RuleExample("""
                final class Patcher {
                    let container = NSPersistentContainer(name: "Model")
                    func setMetadata() { try? container.viewContext.save() }
                    @MainActor func start() { apply(context: container.viewContext) }
                    func apply(context: NSManagedObjectContext) { patch(context: context) }
                    func patch(context: NSManagedObjectContext) {
                        context.performAndWait {
                            self.setMetadata()
                            container.viewContext.refreshAllObjects()
                        }
                    }
                }
                """),
            // The same function handed a background context: not the view context (its queue is another rule's matter).
            RuleExample("""
                final class Exporter {
                    let container: NSPersistentContainer
                    init(container: NSPersistentContainer) { self.container = container }
                    func start() { export(from: container.newBackgroundContext()) }
                    func export(from context: NSManagedObjectContext) {
                        DispatchQueue.global().async {
                            let items = try? context.fetch(Item.fetchRequest())
                            print(items?.count ?? 0)
                        }
                    }
                }
                """),
            RuleExample("""
                func refresh() {
                    viewContext.perform {
                        self.viewContext.refreshAllObjects()
                    }
                    DispatchQueue.global().async {
                        let summary = self.compute()
                        DispatchQueue.main.async { self.viewContext.refreshAllObjects(); self.show(summary) }
                    }
                }
                """),
            RuleExample("""
                func purgeOld(_ request: NSBatchDeleteRequest) {
                    let context = container.newBackgroundContext()
                    context.performAndWait {
                        let result = try? context.execute(request) as? NSBatchDeleteResult
                        let ids = result?.result as? [NSManagedObjectID] ?? []
                        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [self.container.viewContext])
                    }
                }
                """),
            RuleExample("""
                @MainActor func reload() {
                    lists = (try? viewContext.fetch(ItemList.fetchRequest())) ?? []
                }
                """),
            // `perform` may be called from any thread: it runs the block on the context's queue.
            RuleExample("""
                func refreshLater() {
                    Task.detached {
                        await persistentContainer.viewContext.perform { persistentContainer.viewContext.refreshAllObjects() }
                    }
                    let context = persistentContainer.viewContext
                    DispatchQueue.global().async {
                        context.perform { try? context.save() }
                    }
                }
                """),
            // A project method of the context whose whole body runs in the context's own `performAndWait`: callable from
            // any thread, like `performAndWait` itself.
            RuleExample("""
                extension NSManagedObjectContext {
                    func saveIfNeeded() throws { try performAndWait { if hasChanges { try save() } } }
                }
                func flush() {
                    Task.detached { try? persistentContainer.viewContext.saveIfNeeded() }
                }
                """),
            // The same helper called in the view context's own `performAndWait`, the context made into a local: the
            // block runs on the main queue.
            RuleExample("""
                final class Subscriptions {
                    let container = NSPersistentContainer(name: "Model")
                    func saveAll() { try? container.viewContext.save() }
                    func toggle() {
                        let context = container.viewContext
                        context.performAndWait { self.saveAll() }
                    }
                }
                """),
            // A property holding a background context, and a helper called only on the main actor.
            RuleExample("""
                final class Store {
                    let container = NSPersistentContainer(name: "Model")
                    lazy var background = container.newBackgroundContext()
                    var context: NSManagedObjectContext { container.viewContext }
                    func saveAll() { try? context.save() }
                    @MainActor func done() { saveAll() }
                    func importInBackground() {
                        DispatchQueue.global().async { self.background.performAndWait { try? self.background.save() } }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ItemsModel {
                    let context = PersistenceController.shared.container.viewContext
                    func load() async { _ = try? context.fetch(Item.fetchRequest()) }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on apps nobody tuned on (docs/precision.md, round 9 of issue 21): over every judged app, 27 of 34 of its findings at that round's start were right (79%, below the 90% bar; 14 of 14 on round 11's fresh set), 27 of 32 after two facts made for its wrong classes (a `perform` block of a local declared as the view context runs on the main queue; a project method of the context whose whole body is one `perform` may be called from any thread). Two more facts since: a `perform` block of a context passed as a parameter runs on the main queue when every app caller passes the view context there (followed through parameters passed on, to three calls; a static method called through its type name, as macai's patcher is, is not resolved as a call, so its two findings stay); a closure given to a project wrapper that calls it only inside a context's `perform`/`performAndWait` (a method of the context, or one using a property or parameter holding it) runs on that context's queue. Still wrong: a subclass of a library's view, main-actor through a type the index does not see. \
            The view context is known by its name (`viewContext`), or by a local or a property declared as one \
            (`let context = container.viewContext`, `var context: NSManagedObjectContext { container.viewContext }`, \
            `Stack.shared.context` for such a property of another type). A context passed as a parameter is \
            the view context when some call in the project passes it there (`container.viewContext`, a local or a \
            property declared as it), one call up. Objects fetched from it and used off the main thread are not followed. Off the main thread means: a \
            background queue, a detached task, another context's `perform`, a task-group child, an async function \
            with no isolation (unless its module turns on SE-0461's `NonisolatedNonsendingByDefault`, directly or by \
            Approachable Concurrency, which runs it on its caller's actor; a `@concurrent` one always counts) or an \
            actor's method; for a synchronous function with no isolation of its own, a \
            caller (to three calls up) on one of those or in a handler of an off-main notification. Completion \
            handlers are not counted: many are called on the main queue. `perform` and `performAndWait` may be \
            called from any thread and are not reported.
            """,
        messages: [usedOffMain, callerDetached, callerQueue, callerPerform, callerActor, callerHandler])
    static let usedOffMain = RuleMessage("used_off_main", "`{context}` is the main-queue context but is used {place}; use `{context}.perform { }`, or a background context with objects fetched by id")
    static let callerDetached = RuleMessage("caller_detached_task", "`{function}` uses the main-queue context `{context}` on its caller's thread, and it is called from `Task.detached`; use `{context}.perform { }`, or call it on the main actor")
    static let callerQueue = RuleMessage("caller_dispatch_queue", "`{function}` uses the main-queue context `{context}` on its caller's thread, and it is called on a background dispatch queue or the concurrency pool; use `{context}.perform { }`, or call it on the main actor")
    static let callerPerform = RuleMessage("caller_private_queue", "`{function}` uses the main-queue context `{context}` on its caller's thread, and it is called from a private-queue context's `perform` block; use `{context}.perform { }`, or call it on the main actor")
    static let callerActor = RuleMessage("caller_actor", "`{function}` uses the main-queue context `{context}` on its caller's thread, and it is called from an actor method; use `{context}.perform { }`, or call it on the main actor")
    static let callerHandler = RuleMessage("caller_notification_handler", "`{function}` uses the main-queue context `{context}` on its caller's thread, and it is called from the `{0}` handler, on the private thread that posts it; use `{context}.perform { }`, or hop to the main actor first")

    public static let nodeKinds: Set<SyntaxKind> = [.declReferenceExpr]

    /// `viewContext.fetch(...)`, `container.viewContext.refreshAllObjects()`: the context itself is used, and the
    /// member used; nil when it is passed along (`mergeChanges(fromRemoteContextSave:into: [viewContext])`,
    /// which is made for that).
    static func usedMember(_ reference: DeclReferenceExprSyntax) -> String? {
        var expression = Syntax(reference)
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            expression = Syntax(member)
        }
        var parent = expression.parent
        while let optional = parent?.as(OptionalChainingExprSyntax.self) { parent = optional.parent }
        guard let use = parent?.as(MemberAccessExprSyntax.self), use.base?.id == expression.id || use.base?.as(OptionalChainingExprSyntax.self)?.expression.id == expression.id
        else { return nil }
        return use.declName.baseName.text
    }

    /// Where the code runs, when it is off the main thread or may be.
    enum Place {
        /// Certainly off the main thread, described.
        case offMain(String)
        /// A `nonisolated async` function: on the concurrency pool, unless its module runs such functions on their
        /// caller's actor (SE-0461's `NonisolatedNonsendingByDefault`).
        case nonisolatedAsync(String)
        /// An async method of a type whose isolation the index knows.
        case ifTypeHasNoIsolation(FunctionKey)
        /// A free async function with no isolation written, whose module's default the index knows.
        case ifModuleHasNoDefault(FunctionKey)
        /// A synchronous function with no isolation of its own: where its callers run.
        case callers(FunctionKey, function: String)
    }

    /// `name` is the context used: inside its own `perform` it is on its own queue.
    static func place(_ context: FileContext, using name: String) -> Place? {
        for closure in context.scope.closures {
            if closure.isMainActorAnnotated { return nil }
            switch closure.kind {
            case .mainQueue, .mainActorRun: return nil
            case .backgroundQueue: return .offMain("on a background queue")
            case .detachedTask: return .offMain("in `Task.detached`")
            case .taskGroupChild: return .offMain("in a task-group child task, on the concurrency pool")
            case .perform(let receiver), .performAndWait(let receiver):
                if FrameworkCallbacks.isMainQueueContext(receiver) || receiver == name || receiver.hasSuffix(".\(name)") { return nil }
                return .offMain("on another context's queue")
            default:
                // A completion handler's or a notification handler's thread is not known here.
                if let decided = ExecutionContexts.ofClosure(closure) {
                    return decided == .privateQueue || decided == .detachedTask ? .offMain("off the main thread") : nil
                }
                continue
            }
        }
        guard let function = context.scope.currentFunction else { return nil }
        let key = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
        switch ExecutionContexts.current(in: context) {
        case .concurrent:
            let text = "in `\(function.name)`, an async function with no isolation, which runs on the concurrency pool"
            return function.isConcurrent ? .offMain(text) : .nonisolatedAsync(text)
        case .actor: return .offMain("in `\(function.name)`, an actor's method, on the actor's executor")
        case .typeIsolation(_, isAsync: true): return .ifTypeHasNoIsolation(key)
        // A free async function: its module may default to the main actor (Swift 6.2); the index knows.
        case .moduleDefault(_, isAsync: true): return .ifModuleHasNoDefault(key)
        case .typeIsolation(_, isAsync: false), .moduleDefault(_, isAsync: false), .callers: return .callers(key, function: function.name)
        default: return nil
        }
    }

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let reference = node.as(DeclReferenceExprSyntax.self), let member = Self.usedMember(reference),
              !FrameworkCallbacks.anyThreadContextMethodNames.contains(member) else { return }
        let name = context.referenceName(reference).name
        // Cheap first: a name that is neither `viewContext` nor used as a context's member is left at once.
        guard name == "viewContext" || Self.contextMembers.contains(member), let place = Self.place(context, using: name),
              let found = Self.holder(reference, name: name, context: context) else { return }
        // A project method of the context that runs its whole body in the context's own `perform` may be called from
        // any thread, like `perform` itself (`viewContext.saveIfNeeded()`); the index knows which ones do.
        // A closure given to a project function that runs it in this context's own `perform` (`context.performAndReturn
        // { ... }`) runs on the context's queue, the main queue for the view context.
        let closureArguments = ExecutionContexts.closureArguments(in: context)
        let ownQueue: IndexCondition? = closureArguments.isEmpty ? nil : .not(.closureRunsOnOwnQueue(closureArguments, context: name))
        // Another context's `perform` block, that context a parameter (`context.perform { }` in `patch(context:)`): the
        // view context's own when every caller passes the view context there.
        var viewContextParameter: IndexCondition?
        if case .offMain = place, let function = context.scope.currentFunction,
           let parameter = ExecutionContexts.performParameter(in: context, function: FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)) {
            viewContextParameter = .not(.parameterHoldsContext(parameter, on: .mainActor))
        }
        let holder = IndexCondition.all([found, .not(.contextMethodRunsOnOwnQueue(member)), ownQueue, viewContextParameter].compactMap { $0 })
        let arguments = ["context": name]
        // SE-0461 (`NonisolatedNonsendingByDefault`, Xcode's Approachable Concurrency): an async function with no
        // isolation runs on its caller's actor, not on the pool; the index knows the module's setting.
        let onPool: IndexCondition = .not(.nonisolatedAsyncRunsOnCaller(file: context.path))
        switch place {
        case .offMain(let text):
            context.report(reference, Self.usedOffMain, arguments.merging(["place": text]) { $1 }, when: holder)
        case .nonisolatedAsync(let text):
            context.report(reference, Self.usedOffMain, arguments.merging(["place": text]) { $1 },
                           when: IndexCondition.all([holder, onPool].compactMap { $0 }))
        case .ifTypeHasNoIsolation(let key):
            let text = "in `\(key.name)`, an async method of a type with no isolation, which runs on the concurrency pool"
            context.report(reference, Self.usedOffMain, arguments.merging(["place": text]) { $1 },
                           when: IndexCondition.all([holder, .runsOffMain(key), onPool].compactMap { $0 }))
        case .ifModuleHasNoDefault(let key):
            let text = "in `\(key.name)`, an async function with no isolation, which runs on the concurrency pool"
            context.report(reference, Self.usedOffMain, arguments.merging(["place": text]) { $1 },
                           when: IndexCondition.all([holder, .runsOffMain(key), onPool].compactMap { $0 }))
        case .callers(let key, let function):
            context.report(reference, [Self.callerDetached, Self.callerQueue, Self.callerPerform, Self.callerActor, Self.callerHandler],
                           arguments.merging(["function": function]) { $1 }, answering: .offMainCaller(key, names: Set(NotificationNames.offMainByDefault)),
                           when: holder)
        }
    }

    /// What a context is asked on its own queue (`NSManagedObjectContext`): a name used with one of these is
    /// looked up to see whether it holds the view context.
    static let contextMembers: Set<String> = [
        "fetch", "count", "save", "delete", "insert", "execute", "existingObject", "object", "refresh", "refreshAllObjects",
        "reset", "rollback", "hasChanges", "registeredObjects", "insertedObjects", "updatedObjects", "deletedObjects",
        "obtainPermanentIDs", "processPendingChanges", "undo", "redo",
    ]

    /// Whether the receiver is the view context: nil when it is not; `.some(nil)` when the walk knows it is (its
    /// name, or a local declared as `….viewContext`); a condition for the index when it is a property.
    static func holder(_ reference: DeclReferenceExprSyntax, name: String, context: FileContext) -> IndexCondition?? {
        if name == "viewContext" { return .some(nil) }
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            guard let base = member.base else { return nil }
            return .some(.holdsMainQueueContext(member: name, of: ValueTypes.of(base, in: context)))
        }
        switch ValueTypes.origin(of: reference) {
        case .notLocal:
            guard let type = context.scope.currentType else { return nil }
            return .some(.holdsMainQueueContext(member: name, of: .named(type.qualifiedName, scope: nil)))
        case .local(let initializer):
            // A parameter (`save(into context:)`): the view context when some caller passes it there.
            if initializer == nil, let function = context.scope.currentFunction,
               let (position, label) = ContextArguments.parameter(named: name, in: function.parameterClause) {
                let key = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
                return .some(.receivesViewContext(key, position: position, label: label))
            }
            guard let initializer, let path = SyntaxFacts.memberPath(initializer), path.members.last == "viewContext" else { return nil }
            return .some(nil)
        case .unknown:
            return nil
        }
    }
}
