import SwiftSyntax

/// Adds `@ObservationIgnored` in front of the task handle's declaration, when the declaration binds
/// only that property (the attribute would also hide the other properties of `var a: Task<...>?, b = 0`).
enum ObservedTaskHandleFix: RuleFix {
    static let ruleID = ObservedTaskHandleRule.description.id

    static func edits(for finding: Finding, in file: FixableFile, options: RuleOptions) -> [SourceEdit]? {
        guard let token = file.token(at: finding),
              let variable = token.ancestorOrSelf(mapping: { $0.as(VariableDeclSyntax.self) }),
              variable.bindings.count == 1,
              !SyntaxFacts.hasAttribute("ObservationIgnored", variable.attributes) else { return nil }
        let start = variable.positionAfterSkippingLeadingTrivia
        return [SourceEdit(range: start..<start, replacement: "@ObservationIgnored ")]
    }
}
