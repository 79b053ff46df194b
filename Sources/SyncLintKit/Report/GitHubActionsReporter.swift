/// GitHub Actions workflow commands: `::warning file=…,line=…,col=…,title=…::message`, one per
/// finding, which the runner turns into annotations on the pull request's diff.
///
/// Escaping follows the runner's parser: in the message `%`, `\r` and `\n` become `%25`, `%0D`,
/// `%0A`; in a property value `:` and `,` also become `%3A` and `%2C`, since they delimit properties.
///
/// A finding's notes follow it as `::notice` annotations at their own lines (titled with the rule id, so a
/// reader sees which finding they belong to); a medium-confidence finding says so in its title.
public enum GitHubActionsReporter {
    public static func render(_ report: LintReport) -> String {
        report.findings.map { finding in
            let confidence = finding.confidence == .high ? "" : ", \(finding.confidence.rawValue) confidence"
            var lines = [annotation(finding.severity == .error ? "error" : "warning", file: report.path(of: finding),
                                    line: finding.line, column: finding.column,
                                    title: "\(finding.ruleName) (\(finding.ruleID)\(confidence))", message: finding.message)]
            for note in finding.notes {
                lines.append(annotation("notice", file: report.path(of: note), line: note.location.line, column: note.location.column,
                                        title: "note for \(finding.ruleID) at \(report.path(of: finding)):\(finding.line)", message: note.text))
            }
            return lines.joined()
        }.joined()
    }

    static func annotation(_ level: String, file: String, line: Int, column: Int, title: String, message: String) -> String {
        let properties = [("file", file), ("line", String(line)), ("col", String(column)), ("title", title)]
            .map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(level) \(properties)::\(escapeData(message))\n"
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
