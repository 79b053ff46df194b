import SwiftLexicalLookup
import SwiftSyntax

/// Builds a `FunctionSummary` for every method, initializer, free function and computed property during
/// the walk, and records where SwiftUI views are constructed. Effects inside closures count for the
/// enclosing function, each with the context its closure runs in.
package final class FunctionSummaryCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [
        .functionDecl, .initializerDecl, .patternBinding, .closureExpr, .sequenceExpr, .functionCallExpr,
        .awaitExpr, .forStmt, .memberAccessExpr, .declReferenceExpr, .ifExpr, .guardStmt,
        .identifierPattern, .functionParameter, .closureParameter, .closureShorthandParameter, .closureCapture,
        .tryExpr, .throwStmt, .identifierType,
    ]

    /// A function being summarized, with the names its body declared so far (not properties of `self`).
    private struct Frame {
        var summary: FunctionSummary
        var locals: Set<String>
        let nodeID: SyntaxIdentifier
        /// Where the function starts: a closure that starts later is one of its own.
        let start: AbsolutePosition
        /// For a function with an untyped `throws`, what its own body throws so far (`throwsOnlyOwnErrors`).
        var thrown: ThrownErrors?
        /// An async function's writes of `self`'s properties that are results, not resets, with the assignment:
        /// asked of the body's graph on exit (`writesAfterAwait`).
        var resultWrites: [(property: String, node: Syntax)] = []
        /// Where the body first awaits (not in a closure): a write before it in the text cannot follow an `await`
        /// unless a loop brings it round, so the graph is asked only when some result write comes later.
        var firstAwait: AbsolutePosition?
        /// The function's `inout` parameters: a `cancel()` on one cancels a handle its caller keeps.
        var inoutParameters: Set<String> = []
        /// What the `try`s a catch-all catches could carry of a cancellation: the function's own only when a
        /// `catch` passes on what it caught (`throw error`), known on exit (`CancellationSources`).
        var caughtSources = CancellationSources()
        var passesOnCaught = false
        /// Whether the body builds a sequence that `finish()` ends, and calls `finish()` (`returnsFinishedStream`).
        var buildsFinishableSequence = false
        var callsFinish = false
        /// Its parameters of a function type, by the name the body uses: the external label (`_` for none) and whether
        /// it is the last parameter (`closureParametersCalledOffMain`).
        var closureParameters: [String: (label: String, isLast: Bool)] = [:]
    }

    /// What a throwing function's body (not its closures) lets escape: a `try` or `for try` no catch-all
    /// catches makes its errors not all the app's own; `throw` of a value it builds is its own.
    private struct ThrownErrors {
        var onlyOwn = true
        var throwsSomething = false
    }

    private var frames: [Frame] = []
    /// Whether the type the walk is in shows things, by the type's node: asked on every member access.
    private var viewCodeMemo: (type: SyntaxIdentifier, isView: Bool)?

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        switch node.kind {
        case .identifierPattern:
            // A computed property's own name is not a local of its getter.
            guard !frames.isEmpty, node.parent?.id != frames[frames.count - 1].nodeID else { return }
            context.localNames.record(node)
        case .functionParameter, .closureParameter, .closureShorthandParameter, .closureCapture:
            if !frames.isEmpty { context.localNames.record(node) }
        case .functionDecl, .initializerDecl:
            guard let function = context.scope.currentFunction, function.node.id == node.id else { return }
            let key = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
            var frame = Frame(summary: FunctionSummary(key: key, isAsync: function.isAsync,
                                                       declaredContext: context.executionContextHere(),
                                                       location: context.location(of: node)),
                              locals: [], nodeID: node.id, start: node.position)
            let parameters = function.parameters  // computed from the syntax on each access
            frame.locals.formUnion(parameters.map(\.name))
            frame.inoutParameters = Set(parameters.filter { $0.typeName.hasPrefix("inout ") }.map(\.name))
            frame.summary.lastParameterEscapes = parameters.last.map { Self.isEscapingClosureType($0.typeName) } ?? false
            if let list = function.parameterClause?.parameters {
                for (offset, parameter) in list.enumerated() where parameter.type.trimmedText.contains("->") {
                    frame.closureParameters[(parameter.secondName ?? parameter.firstName).text] =
                        (parameter.firstName.text, offset == list.count - 1)
                }
            }
            if let clause = node.as(FunctionDeclSyntax.self)?.signature.effectSpecifiers?.throwsClause {
                if let type = clause.type {
                    let name = type.trimmedText
                    frame.summary.throwsOnlyOwnErrors = name != "any Error" && name != "Error"
                } else {
                    frame.thrown = ThrownErrors()  // decided from the body as the walk meets it
                }
            }
            if frames.isEmpty { context.localNames.open(node) }
            frames.append(frame)
        case .patternBinding:
            guard let binding = node.as(PatternBindingSyntax.self) else { return }
            if binding.accessorBlock != nil, DeclarationCollector.isComputed(binding),
               let function = context.scope.currentFunction, function.node.id == node.id {
                let key = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
                if frames.isEmpty { context.localNames.open(node) }
                frames.append(Frame(summary: FunctionSummary(key: key, isAsync: function.isAsync,
                                                             declaredContext: context.executionContextHere(),
                                                             location: context.location(of: node)),
                                    locals: [], nodeID: node.id, start: node.position))
            } else if !frames.isEmpty, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                frames[frames.count - 1].locals.insert(name)
            }
        case .closureExpr:
            guard !frames.isEmpty, let closure = context.scope.currentClosure, closure.node.id == node.id else { return }
            frames[frames.count - 1].locals.formUnion(NotificationHandler.parameterNames(closure.node))
            if ExecutionContexts.ofClosure(closure) == .mainActor, closure.kind != .viewTask, closure.kind != .onAppear,
               closure.kind != .onDisappear {
                frames[frames.count - 1].summary.hopsToMainActor = true
            }
        case .identifierType:
            // `case is CancellationError`, `catch is CancellationError`, `error is CancellationError`.
            guard !frames.isEmpty, let type = node.as(IdentifierTypeSyntax.self), type.name.text == "CancellationError" else { return }
            if Self.isTypeTest(Syntax(type)) { frames[frames.count - 1].summary.testsCancellationError = true }
        case .tryExpr, .throwStmt:
            recordThrow(node, context: context)
            recordCancellationSources(node, context: context)
            if !frames.isEmpty, let statement = node.as(ThrowStmtSyntax.self), CatchFacts.convertsURLErrorCancelled(statement) {
                frames[frames.count - 1].summary.convertsURLErrorCancelled = true
            }
        case .forStmt:
            guard !frames.isEmpty, let loop = node.as(ForStmtSyntax.self) else { return }
            if loop.tryKeyword != nil { recordThrow(node, context: context) }
            if loop.tryKeyword != nil, loop.awaitKeyword != nil { recordCancellationSources(node, context: context) }
            for token in loop.pattern.tokens(viewMode: .sourceAccurate) {
                if case .identifier(let name) = token.tokenKind { frames[frames.count - 1].locals.insert(name) }
            }
            if loop.awaitKeyword != nil, context.scope.currentClosure == nil {
                frames[frames.count - 1].summary.awaits = true
                frames[frames.count - 1].summary.awaitsOtherThanCalls = true
                if frames[frames.count - 1].firstAwait == nil { frames[frames.count - 1].firstAwait = node.position }
            }
        case .ifExpr, .guardStmt:
            guard !frames.isEmpty else { return }
            let conditions = node.as(IfExprSyntax.self)?.conditions ?? node.as(GuardStmtSyntax.self)?.conditions
            for condition in conditions ?? [] {
                if let binding = condition.condition.as(OptionalBindingConditionSyntax.self),
                   let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, binding.initializer != nil {
                    frames[frames.count - 1].locals.insert(name)
                }
            }
        case .awaitExpr:
            guard !frames.isEmpty else { return }
            if context.scope.currentClosure == nil {
                frames[frames.count - 1].summary.awaits = true
                if frames[frames.count - 1].firstAwait == nil { frames[frames.count - 1].firstAwait = node.position }
                if let awaited = node.as(AwaitExprSyntax.self) {
                    if let calls = Self.awaitedCalls(awaited, caller: frames[frames.count - 1].summary.key, context: context) {
                        frames[frames.count - 1].summary.awaitedCalls += calls
                    } else {
                        frames[frames.count - 1].summary.awaitsOtherThanCalls = true
                    }
                }
            }
            // A transfer awaited anywhere in the function, closures included (`withCheckedThrowingContinuation`,
            // a `map` over requests): callers that await the function may receive its `URLError.cancelled`.
            if let awaited = node.as(AwaitExprSyntax.self), let transfer = CatchFacts.urlTransfer(awaited: awaited) {
                switch transfer {
                case .urlSession: frames[frames.count - 1].summary.awaitsURLSessionTransfer = true
                case .namedLikeURLSession: frames[frames.count - 1].summary.awaitsTransferNamedLikeURLSession = true
                }
            }
        case .sequenceExpr:
            recordWrite(node, context: context)
        case .functionCallExpr:
            guard let call = node.as(FunctionCallExprSyntax.self) else { return }
            recordConstruction(call, context: context)
            recordCall(call, context: context)
        case .memberAccessExpr:
            guard let member = node.as(MemberAccessExprSyntax.self) else { return }
            let inView = isViewCode(context)
            guard inView || !frames.isEmpty else { return }
            let name = member.declName.baseName.text  // read once: each read builds a string
            // `self.error = error` in a view writes the state; only a read can show it.
            if inView, !Self.isWriteTarget(node) { context.facts.viewReadNames.insert(Self.stateName(name)) }
            guard !frames.isEmpty, let base = member.base else { return }
            if node.parent?.is(LabeledExprSyntax.self) == true {
                frames[frames.count - 1].summary.passedReferences.insert(name)
                if !SyntaxFacts.isSelf(base) { frames[frames.count - 1].summary.passedMemberReferences.insert(name) }
            }
            guard SyntaxFacts.isSelf(base), !Self.isWriteTarget(node) else { return }
            frames[frames.count - 1].summary.reads.insert(name)
        case .declReferenceExpr:
            // The `b` of `a.b` was counted with its member access above, and is not a read of a property.
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id { return }
            guard let reference = node.as(DeclReferenceExprSyntax.self) else { return }
            let inView = isViewCode(context)
            guard inView || !frames.isEmpty else { return }
            let (name, isIdentifier) = context.referenceName(reference)
            if inView, !name.isEmpty, !name.startsUppercase, !Self.isWriteTarget(node) {
                context.facts.viewReadNames.insert(Self.stateName(name))
            }
            guard !frames.isEmpty else { return }
            if node.parent?.is(LabeledExprSyntax.self) == true { frames[frames.count - 1].summary.passedReferences.insert(name) }
            if isIdentifier { recordBareRead(node, name: name) }
        default:
            break
        }
    }

    func exit(_ node: Syntax, context: FileContext) {
        // Compared in place: `frames.last` would copy the frame, with every array of its summary, on every node.
        guard !frames.isEmpty, frames[frames.count - 1].nodeID == node.id else { return }
        var last = frames.removeLast()
        // Which flags every path resets is asked of the body's control-flow graph: only for functions that set
        // some property to `false` at all, known once the walk has seen the whole body.
        if last.summary.writes.contains(where: { $0.boolValue == false }),
           let body = node.as(FunctionDeclSyntax.self)?.body ?? node.as(InitializerDeclSyntax.self)?.body,
           let graph = context.controlFlowGraph(of: node) {
            last.summary.resetsOnEveryPath = Self.resetsOnEveryPath(body, graph: graph, locals: last.locals)
        }
        // The same for `true`, for a helper that marks a load finished (`didFinishLoading = true`). Asked of the
        // statements, not a graph (functions that set a flag to `true` are many): a statement of the body itself
        // with no statement before it that may leave (a `return`, `throw`, `guard` or throwing `try`) is on every path.
        if last.summary.writes.contains(where: { $0.boolValue == true }), let body = node.as(FunctionDeclSyntax.self)?.body {
            last.summary.setsTrueOnEveryPath = Self.setsTrueBeforeAnyExit(body, locals: last.locals)
        }
        if let thrown = last.thrown { last.summary.throwsOnlyOwnErrors = thrown.onlyOwn && thrown.throwsSomething }
        if last.summary.key.typeName == FrameworkCallbacks.contextTypeName, let body = node.as(FunctionDeclSyntax.self)?.body {
            last.summary.runsOnOwnContextQueue = Self.isOneOwnQueueBlock(body)
        }
        if let function = node.as(FunctionDeclSyntax.self), function.signature.returnClause != nil {
            last.summary.returnsFinishedStream = last.buildsFinishableSequence && last.callsFinish
        }
        if let function = node.as(FunctionDeclSyntax.self), let body = function.body {
            last.summary.closuresRunInPerform = Self.closuresRunInPerform(function.signature.parameterClause, body: body,
                                                                          locals: last.locals, typeName: last.summary.key.typeName)
        }
        if last.passesOnCaught { last.summary.cancellationSources = last.summary.cancellationSources.merged(with: last.caughtSources) }
        // Which results are written after an `await` is asked of the graph only for async functions that await and
        // write some result at all.
        if last.summary.isAsync, let firstAwait = last.firstAwait,
           last.resultWrites.contains(where: { $0.node.endPosition > firstAwait }),
           let body = node.as(FunctionDeclSyntax.self)?.body, let graph = context.controlFlowGraph(of: node) {
            last.summary.writesAfterAwait = Self.writesAfterAwait(last.resultWrites, in: body, graph: graph)
        }
        // Only a function that sets some flag `true` can guard itself with it; its first statements are read, no graph.
        if last.summary.isAsync, last.summary.writes.contains(where: { $0.boolValue == true }),
           let body = node.as(FunctionDeclSyntax.self)?.body {
            last.summary.reentryGuards = Self.reentryGuards(body, locals: last.locals, writes: last.summary.writes)
        }
        // The same first statements, sync or async: a body that runs once while its flag stays set.
        if last.summary.writes.contains(where: { $0.boolValue == true }), let body = node.as(FunctionDeclSyntax.self)?.body {
            last.summary.onceGuards = Self.reentryGuards(body, locals: last.locals, writes: last.summary.writes)
        }
        if frames.isEmpty { context.localNames.close() }
        context.facts.functionSummaries.append(last.summary)
    }

    /// `AsyncStream { … }`, `AsyncStream<Line>(…)`, `AsyncChannel<Int>()`: a sequence `finish()` ends.
    static func buildsFinishableSequence(_ call: FunctionCallExprSyntax) -> Bool {
        let callee = SyntaxFacts.calleeName(call)
        return FrameworkContinuations.finishableSequences.contains { callee == $0 || callee.hasPrefix($0 + "<") }
    }

    /// The closure parameters the body calls only inside one context's `perform`/`performAndWait` block, each call
    /// either directly in that block or in closures that run where their surroundings run (`Result { try work() }`); a
    /// parameter also used otherwise (passed on, stored, called after the block or on another queue) is left out.
    static func closuresRunInPerform(_ clause: FunctionParameterClauseSyntax, body: CodeBlockSyntax, locals: Set<String>,
                                     typeName: String?) -> [ClosureRunInPerform] {
        let parameters = Array(clause.parameters)
        var result: [ClosureRunInPerform] = []
        for (position, parameter) in parameters.enumerated() where parameter.type.trimmedText.contains("->") {
            let name = (parameter.secondName ?? parameter.firstName).text
            var holders: Set<ClosureRunInPerform.Holder> = []
            var usedOtherwise = false
            for token in body.tokens(viewMode: .sourceAccurate) where token.text == name {
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                guard let call = reference.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == reference.id,
                      let holder = performHolder(around: Syntax(call), body: body, clause: clause, locals: locals, typeName: typeName)
                else { usedOtherwise = true; break }
                holders.insert(holder)
            }
            guard !usedOtherwise, holders.count == 1, let holder = holders.first else { continue }
            let label = parameter.firstName.text
            result.append(ClosureRunInPerform(position: position, label: label == "_" ? nil : label,
                                              isLast: position == parameters.count - 1, holder: holder))
        }
        return result
    }

    /// The context whose `perform`/`performAndWait` block holds `node`, through closures that run in place; nil when
    /// another closure (a queue's, a task's, a completion handler) or none comes first.
    private static func performHolder(around node: Syntax, body: CodeBlockSyntax, clause: FunctionParameterClauseSyntax,
                                      locals: Set<String>, typeName: String?) -> ClosureRunInPerform.Holder? {
        var current = node.parent
        while let ancestor = current, ancestor.id != body.id {
            defer { current = ancestor.parent }
            guard let closure = ancestor.as(ClosureExprSyntax.self) else { continue }
            guard let call = SyntaxFacts.enclosingCall(ofClosure: closure) else { return nil }
            let method = SyntaxFacts.calleeMethodName(call)
            guard FrameworkCallbacks.anyThreadContextMethodNames.contains(method) else {
                let scope = ScopeBuilder.closureScope(closure)
                guard case .other = scope.kind, ExecutionContexts.ofClosure(scope) == nil else { return nil }
                continue
            }
            let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
            if base == nil || base.map(SyntaxFacts.isSelf) == true {
                return typeName == FrameworkCallbacks.contextTypeName ? .receiver : nil
            }
            if let member = base?.as(MemberAccessExprSyntax.self), member.base.map(SyntaxFacts.isSelf) == true {
                return .property(member.declName.baseName.text)
            }
            guard let name = base?.as(DeclReferenceExprSyntax.self)?.baseName.text else { return nil }
            if let (position, label) = ContextArguments.parameter(named: name, in: clause) {
                return .parameter(position: position, label: label)
            }
            return locals.contains(name) ? nil : .property(name)
        }
        return nil
    }

    /// `{ try performAndWait { … } }`, `{ perform { … } }`, `{ return try self.performAndWait { … } }`: one statement, a
    /// call of a method that runs its block on the context's queue, on the context itself.
    static func isOneOwnQueueBlock(_ body: CodeBlockSyntax) -> Bool {
        guard body.statements.count == 1, let item = body.statements.first?.item else { return false }
        var expression: ExprSyntax?
        if let returned = item.as(ReturnStmtSyntax.self) { expression = returned.expression }
        else if let statement = item.as(ExpressionStmtSyntax.self) { expression = statement.expression }
        else { expression = item.as(ExprSyntax.self) }
        guard let call = expression.map(SyntaxFacts.withoutTryOrAwait)?.as(FunctionCallExprSyntax.self),
              FrameworkCallbacks.anyThreadContextMethodNames.contains(SyntaxFacts.calleeMethodName(call)) else { return false }
        if call.calledExpression.is(DeclReferenceExprSyntax.self) { return true }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return false }
        return member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    }

    private func recordWrite(_ node: Syntax, context: FileContext) {
        guard !frames.isEmpty, let sequence = node.as(SequenceExprSyntax.self) else { return }
        if frames[frames.count - 1].summary.isAsync, let target = Self.resultTarget(sequence),
           let property = FlowFacts.selfProperty(target, locals: frames[frames.count - 1].locals) {
            frames[frames.count - 1].resultWrites.append((property, node))
        }
        guard let target = SyntaxFacts.writeTarget(sequence),
              let property = FlowFacts.selfProperty(target, locals: frames[frames.count - 1].locals) else { return }
        let value = SyntaxFacts.assignment(sequence).flatMap { SyntaxFacts.boolLiteral($0.value) }
        frames[frames.count - 1].summary.writes.append(StateWrite(
            property: property, boolValue: value, context: context.executionContextHere(),
            location: context.location(of: target)))
    }

    /// A `try`, `for try` or `throw` in the body of the innermost function (not in a closure or nested type).
    private func recordThrow(_ node: Syntax, context: FileContext) {
        guard !frames.isEmpty, frames[frames.count - 1].thrown != nil, context.scope.currentClosure == nil,
              context.scope.currentFunction?.node.id == frames[frames.count - 1].nodeID,
              let body = context.scope.currentFunction?.body else { return }
        let index = frames.count - 1
        if let statement = node.as(ThrowStmtSyntax.self) {
            frames[index].thrown?.throwsSomething = true
            let thrown = statement.expression
            // `throw error` passes on what it received (a cancellation included); `throw CancellationError()`
            // throws one itself.
            let builds = thrown.is(FunctionCallExprSyntax.self) || thrown.is(MemberAccessExprSyntax.self)
            if !builds || thrown.trimmedText.contains("Cancellation") { frames[index].thrown?.onlyOwn = false }
        } else if node.as(TryExprSyntax.self)?.questionOrExclamationMark == nil, !Self.isCaughtByCatchAll(node, root: body) {
            frames[index].thrown?.onlyOwn = false
        }
    }

    /// What a `try`, `for try await` or `throw` of the function lets out that may be a cancellation
    /// (`FunctionSummary.cancellationSources`): in its body or in a closure that runs in place under a `try`
    /// (`try await withThrowingTaskGroup { ... }`, `try context.performAndWait { ... }`); a closure that runs
    /// elsewhere (`Task { }`, a completion handler) throws to someone else. One a catch-all catches counts only
    /// when a `catch` of the function passes on what it caught (`throw error`).
    private func recordCancellationSources(_ node: Syntax, context: FileContext) {
        guard !frames.isEmpty, let body = context.scope.currentFunction?.body,
              context.scope.currentFunction?.node.id == frames[frames.count - 1].nodeID else { return }
        let index = frames.count - 1
        for closure in context.scope.closures where closure.node.position >= frames[index].start {
            guard let call = closure.call, Self.isUnderThrowingTry(call) else { return }
        }
        var sources = CancellationSources()
        if let statement = node.as(ThrowStmtSyntax.self) {
            let thrown = statement.expression
            if let call = thrown.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedText == "CancellationError" {
                sources.throwsItself = true
            } else if thrown.is(DeclReferenceExprSyntax.self) {
                frames[index].passesOnCaught = true
                return
            } else {
                return
            }
        } else if let tryExpression = node.as(TryExprSyntax.self) {
            guard tryExpression.questionOrExclamationMark == nil else { return }
            sources = CatchFacts.cancellationSources(of: tryExpression, context: context)
        } else if node.is(ForStmtSyntax.self) {
            sources.awaitsUnnamed = true
        }
        if Self.isCaughtByCatchAll(node, root: body) {
            frames[index].caughtSources = frames[index].caughtSources.merged(with: sources)
        } else {
            frames[index].summary.cancellationSources = frames[index].summary.cancellationSources.merged(with: sources)
        }
    }

    /// The call is the operand of a `try` that passes errors on (not `try?`, `try!`): `try await withThrowingTaskGroup`.
    static func isUnderThrowingTry(_ call: FunctionCallExprSyntax) -> Bool {
        var node = call.parent
        while let current = node {
            if let tryExpression = current.as(TryExprSyntax.self) { return tryExpression.questionOrExclamationMark == nil }
            if current.is(CodeBlockItemSyntax.self) || current.is(ClosureExprSyntax.self) { return false }
            node = current.parent
        }
        return false
    }

    /// A read of `name` where it stands alone (not `a.b`'s `b`): a property of `self` unless a local has the name.
    private func recordBareRead(_ node: Syntax, name: String) {
        guard !frames[frames.count - 1].locals.contains(name), name.startsLowercase else { return }
        // A call's callee and a write target are not reads of a property.
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { return }
        if Self.isWriteTarget(node) { return }
        frames[frames.count - 1].summary.reads.insert(name)
    }

    private func recordCall(_ call: FunctionCallExprSyntax, context: FileContext) {
        guard !frames.isEmpty else { return }
        let method = context.calleeMethodName(call)
        let index = frames.count - 1
        if method == "finish" { frames[index].callsFinish = true }
        if Self.buildsFinishableSequence(call) { frames[index].buildsFinishableSequence = true }
        recordClosureParameterCall(call, frame: index, context: context)
        switch method {
        case "post" where SyntaxFacts.argument("name", of: call) != nil && SyntaxFacts.calleeName(call).hasSuffix("post"):
            if let name = SyntaxFacts.argument("name", of: call) {
                frames[index].summary.posts.append(NotificationNames.normalized(name.trimmedText))
            }
        case _ where FrameworkCalls.schedulesOnCurrentRunLoop(method: method, receiverText: { SyntaxFacts.receiverText(call) ?? "" },
                                                              calleeText: { SyntaxFacts.calleeName(call) }):
            frames[index].summary.timers.append(context.location(of: call))
        case "save" where call.arguments.isEmpty:
            if let receiver = SyntaxFacts.receiverText(call) { frames[index].summary.saves.append(receiver) }
        case "rollback" where call.arguments.isEmpty, "reset" where call.arguments.isEmpty:
            if (SyntaxFacts.receiverText(call) ?? "").lowercased().hasSuffix("context") { frames[index].summary.rollsBack = true }
        case "wait" where Self.waitsForever(call):
            let receiver = (SyntaxFacts.receiverText(call) ?? "").lowercased()
            let inClosure = context.scope.currentClosure.map { $0.node.position >= frames[index].start } ?? false
            if !frames[index].summary.isAsync, !inClosure, call.parent?.is(AwaitExprSyntax.self) != true,
               receiver.contains("semaphore") || receiver.contains("group") || receiver.hasSuffix("sema") {
                frames[index].summary.blockingWaits.append(context.location(of: call))
            }
            if frames[index].summary.isAsync, !inClosure, call.parent?.is(AwaitExprSyntax.self) != true,
               receiver.contains("semaphore") || receiver.contains("group") || receiver.hasSuffix("sema") {
                frames[index].summary.blocksInAsyncBody = true
            }
        case "cancel" where call.arguments.isEmpty, "invalidate" where call.arguments.isEmpty:
            if let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
               let property = FlowFacts.selfProperty(receiver, locals: frames[index].locals) {
                frames[index].summary.cancelledHandles.insert(property)
            } else if let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
                      let name = Self.inoutHandleName(receiver), frames[index].inoutParameters.contains(name) {
                frames[index].summary.cancelledInoutHandles.insert(name)
            }
        case "Task", "detached":
            if TaskFacts.isTaskCreation(call, context: context), let target = TaskFacts.assignmentTarget(ofValue: call),
               !target.is(SubscriptCallExprSyntax.self), let property = TaskFacts.propertyName(target) {
                frames[index].summary.startedHandles.insert(property)
            } else if TaskFacts.isTaskCreation(call, context: context), Self.isDiscarded(call),
                      context.scope.currentClosure.map({ $0.node.position < frames[index].start }) ?? true,
                      // A task that never suspends runs to its end on its actor's next turn: nothing outlives the call.
                      SyntaxFacts.closures(of: call).isEmpty
                        || SyntaxFacts.closures(of: call).contains(where: { $0.statements.isEmpty || SyntaxFacts.containsAwait($0.statements) }) {
                frames[index].summary.discardedTasks.append(context.location(of: call))
                frames[index].summary.discardedTaskUses.append(Self.uses(of: call, locals: frames[index].locals, at: context.location(of: call)))
            }
        default:
            break
        }
        // Calls that may reach another function of the project: unqualified ones (a method of `self` or a
        // free function) and method calls on a receiver whose type the syntax tells.
        guard method.startsLikeValueName else { return }
        let receiver: ValueType?
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return }
            if SyntaxFacts.isSelf(base) {
                receiver = nil
            } else {
                let type = context.valueType(ofReceiver: base)
                guard type.isKnown else {
                    frames[index].summary.unresolvedCalls[method, default: []].append(context.cancellabilityHere())
                    return
                }
                receiver = type
            }
        } else if call.calledExpression.is(DeclReferenceExprSyntax.self) {
            receiver = nil
        } else {
            return
        }
        if case .always = context.cancellabilityHere(), ExecutionContexts.isCancelledOnlyOnDisappear(in: context) {
            frames[index].summary.disappearOnlyTaskCalls.insert(context.location(of: call))
        }
        frames[index].summary.calls.append(CallFact(
            caller: frames[index].summary.key, callee: method, receiver: receiver,
            context: context.executionContextHere(),
            cancellation: context.cancellabilityHere(), location: context.location(of: call),
            ifConfigClauses: context.ifConfigClauses(of: call), assignedTo: Self.storedProperty(ofValueOf: call, locals: frames[index].locals),
            contextArguments: ContextArguments.of(call, in: context.scope.currentFunction?.body, locals: frames[index].locals,
                                                  parameters: context.scope.currentFunction?.parameterClause),
            repeats: Self.isInLoop(call), onNewObject: Self.isOnNewObject(call, in: context.scope.currentFunction?.body)))
        let arguments = closureArguments(context: context, locals: frames[index].locals)
        if !arguments.isEmpty { frames[index].summary.calls[frames[index].summary.calls.count - 1].closureArguments = arguments }
        if let parameter = ExecutionContexts.performParameter(in: context, function: frames[index].summary.key) {
            frames[index].summary.calls[frames[index].summary.calls.count - 1].performParameter = parameter
        }
    }

    /// Closures passed to calls the framework table does not know, by the closure's node: asked once per closure.
    private var closureArgumentMemo: [SyntaxIdentifier: ClosureArgument?] = [:]

    /// The closures around the walker's position, innermost first, passed to calls the framework table does not know,
    /// up to the first frame that decides where code runs (`CallFact.closureArguments`).
    private func closureArguments(context: FileContext, locals: Set<String>) -> [ClosureArgument] {
        var result: [ClosureArgument] = []
        for frame in context.scope.frames.reversed() {
            guard case .closure(let closure) = frame, ExecutionContexts.ofClosure(closure) == nil,
                  case .other(let callee) = closure.kind else { break }
            guard callee.startsLikeValueName else { continue }
            if let memo = closureArgumentMemo[closure.node.id] {
                if let memo { result.append(memo) }
                continue
            }
            let argument = frames.last.flatMap { ExecutionContexts.closureArgument(closure, callee: callee, caller: $0.summary.key, context: context, locals: locals) }
            closureArgumentMemo[closure.node.id] = argument
            if let argument { result.append(argument) }
        }
        return result
    }


    /// The call's receiver is a local `let` the function binds, before the call, to an object it builds there
    /// (`let session = MirrorSession(url)`, `let model = try await Model.init()`): the call is made on a new object.
    static func isOnNewObject(_ call: FunctionCallExprSyntax, in body: CodeBlockSyntax?) -> Bool {
        guard let body, let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base?.as(DeclReferenceExprSyntax.self), base.baseName.text.startsLikeValueName else { return false }
        let name = base.baseName.text
        var built = false
        var bindings = 0
        for token in body.tokens(viewMode: .sourceAccurate) where token.text == name {
            guard let binding = token.parent?.as(IdentifierPatternSyntax.self)?.parent?.as(PatternBindingSyntax.self) else { continue }
            bindings += 1
            guard token.position < call.position,
                  binding.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.let),
                  var value = binding.initializer?.value else { continue }
            while true {
                if let wrapped = value.as(TryExprSyntax.self) { value = wrapped.expression; continue }
                if let wrapped = value.as(AwaitExprSyntax.self) { value = wrapped.expression; continue }
                break
            }
            guard let construction = value.as(FunctionCallExprSyntax.self) else { continue }
            let callee = construction.calledExpression.as(MemberAccessExprSyntax.self).flatMap { $0.declName.baseName.text == "init" ? $0.base : nil }
                ?? construction.calledExpression
            if let type = callee.as(DeclReferenceExprSyntax.self), type.baseName.text.first?.isUppercase == true { built = true }
        }
        // One binding of the name in the function: the receiver is that new object, not a shadowing one.
        return built && bindings == 1
    }

    /// The calls an `await` covers when it covers calls and nothing else that could suspend: `await load()`, `try await
    /// self.api.fetch(id)`, `await store.save(Array(items))` (the call, and the calls its arguments make: one `await`
    /// covers the whole expression; a type's initializer, `Array(items)`, is taken as synchronous). Nil for an `await`
    /// of anything else (`task.value`, a tuple, a closure), a chain, or a call on a receiver of unknown type.
    package static func awaitedCalls(_ awaited: AwaitExprSyntax, caller: FunctionKey, context: FileContext) -> [CallReference]? {
        var expression = awaited.expression
        while let wrapped = expression.as(TryExprSyntax.self) { expression = wrapped.expression }
        guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
              call.additionalTrailingClosures.isEmpty, let main = reference(of: call, caller: caller, context: context) else { return nil }
        var calls = [main]
        var known = true
        for argument in call.arguments {
            if argument.expression.is(ClosureExprSyntax.self) { return nil }
            BodyScanner.scan(argument.expression) { node in
                guard known, let inner = node.as(FunctionCallExprSyntax.self) else { return }
                if let name = inner.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, name.startsUppercase { return }
                if let reference = reference(of: inner, caller: caller, context: context) { calls.append(reference) } else { known = false }
            }
        }
        return known ? calls : nil
    }

    /// A call as the index can resolve it: unqualified, on `self`, or on a receiver whose type the syntax tells.
    private static func reference(of call: FunctionCallExprSyntax, caller: FunctionKey, context: FileContext) -> CallReference? {
        let method = context.calleeMethodName(call)
        guard method.startsLikeValueName else { return nil }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return nil }
            if SyntaxFacts.isSelf(base) { return CallReference(caller: caller, callee: method, receiver: nil) }
            // A chain (`a.b().c()`) calls more than one function.
            if base.is(FunctionCallExprSyntax.self) { return nil }
            let type = context.valueType(ofReceiver: base)
            return type.isKnown ? CallReference(caller: caller, callee: method, receiver: type) : nil
        }
        return call.calledExpression.is(DeclReferenceExprSyntax.self) ? CallReference(caller: caller, callee: method, receiver: nil) : nil
    }

    /// A `for` (also `for await`), `while` or `repeat` around the call, up to its declaration (closures included).
    static func isInLoop(_ call: FunctionCallExprSyntax) -> Bool {
        var node = Syntax(call)
        while let parent = node.parent, !parent.is(DeclSyntax.self) {
            if let loop = parent.as(ForStmtSyntax.self) {
                if node.id == Syntax(loop.body).id { return true }
            } else if let loop = parent.as(WhileStmtSyntax.self) {
                if node.id == Syntax(loop.body).id { return true }
            } else if parent.is(RepeatStmtSyntax.self) {
                return true
            }
            node = parent
        }
        return false
    }

    /// The property of `self` a call's value is assigned to, through `await` and `try`: `result = await resolve()`.
    private static func storedProperty(ofValueOf call: FunctionCallExprSyntax, locals: Set<String>) -> String? {
        var value = Syntax(call)
        while let parent = value.parent, parent.is(AwaitExprSyntax.self) || parent.is(TryExprSyntax.self) { value = parent }
        guard let target = TaskFacts.assignmentTarget(ofValue: value) else { return nil }
        return FlowFacts.selfProperty(target, locals: locals)
    }

    /// A view type built in a SwiftUI view's code, and whether each value gets a view of its own.
    private func recordConstruction(_ call: FunctionCallExprSyntax, context: FileContext) {
        guard let type = context.scope.currentType, let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
              reference.baseName.text.startsUppercase else { return }
        // Built in containers only, up to the declaration: nothing presents, pushes or repeats it.
        let inContainersOnly = context.scope.closures.allSatisfy { closure in
            guard let container = closure.call else { return false }
            let name = SyntaxFacts.calleeName(container)
            return FrameworkViewState.lifetimeContainers.contains { $0.name == name }
        }
        guard type.isView else {
            // A window's root (a scene's content) or a hosting controller's root view, recorded apart from the views'
            // own constructions: what else asks where a view is built keeps seeing only views.
            let inScene = !type.inheritedTypes.filter(FrameworkViewState.sceneProtocols.contains).isEmpty && inContainersOnly
            guard inScene || Self.isHostedRoot(call) else { return }
            context.facts.viewConstructions.append(ViewConstruction(
                typeName: reference.baseName.text, scope: type.qualifiedName, identity: .stable, location: context.location(of: call),
                inContainersOnly: true, isRoot: true))
            return
        }
        // The innermost place that decides the view's identity: a `NavigationLink`'s destination is presented by the
        // navigation container (a split view's detail column keeps it while the link changes), whatever row the
        // link stands in.
        let deciding = context.scope.closures.lazy.compactMap { closure -> Bool? in
            guard let call = closure.call else { return nil }
            switch SyntaxFacts.calleeMethodName(call) {
            case "ForEach", "List", "Table", "OutlineGroup": return true
            case "navigationDestination":
                return SyntaxFacts.argument("for", of: call) != nil || SyntaxFacts.argument("item", of: call) != nil ? true : nil
            case "sheet", "fullScreenCover", "popover": return SyntaxFacts.argument("item", of: call) != nil ? true : nil
            case "NavigationLink": return false
            default: return nil
            }
        }.first
        // A pushed destination: the innermost deciding closure is a `navigationDestination` or a `NavigationLink`.
        let pushed = context.scope.closures.lazy.compactMap { closure -> Bool? in
            guard let call = closure.call else { return nil }
            switch SyntaxFacts.calleeMethodName(call) {
            case "ForEach", "List", "Table", "OutlineGroup", "sheet", "fullScreenCover", "popover": return false
            case "navigationDestination": return SyntaxFacts.argument("isPresented", of: call) == nil
            case "NavigationLink": return true
            default: return nil
            }
        }.first == true
        let reidentified = Self.isReidentified(call) || Self.isInReidentifiedContainer(call)
        let perValue = deciding == true || reidentified
        // The innermost closure decides: a per-value container inside a detail column builds per value.
        let inColumn = !perValue && context.scope.closures.contains { closure in
            guard let call = closure.call, SyntaxFacts.calleeName(call) == "NavigationSplitView" else { return false }
            return ["detail", "content"].contains(Self.argumentLabel(of: closure.node))
        }
        let inSidebar = !reidentified && context.scope.closures.contains { closure in
            guard let call = closure.call, SyntaxFacts.calleeName(call) == "NavigationSplitView" else { return false }
            return Self.isSidebarColumn(closure.node, of: call)
        }
        let identity: ViewConstruction.Identity
        if reidentified {
            identity = .perValue
        } else if pushed {
            identity = inSidebar ? .splitViewColumn : .pushedDestination
        } else if perValue {
            identity = .perValue
        } else if inColumn {
            identity = .splitViewColumn
        } else {
            identity = inSidebar ? .splitViewSidebar : .stable
        }
        context.facts.viewConstructions.append(ViewConstruction(
            typeName: reference.baseName.text, scope: context.scope.currentType?.qualifiedName,
            identity: identity, location: context.location(of: call),
            constantArguments: Set(call.arguments.compactMap { argument in
                argument.label.flatMap { Self.isConstant(argument.expression) ? $0.text : nil }
            }),
            builtArguments: Set(call.arguments.compactMap { argument in
                argument.label.flatMap { Self.buildsObject(argument.expression) ? $0.text : nil }
            }),
            forwardedArguments: Dictionary(call.arguments.compactMap { argument in
                argument.label.flatMap { label in Self.forwardedProperty(argument.expression, context: context).map { (label.text, $0) } }
            }, uniquingKeysWith: { first, _ in first }),
            inContainersOnly: inContainersOnly))
    }

    /// The view is the `rootView:` argument of a hosting controller or view (`FrameworkViewState.hostingTypes`, or a
    /// type named like one: a project's alias or subclass such as `PlatformHostingController`).
    static func isHostedRoot(_ call: FunctionCallExprSyntax) -> Bool {
        guard let argument = call.parent?.as(LabeledExprSyntax.self), argument.label?.text == "rootView",
              let host = argument.parent?.parent?.as(FunctionCallExprSyntax.self) else { return false }
        let name = SyntaxFacts.calleeName(host).split(separator: "<").first.map(String.init) ?? ""
        return FrameworkViewState.hostingTypes.contains(name) || name.hasSuffix("HostingController") || name.hasSuffix("HostingView")
    }

    /// `name` or `self.name` where `name` is no local of the code that builds the view: a property of the building view.
    static func forwardedProperty(_ expression: ExprSyntax, context: FileContext) -> String? {
        let reference: DeclReferenceExprSyntax
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, SyntaxFacts.isSelf(base) {
            reference = member.declName
        } else if let bare = expression.as(DeclReferenceExprSyntax.self) {
            switch context.localNames.answer(bare) {
            case .declaration: return nil
            case .notLocal: break
            case .cannotTell:
                // Ahead of the walk (an argument of the call being entered): swift-syntax's lookup, for a few names.
                guard let identifier = Identifier(bare.baseName) else { return nil }
                for result in ValueTypes.lookup(bare, identifier) {
                    if case .lookForMembers = result { break }
                    if !result.names.isEmpty { return nil }
                }
            }
            reference = bare
        } else {
            return nil
        }
        let name = reference.baseName.text
        return name.startsLowercase && reference.argumentNames == nil ? name : nil
    }

    /// `Model(...)`, `Model.init(...)`, `.init(...)`: an object built by the expression itself.
    static func buildsObject(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return false }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text.startsUppercase }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init" else { return false }
        return member.base == nil || member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text.startsUppercase == true
    }

    /// A value that cannot change while the view that receives it lives: a literal without interpolation, a static
    /// member (`.red`, `Color.accent`), or a type built from such values (`URL(string: "https://…")!`).
    static func isConstant(_ expression: ExprSyntax) -> Bool {
        if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
            || expression.is(BooleanLiteralExprSyntax.self) || expression.is(NilLiteralExprSyntax.self) { return true }
        if let string = expression.as(StringLiteralExprSyntax.self) {
            return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
        }
        if let unwrapped = expression.as(ForceUnwrapExprSyntax.self) { return isConstant(unwrapped.expression) }
        // `-20`, `[0.2, 0.6]`: a signed literal, an array of constants.
        if let prefixed = expression.as(PrefixOperatorExprSyntax.self) { return isConstant(prefixed.expression) }
        if let array = expression.as(ArrayExprSyntax.self) { return array.elements.allSatisfy { isConstant($0.expression) } }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return true }  // `.red`
            return base.as(DeclReferenceExprSyntax.self)?.baseName.text.startsUppercase == true
        }
        if let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil {
            let callee = call.calledExpression
            let builtType = callee.as(DeclReferenceExprSyntax.self)?.baseName.text.startsUppercase == true
                || (callee.as(MemberAccessExprSyntax.self).map { $0.base == nil } ?? false)
            return builtType && call.arguments.allSatisfy { isConstant($0.expression) }
        }
        return false
    }

    /// A call whose value nobody keeps: a statement of its own, or `_ = call`.
    /// What a discarded `Task { }` uses of the code around it: bare lowercase names that are neither the function's
    /// locals nor declared in the task (its own `let`s, parameters, captures), and whether it names `self`.
    static func uses(of task: FunctionCallExprSyntax, locals: Set<String>, at location: SourceLocation) -> DiscardedTaskUse {
        var names: Set<String> = []
        var namesSelf = false
        for closure in SyntaxFacts.closures(of: task) {
            let declared = FlowFacts.localNames(in: closure).union(closureParameterNames(closure))
            for token in closure.tokens(viewMode: .sourceAccurate) {
                if token.tokenKind == .keyword(.self) { namesSelf = true; continue }
                guard case .identifier(let name) = token.tokenKind, name.startsLowercase,
                      let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                // `other.name` is someone else's member.
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
                if !locals.contains(name), !declared.contains(name) { names.insert(name) }
            }
        }
        return DiscardedTaskUse(location: location, names: names, namesSelf: namesSelf)
    }

    /// The names a closure's signature declares: parameters and captures (`{ [weak model] item in ... }`).
    static func closureParameterNames(_ closure: ClosureExprSyntax) -> Set<String> {
        guard let signature = closure.signature else { return [] }
        var names: Set<String> = []
        for capture in signature.capture?.items ?? [] { names.insert(capture.name.text) }
        switch signature.parameterClause {
        case .simpleInput(let parameters): for parameter in parameters { names.insert(parameter.name.text) }
        case .parameterClause(let clause): for parameter in clause.parameters { names.insert((parameter.secondName ?? parameter.firstName).text) }
        case nil: break
        }
        return names
    }

    /// Whether a type is the one an `is` tests for: `case is T`, `catch is T`, `value is T` (folded or not).
    static func isTypeTest(_ type: Syntax) -> Bool {
        guard let parent = type.parent else { return false }
        if parent.is(IsTypePatternSyntax.self) || parent.is(IsExprSyntax.self) { return true }
        guard parent.is(TypeExprSyntax.self), let list = parent.parent?.as(ExprListSyntax.self),
              let index = list.firstIndex(where: { $0.id == parent.id }), index != list.startIndex else { return false }
        return list[list.index(before: index)].is(UnresolvedIsExprSyntax.self)
    }

    /// `task` for the receiver `task` or `task?`: a bare name, a candidate `inout` parameter.
    static func inoutHandleName(_ receiver: ExprSyntax) -> String? {
        let base = receiver.as(OptionalChainingExprSyntax.self)?.expression ?? receiver
        guard let reference = base.as(DeclReferenceExprSyntax.self), case .identifier(let name) = reference.baseName.tokenKind else { return nil }
        return name
    }

    static func isDiscarded(_ call: FunctionCallExprSyntax) -> Bool {
        if call.parent?.is(CodeBlockItemSyntax.self) == true { return true }
        guard let sequence = call.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self),
              let assignment = SyntaxFacts.assignment(sequence) else { return false }
        return assignment.value.id == ExprSyntax(call).id && sequence.elements.first?.is(DiscardAssignmentExprSyntax.self) == true
    }

    /// `Group { Detail(item: item) }.id(item.id)`, `VStack { ... }.padding().id(tab)`: a container given a new
    /// identity gives every view built inside it one too (up to the enclosing declaration).
    static func isInReidentifiedContainer(_ construction: FunctionCallExprSyntax) -> Bool {
        var current = construction.parent
        while let node = current, !node.is(DeclSyntax.self) {
            if let closure = node.as(ClosureExprSyntax.self) {
                // Only a closure that builds the container's content, not an action run later (`Button { }`).
                guard let container = SyntaxFacts.enclosingCall(ofClosure: closure),
                      SyntaxFacts.calleeName(container).startsUppercase else { return false }
                if isReidentified(container) { return true }
                current = container.parent
                continue
            }
            current = node.parent
        }
        return false
    }

    /// The sidebar of `NavigationSplitView { sidebar } detail: { }` (or `sidebar: { }`): its first closure.
    static func isSidebarColumn(_ closure: ClosureExprSyntax, of call: FunctionCallExprSyntax) -> Bool {
        if let label = argumentLabel(of: closure) { return label == "sidebar" }
        return call.trailingClosure?.id == closure.id
    }

    /// `View(...).id(value)`, also after other modifiers (`View(...).padding().id(value)`): SwiftUI gives the
    /// view a new identity, and its `.task` a new run, whenever the value changes.
    static func isReidentified(_ construction: FunctionCallExprSyntax) -> Bool {
        var current = Syntax(construction)
        while let member = current.parent?.as(MemberAccessExprSyntax.self), member.base?.id == current.id,
              let modifier = member.parent?.as(FunctionCallExprSyntax.self) {
            if member.declName.baseName.text == "id", modifier.arguments.count == 1, modifier.arguments.first?.label == nil { return true }
            current = Syntax(modifier)
        }
        return false
    }

    /// The label a closure is passed with: `detail` for `NavigationSplitView { } detail: { }` or `detail: { }`.
    static func argumentLabel(of closure: ClosureExprSyntax) -> String? {
        if let element = closure.parent?.as(MultipleTrailingClosureElementSyntax.self) { return element.label.text }
        return closure.parent?.as(LabeledExprSyntax.self)?.label?.text
    }

    /// `@escaping (Int) -> Void`, or `((Int) -> Void)?` (an optional closure is escaping by definition).
    /// `completion(x)` or `completion?(x)` of a closure parameter, where the code runs on a queue proven not the main
    /// one (`ExecutionContexts.runsOnProvenOffMainQueue`): the caller's closure runs there.
    private func recordClosureParameterCall(_ call: FunctionCallExprSyntax, frame index: Int, context: FileContext) {
        guard !frames[index].closureParameters.isEmpty else { return }
        var called = call.calledExpression
        if let optional = called.as(OptionalChainingExprSyntax.self) { called = optional.expression }
        guard let reference = called.as(DeclReferenceExprSyntax.self),
              let parameter = frames[index].closureParameters[reference.baseName.text],
              ExecutionContexts.runsOnProvenOffMainQueue(context.scope) else { return }
        frames[index].summary.closureParametersCalledOffMain.insert(parameter.label)
        if parameter.isLast { frames[index].summary.lastClosureParameterCalledOffMain = true }
    }

    static func isEscapingClosureType(_ typeText: String) -> Bool {
        typeText.contains("@escaping") || (typeText.hasSuffix(")?") && typeText.contains("->"))
    }

    /// `wait()` or `wait(timeout: .distantFuture)`: a wait with no deadline.
    package static func waitsForever(_ call: FunctionCallExprSyntax) -> Bool {
        guard call.trailingClosure == nil else { return false }
        if call.arguments.isEmpty { return true }
        guard call.arguments.count == 1, let argument = call.arguments.first,
              ["timeout", "wallTimeout"].contains(argument.label?.text) else { return false }
        return argument.expression.trimmedText.hasSuffix(".distantFuture")
    }

    /// Code of a type that shows things: a SwiftUI view, a UIKit/AppKit view, cell or controller (by its
    /// declared supertypes or, for extensions that declare none, by its name).
    private func isViewCode(_ context: FileContext) -> Bool {
        guard let type = context.scope.currentType else { return false }
        if let memo = viewCodeMemo, memo.type == type.node.id { return memo.isView }
        let isView = Self.isViewCode(type)
        viewCodeMemo = (type.node.id, isView)
        return isView
    }

    static func isViewCode(_ type: TypeScope) -> Bool {
        if type.isView { return true }
        let names = type.inheritedTypes + [type.name]
        return names.contains { name in
            name.hasSuffix("View") || name.hasSuffix("ViewController") || name.hasSuffix("Controller") || name.hasSuffix("Cell")
                || name.hasSuffix("Screen") || name.hasSuffix("Representable")
        }
    }

    /// `$error` (a binding or publisher of the property) names the property `error`.
    static func stateName(_ name: String) -> String {
        name.hasPrefix("$") ? String(name.dropFirst()) : name
    }

    /// Inside the body of a `do` (below `root`) that has a catch-all clause.
    static func isCaughtByCatchAll(_ node: Syntax, root: CodeBlockSyntax) -> Bool {
        var current = node
        while let parent = current.parent, parent.id != root.id {
            if let doStatement = parent.as(DoStmtSyntax.self), doStatement.body.id == current.id,
               doStatement.catchClauses.contains(where: CatchFacts.isCatchAll) {
                return true
            }
            current = parent
        }
        return false
    }

    /// Flags the body sets to `false` on every path from its entry to an exit: a normal return, an error that
    /// leaves it, a cancellation (see `FunctionSummary.resetsOnEveryPath`). A reset in a `defer` runs on every
    /// exit after it; one in a closure does not count (it runs at another time).
    static func resetsOnEveryPath(_ body: CodeBlockSyntax, graph built: BuiltControlFlowGraph, locals: Set<String>) -> Set<String> {
        writesOnEveryPath(false, body, graph: built, locals: locals)
    }

    /// Properties of `self` set to `true` by a statement of the body itself before any statement that may leave it.
    static func setsTrueBeforeAnyExit(_ body: CodeBlockSyntax, locals: Set<String>) -> Set<String> {
        var result: Set<String> = []
        for item in body.statements {
            if let sequence = item.item.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
               SyntaxFacts.boolLiteral(assignment.value) == true, let property = FlowFacts.selfProperty(assignment.target, locals: locals) {
                result.insert(property)
                continue
            }
            var mayLeave = false
            BodyScanner.scan(item) { node in
                if node.is(ReturnStmtSyntax.self) || node.is(ThrowStmtSyntax.self) || node.is(GuardStmtSyntax.self)
                    || node.as(TryExprSyntax.self).map({ $0.questionOrExclamationMark == nil }) == true {
                    mayLeave = true
                }
            }
            if mayLeave { break }
        }
        return result
    }

    /// Properties of `self` the body sets to `value` on every path from its entry to an exit (see `resetsOnEveryPath`).
    static func writesOnEveryPath(_ value: Bool, _ body: CodeBlockSyntax, graph built: BuiltControlFlowGraph, locals: Set<String>) -> Set<String> {
        var resets: [String: [Int]] = [:]
        BodyScanner.scan(body) { node in
            guard let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
                  SyntaxFacts.boolLiteral(assignment.value) == value,
                  let property = FlowFacts.selfProperty(assignment.target, locals: locals) else { return }
            resets[property, default: []].append(contentsOf: built.nodes(for: node))
        }
        let graph = built.graph
        var result: Set<String> = []
        for (property, nodes) in resets {
            let resetNodes = Set(nodes)
            // A body no path leaves (an endless loop) resets nothing on the way out.
            if graph.everyPathToExit(from: graph.entry, passes: { resetNodes.contains($0.id) }),
               !graph.reachable(from: graph.entry).isDisjoint(with: graph.exits) {
                result.insert(property)
            }
        }
        return result
    }

    /// `flag = false`, `handle = nil`, `count = 0`, `text = ""`: a reset, not a result; and `handle = Task { }`,
    /// which starts the next task rather than writing this one's result.
    package static func resetsToLiteral(_ sequence: SequenceExprSyntax) -> Bool {
        guard let value = SyntaxFacts.assignment(sequence)?.value else { return false }
        if let call = value.as(FunctionCallExprSyntax.self) {
            let callee = SyntaxFacts.calleeName(call)
            return callee == "Task" || callee == "Task.detached"
        }
        return SyntaxFacts.boolLiteral(value) == false || value.is(NilLiteralExprSyntax.self)
            || value.trimmedText == "0" || value.trimmedText == "\"\""
    }

    /// The target of a write that stores a result: `x = v` and `x += v` (`SyntaxFacts.writeTarget`), and also
    /// `x = a ?? b`, `x = a + b` (an unfolded sequence whose first operator is `=`: assignment binds loosest), which
    /// `writeTarget` leaves out; resets to a literal are not results (`resetsToLiteral`).
    package static func resultTarget(_ sequence: SequenceExprSyntax) -> ExprSyntax? {
        if let target = SyntaxFacts.writeTarget(sequence) {
            if resetsToLiteral(sequence) { return nil }
            // `detents = [.large]`, `isVisible = true`: every run writes the same value, whichever lands last.
            if let value = SyntaxFacts.assignment(sequence)?.value, isLiteralValue(value) { return nil }
            return target
        }
        let elements = Array(sequence.elements)
        guard elements.count > 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
        return elements[0]
    }

    /// A literal, an enum case (`.home`), or an array of them: the same value on every run.
    static func isLiteralValue(_ value: ExprSyntax) -> Bool {
        if value.is(BooleanLiteralExprSyntax.self) || value.is(IntegerLiteralExprSyntax.self)
            || value.is(FloatLiteralExprSyntax.self) || value.is(NilLiteralExprSyntax.self) { return true }
        if let string = value.as(StringLiteralExprSyntax.self) {
            return !string.segments.contains { $0.is(ExpressionSegmentSyntax.self) }
        }
        if let member = value.as(MemberAccessExprSyntax.self) { return member.base == nil }
        if let array = value.as(ArrayExprSyntax.self) { return array.elements.allSatisfy { isLiteralValue($0.expression) } }
        return false
    }

    /// The properties of `writes` written at a node some path of the body's graph reaches from an `await`. A write
    /// in a closure counts where the closure stands when the closure runs in place (`withAnimation { }`,
    /// `FrameworkHandlers.inPlaceClosureCallees`); a write in any other closure runs at another time.
    package static func writesAfterAwait(_ writes: [(property: String, node: Syntax)], in body: some SyntaxProtocol,
                                 graph built: BuiltControlFlowGraph) -> Set<String> {
        let graph = built.graph
        var afterAwait: Set<Int> = []
        for node in graph.nodes where node.kind == .await {
            afterAwait.formUnion(graph.reachable(from: node.id).subtracting([node.id]))
        }
        guard !afterAwait.isEmpty else { return [] }
        var result: Set<String> = []
        for write in writes where !result.contains(write.property) {
            guard let anchor = inPlaceAnchor(of: write.node, in: body) else { continue }
            // A write the graph does not name (`x = a ?? b`) stands where its statement does.
            var nodes = built.nodes(for: anchor)
            var current = anchor
            while nodes.isEmpty, let parent = current.parent, parent.id != body.id {
                nodes = built.nodes(for: parent)
                current = parent
            }
            if !afterAwait.isDisjoint(with: nodes) { result.insert(write.property) }
        }
        return result
    }

    /// The node that stands for `node` in its body's graph: itself outside closures; the closure, when it is one
    /// closure deep and that closure runs in place; nil otherwise.
    private static func inPlaceAnchor(of node: Syntax, in body: some SyntaxProtocol) -> Syntax? {
        var closure: ClosureExprSyntax?
        var current = node
        while let parent = current.parent, parent.id != body.id {
            if let found = parent.as(ClosureExprSyntax.self) {
                guard closure == nil else { return nil }
                closure = found
            }
            current = parent
        }
        guard let closure else { return node }
        let call = closure.parent?.as(FunctionCallExprSyntax.self)
            ?? closure.parent?.as(LabeledExprSyntax.self)?.parent?.parent?.as(FunctionCallExprSyntax.self)
        guard let call, FrameworkHandlers.inPlaceClosureCallees.contains(SyntaxFacts.calleeName(call)) else { return nil }
        return Syntax(closure)
    }

    /// Flags of `self` the body returns early on before its first `await` (`guard !isLoading else { return }`,
    /// `if isLoading { return }`) and also sets to `true`.
    static func reentryGuards(_ body: CodeBlockSyntax, locals: Set<String>, writes: [StateWrite]) -> Set<String> {
        let setTrue = Set(writes.filter { $0.boolValue == true }.map(\.property))
        guard !setTrue.isEmpty else { return [] }
        var result: Set<String> = []
        for item in body.statements {
            if let guardStatement = item.item.as(GuardStmtSyntax.self) {
                for condition in guardStatement.conditions {
                    guard let expression = condition.condition.as(ExprSyntax.self),
                          let flag = unsetFlag(expression, locals: locals) else { continue }
                    result.insert(flag)
                }
            } else if let ifStatement = item.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self)
                        ?? item.item.as(IfExprSyntax.self),
                      ifStatement.body.statements.last?.item.is(ReturnStmtSyntax.self) == true {
                for condition in ifStatement.conditions {
                    guard let expression = condition.condition.as(ExprSyntax.self),
                          let flag = FlowFacts.selfProperty(expression, locals: locals) else { continue }
                    result.insert(flag)
                }
            }
            if SyntaxFacts.containsAwait(item) { break }
        }
        return result.intersection(setTrue)
    }

    /// The flag a condition requires unset: `!flag`, `flag == false`, `false == flag`, `flag != true`.
    package static func unsetFlag(_ expression: ExprSyntax, locals: Set<String>) -> String? {
        if let negation = expression.as(PrefixOperatorExprSyntax.self), negation.operator.text == "!" {
            return FlowFacts.selfProperty(negation.expression, locals: locals)
        }
        // The whole condition is the one comparison (not `flag == false || force`).
        guard let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
              let test = SyntaxFacts.equalityTests(in: sequence).first, test.op == "==" || test.op == "!=" else { return nil }
        for (side, literal) in [(test.left, test.right), (test.right, test.left)] {
            guard let value = SyntaxFacts.boolLiteral(literal), value == (test.op == "!=") else { continue }
            return FlowFacts.selfProperty(side, locals: locals)
        }
        return nil
    }

    /// The left side of `x = v` or `x += v`.
    static func isWriteTarget(_ node: Syntax) -> Bool {
        guard let list = node.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self),
              let target = SyntaxFacts.writeTarget(sequence) else { return false }
        return target.id == node.id
    }
}
