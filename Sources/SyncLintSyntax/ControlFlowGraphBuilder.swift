import SwiftSyntax

/// A function's graph together with where each syntax node of its body landed in it. The map is kept apart
/// from the graph because syntax identifiers mean nothing once the tree is gone; rules use it during the walk.
package struct BuiltControlFlowGraph {
    package let graph: ControlFlowGraph
    /// A statement run by several `defer` copies has several nodes.
    package let nodesBySyntax: [SyntaxIdentifier: [Int]]

    /// The graph nodes built for a syntax node (every copy when a `defer` runs it on several exits).
    package func nodes(for syntax: some SyntaxProtocol) -> [Int] {
        nodesBySyntax[Syntax(syntax).id] ?? []
    }
}

/// Builds the control-flow graph of one body: a function's, an initializer's, an accessor's, a closure's.
/// It walks the body's statements once, in the order control takes them:
/// - `if`/`else if`, `guard … else` (whose `else` must leave), `switch` (a `fallthrough` goes to the next case's
///   body), `#if` (each clause an alternative; without `#else`, none of them is one too);
/// - `for`/`while`/`repeat`, `break` and `continue` (with labels), `return`, `throw`;
/// - `try` can throw: to each `catch` clause of the enclosing `do`s, innermost first, until a catch-all ends the
///   search, else out of the body; `try?` and `try!` throw nowhere. `try Task.checkCancellation()` throws along
///   `cancellation` edges;
/// - `defer` bodies are built again on every exit of their block (falling off it, `return`, `break`,
///   `continue`, an error leaving it), innermost and latest first;
/// - inside an expression, nodes are made in evaluation order (operands first): an `await` after the call it
///   waits for, a write after its value. A closure is one node; nested functions and types are skipped.
/// `if` and `switch` used as expressions (`let x = if …`) are not branched: their parts are taken in source order;
/// a statement that is one ternary (`ready ? start() : stop()`) is, its arms alternatives.
package final class ControlFlowGraphBuilder {
    private enum Scope {
        /// A `defer` of the block being built: runs when control leaves that block.
        case deferred(CodeBlockSyntax)
        case loop(label: String?, breakTarget: Int, continueTarget: Int)
        case switchCase(label: String?, breakTarget: Int, fallthroughTarget: Int?)
        /// A labelled `if` or `do`: `break label` leaves it.
        case labeled(label: String, breakTarget: Int)
        /// The body of a `do` with `catch` clauses: errors go to each clause's start; a catch-all stops them.
        case catching(clauses: [Int], catchesAll: Bool)
    }

    private var nodes: [ControlFlowGraph.Node] = []
    private var edges: [ControlFlowGraph.Edge] = []
    /// Nodes some edge reaches: a merge point nothing jumps to leaves the code after it unreachable.
    private var hasIncoming: Set<Int> = []
    private var nodesBySyntax: [SyntaxIdentifier: [Int]] = [:]
    private var scopes: [Scope] = []
    /// The node control is at; nil after a jump (the code that follows is unreachable).
    private var current: Int?
    /// The kind of the next edge `append` draws from `current` (an error path's first edge).
    private var nextEdgeKind: ControlFlowGraph.EdgeKind = .normal
    private var exit = 0
    private var errorExit = 0

    private init() {}

    /// The graph of a declaration's or closure's body: a function, an initializer, a deinitializer, an accessor,
    /// a computed property's getter, a closure. Nil for anything else, or a declaration without a body.
    package static func build(of declaration: some SyntaxProtocol) -> BuiltControlFlowGraph? {
        let node = Syntax(declaration)
        if let function = node.as(FunctionDeclSyntax.self) { return function.body.map { build(body: $0.statements) } }
        if let initializer = node.as(InitializerDeclSyntax.self) { return initializer.body.map { build(body: $0.statements) } }
        if let deinitializer = node.as(DeinitializerDeclSyntax.self) { return deinitializer.body.map { build(body: $0.statements) } }
        if let accessor = node.as(AccessorDeclSyntax.self) { return accessor.body.map { build(body: $0.statements) } }
        if let closure = node.as(ClosureExprSyntax.self) { return build(body: closure.statements) }
        if let block = node.as(AccessorBlockSyntax.self), case .getter(let statements) = block.accessors { return build(body: statements) }
        if let block = node.as(CodeBlockSyntax.self) { return build(body: block.statements) }
        if let statements = node.as(CodeBlockItemListSyntax.self) { return build(body: statements) }
        return nil
    }

    package static func build(body: CodeBlockItemListSyntax) -> BuiltControlFlowGraph {
        let builder = ControlFlowGraphBuilder()
        return builder.run(body)
    }

    private func run(_ body: CodeBlockItemListSyntax) -> BuiltControlFlowGraph {
        let entry = newNode(.entry, Syntax(body))
        exit = newNode(.exit, Syntax(body), at: body.endPositionBeforeTrailingTrivia)
        errorExit = newNode(.errorExit, Syntax(body), at: body.endPositionBeforeTrailingTrivia)
        current = entry
        buildList(body)
        if let last = current { link(last, exit) }
        let graph = ControlFlowGraph(nodes: nodes, edges: edges, entry: entry, exit: exit, errorExit: errorExit)
        return BuiltControlFlowGraph(graph: graph, nodesBySyntax: nodesBySyntax)
    }

    // MARK: Nodes and edges

    private func newNode(_ kind: ControlFlowGraph.NodeKind, _ syntax: Syntax, label: String? = nil,
                         at position: AbsolutePosition? = nil) -> Int {
        let id = nodes.count
        let start = (position ?? syntax.positionAfterSkippingLeadingTrivia).utf8Offset
        let end = position?.utf8Offset ?? syntax.endPositionBeforeTrailingTrivia.utf8Offset
        nodes.append(ControlFlowGraph.Node(id: id, kind: kind, start: start, end: end, label: label))
        if position == nil { nodesBySyntax[syntax.id, default: []].append(id) }
        return id
    }

    private func link(_ from: Int, _ to: Int, _ kind: ControlFlowGraph.EdgeKind = .normal) {
        edges.append(ControlFlowGraph.Edge(from: from, to: to, kind: kind))
        hasIncoming.insert(to)
    }

    /// A node that control reaches from where it is, and is then at.
    @discardableResult
    private func append(_ kind: ControlFlowGraph.NodeKind, _ syntax: some SyntaxProtocol, label: String? = nil) -> Int {
        let id = newNode(kind, Syntax(syntax), label: label)
        if let current { link(current, id, nextEdgeKind) }
        nextEdgeKind = .normal
        current = id
        return id
    }

    /// A merge point for the given ends (the reachable ones); control is at it after.
    private func join(_ ends: [Int?], _ syntax: some SyntaxProtocol) {
        let reachable = ends.compactMap { $0 }
        guard !reachable.isEmpty else { current = nil; return }
        let merge = newNode(.join, Syntax(syntax), at: syntax.endPositionBeforeTrailingTrivia)
        for end in reachable { link(end, merge) }
        current = merge
    }

    // MARK: Statements

    private func buildList(_ list: CodeBlockItemListSyntax) {
        let depth = scopes.count
        for item in list {
            if let deferStatement = item.item.as(DeferStmtSyntax.self) {
                scopes.append(.deferred(deferStatement.body))
                continue
            }
            buildItem(item.item)
        }
        // Falling off the block runs its `defer`s, latest first.
        if current != nil { runDefers(downTo: depth) }
        scopes.removeSubrange(depth...)
    }

    private func buildItem(_ item: CodeBlockItemSyntax.Item) {
        switch item {
        case .stmt(let statement): buildStatement(statement, label: nil)
        case .expr(let expression): buildExpressionStatement(expression)
        case .decl(let declaration):
            if let ifConfig = declaration.as(IfConfigDeclSyntax.self) { buildIfConfig(ifConfig); return }
            // Nested functions and types run at another time; a variable's initializer runs here.
            guard declaration.is(VariableDeclSyntax.self) else { return }
            effects(of: declaration)
            append(.statement, declaration)
        }
    }

    private func buildExpressionStatement(_ expression: ExprSyntax) {
        if let ifExpression = expression.as(IfExprSyntax.self) { buildIf(ifExpression, label: nil); return }
        if let switchExpression = expression.as(SwitchExprSyntax.self) { buildSwitch(switchExpression, label: nil); return }
        if let sequence = expression.as(SequenceExprSyntax.self), let ternary = Self.statementTernary(sequence) {
            buildTernary(sequence, ternary)
            return
        }
        effects(of: expression)
        append(.statement, expression)
        if Self.neverReturns(expression) { current = nil }
    }

    private func buildStatement(_ statement: StmtSyntax, label: String?) {
        if let labeled = statement.as(LabeledStmtSyntax.self) {
            buildStatement(labeled.statement, label: labeled.label.text)
        } else if let expression = statement.as(ExpressionStmtSyntax.self) {
            if let ifExpression = expression.expression.as(IfExprSyntax.self) { buildIf(ifExpression, label: label); return }
            if let switchExpression = expression.expression.as(SwitchExprSyntax.self) { buildSwitch(switchExpression, label: label); return }
            buildExpressionStatement(expression.expression)
        } else if let guardStatement = statement.as(GuardStmtSyntax.self) {
            buildGuard(guardStatement)
        } else if let returnStatement = statement.as(ReturnStmtSyntax.self) {
            if let value = returnStatement.expression { effects(of: value) }
            append(.returnStatement, returnStatement)
            jumpOut(to: exit)
        } else if let throwStatement = statement.as(ThrowStmtSyntax.self) {
            effects(of: throwStatement.expression)
            append(.throwStatement, throwStatement)
            throwError(.throwOut)
            current = nil
        } else if let forStatement = statement.as(ForStmtSyntax.self) {
            buildFor(forStatement, label: label)
        } else if let whileStatement = statement.as(WhileStmtSyntax.self) {
            buildWhile(whileStatement, label: label)
        } else if let repeatStatement = statement.as(RepeatStmtSyntax.self) {
            buildRepeat(repeatStatement, label: label)
        } else if let doStatement = statement.as(DoStmtSyntax.self) {
            buildDo(doStatement, label: label)
        } else if let breakStatement = statement.as(BreakStmtSyntax.self) {
            append(.statement, breakStatement)
            jumpToBreakTarget(label: breakStatement.label?.text)
        } else if let continueStatement = statement.as(ContinueStmtSyntax.self) {
            append(.statement, continueStatement)
            jumpToContinueTarget(label: continueStatement.label?.text)
        } else if let fallthroughStatement = statement.as(FallThroughStmtSyntax.self) {
            append(.statement, fallthroughStatement)
            jumpToNextCase()
        } else if statement.is(DeferStmtSyntax.self) {
            return  // handled by the list that holds it
        } else {
            effects(of: statement)
            append(.statement, statement)
        }
    }

    /// Builds a condition list and returns where control goes when it fails: each condition is tested in turn,
    /// and the first that fails skips the rest (a merge of those exits; nil when none is reachable).
    private func buildConditions(_ conditions: ConditionElementListSyntax, _ owner: some SyntaxProtocol) -> Int? {
        var tested: [Int] = []
        for condition in conditions {
            effects(of: condition)
            append(.condition, condition)
            if let current { tested.append(current) }
        }
        guard !tested.isEmpty else { return current }
        let failed = newNode(.join, Syntax(owner), at: conditions.endPositionBeforeTrailingTrivia)
        for condition in tested { link(condition, failed) }
        return failed
    }

    private func buildIf(_ ifExpression: IfExprSyntax, label: String?) {
        let breakTarget = label.map { _ in newNode(.join, Syntax(ifExpression), at: ifExpression.endPositionBeforeTrailingTrivia) }
        let failed = buildConditions(ifExpression.conditions, ifExpression)
        if let label, let breakTarget { scopes.append(.labeled(label: label, breakTarget: breakTarget)) }
        buildBlock(ifExpression.body)
        let thenEnd = current
        current = failed
        switch ifExpression.elseBody {
        case .ifExpr(let elseIf): buildIf(elseIf, label: nil)
        case .codeBlock(let block): buildBlock(block)
        case nil: break
        }
        if label != nil { scopes.removeLast() }
        finish([thenEnd, current], breakTarget: breakTarget, ifExpression)
    }

    /// `condition ? a() : b()` as a statement: the two arms are alternatives, as an `if`/`else`'s are (only one runs).
    /// The condition is every element before the `?`; the statement's own node follows the merge.
    private func buildTernary(_ sequence: SequenceExprSyntax, _ ternary: UnresolvedTernaryExprSyntax) {
        let elements = Array(sequence.elements)
        for element in elements.dropLast(2) { effects(of: element) }
        append(.condition, ternary.questionMark)
        let tested = current
        effects(of: ternary.thenExpression)
        let thenEnd = current
        current = tested
        if let otherwise = elements.last { effects(of: otherwise) }
        join([thenEnd, current], sequence)
        append(.statement, sequence)
    }

    /// The `?:` of a statement that is one ternary (`ready ? start() : stop()`, `a == b ? x() : y()`): its `else` arm is
    /// the last element and nothing else in the sequence has a lower precedence (no assignment, no second `?:`).
    /// A ternary inside a larger expression (`x = c ? a : b`) keeps the source order.
    static func statementTernary(_ sequence: SequenceExprSyntax) -> UnresolvedTernaryExprSyntax? {
        let elements = Array(sequence.elements)
        guard elements.count >= 3, let ternary = elements[elements.count - 2].as(UnresolvedTernaryExprSyntax.self) else { return nil }
        let others = elements.dropLast(2)
        guard !others.contains(where: { $0.is(UnresolvedTernaryExprSyntax.self) || $0.is(AssignmentExprSyntax.self)
            || $0.as(BinaryOperatorExprSyntax.self).map { $0.operator.text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains($0.operator.text) } == true
        }) else { return nil }
        return ternary
    }

    /// Merges `ends`; a labelled statement's `break` target takes the merge's place when something jumps to it.
    private func finish(_ ends: [Int?], breakTarget: Int?, _ syntax: some SyntaxProtocol) {
        guard let breakTarget else { join(ends, syntax); return }
        for end in ends.compactMap({ $0 }) { link(end, breakTarget) }
        current = hasIncoming.contains(breakTarget) ? breakTarget : nil
    }

    private func buildGuard(_ guardStatement: GuardStmtSyntax) {
        let failed = buildConditions(guardStatement.conditions, guardStatement)
        let passed = current
        current = failed
        buildBlock(guardStatement.body)
        // The `else` must leave; a call that never returns (`fatalError()`) ends it too.
        current = passed
    }

    private func buildBlock(_ block: CodeBlockSyntax) {
        buildList(block.statements)
    }

    private func buildFor(_ forStatement: ForStmtSyntax, label: String?) {
        effects(of: forStatement.sequence)
        let header = append(.join, forStatement.forKeyword)
        if forStatement.awaitKeyword != nil { append(.await, forStatement.forKeyword) }
        // `for try await`: each step of the sequence may throw (a cancelled `URLSession` byte stream, say).
        if let tryKeyword = forStatement.tryKeyword {
            append(.tryPoint, tryKeyword)
            throwError(.throwOut)
        }
        if let whereClause = forStatement.whereClause { effects(of: whereClause); append(.condition, whereClause) }
        let decision = current
        let after = newNode(.join, Syntax(forStatement), at: forStatement.endPositionBeforeTrailingTrivia)
        loop(label: label, breakTarget: after, continueTarget: header) { buildBlock(forStatement.body) }
        if let end = current { link(end, header) }
        if let decision { link(decision, after) }
        current = after
    }

    private func buildWhile(_ whileStatement: WhileStmtSyntax, label: String?) {
        let header = append(.join, whileStatement.whileKeyword)
        let failed = buildConditions(whileStatement.conditions, whileStatement)
        let after = newNode(.join, Syntax(whileStatement), at: whileStatement.endPositionBeforeTrailingTrivia)
        loop(label: label, breakTarget: after, continueTarget: header) { buildBlock(whileStatement.body) }
        if let end = current { link(end, header) }
        if let failed { link(failed, after) }
        current = after
    }

    private func buildRepeat(_ repeatStatement: RepeatStmtSyntax, label: String?) {
        let top = append(.join, repeatStatement.repeatKeyword)
        let test = newNode(.join, Syntax(repeatStatement.whileKeyword))
        let after = newNode(.join, Syntax(repeatStatement), at: repeatStatement.endPositionBeforeTrailingTrivia)
        loop(label: label, breakTarget: after, continueTarget: test) { buildBlock(repeatStatement.body) }
        if let end = current { link(end, test) }
        current = hasIncoming.contains(test) ? test : nil
        effects(of: repeatStatement.condition)
        append(.condition, repeatStatement.condition)
        if let end = current {
            link(end, top)
            link(end, after)
        }
        current = hasIncoming.contains(after) ? after : nil
    }

    private func loop(label: String?, breakTarget: Int, continueTarget: Int, body: () -> Void) {
        scopes.append(.loop(label: label, breakTarget: breakTarget, continueTarget: continueTarget))
        body()
        scopes.removeLast()
    }

    private func buildDo(_ doStatement: DoStmtSyntax, label: String?) {
        let breakTarget = label.map { _ in newNode(.join, Syntax(doStatement), at: doStatement.endPositionBeforeTrailingTrivia) }
        if let label, let breakTarget { scopes.append(.labeled(label: label, breakTarget: breakTarget)) }
        let clauses = doStatement.catchClauses.map { newNode(.join, Syntax($0)) }
        if !clauses.isEmpty {
            scopes.append(.catching(clauses: clauses, catchesAll: doStatement.catchClauses.contains(where: CatchFacts.isCatchAll)))
        }
        buildBlock(doStatement.body)
        if !clauses.isEmpty { scopes.removeLast() }
        var ends = [current]
        for (clause, entry) in zip(doStatement.catchClauses, clauses) {
            current = entry  // a clause no `try` reaches has no edge in: its code stays unreachable
            buildBlock(clause.body)
            ends.append(current)
        }
        if label != nil { scopes.removeLast() }
        finish(ends, breakTarget: breakTarget, doStatement)
    }

    private func buildSwitch(_ switchExpression: SwitchExprSyntax, label: String?) {
        effects(of: switchExpression.subject)
        append(.condition, switchExpression.subject)
        let decision = current
        let after = newNode(.join, Syntax(switchExpression), at: switchExpression.endPositionBeforeTrailingTrivia)
        let cases = Self.cases(of: switchExpression.cases)
        let entries = cases.map { newNode(.join, Syntax($0.label)) }
        if let decision { for entry in entries { link(decision, entry) } }
        var ends: [Int?] = []
        for (index, switchCase) in cases.enumerated() {
            current = entries[index]
            let next = index + 1 < entries.count ? entries[index + 1] : nil
            scopes.append(.switchCase(label: label, breakTarget: after, fallthroughTarget: next))
            buildList(switchCase.statements)
            scopes.removeLast()
            ends.append(current)
        }
        for end in ends.compactMap({ $0 }) { link(end, after) }
        // A switch with no case at all (only possible with `#if`) falls through.
        if cases.isEmpty, let decision { link(decision, after) }
        current = hasIncoming.contains(after) ? after : nil
    }

    /// A switch's cases, those inside `#if` clauses included (each is a possible case).
    private static func cases(of list: SwitchCaseListSyntax) -> [SwitchCaseSyntax] {
        list.flatMap { element -> [SwitchCaseSyntax] in
            switch element {
            case .switchCase(let switchCase): return [switchCase]
            case .ifConfigDecl(let ifConfig):
                return ifConfig.clauses.flatMap { clause -> [SwitchCaseSyntax] in
                    if case .switchCases(let nested) = clause.elements { return cases(of: nested) }
                    return []
                }
            }
        }
    }

    private func buildIfConfig(_ ifConfig: IfConfigDeclSyntax) {
        let decision = append(.join, ifConfig.clauses.first?.poundKeyword ?? ifConfig.poundEndif)
        var ends: [Int?] = []
        for clause in ifConfig.clauses {
            current = decision
            if case .statements(let statements) = clause.elements { buildList(statements) }
            ends.append(current)
        }
        // Without `#else`, every condition may be false.
        if !ifConfig.clauses.contains(where: { $0.poundKeyword.tokenKind == .poundElse }) { ends.append(decision) }
        join(ends, ifConfig)
    }

    // MARK: Jumps

    /// Leaves every enclosing block (running their `defer`s) for the body's `exit`.
    private func jumpOut(to target: Int) {
        runDefers(downTo: 0)
        if let current { link(current, target) }
        current = nil
    }

    private func jumpToBreakTarget(label: String?) {
        for index in scopes.indices.reversed() {
            let target: Int
            switch scopes[index] {
            case .loop(let name, let breakTarget, _) where label == nil || label == name: target = breakTarget
            case .switchCase(let name, let breakTarget, _) where label == nil || label == name: target = breakTarget
            case .labeled(let name, let breakTarget) where label == name: target = breakTarget
            default: continue
            }
            runDefers(downTo: index + 1)
            if let current { link(current, target) }
            current = nil
            return
        }
        current = nil
    }

    private func jumpToContinueTarget(label: String?) {
        for index in scopes.indices.reversed() {
            if case .loop(let name, _, let target) = scopes[index], label == nil || label == name {
                runDefers(downTo: index + 1)
                if let current { link(current, target) }
                current = nil
                return
            }
        }
        current = nil
    }

    private func jumpToNextCase() {
        for index in scopes.indices.reversed() {
            if case .switchCase(_, _, let next) = scopes[index] {
                runDefers(downTo: index + 1)
                if let current, let next { link(current, next) }
                current = nil
                return
            }
        }
        current = nil
    }

    /// Routes an error from where control is: through the `defer`s of the blocks it leaves, to each `catch`
    /// clause of every enclosing `do`, innermost first, until a catch-all; else out of the body. Control stays
    /// where it was (the path on which nothing was thrown goes on).
    private func throwError(_ kind: ControlFlowGraph.EdgeKind) {
        guard let origin = current else { return }
        var at = origin
        for index in scopes.indices.reversed() {
            switch scopes[index] {
            case .deferred(let body):
                // The defer body is built again on the error path; the scopes inside it are its own.
                let saved = scopes
                scopes.removeSubrange(index...)
                current = at
                nextEdgeKind = kind
                buildBlock(body)
                nextEdgeKind = .normal
                scopes = saved
                guard let end = current else { current = origin; return }
                if end != at { at = end }
            case .catching(let clauses, let catchesAll):
                for clause in clauses { link(at, clause, kind == .cancellation ? .cancellation : .throwToCatch) }
                if catchesAll { current = origin; return }
            default:
                continue
            }
        }
        link(at, errorExit, kind)
        current = origin
    }

    /// Runs the `defer`s of the scopes from the innermost down to `depth` (their blocks are being left).
    private func runDefers(downTo depth: Int) {
        guard depth < scopes.count else { return }
        for index in (depth..<scopes.count).reversed() {
            guard current != nil, case .deferred(let body) = scopes[index] else { continue }
            let saved = scopes
            scopes.removeSubrange(index...)
            buildBlock(body)
            scopes = saved
        }
    }

    // MARK: Expressions

    /// The nodes of an expression's parts that rules ask about, in evaluation order.
    private func effects(of syntax: some SyntaxProtocol) {
        let visitor = EffectVisitor(builder: self, root: Syntax(syntax).id)
        visitor.walk(syntax)
    }

    fileprivate func expressionNode(_ node: Syntax) {
        switch node.kind {
        case .awaitExpr:
            append(.await, node)
        case .functionCallExpr:
            guard let call = node.as(FunctionCallExprSyntax.self) else { return }
            let name = SyntaxFacts.calleeName(call)
            if SyntaxFacts.calleeMethodName(call) == "checkCancellation" {
                append(.cancellationCheck, node, label: name)
            } else {
                append(.call, node, label: name)
            }
        case .memberAccessExpr:
            if node.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "isCancelled" { append(.cancellationCheck, node) }
        case .declReferenceExpr:
            if node.as(DeclReferenceExprSyntax.self)?.baseName.text == "isCancelled", node.parent?.is(MemberAccessExprSyntax.self) != true {
                append(.cancellationCheck, node)
            }
        case .sequenceExpr:
            guard let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence) else { return }
            append(.write, node, label: target.trimmedDescription)
        case .tryExpr:
            guard let tryExpression = node.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark == nil else { return }
            append(.tryPoint, node)
            throwError(Self.checksCancellation(tryExpression.expression) ? .cancellation : .throwOut)
        case .closureExpr:
            append(.closure, node)
        default:
            break
        }
    }

    /// `try Task.checkCancellation()`: its only error is a cancellation.
    private static func checksCancellation(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return false }
        return SyntaxFacts.calleeMethodName(call) == "checkCancellation"
    }

    /// `fatalError()`, `preconditionFailure()` and the like: control does not go on.
    private static func neverReturns(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return false }
        return ["fatalError", "preconditionFailure", "abort", "exit"].contains(SyntaxFacts.calleeName(call))
    }
}

/// Visits an expression's parts after their operands (post-order), without entering closures (one node),
/// nested functions or types.
private final class EffectVisitor: SyntaxAnyVisitor {
    private unowned let builder: ControlFlowGraphBuilder
    private let root: SyntaxIdentifier

    init(builder: ControlFlowGraphBuilder, root: SyntaxIdentifier) {
        self.builder = builder
        self.root = root
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        switch node.kind {
        case .closureExpr:
            builder.expressionNode(node)
            return .skipChildren
        case .functionDecl, .classDecl, .structDecl, .enumDecl, .actorDecl, .protocolDecl, .extensionDecl:
            return node.id == root ? .visitChildren : .skipChildren
        default:
            return .visitChildren
        }
    }

    override func visitAnyPost(_ node: Syntax) {
        guard node.kind != .closureExpr else { return }
        builder.expressionNode(node)
    }
}
