/// The framework types whose `wait()` blocks the calling thread until another thread signals it. Part of the
/// reviewed framework table (see `FrameworkCalls`), each entry citing Apple's documentation. Plain data: no
/// syntax. A `wait()` is a blocking wait only on one of these: an app's own `wait()` (a UI test's helper that
/// waits for an element, an async method) is something else, so the type decides, never the method's name.
public struct BlockingWaitType: Codable, Sendable, Hashable {
    /// The type as a call site's receiver resolves to it.
    public let typeName: String
    /// What its `wait()` does, in Apple's words.
    public let behaviour: String
    public let documentation: String
}

public enum FrameworkBlockingWaits {
    private static let dispatch = "https://developer.apple.com/documentation/dispatch/"
    private static let foundation = "https://developer.apple.com/documentation/foundation/"

    public static let types: [BlockingWaitType] = [
        BlockingWaitType(typeName: "DispatchSemaphore",
                         behaviour: "\"Waits for, or decrements, a semaphore\"; with no timeout it waits forever",
                         documentation: dispatch + "dispatchsemaphore/wait()"),
        BlockingWaitType(typeName: "DispatchGroup",
                         behaviour: "\"Waits synchronously for the previously submitted work to finish\"",
                         documentation: dispatch + "dispatchgroup/wait()"),
        BlockingWaitType(typeName: "DispatchWorkItem",
                         behaviour: "\"Causes the caller to wait synchronously until the dispatch work item finishes executing\"",
                         documentation: dispatch + "dispatchworkitem/wait()"),
        BlockingWaitType(typeName: "NSCondition",
                         behaviour: "\"Blocks the current thread until the condition is signaled\"",
                         documentation: foundation + "nscondition/wait()"),
    ]

    /// Whether `typeName` (a resolved receiver type) is one whose `wait()` blocks its thread.
    public static func blocks(_ typeName: String) -> Bool {
        types.contains { $0.typeName == typeName }
    }
}
