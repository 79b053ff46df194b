import Foundation
import Testing
@testable import SyncLintKit

/// Columns count Unicode scalars, as Xcode shows them, in every reporter: `é` (two UTF-8 bytes) and
/// `😀` (four) before a finding on its line move it one column each, not two and four.
struct ColumnTests {
    static let line = "    func f() async { let s = \"é😀\"; Thread.sleep(forTimeInterval: 1) }"
    static let source = "struct S {\n\(line)\n}\n"
    static let path = "/proj/Sources/Sleep.swift"

    static var finding: Finding? {
        var configuration = Configuration()
        configuration.onlyRules = ["blocking_wait_in_async"]
        return Linter.lint(sources: [SourceInput(path: path, text: source)], configuration: configuration).findings.first
    }

    @Test func findingsCountScalarsNotBytes() throws {
        let finding = try #require(Self.finding)
        let prefix = try #require(Self.line.range(of: "Thread")).lowerBound
        let scalars = Self.line[..<prefix].unicodeScalars.count + 1
        let bytes = Self.line[..<prefix].utf8.count + 1
        #expect(bytes == scalars + 4, "the line's text is what the test is about: é is 2 bytes, 😀 is 4")
        #expect(finding.line == 2)
        #expect(finding.column == scalars)
    }

    @Test func everyReporterPrintsTheScalarColumn() throws {
        let finding = try #require(Self.finding)
        let column = finding.column
        let report = LintReport(findings: [finding], rules: RuleRegistry.allDescriptions, root: "/proj", text: { $0 == Self.path ? Self.source : nil })
        let expected: [ReporterKind: String] = [
            .xcode: "\(Self.path):2:\(column): warning:",
            .json: "\"character\" : \(column),",
            .sarif: "\"startColumn\" : \(column)",
            .githubActions: "line=2,col=\(column),",
            .checkstyle: "line=\"2\" column=\"\(column)\"",
            .junit: "Sources/Sleep.swift:2:\(column)",
            .markdown: "`Sources/Sleep.swift`:2:\(column) |",
            .html: ">2:\(column)<",
        ]
        for kind in ReporterKind.allCases {
            let text = kind.render(report)
            if let fragment = expected[kind] {
                #expect(text.contains(fragment), "\(kind.rawValue): \(text)")
            } else {
                // Code Climate issues carry lines only; the summary has no positions at all.
                #expect(kind == .codeclimate || kind == .summary, "\(kind.rawValue) is not checked")
                #expect(!text.contains(":\(column)") && !text.contains(":\(column + 4)"), "\(kind.rawValue): \(text)")
            }
        }
    }

    /// Suppression comments and disable-comment findings use the same columns.
    @Test func superfluousDisableCommandColumnCountsScalars() throws {
        let text = "let s = \"é😀\" // synclint:disable:this task_without_id\n"
        var configuration = Configuration()
        configuration.onlyRules = ["superfluous_disable_command", "task_without_id"]
        let result = Linter.lint(sources: [SourceInput(path: "/p/A.swift", text: text)], configuration: configuration)
        let finding = try #require(result.findings.first { $0.ruleID == "superfluous_disable_command" })
        #expect(finding.column == "let s = \"é😀\" ".unicodeScalars.count + 1)
    }

    /// Going back from a finding's column to the syntax tree (fixes) still finds the right token.
    @Test func fixesFindTheirTokenOnAMultiByteLine() throws {
        let code = "struct V: View {\n    var body: some View { Text(\"é😀\").onAppear { Task { await load() } } }\n}\n"
        var configuration = Configuration()
        configuration.onlyRules = ["on_appear_task"]
        let result = FixEngine.fix(sources: [SourceInput(path: "/virtual/V.swift", text: code)], configuration: configuration,
                                   includeUnsafe: true)
        #expect(result.changes.first?.fixed == "struct V: View {\n    var body: some View { Text(\"é😀\").task { await load() } }\n}\n")
    }

    @Test func conversionBothWays() {
        let line: Substring = "a é 😀 b"
        for (scalar, byte) in [(1, 1), (3, 3), (4, 5), (5, 6), (6, 10), (8, 12), (10, 14)] {
            #expect(SourceColumn.utf8Column(line: line, scalarColumn: scalar) == byte, "\(scalar)")
            if byte <= line.utf8.count + 1 {
                #expect(SourceColumn.scalarColumn(bytesBefore: line.utf8.prefix(byte - 1)) == scalar, "\(byte)")
            }
        }
    }
}
