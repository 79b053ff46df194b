/// Finds a stable identity expression for a value, for messages that suggest `.task(id:)`.
package enum StableIdentity {
    /// `item.id` when the type has an identity; `viewModel.article.id` when it holds a model that has one;
    /// `name.id` as a plain hint otherwise.
    package static func suggestion(for name: String, typeName: String, index: ProjectIndex) -> String {
        if let identity = identityProperty(of: typeName, index: index) { return "\(name).\(identity)" }
        let candidates = index.properties(of: typeName).filter { !$0.isStatic && !$0.isComputed }
        let ranked = candidates.filter { $0.typeName.map(index.isPersistentModel) ?? false } + candidates
        for property in ranked {
            guard let propertyType = property.typeName, !TypeNames.isCollection(propertyType),
                  let identity = identityProperty(of: propertyType, index: index) else { continue }
            return "\(name).\(property.name).\(identity)"
        }
        return "\(name).id"
    }

    package static func identityProperty(of typeName: String, index: ProjectIndex) -> String? {
        let properties = index.properties(of: typeName)
        let preferred = ["id", "persistentModelID", "objectID", "uuid"]
        for name in preferred where properties.contains(where: { $0.name == name }) { return name }
        if index.isSwiftDataModel(typeName) { return "persistentModelID" }
        if index.isManagedObject(typeName) { return "objectID" }
        return nil
    }
}
