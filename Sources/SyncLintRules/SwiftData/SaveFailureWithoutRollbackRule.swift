import SwiftLexicalLookup
import SwiftSyntax

/// A failed `save()` whose changes stay in the context.
public final class SaveFailureWithoutRollbackRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "save_failure_without_rollback",
        name: "Save Failure Without Rollback",
        whatItDoes: """
            Finds a `catch` that handles the failure of `context.save()` (SwiftData or Core Data) without \
            `rollback()` (or `reset()`) and without a recovery such as re-fetching the existing record, and a \
            `try context.save()` after an insert in a throwing function that lets the error leave with the insert \
            still in the context. A catch that only rethrows, and a propagated save, are \
            quiet when every caller rolls back (followed three calls up).
            """,
        whyIsThisBad: """
            A failed save leaves the offending insert or change in the context. Every later save, for any \
            unrelated change, tries to write it again and fails the same way, so one duplicate or invalid object \
            silently stops the app from saving anything.
            """,
        seed: "003",
        // Opt-in until narrowed further: 4 of 9 findings right on eight public apps: contexts handed over by `performBackgroundTask` and thrown away, nothing pending after a batch delete, and a catch that only sees a fetch error (docs/precision.md).
        isOptIn: true,
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
            RuleExample("""
                @MainActor final class Library {
                    let modelContext: ModelContext
                    func add(_ url: URL) throws {
                        modelContext.insert(Article(url: url))
                        ↓try modelContext.save()
                    }
                    func addFromClipboard(_ url: URL) {
                        try? add(url)
                    }
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
                func importFeed(_ items: [FeedItem]) {
                    let context = container.newBackgroundContext()
                    context.performAndWait {
                        for item in items { _ = Entry(item: item, context: context) }
                        do { try context.save() } catch { logger.error("import failed: \\(error)") }
                    }
                }
                """),
            RuleExample("""
                func purge() {
                    container.performBackgroundTask { context in
                        do { try context.save() } catch { print(error) }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Library {
                    let modelContext: ModelContext
                    func add(_ url: URL) throws {
                        modelContext.insert(Article(url: url))
                        do { try modelContext.save() } catch { throw error }
                    }
                    func addFromShareSheet(_ url: URL) {
                        do { try add(url) } catch { modelContext.rollback() }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Library {
                    let modelContext: ModelContext
                    func add(_ url: URL) throws {
                        modelContext.insert(Article(url: url))
                        try modelContext.save()
                    }
                    func addFromShareSheet(_ url: URL) {
                        do { try add(url) } catch { modelContext.rollback() }
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
            A rollback in a helper the catch calls is not seen. Only receivers named like a context (`context`, \
            `modelContext`, `viewContext`, `backgroundContext`, ...) count as contexts. A context made in the \
            function for one job (`newBackgroundContext()`, `ModelContext(container)`, \
            `NSManagedObjectContext(...)`, the one `performBackgroundTask` hands over) is thrown away after the \
            failure and never saves again, so it is not reported. \
            Opt-in: 4 of 9 findings right on eight public apps: contexts handed over by `performBackgroundTask` and thrown away, nothing pending after a batch delete, and a catch that only sees a fetch error; see docs/precision.md.
            """,
        messages: [catchWithoutRollback, propagatedWithoutRollback])
    static let catchWithoutRollback = RuleMessage("catch_without_rollback", "the failed save's changes stay in the context and every later save fails again; call `rollback()` here, then recover (re-fetch the existing record)")
    static let propagatedWithoutRollback = RuleMessage("propagated_without_rollback", "this save's error leaves the function with the insert still in the context, and no caller rolls back; catch it here, call `rollback()`, then recover or rethrow")

    public static let nodeKinds: Set<SyntaxKind> = [.doStmt, .tryExpr]

    public init(options: RuleOptions) {}


    public func enter(_ node: Syntax, context: FileContext) {
        if let tryExpression = node.as(TryExprSyntax.self) {
            checkPropagatedSave(tryExpression, context: context)
            return
        }
        guard let doStatement = node.as(DoStmtSyntax.self) else { return }
        let receivers = Self.savedContexts(doStatement.body)
        // A context made for this one job (a background context, an import) is thrown away after the failure
        // and never saves again, so its failed changes hurt nothing.
        guard !receivers.isEmpty, !receivers.allSatisfy(Self.isShortLivedContext) else { return }
        let caller = context.scope.currentFunction.map { FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: $0.name) }
        for (index, clause) in doStatement.catchClauses.enumerated() where !Self.recovers(clause.body) {
            let facts = CatchFacts.of(doStatement, clause: index, context: context)
            guard facts.destinations.contains(.rethrown), let caller else {
                context.report(clause.catchKeyword, Self.catchWithoutRollback)
                continue
            }
            // Rethrown: quiet when every caller in the project rolls back.
            context.report(clause.catchKeyword, Self.catchWithoutRollback, when: .not(.everyCallerRollsBack(caller)))
        }
    }

    /// `try context.save()` outside any `do`, in a throwing function that inserted first: the error goes up
    /// with the insert still in the context, and no caller up the chain rolls it back.
    func checkPropagatedSave(_ tryExpression: TryExprSyntax, context: FileContext) {
        guard tryExpression.questionOrExclamationMark == nil, let call = tryExpression.expression.as(FunctionCallExprSyntax.self),
              let receiver = Self.savedContext(call), !Self.isShortLivedContext(receiver),
              let function = context.scope.currentFunction, function.isThrowing, context.scope.currentClosure == nil,
              tryExpression.ancestor(DoStmtSyntax.self).map({ !$0.isInside(function.node) }) ?? true,
              let body = function.body, Self.inserts(in: body, before: tryExpression.position) else { return }
        let key = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
        context.report(tryExpression, Self.propagatedWithoutRollback, when: .not(.any([.rollsBack(key), .everyCallerRollsBack(key)])))
    }

    /// The receivers of `save()` calls on a context in a body (`context`, `self.modelContext`).
    static func savedContexts(_ body: CodeBlockSyntax) -> [ExprSyntax] {
        var receivers: [ExprSyntax] = []
        BodyScanner.scan(body) { node in
            if let call = node.as(FunctionCallExprSyntax.self), let receiver = savedContext(call) { receivers.append(receiver) }
        }
        return receivers
    }

    static func savedContext(_ call: FunctionCallExprSyntax) -> ExprSyntax? {
        guard call.arguments.isEmpty, SyntaxFacts.calleeMethodName(call) == FrameworkContexts.saveMethod,
              let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
              let last = receiver.trimmedText.split(separator: ".").last,
              last.lowercased().hasSuffix("context") else { return nil }
        return receiver
    }

    /// A context declared in the function for one job: `let context = container.newBackgroundContext()`,
    /// `ModelContext(container)`, `NSManagedObjectContext(concurrencyType:)`, or the context
    /// `performBackgroundTask { context in }` hands over.
    static func isShortLivedContext(_ receiver: ExprSyntax) -> Bool {
        guard let reference = receiver.as(DeclReferenceExprSyntax.self), let identifier = Identifier(reference.baseName) else { return false }
        for result in ValueTypes.lookup(reference, identifier) {
            if case .lookForMembers = result { return false }
            guard let name = result.names.first else { continue }
            let declaring = Syntax(name.syntax)
            if declaring.is(ClosureParameterSyntax.self) || declaring.is(ClosureShorthandParameterSyntax.self) {
                guard let closure = declaring.ancestor(ClosureExprSyntax.self), let call = SyntaxFacts.enclosingCall(ofClosure: closure) else { return false }
                return SyntaxFacts.calleeMethodName(call) == FrameworkContexts.shortLivedContextBlockMethod
            }
            guard let value = declaring.parent?.as(PatternBindingSyntax.self)?.initializer?.value else { return false }
            let text = value.trimmedText
            return text.contains(FrameworkContexts.shortLivedContextCall) || FrameworkContexts.shortLivedContextInitializers.contains(where: text.hasPrefix)
        }
        return false
    }

    /// An `insert(` call (SwiftData) or a managed object made with `(context:)` before the position.
    static func inserts(in body: CodeBlockSyntax, before position: AbsolutePosition) -> Bool {
        var found = false
        BodyScanner.scan(body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self), call.position < position else { return }
            if SyntaxFacts.calleeMethodName(call) == FrameworkContexts.insertMethod, SyntaxFacts.receiverText(call)?.lowercased().hasSuffix("context") == true {
                found = true
            }
            if call.arguments.first?.label?.text == FrameworkContexts.managedObjectContextLabel, SyntaxFacts.calleeMethodName(call).startsUppercase { found = true }
        }
        return found
    }

    static func recovers(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            let text = token.text
            return FrameworkContexts.discardingMethods.contains(text) || text.hasPrefix("fetch") || text.hasPrefix("find") || text.hasPrefix("existing")
        }
    }
}
