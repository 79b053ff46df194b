import Foundation
import Testing
@testable import SyncLintKit

/// Each CI reporter's exact output on the same two findings (a warning whose message holds the
/// characters each format must escape, and an error whose message spans two lines), plus a check by
/// a real parser or schema where one exists.
struct ReporterTests {
    static let root = "/proj"
    static let sources = [
        "/proj/Sources/Feed View.swift": "struct FeedView: View {\n    var body: some View {\n        List().task { await load() }\n    }\n}\n",
        "/proj/Sources/Models.swift": "@Model final class Item {\n    @Attribute(.unique) var url: String = \"\"\n}\n",
    ]
    static let findings = [
        Finding(ruleID: "task_without_id", ruleName: "Task without id", severity: .warning,
                message: "Use `.task(id:)`: 50% <of> \"loads\" & a,b", file: "/proj/Sources/Feed View.swift", line: 3, column: 16),
        Finding(ruleID: "cloudkit_unique_constraint", ruleName: "Unique constraint with CloudKit", severity: .error,
                message: "Remove it.\nCloudKit rejects it.", file: "/proj/Sources/Models.swift", line: 2, column: 5),
    ]
    static let rules = RuleRegistry.allDescriptions.filter { ["task_without_id", "cloudkit_unique_constraint", "on_appear_task"].contains($0.id) }
    /// Where these tests publish the rule reference: reports link there only when one is set.
    static let documentationURL = "https://docs.example.com/synclint/rules.md"
    static let report = LintReport(findings: findings, rules: rules, root: root, documentationURL: documentationURL, text: { sources[$0] })
    static let empty = LintReport(findings: [], rules: rules, root: root, text: { sources[$0] })

