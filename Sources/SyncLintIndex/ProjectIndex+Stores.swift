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
        return cloudKit.swiftData(containerAt: location, configurationCount: container?.configurationCount ?? 0)
    }
}
