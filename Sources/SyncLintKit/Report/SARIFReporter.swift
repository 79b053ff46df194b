import Foundation

/// SARIF 2.1.0, the format GitHub code scanning and most CI dashboards read. One run; every rule that
/// ran in `tool.driver.rules` (so a dashboard can tell "rule ran, found nothing" from "rule never
/// ran"); one result per finding with a URI relative to `%SRCROOT%` (the project root, declared in
/// `originalUriBaseIds`), a region counted in Unicode scalars, and a partial fingerprint made from the
/// finding's identity (rule, path, line text, enclosing declaration), so alerts survive line shifts.
public enum SARIFReporter {
    static let rootBaseID = "%SRCROOT%"
    static let fingerprintKey = "synclint/identity/v1"

    /// Findings alone (tests, library callers): paths stay absolute, the given rules are listed.
    public static func render(_ findings: [Finding], rules: [RuleDescription]) -> String {
        render(LintReport(findings: findings, rules: rules))
    }

    public static func render(_ report: LintReport) -> String {
        let ruleIndex = Dictionary(uniqueKeysWithValues: report.rules.enumerated().map { ($1.id, $0) })
        let driverRules: [[String: Any]] = report.rules.map { rule in
            var entry: [String: Any] = [
                "id": rule.id,
                "name": rule.name,
                "shortDescription": ["text": RuleDocumentation.firstSentence(rule.whatItDoes)],
                "fullDescription": ["text": FindingIdentity.normalized(Substring(rule.whatItDoes))],
                "defaultConfiguration": ["level": rule.severity.rawValue, "enabled": !rule.isOptIn],
                "help": ["text": rule.whyIsThisBad, "markdown": RuleDocumentation.markdown(for: rule)],
                "properties": ["tags": Self.tags(for: rule), "fixSafety": rule.fixSafety.rawValue],
            ]
            if let help = report.helpURL(for: rule.id) { entry["helpUri"] = help }
            return entry
        }
        let results: [[String: Any]] = report.findings.indices.map { index in
            let finding = report.findings[index]
            var result: [String: Any] = [
                "ruleId": finding.ruleID,
                "level": finding.severity.rawValue,
                "message": ["text": finding.message],
                "locations": [["physicalLocation": physicalLocation(finding.location, root: report.root)]],
                "partialFingerprints": [fingerprintKey: report.identities[index].fingerprint],
                // SARIF's rank is a relevance from 0 to 100; the confidence and message id are SyncLint's words.
                "rank": finding.confidence == .high ? 90.0 : 50.0,
                "properties": ["confidence": finding.confidence.rawValue, "messageId": finding.messageID],
            ]
            if !finding.notes.isEmpty {
                result["relatedLocations"] = finding.notes.enumerated().map { position, note -> [String: Any] in
                    ["id": position, "physicalLocation": physicalLocation(note.location, root: report.root), "message": ["text": note.text]]
                }
            }
            if let index = ruleIndex[finding.ruleID] { result["ruleIndex"] = index }
            return result
        }
        let rootURI = URL(fileURLWithPath: report.root, isDirectory: true).absoluteString
        var driver: [String: Any] = ["name": "SyncLint", "version": RuleDocumentation.version, "rules": driverRules]
        if let documentationURL = report.documentationURL { driver["informationUri"] = documentationURL }
        let log: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": driver],
                "originalUriBaseIds": [rootBaseID: ["uri": rootURI.hasSuffix("/") ? rootURI : rootURI + "/"]],
                "columnKind": "unicodeCodePoints",
                "results": results,
            ]],
        ]
        // Sorted keys keep the output byte-identical between runs.
        guard let data = try? JSONSerialization.data(withJSONObject: log, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: data, encoding: .utf8) else { return "{}\n" }
        return text + "\n"
    }

    /// A place as SARIF's `physicalLocation`: relative to `%SRCROOT%` when inside the root, else an absolute URI.
    static func physicalLocation(_ location: SourceLocation, root: String) -> [String: Any] {
        let artifact: [String: Any]
        if let relative = ProjectRoot.relative(location.file, to: root) {
            artifact = ["uri": percentEncoded(relative), "uriBaseId": rootBaseID]
        } else {
            artifact = ["uri": URL(fileURLWithPath: location.file).absoluteString]
        }
        return ["artifactLocation": artifact, "region": ["startLine": location.line, "startColumn": location.column]]
    }

    /// `default` or `opt-in`, so a dashboard can tell the rules everyone runs from those a team chose.
    /// (Not the case study a rule was learned from: its label means nothing to a reader of the report.)
    static func tags(for rule: RuleDescription) -> [String] {
        [rule.isOptIn ? "opt-in" : "default"]
    }

    /// A relative path as a URI reference: each segment percent-encoded, slashes kept.
    static func percentEncoded(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":;")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }
}
