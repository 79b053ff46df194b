/// A question for the finished project index that decides whether a pending finding holds, written as
/// data instead of a closure, so that a pending finding can be stored, compared and cached. New rules ask
/// through these; the closure form (`report(_:when:)`) remains for the older ones.
public indirect enum IndexCondition: Sendable, Hashable {
    /// The code can be cancelled at all (`ProjectIndex.isCancellable`).
    case isCancellable(Cancellability)
    /// The value's type resolves to a SwiftData `@Model` or a Core Data `NSManagedObject` subclass.
    case isPersistentModel(ValueType)
    /// Some context the function runs in is off the main thread (`ProjectIndex.executionContexts`).
    case runsOffMain(FunctionKey)
    /// The call may throw a cancellation to its caller: its callee is not a project function, or one that
    /// may throw errors other than the app's own (`FunctionSummary.throwsOnlyOwnErrors`).
    case mayThrowCancellation(CallReference)
    /// View code somewhere in the project reads a member or name called this (`ProjectIndex.viewReadNames`);
    /// holds too when the project has no view code.
    case readByViews(String)
    /// The call reaches a project function that blocks its thread on a semaphore or group
    /// (`FunctionSummary.blockingWaits`).
    case callBlocks(CallReference)
    case all([IndexCondition])
    case any([IndexCondition])
    case not(IndexCondition)
}
