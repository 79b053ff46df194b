/// A method or free function of the project: the qualified type it belongs to (nil for a free function)
/// and its base name. Overloads share a key; their summaries are merged, which errs toward "it may".
public struct FunctionKey: Sendable, Hashable, Codable, CustomStringConvertible {
    public let typeName: String?
    public let name: String

    public init(typeName: String?, name: String) {
        self.typeName = typeName
        self.name = name
    }

    public var description: String { typeName.map { "\($0).\(name)" } ?? name }
}

extension FunctionKey: Comparable {
    /// A stable order for walking every summary, without building each key's description string.
    public static func < (lhs: FunctionKey, rhs: FunctionKey) -> Bool {
        (lhs.typeName ?? "", lhs.name) < (rhs.typeName ?? "", rhs.name)
    }
}

/// One `#if` clause a fact stands in: the `#if`'s offset in its file and the clause's index in it.
/// Two facts in different clauses of the same `#if` never run together.
public struct IfConfigClause: Sendable, Hashable, Codable {
    public let file: String
    public let offset: Int
    public let clause: Int

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(file: String, offset: Int, clause: Int) {
        self.file = file
        self.offset = offset
        self.clause = clause
    }
}

/// A Core Data context a call passes as an argument, as the caller's file tells it: the callee's parameter then
/// holds that kind of context.
public struct ContextArgument: Sendable, Hashable, Codable {
    public enum Kind: Sendable, Hashable, Codable {
        /// A private-queue context: `newBackgroundContext()`, `NSManagedObjectContext(concurrencyType:
        /// .privateQueueConcurrencyType)`, or a local bound to one in the caller.
        case backgroundContext
        /// The container's main-queue `viewContext` (`container.viewContext`).
        case viewContext
        /// A property of the caller's `self` whose name says it is a context (`backgroundContext`): what it holds is
        /// the index's question (`CoreDataFacts.backgroundContextProperties`).
        case contextProperty(String)
        /// A parameter of the calling function, passed on (`applyPatches(context:)` calling `patch(context: context)`):
        /// what it holds is what the caller's own callers pass (`ProjectIndex.queue(ofParameter:)`).
        case parameter(position: Int, label: String?)
    }

    /// The argument's position among the call's arguments (trailing closures aside), from 0.
    public let position: Int
    /// Its label; nil for an unlabelled argument.
    public let label: String?
    public let kind: Kind

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(position: Int, label: String?, kind: Kind) {
        self.position = position
        self.label = label
        self.kind = kind
    }
}

/// A closure parameter a function runs only inside a Core Data context's `perform`/`performAndWait` (`func perform(_ changes:
/// @escaping (NSManagedObjectContext) -> Void) { backgroundContext.perform { changes(self.backgroundContext) } }`): a
/// closure passed there runs on that context's queue, as a framework `perform` block does.
public struct ClosureRunInPerform: Sendable, Hashable, Codable {
    /// Which context's `perform` runs it.
    public enum Holder: Sendable, Hashable, Codable {
        /// The function's own receiver: a method of `NSManagedObjectContext` calling `performAndWait { }` on itself.
        case receiver
        /// A stored property of `self` (`backgroundContext.perform { }`).
        case property(String)
        /// One of the function's parameters (`context.perform { }` in `run(in context:, _ work:)`), by position and label.
        case parameter(position: Int, label: String?)
    }

    /// The closure parameter's position among the function's parameters, from 0, and its call-site label (nil for `_`).
    public let position: Int
    public let label: String?
    /// It is the last parameter: a trailing closure is passed there.
    public let isLast: Bool
    public let holder: Holder

    package init(position: Int, label: String?, isLast: Bool, holder: Holder) {
        self.position = position
        self.label = label
        self.isLast = isLast
        self.holder = holder
    }
}

