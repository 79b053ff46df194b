import SyncLintFacts

/// The index's answers to the named queries pending findings carry (`IndexQuery`): nil keeps a finding
/// quiet; an answer picks its message and fills the blanks.
extension ProjectIndex {
    public func answer(_ query: IndexQuery) -> IndexAnswer? {
        switch query {
        case .cloudKitEvidence(let file, let coreData):
            let evidence = coreData ? cloudKit.coreDataAny(for: file) : cloudKit.swiftData(for: file)
            return evidence.map { IndexAnswer([$0]) }
        case .firstMethod(let typeName, let names):
            let methods = methods(of: typeName)
            return names.first { name in methods.contains { $0.name == name } }.map { IndexAnswer([$0]) }
        case .offMainNotification(let registration, let names):
            return offMainNotification(of: registration, names: names).map { IndexAnswer([$0]) }
        case .remoteChangeNotification(let registration, let names):
            return remoteChangeNotification(of: registration, names: names).map { IndexAnswer([$0]) }
        case .cancelledTaskCaller(let key):
            let caller = callSites(of: key).first { site in
                // Awaited in the task's own code, not through another function: the task that is cancelled.
                if case .ifHandleCancelled = site.cancellation { return isCancellable(site.cancellation) }
                return false
            }
            return caller.map { IndexAnswer([$0.caller.name]) }
        case .helperWritesOffMain(let helper, let registration, let names):
            guard let write = writesOnCallersThread(of: helper).first,
                  let notification = offMainNotification(of: registration, names: names) else { return nil }
            return write.function.name == helper.name
                ? IndexAnswer(variant: 0, [write.write.property, notification])
                : IndexAnswer(variant: 1, [write.write.property, write.function.name, notification])
        case .taskIdentity(let value, let typeName, let view):
            // A model (or a holder of one) can change under the task through sync anywhere; a plain value
            // changes under it only where the view keeps its identity while its argument changes: a split
            // view's column built from the selection. A view built per value gets a new task for each value.
            guard isOrHoldsPersistentModel(typeName)
                || constructions(ofView: view).contains(where: { $0.identity == .splitViewColumn }) else { return nil }
            return IndexAnswer([StableIdentity.suggestion(for: value, typeName: typeName, index: self)])
        case .taskIDMember(let rootType, let members):
            let chain = resolveChain(from: rootType, members: members)
            guard chain.count == members.count, let property = chain.last else { return nil }
            let ownerType = chain.count >= 2 ? chain[chain.count - 2].typeName ?? "" : rootType
            if property.isComputed {
                let isModelOwner = isPersistentModel(ownerType) || isObservable(ownerType) || ownerType.hasSuffix("ViewModel")
                return isModelOwner ? IndexAnswer(variant: 0) : nil
            }
            guard property.isStoredVar, isPersistentModel(ownerType) else { return nil }
            return IndexAnswer(variant: 1, [property.name])
        }
    }
}

extension ProjectIndex {
    /// A persistent model, or a type with a stored property holding one (a view model around an article).
    package func isOrHoldsPersistentModel(_ typeName: String) -> Bool {
        if isPersistentModel(typeName) { return true }
        return properties(of: typeName).contains { property in
            !property.isComputed && !property.isStatic && property.elementTypeName.map(isPersistentModel) == true
        }
    }
}
