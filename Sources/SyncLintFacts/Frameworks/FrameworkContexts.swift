/// What SwiftData's and Core Data's contexts do with pending changes, saves and their queues: the facts
/// `save_failure_without_rollback` and `post_before_perform_completes` decide from. Part of the reviewed
/// framework table (see `FrameworkCalls`), each entry citing Apple's documentation. Plain data: no syntax.
public enum FrameworkContexts {
    private static let coreData = "https://developer.apple.com/documentation/coredata/"
    private static let swiftData = "https://developer.apple.com/documentation/swiftdata/"

    /// Saving: a failed save leaves every pending change in the context ("If the save fails, the context's
    /// changes remain"), so the next save tries them again.
    public static let save: [CallbackFact] = [
        CallbackFact(symbol: "NSManagedObjectContext.save()", fact: "commits unsaved changes; on failure the changes stay pending",
                     documentation: coreData + "nsmanagedobjectcontext/save()"),
        CallbackFact(symbol: "ModelContext.save()", fact: "persists pending inserts, changes and deletes; on failure they stay pending",
                     documentation: swiftData + "modelcontext/save()"),
    ]
    public static let saveMethod = "save"

    /// What discards the pending changes after a failed save: `rollback()` (both frameworks) and Core Data's
    /// `reset()`, which also forgets every registered object.
    public static let discardsPendingChanges: [CallbackFact] = [
        CallbackFact(symbol: "NSManagedObjectContext.rollback()", fact: "removes everything from the undo stack and discards all insertions, deletions and changes",
                     documentation: coreData + "nsmanagedobjectcontext/rollback()"),
        CallbackFact(symbol: "NSManagedObjectContext.reset()", fact: "returns the context to its base state, forgetting all registered objects",
                     documentation: coreData + "nsmanagedobjectcontext/reset()"),
        CallbackFact(symbol: "ModelContext.rollback()", fact: "discards pending inserts, changes and deletes",
                     documentation: swiftData + "modelcontext/rollback()"),
    ]
    public static let discardingMethods: Set<String> = ["rollback", "reset"]

    /// What makes a change pending: SwiftData's `insert(_:)`, and a managed object made in a context with
    /// `init(context:)`.
    public static let insertsChange: [CallbackFact] = [
        CallbackFact(symbol: "ModelContext.insert(_:)", fact: "registers the model for insertion at the next save",
                     documentation: swiftData + "modelcontext/insert(_:)"),
        CallbackFact(symbol: "NSManagedObject.init(context:)", fact: "inserts the new object into the context",
                     documentation: coreData + "nsmanagedobject/init(context:)"),
    ]
    public static let insertMethod = "insert"
    public static let managedObjectContextLabel = "context"

    /// Contexts made for one job, which the app drops after it (a failed save there is never retried): a new
    /// private-queue context, the context `performBackgroundTask` hands its block, a `ModelContext` made on a
    /// container, an `NSManagedObjectContext` made with a concurrency type.
    public static let shortLivedContexts: [CallbackFact] = [
        CallbackFact(symbol: "NSPersistentContainer.newBackgroundContext()", fact: "creates a new private-queue context on each call",
                     documentation: coreData + "nspersistentcontainer/newbackgroundcontext()"),
        FrameworkCallbacks.backgroundTask,
        CallbackFact(symbol: "ModelContext.init(_:)", fact: "creates a new context for the container",
                     documentation: swiftData + "modelcontext/init(_:)"),
        CallbackFact(symbol: "NSManagedObjectContext.init(concurrencyType:)", fact: "creates a new context of the given concurrency type",
                     documentation: coreData + "nsmanagedobjectcontext/init(concurrencytype:)"),
    ]
    /// How those are written: the call that makes one (`container.newBackgroundContext()`), the initializers
    /// (`ModelContext(container)`), and the method whose block parameter is one.
    public static let shortLivedContextCall = "newBackgroundContext()"
    public static let shortLivedContextInitializers = ["ModelContext(", "NSManagedObjectContext("]
    public static let shortLivedContextBlockMethod = "performBackgroundTask"

    /// `perform(_:)` only enqueues its block on the context's queue and returns at once; `performAndWait(_:)`
    /// and the `async` `perform` wait for it.
    public static let performEnqueues = CallbackFact(
        symbol: "NSManagedObjectContext.perform(_:)", fact: "asynchronously performs the block on the context's queue and returns at once",
        documentation: coreData + "nsmanagedobjectcontext/perform(_:)")
    public static let performMethod = "perform"

    /// A notification post delivers at once, to observers on the posting thread: posted after an enqueued
    /// block, it runs before the block's changes exist.
    public static let notificationPost = CallbackFact(
        symbol: "NotificationCenter.post(name:object:userInfo:)", fact: "creates a notification and posts it to observers synchronously",
        documentation: "https://developer.apple.com/documentation/foundation/notificationcenter/post(name:object:userinfo:)")
    public static let notificationPostMethod = "post"
    public static let notificationPostNameLabel = "name"

    /// Names the app's own completion handlers take by Apple's convention (`completionHandler`, `completion`)
    /// and their common variants: calling one after an enqueued block reports completion before the work.
    public static let completionParameterNames: Set<String> = ["completion", "completionHandler", "handler", "done", "onComplete", "onCompletion"]
}
