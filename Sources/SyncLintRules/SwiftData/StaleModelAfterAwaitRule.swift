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
            changed or deleted, and writing to it overwrites synced data or touches a deleted object (a reading \
            app's post-mortem: "Actor Reentrancy in ReaderService"). Capture the id before the suspension and re-fetch \
            the object after it.
            """,
        seed: "000, 001",
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
        ],
        nonTriggeringExamples: [
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
            Statements are taken in source order: an `await` in one branch and a write in another are treated \
            as sequential. Locals are tracked when their type is written or visible (`: Article`, `as? Article`, \
            `FetchDescriptor<Article>`); others are not checked. Methods called on the object are not counted \
            as writes.
            """)

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
    }

    private func analyze(_ body: some SyntaxProtocol, parameters: [(String, String)], context: FileContext) {
        var references: [String: Reference] = [:]
        for (name, typeName) in parameters where SyntaxFacts.isTypeName(typeName) {
            references[name] = Reference(typeName: typeName, obtainedAt: body.position)
        }
        var awaits: [AbsolutePosition] = []
        var reported: Set<String> = []
        BodyScanner.scan(body) { node in
            // By kind first: the scan meets every node of every async body.
            switch node.kind {
            case .awaitExpr:
                awaits.append(node.positionAfterSkippingLeadingTrivia)
            case .forStmt:
                if node.as(ForStmtSyntax.self)?.awaitKeyword != nil { awaits.append(node.positionAfterSkippingLeadingTrivia) }
            case .patternBinding:
                guard let binding = node.as(PatternBindingSyntax.self),
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
                if let typeName = Self.modelType(annotation: binding.typeAnnotation?.type, value: binding.initializer?.value) {
                    references[name] = Reference(typeName: typeName, obtainedAt: node.endPosition)
                } else {
                    references[name] = nil
                }
            case .optionalBindingCondition:
                guard let condition = node.as(OptionalBindingConditionSyntax.self),
                      let name = condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
                let value = condition.initializer?.value
                if let typeName = Self.modelType(annotation: condition.typeAnnotation?.type, value: value) ?? references[value?.trimmedText ?? ""]?.typeName {
                    references[name] = Reference(typeName: typeName, obtainedAt: node.endPosition)
                } else {
                    references[name] = nil
                }
            case .sequenceExpr:
                guard !references.isEmpty, let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
                      let path = SyntaxFacts.memberPath(target), references[path.root] != nil else { return }
                if path.members.isEmpty {
                    references[path.root]?.obtainedAt = node.endPosition  // re-assigned: a fresh reference
                } else {
                    self.check(path.root, write: target, awaits: awaits, references: references, reported: &reported, context: context)
                }
            case .functionCallExpr:
                guard !references.isEmpty, let call = node.as(FunctionCallExprSyntax.self) else { return }
                let method = SyntaxFacts.calleeMethodName(call)
                if method == "delete", let argument = call.arguments.first?.expression, references[argument.trimmedText] != nil {
                    self.check(argument.trimmedText, write: argument, awaits: awaits, references: references, reported: &reported, context: context)
                } else if Self.collectionMutations.contains(method),
                          let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
                          let path = SyntaxFacts.memberPath(receiver), !path.members.isEmpty, references[path.root] != nil {
                    self.check(path.root, write: receiver, awaits: awaits, references: references, reported: &reported, context: context)
                }
            default:
                return
            }
        }
    }

    static let collectionMutations: Set<String> = ["append", "insert", "remove", "removeAll", "removeFirst", "removeLast"]

    private func check(_ name: String, write: ExprSyntax, awaits: [AbsolutePosition], references: [String: Reference],
                       reported: inout Set<String>, context: FileContext) {
        guard let reference = references[name], !reported.contains(name),
              let suspension = awaits.last(where: { $0 > reference.obtainedAt && $0 < write.endPosition }) else { return }
        reported.insert(name)
        let typeName = reference.typeName
        let awaitLine = context.location(at: suspension).line
        context.report(write, "`\(name)` was obtained before the `await` on line \(awaitLine) and may be stale: sync may have changed or deleted it; " +
                       "capture its id before the suspension and re-fetch it after", when: .isPersistentModelNamed(typeName))
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
