import SwiftSyntax

/// Adds `defer { flag = false }` right after `flag = true`, so every exit resets it. Only when the
/// assignment is a statement of the function body itself: a `defer` inside an `if` or a loop would run
/// at the end of that block, not of the function.
enum LoadingStateNotResetFix: RuleFix {
    static let ruleID = LoadingStateNotResetRule.description.id
    static let flagMessages: Set<String> = [LoadingStateNotResetRule.exitLeavesFlagSet.id, LoadingStateNotResetRule.catchLeavesFlagSet.id,
                                            LoadingStateNotResetRule.endLeavesFlagSet.id]

    static func edits(for finding: Finding, in file: FixableFile, options: RuleOptions) -> [SourceEdit]? {
        let flags = Set(options.strings("flags", default: LoadingStateNotResetRule.defaultFlags))
        // Only a flag of the function itself: a task's exit, a finished flag or a pair of calls has no such `defer`.
        guard Self.flagMessages.contains(finding.messageID), let exit = file.token(at: finding),
              let function = exit.ancestorOrSelf(mapping: { $0.as(FunctionDeclSyntax.self) }),
              exit.ancestorOrSelf(mapping: { $0.as(ClosureExprSyntax.self) }).map({ $0.position > function.position }) != true,
              let body = function.body else { return nil }
        // The last top-level `flag = true` before the exit: the one the exit leaves set.
        let set = body.statements.last { item in
            guard item.endPosition <= exit.position, let sequence = item.item.as(SequenceExprSyntax.self),
                  let assignment = SyntaxFacts.assignment(sequence), SyntaxFacts.boolLiteral(assignment.value) == true,
                  let flag = FlowFacts.selfProperty(assignment.target, locals: []) else { return false }
            return flags.contains(flag)
        }
        guard let set, let sequence = set.item.as(SequenceExprSyntax.self),
              let target = SyntaxFacts.assignment(sequence)?.target else { return nil }
        let position = set.endPosition
        return [SourceEdit(range: position..<position,
                           replacement: "\n\(file.indentation(ofLineOf: set))defer { \(target.trimmedText) = false }")]
    }
}
