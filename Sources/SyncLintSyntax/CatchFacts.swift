import SwiftSyntax

/// Where a caught error goes in a `catch` body.
public enum ErrorDestination: Sendable, Hashable {
    /// Stored in a property of `self`: `self.error = error`, `message = error.localizedDescription`.
    case property(String)
    /// Stored as a failed result: `results[key] = .failure(error)`, `state = .failed(error)`.
    case failureResult(String)
    /// Stored as a value of the app's own type built from it: `banner = Banner(error)`, `toast = .init(error)`,
    /// `self.error = .network(error)`.
    case appValue(property: String)
    /// Handed to a call: `showAlert(for: error)`, `presenter.present(error)`; the callee decides.
    case passedTo(callee: String, receiver: ValueType?)
    /// `throw error`: the caller decides.
    case rethrown
    /// `return .failure(error)`: a failed result handed back, which the caller may store and show.
    case returnedFailure
}

/// What a `catch` clause can receive and what it does with it.
public struct CatchFacts: Sendable {
    /// The `do` body awaits a call that can throw (`try await`, `for try await`): only then can a
    /// cancellation arrive here. A synchronous `try` cannot throw one; `try?` swallows it.
    public let doAwaitsThrowingCall: Bool
    /// An earlier clause (or this clause's own pattern) already catches `CancellationError`.
    public let handlesCancellationError: Bool
    /// An earlier clause (or this clause's own pattern) already catches `URLError.cancelled`.
    public let handlesURLErrorCancelled: Bool
    /// The body tests for cancellation itself (`error is CancellationError`, `Task.isCancelled`, `.cancelled`).
    public let bodyTestsCancellation: Bool
    /// The body's only test for cancellation names `CancellationError` (`if error is CancellationError { return }`):
    /// like `catch is CancellationError`, it lets `URLError.cancelled` through.
    public let bodyTestsOnlyCancellationError: Bool
    /// A catch-all: no pattern, or only `let error` with no `as`, `is` or `where`.
    public let isCatchAll: Bool
    public let destinations: [ErrorDestination]
    /// Whether the code around can be cancelled at all; the index answers the cases that need callers.
    public let cancellation: Cancellability

    /// The facts of clause number `index` of a `do` statement, at the walker's position (the `do`).
    public static func of(_ doStatement: DoStmtSyntax, clause index: Int, context: FileContext) -> CatchFacts {
        let clauses = Array(doStatement.catchClauses)
        let clause = clauses[index]
        var handlesCancellation = false
        var handlesURLCancelled = false
        for earlier in clauses[...index] {
            let pattern = earlier.catchItems.trimmedText
            if catches(.cancellationError, pattern: pattern) { handlesCancellation = true }
            if catches(.urlErrorCancelled, pattern: pattern) { handlesURLCancelled = true }
        }
        return CatchFacts(
            // `do throws(DomainError)`: every error it catches is of the app's own type, never a cancellation.
            doAwaitsThrowingCall: awaitedErrorReaches(doStatement, clause: index, context: context),
            handlesCancellationError: handlesCancellation, handlesURLErrorCancelled: handlesURLCancelled,
            bodyTestsCancellation: testsCancellation(clause.body), bodyTestsOnlyCancellationError: testsOnlyCancellationError(clause.body),
            isCatchAll: isCatchAll(clause),
            destinations: destinations(of: clause, context: context),
            cancellation: context.cancellabilityHere())
    }

    /// Whether the clause takes every `URLError`, `URLError.cancelled` included: `catch let error as URLError` or
    /// `catch is URLError`, with no `where` and no other item.
    package static func catchesEveryURLError(_ clause: CatchClauseSyntax) -> Bool {
        guard clause.catchItems.count == 1, let item = clause.catchItems.first, item.whereClause == nil,
              let pattern = item.pattern else { return false }
        let text = pattern.trimmedDescription.filter { !$0.isWhitespace }
        return text.hasSuffix("asURLError") || text == "isURLError"
    }

    /// Whether a `catch` pattern written as `pattern` names the error a cancelled call throws.
    static func catches(_ signal: CancellationSignal, pattern: String) -> Bool {
        let caught = signal.caughtAs
        return pattern.contains(caught.type) && (caught.member.map { pattern.contains($0) } ?? true)
    }

