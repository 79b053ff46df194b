import SwiftSyntax

/// Adds an empty `catch is CancellationError` clause before the catch-all, in the shape of the code
/// around it: `} catch is CancellationError {\n} catch {` when the clauses are on their own lines,
/// `catch is CancellationError {} catch {` when the whole `do` is on one line. When an earlier clause already
/// catches `CancellationError`, or the catch-all itself returns early on `error is CancellationError` (the finding
/// is then about a URLSession transfer's `URLError.cancelled`), the
/// clause added is `catch let error as URLError where error.code == .cancelled`: adding a second
/// `CancellationError` clause would change nothing and be added again on every run. When the catch-all
/// ends by leaving, an empty clause would fall through to the code after the `do` instead (which does not
/// compile in a function that returns a value, and runs code the catch-all skipped in one that does not):
/// a bare `return`, `break` or `continue` is copied into the new clause; any other way of leaving
/// (`return value`, `throw`, `fatalError`) gets no fix.
enum CancellationReportedAsErrorFix: RuleFix {
    static let ruleID = CancellationReportedAsErrorRule.description.id

    static func edits(for finding: Finding, in file: FixableFile, options: RuleOptions) -> [SourceEdit]? {
        guard let keyword = file.token(at: finding), keyword.tokenKind == .keyword(.catch),
              let clause = keyword.parent?.as(CatchClauseSyntax.self),
              let doStatement = clause.parent?.parent?.as(DoStmtSyntax.self),
              let previous = keyword.previousToken(viewMode: .sourceAccurate) else { return nil }
        var leaving = ""
        var body = ""
        if endsByLeaving(clause.body) {
            guard let exit = clause.body.statements.last, isBareExit(exit.item) else { return nil }
            leaving = exit.trimmedDescription
            // The copied exit, indented as in the catch-all.
            body = "\(file.indentation(ofLineOf: exit))\(leaving)\n"
        }
        let line = { (position: AbsolutePosition) in file.converter.location(for: position).line }
        let keywordLine = line(keyword.positionAfterSkippingLeadingTrivia)
        let indentation = file.indentation(ofLineOf: keyword)
        // An earlier `catch is CancellationError`, or the catch-all's own `if error is CancellationError { return }`:
        // what is left to skip is `URLError.cancelled`.
        let handlesCancellationError = CatchFacts.testsOnlyCancellationError(clause.body) || doStatement.catchClauses.contains { earlier in
            earlier.position < clause.position && earlier.catchItems.trimmedDescription.contains("CancellationError")
        }
        let skipped = handlesCancellationError ? "catch let error as URLError where error.code == .cancelled" : "catch is CancellationError"
        let inserted: String
        if line(doStatement.doKeyword.positionAfterSkippingLeadingTrivia) == keywordLine {
            inserted = leaving.isEmpty ? "\(skipped) {} " : "\(skipped) { \(leaving) } "
        } else if line(previous.positionAfterSkippingLeadingTrivia) == keywordLine {
            inserted = "\(skipped) {\n\(body)\(indentation)} "
        } else {
            inserted = "\(skipped) {\n\(body)\(indentation)}\n\(indentation)"
        }
        let start = keyword.positionAfterSkippingLeadingTrivia
        return [SourceEdit(range: start..<start, replacement: inserted)]
    }

    /// Whether a block's last statement leaves it: an empty clause in its place would fall through instead.
    static func endsByLeaving(_ block: CodeBlockSyntax) -> Bool {
        guard let last = block.statements.last?.item else { return false }
        if last.is(ReturnStmtSyntax.self) || last.is(ThrowStmtSyntax.self) || last.is(BreakStmtSyntax.self)
            || last.is(ContinueStmtSyntax.self) {
            return true
        }
        if let call = last.as(FunctionCallExprSyntax.self) ?? last.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self) {
            return ["fatalError", "preconditionFailure"].contains(SyntaxFacts.calleeName(call))
        }
        return false
    }

    /// `return`, `break`, `continue` without a value: the same exit fits a clause that skips the error.
    static func isBareExit(_ item: CodeBlockItemSyntax.Item) -> Bool {
        if let exit = item.as(ReturnStmtSyntax.self) { return exit.expression == nil }
        return item.is(BreakStmtSyntax.self) || item.is(ContinueStmtSyntax.self)
    }
}
