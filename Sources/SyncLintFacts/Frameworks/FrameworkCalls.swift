/// What the framework calls SyncLint reasons about do: whether they suspend, which cancellation error they
/// throw, where the closure they take runs, and whether it runs as a task that someone cancels. One reviewed
/// table (`FrameworkCalls.entries`), each entry citing Apple's documentation; the walker and the facts ask it
/// instead of keeping their own lists of names. Plain data: no syntax, so a cache or a server can keep it.
///
/// Swift data rather than a JSON resource: the compiler checks every entry's shape, lookups need no bundle
/// at run time (the CLI ships as one binary), and a review reads the entries next to the types they use.

/// How a call's receiver must be written for an entry to apply. Matched on text the walker already has
/// (the receiver as written, and the callee as written: `Task.detached`), never on types.
public enum ReceiverPattern: Codable, Sendable, Hashable {
    /// The whole callee is this (`Task`, `Task.detached`, `MainActor.run`).
    case callee(String)
    /// Any receiver, or none.
    case any
    /// An instance, or an implicit `self` (a view modifier): the receiver is not a type name.
    case notATypeName
    /// Some receiver is written (`context.perform`), not a bare call.
    case written
    /// The receiver is exactly this (`OperationQueue.main`).
    case exactly(String)
    /// The receiver starts with this (`DispatchQueue.main`, `DispatchQueue.global`).
    case prefix(String)
    /// The receiver's name ends with this, case aside (`backgroundQueue`, `syncQueue`).
    case nameEndsWith(String)
    /// The receiver's name contains this, case aside (`URLSession.shared`, `session`).
    case nameContains(String)

    /// Whether `receiver` (as written, "" for none) and `callee` (the called expression as written) match.
    public func matches(receiver: String, callee: String) -> Bool {
        switch self {
        case .callee(let name): return callee == name
        case .any: return true
        case .notATypeName: return !Self.isTypeName(receiver)
        case .written: return !receiver.isEmpty
        case .exactly(let text): return receiver == text
        case .prefix(let text): return receiver.hasPrefix(text)
        case .nameEndsWith(let text): return receiver.lowercased().hasSuffix(text)
        case .nameContains(let text): return receiver.lowercased().contains(text)
        }
    }

    /// `Foo`, `Foo.Bar`: starts uppercase and is only a dotted name (as `SyntaxFacts.isTypeName` judges one).
    static func isTypeName(_ text: String) -> Bool {
        guard let first = text.first, first.isUppercase else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    }
}

/// Who runs a closure an API takes, and so where it runs, how long it lives and who cancels it.
public enum ClosureRunner: String, Codable, Sendable, CaseIterable {
    /// `Task { }`: an unstructured task that inherits the caller's actor; cancelled only through its handle.
    case unstructuredTask
    /// `Task.detached { }`: an unstructured task on the concurrency pool, isolated to no actor.
    case detachedTask
    /// A child task of a task group: on the concurrency pool, cancelled with the task that runs the group.
    case taskGroupChild
    /// `MainActor.run { }`: on the main actor, awaited by the caller.
    case mainActorRun
    /// SwiftUI's `.task { }` / `.task(id:) { }`: a task on the main actor (a `View` is), cancelled by SwiftUI.
    case viewTask
    /// SwiftUI's `.onAppear { }`: synchronous, on the main actor, no task.
    case onAppear
    /// SwiftUI's `.onDisappear { }`: synchronous, on the main actor, no task.
    case onDisappear
    /// The main dispatch queue or the main operation queue: the main thread.
    case mainQueue
    /// A global (concurrent) dispatch queue, or `concurrentPerform`: the pool of worker threads.
    case concurrentQueue
    /// Another queue's `async`/`sync`: a queue of the app's own, serial unless it says otherwise.
    case otherQueue
    /// `perform { }` on a managed object or model context: the context's own queue (the main queue for a
    /// main-queue context such as `viewContext` or `mainContext`, a private queue otherwise).
    case contextPerform
    /// `performAndWait { }`: as `perform`, and the caller waits.
    case contextPerformAndWait
}