    /// Whether an error of an awaited throwing call can reach clause `index` of the `do`, on the control-flow graph
    /// of the body around it: an error edge into the clause leaves a `try await` (or `for try await`), a
    /// `try Task.checkCancellation()`, or a `throw` of a name (an inner `catch` passing on what it caught) in a
    /// `do` that awaits. An inner `do` whose catch-all takes the error first, an earlier clause whose pattern
    /// catches everything, a `try?`, or a `do throws(DomainError)` keep it away. The body's text decides when no
    /// graph holds the `do` (code outside a function or closure).
    package static func awaitedErrorReaches(_ doStatement: DoStmtSyntax, clause index: Int, context: FileContext) -> Bool {
        guard doStatement.throwsClause?.type == nil, awaitsThrowingCall(doStatement.body) else { return false }
        let clauses = Array(doStatement.catchClauses)
        guard clauses.indices.contains(index),
              let owner = context.scope.currentClosure.map({ Syntax($0.node) }) ?? context.scope.currentFunction?.node,
              let built = context.controlFlowGraph(of: owner) else { return true }
        let entries = built.nodes(for: clauses[index])
        guard !entries.isEmpty else { return true }
        let graph = built.graph
        var rethrowNodes: Set<Int> = []
        BodyScanner.scan(doStatement.body) { node in
            guard let statement = node.as(ThrowStmtSyntax.self), statement.expression.is(DeclReferenceExprSyntax.self) else { return }
            rethrowNodes.formUnion(built.nodes(for: statement))
        }
        func awaits(_ point: ControlFlowGraph.Node) -> Bool {
            // `try await f()`: the `await` lies inside the `try`; `for try await`: it comes right before it.
            graph.nodes.contains { $0.kind == .await && $0.start >= point.start && $0.end <= point.end }
                || graph.predecessors[point.id].contains { $0.kind == .normal && graph.nodes[$0.from].kind == .await }
        }
        return entries.contains { entry in
            graph.predecessors[entry].contains { edge in
                let source = graph.nodes[edge.from]
                switch edge.kind {
                case .cancellation: return true
                case .throwToCatch: return (source.kind == .tryPoint && awaits(source)) || rethrowNodes.contains(source.id)
                case .normal, .throwOut: return false
                }
            }
        }
    }

    /// `try await f()` (not `try?`/`try!`) or `for try await` in the body, outside nested closures: the cheap
    /// test on the text before the graph is asked (`awaitedErrorReaches`).
    package static func awaitsThrowingCall(_ body: CodeBlockSyntax) -> Bool {
        var found = false
        BodyScanner.scan(body) { node in
            if let tryExpression = node.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark == nil,
               SyntaxFacts.containsAwait(tryExpression.expression) {
                found = true
            }
            if let loop = node.as(ForStmtSyntax.self), loop.tryKeyword != nil, loop.awaitKeyword != nil { found = true }
        }
        return found
    }

    /// The calls awaited under `try` in the body (outside nested closures), as the index can resolve them;
    /// nil for an awaited throw that names no call (`try await pending` of an `async let`, `for try await`).
    package static func awaitedThrowingCalls(_ body: CodeBlockSyntax, context: FileContext) -> [CallReference?] {
        let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
        var result: [CallReference?] = []
        BodyScanner.scan(body) { node in
            if let loop = node.as(ForStmtSyntax.self), loop.tryKeyword != nil, loop.awaitKeyword != nil { result.append(nil) }
            guard let tryExpression = node.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark == nil,
                  SyntaxFacts.containsAwait(tryExpression.expression) else { return }
            guard let call = outermostCall(tryExpression.expression) ?? asyncLetCall(tryExpression.expression) else {
                result.append(nil)
                return
            }
            let method = SyntaxFacts.calleeMethodName(call)
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, !SyntaxFacts.isSelf(base) {
                result.append(CallReference(caller: caller, callee: method, receiver: ValueTypes.of(base, in: context)))
            } else {
                result.append(CallReference(caller: caller, callee: method, receiver: nil))
            }
        }
        return result
    }

