import Foundation

/// Output formats for findings.
public enum ReporterKind: String, CaseIterable, Sendable {
    /// `path:line:column: warning: message (rule_id)`, the format Xcode and editors parse.
    case xcode
    /// SwiftLint's JSON reporter format, so tools that read SwiftLint's JSON read ours.
    case json
    /// SARIF 2.1.0, for GitHub code scanning and CI dashboards.
    case sarif
    /// GitHub Actions workflow commands: annotations on the pull request.
    case githubActions = "github-actions"
    /// Checkstyle XML (Jenkins, reviewdog, Danger).
    case checkstyle
    /// JUnit XML (GitLab, Jenkins, Azure Pipelines test results).
    case junit
    /// GitLab code quality JSON (Code Climate issues).
    case codeclimate
    /// A Markdown table, for a job summary or a merge-request comment.
    case markdown
    /// One self-contained HTML page, grouped by rule and file.
    case html
    /// Finding counts per rule.
    case summary

    /// SwiftLint's names for the same formats, accepted as they are.
    public static let swiftLintAliases: [String: ReporterKind] = [
        "github-actions-logging": .githubActions,
        // SwiftLint's `gitlab` is JUnit XML for GitLab's test reports.
        "gitlab": .junit,
    ]

    /// SwiftLint's reporters with no SyncLint twin, and what to use instead.
    static let swiftLintReplacements: [String: String] = [
        "csv": "use `json` (the same fields) or `checkstyle`",
        "emoji": "use `xcode` or `summary`",
        "sonarqube": "SonarQube imports SARIF: use `sarif`",
        "relative-path": "use a CI format (`checkstyle`, `json`, `sarif`, …), whose paths are relative to the project root",
    ]

    public struct UnknownName: Error, CustomStringConvertible {
        public let description: String
    }

    /// The reporter a name (SyncLint's, or SwiftLint's for the same format) stands for, or why there is none.
    public static func named(_ name: String) -> Result<ReporterKind, UnknownName> {
        if let kind = ReporterKind(rawValue: name) ?? swiftLintAliases[name] { return .success(kind) }
        let names = allCases.map(\.rawValue)
        if let replacement = swiftLintReplacements[name] {
            return .failure(UnknownName(description: "SyncLint has no '\(name)' reporter; \(replacement)"))
        }
        return .failure(UnknownName(description: "unknown reporter '\(name)'"
            + Configuration.suggestion(for: name, among: Set(names).union(swiftLintAliases.keys))
            + "; use one of \(names.joined(separator: ", "))"))
    }

    /// What the format is for, as `synclint reporters` lists it.
    public var purpose: String {
        switch self {
        case .xcode: return "Xcode and editors: path:line:col: warning: message (rule_id)"
        case .json: return "tools that read SwiftLint's JSON"
        case .sarif: return "GitHub code scanning, SonarQube, CI dashboards (SARIF 2.1.0)"
        case .githubActions: return "GitHub Actions annotations (SwiftLint: github-actions-logging)"
        case .checkstyle: return "Jenkins, reviewdog, Danger (Checkstyle XML)"
        case .junit: return "GitLab, Jenkins and Azure test results (JUnit XML; SwiftLint: gitlab)"
        case .codeclimate: return "GitLab code quality (Code Climate JSON)"
        case .markdown: return "$GITHUB_STEP_SUMMARY and merge-request comments"
        case .html: return "one self-contained page to keep as an artifact"
        case .summary: return "findings and files per rule"
        }
    }

    /// Whether the format prints identities (fingerprints), which need each file with findings read
    /// and parsed again. (Columns need nothing more: every finding's column already counts Unicode
    /// scalars, see `SourceColumn`.)
    public var usesIdentities: Bool { self == .sarif || self == .codeclimate }

    /// Findings alone: paths relative to `/`, the given rules as "ran".
    public func render(_ findings: [Finding], rules: [RuleDescription]) -> String {
        render(LintReport(findings: findings, rules: rules, locate: usesIdentities))
    }

    public func render(_ report: LintReport) -> String {
        switch self {
        case .xcode: return XcodeReporter.render(report.findings)
        case .json: return JSONReporter.render(report.findings)
        case .sarif: return SARIFReporter.render(report)
        case .githubActions: return GitHubActionsReporter.render(report)
        case .checkstyle: return CheckstyleReporter.render(report)
        case .junit: return JUnitReporter.render(report)
        case .codeclimate: return CodeClimateReporter.render(report)
        case .markdown: return MarkdownReporter.render(report)
        case .html: return HTMLReporter.render(report)
        case .summary: return SummaryReporter.render(report)
        }
    }
}

public enum XcodeReporter {
    /// One line per finding, then a `note:` line per note, as compilers print them (Xcode shows a note under its
    /// warning; tools that read `path:line:col: warning:` lines skip the notes, which carry no rule id).
    public static func render(_ findings: [Finding]) -> String {
        findings.map { finding in
            (["\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) (\(finding.ruleID))"]
                + finding.notes.map { "\($0.location.file):\($0.location.line):\($0.location.column): note: \($0.text)" })
                .joined(separator: "\n")
        }.joined(separator: "\n") + (findings.isEmpty ? "" : "\n")
    }
}

/// A JSON array of objects with SwiftLint's fields (file, line, character, severity, type, rule_id, reason) and
/// SyncLint's: `message_id`, `confidence`, and `notes` (each with file, line, character, reason).
public enum JSONReporter {
    public static func render(_ findings: [Finding]) -> String {
        let objects = findings.map { finding -> String in
            let notes = finding.notes.map { note in
                "      { \"character\" : \(note.location.column), \"file\" : \(quoted(note.location.file)), "
                    + "\"line\" : \(note.location.line), \"reason\" : \(quoted(note.text)) }"
            }
            let fields: [(String, String)] = [
                ("character", String(finding.column)),
                ("confidence", quoted(finding.confidence.rawValue)),
                ("file", quoted(finding.file)),
                ("line", String(finding.line)),
                ("message_id", quoted(finding.messageID)),
                ("notes", notes.isEmpty ? "[]" : "[\n" + notes.joined(separator: ",\n") + "\n    ]"),
                ("reason", quoted(finding.message)),
                ("rule_id", quoted(finding.ruleID)),
                ("severity", quoted(finding.severity == .error ? "Error" : "Warning")),
                ("type", quoted(finding.ruleName)),
            ]
            return "  {\n" + fields.map { "    \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n") + "\n  }"
        }
        return objects.isEmpty ? "[\n\n]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// A JSON string literal. Written by hand so output is byte-stable across Foundation versions.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
