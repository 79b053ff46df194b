import Foundation
import SwiftParser
import SwiftSyntax
import Testing
@testable import SyncLintKit
@testable import SyncLintSyntax

/// The pipeline's promises: suppression, configuration, bad input, ordering.
struct EngineTests {
    static let bad = """
        struct ItemView: View {
            let item: Item
            var body: some View {
                Text(item.title).task { await load(item) }
            }
        }
        @Model final class Item { var title: String = "" }
        """

    @Test func suppressionCommentsSilenceOnlyWhatTheyName() {
        let rule = ["task_without_id"]
        #expect(Harness.findings(Self.bad, rules: rule).map(\.line) == [4])
        let next = Self.bad.replacingOccurrences(of: "        Text(", with: "        // synclint:disable:next task_without_id\n        Text(")
        #expect(Harness.findings(next, rules: rule).isEmpty)
        let this = Self.bad.replacingOccurrences(of: "await load(item) }", with: "await load(item) } // synclint:disable:this task_without_id")
        #expect(Harness.findings(this, rules: rule).isEmpty)
        let other = Self.bad.replacingOccurrences(of: "        Text(", with: "        // synclint:disable:next unstable_task_id\n        Text(")
        #expect(Harness.findings(other, rules: rule).map(\.line) == [5])
        let region = "// synclint:disable all\n" + Self.bad + "\n// synclint:enable all\n" + Self.bad.replacingOccurrences(of: "ItemView", with: "OtherView")
        #expect(Harness.findings(region, rules: rule).map(\.line) == [13])
    }

    @Test func configurationReadsSwiftLintShapedKeys() throws {
        let yaml = """
            disabled_rules: [task_without_id]
            opt_in_rules:
              - task_handle_overwritten
            excluded: [Generated]
            cloudkit: off
            task_self_capture:
              severity: error
              strict: true
            mystery_key: 1
            """
        let configuration = try Configuration.parse(yaml: yaml, path: "/p/.synclint.yml", baseFolder: "/p", rules: RuleRegistry.allDescriptions)
        #expect(configuration.disabledRules == ["task_without_id"])
        #expect(configuration.excluded == ["/p/Generated"])
        #expect(configuration.cloudKit == .off)
        #expect(configuration.severityOverrides["task_self_capture"] == .error)
        #expect(configuration.ruleOptions["task_self_capture"]?.bool("strict", default: false) == true)
        #expect(configuration.warnings == ["/p/.synclint.yml:9: warning: unknown key 'mystery_key'"])
        let enabled = Linter.enabledRules(configuration: configuration, enableAllRules: false)
        #expect(!enabled.contains("task_without_id"))
        #expect(enabled.contains("task_handle_overwritten"), "an opt-in rule the file turns on")
        #expect(enabled.contains("unstable_task_id") && !enabled.contains("task_self_capture"), "defaults stay as they are")
    }

    @Test func nestedRuleOptionsReachTheRule() throws {
        let configuration = try Configuration.parse(yaml: "insert_without_duplicate_check:\n  logical_unique_keys: { Article: [url, slug] }\n",
                                                    path: "c.yml", baseFolder: "/", rules: RuleRegistry.allDescriptions)
        #expect(configuration.ruleOptions["insert_without_duplicate_check"]?.stringListMap("logical_unique_keys") == ["Article": ["url", "slug"]])
        let code = "@Model final class Article { var url: URL? }\nfunc add(url: URL) { modelContext.insert(Article(url: url)) }"
        var only = configuration
        only.onlyRules = ["insert_without_duplicate_check"]
        #expect(Linter.lint(sources: [SourceInput(path: "/a.swift", text: code)], configuration: only).findings.map(\.line) == [2])
        only.ruleOptions = [:]
        #expect(Linter.lint(sources: [SourceInput(path: "/a.swift", text: code)], configuration: only).findings.isEmpty)
    }

