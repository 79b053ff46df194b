import SwiftSyntax

/// Adds an empty `catch is CancellationError` clause before the catch-all, in the shape of the code
/// around it: `} catch is CancellationError {\n} catch {` when the clauses are on their own lines,
/// `catch is CancellationError {} catch {` when the whole `do` is on one line.
enum CancellationReportedAsErrorFix: RuleFix {
    static let ruleID = CancellationReportedAsErrorRule.description.id

    static func edits(for finding: Finding, in file: FixableFile, options: RuleOptions) -> [SourceEdit]? {
        guard let keyword = file.token(at: finding), keyword.tokenKind == .keyword(.catch),
              let clause = keyword.parent?.as(CatchClauseSyntax.self),
              let doStatement = clause.parent?.parent?.as(DoStmtSyntax.self),
              let previous = keyword.previousToken(viewMode: .sourceAccurate) else { return nil }
        let line = { (position: AbsolutePosition) in file.converter.location(for: position).line }
        let keywordLine = line(keyword.positionAfterSkippingLeadingTrivia)
        let indentation = file.indentation(ofLineOf: keyword)
        let inserted: String
        if line(doStatement.doKeyword.positionAfterSkippingLeadingTrivia) == keywordLine {
            inserted = "catch is CancellationError {} "
        } else if line(previous.positionAfterSkippingLeadingTrivia) == keywordLine {
            inserted = "catch is CancellationError {\n\(indentation)} "
        } else {
            inserted = "catch is CancellationError {\n\(indentation)}\n\(indentation)"
        }
        let start = keyword.positionAfterSkippingLeadingTrivia
        return [SourceEdit(range: start..<start, replacement: inserted)]
    }
}