/// A closure literal passed as an argument to a call the framework table does not know (`store.perform { _ in ... }`,
/// `context.performAndReturn { ... }`): whether it runs on a context's queue is the index's question, answered from the
/// callee's `FunctionSummary.closuresRunInPerform` when it is a project function.
public struct ClosureArgument: Sendable, Hashable, Codable {
    /// The call the closure is passed to, as the caller names it.
    public let call: CallReference
    /// The argument's position among the call's arguments, from 0, and its label; `isTrailing` for a trailing closure.
    public let position: Int
    public let label: String?
    public let isTrailing: Bool
    /// What the call's receiver is when it is a context (`viewContext.performAndReturn { }`).
    public let receiverContext: ContextArgument.Kind?
    /// The contexts the call passes as arguments.
    public let contextArguments: [ContextArgument]
    /// The receiver's last name (`context` for `document.context.performAndReturn { }`); nil for none or `self`.
    public let receiverName: String?

    package init(call: CallReference, position: Int, label: String?, isTrailing: Bool, receiverContext: ContextArgument.Kind?,
                 contextArguments: [ContextArgument], receiverName: String?) {
        self.receiverName = receiverName
        self.call = call
        self.position = position
        self.label = label
        self.isTrailing = isTrailing
        self.receiverContext = receiverContext
        self.contextArguments = contextArguments
    }
}

extension [ContextArgument] {
    /// The context passed for a parameter: by its label, or by position when it has none.
    public func passed(position: Int, label: String?) -> ContextArgument? {
        first { argument in label.map { argument.label == $0 } ?? (argument.label == nil && argument.position == position) }
    }
}

/// A parameter of a function that holds a Core Data context, by position and call-site label (nil for `_`).
public struct ContextParameter: Sendable, Hashable, Codable {
    public let function: FunctionKey
    public let position: Int
    public let label: String?

    package init(function: FunctionKey, position: Int, label: String?) {
        self.function = function
        self.position = position
        self.label = label
    }
}

/// A call made inside a function, with where it runs.
public struct CallFact: Sendable, Codable {
    public let caller: FunctionKey
    /// The called method's or function's base name.
    public let callee: String
    /// The receiver's type; nil for an unqualified call (a method of `self`, or a free function).
    public let receiver: ValueType?
    public let context: ExecutionContext
    /// Whether the call sits in a `Task { }`, `.task { }` or other closure that may be cancelled, as seen here.
    public let cancellation: Cancellability
    public let location: SourceLocation
    public let ifConfigClauses: [IfConfigClause]
    /// The property of `self` the call's value is stored in (`result = await resolve()`, `self.state = try load()`);
    /// nil when the value goes elsewhere or nowhere.
    public let assignedTo: String?
    /// The Core Data contexts it passes as arguments (`insert(records, into: context)` with a background `context`);
    /// arguments of other kinds are not kept.
    public var contextArguments: [ContextArgument] = []
    /// The call sits in a loop (`for`, `for await`, `while`, `repeat`) of its function, its closures included: a poll or
    /// an observation loop runs it again and again, where a call outside a loop runs once per run of the code around it.
    public var repeats = false
    /// The receiver is a local the caller binds to an object it builds before the call (`let session = MirrorSession(...)`
    /// then `session.start()`): the call is that object's, made once per object by this call site, not a second call on
    /// an object that may still run work the first one started.
    public var onNewObject = false
    /// The closures around the call, innermost first, that are passed to calls the framework table does not know, up to
    /// the first closure or declaration that decides where code runs (`context` is that one's): a project wrapper among
    /// them may run the call on a context's queue (`ProjectIndex.siteContext(_:)`).
    public var closureArguments: [ClosureArgument] = []
    /// The call is inside a `perform`/`performAndWait` block (the innermost frame that decides where it runs) of a context
    /// that is a parameter of the calling function (`context.perform { }` in `patch(context:)`): which queue that is
    /// depends on what the function's callers pass (`ProjectIndex.siteContext(_:)`).
    public var performParameter: ContextParameter?

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(caller: FunctionKey, callee: String, receiver: ValueType?, context: ExecutionContext, cancellation: Cancellability,
                 location: SourceLocation, ifConfigClauses: [IfConfigClause], assignedTo: String? = nil,
                 contextArguments: [ContextArgument] = [], repeats: Bool = false, onNewObject: Bool = false) {
        self.repeats = repeats
        self.onNewObject = onNewObject
        self.caller = caller
        self.callee = callee
        self.receiver = receiver
        self.context = context
        self.cancellation = cancellation
        self.location = location
        self.ifConfigClauses = ifConfigClauses
        self.assignedTo = assignedTo
        self.contextArguments = contextArguments
    }
}

