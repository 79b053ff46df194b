/// A question for the finished project index that decides whether a pending finding holds, written as
/// data instead of a closure, so that a pending finding can be stored, compared and cached. New rules ask
/// through these; the closure form (`report(_:when:)`) remains for the older ones.
public indirect enum IndexCondition: Sendable, Hashable, Codable {
    /// The code can be cancelled at all (`ProjectIndex.isCancellable`).
    case isCancellable(Cancellability)
    /// The code can be cancelled, and that is proven by facts (`ProjectIndex.isCancellable(_:proven:)`): a `.task`
    /// closure, a stored handle its type cancels, or an async function with a call site in app code, resolved to it,
    /// that is itself proven cancellable. A function the project never calls (its callers may be outside the run) or
    /// reaches only through calls on receivers of unknown type (a name match) is cancellable as far as anything
    /// says, but not proven: findings that need only that have medium confidence.
    case isProvenCancellable(Cancellability)
    /// One of the calls reaches a project function (the callee, or one it calls, to `ProjectIndex.callDepth` calls) that
    /// reads a member of one of these names (`FunctionSummary.reads`): `onChange(of: daySpan) { Task { await load() } }`
    /// where `load()` reads `daySpan` takes the value the handler runs for.
    case someCalleeReads([CallReference], names: [String])
    /// One of the calls reaches a project function (the callee, or one it calls, to `ProjectIndex.callDepth` calls) that
    /// tests an error for `CancellationError` (`FunctionSummary.testsCancellationError`): a catch that hands its error
    /// to such a helper (`self.error = handleErrorWithDetails(error)`) may show nothing for a cancellation.
    case someTestsCancellation([CallReference])
    /// The value's type resolves to a SwiftData `@Model` or a Core Data `NSManagedObject` subclass.
    case isPersistentModel(ValueType)
    /// Some context the function runs in is off the main thread (`ProjectIndex.executionContexts`).
    case runsOffMain(FunctionKey)
    /// The file is compiled in a module that defaults to the main actor (Swift 6.2's `SWIFT_DEFAULT_ACTOR_ISOLATION =
    /// MainActor`, `.defaultIsolation(MainActor.self)`; `ProjectIndex.defaultsToMainActor`): a declaration there with no
    /// isolation of its own is `@MainActor`.
    case moduleDefaultsToMainActor(file: String)
    /// The type is isolated to an actor as Swift infers it (`ProjectIndex.isolation(ofType:)`): an actor, `@MainActor` on
    /// its primary declaration, a main-actor supertype or protocol (`UIViewController`, `View`), or its module's default.
    /// An extension's members take the isolation of the type it extends, which only the index can see.
    case typeIsIsolated(String)
    /// The `try`s of a body (a `do`'s, in a function of `caller`'s type) can throw their task's cancellation at least
    /// this surely (`ProjectIndex.cancellationThrow(of:caller:)`): `.proven` when they reach a framework call that
    /// reports one (`Task.sleep`, `Task.checkCancellation()`, a URLSession transfer), through project functions that
    /// let its error out; `.unknown` when they may (another module's awaited call, a receiver of unknown type).
    case throwsCancellation(CancellationSources, caller: FunctionKey, atLeast: CancellationThrow)
    /// The code can be cancelled while the state it writes (`writes`, properties of `ofType`) still shows
    /// (`ProjectIndex.isCancelledWhileStateLives`): not only by a `.task { }` without `id:` of a view that owns that
    /// state and pushes nothing over itself, which is cancelled only when the view goes away with the state.
    case cancelledWhileStateLives(Cancellability, writes: [String], ofType: String?)
    /// The view pushes a destination over itself (`ProjectIndex.pushesDestination`): its `.task` is cancelled while
    /// it stays in the navigation stack, with its state.
    case pushesDestination(String)
    /// The call may throw a cancellation to its caller: its callee is not a project function, or one that
    /// may throw errors other than the app's own (`FunctionSummary.throwsOnlyOwnErrors`).
    case mayThrowCancellation(CallReference)
    /// One of the calls is a project function that awaits a `URLSession` transfer the framework table knows, itself or
    /// through the project functions it calls (to `ProjectIndex.callDepth` calls; `FunctionSummary.awaitsURLSessionTransfer`):
    /// cancelling its task throws `URLError.cancelled` through it. A function that converts `URLError.cancelled`
    /// into `CancellationError` (`FunctionSummary.convertsURLErrorCancelled`) is not followed: what it reaches arrives converted.
    case reachesURLSessionTransfer([CallReference])
    /// One of the calls likely reaches a `URLSession` transfer: the functions it reaches await a call with a transfer's
    /// name and first label (`FunctionSummary.awaitsTransferNamedLikeURLSession`), or it is a call the index cannot
    /// follow (a closure property, another package's method; nil: one that names no call) in a project whose own
    /// code awaits URLSession transfers and converts none of them centrally (no function of its app code turns
    /// `URLError.cancelled` into `CancellationError`). Known by names: findings that need it have medium confidence.
    case mayReachURLSessionTransfer([CallReference?])
    /// View code somewhere in the project reads a member or name called this (`ProjectIndex.viewReadNames`);
    /// holds too when the project has no view code.
    case readByViews(String)
    /// Some call site of the function stores the value it returns in a property of the caller's type that view
    /// code reads (`CallFact.assignedTo`, `readByViews`): `result = await resolve()`, where `resolve()` returns
    /// `.failure(error)` from its catch.
    case returnedValueShown(FunctionKey)
    /// The type, as written, is a SwiftData `@Model` or a Core Data `NSManagedObject` subclass.
    case isPersistentModelNamed(String)
    /// The function calls `rollback()` (or `reset()`) on a context (`FunctionSummary.rollsBack`).
    case rollsBack(FunctionKey)
    /// Every call site's function, or one of its own callers (to `ProjectIndex.callDepth` calls up), rolls back.
    case everyCallerRollsBack(FunctionKey)
    /// One of the functions sets the flag `false` on every path of its own (`FunctionSummary.resetsOnEveryPath`).
    case someResetsOnEveryPath([FunctionKey], flag: String)
    /// One of the functions sets the flag `false` somewhere (`FunctionSummary.resetFlags`).
    case someResets([FunctionKey], flag: String)
    /// One of the functions sets the flag `true` on every path of its own (`FunctionSummary.setsTrueOnEveryPath`).
    case someSetsTrueOnEveryPath([FunctionKey], flag: String)
    /// One of the functions is synchronous and returns early on an in-progress flag of `self` it then sets `true`
    /// itself (`FunctionSummary.onceGuards`, kept for sync functions too): a caller's `guard beginAction() else { return }` stops a second call.
    case someGuardsReentry([FunctionKey])
    /// The project calls the function, and every call site is in a function of one of these names (`init`,
    /// `viewDidLoad`: code that runs once per object), closures in them included.
    case everyCallerIn(FunctionKey, names: [String])
    /// The project calls the function, and every call site is in a function that runs its body once per object: it
    /// returns early on a flag of `self` it then sets `true` (`FunctionSummary.onceGuards`), and no function of its type
    /// sets that flag `false` (`FunctionSummary.resetFlags`).
    case everyCallerRunsOnce(FunctionKey)
    /// One of the functions calls a method of this name somewhere, closures included (`FunctionSummary.calls`,
    /// `unresolvedCalls`): a helper that hides progress (`spinner.stopAnimating()`).
    case someCalls([FunctionKey], method: String)
    /// A function of the type other than `except` sets the flag `false` somewhere (`FunctionSummary.resetFlags`):
    /// the code that cancels a task may be what resets the flag the task leaves set when cancelled.
    case otherFunctionResets(typeName: String, flag: String, except: FunctionKey)
    /// One of the functions, or one it calls (to `ProjectIndex.callDepth` calls), calls `cancel()` or `invalidate()`
    /// on the property of its own type (`FunctionSummary.cancelledHandles`): it stops the task or timer held there.
    case someStopsHandle([FunctionKey], property: String)
    /// The project function the call reaches takes an escaping closure last (`FunctionSummary.lastParameterEscapes`).
    case lastParameterEscapes(callee: String, receiver: ValueType?, callerType: String?)
    /// The project function the call reaches calls the closure parameter labelled `label` (nil: its last parameter, which
    /// a trailing closure is given to) on a queue proven not the main one (`FunctionSummary.closureParametersCalledOffMain`).
    case callsClosureParameterOffMain(callee: String, receiver: ValueType?, callerType: String?, label: String?)
    /// The type's property holds a private-queue context (`CoreDataFacts.backgroundContextProperties`).
    case holdsBackgroundContext(TypeProperty)
    /// The property `member` of the value's type holds a main-queue context: it is declared as one
    /// (`let context = container.viewContext`, `var context: NSManagedObjectContext { container.viewContext }`;
    /// `CoreDataFacts.mainQueueContextProperties`).
    case holdsMainQueueContext(member: String, of: ValueType)
    /// Every place the function runs is a private-queue context's `perform` block: it has callers, and each (followed
    /// up through callers with no isolation of their own, to three calls) is inside a `perform` or `performAndWait`
    /// of a context that is not the view context (`ProjectIndex.executionContexts`).
    case runsOnlyInPerform(FunctionKey)
    /// Some call of the function from app code, outside a private-queue context's `perform`, passes a private-queue
    /// context as the parameter at `position` labelled `label` (`CallFact.contextArguments`; a property argument is
    /// one when the caller's type holds a background context there).
    case receivesBackgroundContextOutsidePerform(FunctionKey, position: Int, label: String?)
    /// Some call of the function from app code passes the main-queue view context as the parameter at `position`
    /// labelled `label` (`container.viewContext`, a local bound to it, or a property the caller's type declares as it).
    case receivesViewContext(FunctionKey, position: Int, label: String?)
    /// The type (or an extension of it) declares a property of this name.
    case hasProperty(String, ofType: String)
    /// The type (or an extension of it) declares a property of this name with this attribute (`@Published`, `@MainActor`).
    case propertyHasAttribute(String, attribute: String, ofType: String)
    /// Code in this context runs off the main thread once the index resolves a type's isolation (its own, a project
    /// superclass's or protocol's) or a module's default isolation (`ProjectIndex.isOffMain`).
    case isOffMain(ExecutionContext)
    /// Some declaration of the type, or of a project supertype of it, lists this supertype (`ObservableObject`).
    case inherits(String, from: String)
    /// The file's module runs async functions with no isolation on their caller's actor, not on the concurrency pool
    /// (`ProjectIndex.nonisolatedAsyncRunsOnCaller`: `NonisolatedNonsendingByDefault`, Approachable Concurrency).
    case nonisolatedAsyncRunsOnCaller(file: String)
    /// Some SwiftUI view holds an instance of the type with `@StateObject`, `@ObservedObject` or `@EnvironmentObject`
    /// (`ProjectIndex.isObservedByViews`).
    case isObservedByViews(String)
    /// The type sets this Bool property to `true` in a function that also saves a context (`CoreDataFacts.localSaveFlags`).
    case isLocalSaveFlag(TypeProperty)
    /// The type's property of this name is declared as a continuation (`FrameworkContinuations.continuationTypes`).
    case holdsContinuation(String, ofType: String)
    /// One of the names is a stored `var` of the type (`PropertyFact.isStoredVar`).
    case someStoredVar([String], ofType: String)
    /// A closure's uses of `self` in a type are of a class or actor instance that can be released: the type (for an
    /// extension, the type it extends) is a class or an actor, not an app-lifetime singleton (`static let shared =
    /// Type()` and no `deinit`) nor held by the `@main` app in a stored property it builds, and the closure says `self` explicitly or uses one of `bareNames` that is a member.
    case capturedSelfIsReleasable(typeName: String, isExtension: Bool, explicitSelf: Bool, bareNames: Set<String>)
    /// The type's instance lives as long as the app: some declaration of it inherits one of
    /// `FrameworkObservers.appLifetimeSupertypes`, or (`orSingleton`) it is an app-lifetime singleton
    /// (`static let shared = Type()` and no `deinit`), whose `init` runs once.
    case isAppLifetimeObject(typeName: String, orSingleton: Bool)
    /// Awaiting these calls, from code running in `context`, never suspends (`ProjectIndex.neverSuspends`): each is a
    /// project function isolated to the main actor, as the code is, whose own `await`s are all such calls in turn (or
    /// none), so the code runs from one `await` to the next without giving up the actor.
    case neverSuspends([CallReference], on: ExecutionContext)
    /// In a program (an Xcode project with an entry point, all of whose code was linted), nothing calls the function:
    /// every call of its name reaches another type's function, nothing names it without a call, and no framework
    /// protocol it adopts requires it (`ProjectIndex.isUncalledInProgram`). Its code never runs.
    case isUncalledInProgram(FunctionKey)
    /// Every run of the function is part of the app's one-time set-up (`ProjectIndex.runsOncePerProcess`): the `init` of
    /// a type with one instance for the process's life (the app, its delegate, a singleton, a type built only as a static
    /// member's value or the app delegate's property), the delegate's launch callback, or a function every call of
    /// which comes, outside a loop, from such a function. What it registers or starts is set up once, for good.
    case runsOncePerProcess(FunctionKey)
    /// The member of a value of this type is an `@Published` property, and the type is one some SwiftUI view observes
    /// (`isObservedByViews`): writing it publishes a change the views receive.
    case publishesToViews(member: String, of: ValueType)
    /// The member of a value of this type holds a queue that is never the main one: its initial value makes one
    /// (`FrameworkQueues.makesOffMainQueue`: `DispatchQueue(label:)`, `DispatchQueue.global()`, `OperationQueue()`).
    case holdsOffMainQueue(member: String, of: ValueType)
    /// The member of a value of this type is initialized to the main queue (`FrameworkQueues.isMainQueue`).
    case holdsMainQueue(member: String, of: ValueType)
    /// Some call of the function from app code (following callers that run where their callers run, to
    /// `ProjectIndex.callDepth` calls) is made off the main thread as the facts prove it: on the concurrency pool, a
    /// detached task, another actor, a queue's or a private-queue context's closure (`ProjectIndex.someAppCallerRunsOffMainThread`).
    /// A completion handler's or a notification's thread is not counted: who calls those is not known.
    case someAppCallerRunsOffMainThread(FunctionKey)
    /// `NSManagedObjectContext` has a method of this name, declared in the project, whose whole body is one
    /// `perform`/`performAndWait` on the context (`FunctionSummary.runsOnOwnContextQueue`): callable from any thread.
    case contextMethodRunsOnOwnQueue(String)
    /// Code inside closures passed to calls (innermost first, `CallFact.closureArguments`) runs in the `perform` of the
    /// context named `context` itself: the first of them the index can follow is a project wrapper that calls the
    /// closure only inside `perform` of its receiver (`document.context.performAndReturn { }`), or of its type's
    /// property of that name (`perform { _ in ... }` running `backgroundContext.perform`).
    case closureRunsOnOwnQueue([ClosureArgument], context: String)
    /// Every app call of the function passes, for this parameter, a context on this queue (`.mainActor`: the view
    /// context; `.privateQueue`: a background one), following a parameter passed on (`ProjectIndex.queue(ofParameter:)`).
    case parameterHoldsContext(ContextParameter, on: ExecutionContext)
    /// The type is declared in the project (not only extended) and is neither a SwiftData `@Model` nor an
    /// `NSManagedObject` subclass: building it with a context (`Cache(context: background)`) hands the context over,
    /// where a managed object's `init(context:)` inserts into it. A type the project does not declare (a class Core
    /// Data generates from the model) is not.
    case isDeclaredOtherThanPersistentModel(String)
    /// Some project function of this name returns a stream it finishes (`FunctionSummary.returnsFinishedStream`).
    case returnsFinishedStream(String)
    /// Every assignment of the property (a `private` setter's, of the type) is made before the selector handler can
    /// run: in `init`, or above the handler's registration in the function that registers it
    /// (`ProjectIndex.isSetOnlyBeforeRegistration`).
    case setOnlyBeforeRegistration(String, ofType: String, handler: HandlerRegistration)
    case all([IndexCondition])
    case any([IndexCondition])
    case not(IndexCondition)
}
