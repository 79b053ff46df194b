import SwiftSyntax

/// A persistent model object written after an `await` that came after the reference was obtained.
public final class StaleModelAfterAwaitRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "stale_model_after_await",
        name: "Stale Model After Await",
        whatItDoes: """
            In an async function or task closure, finds a write to a persistent model object (a SwiftData \
            `@Model` or Core Data `NSManagedObject` subclass the index knows; parameters included): a property \
            assignment, a mutation of one of its collections, or `delete(object)`, after an `await` that came \
            after the reference was obtained, with no re-fetch in between.
            """,
        whyIsThisBad: """
            While the function is suspended, CloudKit sync and other tasks run: the object may have been \
            changed or deleted, and writing to it overwrites synced data or touches a deleted object. Capture the id before the suspension and re-fetch \
            the object after it.
            """,
        seed: "000, 001",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @Model final class Article { var id: UUID = UUID(); var content: String? }
                func fetchAndUpdate(article: Article) async throws -> Article {
                    let content = try await metadataDataSource.fetch(article.url)
                    ↓article.content = content
                    return article
                }
                """),
            RuleExample("""
                final class Item: NSManagedObject { @NSManaged var tags: [String] }
                actor Importer {
                    func tag(_ objectID: NSManagedObjectID, in context: NSManagedObjectContext) async {
                        let item = context.object(with: objectID) as! Item
                        let tags = await classifier.tags()
                        ↓item.tags.append(contentsOf: tags)
                        context.delete(item)
                    }
                }
                """),
            RuleExample("""
                @Model final class Note { var text: String = "" }
                @MainActor func purge(_ note: Note, context: ModelContext) async {
                    await sync.flush()
                    context.delete(↓note)
                }
                """),
            RuleExample("""
                @Model final class Article { var id: UUID = UUID(); var content: String?; var cached: String? }
                @MainActor func show(article: Article) async {
                    if article.cached == nil {
                        await downloader.fetch(article.id)
                    }
                    ↓article.content = article.cached
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @Model final class Article { var id: UUID = UUID(); var content: String?; var cached: String? }
                @MainActor func show(article: Article) async {
                    guard let cached = article.cached else {
                        await downloader.fetch(article.id)
                        return
                    }
                    article.content = cached
                }
                """),
            RuleExample("""
                @Model final class Article { var id: UUID = UUID(); var content: String?; var cached: String? }
                @MainActor func show(article: Article, offline: Bool) async {
                    if offline {
                        await queue.enqueue(article.id)
                    } else {
                        article.content = article.cached
                    }
                }
                """),
            RuleExample("""
                @Model final class Article { var id: UUID = UUID(); var content: String? }
                func fetchAndUpdate(article: Article) async throws -> Article {
                    let articleId = article.id
                    let content = try await metadataDataSource.fetch(article.url)
                    let predicate = #Predicate<Article> { $0.id == articleId }
                    guard let freshArticle = try modelContext.fetch(FetchDescriptor<Article>(predicate: predicate)).first else {
                        throw ReaderServiceError.articleNotFound
                    }
                    freshArticle.content = content
                    return freshArticle
                }
                """),
            RuleExample("""
                @Model final class Article { var id: UUID = UUID(); var content: String? }
                func prepare(article: Article) async {
                    article.content = nil
                    await analytics.track("prepared")
                    print(article.content ?? "")
                }
                """),
            RuleExample("""
                struct Draft { var text = "" }
                func edit(draft: Draft) async {
                    var draft = draft
                    await Task.yield()
                    draft.text = "edited"
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21): 2 findings, both wrong (live objects of the main context that the awaited call updates itself, in an app without sync). \
            An `await` counts when some path of the function's control-flow graph goes from where the reference was \
            obtained through it to the write; whether that path can really run is not known. Locals are tracked when their type is written or visible (`: Article`, `as? Article`, \
            `FetchDescriptor<Article>`); others are not checked. Methods called on the object are not counted \
            as writes.
            """,
        messages: [staleAfterAwait])
    static let staleAfterAwait = RuleMessage("stale_after_await", "`{name}` was obtained before the `await` on line {awaitLine} and may be stale: sync may have changed or deleted it; capture its id before the suspension and re-fetch it after")

    public static let nodeKinds: Set<SyntaxKind> = [.functionDecl, .closureExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        if let function = node.as(FunctionDeclSyntax.self), let body = function.body,
           function.signature.effectSpecifiers?.asyncSpecifier != nil {
            let parameters = function.signature.parameterClause.parameters.map {
                (($0.secondName ?? $0.firstName).text, DeclarationCollector.unwrapped($0.type))
            }
            analyze(body, parameters: parameters, context: context)
        } else if let closure = node.as(ClosureExprSyntax.self), let frame = context.scope.currentClosure {
            switch frame.kind {
            case .task, .detachedTask, .viewTask, .taskGroupChild: analyze(closure.statements, parameters: [], context: context)
            default: break
            }
        }
    }

    private struct Reference {
        let typeName: String
        var obtainedAt: AbsolutePosition
        /// The statement, condition or assignment that obtained it; nil for a parameter (the body's entry).
        var obtainedBy: Syntax?
    }

    private func analyze(_ body: some SyntaxProtocol, parameters: [(String, String)], context: FileContext) {
        var references: [String: Reference] = [:]
        for (name, typeName) in parameters where SyntaxFacts.isTypeName(typeName) {
            references[name] = Reference(typeName: typeName, obtainedAt: body.position, obtainedBy: nil)
        }
        var awaits: [(position: AbsolutePosition, node: Syntax)] = []
        var reported: Set<String> = []
        BodyScanner.scan(body) { node in
            // By kind first: the scan meets every node of every async body.
            switch node.kind {
            case .awaitExpr:
                awaits.append((node.positionAfterSkippingLeadingTrivia, node))
            case .forStmt:
                // The graph's `for await` suspension stands at the `for` keyword.
                if let loop = node.as(ForStmtSyntax.self), loop.awaitKeyword != nil {
                    awaits.append((node.positionAfterSkippingLeadingTrivia, Syntax(loop.forKeyword)))
                }
            case .patternBinding:
                guard let binding = node.as(PatternBindingSyntax.self),
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
                if let typeName = Self.modelType(annotation: binding.typeAnnotation?.type, value: binding.initializer?.value) {
                    let declaration = node.ancestorOrSelf(mapping: { $0.as(VariableDeclSyntax.self) }).map(Syntax.init)
                    references[name] = Reference(typeName: typeName, obtainedAt: node.endPosition, obtainedBy: declaration)
                } else {
                    references[name] = nil
                }
            case .optionalBindingCondition:
                guard let condition = node.as(OptionalBindingConditionSyntax.self),
                      let name = condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
                let value = condition.initializer?.value
                if let typeName = Self.modelType(annotation: condition.typeAnnotation?.type, value: value) ?? references[value?.trimmedText ?? ""]?.typeName {
                    references[name] = Reference(typeName: typeName, obtainedAt: node.endPosition, obtainedBy: node.parent)
                } else {
                    references[name] = nil
                }
            case .sequenceExpr:
                guard !references.isEmpty, let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
                      let path = SyntaxFacts.memberPath(target), references[path.root] != nil else { return }
                if path.members.isEmpty {
                    references[path.root]?.obtainedAt = node.endPosition  // re-assigned: a fresh reference
                    references[path.root]?.obtainedBy = node
                } else {
                    self.check(path.root, write: target, at: node, in: body, awaits: awaits, references: references,
                               reported: &reported, context: context)
                }
            case .functionCallExpr:
                guard !references.isEmpty, let call = node.as(FunctionCallExprSyntax.self) else { return }
                let method = SyntaxFacts.calleeMethodName(call)
                if method == "delete", let argument = call.arguments.first?.expression, references[argument.trimmedText] != nil {
                    self.check(argument.trimmedText, write: argument, at: node, in: body, awaits: awaits, references: references,
                               reported: &reported, context: context)
                } else if Self.collectionMutations.contains(method),
                          let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
                          let path = SyntaxFacts.memberPath(receiver), !path.members.isEmpty, references[path.root] != nil {
                    self.check(path.root, write: receiver, at: node, in: body, awaits: awaits, references: references,
                               reported: &reported, context: context)
                }
            default:
                return
            }
        }
    }

    static let collectionMutations: Set<String> = ["append", "insert", "remove", "removeAll", "removeFirst", "removeLast"]

    /// Reports the write when an `await` lies on some path from where the reference was obtained to the write
    /// (`event`: the assignment or call that writes). One in a branch the write is not on, or in a `guard`'s
    /// `else` that leaves, is not.
    private func check(_ name: String, write: ExprSyntax, at event: Syntax, in body: some SyntaxProtocol,
                       awaits: [(position: AbsolutePosition, node: Syntax)], references: [String: Reference],
                       reported: inout Set<String>, context: FileContext) {
        guard let reference = references[name], !reported.contains(name) else { return }
        let candidates = awaits.filter { $0.position > reference.obtainedAt && $0.position < write.endPosition }
        guard !candidates.isEmpty, let built = context.controlFlowGraph(of: body) else { return }
        let graph = built.graph
        let obtained = reference.obtainedBy.map { built.nodes(for: $0) } ?? [graph.entry]
        let writes = Set(built.nodes(for: event))
        let afterObtaining = obtained.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1)) }
        // A write or reference the graph does not hold (an unusual binding) keeps the source-order answer.
        let onTheWay = obtained.isEmpty || writes.isEmpty ? candidates : candidates.filter { suspension in
            built.nodes(for: suspension.node).contains { node in
                afterObtaining.contains(node) && !graph.reachable(from: node).isDisjoint(with: writes)
            }
        }
        guard let suspension = onTheWay.last?.position else { return }
        reported.insert(name)
        let typeName = reference.typeName
        let awaitLine = context.location(at: suspension).line
        var notes = [FindingNote("the task suspends here", at: context.location(at: suspension))]
        if let obtainedBy = reference.obtainedBy { notes.insert(context.note("`\(name)` is obtained here", at: obtainedBy), at: 0) }
        context.report(write, Self.staleAfterAwait, ["name": name, "awaitLine": String(awaitLine)], when: .isPersistentModelNamed(typeName),
                       notes: notes)
    }

    /// The model type a binding holds, when it is visible: `: Article`, `as? Article`, `FetchDescriptor<Article>`.
    /// (Whether it really is a model is asked of the index later.)
    static func modelType(annotation: TypeSyntax?, value: ExprSyntax?) -> String? {
        if let annotation {
            let name = DeclarationCollector.unwrapped(annotation)
            return SyntaxFacts.isTypeName(name) ? name : nil
        }
        guard let value else { return nil }
        // `x as? Article`: the parser leaves it unfolded, as `x`, `as?`, `Article` in a sequence.
        if let elements = value.as(SequenceExprSyntax.self)?.elements {
            let parts = Array(elements)
            for index in parts.indices.dropLast() where parts[index].is(UnresolvedAsExprSyntax.self) {
                if let type = parts[index + 1].as(TypeExprSyntax.self)?.type { return DeclarationCollector.unwrapped(type) }
            }
        }
        for token in value.tokens(viewMode: .sourceAccurate) {
            if token.text == "FetchDescriptor", let generic = token.parent?.parent?.as(GenericSpecializationExprSyntax.self)
                ?? token.parent?.parent?.parent?.as(GenericSpecializationExprSyntax.self),
               let argument = generic.genericArgumentClause.arguments.first {
                return argument.argument.trimmedText
            }
        }
        return nil
    }
}