/// A write to a stored property of `self`.
public struct StateWrite: Sendable, Codable {
    public let property: String
    /// `true` / `false` for a Bool literal; nil for any other value.
    public let boolValue: Bool?
    public let context: ExecutionContext
    public let location: SourceLocation

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(property: String, boolValue: Bool?, context: ExecutionContext, location: SourceLocation) {
        self.property = property
        self.boolValue = boolValue
        self.context = context
        self.location = location
    }
}

/// What a method or free function does, from its own body (closures inside included, each effect with the
/// context it runs in). `ProjectIndex.effects(of:)` adds what the functions it calls do.
public struct FunctionSummary: Sendable, Codable {
    public let key: FunctionKey
    public let isAsync: Bool
    /// Where its body runs by its own declaration: the function's or type's isolation, or `.callers`.
    public let declaredContext: ExecutionContext
    public let location: SourceLocation
    /// Whether its last parameter is a closure that may outlive the call (`@escaping`, or an optional function
    /// type, which is escaping by definition): a trailing closure passed there runs later, on whatever thread
    /// the function calls it from.
    public var lastParameterEscapes = false
    /// External labels (`_` for none) of its closure parameters that it calls inside a closure a queue not the main one
    /// runs (`DispatchQueue.global().async { … completion(x) }`, a `URLSession` completion handler, `Task.detached`;
    /// `ExecutionContexts.runsOnProvenOffMainQueue`): a closure passed there runs off the main thread, at least on
    /// that path (an early `return completion(nil)` may call it on the caller's thread too).
    public var closureParametersCalledOffMain: Set<String> = []
    /// Whether the last of those parameters is its last parameter: a trailing closure passed to it runs off the main
    /// thread.
    public var lastClosureParameterCalledOffMain = false
    /// Names of `self`'s members it reads (`x` or `self.x`; bare names that are not locals). The index
    /// keeps only those that are stored properties of the type.
    public var reads: Set<String> = []
    /// Names passed as an argument without being called (`Button(action: save)`, `action: model.send`):
    /// functions handed to someone else to call.
    public var passedReferences: Set<String> = []
    /// Those of `passedReferences` passed as a member of a value other than `self` (`action: model.send`): whose
    /// method they name depends on that value's type, which the summary does not keep. A bare name (`action: save`)
    /// or `self.save` names a method of the function's own type.
    public var passedMemberReferences: Set<String> = []
    public var writes: [StateWrite] = []
    public var awaits = false
    /// `MainActor.run`, `DispatchQueue.main.async`, `Task { @MainActor in }`.
    public var hopsToMainActor = false
    /// Notification names it posts.
    public var posts: [String] = []
    /// Where it schedules a `Timer` on the current run loop (`Timer.scheduledTimer`).
    public var timers: [SourceLocation] = []
    /// Receivers of `save()` calls: `context`, `viewContext`, `modelContext`.
    public var saves: [String] = []
    /// Whether it calls `rollback()` (or `reset()`) on a context: it cleans up after a failed save.
    public var rollsBack = false
    /// Whether its whole body is one `perform`/`performAndWait` call on the context it is a method of
    /// (`extension NSManagedObjectContext { func saveIfNeeded() throws { try performAndWait { … } } }`): like those two
    /// framework methods, it may be called from any thread, since its work runs on the context's own queue.
    public var runsOnOwnContextQueue = false
    /// Its closure parameters that it calls only inside a context's `perform`/`performAndWait` (`ClosureRunInPerform`).
    public var closuresRunInPerform: [ClosureRunInPerform] = []
    /// Properties of `self` on which it calls `cancel()` or `invalidate()`: task handles it cancels, timers it stops.
    public var cancelledHandles: Set<String> = []
    /// Its `inout` parameters on which it calls `cancel()` (`task?.cancel()` in `schedule(task: inout Task<…>?)`):
    /// a handle the caller keeps and this function cancels before it stores the next task there. A task stored in
    /// such a parameter is cancelled by the next call (`ProjectIndex.isCancellable`).
    public var cancelledInoutHandles: Set<String> = []
    /// Properties of `self` it assigns a new `Task { }` to (`loadTask = Task { ... }`; not `tasks[id] = Task`).
    public var startedHandles: Set<String> = []
    /// Where its own body (not a closure in it) starts a `Task { }` whose handle nobody keeps (a statement of its
    /// own, or `_ = Task { }`) with an `await` in it: work that outlives the call and that no one can cancel. A task
    /// that never suspends (`Task { @MainActor in toasts.append(toast) }`) runs to its end on its actor's next turn.
    public var discardedTasks: [SourceLocation] = []
    /// What each of those tasks uses of the code around it: the names it reads, writes or calls as `x` (not a local
    /// or parameter of the function, not declared in the task), and whether it names `self`. The index tells which of
    /// those names are members of the type: a task that uses none is work for someone else (a save, a post), not
    /// for the object that started it.
    public var discardedTaskUses: [DiscardedTaskUse] = []
    /// Flags of `self` the body returns early on among its first statements (before any `await`) and sets to `true`
    /// itself (`guard !hasInitialized else { return }; hasInitialized = true`), sync or async: the rest of the body
    /// runs once while the flag stays set. Whether anything sets it back is the index's question.
    public var onceGuards: Set<String> = []
    /// Whether every error it throws is the app's own: `throws(DomainError)`, or an untyped `throws` whose
    /// body catches every `try` with a catch-all and throws only values it builds (`throw AppError(error)`,
    /// `throw .network(error)`), never one it received (`throw error`). A cancellation that reaches such a
    /// function arrives at its callers converted, so their catch cannot tell it from other errors.
    public var throwsOnlyOwnErrors = false
    /// Whether its body awaits a `URLSession` transfer the framework table knows (`URLSession.shared.data(for:)`,
    /// `session.download(from:)`): cancelling the task that awaits it throws `URLError.cancelled`.
    public var awaitsURLSessionTransfer = false
    /// Whether its body awaits a call with the name and first label of a URLSession transfer on a receiver the table
    /// does not know (`dataLoader.data(for: request)`, a protocol that mirrors `URLSession` for tests): likely one.
    public var awaitsTransferNamedLikeURLSession = false
    /// Whether its body turns a cancelled transfer's `URLError.cancelled` into a `CancellationError`: a `catch` for
    /// `URLError.cancelled` (its pattern, or a test of the code in its body) that throws `CancellationError()`. A
    /// transfer reached through it arrives at its callers as a `CancellationError`, which `catch is
    /// CancellationError` handles; the index follows no call past it (`ProjectIndex.reachesUnconvertedTransfer`).
    public var convertsURLErrorCancelled = false
    /// Whether its body tests an error for `CancellationError` (`error is CancellationError`, `case is CancellationError`,
    /// `catch is CancellationError`): a helper such as `handleError(_:)` that treats a cancellation apart.
    public var testsCancellationError = false
    /// Where a synchronous function blocks its thread on a semaphore or group (`semaphore.wait()`,
    /// `group.wait()`, `wait(timeout: .distantFuture)`) in its own body, outside closures.
    public var blockingWaits: [SourceLocation] = []
    /// Flags it sets to `false` on every path of its control-flow graph from the entry to an exit (a return, an
    /// error that leaves it, a cancellation), directly or in a `defer`; not in closures.
    public var resetsOnEveryPath: Set<String> = []
    /// Stored properties of `self` it writes at a point some path of its control-flow graph reaches from an
    /// `await` (in its body, or in a closure that runs in place there, such as `withAnimation`), resets to a
    /// literal (`isLoading = false`, `task = nil`) aside: a result it writes after suspending, which an overlapping
    /// call of the same function may already have written. Only for async functions.
    public var writesAfterAwait: Set<String> = []
    /// Flags of `self` it returns early on before its first `await` (`guard !isLoading else { return }`) and sets
    /// `true` itself: a second call while one is in flight does nothing.
    public var reentryGuards: Set<String> = []
    /// Flags it sets to `true` on every path the same way: a "finished" flag (`didFinishLoading = true`) that a
    /// helper marks for its caller (`applyRoutes(from:)` ends every load).
    public var setsTrueOnEveryPath: Set<String> = []
    public var calls: [CallFact] = []
    /// Method calls on a receiver whose type the syntax cannot tell (`viewModel.load()` where `viewModel`'s
    /// type is unknown), by method name, with whether each may be cancelled: the only trace of callers that
    /// `calls` cannot name.
    public var unresolvedCalls: [String: [Cancellability]] = [:]
    /// How an error it throws can be a cancellation of the task that runs it (`CancellationSources`): what its own
    /// `try`s reach, for the index to follow (`ProjectIndex.cancellationThrow(of:)`).
    public var cancellationSources = CancellationSources()
    /// Where it calls something inside a SwiftUI `.task { }` without `id:`: that task is cancelled only when its view
    /// disappears (`ExecutionContexts.isCancelledOnlyOnDisappear`), never while the view stays on screen.
    public var disappearOnlyTaskCalls: Set<SourceLocation> = []
    /// Whether an `async` function's own body (not a closure) blocks its thread on a semaphore or group
    /// (`semaphore.wait()`): it does not suspend, yet it does not finish in one short turn either.
    public var blocksInAsyncBody = false
    /// The calls its own body awaits (outside closures), each the whole of an `await` (`await model.load()`, `x = try await
    /// api.fetch()`): whether awaiting the function can suspend at all is whether one of these can
    /// (`ProjectIndex.neverSuspends`). An `await` of anything else (`await task.value`, `for await`, an `async let`, a
    /// call whose arguments make calls, a receiver of unknown type) sets `awaitsOtherThanCalls`.
    public var awaitedCalls: [CallReference] = []
    public var awaitsOtherThanCalls = false
    /// Whether it returns a value and its body (closures included) builds a sequence that `finish()` ends
    /// (`FrameworkContinuations.finishableSequences`) and calls `finish()`: `for await line in parse(url)` over what
    /// it returns ends when its producer does.
    public var returnsFinishedStream = false

