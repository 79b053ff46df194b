/// A Markdown table, for `$GITHUB_STEP_SUMMARY` or a merge-request comment: a count line, then one
/// row per finding. Pipes and line breaks in messages are escaped so a row stays one row. A finding's notes
/// are lines of its message cell (`↳ path:line:col — text`), and a medium-confidence finding says so there.
public enum MarkdownReporter {
    public static func render(_ report: LintReport) -> String {
        guard !report.findings.isEmpty else { return "### SyncLint: no findings\n" }
        var text = "### SyncLint: \(SummaryReporter.counts(report))\n\n"
        text += "| Severity | Rule | Location | Message |\n|---|---|---|---|\n"
        for finding in report.findings {
            let severity = finding.severity == .error ? "❌ error" : "⚠️ warning"
            let rule = report.helpURL(for: finding.ruleID).map { "[`\(finding.ruleID)`](\($0))" } ?? "`\(finding.ruleID)`"
            var message = cell(finding.message)
            if finding.confidence != .high { message += " _(\(finding.confidence.rawValue) confidence)_" }
            for note in finding.notes {
                message += "<br>↳ `\(cell(report.path(of: note)))`:\(note.location.line):\(note.location.column) — \(cell(note.text))"
            }
            text += "| \(severity) | \(rule) | `\(cell(report.path(of: finding)))`:\(finding.line):\(finding.column) | \(message) |\n"
        }
        return text
    }

    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\r\n", with: "<br>")
            .replacingOccurrences(of: "\n", with: "<br>")
            .replacingOccurrences(of: "\r", with: "<br>")
    }
}

/// Counts per rule, for a quick look at where a legacy project stands (or to decide which rules to
/// baseline): one line per rule that fired, most findings first, then the total.
public enum SummaryReporter {
    public static func render(_ report: LintReport) -> String {
        let rows = report.findingsByRule.sorted { ($0.findings.count, $1.ruleID) > ($1.findings.count, $0.ruleID) }
        // cannot fail: a literal array of two names.
        let width = max(["rule", "total"].map(\.count).max()!, rows.map(\.ruleID.count).max() ?? 0)
        var text = "rule".padding(toLength: width, withPad: " ", startingAt: 0) + "  severity  findings  files\n"
        for row in rows {
            let severity = row.findings.map(\.severity).max() ?? .warning
            let files = Set(row.findings.map(\.file)).count
            text += row.ruleID.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + "  "
                + String(row.findings.count).leftPadded(8) + "  " + String(files).leftPadded(5) + "\n"
        }
        let files = Set(report.findings.map(\.file)).count
        text += "total".padding(toLength: width, withPad: " ", startingAt: 0) + "            "
            + String(report.findings.count).leftPadded(8) + "  " + String(files).leftPadded(5) + "\n"
        return text
    }

    /// "3 findings (1 error, 2 warnings)".
    static func counts(_ report: LintReport) -> String {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        return "\(plural(report.findings.count, "finding")) (\(plural(report.errorCount, "error")), \(plural(report.warningCount, "warning")))"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
