import SwiftSyntax

/// A `#Predicate` or `SortDescriptor` written on a generic type parameter that reads a member of it.
public final class PredicateOnGenericModelRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "predicate_on_generic_model",
        name: "Predicate on Generic Model",
        whatItDoes: """
            Finds a `#Predicate<T>` (or one written for `FetchDescriptor<T>` or `Predicate<T>`) whose subject `T` is a \
            generic parameter of the enclosing function or type, and whose closure reads a member of it \
            (`$0.fingerprint`); and a `SortDescriptor(\\T.date)` whose key path starts at such a parameter.
            """,
        whyIsThisBad: """
            It compiles, and it traps. SwiftData turns each key path of a predicate into a column by matching it \
            against the metadata the `@Model` macro generated for the concrete class; a key path spelled on a \
            generic parameter (through a protocol requirement) is a different key path, nothing matches, and \
            SwiftData stops the process with "Fatal error: Couldn't find \\Model.<computed …> on Model with \
            fields [...]". It is a `fatalError`, so a surrounding `try?` cannot contain it, and it may show only in \
            optimized builds. Fix in kasianov-mikhail/scout#1152 ("fix the SwiftData predicate trap", a TestFlight \
            crash in `ModelContext.delete(model:where:)` from `#Predicate<Row> { $0.fingerprint == fingerprint }`; \
            the fix, commit 01b129b9, moves the predicates and the `SortDescriptor(\\Row.date)` onto each concrete \
            row type).
            """,
        seed: "issue 23",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                actor RecordCache<Row: CacheRow & PersistentModel> {
                    let context: ModelContext
                    func deleteAll(for fingerprint: String) throws {
                        let predicate = #Predicate<Row> { $0.↓fingerprint == fingerprint }
                        try context.delete(model: Row.self, where: predicate)
                    }
                    func rows() throws -> [Row] {
                        try context.fetch(FetchDescriptor<Row>(sortBy: [SortDescriptor(↓\\Row.date)]))
                    }
                }
                """),
            RuleExample("""
                func first<T: PersistentModel & Named>(named name: String, in context: ModelContext) throws -> T? {
                    var descriptor = FetchDescriptor<T>(predicate: #Predicate { item in item.↓name == name })
                    descriptor.fetchLimit = 1
                    return try context.fetch(descriptor).first
                }
                """),
        ],
        nonTriggeringExamples: [
            // The concrete model: its key paths are in its metadata.
            RuleExample("""
                func deleteAll(for fingerprint: String, in context: ModelContext) throws {
                    try context.delete(model: CachedRecord.self, where: #Predicate<CachedRecord> { $0.fingerprint == fingerprint })
                }
                """),
            // Generic, but the predicate is built by each concrete model (a protocol requirement).
            RuleExample("""
                protocol CacheRow: PersistentModel { static func matching(_ fingerprint: String) -> Predicate<Self> }
                @Model final class CachedRecord: CacheRow {
                    var fingerprint: String = ""
                    static func matching(_ fingerprint: String) -> Predicate<CachedRecord> { #Predicate<CachedRecord> { $0.fingerprint == fingerprint } }
                }
                func deleteAll<Row: CacheRow>(_ type: Row.Type, fingerprint: String, in context: ModelContext) throws {
                    try context.delete(model: type, where: Row.matching(fingerprint))
                }
                """),
            // A sort descriptor on the concrete model, and a key path on a generic value that is no sort descriptor.
            RuleExample("""
                func rows(in context: ModelContext) throws -> [CachedRecord] {
                    try context.fetch(FetchDescriptor<CachedRecord>(sortBy: [SortDescriptor(\\CachedRecord.date)]))
                }
                func values<T: Identifiable>(_ items: [T]) -> [T.ID] { items.map(\\T.id) }
                """),
            // A generic predicate that reads nothing of its subject, or only its identifier.
            RuleExample("""
                func fetch<T: PersistentModel>(_ id: PersistentIdentifier, in context: ModelContext) throws -> [T] {
                    try context.fetch(FetchDescriptor<T>(predicate: #Predicate { $0.persistentModelID == id }))
                }
                func all<T: PersistentModel>(in context: ModelContext) throws -> [T] {
                    try context.fetch(FetchDescriptor<T>(predicate: #Predicate { _ in true }))
                }
                """),
            // A type named like a generic parameter elsewhere in the file is not one here.
            RuleExample("""
                struct Box<T> { var value: T }
                func titles(in context: ModelContext) throws -> [T] {
                    try context.fetch(FetchDescriptor<T>(predicate: #Predicate { $0.title == "x" }))
                }
                """),
        ],
        knownLimitations: """
            `persistentModelID` is not reported (SwiftData maps it without the model's metadata). A sort descriptor \
            whose key path names no root (`SortDescriptor(\\.date)` inside `FetchDescriptor<T>`) and predicates built \
            on `Self` in a protocol extension are not looked at. \
            Opt-in until measured on apps that use generic stores.
            """,
        messages: [genericSortDescriptor, genericPredicate])
    static let genericSortDescriptor = RuleMessage("generic_sort_descriptor", "`SortDescriptor({keyPath})` starts at the generic parameter `{root}`: SwiftData finds no such key path in the model's metadata and traps; build the sort descriptor where the model type is concrete")
    static let genericPredicate = RuleMessage("generic_predicate", "`#Predicate<{subject}>` reads `{member}` through the generic parameter `{subject}`: SwiftData finds no such key path in the model's metadata and traps; build the predicate where the model type is concrete (e.g. a static requirement each model implements)")

    public static let nodeKinds: Set<SyntaxKind> = [.macroExpansionExpr, .functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        if let call = node.as(FunctionCallExprSyntax.self) {
            guard SyntaxFacts.calleeName(call) == FrameworkSchemas.sortDescriptor.symbol,
                  let keyPath = call.arguments.first?.expression.as(KeyPathExprSyntax.self),
                  let root = keyPath.root?.trimmedText, Self.isGenericParameter(root, around: node) else { return }
            context.report(keyPath, Self.genericSortDescriptor, ["keyPath": keyPath.trimmedText, "root": root])
            return
        }
        guard let (macro, closure, subject) = PredicateFacts.predicate(node), Self.isGenericParameter(subject, around: Syntax(macro)),
              let member = Self.firstMemberRead(in: closure) else { return }
        context.report(member.declName, Self.genericPredicate, ["subject": subject, "member": member.declName.baseName.text])
    }

    /// Whether a function, initializer, subscript or type around the node declares `name` as a generic parameter.
    static func isGenericParameter(_ name: String, around node: Syntax) -> Bool {
        var current = node.parent
        while let ancestor = current {
            let clause: GenericParameterClauseSyntax?
            switch ancestor.as(DeclSyntax.self)?.as(DeclSyntaxEnum.self) {
            case .functionDecl(let decl): clause = decl.genericParameterClause
            case .initializerDecl(let decl): clause = decl.genericParameterClause
            case .subscriptDecl(let decl): clause = decl.genericParameterClause
            case .structDecl(let decl): clause = decl.genericParameterClause
            case .classDecl(let decl): clause = decl.genericParameterClause
            case .enumDecl(let decl): clause = decl.genericParameterClause
            case .actorDecl(let decl): clause = decl.genericParameterClause
            default: clause = nil
            }
            if clause?.parameters.contains(where: { $0.name.text == name }) == true { return true }
            current = ancestor.parent
        }
        return false
    }

    /// The first member of the closure's parameter the predicate reads, `persistentModelID` aside; nested
    /// closures read other values.
    static func firstMemberRead(in closure: ClosureExprSyntax) -> MemberAccessExprSyntax? {
        let parameter = PredicateFacts.parameterName(of: closure)
        guard parameter != "_" else { return nil }
        var queue = closure.statements.map { Syntax($0) }
        var position = 0
        while position < queue.count {
            let next = queue[position]
            position += 1
            if next.is(ClosureExprSyntax.self) { continue }
            if let member = next.as(MemberAccessExprSyntax.self),
               member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == parameter,
               member.declName.baseName.text != FrameworkSchemas.identifierProperty {
                return member
            }
            queue += next.children(viewMode: .sourceAccurate)
        }
        return nil
    }
}