    public init(key: FunctionKey, isAsync: Bool, declaredContext: ExecutionContext, location: SourceLocation) {
        self.key = key
        self.isAsync = isAsync
        self.declaredContext = declaredContext
        self.location = location
    }

    /// Two overloads (or a function declared twice under `#if`) as one: every effect of either.
    package func merged(with other: FunctionSummary) -> FunctionSummary {
        var merged = self
        merged.reads.formUnion(other.reads)
        merged.passedReferences.formUnion(other.passedReferences)
        merged.passedMemberReferences.formUnion(other.passedMemberReferences)
        merged.writes += other.writes
        merged.awaits = awaits || other.awaits
        merged.hopsToMainActor = hopsToMainActor || other.hopsToMainActor
        merged.posts += other.posts
        merged.timers += other.timers
        merged.saves += other.saves
        merged.cancelledHandles.formUnion(other.cancelledHandles)
        merged.cancelledInoutHandles.formUnion(other.cancelledInoutHandles)
        merged.startedHandles.formUnion(other.startedHandles)
        merged.discardedTasks += other.discardedTasks
        merged.discardedTaskUses += other.discardedTaskUses
        merged.onceGuards = onceGuards.intersection(other.onceGuards)
        merged.rollsBack = rollsBack || other.rollsBack
        // Overloads merged err toward "may run where it is called": each must run on the context's queue.
        merged.runsOnOwnContextQueue = runsOnOwnContextQueue && other.runsOnOwnContextQueue
        merged.returnsFinishedStream = returnsFinishedStream || other.returnsFinishedStream
        // Each overload must run the closure in a `perform` for the merged function to.
        merged.closuresRunInPerform = closuresRunInPerform.filter(other.closuresRunInPerform.contains)
        // Overloads merged err toward "it may": each must throw only the app's errors, each must reset.
        merged.throwsOnlyOwnErrors = throwsOnlyOwnErrors && other.throwsOnlyOwnErrors
        merged.blockingWaits += other.blockingWaits
        merged.awaitsURLSessionTransfer = awaitsURLSessionTransfer || other.awaitsURLSessionTransfer
        merged.awaitsTransferNamedLikeURLSession = awaitsTransferNamedLikeURLSession || other.awaitsTransferNamedLikeURLSession
        // Overloads that convert are usually one that converts and convenience ones forwarding to it (ruddarr's
        // `API.request`): a call of the name is taken as converted when some overload converts.
        merged.convertsURLErrorCancelled = convertsURLErrorCancelled || other.convertsURLErrorCancelled
        merged.testsCancellationError = testsCancellationError || other.testsCancellationError
        merged.resetsOnEveryPath = resetsOnEveryPath.intersection(other.resetsOnEveryPath)
        merged.setsTrueOnEveryPath = setsTrueOnEveryPath.intersection(other.setsTrueOnEveryPath)
        merged.calls += other.calls
        merged.writesAfterAwait.formUnion(other.writesAfterAwait)
        // Each overload must guard against a second call for the merged function to.
        merged.reentryGuards = reentryGuards.intersection(other.reentryGuards)
        merged.lastParameterEscapes = lastParameterEscapes || other.lastParameterEscapes
        // A label names a parameter only of the overloads that have it; a trailing closure goes to the overload whose
        // other arguments match, which the summary does not tell apart: either may.
        merged.closureParametersCalledOffMain.formUnion(other.closureParametersCalledOffMain)
        merged.lastClosureParameterCalledOffMain = lastClosureParameterCalledOffMain || other.lastClosureParameterCalledOffMain
        merged.unresolvedCalls.merge(other.unresolvedCalls) { $0 + $1 }
        merged.cancellationSources = cancellationSources.merged(with: other.cancellationSources)
        merged.disappearOnlyTaskCalls.formUnion(other.disappearOnlyTaskCalls)
        merged.blocksInAsyncBody = blocksInAsyncBody || other.blocksInAsyncBody
        merged.awaitedCalls += other.awaitedCalls.filter { !awaitedCalls.contains($0) }
        merged.awaitsOtherThanCalls = awaitsOtherThanCalls || other.awaitsOtherThanCalls
        return merged
    }