    @Test func malformedYAMLNamesTheLine() {
        #expect {
            try Configuration.parse(yaml: "disabled_rules: [a\nopt_in_rules: ]\n", path: "c.yml", baseFolder: "/", rules: RuleRegistry.allDescriptions)
        } throws: { error in
            "\(error)".contains("malformed YAML at line") && !"\(error)".contains("\n")
        }
    }

    @Test func severityOverrideAndUnknownRuleWarning() throws {
        var configuration = try Configuration.parse(yaml: "only_rules: [task_without_id, no_such_rule]\ntask_without_id:\n  severity: error\n",
                                                    path: "c.yml", baseFolder: "/", rules: RuleRegistry.allDescriptions)
        #expect(configuration.warnings == ["c.yml:1: warning: unknown rule 'no_such_rule' in only_rules"])
        configuration.cloudKit = .auto
        let result = Linter.lint(sources: [SourceInput(path: "/a.swift", text: Self.bad)], configuration: configuration)
        #expect(result.findings.map(\.severity) == [.error])
    }

    @Test func badInputIsSkippedWithOneLineAndOtherFindingsSurvive() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.bad.write(to: folder.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        try Data([0x73, 0x00, 0x01, 0x02]).write(to: folder.appendingPathComponent("Binary.swift"))
        try Data([0x6c, 0x65, 0x74, 0x20, 0xff, 0xfe, 0x0a]).write(to: folder.appendingPathComponent("Latin.swift"))
        try ("struct Broken: View { let item: Item\n var body: some View { Text(\"\").task { await load(item) } }\n func f( {\n")
            .write(to: folder.appendingPathComponent("Broken.swift"), atomically: true, encoding: .utf8)
        var configuration = Configuration()
        configuration.onlyRules = ["task_without_id"]
        let result = Linter.lint(paths: [folder.path], configuration: configuration)
        #expect(result.findings.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["A.swift", "Broken.swift"])
        #expect(result.warnings.count == 3)
        #expect(result.warnings.allSatisfy { !$0.contains("\n") })
        #expect(result.warnings.contains { $0.contains("Binary.swift: binary file") })
        #expect(result.warnings.contains { $0.contains("Latin.swift: not UTF-8") })
        #expect(result.warnings.contains { $0.contains("Broken.swift: has syntax errors") })
    }

    @Test func discoverySkipsBuildFoldersHiddenFoldersAndExclusions() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for sub in [".build/x", "Pods", "DerivedData", ".hidden", "Sources", "Generated"] {
            let url = folder.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Self.bad.write(to: url.appendingPathComponent("V.swift"), atomically: true, encoding: .utf8)
        }
        let found = FileDiscovery.discover(paths: [folder.path], excluded: [folder.appendingPathComponent("Generated").path])
        #expect(found.swiftFiles.map { URL(fileURLWithPath: $0).deletingLastPathComponent().lastPathComponent } == ["Sources"])
    }

    @Test func findingsAreSortedAndStableAcrossRuns() {
        let sources = (0..<20).map { SourceInput(path: "/p/F\($0 % 7)_\($0).swift", text: Self.bad) }
        var configuration = Configuration()
        configuration.onlyRules = ["task_without_id"]
        let first = Linter.lint(sources: sources, configuration: configuration).findings
        let second = Linter.lint(sources: sources.reversed(), configuration: configuration).findings
        #expect(first.count == 20)
        #expect(first == second)
        #expect(first == first.sorted(by: Finding.ordered))
    }

    @Test func jsonReporterHasSwiftLintFields() throws {
        let finding = Finding(ruleID: "task_without_id", ruleName: "Task Without ID", severity: .warning,
                              message: "say \"why\"\nhere", file: "/a b/C.swift", line: 3, column: 7)
        let data = Data(JSONReporter.render([finding]).utf8)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.count == 1)
        let object = try #require(objects.first)
        // SwiftLint's fields, and SyncLint's own: the message id, the confidence and the notes.
        #expect(Set(object.keys) == ["file", "line", "character", "severity", "type", "rule_id", "reason", "message_id", "confidence", "notes"])
        #expect(object["message_id"] as? String == "default" && object["confidence"] as? String == "high")
        #expect((object["notes"] as? [Any])?.isEmpty == true)
        #expect(object["file"] as? String == "/a b/C.swift")
        #expect(object["reason"] as? String == "say \"why\"\nhere")
        #expect(object["severity"] as? String == "Warning")
        #expect(object["line"] as? Int == 3 && object["character"] as? Int == 7)
        #expect(XcodeReporter.render([finding]) == "/a b/C.swift:3:7: warning: say \"why\"\nhere (task_without_id)\n")
    }
}

/// Positions must agree with swift-syntax's own converter, whatever the line endings.
struct LineTableTests {
    @Test(arguments: ["a\nbc\n\nd", "a\r\nbc\r\n\r\nd", "a\rbc\r\rd", "é👨‍👩‍👧\nx", ""])
    func agreesWithSwiftSyntax(text: String) {
        let table = LineTable(text)
        let tree = Parser.parse(source: text)
        let converter = SourceLocationConverter(fileName: "f", tree: tree)
        for offset in 0...text.utf8.count {
            let expected = converter.location(for: AbsolutePosition(utf8Offset: offset))
            let actual = table.lineAndColumn(at: offset)
            #expect(actual.line == expected.line && actual.column == expected.column, "offset \(offset) in \(text.debugDescription)")
        }
    }
}
