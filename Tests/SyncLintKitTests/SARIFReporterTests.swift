import Foundation
import Testing
@testable import SyncLintKit

/// The SARIF output validates against the OASIS SARIF 2.1.0 schema in `../shared/schemas/`, checked
/// with Python's `jsonschema` (the test is skipped, and says so, where python3 lacks it).
struct SARIFReporterTests {
    static let schema = Repository.root.deletingLastPathComponent().appendingPathComponent("shared/schemas/sarif-schema-2.1.0.json").path

    static var validatorAvailable: Bool {
        guard FileManager.default.fileExists(atPath: schema) else { return false }
        return (try? run(["python3", "-c", "import jsonschema"]).status) == 0
    }

    static func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let findings = Harness.findings(EngineTests.bad + "\n" + EngineTests.bad.replacingOccurrences(of: "Item", with: "Other"),
                                           rules: ["task_without_id"], path: "/tmp/with space/Item View.swift")

    @Test func resultsCarryRuleLevelAndLocation() throws {
        #expect(Self.findings.count == 2)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(SARIFReporter.render(Self.findings, rules: RuleRegistry.allDescriptions).utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["task_without_id", "task_without_id"])
        let location = (results.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        #expect((location?["artifactLocation"] as? [String: Any])?["uri"] as? String == "tmp/with%20space/Item%20View.swift")
        #expect((location?["artifactLocation"] as? [String: Any])?["uriBaseId"] as? String == "%SRCROOT%")
        #expect((location?["region"] as? [String: Any])?["startLine"] as? Int == Self.findings.first?.line)
        #expect(SARIFReporter.render(Self.findings, rules: RuleRegistry.allDescriptions) == SARIFReporter.render(Self.findings, rules: RuleRegistry.allDescriptions), "output is deterministic")
    }

    /// A medium-confidence finding with two notes, one outside the root.
    static let withNotes = Finding(ruleID: "loading_state_not_reset", ruleName: "Loading State Not Reset", severity: .warning,
                                   message: "this exit leaves `isLoading` true", file: "/tmp/with space/Loader.swift", line: 5, column: 27,
                                   messageID: "exit_leaves_flag_set",
                                   notes: [FindingNote("`isLoading` is set to true here", at: SourceLocation(file: "/tmp/with space/Loader.swift", line: 4, column: 9)),
                                           FindingNote("CloudKit is turned on here", at: SourceLocation(file: "/elsewhere/App.entitlements", line: 7, column: 1))],
                                   confidence: .medium)

    @Test func notesAreRelatedLocationsAndConfidenceAndMessageIDAreProperties() throws {
        let report = LintReport(findings: [Self.withNotes], rules: RuleRegistry.allDescriptions, root: "/tmp", locate: false)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(SARIFReporter.render(report).utf8)) as? [String: Any])
        let result = try #require(((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let related = try #require(result["relatedLocations"] as? [[String: Any]])
        #expect(related.map { $0["id"] as? Int } == [0, 1])
        #expect(related.map { ($0["message"] as? [String: Any])?["text"] as? String } == ["`isLoading` is set to true here", "CloudKit is turned on here"])
        let first = related[0]["physicalLocation"] as? [String: Any]
        #expect((first?["artifactLocation"] as? [String: Any])?["uri"] as? String == "with%20space/Loader.swift")
        #expect((first?["region"] as? [String: Any])?["startLine"] as? Int == 4)
        let outside = related[1]["physicalLocation"] as? [String: Any]
        #expect((outside?["artifactLocation"] as? [String: Any])?["uri"] as? String == "file:///elsewhere/App.entitlements")
        let properties = result["properties"] as? [String: Any]
        #expect(properties?["confidence"] as? String == "medium" && properties?["messageId"] as? String == "exit_leaves_flag_set")
        #expect(result["rank"] as? Double == 50)
        // A baseline or fingerprint does not depend on the message id or the notes.
        let plain = Finding(ruleID: Self.withNotes.ruleID, ruleName: Self.withNotes.ruleName, severity: .warning, message: Self.withNotes.message,
                            file: Self.withNotes.file, line: Self.withNotes.line, column: Self.withNotes.column)
        let text: (String) -> String? = { _ in "a\nb\nc\n    isLoading = true\n        guard ready else { return }\n" }
        let withNotes = LintReport(findings: [Self.withNotes], rules: [], root: "/tmp", text: text).identities
        let without = LintReport(findings: [plain], rules: [], root: "/tmp", text: text).identities
        #expect(withNotes.map(\.fingerprint) == without.map(\.fingerprint))
    }

    @Test(.enabled(if: validatorAvailable, "needs python3 with jsonschema, and ../shared/schemas"))
    func outputValidatesAgainstTheSARIFSchema() throws {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.validators.validator_for(schema)(schema).validate(json.load(sys.stdin))
            print("valid")
            """
        for findings in [Self.findings, [], [Self.withNotes]] {
            let result = try Self.run(["python3", "-c", script, Self.schema], input: SARIFReporter.render(findings, rules: RuleRegistry.allDescriptions))
            #expect(result.status == 0 && result.output.contains("valid"), "\(result.output)")
        }
        let outsideRoot = LintReport(findings: Self.findings, rules: RuleRegistry.allDescriptions, root: "/elsewhere")
        for report in [ReporterTests.report, outsideRoot] {
            let result = try Self.run(["python3", "-c", script, Self.schema], input: SARIFReporter.render(report))
            #expect(result.status == 0 && result.output.contains("valid"), "\(result.output)")
        }
        // The check can fail: a level SARIF does not define is rejected.
        let invalid = SARIFReporter.render(Self.findings, rules: RuleRegistry.allDescriptions).replacingOccurrences(of: "\"level\" : \"warning\"", with: "\"level\" : \"fatal\"")
        #expect(invalid != SARIFReporter.render(Self.findings, rules: RuleRegistry.allDescriptions))
        #expect(try Self.run(["python3", "-c", script, Self.schema], input: invalid).status != 0)
    }

    /// What GitHub code scanning needs beyond validity: relative URIs with a declared base, fingerprints
    /// that survive line shifts, help links, a one-sentence title and every rule that ran.
    @Test func codeScanningFieldsAreFilled() throws {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(SARIFReporter.render(ReporterTests.report).utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        #expect(((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any])?["uri"] as? String == "file:///proj/")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["informationUri"] as? String == ReporterTests.documentationURL)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["cloudkit_unique_constraint", "on_appear_task", "task_without_id"],
                "every rule that ran, also one with no finding")
        let taskRule = try #require(rules.last)
        #expect(taskRule["helpUri"] as? String == ReporterTests.documentationURL + "#task_without_id-task-without-id",
                "the anchor GitHub gives the rule heading in docs/rules.md")
        let title = try #require((taskRule["shortDescription"] as? [String: Any])?["text"] as? String)
        let whole = FindingIdentity.normalized(Substring(try #require(RuleRegistry.description(of: "task_without_id")).whatItDoes))
        #expect(title.hasSuffix(".") && whole.hasPrefix(title), "\(title)")
        // Where the explanation has several sentences, the title is the first one only.
        let allLog = try JSONSerialization.jsonObject(with: Data(SARIFReporter.render([], rules: RuleRegistry.allDescriptions).utf8)) as? [String: Any]
        let allDriver = ((allLog?["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any])?["driver"] as? [String: Any]
        let allRules = try #require(allDriver?["rules"] as? [[String: Any]])
        #expect(allRules.count == RuleRegistry.allDescriptions.count)
        let shortened = allRules.filter {
            (($0["shortDescription"] as? [String: Any])?["text"] as? String) != (($0["fullDescription"] as? [String: Any])?["text"] as? String)
        }
        #expect(!shortened.isEmpty)
        let results = try #require(run["results"] as? [[String: Any]])
        let artifact = ((results.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
        #expect(artifact?["uri"] as? String == "Sources/Feed%20View.swift")
        #expect(artifact?["uriBaseId"] as? String == "%SRCROOT%")
        let fingerprint = (results.first?["partialFingerprints"] as? [String: String])?["synclint/identity/v1"]
        #expect(fingerprint == ReporterTests.report.identities.first?.fingerprint)
        #expect(results.first?["ruleIndex"] as? Int == 2)
        #expect((taskRule["properties"] as? [String: Any])?["tags"] as? [String] == ["opt-in"])
        let onByDefault = allRules.first { $0["id"] as? String == "cloudkit_unique_constraint" }
        #expect((onByDefault?["properties"] as? [String: Any])?["tags"] as? [String] == ["default"])
    }
}