    /// Flags it sets back to `false`.
    public var resetFlags: Set<String> { Set(writes.filter { $0.boolValue == false }.map(\.property)) }

    /// Handles it restarts: it cancels the task stored there and stores a new one (`loadTask?.cancel(); loadTask =
    /// Task { ... }`), so the work that task does is cancelled by the next call; a second call supersedes the first.
    public var restartedHandles: Set<String> { startedHandles.intersection(cancelledHandles) }
}

/// A `Task { }` whose handle nobody keeps, with what it uses of the code around it (`FunctionSummary.discardedTaskUses`).
public struct DiscardedTaskUse: Sendable, Codable, Hashable {
    public let location: SourceLocation
    /// Bare names it uses that the function does not declare: members of `self`, or globals.
    public let names: Set<String>
    /// Whether it names `self` (`self.x`, `self?.x`, `[weak self]`).
    public let namesSelf: Bool

    package init(location: SourceLocation, names: Set<String>, namesSelf: Bool) {
        self.location = location
        self.names = names
        self.namesSelf = namesSelf
    }
}

/// A task handle that a function restarts the careful way: it cancels the handle and assigns it a new
/// `Task { }`. The calls that task makes to methods of `self` are the load it runs; another function of the
/// type that starts the same handle, or the same load, without cancelling is a second entry point.
public struct RestartedHandle: Sendable {
    public let property: String
    public let starter: FunctionKey
    /// Methods of `self` the task stored in the handle calls.
    public let loads: Set<String>

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(property: String, starter: FunctionKey, loads: Set<String>) {
        self.property = property
        self.starter = starter
        self.loads = loads
    }
}

