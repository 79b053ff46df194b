/// A value's stable identity, as code that compiles where `.task(id:)` needs it: an `Equatable` value that
/// is neither optional nor `Bool` (a flag flips while the value stays the same, and an optional identity
/// of a value that is there says nothing). Only what the index shows counts; unknown gives nil, and then
/// no code is suggested or written.
package enum StableIdentity {
    /// `item.id` when the type has an identity; `viewModel.article.id` when it holds, in a non-optional
    /// stored property, a value that has one (a model first); nil otherwise.
    package static func expression(for name: String, typeName: String, index: ProjectIndex) -> String? {
        // `[Model]` has no `id`: `accounts.id` would not compile.
        if TypeNames.isCollection(typeName) { return nil }
        if let identity = identityMember(of: typeName, index: index) { return "\(name).\(identity)" }
        guard let owner = index.resolveType(typeName) else { return nil }
        let candidates = index.properties(of: owner).filter { !$0.isStatic && !$0.isComputed && !$0.isOptional }
        let ranked = candidates.filter { $0.typeName.map(index.isPersistentModel) ?? false } + candidates
        for property in ranked {
            guard let propertyType = property.typeName, !TypeNames.isCollection(propertyType),
                  let held = index.resolveType(propertyType, from: owner),
                  let identity = identityMember(of: held, index: index) else { continue }
            return "\(name).\(property.name).\(identity)"
        }
        return nil
    }

    /// The member of `typeName` that is its identity: a declared `id` or `uuid` that is an identity value,
    /// a SwiftData model's `persistentModelID`, a managed object's `objectID`, or the `id` that
    /// `Identifiable` guarantees when the project declares none (a superclass's, or `ObjectIdentifier`'s).
    static func identityMember(of typeName: String, index: ProjectIndex) -> String? {
        guard let type = index.resolveType(typeName) else { return nil }
        let properties = index.properties(of: type).filter { !$0.isStatic }
        let identifiable = index.inherits(type, from: "Identifiable")
        if let id = properties.first(where: { $0.name == "id" }), isIdentityValue(id, identifiable: identifiable, index: index) {
            return "id"
        }
        if index.isSwiftDataModel(type) { return "persistentModelID" }
        if index.isManagedObject(type) { return "objectID" }
        if let uuid = properties.first(where: { $0.name == "uuid" }), isIdentityValue(uuid, identifiable: false, index: index) {
            return "uuid"
        }
        if identifiable && !properties.contains(where: { $0.name == "id" }) { return "id" }
        return nil
    }

    /// Value types the standard library and Apple's frameworks declare `Equatable`, as identities are written.
    static let equatableTypes: Set<String> = [
        "UUID", "String", "Substring", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
        "UInt64", "URL", "Date", "Data", "ObjectIdentifier", "PersistentIdentifier", "NSManagedObjectID", "CKRecord.ID",
    ]

    /// Neither optional nor `Bool`, and `Equatable` as far as the index shows: a known `Equatable` type, a
    /// project type that conforms to `Equatable`, `Hashable`, `Comparable` or `Identifiable`, or any type
    /// when the owner is `Identifiable` (its `ID` is `Hashable`).
    static func isIdentityValue(_ property: PropertyFact, identifiable: Bool, index: ProjectIndex) -> Bool {
        guard !property.isOptional, property.typeName != "Bool" else { return false }
        if identifiable { return true }
        guard let written = property.typeName else { return false }
        if equatableTypes.contains(written) { return true }
        return ["Equatable", "Hashable", "Comparable", "Identifiable"].contains { index.inherits(written, from: $0) }
    }
}