    @Test func githubActionsEscapesDataAndProperties() {
        #expect(ReporterKind.githubActions.render(Self.report) == """
            ::warning file=Sources/Feed View.swift,line=3,col=16,title=Task without id (task_without_id)::Use `.task(id:)`: 50%25 <of> "loads" & a,b
            ::error file=Sources/Models.swift,line=2,col=5,title=Unique constraint with CloudKit (cloudkit_unique_constraint)::Remove it.%0ACloudKit rejects it.

            """)
        #expect(GitHubActionsReporter.escapeProperty("a:b,c%d\r\ne") == "a%3Ab%2Cc%25d%0D%0Ae")
        #expect(ReporterKind.githubActions.render(Self.empty) == "")
    }

    @Test func checkstyleIsWellFormedXMLWithOneFilePerPath() throws {
        let text = ReporterKind.checkstyle.render(Self.report)
        #expect(text == """
            <?xml version="1.0" encoding="utf-8"?>
            <checkstyle version="4.3">
              <file name="Sources/Feed View.swift">
                <error line="3" column="16" severity="warning" message="Use `.task(id:)`: 50% &lt;of&gt; &quot;loads&quot; &amp; a,b" source="synclint.task_without_id"/>
              </file>
              <file name="Sources/Models.swift">
                <error line="2" column="5" severity="error" message="Remove it.&#10;CloudKit rejects it." source="synclint.cloudkit_unique_constraint"/>
              </file>
            </checkstyle>

            """)
        try expectWellFormedXML(text, root: "checkstyle")
    }

    @Test func junitHasASuitePerRuleAndAFailurePerFinding() throws {
        let text = ReporterKind.junit.render(Self.report)
        #expect(text == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="synclint" tests="3" failures="2" errors="0">
              <testsuite name="cloudkit_unique_constraint" tests="1" failures="1" errors="0">
                <testcase classname="synclint.cloudkit_unique_constraint" name="Sources/Models.swift:2:5" file="Sources/Models.swift" line="2">
                  <failure type="error" message="Remove it.&#10;CloudKit rejects it.">Sources/Models.swift:2:5: error: Remove it.&#10;CloudKit rejects it.</failure>
                </testcase>
              </testsuite>
              <testsuite name="on_appear_task" tests="1" failures="0" errors="0">
                <testcase classname="synclint.on_appear_task" name="no findings"/>
              </testsuite>
              <testsuite name="task_without_id" tests="1" failures="1" errors="0">
                <testcase classname="synclint.task_without_id" name="Sources/Feed View.swift:3:16" file="Sources/Feed View.swift" line="3">
                  <failure type="warning" message="Use `.task(id:)`: 50% &lt;of&gt; &quot;loads&quot; &amp; a,b">Sources/Feed View.swift:3:16: warning: Use `.task(id:)`: 50% &lt;of&gt; &quot;loads&quot; &amp; a,b</failure>
                </testcase>
              </testsuite>
            </testsuites>

            """)
        try expectWellFormedXML(text, root: "testsuites")
        try expectWellFormedXML(ReporterKind.junit.render(Self.empty), root: "testsuites")
    }

    @Test func codeClimateHasGitLabsFieldsAndStableFingerprints() throws {
        let text = ReporterKind.codeclimate.render(Self.report)
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(issues.count == 2)
        let first = issues[0]
        #expect(first["check_name"] as? String == "task_without_id")
        #expect(first["description"] as? String == Self.findings[0].message)
        #expect(first["severity"] as? String == "minor")
        #expect(issues[1]["severity"] as? String == "critical")
        let location = try #require(first["location"] as? [String: Any])
        #expect(location["path"] as? String == "Sources/Feed View.swift")
        #expect((location["lines"] as? [String: Any])?["begin"] as? Int == 3)
        let fingerprint = try #require(first["fingerprint"] as? String)
        #expect(fingerprint.count == 16 && fingerprint != issues[1]["fingerprint"] as? String)
        #expect(text.hasPrefix("""
            [
              {
                "categories" : [ "Bug Risk" ],
                "check_name" : "task_without_id",
                "description" : "Use `.task(id:)`: 50% <of> \\"loads\\" & a,b",
                "engine_name" : "synclint",
                "fingerprint" : "\(fingerprint)",
                "location" : {
                  "lines" : {
                    "begin" : 3
                  },
                  "path" : "Sources/Feed View.swift"
                },
                "severity" : "minor",
                "type" : "issue"
              },
            """))
        // The fingerprint is the identity's, so it survives lines inserted above the finding.
        let shifted = LintReport(findings: [Self.findings[0].moved(by: 2)], rules: Self.rules, root: Self.root,
                                 text: { "// one\n// two\n" + Self.sources[$0]! })
        #expect(CodeClimateReporter.render(shifted).contains(fingerprint))
        #expect(ReporterKind.codeclimate.render(Self.empty) == "[]\n")
    }

    @Test func markdownIsOneTableRowPerFinding() {
        #expect(ReporterKind.markdown.render(Self.report) == """
            ### SyncLint: 2 findings (1 error, 1 warning)

            | Severity | Rule | Location | Message |
            |---|---|---|---|
            | ⚠️ warning | [`task_without_id`](\(Self.documentationURL)#task_without_id-task-without-id) | `Sources/Feed View.swift`:3:16 | Use `.task(id:)`: 50% <of> "loads" & a,b |
            | ❌ error | [`cloudkit_unique_constraint`](\(Self.documentationURL)#cloudkit_unique_constraint-cloudkit-unique-constraint) | `Sources/Models.swift`:2:5 | Remove it.<br>CloudKit rejects it. |

            """)
        #expect(MarkdownReporter.cell("a|b\nc") == "a\\|b<br>c")
        #expect(ReporterKind.markdown.render(Self.empty) == "### SyncLint: no findings\n")
    }

    @Test func summaryCountsPerRule() {
        let three = LintReport(findings: Self.findings + [Self.findings[0].moved(by: 1)], rules: Self.rules, root: Self.root,
                               text: { Self.sources[$0] })
        #expect(ReporterKind.summary.render(three) == """
            rule                        severity  findings  files
            task_without_id             warning          2      1
            cloudkit_unique_constraint  error            1      1
            total                                        3      2

            """)
    }

    @Test func htmlIsSelfContainedAndGroupsByRuleThenFile() throws {
        let html = ReporterKind.html.render(Self.report)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("src="), "no external assets or scripts")
        // The error's rule comes first, each rule has its explanation, and messages are escaped.
        let error = try #require(html.range(of: "<section class=\"rule\" id=\"cloudkit_unique_constraint\">"))
        let warning = try #require(html.range(of: "<section class=\"rule\" id=\"task_without_id\">"))
        #expect(error.lowerBound < warning.lowerBound)
        let rule = try #require(RuleRegistry.description(of: "task_without_id"))
        #expect(html.contains(HTMLReporter.inlineCode(rule.whatItDoes)))
        #expect(html.contains("<h3>Sources/Feed View.swift</h3>"))
        #expect(html.contains("<span class=\"loc\">3:16</span>Use <code>.task(id:)</code>: 50% &lt;of&gt; &quot;loads&quot; &amp; a,b"))
        try expectWellFormedXML(html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "")
            .replacingOccurrences(of: "<meta charset=\"utf-8\">", with: "<meta charset=\"utf-8\"/>")
            .replacingOccurrences(of: "initial-scale=1\">", with: "initial-scale=1\"/>"), root: "html")
        #expect(ReporterKind.html.render(Self.empty).contains("No findings."))
    }

    /// Notes follow their finding as compilers print them (Xcode), as objects (JSON), and in the page (HTML), with
    /// the finding's confidence and message id.
    @Test func reportersPrintNotesConfidenceAndMessageIDs() throws {
        let finding = SARIFReporterTests.withNotes
        #expect(XcodeReporter.render([finding]) == """
            /tmp/with space/Loader.swift:5:27: warning: this exit leaves `isLoading` true (loading_state_not_reset)
            /tmp/with space/Loader.swift:4:9: note: `isLoading` is set to true here
            /elsewhere/App.entitlements:7:1: note: CloudKit is turned on here

            """)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(JSONReporter.render([finding]).utf8)) as? [[String: Any]])
        #expect(objects.first?["confidence"] as? String == "medium" && objects.first?["message_id"] as? String == "exit_leaves_flag_set")
        let notes = try #require(objects.first?["notes"] as? [[String: Any]])
        #expect(notes.map { $0["reason"] as? String } == ["`isLoading` is set to true here", "CloudKit is turned on here"])
        #expect(notes.map { $0["line"] as? Int } == [4, 7] && notes.first?["character"] as? Int == 9)
        #expect(notes.first?["file"] as? String == "/tmp/with space/Loader.swift")
        let html = ReporterKind.html.render(LintReport(findings: [finding], rules: RuleRegistry.allDescriptions, root: "/tmp", locate: false))
        #expect(html.contains("<span class=\"confidence medium\">medium confidence</span>"))
        #expect(html.contains("<li><span class=\"loc\">with space/Loader.swift:4:9</span>note: <code>isLoading</code> is set to true here</li>"))
        #expect(html.contains("<li><span class=\"loc\">/elsewhere/App.entitlements:7:1</span>note: CloudKit is turned on here</li>"))
        #expect(ReporterKind.html.render(Self.report).contains("<span class=\"confidence high\">high confidence</span>"))
    }

    @Test func firstSentenceSkipsPeriodsInCode() {
        #expect(RuleDocumentation.firstSentence("Finds `.task { }` on a view. It restarts.") == "Finds `.task { }` on a view.")
        #expect(RuleDocumentation.firstSentence("  Finds `x.y`\n   here") == "Finds `x.y` here")
    }

    /// Every reporter through the built `synclint` on Examples/ (Swift files, a model file, errors and
    /// warnings), written with `--output`: each output parses as its format says, SARIF against the schema.
    @Test func everyReporterOnTheExamplesThroughTheCommandLine() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for kind in ReporterKind.allCases {
            let output = folder.appendingPathComponent("report-\(kind.rawValue)")
            let run = try Repository.run(["lint", "--reporter", kind.rawValue, "--output", output.path], in: URL(fileURLWithPath: Repository.path("Examples")))
            #expect(run.status == 1 && run.stdout.isEmpty, "\(kind): \(run.stderr)")
            let text = try String(contentsOf: output, encoding: .utf8)
            #expect(text.contains("task_without_id"), "\(kind)")
            switch kind {
            case .json, .codeclimate, .sarif:
                #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(kind) is JSON")
            case .checkstyle: try expectWellFormedXML(text, root: "checkstyle")
            case .junit: try expectWellFormedXML(text, root: "testsuites")
            case .githubActions:
                #expect(text.split(separator: "\n").allSatisfy { ["::warning file=", "::error file=", "::notice file="].contains(where: $0.hasPrefix) })
            case .xcode, .markdown, .html, .summary: break
            }
            if kind == .sarif, SARIFReporterTests.validatorAvailable {
                let script = "import json, sys, jsonschema\nschema = json.load(open(sys.argv[1]))\njsonschema.validators.validator_for(schema)(schema).validate(json.load(sys.stdin))\nprint('valid')"
                let result = try SARIFReporterTests.run(["python3", "-c", script, SARIFReporterTests.schema], input: text)
                #expect(result.status == 0, "\(result.output)")
                #expect(text.contains("\"uri\" : \"ListSync/Bad/ListSync.xcdatamodeld/ListSync.xcdatamodel/contents\""))
            }
        }
    }

    /// A medium-confidence finding with a note, through the five formats that have no field made for either:
    /// each keeps the finding's own line first and adds the note's place and text, and says "medium confidence".
    @Test func notesAndConfidenceReachTheCIFormats() throws {
        let noted = Finding(ruleID: "task_without_id", ruleName: "Task without id", severity: .warning, message: "Use `.task(id:)`.",
                            file: "/proj/Sources/Feed View.swift", line: 3, column: 16,
                            notes: [FindingNote("the value changes here", at: SourceLocation(file: "/proj/Sources/Models.swift", line: 2, column: 5))],
                            confidence: .medium)
        let report = LintReport(findings: [noted], rules: Self.rules, root: Self.root, documentationURL: nil, text: { Self.sources[$0] })

        #expect(ReporterKind.githubActions.render(report) == """
            ::warning file=Sources/Feed View.swift,line=3,col=16,title=Task without id (task_without_id%2C medium confidence)::Use `.task(id:)`.
            ::notice file=Sources/Models.swift,line=2,col=5,title=note for task_without_id at Sources/Feed View.swift%3A3::the value changes here

            """)

        let checkstyle = ReporterKind.checkstyle.render(report)
        #expect(checkstyle.contains("message=\"Use `.task(id:)`.&#10;(medium confidence)&#10;Sources/Models.swift:2:5: note: the value changes here\""))
        try expectWellFormedXML(checkstyle, root: "checkstyle")

        let junit = ReporterKind.junit.render(report)
        #expect(junit.contains("<failure type=\"warning\" message=\"Use `.task(id:)`.\">Sources/Feed View.swift:3:16: warning: Use `.task(id:)`.&#10;(medium confidence)&#10;Sources/Models.swift:2:5: note: the value changes here</failure>"))
        try expectWellFormedXML(junit, root: "testsuites")

        let issues = try #require(try JSONSerialization.jsonObject(with: Data(ReporterKind.codeclimate.render(report).utf8)) as? [[String: Any]])
        let issue = try #require(issues.first)
        #expect(issue["description"] as? String == "Use `.task(id:)`.")
        #expect((issue["content"] as? [String: Any])?["body"] as? String == "Medium confidence.\n- Sources/Models.swift:2:5: note: the value changes here")
        let other = try #require((issue["other_locations"] as? [[String: Any]])?.first)
        #expect(other["path"] as? String == "Sources/Models.swift" && (other["lines"] as? [String: Any])?["begin"] as? Int == 2)
        // A high-confidence finding without notes keeps the exact fields GitLab documents, nothing more.
        #expect(!ReporterKind.codeclimate.render(Self.report).contains("content") && !ReporterKind.codeclimate.render(Self.report).contains("other_locations"))

        #expect(ReporterKind.markdown.render(report).contains(
            "| Use `.task(id:)`. _(medium confidence)_<br>↳ `Sources/Models.swift`:2:5 — the value changes here |"))
    }

    /// Parses with Python's XML parser where python3 exists: a reporter whose escaping is wrong fails here.
    private func expectWellFormedXML(_ text: String, root: String) throws {
        guard (try? SARIFReporterTests.run(["python3", "-c", "import xml.dom.minidom"]).status) == 0 else { return }
        let script = "import sys, xml.dom.minidom\nprint(xml.dom.minidom.parseString(sys.stdin.buffer.read()).documentElement.tagName)"
        let result = try SARIFReporterTests.run(["python3", "-c", script], input: text)
        #expect(result.status == 0 && result.output == root + "\n", "\(result.output)")
    }
}

extension Finding {
    func moved(by lines: Int) -> Finding {
        Finding(ruleID: ruleID, ruleName: ruleName, severity: severity, message: message, file: file, line: line + lines, column: column)
    }
}
