/// GitHub Actions workflow commands: `::warning file=…,line=…,col=…,title=…::message`, one per
/// finding, which the runner turns into annotations on the pull request's diff.
///
/// Escaping follows the runner's parser: in the message `%`, `\r` and `\n` become `%25`, `%0D`,
/// `%0A`; in a property value `:` and `,` also become `%3A` and `%2C`, since they delimit properties.
public enum GitHubActionsReporter {
    public static func render(_ report: LintReport) -> String {
        report.findings.map { finding in
            let properties = [
                ("file", report.path(of: finding)),
                ("line", String(finding.line)),
                ("col", String(finding.column)),
                ("title", "\(finding.ruleName) (\(finding.ruleID))"),
            ].map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
            return "::\(finding.severity == .error ? "error" : "warning") \(properties)::\(escapeData(finding.message))\n"
        }.joined()
    }

    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
