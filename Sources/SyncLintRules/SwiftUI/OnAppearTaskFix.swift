import SwiftSyntax

/// `.onAppear { Task { body } }` → `.task { body }`, only when the `Task { }` is all of the closure:
/// no other statements, no arguments (`Task(priority:)`), no capture list or parameters on either
/// closure. The body moves out one level, re-indented to where the closure was. None when the rule recorded
/// state that shows the view and that the load may change (`OnAppearTaskRule.hidingStateArgument`).
enum OnAppearTaskFix: RuleFix {
    static let ruleID = OnAppearTaskRule.description.id

    static func edits(for finding: Finding, in file: FixableFile, options: RuleOptions) -> [SourceEdit]? {
        guard finding.arguments[OnAppearTaskRule.hidingStateArgument] == nil,
              let period = file.token(at: finding), period.tokenKind == .period,
              let member = period.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "onAppear",
              let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id,
              call.leftParen == nil, call.arguments.isEmpty, call.additionalTrailingClosures.isEmpty,
              let closure = call.trailingClosure, closure.signature == nil, closure.statements.count == 1,
              let taskCall = closure.statements.first?.item.as(FunctionCallExprSyntax.self),
              taskCall.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Task",
              taskCall.leftParen == nil, taskCall.arguments.isEmpty, taskCall.additionalTrailingClosures.isEmpty,
              let taskClosure = taskCall.trailingClosure, taskClosure.signature == nil,
              !Reindenter.containsMultilineString(taskClosure) else { return nil }
        // cannot fail: the guard above matched `call.trailingClosure` as the `.onAppear` closure.
        let moved = Reindenter(from: file.indentation(ofLineOf: taskCall), to: file.indentation(ofLineOf: call.trailingClosure!))
            .rewrite(taskClosure).cast(ClosureExprSyntax.self)
        let name = member.declName.baseName
        return [
            SourceEdit(range: name.positionAfterSkippingLeadingTrivia..<name.endPositionBeforeTrailingTrivia, replacement: "task"),
            SourceEdit(range: closure.positionAfterSkippingLeadingTrivia..<closure.endPositionBeforeTrailingTrivia,
                       replacement: moved.trimmedText),
        ]
    }
}
