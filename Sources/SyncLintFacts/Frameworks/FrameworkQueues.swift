/// Which queues are never the main one, and which dispatch calls run their closure on the queue's own thread after
/// they return. Part of the reviewed framework table (see `FrameworkCalls`), each entry citing Apple's documentation.
/// Plain data: no syntax.
public enum FrameworkQueues {
    private static let dispatch = "https://developer.apple.com/documentation/dispatch/dispatchqueue/"
    private static let foundation = "https://developer.apple.com/documentation/foundation/"

    /// How a queue is made when it can never be the main queue: a queue made with a label is a new queue (serial
    /// unless `.concurrent`, its work on the threads of a global queue it targets); a global queue is the pool of
    /// worker threads ("the system-defined global concurrent queues"); `OperationQueue()` runs its operations on
    /// secondary threads ("Operation queues usually provide the threads used to run their operations").
    public static let offMainQueueMakers: [CallbackFact] = [
        CallbackFact(symbol: "DispatchQueue.init(label:qos:attributes:autoreleaseFrequency:target:)",
                     fact: "creates a new dispatch queue, not the main queue",
                     documentation: dispatch + "init(label:qos:attributes:autoreleasefrequency:target:)"),
        CallbackFact(symbol: "DispatchQueue.global(qos:)", fact: "a global concurrent queue, whose work runs on the pool of worker threads",
                     documentation: dispatch + "global(qos:)"),
        CallbackFact(symbol: "OperationQueue.init()", fact: "a new operation queue; its operations run on secondary threads",
                     documentation: foundation + "operationqueue"),
    ]
    /// The initializer expressions of `offMainQueueMakers`, as written at the start of a property's initial value or a
    /// call's receiver.
    public static let offMainQueueMakerPrefixes = ["DispatchQueue(label", "DispatchQueue.global(", "OperationQueue()", ".global("]

    /// The main queue, however a property's initial value spells it.
    public static let mainQueueValues = ["DispatchQueue.main", ".main", "OperationQueue.main", "RunLoop.main"]

    /// Dispatch calls that return at once and run their closure later on the queue (`async`: "Schedules a block
    /// asynchronously for execution"; `addOperation(_:)`). `sync`, `asyncAndWait` and `concurrentPerform` are not
    /// among them: they wait, and the system may run the closure on the caller's own thread ("As a performance
    /// optimization, this function executes blocks on the current thread whenever possible").
    public static let asynchronousDispatch: [CallbackFact] = [
        CallbackFact(symbol: "DispatchQueue.async(group:qos:flags:execute:)", fact: "runs the block later, on the queue",
                     documentation: dispatch + "async(group:qos:flags:execute:)"),
        CallbackFact(symbol: "DispatchQueue.asyncAfter(deadline:qos:flags:execute:)", fact: "runs the block after the deadline, on the queue",
                     documentation: dispatch + "asyncafter(deadline:qos:flags:execute:)"),
        CallbackFact(symbol: "OperationQueue.addOperation(_:)", fact: "runs the block as an operation of the queue, on its threads",
                     documentation: foundation + "operationqueue/addoperation(_:)-4kjqs"),
    ]
    public static let asynchronousDispatchMethods: Set<String> = ["async", "asyncAfter", "addOperation"]

    /// `NSPersistentContainer.performBackgroundTask(_:)`: the block runs on a new private-queue context's queue
    /// (`FrameworkCallbacks.backgroundTask`).
    public static let backgroundTaskMethod = "performBackgroundTask"

    /// `URLSession`'s completion handlers run on the session's delegate queue: "This handler is executed on the delegate
    /// queue" (`dataTask(with:completionHandler:)`). The shared session and a session made without a queue have one the
    /// session makes, never the main queue: "If nil, the session creates a serial operation queue for performing all
    /// delegate method calls and completion handler calls" (`init(configuration:delegate:delegateQueue:)`); the shared
    /// session "doesn't have a delegate", and its handlers run on a queue of its own, like such a session's.
    public static let urlSessionCompletions: [CallbackFact] = [
        CallbackFact(symbol: "URLSession.dataTask(with:completionHandler:)", fact: "the completion handler runs on the session's delegate queue",
                     documentation: foundation + "urlsession/datatask(with:completionhandler:)-52wk8"),
        CallbackFact(symbol: "URLSession.downloadTask(with:completionHandler:)", fact: "the completion handler runs on the session's delegate queue",
                     documentation: foundation + "urlsession/downloadtask(with:completionhandler:)-5rurv"),
        CallbackFact(symbol: "URLSession.uploadTask(with:from:completionHandler:)", fact: "the completion handler runs on the session's delegate queue",
                     documentation: foundation + "urlsession/uploadtask(with:from:completionhandler:)"),
        CallbackFact(symbol: "URLSession.init(configuration:delegate:delegateQueue:)",
                     fact: "with a nil queue, the session creates a serial operation queue for delegate calls and completion handlers",
                     documentation: foundation + "urlsession/init(configuration:delegate:delegatequeue:)"),
        CallbackFact(symbol: "URLSession.shared", fact: "the shared session has no delegate; its completion handlers run on a queue of its own",
                     documentation: foundation + "urlsession/shared"),
    ]
    public static let urlSessionTaskMethods: Set<String> = ["dataTask", "downloadTask", "uploadTask"]
    /// The receivers, as written, whose delegate queue the session makes: the shared session; a session made with only a
    /// configuration (`URLSession(configuration:)`), or with `delegateQueue: nil`, is checked on the call's arguments.
    public static let sharedSession = "URLSession.shared"
    public static let sessionType = "URLSession"
    public static let sessionQueueLabel = "delegateQueue"

    /// Whether a queue made by `initializer` (a property's initial value, a call's receiver) is never the main queue.
    public static func makesOffMainQueue(_ initializer: String) -> Bool {
        offMainQueueMakerPrefixes.contains { initializer.hasPrefix($0) }
    }

    /// Whether `value` is the main queue.
    public static func isMainQueue(_ value: String) -> Bool {
        mainQueueValues.contains(value)
    }
}
