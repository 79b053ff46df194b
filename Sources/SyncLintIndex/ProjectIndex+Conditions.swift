import SyncLintFacts

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
        case .mayThrowCancellation(let call):
            guard let callee = callee(of: call), let summary = summary(of: callee) else { return true }
            return !summary.throwsOnlyOwnErrors
        case .readByViews(let name):
            // A project with no view code at all (a package of models, a snippet) says nothing about what views read.
            return viewReadNames.isEmpty || viewReadNames.contains(name)
        case .callBlocks(let call):
            // Asked for every method call in async code: most names belong to no blocking function at all.
            guard blockingFunctionNames.value({ [self] in
                Set(functionSummaries.values.filter { !$0.blockingWaits.isEmpty }.map(\.key.name))
            }).contains(call.callee), let callee = callee(of: call) else { return false }
            return summary(of: callee)?.blockingWaits.isEmpty == false
        case .all(let conditions):
            return conditions.allSatisfy(holds)
        case .any(let conditions):
            return conditions.contains(where: holds)
        case .not(let condition):
            return !holds(condition)
        }
    }
}