/// A call as a rule sees it during the walk, to be resolved to a project function by the index
/// (`ProjectIndex.callee(of:)`): the same naming as a `CallFact`, without where it runs.
public struct CallReference: Sendable, Hashable, Codable {
    public let caller: FunctionKey
    public let callee: String
    /// The receiver's type; nil for an unqualified call or one on `self`.
    public let receiver: ValueType?

    public init(caller: FunctionKey, callee: String, receiver: ValueType?) {
        self.caller = caller
        self.callee = callee
        self.receiver = receiver
    }
}

/// Whether code can be cancelled at all, as far as its own file tells.
public enum Cancellability: Sendable, Hashable, Codable {
    /// A `.task` / `.task(id:)` / `.refreshable` closure: cancelled by SwiftUI. (A task-group child takes the
    /// cancellability of the code that runs its group.)
    case always
    /// Synchronous code, `Task.detached`, or a `Task { }` whose handle nobody keeps: never cancelled.
    case never
    /// A `Task { }` whose handle is stored in the property: cancelled if the type calls `cancel()` on it.
    case ifHandleCancelled(typeName: String, property: String)
    /// The body of an async function: cancelled when a caller's task is.
    case ifCallersCancellable(FunctionKey)
}

/// A SwiftUI view type constructed in a view body.
public struct ViewConstruction: Sendable, Codable {
    public enum Identity: Sendable, Hashable, Codable {
        /// Built per value (`ForEach`, `List` rows, `navigationDestination(for:)`, `sheet(item:)`): each value
        /// gets a view of its own, so a `.task` without `id:` starts again for a new value.
        case perValue
        /// Built in a place whose identity stays while its arguments change (a split view's detail built from
        /// a selection, a view reused with a new argument): `.task` without `id:` keeps the first value's work.
        case stable
        /// Built in a `NavigationSplitView`'s `detail:` (or `content:`) column from the selection: the column
        /// keeps the view's identity while the selection, and so the argument, changes. Also a destination pushed
        /// (`navigationDestination(for:)`, `NavigationLink`) from a split view's sidebar in the same body: it is
        /// shown in the detail column, which keeps it while the sidebar's selection changes.
        case splitViewColumn
        /// Built in a `NavigationSplitView`'s sidebar (its first column): a destination this view pushes is shown
        /// in the detail column, which keeps it while the selection changes.
        case splitViewSidebar
        /// A destination pushed by `navigationDestination(for:)`/`(item:)` or a `NavigationLink` outside a split
        /// view's sidebar in the same body: a view of its own per value, unless the view that pushes it is itself
        /// in a split view's sidebar (`ProjectIndex.identityEvidence(ofView:)` follows that).
        case pushedDestination
    }

