import Foundation
import Testing
@testable import SyncLintKit

/// The `synclint` executable as users and CI run it: output formats and exit statuses.
struct CommandLineTests {
    private func folderWithBadView() throws -> URL {
        let folder = try Repository.temporaryFolder()
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try Configuration.stockRulesYAML.write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func lintPrintsXcodeLinesAndExitsZeroOnWarnings() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Repository.run(["lint"], in: folder)
        #expect(result.status == 0)
        let path = folder.appendingPathComponent("ItemView.swift").resolvingSymlinksInPath().path
        #expect(result.stdout.hasPrefix("\(path):4:25: warning: "), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("(task_without_id)\n"))
        let strict = try Repository.run(["lint", "--strict", "."], in: folder)
        #expect(strict.status == 1)
        let again = try Repository.run(["lint"], in: folder)
        #expect(again.stdout == result.stdout, "output is byte-identical between runs")
    }

    @Test func errorSeverityExitsOneAndJSONReporterParses() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        try (Configuration.stockRulesYAML + "task_without_id:\n  severity: error\n").write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let result = try Repository.run(["lint", "--reporter", "json"], in: folder)
        #expect(result.status == 1)
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.first?["severity"] as? String == "Error")
        #expect(objects?.first?["rule_id"] as? String == "task_without_id")
    }

    @Test func usageAndConfigurationErrorsExitTwoWithOneLine() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let badReporter = try Repository.run(["lint", "--reporter", "xml"], in: folder)
        #expect(badReporter.status == 2)
        try "disabled_rules: [a\n  b: ]\n".write(to: folder.appendingPathComponent("broken.yml"), atomically: true, encoding: .utf8)
        let badConfig = try Repository.run(["lint", "--config", "broken.yml"], in: folder)
        #expect(badConfig.status == 2)
        #expect(badConfig.stderr.contains("malformed YAML at line"))
        #expect(badConfig.stderr.split(separator: "\n").count == 1, "\(badConfig.stderr)")
        let missingConfig = try Repository.run(["lint", "--config", "nope.yml"], in: folder)
        #expect(missingConfig.status == 2)
        let unknownRule = try Repository.run(["explain", "no_such_rule"], in: folder)
        #expect(unknownRule.status == 2)
    }

    @Test func rulesAndExplainPrintTheMetadata() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = try Repository.run(["rules"], in: folder)
        #expect(rules.status == 0)
        for rule in RuleRegistry.allDescriptions { #expect(rules.stdout.contains(rule.id)) }
        let explain = try Repository.run(["explain", "task_without_id"], in: folder)
        #expect(explain.stdout == RuleDocumentation.markdown(for: try #require(RuleRegistry.description(of: "task_without_id"))))
    }
}
