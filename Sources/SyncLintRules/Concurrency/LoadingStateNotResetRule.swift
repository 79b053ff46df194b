import SwiftSyntax

/// A loading flag set to `true` that some exit leaves set.
public final class LoadingStateNotResetRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "loading_state_not_reset",
        name: "Loading State Not Reset",
        whatItDoes: """
            Finds a function that sets a loading flag (`isLoading`, `isFetching`, `isRefreshing`, `isSaving`, \
            `isSyncing`; configurable; also with a suffix, `isLoadingAbout`, `isFetchingMore`, but not settings such as \
            `isSyncingEnabled`) to `true` and then leaves on some path (a `return`, a `throw`, a guard's \
            `else`, or a `try` that can throw out of the function) without setting it back to `false` first, \
            with no `defer` that does; or whose `do` resets it on success while its catch-all and everything after \
            leave it set.
            """,
        whyIsThisBad: """
            The flag drives a spinner. An early return or a thrown error that skips the reset leaves the spinner \
            turning forever, and often blocks the next load too. A `defer { isLoading = false }` right after setting it covers every exit.
            """,
        seed: "000, 001",
        // Opt-in: judged on apps nobody tuned on (docs/precision.md, "Test half"), it fell far short of the bar for
        // a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
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
                """, message: "exit_leaves_flag_set", notes: ["`isLoading` is set to true here"], confidence: .high),
            RuleExample("""
                func refresh() async throws {
                    self.isRefreshing = true
                    guard let account else { ↓return }
                    let items = try await api.items(for: account)
                    self.items = items
                    self.isRefreshing = false
                }
                """),
            RuleExample("""
                func loadAbout() async {
                    isLoadingAbout = true
                    guard let instance else { ↓return }
                    about = await client.about(instance)
                    isLoadingAbout = false
                }
                """),
            RuleExample("""
                func fetchMore() async {
                    isFetchingMore = true
                    do {
                        items += try await api.page(after: items.last)
                        isFetchingMore = false
                    } ↓catch {
                        errorMessage = error.localizedDescription
                    }
                }
                """, message: "catch_leaves_flag_set", notes: ["`isFetchingMore` is set to true here"], confidence: .high),
            // Nothing in the function resets the flag: only its name says it is loading state.
            RuleExample("""
                func prepare(_ ready: Bool) {
                    isSyncing = true
                    guard ready else { ↓return }
                    startSync()
                }
                """, message: "exit_leaves_flag_set", confidence: .medium),
            RuleExample("""
                func refreshFeed() {
                    isRefreshingFeed = true
                    guard let account else { ↓return }
                    api.feed(for: account) { items in
                        self.items = items
                        self.isRefreshingFeed = false
                    }
                }
                """),
            RuleExample("""
                func load() async throws {
                    isLoading = true
                    guard let url else { ↓throw LoadError.missingURL }
                    items = try await api.items(at: url)
                    isLoading = false
                }
                """),
            RuleExample("""
                func load(_ strategy: LoadStrategy) async {
                    if strategy == .background { isRefreshing = true } else { isLoading = true }
                    guard let client else {
                        if strategy == .background { isRefreshing = false }
                        ↓return
                    }
                    posts = await client.posts()
                    if strategy == .background { isRefreshing = false } else { isLoading = false }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                func load(_ strategy: LoadStrategy) async {
                    if strategy == .background { isRefreshing = true } else { isLoading = true }
                    guard let client else {
                        if strategy == .background { isRefreshing = false } else { isLoading = false }
                        return
                    }
                    posts = await client.posts()
                    if strategy == .background { isRefreshing = false } else { isLoading = false }
                }
                """),
            RuleExample("""
                func switchAccount() async {
                    isLoading = true
                    defer { isLoading = false }
                    do {
                        try await session.switchAccount()
                        isLoading = false
                    } catch {
                        errorMessage = error.localizedDescription
                    }
                }
                """),
            RuleExample("""
                func load() async {
                    isLoading = true
                    do {
                        guard let url else { throw LoadError.missingURL }
                        items = try await api.items(at: url)
                    } catch {
                        errorMessage = error.localizedDescription
                    }
                    isLoading = false
                }
                """, message: "exit_leaves_flag_set", notes: ["`isLoading` is set to true here"], confidence: .high),
            RuleExample("""
                func refresh() async throws {
                    isRefreshing = true
                    if let account {
                        items = try? await api.items(for: account)
                        isRefreshing = false
                        return
                    } else {
                        isRefreshing = false
                        return
                    }
                }
                """),
            RuleExample("""
                final class FeedModel {
                    func fetchMore() async {
                        isFetchingMore = true
                        guard let cursor else { finish(); return }
                        items += await api.page(after: cursor)
                        isFetchingMore = false
                    }
                    func finish() { isFetchingMore = false }
                }
                """),
            RuleExample("""
                func loadChapter() async {
                    isLoadingChapter = true
                    guard await reader.hasPages else {
                        await MainActor.run { isLoadingChapter = false }
                        return
                    }
                    isLoadingChapter = false
                }
                """),
            RuleExample("""
                func toggleSync() {
                    isSyncingEnabled = true
                    guard let account else { return }
                    sync(account)
                }
                """),
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
            Opt-in by its figure on 25 apps nobody tuned on (docs/precision.md, round of issue 21): 1 of 12 findings over the round was right (the flag reset by a task started before the return, a `defer`, or the caller's `catch`). \
            Paths are those of the function's control-flow graph (a `throw` that its own `catch` handles does not \
            leave it; a `defer` runs on every exit after it); a reset in a closure that runs at once \
            (`MainActor.run`, `withAnimation`, `performAndWait`) counts, and so does a call of a method of the same type \
            that resets the flag on every path (its function summary). A reset only inside a completion handler does \
            not count for an exit before it. Two `if`s on the same condition over \
            parameters only (which cannot change in between) take the same side: the flag set under one side and an \
            exit under the other is no path. The catch-all check asks the graph too (a `defer` reset covers it). \
            A function that falls off its end \
            without a reset is not reported (the reset may come from elsewhere). One finding per flag and function: \
            the first exit that skips the reset. The fix (unsafe: the flag now turns `false` when the function \
            returns, after any code that followed the old reset) adds `defer { flag = false }` right after the \
            assignment, only when that assignment is a statement of the function body itself, not nested in an \
            `if` or a loop. The flag is found by its name: when the function never resets it itself, the name is all \
            that says it is loading state, and the finding has medium confidence (shown with `--confidence medium`).
            """,
        fixSafety: .unsafe,
        messages: [exitLeavesFlagSet, catchLeavesFlagSet])
    static let exitLeavesFlagSet = RuleMessage("exit_leaves_flag_set", "this exit leaves `{flag}` true (set on line {setLine}); add `defer { {flag} = false }` right after setting it")
    static let catchLeavesFlagSet = RuleMessage("catch_leaves_flag_set", "when this catch runs, `{flag}` stays true (set on line {setLine}): only the `do` resets it; add `defer { {flag} = false }` right after setting it")

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
              let flag = FlowFacts.selfProperty(assignment.target, locals: []), isFlag(flag),
              let function = context.scope.currentFunction, function.node.is(FunctionDeclSyntax.self) else { return }
        candidates.insert(function.node.id)
    }

    public func exit(_ node: Syntax, context: FileContext) {
        guard candidates.contains(node.id), let function = node.as(FunctionDeclSyntax.self), let body = function.body,
              let built = context.controlFlowGraph(of: function) else { return }
        var sets: [(flag: String, node: Syntax)] = []
        var resets: [(flag: String, node: Syntax)] = []
        var exits: [Syntax] = []
        BodyScanner.scan(body) { node in
            if let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
               let flag = FlowFacts.selfProperty(assignment.target, locals: []), self.isFlag(flag),
               let value = SyntaxFacts.boolLiteral(assignment.value) {
                if value { sets.append((flag, node)) } else { resets.append((flag, node)) }
            } else if let call = node.as(FunctionCallExprSyntax.self), Self.runsClosureNow(call) {
                // `await MainActor.run { isLoading = false }`, `withAnimation { ... }`: the closure runs before the
                // call returns, so its reset counts where the call stands.
                for closure in SyntaxFacts.closures(of: call) {
                    for token in closure.tokens(viewMode: .sourceAccurate) where self.isFlag(token.text)
                        && Self.mentionsReset(token.text, in: Syntax(closure)) {
                        resets.append((token.text, node))
                    }
                }
            } else if node.is(ReturnStmtSyntax.self) || node.is(ThrowStmtSyntax.self)
                        || node.as(TryExprSyntax.self)?.questionOrExclamationMark == nil && node.is(TryExprSyntax.self) {
                exits.append(node)
            }
        }
        let typeName = context.scope.currentType?.qualifiedName
        let helperCalls = FlowFacts.selfMethodCalls(in: body)
        var reported: Set<String> = []
        let branches = Self.correlatedBranches(in: body, parameters: Set(function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }))
        for set in sets where !reported.contains(set.flag) {
            let flag = set.flag
            let setLine = context.location(of: set.node).line
            let arguments = ["flag": flag, "setLine": String(setLine)]
            let notes = [context.note("`\(flag)` is set to true here", at: set.node)]
            let resetNodes = Set(resets.filter { $0.flag == flag }.flatMap { built.nodes(for: $0.node) })
            let question = UnresetExit(graph: built.graph, starts: built.nodes(for: set.node), resets: resetNodes, branches: branches)
            // The first exit, in source order, that some path from the set reaches and leaves by with no reset.
            if let exit = exits.first(where: { exit in question.leaks(through: built.nodes(for: exit), avoiding: []) }) {
                reported.insert(flag)
                let exitNodes = built.nodes(for: exit)
                // The flag is known to be loading state by its name; the function's own reset on another path
                // proves it is meant to go back to false. Without one, the name is all there is: medium.
                let confidence: Confidence = resets.contains { $0.flag == flag } ? .high : .medium
                // A method of `self` called on the way that resets the flag on every path of its own resets it here.
                let helpers = Dictionary(grouping: helperCalls.flatMap { call in built.nodes(for: call.node).map { (call.name, $0) } }, by: \.0)
                    .mapValues { Set($0.map(\.1)) }
                let allHelperNodes = helpers.values.reduce(into: Set<Int>()) { $0.formUnion($1) }
                if helpers.isEmpty || question.leaks(through: exitNodes, avoiding: allHelperNodes) {
                    context.report(exit, Self.exitLeavesFlagSet, arguments, notes: notes, confidence: confidence)
                    continue
                }
                // Which helpers must reset the flag is known only once the index is built; the graph is not kept,
                // so the sets of helpers that would close every leaking path are worked out now, as data.
                let closing = Self.closingHelperSets(helpers) { question.leaks(through: exitNodes, avoiding: $0) }
                let anyClosingSetResets = IndexCondition.any(closing.map { names in
                    .all(names.map { .someResetsOnEveryPath([FunctionKey(typeName: typeName, name: $0)], flag: flag) })
                })
                context.report(exit, Self.exitLeavesFlagSet, arguments, when: .not(anyClosingSetResets), notes: notes, confidence: confidence)
                continue
            }
            // A failure branch: the `do` resets the flag when the work succeeds, its catch-all does not, and
            // nothing after the `do` statement resets it either.
            let flagResets = resets.filter { $0.flag == flag }.map(\.node)
            // A completion handler after the `do` that resets the flag may cover the failure: its closure counts
            // as a reset where it stands.
            let closureResets = Self.closuresResetting(flag, in: body).flatMap { built.nodes(for: $0) }
            let failure = UnresetExit(graph: built.graph, starts: built.nodes(for: set.node), resets: resetNodes.union(closureResets))
            guard let branch = Self.failureBranchWithoutReset(flag, from: set.node, resets: flagResets, in: body,
                                                              leavesSet: { failure.leavesSet(through: built.nodes(for: $0)) }) else { continue }
            reported.insert(flag)
            let helpers = FlowFacts.selfMethodCalls(in: branch.clause.body).map(\.name)
                + FlowFacts.selfMethodCalls(in: body).filter { $0.node.position > branch.statement.endPosition }.map(\.name)
            context.report(branch.clause.catchKeyword, Self.catchLeavesFlagSet, arguments,
                           when: .not(.someResets(helpers.map { FunctionKey(typeName: typeName, name: $0) }, flag: flag)), notes: notes)
        }
    }

    /// "From where the flag is set, does some path reach this exit and leave the function by it (a `return` to
    /// the exit, a `throw` or `try` whose error leaves, running the `defer`s on the way) with no reset?"
    /// Plain values: a pending finding asks it again once the index says which helper calls reset the flag.
    /// The smallest sets of helper names whose calls, if each helper resets the flag on every path of its own,
    /// leave no path from the set to the exit without a reset (`leaks(nodes)`: a path avoids those nodes).
    /// Up to eight helpers every subset is tried; beyond that, each helper alone and all of them together.
    static func closingHelperSets(_ helpers: [String: Set<Int>], leaks: (Set<Int>) -> Bool) -> [[String]] {
        let names = helpers.keys.sorted()
        let candidates: [[String]]
        if names.count <= 8 {
            candidates = (1..<(1 << names.count)).map { mask in names.indices.filter { mask & (1 << $0) != 0 }.map { names[$0] } }
                .sorted { $0.count < $1.count }
        } else {
            candidates = names.map { [$0] } + [names]
        }
        var closing: [[String]] = []
        for candidate in candidates where !closing.contains(where: { Set($0).isSubset(of: candidate) }) {
            let nodes = candidate.reduce(into: Set<Int>()) { $0.formUnion(helpers[$1] ?? []) }
            if !leaks(nodes) { closing.append(candidate) }
        }
        return closing
    }

    /// `if` statements of the body on the same condition over the function's parameters only (which cannot
    /// change): the flag set on one side and the exit on the other side of the same condition is no path.
    static func correlatedBranches(in body: CodeBlockSyntax, parameters: Set<String>) -> CorrelatedBranches {
        var byCondition: [String: [CorrelatedBranches.Branch]] = [:]
        BodyScanner.scan(body) { node in
            guard let ifExpression = node.as(IfExprSyntax.self), ifExpression.conditions.count == 1,
                  let only = ifExpression.conditions.first, case .expression(let condition) = only.condition else { return }
            // Every name the condition reads is a parameter (members after a dot are not names it reads).
            let names = condition.tokens(viewMode: .sourceAccurate).filter { token in
                if case .identifier = token.tokenKind { return token.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period }
                return token.tokenKind == .keyword(.self)
            }
            guard !names.isEmpty, names.allSatisfy({ parameters.contains($0.text) }) else { return }
            let then = ifExpression.body.positionAfterSkippingLeadingTrivia.utf8Offset..<ifExpression.body.endPositionBeforeTrailingTrivia.utf8Offset
            let otherwise = ifExpression.elseBody.map { $0.positionAfterSkippingLeadingTrivia.utf8Offset..<$0.endPositionBeforeTrailingTrivia.utf8Offset }
            let conditionRange = condition.positionAfterSkippingLeadingTrivia.utf8Offset..<condition.endPositionBeforeTrailingTrivia.utf8Offset
            byCondition[condition.trimmedDescription, default: []].append(.init(condition: conditionRange, then: then, otherwise: otherwise))
        }
        return CorrelatedBranches(groups: byCondition.keys.sorted().compactMap { key in
            byCondition[key].flatMap { $0.count >= 2 ? $0 : nil }
        }.prefix(4).map { $0 })
    }

    struct UnresetExit: Sendable {
        let graph: ControlFlowGraph
        let starts: [Int]
        let resets: Set<Int>
        var branches = CorrelatedBranches(groups: [])

        /// From the set, some path enters the catch clause (`clauseNodes`, its entry) and goes on from it to the
        /// function's normal end, with no reset on the way (a `defer`'s reset is on every such path).
        func leavesSet(through clauseNodes: [Int]) -> Bool {
            let avoiding = { (node: ControlFlowGraph.Node) in resets.contains(node.id) }
            let reached = starts.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: avoiding)) }
            return clauseNodes.contains { clause in
                reached.contains(clause) && graph.reachable(from: clause, avoiding: avoiding).contains(graph.exit)
            }
        }

        /// `leaks` along the paths that keep to one side of each correlated branch group (`branches`).
        func leaksOnConsistentPaths(through exitNodes: [Int], avoided: Set<Int>) -> Bool {
            let avoiding = { (node: ControlFlowGraph.Node) in avoided.contains(node.id) }
            let reached = graph.reachable(from: starts.map { branches.start(at: graph.nodes[$0]) }, consistentWith: branches, avoiding: avoiding)
            return exitNodes.contains { exit in
                let atExit = reached.filter { $0.node == exit }
                switch graph.nodes[exit].kind {
                case .returnStatement:
                    return graph.reachable(from: Array(atExit), consistentWith: branches, avoiding: avoiding).contains { $0.node == graph.exit }
                default:
                    return atExit.contains { state in
                        graph.successors[exit].contains { edge in
                            guard edge.kind == .throwOut || edge.kind == .cancellation, !avoided.contains(edge.to),
                                  let sides = branches.enter(graph.nodes[edge.to], from: graph.nodes[exit], with: state.sides) else { return false }
                            return graph.reachable(from: [.init(node: edge.to, sides: sides)], consistentWith: branches, avoiding: avoiding,
                                                   following: { $0 != .throwToCatch }).contains { $0.node == graph.errorExit }
                        }
                    }
                }
            }
        }

        func leaks(through exitNodes: [Int], avoiding more: Set<Int>) -> Bool {
            let avoided = resets.union(more)
            if !branches.groups.isEmpty { return leaksOnConsistentPaths(through: exitNodes, avoided: avoided) }
            let reached = starts.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: { avoided.contains($0.id) })) }
            return exitNodes.contains { exit in
                guard reached.contains(exit) else { return false }
                switch graph.nodes[exit].kind {
                case .returnStatement:
                    return graph.reachable(from: exit, avoiding: { avoided.contains($0.id) }).contains(graph.exit)
                default:
                    // Only the error's own way out: not to a `catch` of this function, not the path on which nothing threw.
                    return graph.successors[exit].contains { edge in
                        (edge.kind == .throwOut || edge.kind == .cancellation) && !avoided.contains(edge.to)
                            && graph.reachable(from: edge.to, avoiding: { avoided.contains($0.id) }, following: { $0 != .throwToCatch })
                                .contains(graph.errorExit)
                    }
                }
            }
        }
    }

    /// The closures in the body (not nested in another closure) that reset the flag.
    static func closuresResetting(_ flag: String, in body: CodeBlockSyntax) -> [ClosureExprSyntax] {
        var found: [ClosureExprSyntax] = []
        var stack = [Syntax(body)]
        while let node = stack.popLast() {
            if let closure = node.as(ClosureExprSyntax.self) {
                if mentionsReset(flag, in: node) { found.append(closure) }
                continue
            }
            stack += node.children(viewMode: .sourceAccurate)
        }
        return found
    }

    /// A configured flag (`isLoading`), or one with a suffix (`isLoadingAbout`, `isFetchingMore`), but not a
    /// setting named after the activity (`isSyncingEnabled`, `isSavingAllowed`).
    func isFlag(_ name: String) -> Bool {
        if flags.contains(name) { return true }
        guard let flag = flags.first(where: { name.hasPrefix($0) }),
              name.dropFirst(flag.count).startsUppercase else { return false }
        return !Self.settingSuffixes.contains { name.hasSuffix($0) }
    }

    /// Calls that run their closure before they return.
    static func runsClosureNow(_ call: FunctionCallExprSyntax) -> Bool {
        let name = SyntaxFacts.calleeName(call)
        return ["MainActor.run", "withAnimation", "withTransaction", "autoreleasepool"].contains(name)
            || ["performAndWait", "sync"].contains(SyntaxFacts.calleeMethodName(call))
    }

    static let settingSuffixes = ["Enabled", "Disabled", "Allowed", "Supported", "Available", "Paused", "Preference", "Setting", "Settings"]

    /// A `do` after the flag is set whose body resets it (on success) while its catch-all clause does not, when the
    /// graph has a path from the set through that clause to the function's end with no reset (`leavesSet`, asked
    /// of the clause): a `defer`, a reset after the `do` on every path, or a completion handler's reset closes it.
    static func failureBranchWithoutReset(_ flag: String, from start: Syntax, resets: [Syntax], in body: CodeBlockSyntax,
                                          leavesSet: (CatchClauseSyntax) -> Bool)
        -> (statement: DoStmtSyntax, clause: CatchClauseSyntax)? {
        var candidates: [(statement: DoStmtSyntax, clause: CatchClauseSyntax)] = []
        BodyScanner.scan(body) { node in
            guard let doStatement = node.as(DoStmtSyntax.self), doStatement.endPosition > start.position,
                  resets.contains(where: { $0.isInside(doStatement.body) }),
                  let clause = doStatement.catchClauses.first(where: CatchFacts.isCatchAll),
                  !resets.contains(where: { $0.isInside(clause) }), !mentionsReset(flag, in: Syntax(clause.body)) else { return }
            candidates.append((doStatement, clause))
        }
        return candidates.first { leavesSet($0.clause) }
    }

    /// `flag = false` / `self.flag = false` anywhere in the node, closures included.
    static func mentionsReset(_ flag: String, in node: Syntax) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.text == flag, let next = token.nextToken(viewMode: .sourceAccurate), next.text == "=",
                  let value = next.nextToken(viewMode: .sourceAccurate) else { return false }
            return value.text == "false"
        }
    }
}
