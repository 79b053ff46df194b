import SwiftSyntax

/// An insert of a model with a logically unique key, in a function that did not look for it first.
public final class InsertWithoutDuplicateCheckRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "insert_without_duplicate_check",
        name: "Insert Without Duplicate Check",
        whatItDoes: """
            Finds `context.insert(X(...))` (or an insert of a local made with `X(...)`) of a model that has a \
            logically unique key, in a function that did not fetch or look up by that key first. The key is known \
            from the option `logical_unique_keys` (`{ Article: [url] }`), from `@Attribute(.unique)` where CloudKit \
            makes it unenforceable, or from the model's doc comment naming a property as unique.
            """,
        whyIsThisBad: """
            With CloudKit there is no database constraint to stop a second record with the same key: saving the \
            same URL twice, or on two devices, makes duplicates that sync everywhere (seed 003, red flag #3: \
            "Missing duplicate detection before insert"). Look for the existing record first, and return it.
            """,
        seed: "003",
        options: [RuleOptionDescription("logical_unique_keys", default: "{}", "model name → properties that must be unique, e.g. `{ Article: [url] }`")],
        triggeringExamples: [
            RuleExample("""
                /// Uniqueness: at most one article per `url`, checked in the service.
                @Model final class Article { var url: URL?; var title: String = "" }
                func add(url: URL, title: String) throws {
                    let article = Article(url: url, title: title)
                    ↓modelContext.insert(article)  // ❌ No prior check, race condition possible
                    try modelContext.save()
                }
                """),
            RuleExample("""
                @Model final class Tag { var name: String = "" }
                func addTag(_ name: String) { ↓context.insert(Tag(name: name)) }
                """, options: ["logical_unique_keys": .map(["Tag": .list([.string("name")])])]),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                /// Uniqueness: at most one article per `url`, checked in the service.
                @Model final class Article { var url: URL?; var title: String = "" }
                func save(_ ephemeral: EphemeralArticle) throws -> Article {
                    if let existing = findExistingArticle(for: ephemeral.url) { return existing }
                    let article = Article(url: ephemeral.url, title: ephemeral.title)
                    modelContext.insert(article)
                    try modelContext.save()
                    return article
                }
                """),
            RuleExample("""
                @Model final class Note { var text: String = "" }
                func addNote(_ text: String) { context.insert(Note(text: text)) }
                """),
        ],
        knownLimitations: """
            A lookup is recognized by name: any earlier call in the same function named `fetch...`, `find...`, \
            `existing...` or `lookup...`. A check done by the caller is not seen. Doc comments count when they say \
            "unique" and name the property in backticks.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    private let configuredKeys: [String: [String]]

    public init(options: RuleOptions) {
        configuredKeys = options.stringListMap("logical_unique_keys")
    }

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), context.calleeMethodName(call) == "insert",
              call.arguments.count == 1, let argument = call.arguments.first?.expression,
              let receiver = SyntaxFacts.receiverText(call), receiver.lowercased().hasSuffix("context"),
              let body = context.scope.currentFunction?.body,
              let modelName = Self.insertedType(argument, body: body),
              !Self.looksUpFirst(body, before: call.positionAfterSkippingLeadingTrivia) else { return }
        let configured = configuredKeys[modelName] ?? []
        context.report(call) { index in
            guard let key = Self.uniqueKeys(of: modelName, configured: configured, index: index).first else { return nil }
            return "`\(modelName)` is unique by `\(key)`, but this insert does not look for an existing one first; " +
                "fetch by `\(key)` and return the existing record before inserting"
        }
    }

    /// `X` for `insert(X(...))`, or for `insert(x)` after `let x = X(...)` in the same body.
    static func insertedType(_ argument: ExprSyntax, body: CodeBlockSyntax) -> String? {
        if let construction = argument.as(FunctionCallExprSyntax.self) {
            let name = SyntaxFacts.calleeName(construction)
            return SyntaxFacts.isTypeName(name) ? name : nil
        }
        guard let local = argument.as(DeclReferenceExprSyntax.self)?.baseName.text else { return nil }
        var found: String?
        BodyScanner.scan(body) { node in
            guard let binding = node.as(PatternBindingSyntax.self),
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == local,
                  let construction = binding.initializer?.value.as(FunctionCallExprSyntax.self) else { return }
            let name = SyntaxFacts.calleeName(construction)
            if SyntaxFacts.isTypeName(name) { found = name }
        }
        return found
    }

    static func looksUpFirst(_ body: CodeBlockSyntax, before position: AbsolutePosition) -> Bool {
        for token in body.tokens(viewMode: .sourceAccurate) {
            if token.position >= position { break }
            let text = token.text.lowercased()
            if text.hasPrefix("fetch") || text.hasPrefix("find") || text.hasPrefix("existing") || text.hasPrefix("lookup") { return true }
        }
        return false
    }

    /// Configured keys, then `@Attribute(.unique)` when CloudKit is on, then doc-comment keys.
    static func uniqueKeys(of model: String, configured: [String], index: ProjectIndex) -> [String] {
        guard index.isSwiftDataModel(model) || index.isManagedObject(model) else { return [] }
        if !configured.isEmpty { return configured }
        let properties = index.properties(of: model)
        if let model = index.declarations(of: model).first, index.cloudKit.swiftData(for: model.location.file) != nil {
            let unique = properties.filter { $0.attributes.contains { $0.name == "Attribute" && $0.arguments.contains(".unique") } }
            if let key = unique.first(where: { !$0.looksLikeIdentity }) ?? unique.first { return [key.name] }
        }
        let doc = index.declarations(of: model).map(\.docComment).joined(separator: "\n")
        guard doc.lowercased().contains("unique") else { return [] }
        return properties.map(\.name).filter { doc.contains("`\($0)`") }
    }
}