/// The error a call throws when the task that awaits it is cancelled.
public enum CancellationSignal: String, Codable, Sendable {
    /// `CancellationError()`: `Task.sleep`, `Task.checkCancellation()`.
    case cancellationError
    /// `URLError(.cancelled)`: `URLSession`'s async transfers report cancellation as their own error.
    case urlErrorCancelled

    /// The type a `catch` pattern names to handle it, and the member it tests, if any.
    public var caughtAs: (type: String, member: String?) {
        switch self {
        case .cancellationError: return ("CancellationError", nil)
        case .urlErrorCancelled: return ("URLError", "cancelled")
        }
    }
}

/// When SwiftUI (or the concurrency runtime) cancels the task a closure runs in.
public enum TaskCancellation: String, Codable, Sendable {
    /// SwiftUI cancels it when the view disappears (`.task`), or when the id changes (`.task(id:)`), or when
    /// the refresh ends (`.refreshable`).
    case bySwiftUI
    /// With the task that runs its group (a child task).
    case withParent
    /// Only through its handle: nobody cancels a `Task { }` whose handle nobody keeps.
    case throughHandle
    /// Not a task: the closure runs synchronously and there is nothing to cancel.
    case notATask
}

/// One API SyncLint reasons about, and what it does.
public struct FrameworkCall: Codable, Sendable, Hashable {
    /// How the API is written in Apple's documentation: `Task.sleep(for:tolerance:clock:)`.
    public let symbol: String
    /// The method or type name a call site ends with: `sleep`, `Task`, `perform`.
    public let method: String
    public let receiver: ReceiverPattern
    /// Awaiting it can suspend the caller.
    public let suspends: Bool
    /// What it throws when the awaiting task is cancelled, if it reports cancellation at all.
    public let throwsOnCancellation: CancellationSignal?
    /// Who runs the closure it takes (its trailing closure), if it takes one that matters.
    public let runsClosure: ClosureRunner?
    /// When the task its closure runs in is cancelled (nil when it takes no closure SyncLint follows).
    public let cancellation: TaskCancellation?
    /// An argument label the call must have for this entry (`id` for `.task(id:)`); nil: any call.
    public let argumentLabel: String?
    /// It adds a timer to the current thread's run loop, which only the main thread runs by itself: on a queue's
    /// thread or the concurrency pool the timer never fires.
    public let schedulesOnCurrentRunLoop: Bool
    /// It never throws because the awaiting task is cancelled: it throws only what its closure throws or resumes
    /// with (a continuation, which "does not observe cancellation" unless wrapped in `withTaskCancellationHandler`;
    /// a context's `perform`; `MainActor.run`). A `try` of it reports no cancellation of its own.
    public let throwsOnlyClosureErrors: Bool
    /// Apple's documentation of the API (developer.apple.com).
    public let documentation: String

    public init(_ symbol: String, method: String, receiver: ReceiverPattern = .any, argumentLabel: String? = nil, suspends: Bool = false,
                throwsOnCancellation: CancellationSignal? = nil, runsClosure: ClosureRunner? = nil,
                cancellation: TaskCancellation? = nil, schedulesOnCurrentRunLoop: Bool = false, throwsOnlyClosureErrors: Bool = false,
                documentation: String) {
        self.symbol = symbol
        self.method = method
        self.receiver = receiver
        self.argumentLabel = argumentLabel
        self.suspends = suspends
        self.throwsOnCancellation = throwsOnCancellation
        self.runsClosure = runsClosure
        self.cancellation = cancellation
        self.schedulesOnCurrentRunLoop = schedulesOnCurrentRunLoop
        self.throwsOnlyClosureErrors = throwsOnlyClosureErrors
        self.documentation = documentation
    }
}

public enum FrameworkCalls {
    private static let swift = "https://developer.apple.com/documentation/swift/"
    private static let swiftUI = "https://developer.apple.com/documentation/swiftui/view/"
    private static let dispatch = "https://developer.apple.com/documentation/dispatch/dispatchqueue/"
    private static let foundation = "https://developer.apple.com/documentation/foundation/"
    private static let coreData = "https://developer.apple.com/documentation/coredata/"