    public let typeName: String
    /// Where it is built, for resolving nested type names.
    public let scope: String?
    public let identity: Identity
    public let location: SourceLocation
    /// Labels of the arguments given a value that cannot change while the view lives: a literal (`"Done"`, `3`),
    /// a static member (`.red`, `Color.accent`), a type built from literals (`URL(string: "https://…")!`).
    public var constantArguments: Set<String> = []
    /// Labels of the arguments given an object built right there (`Row(model: RowModel(item))`, `.init(...)`): a new
    /// one each time the enclosing body runs.
    public var builtArguments: Set<String> = []
    /// Labels of the arguments given a property of the view that builds it, as `name` or `self.name` (label → name):
    /// the value changes only when that property does.
    public var forwardedArguments: [String: String] = [:]
    /// Every closure around the construction, up to the declaration that builds it, is a plain container
    /// (`FrameworkViewState.lifetimeContainers`: `Group`, the stacks, a `NavigationStack`'s root, a scene's `WindowGroup`):
    /// nothing presents, pushes or repeats it, so it lives as long as the view (or scene) that builds it, while the
    /// `if` or `switch` branch it is in holds.
    public var inContainersOnly = false
    /// Built as the root of a scene (in the code of an `App` or `Scene` type, in containers only) or of a UIKit/AppKit
    /// hosting controller (its `rootView:`): the view's lifetime is the window's or the controller's, not a screen's
    /// inside the app. Such constructions are kept apart from the views' own (`ProjectIndex.constructions(ofView:)`).
    public var isRoot = false

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(typeName: String, scope: String?, identity: Identity, location: SourceLocation, constantArguments: Set<String> = [],
                 builtArguments: Set<String> = [], forwardedArguments: [String: String] = [:], inContainersOnly: Bool = false,
                 isRoot: Bool = false) {
        self.inContainersOnly = inContainersOnly
        self.isRoot = isRoot
        self.forwardedArguments = forwardedArguments
        self.typeName = typeName
        self.scope = scope
        self.identity = identity
        self.location = location
        self.constantArguments = constantArguments
        self.builtArguments = builtArguments
    }
}

