import SwiftSyntax

/// `.task { }` → `.task(id: identity) { }`, with the identity the rule recorded in the finding's arguments
/// (found in the index: `article.persistentModelID`, `viewModel.article.id`); none recorded, no fix. Unsafe: the task now
/// restarts whenever that identity changes, which is the point, but a person should check the identity
/// is the value the task works on.
enum TaskWithoutIDFix: RuleFix {
    static let ruleID = TaskWithoutIDRule.description.id

    static func edits(for finding: Finding, in file: FixableFile, options: RuleOptions) -> [SourceEdit]? {
        guard let identity = identity(of: finding),
              let period = file.token(at: finding), period.tokenKind == .period,
              let member = period.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "task",
              let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id,
              SyntaxFacts.argument("id", of: call) == nil else { return nil }
        if let leftParen = call.leftParen {
            let separator = call.arguments.isEmpty ? "" : ", "
            return [SourceEdit(range: leftParen.endPositionBeforeTrailingTrivia..<leftParen.endPositionBeforeTrailingTrivia,
                               replacement: "id: \(identity)\(separator)")]
        }
        let name = member.declName.baseName
        return [SourceEdit(range: name.endPositionBeforeTrailingTrivia..<name.endPositionBeforeTrailingTrivia,
                           replacement: "(id: \(identity))")]
    }

    /// The identity the rule recorded: only a plain member path, so the fix writes nothing else.
    static func identity(of finding: Finding) -> String? {
        guard let identity = finding.arguments[TaskWithoutIDRule.identityArgument] else { return nil }
        let allowed = identity.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        return allowed && !identity.isEmpty ? identity : nil
    }
}
