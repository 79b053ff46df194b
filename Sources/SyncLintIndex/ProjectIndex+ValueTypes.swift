import SyncLintFacts

extension ProjectIndex {
    /// Answers a `ValueType`: nil when any step is unknown (a property the index does not know, a call's
    /// result, a collection's element that is not a collection).
    public func resolve(_ type: ValueType) -> ResolvedType? {
        resolve(type, depth: 0)
    }

    private func resolve(_ type: ValueType, depth: Int) -> ResolvedType? {
        guard depth < ValueType.depthLimit else { return nil }
        switch type {
        case .unknown:
            return nil
        case .named(let written, let scope):
            return resolveWritten(written, scope: scope)
        case .element(let base):
            guard let collection = resolve(base, depth: depth + 1), collection.isCollection else { return nil }
            return ResolvedType(name: collection.name, isCollection: false)
        case .member(let base, let member):
            guard let owner = resolve(base, depth: depth + 1) else { return nil }
            if owner.isCollection {
                return ["first", "last", "randomElement"].contains(member) ? ResolvedType(name: owner.name, isCollection: false) : nil
            }
            guard let property = property(member, of: owner.name), let written = property.typeName else { return nil }
            return resolveWritten(written, scope: resolveType(owner.name) ?? owner.name)
        }
    }

    private func resolveWritten(_ written: String, scope: String?) -> ResolvedType? {
        let element = TypeNames.element(of: written)
        guard !element.isEmpty else { return nil }
        return ResolvedType(name: resolveType(element, from: scope) ?? element, isCollection: TypeNames.isCollection(written))
    }
}
