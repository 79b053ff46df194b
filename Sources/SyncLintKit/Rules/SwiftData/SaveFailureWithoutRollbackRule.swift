import SwiftSyntax

/// A failed `save()` whose changes stay in the context.
public final class SaveFailureWithoutRollbackRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "save_failure_without_rollback",
        name: "Save Failure Without Rollback",
        whatItDoes: """
            Finds a `catch` that handles the failure of `context.save()` (SwiftData or Core Data) without \
            `rollback()` (or `reset()`) and without a recovery such as re-fetching the existing record. A catch \
            that only rethrows is seed 003's red flag #4.
            """,
        whyIsThisBad: """
            A failed save leaves the offending insert or change in the context. Every later save, for any \
            unrelated change, tries to write it again and fails the same way, so one duplicate or invalid object \
            silently stops the app from saving anything (seed 003: "Rollback failed insert", "No fallback to \
            existing record").
            """,
        seed: "003",
        triggeringExamples: [
            RuleExample("""
                func save(_ article: Article) throws {
                    do {
                        modelContext.insert(article)
                        try modelContext.save()
                    } ↓catch {
                        throw error  // ❌ No fallback to existing record
                    }
                }
                """),
            RuleExample("""
                func persist() {
                    do { try viewContext.save() } ↓catch { print("save failed: \\(error)") }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                func save(_ ephemeral: EphemeralArticle) async throws -> Article {
                    let article = Article(url: ephemeral.url, title: ephemeral.title)
                    do {
                        modelContext.insert(article)
                        try modelContext.save()
                        return article
                    } catch {
                        modelContext.rollback()
                        if let existing = findExistingArticle(for: ephemeral.url) { return existing }
                        throw error
                    }
                }
                """),
            RuleExample("""
                func export() {
                    do { try encoder.save(to: url) } catch { print(error) }
                    do { try document.save() } catch { showError(error) }
                }
                """),
        ],
        knownLimitations: """
            A rollback done by the caller, or in a helper the catch calls, is not seen. Only receivers named like \
            a context (`context`, `modelContext`, `viewContext`, `backgroundContext`, ...) count as contexts.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.doStmt]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let doStatement = node.as(DoStmtSyntax.self), Self.savesContext(doStatement.body) else { return }
        for clause in doStatement.catchClauses where !Self.recovers(clause.body) {
            context.report(clause.catchKeyword,
                           "the failed save's changes stay in the context and every later save fails again; call `rollback()` here, then recover (re-fetch the existing record)")
        }
    }

    static func savesContext(_ body: CodeBlockSyntax) -> Bool {
        var saves = false
        BodyScanner.scan(body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
                  SyntaxFacts.calleeMethodName(call) == "save",
                  let receiver = SyntaxFacts.receiverText(call)?.split(separator: ".").last else { return }
            if receiver.lowercased().hasSuffix("context") { saves = true }
        }
        return saves
    }

    static func recovers(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            let text = token.text
            return text == "rollback" || text == "reset" || text.hasPrefix("fetch") || text.hasPrefix("find") || text.hasPrefix("existing")
        }
    }
}
