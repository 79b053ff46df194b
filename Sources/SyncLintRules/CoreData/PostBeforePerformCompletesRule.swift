import SwiftSyntax

/// A statement after an asynchronous `perform { }` that depends on the block having run.
public final class PostBeforePerformCompletesRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "post_before_perform_completes",
        name: "Post Before Perform Completes",
        whatItDoes: """
            Finds a statement right after an asynchronous `context.perform { }` (not `performAndWait`, not \
            `await context.perform`) in the same scope that posts a notification, calls a completion handler, or \
            reads state the block changes; when the `perform` sits in an `#if` clause, the statements after the \
            `#if` count too (but not the other clauses of the same `#if`, which are never built with it).
            """,
        whyIsThisBad: """
            `perform` only enqueues the block and returns at once, so the next statement runs before the block: \
            observers are told to reload before the refresh happened and read old data. Move the statement into the block \
            (hopping to the main thread if it must run there), or `await context.perform { }`.
            """,
        seed: "004",
        triggeringExamples: [
            RuleExample("""
                final class CoreDataManager {
                    private func processRemoteChange() {
                        viewContext.perform {
                            self.viewContext.refreshAllObjects()
                        }

                        // ISSUE: Posting notification immediately, before refresh completes
                        ↓NotificationCenter.default.post(
                            name: .coreDataRemoteChange,
                            object: nil
                        )
                    }
                }
                """),
            RuleExample("""
                final class Importer {
                    var imported = 0
                    func importAll(_ records: [Record], completion: @escaping (Int) -> Void) {
                        backgroundContext.perform {
                            for record in records { _ = Item(record: record, context: self.backgroundContext) }
                            self.imported = records.count
                        }
                        ↓completion(imported)
                    }
                }
                """),
            // A parameter of any name with a function type is a completion handler; a stored `handler` is one by name only.
            RuleExample("""
                final class Exporter {
                    func export(then finish: @escaping () -> Void) {
                        context.perform { self.context.refreshAllObjects() }
                        ↓finish()
                    }
                }
                """, confidence: .high),
            RuleExample("""
                final class Exporter {
                    var handler: () -> Void = {}
                    func export() {
                        context.perform { self.context.refreshAllObjects() }
                        ↓handler()
                    }
                }
                """, confidence: .medium),
            RuleExample("""
                final class NoteStore {
                    func reloadAfterSync() {
                        #if os(iOS)
                        viewContext.perform {
                            self.viewContext.refreshAllObjects()
                        }
                        #else
                        viewContext.refreshAllObjects()
                        #endif
                        ↓NotificationCenter.default.post(name: .notesDidReload, object: nil)
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                final class CoreDataManager {
                    private func processRemoteChange() {
                        viewContext.perform {
                            self.viewContext.refreshAllObjects()

                            // Post notification AFTER refresh completes, on main thread
                            DispatchQueue.main.async {
                                NotificationCenter.default.post(name: .coreDataRemoteChange, object: nil)
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Importer {
                    func importAll() async {
                        await backgroundContext.perform {
                            self.backgroundContext.refreshAllObjects()
                        }
                        NotificationCenter.default.post(name: .didImport, object: nil)
                        context.performAndWait { try? context.save() }
                        completion()
                    }
                }
                """),
            RuleExample("""
                final class Cleaner {
                    func purge() {
                        backgroundContext.perform { self.deleteAll() }
                        logger.info("purge scheduled")
                    }
                }
                """),
            RuleExample("""
                final class NoteStore {
                    func reloadAfterSync() {
                        #if os(iOS)
                        viewContext.perform {
                            self.viewContext.refreshAllObjects()
                            NotificationCenter.default.post(name: .notesDidReload, object: nil)
                        }
                        #else
                        viewContext.refreshAllObjects()
                        NotificationCenter.default.post(name: .notesDidReload, object: nil)
                        #endif
                    }
                }
                """),
        ],
        knownLimitations: """
            "State the block changes" means properties of `self` the block assigns; a read of the context's objects \
            after the block is not followed. A completion handler is a parameter of the function with a function type \
            (high confidence), or a callee named like one (`completion`, `completionHandler`, `handler`, `done`, \
            `onComplete`), which is a guess from the name and has medium confidence.
            """,
        messages: [runsBeforeBlock])
    static let runsBeforeBlock = RuleMessage("runs_before_block", "this {reason} runs before the `perform` block above, which only enqueues it; move it into the block or `await` the `perform`")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    /// Completion handlers by name (`FrameworkContexts.completionParameterNames`).
    static let completionNames = FrameworkContexts.completionParameterNames

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), context.calleeMethodName(call) == FrameworkContexts.performMethod,
              let block = SyntaxFacts.closures(of: call).first, SyntaxFacts.receiverText(call) != nil,
              let item = call.parent?.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return }
        var changed: Set<String> = []
        BodyScanner.scan(block.statements) { node in
            if let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
               let path = SyntaxFacts.memberPath(target), path.root == "self", let first = path.members.first {
                changed.insert(first)
            }
        }
        // A completion handler is known for certain when it is a parameter of the function with a function type
        // (`completion: @escaping (Int) -> Void`); any other callee is one only by its name (medium confidence).
        let closureParameters = Set((context.scope.currentFunction?.parameters ?? []).filter { $0.typeName.contains("->") }.map(\.name))
        for statement in Self.statementsRunningAfter(item, in: list) {
            if let dependency = Self.dependsOnBlock(statement, changed: changed, closureParameters: closureParameters) {
                context.report(statement, Self.runsBeforeBlock, ["reason": dependency.reason],
                               notes: [context.note("the `perform` block is enqueued here", at: call)],
                               confidence: dependency.byNameOnly ? .medium : .high)
                return
            }
        }
    }

    /// The statements that run after `item` in its function: the rest of its list and, when the list is one
    /// clause of an `#if` (`#if os(iOS) context.perform { } #endif`), the statements after that `#if`, which
    /// run after the clause in whichever build compiles it. The other clauses of the same `#if` are left out:
    /// they are never compiled together with it (`IfConfigFacts.areExclusive`).
    static func statementsRunningAfter(_ item: CodeBlockItemSyntax, in list: CodeBlockItemListSyntax) -> [CodeBlockItemSyntax] {
        var result: [CodeBlockItemSyntax] = []
        var currentItem = item
        var currentList = list
        while true {
            result += currentList.drop { $0.id != currentItem.id }.dropFirst()
            guard let clause = currentList.parent?.as(IfConfigClauseSyntax.self),
                  let decl = clause.parent?.parent?.as(IfConfigDeclSyntax.self),
                  let outerItem = decl.parent?.as(CodeBlockItemSyntax.self),
                  let outerList = outerItem.parent?.as(CodeBlockItemListSyntax.self) else { return result }
            currentItem = outerItem
            currentList = outerList
        }
    }

    /// What in `statement` depends on the block having run, and whether only a callee's name says so.
    static func dependsOnBlock(_ statement: CodeBlockItemSyntax, changed: Set<String>,
                               closureParameters: Set<String>) -> (reason: String, byNameOnly: Bool)? {
        var dependency: (reason: String, byNameOnly: Bool)?
        BodyScanner.scan(statement) { node in
            guard dependency == nil else { return }
            if let call = node.as(FunctionCallExprSyntax.self) {
                let method = SyntaxFacts.calleeMethodName(call)
                if method == FrameworkContexts.notificationPostMethod, SyntaxFacts.argument(FrameworkContexts.notificationPostNameLabel, of: call) != nil {
                    dependency = ("notification post", false)
                } else if call.calledExpression.is(DeclReferenceExprSyntax.self),
                          closureParameters.contains(method) || completionNames.contains(method) {
                    dependency = ("completion call", !closureParameters.contains(method))
                }
            } else if let property = NotificationHandlers.selfPropertyAccess(node, locals: []), changed.contains(property) {
                dependency = ("read of `\(property)`", false)
            }
        }
        return dependency
    }
}
