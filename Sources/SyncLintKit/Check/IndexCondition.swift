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
    case all([IndexCondition])
    case any([IndexCondition])
    case not(IndexCondition)
}

extension ProjectIndex {
    public func holds(_ condition: IndexCondition) -> Bool {
        switch condition {
        case .isCancellable(let cancellation):
            return isCancellable(cancellation)
        case .isPersistentModel(let value):
            guard let type = resolve(value), !type.isCollection else { return false }
            return isPersistentModel(type.name)
        case .runsOffMain(let key):
            return executionContexts(of: key).contains(where: isOffMain)
        case .all(let conditions):
            return conditions.allSatisfy(holds)
        case .any(let conditions):
            return conditions.contains(where: holds)
        case .not(let condition):
            return !holds(condition)
        }
    }
}