    /// The table. Where several entries share a method name, the first whose receiver matches wins, so
    /// the narrower receivers come first.
    public static let entries: [FrameworkCall] = [
        // Structured and unstructured tasks.
        FrameworkCall("Task.init(priority:operation:)", method: "Task", receiver: .callee("Task"),
                      runsClosure: .unstructuredTask, cancellation: .throughHandle,
                      documentation: swift + "task/init(priority:operation:)"),
        FrameworkCall("Task.detached(priority:operation:)", method: "detached", receiver: .callee("Task.detached"),
                      runsClosure: .detachedTask, cancellation: .throughHandle,
                      documentation: swift + "task/detached(priority:operation:)"),
        FrameworkCall("TaskGroup.addTask(priority:operation:)", method: "addTask",
                      runsClosure: .taskGroupChild, cancellation: .withParent,
                      documentation: swift + "taskgroup/addtask(priority:operation:)"),
        FrameworkCall("TaskGroup.addTaskUnlessCancelled(priority:operation:)", method: "addTaskUnlessCancelled",
                      runsClosure: .taskGroupChild, cancellation: .withParent,
                      documentation: swift + "taskgroup/addtaskunlesscancelled(priority:operation:)"),
        FrameworkCall("MainActor.run(resultType:body:)", method: "run", receiver: .callee("MainActor.run"), suspends: true,
                      runsClosure: .mainActorRun, cancellation: .notATask, throwsOnlyClosureErrors: true,
                      documentation: swift + "mainactor/run(resulttype:body:)"),
        FrameworkCall("Task.sleep(for:tolerance:clock:)", method: "sleep", receiver: .callee("Task.sleep"), suspends: true,
                      throwsOnCancellation: .cancellationError,
                      documentation: swift + "task/sleep(for:tolerance:clock:)"),
        FrameworkCall("Task.checkCancellation()", method: "checkCancellation", receiver: .callee("Task.checkCancellation"),
                      throwsOnCancellation: .cancellationError,
                      documentation: swift + "task/checkcancellation()"),
        FrameworkCall("Task.yield()", method: "yield", receiver: .callee("Task.yield"), suspends: true,
                      documentation: swift + "task/yield()"),
        // Continuations: the closure runs at once and the call returns what it resumes with. A continuation does not
        // observe its task's cancellation ("If the task is canceled, ... use withTaskCancellationHandler" to react:
        // https://developer.apple.com/documentation/swift/withtaskcancellationhandler(operation:oncancel:isolation:)),
        // so its error is whatever the wrapped callback API reported, never the awaiting task's cancellation.
        FrameworkCall("withCheckedThrowingContinuation(isolation:function:_:)", method: "withCheckedThrowingContinuation",
                      receiver: .callee("withCheckedThrowingContinuation"), suspends: true, throwsOnlyClosureErrors: true,
                      documentation: swift + "withcheckedthrowingcontinuation(isolation:function:_:)"),
        FrameworkCall("withUnsafeThrowingContinuation(isolation:_:)", method: "withUnsafeThrowingContinuation",
                      receiver: .callee("withUnsafeThrowingContinuation"), suspends: true, throwsOnlyClosureErrors: true,
                      documentation: swift + "withunsafethrowingcontinuation(isolation:_:)"),

        // SwiftUI modifiers that run closures.
        // Cancelled when the view disappears, and (with `id:`) when the id changes; then started again.
        FrameworkCall("View.task(id:priority:_:)", method: "task", receiver: .notATypeName, argumentLabel: "id",
                      runsClosure: .viewTask, cancellation: .bySwiftUI,
                      documentation: swiftUI + "task(id:priority:_:)"),
        FrameworkCall("View.task(priority:_:)", method: "task", receiver: .notATypeName,
                      runsClosure: .viewTask, cancellation: .bySwiftUI,
                      documentation: swiftUI + "task(priority:_:)"),
        // `refreshable`'s action runs as an async closure SwiftUI awaits and cancels; the walker leaves the
        // closure where its surroundings run (the view, on the main actor), as before.
        FrameworkCall("View.refreshable(action:)", method: "refreshable", receiver: .notATypeName,
                      cancellation: .bySwiftUI,
                      documentation: swiftUI + "refreshable(action:)"),
        FrameworkCall("View.onAppear(perform:)", method: "onAppear",
                      runsClosure: .onAppear, cancellation: .notATask,
                      documentation: swiftUI + "onappear(perform:)"),
        FrameworkCall("View.onDisappear(perform:)", method: "onDisappear",
                      runsClosure: .onDisappear, cancellation: .notATask,
                      documentation: swiftUI + "ondisappear(perform:)"),
        FrameworkCall("View.onChange(of:initial:_:)", method: "onChange", receiver: .notATypeName,
                      cancellation: .notATask,
                      documentation: swiftUI + "onchange(of:initial:_:)"),

        // Dispatch and operation queues.
        FrameworkCall("DispatchQueue.concurrentPerform(iterations:execute:)", method: "concurrentPerform",
                      runsClosure: .concurrentQueue, cancellation: .notATask,
                      documentation: dispatch + "concurrentperform(iterations:execute:)"),
        FrameworkCall("OperationQueue.main.addOperation(_:)", method: "addOperation", receiver: .exactly("OperationQueue.main"),
                      runsClosure: .mainQueue, cancellation: .notATask,
                      documentation: foundation + "operationqueue/main"),
        FrameworkCall("OperationQueue.addOperation(_:)", method: "addOperation",
                      runsClosure: .otherQueue, cancellation: .notATask,
                      documentation: foundation + "operationqueue"),
    ] + dispatchEntries(method: "async", symbol: "async(group:qos:flags:execute:)")
      + dispatchEntries(method: "asyncAfter", symbol: "asyncafter(deadline:qos:flags:execute:)")
      + dispatchEntries(method: "sync", symbol: "sync(execute:)")
      + dispatchEntries(method: "asyncAndWait", symbol: "asyncandwait(execute:)") + [

        // Core Data and SwiftData contexts.
        FrameworkCall("NSManagedObjectContext.perform(_:)", method: "perform", receiver: .written,
                      runsClosure: .contextPerform, cancellation: .notATask, throwsOnlyClosureErrors: true,
                      documentation: coreData + "nsmanagedobjectcontext/perform(_:)"),
        FrameworkCall("NSManagedObjectContext.performAndWait(_:)", method: "performAndWait", receiver: .written,
                      runsClosure: .contextPerformAndWait, cancellation: .notATask, throwsOnlyClosureErrors: true,
                      documentation: coreData + "nsmanagedobjectcontext/performandwait(_:)"),

        // URLSession's async transfers: cancelling the awaiting task cancels the transfer, which throws
        // `URLError(.cancelled)`, not `CancellationError`.
        FrameworkCall("URLSession.data(from:delegate:)", method: "data", receiver: .nameContains("session"), suspends: true,
                      throwsOnCancellation: .urlErrorCancelled,
                      documentation: foundation + "urlsession/data(from:delegate:)"),
        FrameworkCall("URLSession.download(from:delegate:)", method: "download", receiver: .nameContains("session"), suspends: true,
                      throwsOnCancellation: .urlErrorCancelled,
                      documentation: foundation + "urlsession/download(from:delegate:)"),
        FrameworkCall("URLSession.upload(for:from:delegate:)", method: "upload", receiver: .nameContains("session"), suspends: true,
                      throwsOnCancellation: .urlErrorCancelled,
                      documentation: foundation + "urlsession/upload(for:from:delegate:)"),
        FrameworkCall("URLSession.bytes(from:delegate:)", method: "bytes", receiver: .nameContains("session"), suspends: true,
                      throwsOnCancellation: .urlErrorCancelled,
                      documentation: foundation + "urlsession/bytes(from:delegate:)"),

        // Run-loop timers: "schedules it on the current run loop in the default mode"; a run loop runs only when
        // its thread runs it, which the main thread does by itself and a queue's or the pool's threads never do.
        FrameworkCall("Timer.scheduledTimer(withTimeInterval:repeats:block:)", method: "scheduledTimer",
                      receiver: .callee("Timer.scheduledTimer"), schedulesOnCurrentRunLoop: true,
                      documentation: foundation + "timer/scheduledtimer(withtimeinterval:repeats:block:)"),
        FrameworkCall("RunLoop.add(_:forMode:)", method: "add", receiver: .exactly("RunLoop.current"), schedulesOnCurrentRunLoop: true,
                      documentation: foundation + "runloop/add(_:formode:)"),
    ]

