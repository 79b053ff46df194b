/// Where callbacks that are not a call's own runner run: notification observers, completion handlers,
/// main-queue contexts, a container's background tasks. Part of the reviewed framework table (see
/// `FrameworkCalls`), each entry citing Apple's documentation. Plain data: no syntax.

/// One fact about a callback convention and its source.
public struct CallbackFact: Codable, Sendable, Hashable {
    public let symbol: String
    public let fact: String
    public let documentation: String
}

public enum FrameworkCallbacks {
    private static let foundation = "https://developer.apple.com/documentation/foundation/"
    private static let coreData = "https://developer.apple.com/documentation/coredata/"

    /// `addObserver(forName:object:queue:using:)`: the block runs on `queue`; with a nil queue, "the block runs
    /// synchronously on the posting thread".
    public static let notificationObserver = CallbackFact(
        symbol: "NotificationCenter.addObserver(forName:object:queue:using:)",
        fact: "the block runs on the given operation queue; with a nil queue, synchronously on the thread that posts",
        documentation: foundation + "notificationcenter/addobserver(forname:object:queue:using:)")
    public static let observerMethod = "addObserver"
    public static let observerNameLabel = "forName"
    public static let observerQueueLabel = "queue"

    /// Whether an observer block registered with `queue:` written as `queueText` ("nil" when absent) runs on
    /// the main queue: `.main`, `OperationQueue.main`. Any other queue, or nil, is the poster's thread or
    /// a queue of the app's own.
    public static func observerRunsOnMain(queueText: String) -> Bool {
        queueText.contains("main")
    }

    /// Completion handlers: a closure passed under one of these labels runs when the API finishes, on a
    /// queue the API chooses (URLSession: its delegate queue; CloudKit: a background serial queue).
    public static let completionHandler = CallbackFact(
        symbol: "URLSession.dataTask(with:completionHandler:)",
        fact: "the completion handler runs on the session's delegate queue, a background serial queue unless the session was given one",
        documentation: foundation + "urlsession/datatask(with:completionhandler:)")
    public static let completionHandlerLabels: Set<String> = ["completionHandler", "completion", "withCompletionHandler", "completionBlock"]
    /// Methods whose trailing closure is their completion handler, by the end of their name
    /// (`requestAuthorizationWithCompletionHandler`).
    public static let completionHandlerMethodSuffix = "CompletionHandler"

    /// Main-queue contexts: `NSPersistentContainer.viewContext` ("associated with the main queue") and
    /// `ModelContainer.mainContext` (bound to the main actor). `perform` on them runs on the main queue.
    public static let mainQueueContexts: [CallbackFact] = [
        CallbackFact(symbol: "NSPersistentContainer.viewContext", fact: "a context associated with the main queue",
                     documentation: coreData + "nspersistentcontainer/viewcontext"),
        CallbackFact(symbol: "ModelContainer.mainContext", fact: "a context bound to the main actor",
                     documentation: "https://developer.apple.com/documentation/swiftdata/modelcontainer/maincontext"),
    ]
    public static let mainQueueContextNames = ["viewContext", "mainContext"]

    /// What may be called on a context from any thread: `perform(_:)` and `performAndWait(_:)`, which run
    /// their block on the context's own queue ("the only methods you may call from another thread").
    public static let anyThreadContextMethods = CallbackFact(
        symbol: "NSManagedObjectContext.perform(_:)",
        fact: "perform and performAndWait run the block on the context's queue; every other use belongs on that queue",
        documentation: "https://developer.apple.com/documentation/coredata/using-core-data-in-the-background")
    public static let anyThreadContextMethodNames: Set<String> = ["perform", "performAndWait"]

    /// The Core Data context's class, whose extensions' methods are asked whether they run on its queue.
    public static let contextTypeName = "NSManagedObjectContext"

    /// Whether a context written as `receiver` is a main-queue one: its name ends with a main context's name.
    public static func isMainQueueContext(_ receiver: String) -> Bool {
        mainQueueContextNames.contains { receiver.hasSuffix($0) }
    }

    /// `performBackgroundTask(_:)`: the block runs on a new private-queue context's queue.
    public static let backgroundTask = CallbackFact(
        symbol: "NSPersistentContainer.performBackgroundTask(_:)",
        fact: "the block gets a new private-queue context and runs on that context's queue",
        documentation: coreData + "nspersistentcontainer/performbackgroundtask(_:)")

    /// `loadPersistentStores(completionHandler:)`: called once per store, with the error that stopped it
    /// from loading; a crash there is a crash at launch.
    public static let loadPersistentStores = CallbackFact(
        symbol: "NSPersistentContainer.loadPersistentStores(completionHandler:)",
        fact: "the handler is called once for each store, with the error if the store could not be loaded",
        documentation: coreData + "nspersistentcontainer/loadpersistentstores(completionhandler:)")
    public static let loadPersistentStoresMethod = "loadPersistentStores"

    /// Calls that delete a store's files, so that a container made after them starts from an empty store: a retry
    /// after one cannot fail the way the first attempt did (a migration, a damaged file).
    /// `FileManager.removeItem(at:)` ("removes the file or directory at the specified URL") and
    /// `NSPersistentStoreCoordinator.destroyPersistentStore(at:type:options:)` ("deletes the persistent store at the
    /// location you specify").
    public static let storeRemovalMethods: Set<String> = ["removeItem", "destroyPersistentStore"]
}
