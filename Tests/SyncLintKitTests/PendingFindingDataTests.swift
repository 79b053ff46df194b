import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintSyntax

/// Pending findings are data: a question for the index is a named `IndexCondition` or `IndexQuery`, never a
/// closure, so a file's facts and pending findings can be stored (a cache, an editor server) and resolved later.
struct PendingFindingDataTests {
    /// `.report(...) {` in a rule's source: a trailing closure handed to `report`, which can only be one over the index.
    static let closureReport = try! NSRegularExpression(pattern: #"\.report\([^()]*(\([^()]*\)[^()]*)*\)\s*\{"#)

    @Test func noRuleFileReportsWithAClosureOverTheIndex() throws {
        let folder = Repository.path("Sources/SyncLintRules")
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        var withClosures: Set<String> = []
        while let file = enumerator.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let source = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            if Self.closureReport.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)) != nil {
                withClosures.insert(URL(fileURLWithPath: file).lastPathComponent)
            }
        }
        #expect(withClosures.isEmpty, "report with a named IndexCondition or IndexQuery instead of a closure in \(withClosures.sorted())")
    }

    @Test func theDetectorSeesAClosureAndNotAQuery() {
        func matches(_ text: String) -> Bool { Self.closureReport.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        #expect(matches("context.report(member.period) { index in"))
        #expect(matches("context.report(call.calledExpression) { index in"))
        #expect(!matches("context.report(call, \"text\", answering: .firstMethod(ofType: t, named: names))"))
        #expect(!matches("context.report(target, Self.message(queue), when: .isPersistentModelNamed(typeName))"))
    }

    /// Every rule example's file facts and pending findings, encoded to JSON and decoded, resolve to the same
    /// findings as before: the index built from the decoded facts answers the decoded questions alike. Project
    /// rules, which read the index alone, find the same on the decoded index.
    @Test(arguments: RuleExampleTests.ruleIDs)
    func exampleFactsAndPendingFindingsSurviveJSON(ruleID: String) throws {
        let description = try #require(RuleRegistry.description(of: ruleID))
        let syntaxRule = RuleRegistry.syntaxRules.first { $0.description.id == ruleID }
        let projectRule = RuleRegistry.projectRules.first { $0.description.id == ruleID }
        var encodedFindings = 0
        for example in description.triggeringExamples + description.nonTriggeringExamples {
            let options = RuleOptions(example.options)
            var sources = [SourceInput(path: "/virtual/Example.swift", text: MarkedSource(example.code).text)]
            var resources: [ResourceFile] = []
            if example.kind == .coreDataModel {
                sources = [SourceInput(path: "/virtual/Persistence.swift", text: "let container = NSPersistentCloudKitContainer(name: \"Model\")")]
                resources = [ResourceFile(path: "/virtual/Model.xcdatamodeld/Model.xcdatamodel/contents", kind: .coreDataModel, text: example.code)]
            }
            let plan = RulePlan(syntaxRules: syntaxRule.map { [$0] } ?? [], options: [ruleID: options])
            let results = sources.map { Linter.processFile(.text($0), plan: plan) }
            let facts = results.map(\.facts)
            let pending = results.flatMap(\.pending)
            let decodedFacts = try JSONDecoder().decode([FileFacts].self, from: JSONEncoder().encode(facts))
            let decodedPending = try JSONDecoder().decode([PendingFinding].self, from: JSONEncoder().encode(pending))
            let index = ProjectIndex(files: facts, resources: resources)
            let decodedIndex = ProjectIndex(files: decodedFacts, resources: resources)
            // Compared as values (text, id, arguments, notes, confidence), and where each finding is.
            let before = pending.map { finding in finding.message(in: index) }
            let after = decodedPending.map { finding in finding.message(in: decodedIndex) }
            #expect(before == after, "\(ruleID): \(before) became \(after) through JSON")
            #expect(pending.map(\.location) == decodedPending.map(\.location))
            encodedFindings += before.compactMap { $0 }.count
            if let projectRule {
                let direct = projectRule.check(index: index, options: options)
                let decoded = projectRule.check(index: decodedIndex, options: options)
                #expect(direct == decoded, "\(ruleID): project findings differ on the decoded index")
                encodedFindings += direct.count
            }
        }
        // A rule's triggering examples fire, so the comparison above compared findings, not nothing.
        if ruleID != RuleRegistry.unusedSuppressionRuleID {
            #expect(encodedFindings > 0, "\(ruleID): no example gave a finding to compare")
        }
    }

    @Test func anAnswerPicksItsMessageAndFillsTheBlanks() {
        #expect(MessageTemplate.fill("call `{0}.{1}()`", ["model", "stop"]) == "call `model.stop()`")
        #expect(MessageTemplate.fill("no blanks", []) == "no blanks")
        let index = ProjectIndex(files: [])
        let quiet = PendingFinding(ruleID: "r", location: SourceLocation(file: "f", line: 1, column: 1), message: nil,
                                   query: .firstMethod(ofType: "Nowhere", named: ["stop"]), messages: ["{0}"])
        #expect(quiet.message(in: index) == nil, "no answer, no finding")
        let variants = PendingFinding(ruleID: "r", location: SourceLocation(file: "f", line: 1, column: 1), message: nil,
                                      query: .offMainCaller(FunctionKey(typeName: nil, name: "never"), names: []), messages: ["a", "b"])
        #expect(variants.message(in: index) == nil, "a function nobody calls runs nowhere off the main thread")
    }

    /// Message ids, notes and confidence are data too: a pending finding keeps them through JSON (the cache and
    /// the language server store pending findings so), and the resolved finding carries them.
    @Test func messageIDsNotesAndConfidenceSurviveJSON() throws {
        let place = SourceLocation(file: "/p/App.swift", line: 3, column: 5)
        let note = FindingNote("the task starts here", at: SourceLocation(file: "/p/App.swift", line: 1, column: 9))
        let pending = PendingFinding(ruleID: "r", location: place, message: "`{flag}` stays set", arguments: ["flag": "isLoading"],
                                     messageIDs: ["flag_stays_set"], notes: [note], confidence: .medium)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(pending)
        let decoded = try JSONDecoder().decode(PendingFinding.self, from: data)
        #expect(try encoder.encode(decoded) == data)
        #expect(decoded.notes == [note] && decoded.confidence == .medium && decoded.messageIDs == ["flag_stays_set"])
        let message = try #require(decoded.message(in: ProjectIndex(files: [])))
        #expect(message == FindingMessage("`isLoading` stays set", arguments: ["flag": "isLoading"], id: "flag_stays_set", notes: [note],
                                          confidence: .medium))
        let finding = Finding(ruleID: "r", ruleName: "R", severity: .warning, message: message.text, file: place.file, line: 3, column: 5,
                              arguments: message.arguments, messageID: message.id, notes: message.notes, confidence: message.confidence)
        #expect(try JSONDecoder().decode(Finding.self, from: encoder.encode(finding)) == finding)
    }

    /// JSON written before message ids, notes and confidence existed still decodes, as `default`, none and `high`.
    @Test func olderJSONDecodesWithTheDefaults() throws {
        let pendingJSON = #"{"ruleID":"r","location":{"file":"f","line":1,"column":2},"message":"text","messages":[],"arguments":{},"answerArguments":[]}"#
        let pending = try JSONDecoder().decode(PendingFinding.self, from: Data(pendingJSON.utf8))
        #expect(pending.notes.isEmpty && pending.confidence == .high && pending.messageID(variant: 0) == RuleMessage.defaultID)
        let findingJSON = #"{"ruleID":"r","ruleName":"R","severity":"warning","message":"m","file":"f","line":1,"column":2,"arguments":{}}"#
        let finding = try JSONDecoder().decode(Finding.self, from: Data(findingJSON.utf8))
        #expect(finding.messageID == RuleMessage.defaultID && finding.notes.isEmpty && finding.confidence == .high)
    }

    /// The answer's notes follow the walk's, and the lower confidence of the two wins.
    @Test func anAnswerAddsItsNotesAndMayLowerTheConfidence() throws {
        let model = """
            /// Items. `url` is unique.
            @Model final class Item { var url: String = "" }
            """
        let facts = Linter.processFile(.text(SourceInput(path: "/p/Item.swift", text: model)), plan: RulePlan(syntaxRules: [], options: [:])).facts
        let index = ProjectIndex(files: [facts])
        let walkNote = FindingNote("inserted here", at: SourceLocation(file: "/p/Item.swift", line: 2, column: 1))
        let pending = PendingFinding(ruleID: "r", location: SourceLocation(file: "/p/Item.swift", line: 2, column: 1), message: nil,
                                     query: .uniqueKey(model: "Item", configured: [], setKeys: ["url"]),
                                     messages: ["a", "b", "c", "unique by `{0}`"], arguments: ["model": "Item"],
                                     messageIDs: ["configured", "attribute", "lookup", "documentation"], notes: [walkNote])
        let message = try #require(pending.message(in: index))
        #expect(message.text == "unique by `url`" && message.id == "documentation")
        #expect(message.confidence == .medium, "a key known from a comment's words is a guess")
        #expect(message.notes == [walkNote] && message.arguments["0"] == "url" && message.arguments["model"] == "Item")
    }

    @Test func namedBlanksAreFilledAndOtherBracesAreText() {
        #expect(MessageTemplate.fill("add `defer { {flag} = false }`", ["flag": "isLoading"]) == "add `defer { isLoading = false }`")
        #expect(MessageTemplate.fill("{a} and {0}, not {missing} or { }", ["a": "{0}", "0": "zero"]) == "{0} and zero, not {missing} or { }")
        #expect(MessageTemplate.blanks(in: "`{receiver}.{0}()` in `perform { }` {receiver}") == ["receiver", "0"])
    }
}