    /// `DispatchQueue.main.x`, `OperationQueue.main.x`: the main thread; `DispatchQueue.global().x`: the pool;
    /// another `DispatchQueue` or a receiver named like a queue: a queue of the app's own.
    private static func dispatchEntries(method: String, symbol: String) -> [FrameworkCall] {
        [
            FrameworkCall("DispatchQueue.main." + symbol, method: method, receiver: .prefix("DispatchQueue.main"),
                          runsClosure: .mainQueue, cancellation: .notATask, documentation: dispatch + "main"),
            FrameworkCall("OperationQueue.main." + symbol, method: method, receiver: .exactly("OperationQueue.main"),
                          runsClosure: .mainQueue, cancellation: .notATask, documentation: foundation + "operationqueue/main"),
            FrameworkCall("DispatchQueue.global(qos:)." + symbol, method: method, receiver: .prefix("DispatchQueue.global"),
                          runsClosure: .concurrentQueue, cancellation: .notATask, documentation: dispatch + "global(qos:)"),
            FrameworkCall("DispatchQueue." + symbol, method: method, receiver: .prefix("DispatchQueue"),
                          runsClosure: .otherQueue, cancellation: .notATask, documentation: dispatch + symbol.lowercased()),
            FrameworkCall("a queue of the app's own." + symbol, method: method, receiver: .nameEndsWith("queue"),
                          runsClosure: .otherQueue, cancellation: .notATask, documentation: dispatch + symbol.lowercased()),
        ]
    }

