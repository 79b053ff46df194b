import SwiftSyntax

/// A loading flag set to `true` that some exit leaves set.
public final class LoadingStateNotResetRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "loading_state_not_reset",
        name: "Loading State Not Reset",
        whatItDoes: """
            Finds a function that sets a loading flag (`isLoading`, `isFetching`, `isRefreshing`, `isSaving`, \
            `isSyncing`; configurable) to `true` and then leaves on some path (a `return`, a `throw`, a guard's \
            `else`, or a `try` that can throw out of the function) without setting it back to `false` first, \
            with no `defer` that does.
            """,
        whyIsThisBad: """
            The flag drives a spinner. An early return or a thrown error that skips the reset leaves the spinner \
            turning forever, and often blocks the next load too (a reading app's post-mortem: "`isLoading = false` \
            guaranteed in all paths"). A `defer { isLoading = false }` right after setting it covers every exit.
            """,
        seed: "000, 001",
        options: [RuleOptionDescription("flags", default: "[isLoading, isFetching, isRefreshing, isSaving, isSyncing]",
                                        "names of the Bool properties that drive progress UI")],
        triggeringExamples: [
            RuleExample("""
                func loadContent() async {
                    isLoading = true
                    do {
                        articleContent = try await service.fetch(article)
                    } catch {
                        errorMessage = error.localizedDescription
                        ↓return
                    }
                    isLoading = false
                }
                """, fixed: """
                func loadContent() async {
                    isLoading = true
                    defer { isLoading = false }
                    do {
                        articleContent = try await service.fetch(article)
                    } catch {
                        errorMessage = error.localizedDescription
                        return
                    }
                    isLoading = false
                }
                """),
            RuleExample("""
                func refresh() async throws {
                    self.isRefreshing = true
                    guard let account else { ↓return }
                    let items = try await api.items(for: account)
                    self.items = items
                    self.isRefreshing = false
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                func refresh() async throws {
                    isRefreshing = true
                    defer { isRefreshing = false }
                    guard let account else { return }
                    items = try await api.items(for: account)
                }
                """),
            RuleExample("""
                func loadContent() async {
                    guard articleContent == nil else { return }
                    loadingTask?.cancel()
                    isLoading = true
                    let task = Task { [weak self] in
                        guard let self else { return }
                        do {
                            try Task.checkCancellation()
                            articleContent = try await readerService.fetchContent(for: article)
                        } catch is CancellationError {
                        } catch {
                            errorMessage = error.localizedDescription
                        }
                        isLoading = false
                    }
                    loadingTask = task
                    await task.value
                }
                """),
            RuleExample("""
                func save() async {
                    isSaving = true
                    do {
                        try await store.save()
                    } catch {
                        isSaving = false
                        return
                    }
                    isSaving = false
                }
                """),
        ],
        knownLimitations: """
            Paths are followed through the function's own statements: a reset in a helper called before the exit, \
            or in a completion handler, is not seen and the exit is reported. A function that falls off its end \
            without a reset is not reported (the reset may come from elsewhere). One finding per flag and function: \
            the first exit that skips the reset. The fix (unsafe: the flag now turns `false` when the function \
            returns, after any code that followed the old reset) adds `defer { flag = false }` right after the \
            assignment, only when that assignment is a statement of the function body itself, not nested in an \
            `if` or a loop.
            """,
        fixSafety: .unsafe)

    public static let nodeKinds: Set<SyntaxKind> = [.sequenceExpr, .functionDecl]

    static let defaultFlags = ["isLoading", "isFetching", "isRefreshing", "isSaving", "isSyncing"]
    private let flags: Set<String>
    /// Functions seen setting a flag to `true` during the walk: only those are analysed, on exit.
    private var candidates: Set<SyntaxIdentifier> = []

    public init(options: RuleOptions) {
        flags = Set(options.strings("flags", default: Self.defaultFlags))
    }

    public func enter(_ node: Syntax, context: FileContext) {
        guard let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
              SyntaxFacts.boolLiteral(assignment.value) == true,
              let flag = FlowFacts.selfProperty(assignment.target, locals: []), flags.contains(flag),
              let function = context.scope.currentFunction, function.node.is(FunctionDeclSyntax.self) else { return }
        candidates.insert(function.node.id)
    }

    public func exit(_ node: Syntax, context: FileContext) {
        guard candidates.contains(node.id), let function = node.as(FunctionDeclSyntax.self), let body = function.body else { return }
        let throwsOut = function.signature.effectSpecifiers?.throwsClause != nil
        var sets: [(flag: String, node: Syntax)] = []
        var resets: [(flag: String, node: Syntax)] = []
        var exits: [Syntax] = []
        var deferredResets: Set<String> = []
        BodyScanner.scan(body) { node in
            if let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
               let flag = FlowFacts.selfProperty(assignment.target, locals: []), self.flags.contains(flag),
               let value = SyntaxFacts.boolLiteral(assignment.value) {
                if value { sets.append((flag, node)) } else { resets.append((flag, node)) }
                if !value, node.ancestorOrSelf(mapping: { $0.as(DeferStmtSyntax.self) }) != nil { deferredResets.insert(flag) }
            } else if node.is(ReturnStmtSyntax.self) || node.is(ThrowStmtSyntax.self) {
                exits.append(node)
            } else if throwsOut, let tryExpr = node.as(TryExprSyntax.self), tryExpr.questionOrExclamationMark == nil,
                      !Self.isCaughtInside(tryExpr, body: body) {
                exits.append(node)
            }
        }
        for set in sets where !deferredResets.contains(set.flag) {
            let flagResets = resets.filter { $0.flag == set.flag }.map(\.node)
            guard let exit = exits.first(where: { exit in
                Self.isReachable(exit, from: set.node, root: body) && !flagResets.contains { Self.resets($0, before: exit, after: set.node, root: body) }
            }) else { continue }
            let setLine = context.location(of: set.node).line
            context.report(exit, "this exit leaves `\(set.flag)` true (set on line \(setLine)); add `defer { \(set.flag) = false }` right after setting it")
        }
    }

    /// Inside a `do` body (not its catch clauses) whose catch clauses would catch the error.
    static func isCaughtInside(_ node: TryExprSyntax, body: CodeBlockSyntax) -> Bool {
        var current = Syntax(node)
        while let parent = current.parent, parent.id != body.id {
            if let doStatement = parent.as(DoStmtSyntax.self), doStatement.body.id == current.id, !doStatement.catchClauses.isEmpty {
                return true
            }
            current = parent
        }
        return false
    }

    /// Whether `exit` can run after `start`: it comes later in a list enclosing `start`, or in a catch
    /// clause of the `do` whose body holds `start`. Exits in an `else` of the `if` that set the flag cannot.
    static func isReachable(_ exit: Syntax, from start: Syntax, root: CodeBlockSyntax) -> Bool {
        guard exit.position > start.position else { return false }
        let startLists = FlowFacts.enclosingLists(of: start, upTo: root.id)
        for list in startLists {
            guard let startItem = item(of: start, in: list), let exitItem = item(of: exit, in: list) else { continue }
            if startItem.id != exitItem.id { return true }
            // Same statement, different branches: only a do/catch lets control pass from one to the other.
            if let doStatement = startItem.item.as(DoStmtSyntax.self) {
                return start.isInside(doStatement.body) && doStatement.catchClauses.contains { exit.isInside($0) }
            }
            return false
        }
        return false
    }

    /// A reset dominates the exit when it comes after the set, before the exit, in a list that encloses the exit.
    static func resets(_ reset: Syntax, before exit: Syntax, after start: Syntax, root: CodeBlockSyntax) -> Bool {
        guard reset.position > start.position, reset.position < exit.position,
              let resetList = FlowFacts.enclosingItem(of: reset)?.list else { return false }
        return exit.isInside(resetList)
    }

    static func item(of node: Syntax, in list: CodeBlockItemListSyntax) -> CodeBlockItemSyntax? {
        var current = node
        while let parent = current.parent {
            if parent.id == list.id { return current.as(CodeBlockItemSyntax.self) }
            current = parent
        }
        return nil
    }
}
