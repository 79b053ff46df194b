/// Continuations and async streams: the functions that hand a closure a continuation, what ends one, and the
/// rule Apple states for each. Part of the reviewed framework table (see `FrameworkCalls`), each entry citing
/// Apple's documentation. Plain data: no syntax.
public struct ContinuationAPI: Codable, Sendable, Hashable {
    /// How the API is written in Apple's documentation.
    public let symbol: String
    /// The name a call site uses (`withCheckedContinuation`, `AsyncStream`).
    public let callee: String
    /// What its closure's parameter is, and the contract Apple gives for it.
    public let contract: String
    public let documentation: String
}

public enum FrameworkContinuations {
    private static let swift = "https://developer.apple.com/documentation/swift/"

    /// "You must call a resume method exactly once on every execution path throughout the program. Resuming
    /// from a continuation more than once is undefined behavior. Never resuming leaves the task in a suspended
    /// state indefinitely, and leaks any associated resources." (`CheckedContinuation`; the unsafe kind has the
    /// same contract without the checks, and a checked one traps when resumed twice.)
    public static let continuationFunctions: [ContinuationAPI] = [
        ContinuationAPI(symbol: "withCheckedContinuation(isolation:function:_:)", callee: "withCheckedContinuation",
                        contract: "resume exactly once on every path; a second resume traps",
                        documentation: swift + "withcheckedcontinuation(isolation:function:_:)"),
        ContinuationAPI(symbol: "withCheckedThrowingContinuation(isolation:function:_:)", callee: "withCheckedThrowingContinuation",
                        contract: "resume exactly once on every path; a second resume traps",
                        documentation: swift + "withcheckedthrowingcontinuation(isolation:function:_:)"),
        ContinuationAPI(symbol: "withUnsafeContinuation(isolation:_:)", callee: "withUnsafeContinuation",
                        contract: "resume exactly once on every path; a second resume is undefined behaviour",
                        documentation: swift + "withunsafecontinuation(isolation:_:)"),
        ContinuationAPI(symbol: "withUnsafeThrowingContinuation(isolation:_:)", callee: "withUnsafeThrowingContinuation",
                        contract: "resume exactly once on every path; a second resume is undefined behaviour",
                        documentation: swift + "withunsafethrowingcontinuation(isolation:_:)"),
    ]

    /// `resume()`, `resume(returning:)`, `resume(throwing:)`, `resume(with:)`: every way to resume one.
    public static let resumeMethod = ContinuationAPI(
        symbol: "CheckedContinuation.resume(returning:)", callee: "resume",
        contract: "each resume method (returning:, throwing:, with:, and resume() for Void) counts as the one resume",
        documentation: swift + "checkedcontinuation/resume(returning:)")

    /// `AsyncStream { continuation in ... }`: "iteration ends when the continuation's `finish()` is called"; until
    /// then a `for await` over it waits forever. `onTermination` is "a callback to invoke when canceling iteration
    /// of an asynchronous stream", where what feeds the stream is taken down.
    public static let streamInitializers: [ContinuationAPI] = [
        ContinuationAPI(symbol: "AsyncStream.init(_:bufferingPolicy:_:)", callee: "AsyncStream",
                        contract: "iteration ends only when the continuation finishes",
                        documentation: swift + "asyncstream/init(_:bufferingpolicy:_:)"),
        ContinuationAPI(symbol: "AsyncThrowingStream.init(_:bufferingPolicy:_:)", callee: "AsyncThrowingStream",
                        contract: "iteration ends only when the continuation finishes or throws",
                        documentation: swift + "asyncthrowingstream/init(_:bufferingpolicy:_:)"),
    ]

    /// What ends a stream (`finish()`, `finish(throwing:)`) or takes down its producer (`onTermination`).
    public static let streamEnd: [ContinuationAPI] = [
        ContinuationAPI(symbol: "AsyncStream.Continuation.finish()", callee: "finish",
                        contract: "resumes every waiting iteration with nil: the `for await` ends",
                        documentation: swift + "asyncstream/continuation/finish()"),
        ContinuationAPI(symbol: "AsyncStream.Continuation.onTermination", callee: "onTermination",
                        contract: "runs when the consumer's iteration is cancelled or the stream finishes",
                        documentation: swift + "asyncstream/continuation/ontermination"),
    ]

    /// The continuation types a property can hold: `CheckedContinuation<T, E>`, `UnsafeContinuation<T, E>`.
    public static let continuationTypes: [ContinuationAPI] = [
        ContinuationAPI(symbol: "CheckedContinuation", callee: "CheckedContinuation",
                        contract: "resume exactly once; a second resume traps", documentation: swift + "checkedcontinuation"),
        ContinuationAPI(symbol: "UnsafeContinuation", callee: "UnsafeContinuation",
                        contract: "resume exactly once; a second resume is undefined behaviour", documentation: swift + "unsafecontinuation"),
    ]

    /// Whether a declared type (as written, `CheckedContinuation<Void, Error>`) is a continuation.
    public static func isContinuationType(_ typeName: String) -> Bool {
        let base = typeName.split(separator: "<", maxSplits: 1).first.map(String.init) ?? typeName
        return continuationTypes.contains { $0.callee == base }
    }

    /// The continuation function a call names (`withCheckedContinuation`), or nil.
    public static func continuationFunction(named callee: String) -> ContinuationAPI? {
        continuationFunctions.first { $0.callee == callee }
    }

    /// The stream initializer a call names (`AsyncStream`, `AsyncStream<Int>`), or nil.
    public static func streamInitializer(named callee: String) -> ContinuationAPI? {
        let base = callee.split(separator: "<", maxSplits: 1).first.map(String.init) ?? callee
        return streamInitializers.first { $0.callee == base }
    }

    /// Sequences whose `finish()` ends every iteration over them: the two stream initializers above, and the channels of
    /// swift-async-algorithms (`AsyncChannel`, `AsyncThrowingChannel`: "finish() … resumes all pending iterations with
    /// nil", https://github.com/apple/swift-async-algorithms/blob/main/Sources/AsyncAlgorithms/AsyncAlgorithms.docc/Guides/Channel.md).
    public static let finishableSequences = streamInitializers.map(\.callee) + ["AsyncChannel", "AsyncThrowingChannel"]

    /// Whether a member of a stream's continuation ends the stream or takes its producer down.
    public static func endsStream(member: String) -> Bool {
        streamEnd.contains { $0.callee == member }
    }

    /// Calls whose closure runs one caller at a time, so a flag tested and set inside it (`guard !resumed else
    /// { return }; resumed = true`) is seen by the next caller: a `DispatchQueue`'s `sync` (a queue made with
    /// `DispatchQueue(label:)` is serial), and the `withLock` of `NSLock`, `OSAllocatedUnfairLock` and `Mutex`.
    public static let exclusiveSections: [ContinuationAPI] = [
        ContinuationAPI(symbol: "DispatchQueue.sync(execute:)", callee: "sync",
                        contract: "runs the closure on the queue and waits; a serial queue runs one such closure at a time",
                        documentation: "https://developer.apple.com/documentation/dispatch/dispatchqueue/sync(execute:)-3segw"),
        ContinuationAPI(symbol: "NSLocking.withLock(_:)", callee: "withLock",
                        contract: "runs the closure holding the lock",
                        documentation: "https://developer.apple.com/documentation/foundation/nslocking/withlock(_:)"),
    ]

    /// Whether a closure passed to this call runs one caller at a time (`exclusiveSections`).
    public static func isExclusiveSection(callee: String) -> Bool {
        exclusiveSections.contains { $0.callee == callee }
    }
}