    /// Entries by method name, in table order.
    static let byMethod: [String: [FrameworkCall]] = Dictionary(grouping: entries, by: \.method)

    /// Whether any entry is named `method`: a cheap test before building receiver text.
    public static func mentions(_ method: String) -> Bool { byMethod[method] != nil }

    /// The first entry for a call of `method` on `receiver` ("" for none), written as `callee`, with the
    /// argument `labels` when the caller has them (nil: entries that need a label are skipped; the entries
    /// a label tells apart run their closures alike).
    public static func lookup(method: String, receiver: String, callee: String, labels: [String]? = nil) -> FrameworkCall? {
        byMethod[method]?.first { entry in
            entry.receiver.matches(receiver: receiver, callee: callee)
                && (entry.argumentLabel.map { labels?.contains($0) ?? false } ?? true)
        }
    }

    /// Methods with an entry that needs the receiver's text to decide (every pattern but `.any` and `.callee`).
    static let methodsNeedingReceiver: Set<String> = Set(entries.filter {
        if case .callee = $0.receiver { return false }
        return $0.receiver != .any
    }.map(\.method))
    /// Methods with an entry that needs the callee as written (`Task.detached`).
    static let methodsNeedingCallee: Set<String> = Set(entries.filter {
        if case .callee = $0.receiver { return true }
        return false
    }.map(\.method))

    /// Whether deciding a call of `method` needs the receiver's text: build it only then.
    public static func needsReceiver(_ method: String) -> Bool { methodsNeedingReceiver.contains(method) }

    /// Whether deciding a call of `method` needs the callee as written: build it only then.
    public static func needsCallee(_ method: String) -> Bool { methodsNeedingCallee.contains(method) }

    /// Whether a call adds a timer to the current thread's run loop (`Timer.scheduledTimer`, `RunLoop.current.add`).
    /// `receiverText` and `calleeText` are asked only when an entry of that method needs them.
    public static func schedulesOnCurrentRunLoop(method: String, receiverText: () -> String, calleeText: () -> String) -> Bool {
        guard let candidates = byMethod[method], candidates.contains(where: \.schedulesOnCurrentRunLoop) else { return false }
        let entry = lookup(method: method, receiver: needsReceiver(method) ? receiverText() : "", callee: needsCallee(method) ? calleeText() : "")
        return entry?.schedulesOnCurrentRunLoop == true
    }

    /// Whether the closure of a call of `method` that the walker left unclassified (`.other(callee:)`) runs in a
    /// task SwiftUI cancels: `.refreshable`. (A `.task` closure is classified as a view task; a `Foo.task { }`
    /// that the table does not match stays unknown.)
    public static func swiftUICancels(closureOf method: String) -> Bool {
        byMethod[method]?.contains { $0.cancellation == .bySwiftUI && $0.runsClosure == nil } ?? false
    }
}
