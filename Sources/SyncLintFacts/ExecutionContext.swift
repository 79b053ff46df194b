/// Where a piece of code runs, as the code around it says. Plain data: facts and pending findings carry it,
/// and the project index answers the cases that depend on other files (a type's isolation, a function's callers).
public enum ExecutionContext: Sendable, Hashable, Codable {
    /// The main actor: a `@MainActor` function or type, a SwiftUI view, `MainActor.run`, `DispatchQueue.main`,
    /// `Task { @MainActor in }`, a view context's `perform`.
    case mainActor
    /// An actor's own executor.
    case actor
    /// The global concurrent executor or a global queue: `DispatchQueue.global().async`, `concurrentPerform`,
    /// a task-group child, a nonisolated `async` function.
    case concurrent
    /// A serial queue of the app's own (`queue.async { }`).
    case serialQueue
    /// A private-queue context's `perform` / `performAndWait`.
    case privateQueue
    /// `Task.detached { }`.
    case detachedTask
    /// A closure registered for a notification with no main queue: it runs on the poster's thread.
    case notificationHandler(String)
    /// A closure handed to an API as its completion handler: the API's own queue.
    case completionHandler
    /// Isolated as the type is, known once the index has every declaration of it; where the type is not
    /// isolated, an async method runs on the concurrent executor and a synchronous one where its callers run.
    case typeIsolation(String, isAsync: Bool)
    /// No isolation of its own: a synchronous nonisolated function runs where its callers run.
    case callers
    /// A free function with no isolation written (no `nonisolated`, `@concurrent` or global actor): its module's
    /// default isolation decides (Swift 6.2's `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`,
    /// `.defaultIsolation(MainActor.self)`), known once the index has the file's target. In a module with no
    /// default, an async function runs on the concurrent executor and a synchronous one where its callers run.
    case moduleDefault(file: String, isAsync: Bool)

    /// Certainly not the main thread.
    public var isOffMain: Bool {
        switch self {
        case .concurrent, .serialQueue, .privateQueue, .detachedTask, .completionHandler, .actor: return true
        default: return false
        }
    }
}
