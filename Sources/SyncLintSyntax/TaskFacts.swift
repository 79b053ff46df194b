import SwiftSyntax

/// Questions about unstructured tasks: is this call a `Task { }`, and where does its handle go?
public enum TaskFacts {
    /// `Task { }`, `Task(priority:) { }`, `Task.detached { }` with a closure.
    public static func isTaskCreation(_ call: FunctionCallExprSyntax, context: FileContext? = nil) -> Bool {
        let method = context?.calleeMethodName(call) ?? SyntaxFacts.calleeMethodName(call)
        guard FrameworkCalls.mentions(method) else { return false }
        let callee = FrameworkCalls.needsCallee(method) ? SyntaxFacts.calleeName(call) : ""
        let runner = FrameworkCalls.lookup(method: method, receiver: "", callee: callee)?.runsClosure
        return (runner == .unstructuredTask || runner == .detachedTask) && !SyntaxFacts.closures(of: call).isEmpty
    }

    /// The expression a value is assigned to, when the value is the right side of `target = value`.
    public static func assignmentTarget(ofValue expression: some SyntaxProtocol) -> ExprSyntax? {
        guard let list = expression.parent?.as(ExprListSyntax.self),
              let sequence = list.parent?.as(SequenceExprSyntax.self),
              let assignment = SyntaxFacts.assignment(sequence),
              assignment.value.id == Syntax(expression).id else { return nil }
        return assignment.target
    }

    /// The name of the stored property (as `x` or `self.x`) a task's handle is written to: directly
    /// (`x = Task { }`) or through a local constant (`let task = Task { }; x = task`) in the same body.
    /// Returns nil for handles kept in locals or thrown away.
    public static func storedHandleName(of call: FunctionCallExprSyntax, in body: CodeBlockSyntax?) -> String? {
        storedHandleTarget(of: call, in: body).flatMap(propertyName)
    }

    /// Where a task's handle is stored: the target of `target = Task { }`, or of `target = task` after
    /// `let task = Task { }` in the same body (a handle assigned through a local).
    public static func storedHandleTarget(of call: FunctionCallExprSyntax, in body: CodeBlockSyntax?) -> ExprSyntax? {
        if let target = assignmentTarget(ofValue: call) { return target }
        guard let binding = call.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
              let local = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let body else { return nil }
        for sequence in body.tokens(viewMode: .sourceAccurate).compactMap({ $0.parent?.parent?.parent?.as(SequenceExprSyntax.self) })
        where sequence.positionAfterSkippingLeadingTrivia > call.endPosition {
            if let assignment = SyntaxFacts.assignment(sequence), assignment.value.trimmedText == local {
                return assignment.target
            }
        }
        return nil
    }

    /// `x` for `x` or `self.x`; nil for deeper paths and locals' members.
    package static func propertyName(_ target: ExprSyntax) -> String? {
        guard let path = SyntaxFacts.memberPath(target) else { return nil }
        if path.root == "self", path.members.count == 1 { return path.members[0] }
        if path.root != "self", path.members.isEmpty { return path.root }
        return nil
    }
}
