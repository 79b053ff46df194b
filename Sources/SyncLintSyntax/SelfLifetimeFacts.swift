import SwiftSyntax

/// How long a task closure keeps `self`, from the closure and its owner's declaration alone: what `deinit`
/// cancels, where `self` is bound strongly again after `[weak self]`, and whether a use of `self` comes after an
/// `await` (so the task holds `self` while it waits).
public enum SelfLifetimeFacts {
    /// Properties the type's `deinit` calls `cancel()` on (`fetchTask?.cancel()`, `self.task.cancel()`): the
    /// tasks the owner expects to stop when it is released. A `deinit` is always in the type's own body, so the
    /// declaration node tells it whole.
    public static func handlesCancelledInDeinit(of typeNode: Syntax) -> Set<String> {
        let members = typeNode.as(ClassDeclSyntax.self)?.memberBlock.members ?? typeNode.as(ActorDeclSyntax.self)?.memberBlock.members
        guard let members else { return [] }
        var names: Set<String> = []
        for member in members {
            guard let body = member.decl.as(DeinitializerDeclSyntax.self)?.body else { continue }
            for node in body.statements.tokens(viewMode: .sourceAccurate).compactMap({ $0.parent?.as(MemberAccessExprSyntax.self) }) {
                guard node.declName.baseName.text == "cancel", let base = node.base,
                      let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id,
                      call.arguments.isEmpty else { continue }
                let target = base.as(OptionalChainingExprSyntax.self)?.expression ?? base
                if let name = target.as(DeclReferenceExprSyntax.self)?.baseName.text {
                    names.insert(name)
                } else if let member = target.as(MemberAccessExprSyntax.self), let owner = member.base, SyntaxFacts.isSelf(owner) {
                    names.insert(member.declName.baseName.text)
                }
            }
        }
        return names
    }

    /// A statement of the closure's own body that binds `self` strongly again after `[weak self]`:
    /// `guard let self`, `guard let self = self`, `guard let strongSelf = self`; with the name it binds.
    public static func strongRebinding(in closure: ClosureExprSyntax) -> (index: Int, name: String)? {
        for (index, item) in closure.statements.enumerated() {
            guard let guardStatement = item.item.as(GuardStmtSyntax.self) else { continue }
            for condition in guardStatement.conditions {
                guard let binding = condition.condition.as(OptionalBindingConditionSyntax.self),
                      let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let name = pattern.identifier.text
                if let value = binding.initializer?.value {
                    if SyntaxFacts.isSelf(value) { return (index, name) }
                } else if pattern.identifier.tokenKind == .keyword(.self) {
                    return (index, "self")
                }
            }
        }
        return nil
    }

    /// The first statement at or after `start` of the closure's own body that is a long or endless loop: a
    /// `for await` over a sequence that is not a task group's children, or a `while`/`repeat` that awaits in its
    /// body (a poll, a retry); with whether it uses `name` (the strong `self`) inside.
    public static func longLoop(in closure: ClosureExprSyntax, from start: Int, using name: String) -> Syntax? {
        for item in closure.statements.dropFirst(start) {
            let statement = item.item.as(ExpressionStmtSyntax.self).map { Syntax($0.expression) } ?? Syntax(item.item)
            let loopBody: Syntax?
            if let loop = statement.as(ForStmtSyntax.self) {
                loopBody = loop.awaitKeyword != nil && !isTaskGroup(loop.sequence) ? Syntax(loop.body) : nil
            } else if let loop = statement.as(WhileStmtSyntax.self) {
                loopBody = SyntaxFacts.containsAwait(loop.body.statements) ? Syntax(loop.body) : nil
            } else if let loop = statement.as(RepeatStmtSyntax.self) {
                loopBody = SyntaxFacts.containsAwait(loop.body.statements) ? Syntax(loop.body) : nil
            } else {
                loopBody = nil
            }
            if let loopBody, uses(name, in: loopBody) { return statement }
        }
        return nil
    }

    /// Whether the closure's own body uses `name` (`self`, or the name `guard let` bound it to) strongly after
    /// its first `await` (after statement `start`): the task then holds `self` while it waits.
    public static func usesAfterFirstAwait(_ name: String, in closure: ClosureExprSyntax, from start: Int = 0) -> Bool {
        var awaited = false
        for item in closure.statements.dropFirst(start) {
            if awaited, uses(name, in: Syntax(item)) { return true }
            if SyntaxFacts.containsAwait(item) {
                // `let page = try await self.fetch()`: `self` is held while that `await` waits.
                if uses(name, in: Syntax(item)) { return true }
                awaited = true
            }
        }
        return false
    }

    /// A strong use of `name`: a reference that is not `name?.x` (through the weak reference) and is not in a
    /// nested closure that captures it weakly.
    static func uses(_ name: String, in node: Syntax) -> Bool {
        for token in node.tokens(viewMode: .sourceAccurate) {
            let matches = name == "self" ? token.tokenKind == .keyword(.self) : token.tokenKind == .identifier(name)
            guard matches, let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                  reference.parent?.is(OptionalChainingExprSyntax.self) != true else { continue }
            // The `self` of a capture list (`[weak self]`) is no use.
            if reference.parent?.is(ClosureCaptureSyntax.self) == true { continue }
            return true
        }
        return false
    }

    /// `for await result in group` inside `withTaskGroup { group in }`: it ends with the group's children.
    static func isTaskGroup(_ sequence: ExprSyntax) -> Bool {
        guard let name = sequence.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        var current = sequence.parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self), NotificationHandler.parameterNames(closure).contains(name) {
                guard let call = SyntaxFacts.enclosingCall(ofClosure: closure) else { return false }
                return SyntaxFacts.calleeName(call).hasSuffix("TaskGroup")
            }
            current = node.parent
        }
        return false
    }
}
