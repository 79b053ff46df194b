/// Ties a file's store configurations to the containers that use them and to the models they hold, so a
/// rule can ask "does the store that holds model M sync" and "does the container created here sync"
/// instead of judging a whole target by its first synced store. Names are followed only inside the file
/// (`let config = ModelConfiguration(...)` then `configurations: [config]`); what the file does not say
/// stays unknown, and an unknown store may hold any model.
enum StoreFacts {
    static func resolve(_ facts: FileFacts) -> [StoreConfiguration] {
        guard !facts.storeConfigurations.isEmpty else { return [] }
        let containersByLocation = Dictionary(facts.containers.map { ($0.location, $0) }, uniquingKeysWith: { first, _ in first })
        return facts.storeConfigurations.map { original in
            var store = original
            if store.container == nil, let name = store.bindingName {
                store.container = container(using: name, after: store.location, in: facts.containers)?.location
            }
            let container = store.container.flatMap { containersByLocation[$0] }
            store.models = store.ownModels
                ?? store.ownSchemaName.flatMap { schemaModels(named: $0, before: store.location, in: facts.schemaBindings) }
                ?? container.flatMap { container in
                    container.models.isEmpty
                        ? container.schemaName.flatMap { schemaModels(named: $0, before: container.location, in: facts.schemaBindings) }
                        : container.models
                }
            return store
        }
    }

    /// Stores whose models the file alone did not say, given them from a schema (or a model list) bound to that name in
    /// another file: `ModelConfiguration(schema: Store.schema)` with `static let schema = Schema(Store.entries)` and
    /// `static let entries = [A.self, B.self]`. Only a name every binding of which gives the same models is followed;
    /// otherwise the store's models stay unknown (it may hold any model), as before.
    static func resolveAcrossFiles(_ stores: [StoreConfiguration], containers: [SourceLocation: ContainerFact],
                                   schemaBindings: [String: [SchemaBinding]]) -> [StoreConfiguration] {
        guard !schemaBindings.isEmpty, stores.contains(where: { $0.models == nil }) else { return stores }
        // `Store.schema` names the member `schema` of `Store`; a plain `schema`, any binding of that name.
        func models(named written: String, depth: Int) -> [String]? {
            let parts = written.split(separator: ".").map(String.init)
            guard depth < 3, let name = parts.last else { return nil }
            let owner = parts.count == 2 ? parts[0] : nil
            let bindings = (schemaBindings[name] ?? []).filter { owner == nil || $0.ownerType == owner }
            var found: [String]?
            for binding in bindings {
                let own = binding.models.isEmpty ? binding.listName.flatMap { models(named: $0, depth: depth + 1) } : binding.models
                guard let own else { return nil }
                if let found, Set(found) != Set(own) { return nil }
                found = own
            }
            return found
        }
        return stores.map { original in
            guard original.models == nil else { return original }
            let container = original.container.flatMap { containers[$0] }
            guard let name = original.ownSchemaName ?? container.flatMap({ $0.models.isEmpty ? $0.schemaName : nil }) else { return original }
            var store = original
            store.models = models(named: name, depth: 0)
            return store
        }
    }

    /// The container naming configuration `name`: the first one after the configuration, or the first of all.
    private static func container(using name: String, after location: SourceLocation, in containers: [ContainerFact]) -> ContainerFact? {
        let users = containers.filter { $0.configurationNames.contains(name) }
        return users.first { $0.location.line >= location.line } ?? users.first
    }

    /// The models of the schema bound to `name` nearest above `location` (or anywhere in the file).
    private static func schemaModels(named name: String, before location: SourceLocation, in bindings: [SchemaBinding]) -> [String]? {
        let candidates = bindings.filter { $0.name == name && !$0.models.isEmpty }
        let above = candidates.filter { $0.location.line <= location.line }.max { $0.location.line < $1.location.line }
        return (above ?? candidates.first)?.models
    }
}