    /// What the errors of one `try` (not `try?`/`try!`) can carry of a cancellation, in the terms of
    /// `CancellationSources`: the framework table's calls that throw on cancellation, its calls that throw only their
    /// closure's errors (nothing), the other calls it makes (for the index), and whether it awaits a value that names
    /// no call. Every call the `try` awaits counts (`try await decode(await fetch())`), and its outermost call.
    /// With `urlErrorsCaught`, an earlier clause takes every `URLError` (`catch let error as URLError`): a framework call
    /// that reports its cancellation only as `URLError.cancelled` (a URLSession transfer) delivers nothing to later clauses.
    package static func cancellationSources(of tryExpression: TryExprSyntax, context: FileContext,
                                            urlErrorsCaught: Bool = false) -> CancellationSources {
        var sources = CancellationSources()
        var calls: [FunctionCallExprSyntax] = []
        if let outer = outermostCall(tryExpression.expression) ?? asyncLetCall(tryExpression.expression) { calls.append(outer) }
        var awaitsWithoutCall = false
        BodyScanner.scan(tryExpression.expression) { node in
            guard let suspension = node.as(AwaitExprSyntax.self) else { return }
            if let call = outermostCall(suspension.expression) ?? asyncLetCall(suspension.expression) {
                if !calls.contains(where: { $0.id == call.id }) { calls.append(call) }
            } else {
                awaitsWithoutCall = true
            }
        }
        if let suspension = tryExpression.expression.as(AwaitExprSyntax.self), outermostCall(suspension.expression) == nil,
           asyncLetCall(suspension.expression) == nil {
            awaitsWithoutCall = true
        }
        if awaitsWithoutCall { sources.awaitsUnnamed = true }
        for call in calls {
            let method = SyntaxFacts.calleeMethodName(call)
            let awaited = isAwaited(call, within: tryExpression)
            if FrameworkCalls.mentions(method),
               let entry = FrameworkCalls.lookup(method: method, receiver: SyntaxFacts.receiverText(call) ?? "",
                                                 callee: SyntaxFacts.calleeName(call), labels: call.arguments.compactMap { $0.label?.text }) {
                if let signal = entry.throwsOnCancellation {
                    if !(urlErrorsCaught && signal == .urlErrorCancelled) { sources.throwsItself = true }
                    continue
                }
                if entry.throwsOnlyClosureErrors { continue }
            }
            // `await loader.data(for:)` on a protocol that mirrors URLSession: known by its name only.
            guard method.startsLikeValueName else {
                // `try await Foo(...)`, `try await Foo.make()`: another type's initializer or static call.
                if awaited { sources.calls.append(ThrowingCall(callee: method, receiver: .unknown, awaited: true)) }
                continue
            }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
                guard let base = member.base else {
                    if awaited { sources.calls.append(ThrowingCall(callee: method, receiver: .unknown, awaited: true)) }
                    continue
                }
                let receiver: ValueType? = SyntaxFacts.isSelf(base) ? nil : context.valueType(ofReceiver: base)
                sources.calls.append(ThrowingCall(callee: method, receiver: receiver, awaited: awaited))
            } else if call.calledExpression.is(DeclReferenceExprSyntax.self) {
                sources.calls.append(ThrowingCall(callee: method, receiver: nil, awaited: awaited))
            } else if awaited {
                sources.awaitsUnnamed = true
            }
        }
        return sources
    }

    /// What the `try`s of a `do` body can carry of a cancellation to its clauses (`cancellationSources(of:context:)`
    /// merged), outside nested closures and inner `do`s whose catch-all takes the error first.
    package static func cancellationSources(ofBody body: CodeBlockSyntax, context: FileContext,
                                            urlErrorsCaught: Bool = false) -> CancellationSources {
        var sources = CancellationSources()
        BodyScanner.scan(body) { node in
            if FunctionSummaryCollector.isCaughtByCatchAll(node, root: body) { return }
            if let tryExpression = node.as(TryExprSyntax.self), tryExpression.questionOrExclamationMark == nil {
                sources = sources.merged(with: cancellationSources(of: tryExpression, context: context, urlErrorsCaught: urlErrorsCaught))
            } else if let loop = node.as(ForStmtSyntax.self), loop.tryKeyword != nil, loop.awaitKeyword != nil {
                sources.awaitsUnnamed = true
            }
        }
        return sources
    }

    /// Whether an `await` inside the `try` wraps the call: `try await f()`, `try await a.b(c)`.
    private static func isAwaited(_ call: FunctionCallExprSyntax, within tryExpression: TryExprSyntax) -> Bool {
        var node = call.parent
        while let current = node, current.id != tryExpression.id {
            if current.is(AwaitExprSyntax.self) { return true }
            if current.is(ClosureExprSyntax.self) { return false }
            node = current.parent
        }
        return false
    }

    /// The call an `async let` the expression awaits was started with: `loadTop()` for `try await top` after
    /// `async let top = loadTop()`. Its errors are the call's.
    private static func asyncLetCall(_ expression: ExprSyntax) -> FunctionCallExprSyntax? {
        var current = expression
        while let awaited = current.as(AwaitExprSyntax.self) { current = awaited.expression }
        guard let reference = current.as(DeclReferenceExprSyntax.self), let identifier = Identifier(reference.baseName) else { return nil }
        for result in ValueTypes.lookup(reference, identifier) {
            guard let name = result.names.first else { continue }
            guard let binding = Syntax(name.syntax).parent?.as(PatternBindingSyntax.self),
                  let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self),
                  declaration.modifiers.contains(where: { $0.name.tokenKind == .keyword(.async) }),
                  let value = binding.initializer?.value else { return nil }
            return outermostCall(value)
        }
        return nil
    }

    /// The call an awaited expression makes: `await f()`, `await service.load().items`.
    static func outermostCall(_ expression: ExprSyntax) -> FunctionCallExprSyntax? {
        var current = expression
        while true {
            if let call = current.as(FunctionCallExprSyntax.self) { return call }
            if let awaited = current.as(AwaitExprSyntax.self) { current = awaited.expression; continue }
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base { current = base; continue }
            if let optional = current.as(OptionalChainingExprSyntax.self) { current = optional.expression; continue }
            if let forced = current.as(ForceUnwrapExprSyntax.self) { current = forced.expression; continue }
            return nil
        }
    }

    /// The body awaits a `URLSession` transfer (`URLSession.shared.data(from:)`, `session.download(for:)`),
    /// which reports its own cancellation as `URLError.cancelled`, not `CancellationError`.
    package static func awaitsURLSessionCall(_ body: CodeBlockSyntax) -> Bool {
        var found = false
        BodyScanner.scan(body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self) else { return }
            let method = SyntaxFacts.calleeMethodName(call)
            guard FrameworkCalls.mentions(method), let receiver = SyntaxFacts.receiverText(call),
                  FrameworkCalls.lookup(method: method, receiver: receiver, callee: "")?.throwsOnCancellation == .urlErrorCancelled
            else { return }
            var parent = call.parent
            while let node = parent, !node.is(CodeBlockItemSyntax.self) {
                if node.is(AwaitExprSyntax.self) { found = true; return }
                parent = node.parent
            }
        }
        return found
    }

    /// How an awaited call is a `URLSession` transfer, which reports its cancellation as `URLError.cancelled`.
    package enum URLTransfer: Sendable {
        /// The framework table's entry matches it (`URLSession.shared.data(from:)`, `session.download(for:)`).
        case urlSession
        /// Only its name and first label are URLSession's (`dataLoader.data(for: request)`, a protocol that mirrors
        /// `URLSession` so tests can stub it): likely one, known by a name.
        case namedLikeURLSession
    }

    /// Methods and first argument labels of URLSession's async transfers (`data(for:delegate:)`,
    /// `data(from:delegate:)`, `download(resumeFrom:delegate:)`, `upload(for:from:delegate:)`, `bytes(for:delegate:)`).
    static let urlTransferLabels: [String: Set<String>] = [
        "data": ["for", "from"], "download": ["for", "from", "resumeFrom"], "upload": ["for"], "bytes": ["for", "from"],
    ]

    /// Whether the awaited expression (`await session.data(for: request)`, `await loader.data(from: url).0`) is a
    /// URLSession transfer, and how that is known; nil when it is none.
    package static func urlTransfer(awaited: AwaitExprSyntax) -> URLTransfer? {
        guard let call = outermostCall(awaited.expression) else { return nil }
        let method = SyntaxFacts.calleeMethodName(call)
        guard let labels = urlTransferLabels[method] else { return nil }
        if let receiver = SyntaxFacts.receiverText(call),
           FrameworkCalls.lookup(method: method, receiver: receiver, callee: "")?.throwsOnCancellation == .urlErrorCancelled {
            return .urlSession
        }
        guard let label = call.arguments.first?.label?.text, labels.contains(label) else { return nil }
        return .namedLikeURLSession
    }

    /// `throw CancellationError()` in a `catch` that receives `URLError.cancelled`: its pattern names it (`catch let
    /// error as URLError where error.code == .cancelled`), or its body tests the code (`if (error as? URLError)?.code
    /// == .cancelled`, `NSURLErrorCancelled`, `-999`). The clause converts a cancelled transfer into the error
    /// `catch is CancellationError` handles. The nearest `catch` around the `throw` in the same function or closure.
    package static func convertsURLErrorCancelled(_ statement: ThrowStmtSyntax) -> Bool {
        guard let thrown = statement.expression.as(FunctionCallExprSyntax.self), thrown.arguments.isEmpty,
              thrown.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "CancellationError" else { return false }
        var parent = statement.parent
        while let node = parent {
            if let clause = node.as(CatchClauseSyntax.self) {
                if catches(.urlErrorCancelled, pattern: clause.catchItems.trimmedText) { return true }
                return testsURLErrorCode(clause.body) || clause.body.tokens(viewMode: .sourceAccurate).contains { $0.text == "cancelled" }
            }
            if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) || node.is(AccessorDeclSyntax.self) { return false }
            parent = node.parent
        }
        return false
    }

    /// `catch`, `catch let error`; not `catch let error as URLError`, `catch is X`, `catch X.y`, nor one with `where`.
    package static func isCatchAll(_ clause: CatchClauseSyntax) -> Bool {
        clause.catchItems.isEmpty || clause.catchItems.allSatisfy { item in
            item.pattern?.is(ValueBindingPatternSyntax.self) == true && item.whereClause == nil && !item.trimmedText.contains(" as ")
        }
    }

    package static func testsOnlyCancellationError(_ body: CodeBlockSyntax) -> Bool {
        let tokens = body.tokens(viewMode: .sourceAccurate).map(\.text)
        return tokens.contains("CancellationError") && !tokens.contains { ["isCancelled", "cancelled", "isCancellation", "URLError"].contains($0) }
            && !testsURLErrorCode(body)
    }

    static func testsCancellation(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            ["CancellationError", "isCancelled", "cancelled", "isCancellation"].contains(token.text)
        } || testsURLErrorCode(body)
    }

    /// A test of the error's code against the cancelled transfer's: `NSURLErrorCancelled`, or its value
    /// `-999` (`(error as NSError).code != -999`), which is `URLError.cancelled` bridged to `NSError`
    /// (Foundation, `NSURLErrorCancelled`: "An asynchronous load has been canceled", -999).
    static func testsURLErrorCode(_ body: CodeBlockSyntax) -> Bool {
        var previous: TokenSyntax?
        for token in body.tokens(viewMode: .sourceAccurate) {
            if token.text == "NSURLErrorCancelled" { return true }
            if token.text == "999", previous?.tokenKind == .prefixOperator("-") { return true }
            previous = token
        }
        return false
    }

    /// The name the error is bound to: `error`, or `failure` in `catch let failure`.
    package static func errorName(of clause: CatchClauseSyntax) -> String {
        guard let pattern = clause.catchItems.first?.pattern?.as(ValueBindingPatternSyntax.self)?.pattern,
              let name = pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return "error" }
        return name
    }

    /// Assignments, calls and throws in the body (closures included: `MainActor.run { self.error = error }`)
    /// whose value mentions the caught error.
    static func destinations(of clause: CatchClauseSyntax, context: FileContext) -> [ErrorDestination] {
        let name = errorName(of: clause)
        var result: [ErrorDestination] = []
        for token in clause.body.tokens(viewMode: .sourceAccurate) where token.text == name {
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            if let destination = destination(of: ExprSyntax(reference), context: context), !result.contains(destination) {
                result.append(destination)
            }
        }
        return result
    }

    /// Climbs from a mention of the error to the statement that takes it somewhere.
    private static func destination(of mention: ExprSyntax, context: FileContext) -> ErrorDestination? {
        var node = Syntax(mention)
        var builtValue = false
        var failure = false
        while let parent = node.parent {
            if parent.is(ThrowStmtSyntax.self) { return .rethrown }
            if parent.is(ReturnStmtSyntax.self) { return failure ? .returnedFailure : nil }
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != node.id {
                let method = SyntaxFacts.calleeMethodName(call)
                let implicitMember = call.calledExpression.as(MemberAccessExprSyntax.self).map { $0.base == nil } ?? false
                if method == "failure" || (implicitMember && Self.failureCaseNames.contains(method)) { failure = true }
                else if method.startsUppercase || method == "init" || implicitMember { builtValue = true }
                else if !["String", "describing", "print", "debugPrint", "dump"].contains(method), !isLogging(call) {
                    if parent.parent?.is(LabeledExprSyntax.self) != true || isStatement(parent) {
                        let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
                        let receiverType = receiver.map { SyntaxFacts.isSelf($0) ? nil : ValueTypes.of($0, in: context) } ?? nil
                        return .passedTo(callee: method, receiver: receiverType)
                    }
                }
            }
            if let sequence = parent.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
               mention.isInside(assignment.value) {
                guard let path = SyntaxFacts.memberPath(assignment.target) else { return nil }
                let property = path.root == "self" ? (path.members.first ?? "self") : path.root
                if path.root != "self", isLocal(path.root, at: sequence) { return nil }
                if failure { return .failureResult(property) }
                if builtValue { return .appValue(property: property) }
                return .property(property)
            }
            if parent.is(CodeBlockItemSyntax.self) || parent.is(ClosureExprSyntax.self) { return nil }
            node = parent
        }
        return nil
    }

    /// Enum cases that record a failure: `.failure(error)`, `.failed(error)`, `.error(error)`.
    static let failureCaseNames: Set<String> = ["failure", "failed", "error", "fail", "failedToLoad"]

    private static func isStatement(_ call: Syntax) -> Bool {
        call.parent?.is(CodeBlockItemSyntax.self) == true || call.parent?.is(AwaitExprSyntax.self) == true
            || call.parent?.is(TryExprSyntax.self) == true
    }

    /// `logger.error(...)`, `Logger.x.debug(...)`, `os_log(...)`, `NSLog(...)`: a log line shows the user nothing.
    private static func isLogging(_ call: FunctionCallExprSyntax) -> Bool {
        let method = SyntaxFacts.calleeMethodName(call)
        if ["os_log", "NSLog", "log"].contains(method) { return true }
        let receiver = (SyntaxFacts.receiverText(call) ?? "").lowercased()
        return receiver.contains("log") && ["error", "debug", "info", "warning", "notice", "fault", "critical", "trace"].contains(method)
    }

    /// A name declared in the function or closure around, as swift-syntax's lexical lookup finds it.
    private static func isLocal(_ name: String, at node: SequenceExprSyntax) -> Bool {
        // The root of the target: `results` in `results.userResult` or `results[key]`.
        var root: ExprSyntax? = node.elements.first
        while let current = root {
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base { root = base }
            else if let subscriptCall = current.as(SubscriptCallExprSyntax.self) { root = subscriptCall.calledExpression }
            else if let optional = current.as(OptionalChainingExprSyntax.self) { root = optional.expression }
            else { break }
        }
        guard let reference = root?.as(DeclReferenceExprSyntax.self),
              let identifier = Identifier(reference.baseName) else { return false }
        for result in ValueTypes.lookup(reference, identifier) {
            if case .lookForMembers = result { return false }
            if !result.names.isEmpty { return true }
        }
        return false
    }
}

import SwiftLexicalLookup
