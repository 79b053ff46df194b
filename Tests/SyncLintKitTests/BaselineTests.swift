import Foundation
import Testing
@testable import SyncLintKit

/// Baselines: a finding recorded once stays quiet through unrelated edits; new findings, including a
/// second copy of a baselined mistake, are reported.
struct BaselineTests {
    static let view = """
        struct ItemView: View {
            let item: Item
            var body: some View {
                VStack {
                    Text(item.title).task { await load(item) }
                }
            }
        }
        """

    private func lint(_ folder: URL) -> LintReport {
        var configuration = Configuration()
        configuration.onlyRules = ["task_without_id"]
        let result = Linter.lint(paths: [folder.path], configuration: configuration)
        return LintReport(findings: result.findings, rules: RuleRegistry.allDescriptions, root: ProjectRoot.resolve(paths: [folder.path], currentFolder: "/nonexistent"))
    }

    private func project(_ view: String) throws -> URL {
        let folder = try Repository.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Views"), withIntermediateDirectories: true)
        try view.write(to: folder.appendingPathComponent("Views/ItemView.swift"), atomically: true, encoding: .utf8)
        try "@Model final class Item { var title: String = \"\" }\n".write(to: folder.appendingPathComponent("Item.swift"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func identityIsRelativeAndIgnoresLineNumbersAndWhitespace() throws {
        let folder = try project(Self.view)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = lint(folder)
        #expect(report.findings.map(\.ruleID) == ["task_without_id"])
        let identity = try #require(report.identities.first)
        #expect(identity.path == "Views/ItemView.swift")
        #expect(identity.lineText == "Text(item.title).task { await load(item) }")
        #expect(identity.declaration == "var body: some View {", "the innermost declaration enclosing the line")
        #expect(identity.occurrence == 0)
        let reindented = Self.view.replacingOccurrences(of: "    ", with: "  ")
        try reindented.write(to: folder.appendingPathComponent("Views/ItemView.swift"), atomically: true, encoding: .utf8)
        #expect(lint(folder).identities == [identity], "indentation changes nothing")
    }

    @Test func linesInsertedAboveKeepAFindingBaselined() throws {
        let folder = try project(Self.view)
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = lint(folder).baseline
        let shifted = "import SwiftUI\n\n// A new header comment.\n" + Self.view.replacingOccurrences(of: "    let item: Item\n", with: "    let item: Item\n    let count = 3\n")
        try shifted.write(to: folder.appendingPathComponent("Views/ItemView.swift"), atomically: true, encoding: .utf8)
        let report = lint(folder)
        #expect(report.findings.count == 1 && report.findings[0].line == 9, "the finding moved four lines down")
        #expect(report.removing(baseline).findings.isEmpty)
    }

    @Test func aSecondCopyOfTheSameMistakeIsReported() throws {
        let folder = try project(Self.view)
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = lint(folder).baseline
        // The same line again, in the same declaration: only the occurrence index tells them apart.
        let twice = Self.view.replacingOccurrences(of: "            Text(item.title).task { await load(item) }\n",
                                                   with: "            Text(item.title).task { await load(item) }\n            Text(item.title).task { await load(item) }\n")
        try twice.write(to: folder.appendingPathComponent("Views/ItemView.swift"), atomically: true, encoding: .utf8)
        let remaining = lint(folder).removing(baseline)
        #expect(remaining.findings.map(\.line) == [6])
        #expect(remaining.identities.map(\.occurrence) == [1])
        // The same mistake in another file is new too.
        try Self.view.replacingOccurrences(of: "ItemView", with: "OtherView")
            .write(to: folder.appendingPathComponent("Views/OtherView.swift"), atomically: true, encoding: .utf8)
        #expect(lint(folder).removing(baseline).findings.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["ItemView.swift", "OtherView.swift"])
    }

    @Test func aFixedFindingDropsOutWhenTheBaselineIsRewritten() throws {
        let folder = try project(Self.view)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(lint(folder).baseline.identities.count == 1)
        try Self.view.replacingOccurrences(of: ".task {", with: ".task(id: item.id) {")
            .write(to: folder.appendingPathComponent("Views/ItemView.swift"), atomically: true, encoding: .utf8)
        let rewritten = lint(folder).baseline
        #expect(rewritten.identities.isEmpty)
        #expect(rewritten.serialized() == "{\n  \"findings\" : [],\n  \"version\" : 1\n}\n")
    }

    @Test func fileIsSortedStableAndRoundTrips() throws {
        let identities = [
            FindingIdentity(ruleID: "b_rule", path: "B.swift", lineText: "x \"q\"", declaration: "func f() {", occurrence: 0),
            FindingIdentity(ruleID: "a_rule", path: "B.swift", lineText: "y", declaration: "", occurrence: 1),
            FindingIdentity(ruleID: "z_rule", path: "A.swift", lineText: "z", declaration: "", occurrence: 0),
        ]
        let baseline = Baseline(identities: identities)
        let text = baseline.serialized()
        #expect(text == Baseline(identities: identities.reversed()).serialized(), "order of findings does not matter")
        #expect(text == """
            {
              "findings" : [
                {
                  "declaration" : "",
                  "line" : "z",
                  "occurrence" : 0,
                  "path" : "A.swift",
                  "rule" : "z_rule"
                },
                {
                  "declaration" : "",
                  "line" : "y",
                  "occurrence" : 1,
                  "path" : "B.swift",
                  "rule" : "a_rule"
                },
                {
                  "declaration" : "func f() {",
                  "line" : "x \\"q\\"",
                  "occurrence" : 0,
                  "path" : "B.swift",
                  "rule" : "b_rule"
                }
              ],
              "version" : 1
            }

            """)
        #expect(try Baseline.parse(Data(text.utf8), path: "b.json") == baseline)
        #expect(throws: Baseline.LoadError.self) { try Baseline.parse(Data("[1, 2]".utf8), path: "b.json") }
        #expect(throws: Baseline.LoadError.self) { try Baseline.parse(Data("{\"version\": 9, \"findings\": []}".utf8), path: "b.json") }
    }

    @Test func modelFileFindingsUseTheParentElementAsDeclaration() {
        let xml = "<model>\n    <entity name=\"Item\">\n        <attribute name=\"id\" optional=\"NO\"/>\n    </entity>\n</model>\n"
        let finding = Finding(ruleID: "cloudkit_nonoptional_attribute", ruleName: "x", severity: .error, message: "m",
                              file: "/p/M.xcdatamodel/contents", line: 3, column: 1)
        let identity = FindingIdentities.compute([finding], root: "/p", text: { _ in xml }).first
        #expect(identity?.declaration == "<entity name=\"Item\">")
        #expect(identity?.path == "M.xcdatamodel/contents")
    }

    /// The adoption story end to end with the built `synclint`, on a copy of Examples/: write a baseline,
    /// lint with it (nothing), insert lines above every finding (still nothing), add one new mistake (reported).
    @Test func examplesRoundTripThroughTheCommandLine() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("Examples")
        try FileManager.default.copyItem(atPath: Repository.path("Examples"), toPath: copy.path)
        let first = try Repository.run(["lint", "--write-baseline", "../baseline.json"], in: copy)
        #expect(first.status == 1, "the examples have error findings: \(first.stderr)")
        #expect(first.stdout.split(separator: "\n").count >= 30)
        let baselineText = try String(contentsOf: folder.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(!baselineText.contains(copy.path) && !baselineText.contains("\"line\" : 1,"), "relative paths, no line numbers")

        let quiet = try Repository.run(["lint", "--baseline", "../baseline.json"], in: copy)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout)")

        let enumerator = try #require(FileManager.default.enumerator(atPath: copy.path))
        while let file = enumerator.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let url = copy.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            try ("// Inserted by the baseline test.\n\n" + text).write(to: url, atomically: true, encoding: .utf8)
        }
        let shifted = try Repository.run(["lint", "--baseline", "../baseline.json"], in: copy)
        #expect(shifted.status == 0 && shifted.stdout.isEmpty, "\(shifted.stdout)")

        try Self.view.replacingOccurrences(of: "ItemView", with: "ExtraView").replacingOccurrences(of: "Item", with: "Article")
            .write(to: copy.appendingPathComponent("Reader/Bad/ExtraView.swift"), atomically: true, encoding: .utf8)
        let added = try Repository.run(["lint", "--baseline", "../baseline.json"], in: copy)
        #expect(added.stdout.split(separator: "\n").count == 1, "\(added.stdout)")
        #expect(added.stdout.contains("ExtraView.swift:5:29: warning:") && added.stdout.hasSuffix("(task_without_id)\n"), "\(added.stdout)")
    }

    /// `baseline:` and `write_baseline:` in the config file, relative to its folder; `--output` writes the report.
    @Test func configKeysAndOutputFile() throws {
        let folder = try project(Self.view)
        defer { try? FileManager.default.removeItem(at: folder) }
        try (Configuration.stockRulesYAML + "write_baseline: synclint-baseline.json\n").write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let write = try Repository.run(["lint", "--reporter", "summary", "--output", "summary.txt"], in: folder)
        #expect(write.status == 0 && write.stdout.isEmpty)
        #expect(try String(contentsOf: folder.appendingPathComponent("summary.txt"), encoding: .utf8).contains("task_without_id"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("synclint-baseline.json").path))
        try (Configuration.stockRulesYAML + "baseline: synclint-baseline.json\n").write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        #expect(try Repository.run(["lint"], in: folder).stdout.isEmpty)
        let missing = try Repository.run(["lint", "--baseline", "nope.json"], in: folder)
        #expect(missing.status == 2 && missing.stderr.contains("nope.json"))
    }
}
