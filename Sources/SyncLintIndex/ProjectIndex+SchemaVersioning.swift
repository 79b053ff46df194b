/// SwiftData schema versioning read from the index: which types are versioned schemas and migration plans, what
/// each declares, and which declared type a name listed in one of them is.
extension ProjectIndex {
    /// The static member the type declares (`versionIdentifier`, `models`, `schemas`), if exactly one
    /// declaration says it (two, under `#if`, leave it unknown).
    public func schemaMember(_ member: SchemaMemberFact.Member, of typeName: String) -> SchemaMemberFact? {
        let declared = schemaMembers.filter { $0.typeName == typeName && $0.member == member }
        return declared.count == 1 ? declared[0] : nil
    }

    /// The qualified name of the type a name written inside `scope` refers to, as Swift looks it up: a type
    /// nested in the scope (or in an extension of it), then in each enclosing type, then at the top level. Nil
    /// when no declaration the index holds has that name (a typealias, a type from another module). Stricter
    /// than `resolveType(_:from:)`, which falls back to the one nested type of that simple name: two schema
    /// versions are compared by the types they name, so a name is never guessed.
    public func declaredTypeName(_ written: String, in scope: String) -> String? {
        var outer = scope.split(separator: ".").map(String.init)
        while true {
            let candidate = (outer + [written]).joined(separator: ".")
            if let declarations = typesByName[candidate], declarations.contains(where: { $0.kind != .extension }) {
                return candidate
            }
            if outer.isEmpty { return nil }
            outer.removeLast()
        }
    }

    /// The migration plans of the project: types conforming to `SchemaMigrationPlan` whose `schemas` list is
    /// an array literal, with the versions it lists resolved in order (unknown names dropped).
    public func migrationPlans() -> [(plan: SchemaMemberFact, versions: [String])] {
        schemaMembers.filter { $0.member == .schemas && inherits($0.typeName, from: FrameworkSchemas.migrationPlan.symbol) }.map { plan in
            (plan, plan.values.compactMap { declaredTypeName($0, in: plan.typeName) }.filter { inherits($0, from: FrameworkSchemas.versionedSchema.symbol) })
        }
    }
}
