import SwiftSyntax

/// How the closure given to `withCheckedContinuation` (and its kin, `FrameworkContinuations`) uses its
/// continuation: which `resume` calls it makes, in which nested closures, and whether the continuation leaves
/// the closure's sight (stored, passed on, shadowed), after which nothing can be said about it.
package struct ContinuationUse {
    /// The continuation's parameter name.
    package let name: String
    /// Every `name.resume(…)` call, in source order.
    package let resumes: [FunctionCallExprSyntax]
    /// The closures the resumes stand in, from the continuation's closure down: each with the resumes made
    /// directly in it and the nested closures (holding resumes) it creates.
    package let levels: [Level]
    /// Names set to `true` anywhere in the continuation's closure (`didResume = true`, `state.resumed = true`):
    /// the flag of an atomic claim, which a callback called several times tests before resuming once.
    package let claimFlags: Set<String>

    package struct Level {
        package let closure: ClosureExprSyntax
        package let resumes: [FunctionCallExprSyntax]
        package let children: [ClosureExprSyntax]
    }

    /// The conditions of a closure that test a claim flag (`guard !didResume else { return }`).
    package func claimTests(in closure: ClosureExprSyntax) -> [ConditionElementSyntax] {
        guard !claimFlags.isEmpty else { return [] }
        var found: [ConditionElementSyntax] = []
        BodyScanner.scan(closure.statements) { node in
            guard let condition = node.as(ConditionElementSyntax.self),
                  condition.tokens(viewMode: .sourceAccurate).contains(where: { claimFlags.contains($0.text) }) else { return }
            found.append(condition)
        }
        return found
    }

    /// The use of the continuation in a call's trailing closure, when the call is a continuation function and
    /// the continuation is only ever resumed (never stored, passed, returned or shadowed); nil otherwise.
    package static func of(_ call: FunctionCallExprSyntax) -> ContinuationUse? {
        guard FrameworkContinuations.continuationFunction(named: SyntaxFacts.calleeName(call)) != nil,
              let closure = SyntaxFacts.closures(of: call).last, let name = parameterName(of: closure) else { return nil }
        let scan = ReferenceScan(name: name, root: closure)
        scan.walk(closure.statements)
        guard !scan.escapes, !scan.resumes.isEmpty else { return nil }
        // Each resume's chain of closures inside the continuation's own.
        var direct: [SyntaxIdentifier: [FunctionCallExprSyntax]] = [:]
        var children: [SyntaxIdentifier: [ClosureExprSyntax]] = [:]
        var closures: [SyntaxIdentifier: ClosureExprSyntax] = [closure.id: closure]
        for resume in scan.resumes {
            var inner: ClosureExprSyntax?
            var node = Syntax(resume)
            while let parent = node.parent {
                if let holder = parent.as(ClosureExprSyntax.self) {
                    if inner == nil {
                        direct[holder.id, default: []].append(resume)
                    } else if let inner, !(children[holder.id] ?? []).contains(where: { $0.id == inner.id }) {
                        children[holder.id, default: []].append(inner)
                    }
                    closures[holder.id] = holder
                    inner = holder
                    if holder.id == closure.id { break }
                }
                node = parent
            }
        }
        let levels = closures.values.sorted { $0.position < $1.position }.map {
            Level(closure: $0, resumes: direct[$0.id] ?? [], children: children[$0.id] ?? [])
        }
        return ContinuationUse(name: name, resumes: scan.resumes, levels: levels, claimFlags: scan.flagsSetTrue)
    }

    /// `{ continuation in`, `{ (continuation: CheckedContinuation<…>) in`; nil for `$0` or `_`.
    package static func parameterName(of closure: ClosureExprSyntax) -> String? {
        guard let clause = closure.signature?.parameterClause else { return nil }
        let name: String?
        switch clause {
        case .simpleInput(let shorthand): name = shorthand.first?.name.text
        case .parameterClause(let parameters):
            name = parameters.parameters.first.map { ($0.secondName ?? $0.firstName).text }
        }
        guard let name, name != "_" else { return nil }
        return name
    }

    /// The resume calls and whether any other use of the name is made.
    private final class ReferenceScan: SyntaxVisitor {
        let name: String
        let root: ClosureExprSyntax
        var resumes: [FunctionCallExprSyntax] = []
        var escapes = false
        var flagsSetTrue: Set<String> = []

        init(name: String, root: ClosureExprSyntax) {
            self.name = name
            self.root = root
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            guard node.baseName.text == name else { return .visitChildren }
            // `other.continuation`: a member of something else, not this name.
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id { return .visitChildren }
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.text == FrameworkContinuations.resumeMethod.callee,
               let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id,
               !Self.isInsideNestedDeclaration(Syntax(node), root: root) {
                resumes.append(call)
            } else {
                escapes = true
            }
            return .visitChildren
        }

        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            if let assignment = SyntaxFacts.assignment(node), SyntaxFacts.boolLiteral(assignment.value) == true,
               let last = Array(assignment.target.tokens(viewMode: .sourceAccurate)).last(where: {
                   if case .identifier = $0.tokenKind { return true } else { return false }
               }) {
                flagsSetTrue.insert(last.text)
            }
            return .visitChildren
        }

        /// The same name declared again inside (a nested continuation, `if let continuation`): another value.
        override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
            if node.identifier.text == name { escapes = true }
            return .visitChildren
        }

        override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
            if node.name.text == name { escapes = true }
            return .visitChildren
        }

        override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
            if (node.secondName ?? node.firstName).text == name { escapes = true }
            return .visitChildren
        }

        /// A resume inside a nested function or type runs whenever that is called: not followed.
        private static func isInsideNestedDeclaration(_ node: Syntax, root: ClosureExprSyntax) -> Bool {
            var current = node
            while let parent = current.parent, parent.id != root.id {
                if parent.is(FunctionDeclSyntax.self) || parent.is(InitializerDeclSyntax.self) || parent.is(AccessorBlockSyntax.self)
                    || parent.is(MemberBlockSyntax.self) { return true }
                current = parent
            }
            return false
        }
    }
}
