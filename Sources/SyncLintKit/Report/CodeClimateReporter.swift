/// GitLab's code quality report (a subset of Code Climate's issue format): a JSON array of issues
/// with `description`, `check_name`, `fingerprint`, `severity` and `location.path` /
/// `location.lines.begin`. GitLab compares fingerprints between the branch and its target to show
/// new and fixed issues, so the fingerprint is the finding's identity, which survives line shifts.
/// A finding with notes or a medium confidence adds Code Climate's optional `content.body` (Markdown: the
/// confidence and the notes) and `other_locations` (the notes' places); GitLab ignores both, other readers show them.
public enum CodeClimateReporter {
    public static func render(_ report: LintReport) -> String {
        let issues = report.findings.indices.map { index -> String in
            let finding = report.findings[index]
            // GitLab's levels are info, minor, major, critical, blocker; an error here fails an app at launch.
            let severity = finding.severity == .error ? "critical" : "minor"
            var extra = ""
            let body = (finding.confidence == .high ? [] : ["\(finding.confidence.rawValue.capitalized) confidence."])
                + report.noteLines(of: finding).map { "- \($0)" }
            if !body.isEmpty {
                extra += """

                        "content" : {
                          "body" : \(JSONReporter.quoted(body.joined(separator: "\n")))
                        },
                    """
            }
            if !finding.notes.isEmpty {
                let places = finding.notes.map { note in
                    "{ \"lines\" : { \"begin\" : \(note.location.line) }, \"path\" : \(JSONReporter.quoted(report.path(of: note))) }"
                }
                extra += "\n    \"other_locations\" : [ " + places.joined(separator: ", ") + " ],"
            }
            return """
                  {
                    "categories" : [ "Bug Risk" ],
                    "check_name" : \(JSONReporter.quoted(finding.ruleID)),\(extra)
                    "description" : \(JSONReporter.quoted(finding.message)),
                    "engine_name" : "synclint",
                    "fingerprint" : \(JSONReporter.quoted(report.identities[index].fingerprint)),
                    "location" : {
                      "lines" : {
                        "begin" : \(finding.line)
                      },
                      "path" : \(JSONReporter.quoted(report.path(of: finding)))
                    },
                    "severity" : "\(severity)",
                    "type" : "issue"
                  }
                """
        }
        return issues.isEmpty ? "[]\n" : "[\n" + issues.joined(separator: ",\n") + "\n]\n"
    }
}
