import Testing
@testable import SyncLintKit

/// Suppression comments that name no rule, suppress nothing, or sit in a Core Data model file.
struct SuppressionHygieneTests {
    static let bad = EngineTests.bad  // one task_without_id finding, on line 4

    private func lint(_ code: String, path: String = "/virtual/View.swift", rules: [String]? = nil,
                      resources: [ResourceFile] = []) -> LintResult {
        var configuration = Configuration.withStockRules
        configuration.onlyRules = rules
        return Linter.lint(sources: [SourceInput(path: path, text: code)], resources: resources, configuration: configuration)
    }

    @Test func unknownRuleIDWarnsWithFileLineAndTheClosestID() {
        let code = Self.bad.replacingOccurrences(of: "        Text(", with: "        // synclint:disable:next task_without_ids\n        Text(")
        let result = lint(code, rules: ["task_without_id"])
        #expect(result.findings.map(\.ruleID) == ["task_without_id"], "an unknown id suppresses nothing")
        #expect(result.warnings == ["warning: /virtual/View.swift:4: unknown rule 'task_without_ids' in synclint:disable:next; did you mean 'task_without_id'?"])
        let typo = lint("// synclint:disabel task_without_id\nlet x = 1\n", rules: ["task_without_id"])
        #expect(typo.warnings.first?.hasPrefix("warning: /virtual/View.swift:1: unknown directive 'synclint:disabel'") == true, "\(typo.warnings)")
        #expect(SuppressionOutcome.editDistance("kitten", "sitting") == 3 && SuppressionOutcome.editDistance("", "ab") == 2)
    }

    @Test func commaSeparatedIDsAndReasonsWork() {
        for directive in ["// synclint:disable:next unstable_task_id,task_without_id",
                          "// synclint:disable:next unstable_task_id, task_without_id - loads once per app",
                          "/* synclint:disable:next task_without_id */"] {
            let code = Self.bad.replacingOccurrences(of: "        Text(", with: "        \(directive)\n        Text(")
            let result = lint(code, rules: ["task_without_id", "unstable_task_id"])
            #expect(result.findings.isEmpty, "\(directive): \(result.findings)")
            #expect(result.warnings.isEmpty, "\(directive): \(result.warnings)")
        }
    }

    @Test func aDirectiveInsideAStringOrBehindAnotherCommentIsNotOne() {
        for prefix in ["let help = \"// synclint:disable all\"\n", "// // synclint:disable all\n"] {
            #expect(lint(prefix + Self.bad, rules: ["task_without_id"]).findings.count == 1, "\(prefix)")
        }
    }

    @Test func superfluousDisableCommandIsOnByDefaultAndPointsAtTheComment() throws {
        let stale = Self.bad.replacingOccurrences(of: ".task {", with: ".task(id: item.id) {")
            .replacingOccurrences(of: "        Text(", with: "        // synclint:disable:next task_without_id\n        Text(")
        let findings = lint(stale).findings
        #expect(findings.map(\.ruleID) == ["superfluous_disable_command"])
        let finding = try #require(findings.first)
        #expect((finding.line, finding.column) == (4, 9))
        #expect(finding.message == "`synclint:disable:next task_without_id` suppresses nothing (no task_without_id finding on the next line); remove it")
        // A directive that suppresses something is not superfluous; one for a rule that did not run is not judged.
        let used = Self.bad.replacingOccurrences(of: "        Text(", with: "        // synclint:disable:next task_without_id\n        Text(")
        #expect(lint(used).findings.isEmpty)
        #expect(lint(stale, rules: ["unstable_task_id", "superfluous_disable_command"]).findings.isEmpty)
        // It can itself be disabled, by name only.
        #expect(lint("// synclint:disable superfluous_disable_command\n" + stale).findings.isEmpty)
    }

    @Test func coreDataModelCommentsSuppressAndAreJudged() {
        let app = SourceInput(path: "/virtual/Persistence.swift", text: "let container = NSPersistentCloudKitContainer(name: \"Model\")")
        let model = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <!-- synclint:disable:next cloudkit_ordered_relationship -->
                    <relationship name="tags" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
                </entity>
                <entity name="Tag" representedClassName="Tag" syncable="YES">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
                </entity>
            </model>
            """
        let path = "/virtual/Model.xcdatamodeld/Model.xcdatamodel/contents"
        func findings(_ text: String) -> [Finding] {
            var configuration = Configuration()
            configuration.onlyRules = ["cloudkit_ordered_relationship", "superfluous_disable_command"]
            return Linter.lint(sources: [app], resources: [ResourceFile(path: path, kind: .coreDataModel, text: text)],
                               configuration: configuration).findings
        }
        let unsuppressed = findings(model.replacingOccurrences(of: "<!-- synclint:disable:next cloudkit_ordered_relationship -->", with: "<!-- a comment -->"))
        #expect(unsuppressed.map(\.ruleID) == ["cloudkit_ordered_relationship"], "the example must fire without the comment")
        #expect(findings(model).isEmpty)
        let stale = findings(model.replacingOccurrences(of: "ordered=\"YES\"", with: "ordered=\"NO\""))
        #expect(stale.map(\.ruleID) == ["superfluous_disable_command"])
        #expect(stale.map { "\($0.file):\($0.line):\($0.column)" } == ["\(path):4:9"])
    }
}
