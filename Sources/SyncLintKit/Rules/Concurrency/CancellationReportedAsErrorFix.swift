import SwiftSyntax

/// Adds an empty `catch is CancellationError` clause before the catch-all, in the shape of the code
/// around it: `} catch is CancellationError {\n} catch {` when the clauses are on their own lines,
/// `catch is CancellationError {} catch {` when the whole `do` is on one line. When an earlier clause already
/// catches `CancellationError` (the finding is then about a URLSession transfer's `URLError.cancelled`), the
/// clause added is `catch let error as URLError where error.code == .cancelled`: adding a second
/// `CancellationError` clause would change nothing and be added again on every run.
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
        let handlesCancellationError = doStatement.catchClauses.contains { earlier in
            earlier.position < clause.position && earlier.catchItems.trimmedDescription.contains("CancellationError")
        }
        let skipped = handlesCancellationError ? "catch let error as URLError where error.code == .cancelled" : "catch is CancellationError"
        let inserted: String
        if line(doStatement.doKeyword.positionAfterSkippingLeadingTrivia) == keywordLine {
            inserted = "\(skipped) {} "
        } else if line(previous.positionAfterSkippingLeadingTrivia) == keywordLine {
            inserted = "\(skipped) {\n\(indentation)} "
        } else {
            inserted = "\(skipped) {\n\(indentation)}\n\(indentation)"
        }
        let start = keyword.positionAfterSkippingLeadingTrivia
        return [SourceEdit(range: start..<start, replacement: inserted)]
    }
}
