import Foundation

/// SARIF 2.1.0, the format GitHub code scanning and most CI dashboards read. One run, the rules that
/// produced findings in `tool.driver.rules`, one result per finding with a file URI and a region.
public enum SARIFReporter {
    public static func render(_ findings: [Finding], rules: [RuleDescription] = RuleRegistry.allDescriptions) -> String {
        let usedIDs = Set(findings.map(\.ruleID))
        let usedRules = rules.filter { usedIDs.contains($0.id) }.sorted { $0.id < $1.id }
        let ruleIndex = Dictionary(uniqueKeysWithValues: usedRules.enumerated().map { ($1.id, $0) })
        let driverRules: [[String: Any]] = usedRules.map { rule in
            [
                "id": rule.id,
                "name": rule.name,
                "shortDescription": ["text": rule.whatItDoes],
                "fullDescription": ["text": rule.whyIsThisBad],
                "defaultConfiguration": ["level": rule.severity.rawValue, "enabled": !rule.isOptIn],
                "help": ["text": rule.whyIsThisBad, "markdown": RuleDocumentation.markdown(for: rule)],
            ]
        }
        let results: [[String: Any]] = findings.map { finding in
            var result: [String: Any] = [
                "ruleId": finding.ruleID,
                "level": finding.severity.rawValue,
                "message": ["text": finding.message],
                "locations": [[
                    "physicalLocation": [
                        "artifactLocation": ["uri": URL(fileURLWithPath: finding.file).absoluteString],
                        "region": ["startLine": finding.line, "startColumn": finding.column],
                    ],
                ]],
            ]
            if let index = ruleIndex[finding.ruleID] { result["ruleIndex"] = index }
            return result
        }
        let log: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "SyncLint",
                    "version": RuleDocumentation.version,
                    "rules": driverRules,
                ]],
                "results": results,
            ]],
        ]
        // Sorted keys keep the output byte-identical between runs.
        guard let data = try? JSONSerialization.data(withJSONObject: log, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: data, encoding: .utf8) else { return "{}\n" }
        return text + "\n"
    }
}
