/// GitLab's code quality report (a subset of Code Climate's issue format): a JSON array of issues
/// with `description`, `check_name`, `fingerprint`, `severity` and `location.path` /
/// `location.lines.begin`. GitLab compares fingerprints between the branch and its target to show
/// new and fixed issues, so the fingerprint is the finding's identity, which survives line shifts.
public enum CodeClimateReporter {
    public static func render(_ report: LintReport) -> String {
        let issues = report.findings.indices.map { index -> String in
            let finding = report.findings[index]
            // GitLab's levels are info, minor, major, critical, blocker; an error here fails an app at launch.
            let severity = finding.severity == .error ? "critical" : "minor"
            return """
                  {
                    "categories" : [ "Bug Risk" ],
                    "check_name" : \(JSONReporter.quoted(finding.ruleID)),
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