/// How the errors a function lets out can include a cancellation of the task that runs it, from its own body: the
/// `try`s whose errors leave it (not caught by a catch-all, unless a catch passes on what it caught: `throw error`),
/// in the body and in closures that run in place under a `try` (`try await withThrowingTaskGroup { ... }`), never in
/// a closure that runs elsewhere (`Task { }`, a completion handler, a continuation's closure).
public struct CancellationSources: Sendable, Hashable, Codable {
    /// It reports cancellation itself: a `try` of a call the framework table says throws when its task is cancelled
    /// (`Task.sleep`, `Task.checkCancellation()`, URLSession's async transfers), or `throw CancellationError()`.
    public var throwsItself = false
    /// It awaits a throwing value that names no call (`for try await` over a sequence, `try await task.value`,
    /// `try await action()` of a closure): what that throws is unknown.
    public var awaitsUnnamed = false
    /// The other calls under `try` whose errors leave it, for the index: a project function is followed, anything
    /// else awaited may throw a cancellation (unknown), a synchronous call of another module does not.
    public var calls: [ThrowingCall] = []

    public init() {}

    /// Two overloads as one: either may throw.
    package func merged(with other: CancellationSources) -> CancellationSources {
        var merged = self
        merged.throwsItself = throwsItself || other.throwsItself
        merged.awaitsUnnamed = awaitsUnnamed || other.awaitsUnnamed
        merged.calls += other.calls.filter { !calls.contains($0) }
        return merged
    }
}

/// A call under `try` whose error may leave the function: `try await api.fetch()`, `try store.load()`.
public struct ThrowingCall: Sendable, Hashable, Codable {
    /// The called method's or function's base name.
    public let callee: String
    /// The receiver's type; nil for an unqualified call or one on `self`; `.unknown` when the syntax cannot tell.
    public let receiver: ValueType?
    /// Whether it is awaited: a synchronous call of another module never throws a cancellation (only
    /// `Task.checkCancellation()`, which the table knows, reads the flag synchronously).
    public let awaited: Bool

    public init(callee: String, receiver: ValueType?, awaited: Bool) {
        self.callee = callee
        self.receiver = receiver
        self.awaited = awaited
    }
}

/// Whether an error of a call can be a cancellation of the task that awaits it.
public enum CancellationThrow: Int, Sendable, Hashable, Codable, Comparable {
    /// It cannot: every `try` it reaches is a project function that cannot, a synchronous call of another module,
    /// or an API the framework table says throws only its closure's errors (`withCheckedThrowingContinuation`).
    case never
    /// It may: it awaits a call the index cannot follow (another module's method, a receiver of unknown type, a
    /// protocol with no project conformer, a closure), or the chain is deeper than the index follows.
    case unknown
    /// It does: it reaches (itself or through project functions) a call the framework table says throws on
    /// cancellation, or `throw CancellationError()`.
    case proven

    public static func < (lhs: CancellationThrow, rhs: CancellationThrow) -> Bool { lhs.rawValue < rhs.rawValue }
}
