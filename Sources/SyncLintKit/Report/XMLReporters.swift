/// Checkstyle XML, read by Jenkins' warnings plugin, reviewdog, Danger and most code review bots:
/// one `<file>` per file (sorted), one `<error>` per finding, `source` naming the rule. Checkstyle has no
/// field for related locations or confidence, so a finding's notes and a medium confidence are lines
/// added to its message (`CheckstyleReporter.message(of:in:)`); the first line stays the finding's own.
public enum CheckstyleReporter {
    public static func render(_ report: LintReport) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<checkstyle version=\"4.3\">\n"
        let byFile = Dictionary(grouping: report.findings, by: { report.path(of: $0) })
        for path in byFile.keys.sorted() {
            text += "  <file name=\"\(XML.escape(path))\">\n"
            // cannot fail: `path` is a key of `byFile`.
            for finding in byFile[path]!.sorted(by: Finding.ordered) {
                text += "    <error line=\"\(finding.line)\" column=\"\(finding.column)\" severity=\"\(finding.severity.rawValue)\""
                text += " message=\"\(XML.escape(message(of: finding, in: report)))\" source=\"synclint.\(finding.ruleID)\"/>\n"
            }
            text += "  </file>\n"
        }
        return text + "</checkstyle>\n"
    }

    /// The message, then "(medium confidence)" when the facts did not prove every step, then one line per note.
    static func message(of finding: Finding, in report: LintReport) -> String {
        let confidence = finding.confidence == .high ? [] : ["(\(finding.confidence.rawValue) confidence)"]
        return ([finding.message] + confidence + report.noteLines(of: finding)).joined(separator: "\n")
    }
}

/// JUnit XML, which GitLab, Jenkins, Azure Pipelines and CircleCI show as test results: one test
/// suite per rule that ran, one failing test case per finding; a rule with no findings is one passing
/// test case, so the report says which checks ran. The failure's text carries the notes and a medium
/// confidence as Checkstyle's message does; its `message` attribute stays the finding's own.
public enum JUnitReporter {
    public static func render(_ report: LintReport) -> String {
        let byRule = Dictionary(grouping: report.findings, by: \.ruleID)
        let ruleIDs = Set(report.rules.map(\.id)).union(byRule.keys).sorted()
        let tests = ruleIDs.reduce(0) { $0 + max(1, byRule[$1]?.count ?? 0) }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<testsuites name=\"synclint\" tests=\"\(tests)\" failures=\"\(report.findings.count)\" errors=\"0\">\n"
        for ruleID in ruleIDs {
            let findings = (byRule[ruleID] ?? []).sorted(by: Finding.ordered)
            text += "  <testsuite name=\"\(XML.escape(ruleID))\" tests=\"\(max(1, findings.count))\" failures=\"\(findings.count)\" errors=\"0\">\n"
            if findings.isEmpty {
                text += "    <testcase classname=\"synclint.\(XML.escape(ruleID))\" name=\"no findings\"/>\n"
            }
            for finding in findings {
                let location = "\(report.path(of: finding)):\(finding.line):\(finding.column)"
                text += "    <testcase classname=\"synclint.\(XML.escape(ruleID))\" name=\"\(XML.escape(location))\" file=\"\(XML.escape(report.path(of: finding)))\" line=\"\(finding.line)\">\n"
                text += "      <failure type=\"\(finding.severity.rawValue)\" message=\"\(XML.escape(finding.message))\">"
                let body = "\(location): \(finding.severity.rawValue): \(CheckstyleReporter.message(of: finding, in: report))"
                text += XML.escape(body) + "</failure>\n"
                text += "    </testcase>\n"
            }
            text += "  </testsuite>\n"
        }
        return text + "</testsuites>\n"
    }
}

enum XML {
    /// Escapes text for an attribute value or element content. Control characters XML 1.0 forbids
    /// are dropped (they cannot be escaped); tab, newline and return are written as references so
    /// attribute values keep them.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
