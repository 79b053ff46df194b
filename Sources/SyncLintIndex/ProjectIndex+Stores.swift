/// Questions about stores: which models a store holds, and whether the store that holds a model syncs.
extension ProjectIndex {
    /// Evidence that a store holding the SwiftData model `model` (declared in `file`) syncs: the stores of
    /// the targets that compile `file`, less those known to hold other models only. A model registered only
    /// in a container set to `cloudKitDatabase: .none` gets none, even next to a synced container.
    public func cloudKitEvidence(forModel model: String, declaredIn file: String) -> CloudKitProof? {
        cloudKit.swiftData(for: file) { self.store($0, mayHold: model) }
    }

    /// Whether `store` may hold `model`: it holds it, directly or through relationships (SwiftData adds the
    /// models a registered model relates to), or what the store holds is unknown (a name the index does not
    /// know as a `@Model`, such as a `VersionedSchema`, makes it unknown).
    public func store(_ store: StoreConfiguration, mayHold model: String) -> Bool {
        guard let models = store.models, !models.isEmpty, models.allSatisfy(isSwiftDataModel) else { return true }
        return heldModels.value(for: models) { ModelSchema(index: self).reachable(from: Set(models)) }.contains(model)
    }

    /// Evidence that the SwiftData container created at `location` syncs (see `CloudKitEvidence.swiftData(containerAt:)`).
    public func cloudKitEvidence(forContainerAt location: SourceLocation) -> CloudKitProof? {
        let container = containerFacts[location]
        if let container, let named = configurationsNamedAgain(by: container) {
            return cloudKit.swiftData(for: location.file) { store in named.contains { $0.location == store.location } }
        }
        return cloudKit.swiftData(containerAt: location, configurationCount: container?.configurationCount ?? 0)
    }
}

extension ProjectIndex {
    /// The configurations a container names when each was bound to an earlier container of the file (a retry with the
    /// same `config`): the nearest binding of each name above it. Nil when the container has configurations of its own,
    /// or a name has no such binding.
    func configurationsNamedAgain(by container: ContainerFact) -> [StoreConfiguration]? {
        let location = container.location
        guard !container.configurationNames.isEmpty, container.configurationNames.count == container.configurationCount,
              !storeConfigurations.contains(where: { $0.container == location }) else { return nil }
        var named: [StoreConfiguration] = []
        for name in container.configurationNames {
            let above = storeConfigurations.filter { $0.location.file == location.file && $0.bindingName == name && $0.location.line <= location.line }
            guard let nearest = above.max(by: { $0.location.line < $1.location.line }) else { return nil }
            named.append(nearest)
        }
        return named
    }
}

/// Stores a crash on a failed load takes down (`IndexQuery.failingStore`).
extension ProjectIndex {
    /// Variant 0 with where CloudKit is on when a store syncs; variant 1 when the stores are local and on disk
    /// (a failed migration or a full disk crashes every launch all the same); nil when each is in memory, or
    /// when a loader call reaches no `loadPersistentStores`.
    func failingStoreAnswer(_ store: FailingStore) -> IndexAnswer? {
        switch store {
        case .swiftData(let file, let containers):
            let evidence = containers.isEmpty ? cloudKit.swiftData(for: file)
                : containers.lazy.compactMap { self.cloudKitEvidence(forContainerAt: $0) }.first
            if let evidence { return IndexAnswer(variant: 0, [evidence.text], notes: evidence.notes) }
            guard containers.isEmpty || !containers.allSatisfy(isInMemorySwiftDataContainer) else { return nil }
            return IndexAnswer(variant: 1)
        case .swiftDataRetryAfter(let file, let containers, let resets):
            // The store's files deleted before the retry: the retried store starts empty.
            return removesStore(resets) ? nil : failingStoreAnswer(.swiftData(file: file, containers: containers))
        case .coreData(let file, let name):
            return coreDataFailingStore(file: file, containerName: name)
        case .coreDataAfter(let file, let name, let resets):
            return removesStore(resets) ? nil : coreDataFailingStore(file: file, containerName: name)
        case .loader(let file, let call, let name):
            guard let callee = callee(of: call),
                  reachableSummaries(from: callee).contains(where: { $0.summary.calls.contains { $0.callee == FrameworkCallbacks.loadPersistentStoresMethod } })
            else { return nil }
            return coreDataFailingStore(file: file, containerName: name)
        }
    }

    /// Whether one of the calls reaches a deletion of a store's files (`removeItem`, `destroyPersistentStore`), to three
    /// calls deep through the project's functions.
    private func removesStore(_ calls: [CallReference]) -> Bool {
        calls.contains { reset in
            guard let callee = callee(of: reset) else { return false }
            return reachableSummaries(from: callee).contains { $0.summary.calls.contains { FrameworkCallbacks.storeRemovalMethods.contains($0.callee) } }
        }
    }

    /// Whether every store of the SwiftData container created at `location` is known and kept in memory.
    private func isInMemorySwiftDataContainer(_ location: SourceLocation) -> Bool {
        var own = storeConfigurations.filter { $0.container == location }
        if own.isEmpty, let container = containerFacts[location], let named = configurationsNamedAgain(by: container) { own = named }
        guard !own.isEmpty, own.count >= (containerFacts[location]?.configurationCount ?? 0) else { return false }
        return own.allSatisfy { $0.kind == .inMemory }
    }

    /// The Core Data container bound to `name` in `file`: syncs, local, or (every one of that name) in memory.
    private func coreDataFailingStore(file: String, containerName name: String?) -> IndexAnswer? {
        let evidence = name.map { cloudKit.coreData(containerNamed: $0, in: file) } ?? cloudKit.coreDataAny(for: file)
        if let evidence { return IndexAnswer(variant: 0, [evidence.text], notes: evidence.notes) }
        let named = storeConfigurations.filter { $0.location.file == file && $0.bindingName == name && name != nil }
        if !named.isEmpty, named.allSatisfy({ $0.kind == .inMemory }) { return nil }
        return IndexAnswer(variant: 1)
    }
}
