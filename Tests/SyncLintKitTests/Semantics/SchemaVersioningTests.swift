import Testing
@testable import SyncLintKit

/// The facts the schema-versioning and predicate rules read, gathered as the walk gathers them.
struct SchemaVersioningFactsTests {
    @Test func versionedSchemaMembersAreReadOnlyWhenWrittenAsLiterals() {
        let index = Probe.index("""
            enum SchemaV1: VersionedSchema {
                static let versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self, Outer.Tag.self] }
            }
            enum SchemaV2: VersionedSchema {
                static var versionIdentifier: Schema.Version { .init(2, 1, 0) }
                static var models: [any PersistentModel.Type] { SchemaV1.models + [Note.self] }
            }
            enum SchemaV3: VersionedSchema {
                static let versionIdentifier = Schema.Version(major, 0, 0)
            }
            """)
        let members = index.schemaMembers.map { "\($0.typeName).\($0.member.rawValue)=\($0.values.joined(separator: ","))" }
        #expect(members == ["SchemaV1.versionIdentifier=1,0,0", "SchemaV1.models=Item,Outer.Tag", "SchemaV2.versionIdentifier=2,1,0"],
                "a list built at run time and an identifier built from a constant are unknown, never guessed")
    }

    @Test func namesResolveAsSwiftLooksThemUpAndTypealiasesStayUnknown() {
        let index = Probe.index([
            "/virtual/V1.swift": "enum SchemaV1: VersionedSchema { static var models: [any PersistentModel.Type] { [Item.self] } }",
            "/virtual/V1+Item.swift": "extension SchemaV1 { @Model final class Item { var title = \"\" } }",
            "/virtual/Live.swift": "@Model final class Tag { var name = \"\" }\ntypealias Note = SchemaV1.Item",
        ])
        #expect(index.declaredTypeName("Item", in: "SchemaV1") == "SchemaV1.Item")
        #expect(index.declaredTypeName("Tag", in: "SchemaV1") == "Tag")
        #expect(index.declaredTypeName("Note", in: "SchemaV1") == nil)
        #expect(index.declaredTypeName("Item", in: "SchemaV2") == nil, "another schema's nested type is not found from outside it")
    }

    @Test func predicatesRecordTheMembersOfTheirSubjectOnly() {
        let index = Probe.index("""
            func f(context: ModelContext, name: String) throws {
                _ = try context.fetch(FetchDescriptor<Shelf>(predicate: #Predicate { shelf in shelf.name == name && shelf.books.contains { $0.isLong } }))
                _ = #Predicate<Book> { $0.author?.name == name }
            }
            """)
        let reads = index.predicateMembers.map { "\($0.modelName).\($0.property)" }.sorted()
        #expect(reads == ["Book.author", "Shelf.books", "Shelf.name"])
    }
}
