import Testing
@testable import SyncLintKit

/// Every rule's documented examples, run through the production pipeline with only that rule on.
/// Triggering examples must fire exactly at their `↓` markers; non-triggering ones must stay quiet.
/// SwiftLint's cheap mutations (commented out, inside a string literal, behind a multi-byte line,
/// behind a disable comment) catch rules that match text instead of syntax.
struct RuleExampleTests {
    static let ruleIDs = RuleRegistry.allDescriptions.map(\.id)

    @Test(arguments: ruleIDs)
    func triggeringExamplesFireAtTheirMarkers(ruleID: String) throws {
        let description = try #require(RuleRegistry.description(of: ruleID))
        #expect(!description.triggeringExamples.isEmpty, "\(ruleID) has no triggering example")
        for example in description.triggeringExamples {
            let source = MarkedSource(example.code)
            #expect(!source.markers.isEmpty, "a triggering example of \(ruleID) has no ↓ marker:\n\(example.code)")
            let found = positions(source.text, ruleID: ruleID, options: example.options, kind: example.kind)
            #expect(found == source.markers.sorted(by: order), "\(ruleID) fired at \(found), expected \(source.markers) in:\n\(example.code)")
        }
    }

    /// Every finding of a triggering example carries one of the rule's declared message ids, its text has every
    /// blank of that template filled, and where the example says which message, notes or confidence it expects,
    /// the findings have exactly those.
    @Test(arguments: ruleIDs)
    func triggeringExamplesCarryTheirMessagesNotesAndConfidence(ruleID: String) throws {
        let description = try #require(RuleRegistry.description(of: ruleID))
        #expect(!description.messages.isEmpty, "\(ruleID) declares no messages")
        #expect(Set(description.messages.map(\.id)).count == description.messages.count, "\(ruleID) declares a message id twice")
        for example in description.triggeringExamples {
            let found = findings(MarkedSource(example.code).text, ruleID: ruleID, options: example.options, kind: example.kind)
            for finding in found {
                let message = description.message(finding.messageID)
                #expect(message != nil, "\(ruleID) reported the undeclared message id '\(finding.messageID)'")
                for blank in MessageTemplate.blanks(in: message?.template ?? "") {
                    #expect(!finding.message.contains("{\(blank)}"), "\(ruleID)'s message '\(finding.messageID)' left {\(blank)} unfilled: \(finding.message)")
                }
            }
            if !example.messageIDs.isEmpty {
                let expected = example.messageIDs.count == 1 ? Array(repeating: example.messageIDs[0], count: found.count) : example.messageIDs
                #expect(found.map(\.messageID) == expected, "\(ruleID) reported messages \(found.map(\.messageID)), expected \(expected) in:\n\(example.code)")
            }
            if let notes = example.notes {
                #expect(found.flatMap { $0.notes.map(\.text) } == notes, "\(ruleID) gave notes \(found.flatMap(\.notes)), expected \(notes)")
            }
            if let confidence = example.confidence {
                #expect(found.allSatisfy { $0.confidence == confidence }, "\(ruleID) gave \(found.map(\.confidence)), expected \(confidence)")
            }
        }
    }

    @Test(arguments: ruleIDs)
    func nonTriggeringExamplesStayQuiet(ruleID: String) throws {
        let description = try #require(RuleRegistry.description(of: ruleID))
        #expect(description.nonTriggeringExamples.count >= 2, "\(ruleID) needs at least two non-triggering examples")
        for example in description.nonTriggeringExamples {
            let found = positions(example.code, ruleID: ruleID, options: example.options, kind: example.kind)
            #expect(found.isEmpty, "\(ruleID) fired at \(found) in a non-triggering example:\n\(example.code)")
        }
    }

    @Test(arguments: ruleIDs)
    func mutatedTriggeringExamplesBehave(ruleID: String) throws {
        let description = try #require(RuleRegistry.description(of: ruleID))
        // Model files are XML: Swift comments and string literals mean nothing there.
        for example in description.triggeringExamples where !example.code.contains("#\"\"\"") && example.kind == .swift {
            let source = MarkedSource(example.code)
            let commented = source.text.split(separator: "\n", omittingEmptySubsequences: false).map { "// " + $0 }.joined(separator: "\n")
            #expect(positions(commented, ruleID: ruleID, options: example.options).isEmpty, "\(ruleID) fired inside a comment")

            let inString = "let example = #\"\"\"\n" + source.text + "\n\"\"\"#\n"
            #expect(positions(inString, ruleID: ruleID, options: example.options).isEmpty, "\(ruleID) fired inside a string literal")

            let disabled = "// synclint:disable \(ruleID)\n" + source.text
            #expect(positions(disabled, ruleID: ruleID, options: example.options).isEmpty, "\(ruleID) ignored a disable comment")

            let shifted = "// 👨‍👩‍👧‍👦 ünïcödé prefix\n" + source.text
            let expected = source.markers.map { MarkedSource.Position(line: $0.line + 1, column: $0.column) }.sorted(by: order)
            #expect(positions(shifted, ruleID: ruleID, options: example.options) == expected,
                    "\(ruleID) lost its position behind a multi-byte line")
        }
    }

    private func positions(_ code: String, ruleID: String, options: [String: OptionValue],
                           kind: RuleExample.Kind = .swift) -> [MarkedSource.Position] {
        findings(code, ruleID: ruleID, options: options, kind: kind).map { MarkedSource.Position(line: $0.line, column: $0.column) }
    }

    /// The rule's findings on the example (medium confidence included), in source order.
    private func findings(_ code: String, ruleID: String, options: [String: OptionValue], kind: RuleExample.Kind = .swift) -> [Finding] {
        let findings: [Finding]
        switch kind {
        case .swift:
            // A rule about other rules' findings needs them: its examples run with every default rule on.
            let rules = ruleID == SuperfluousDisableCommandRule.description.id
                ? RuleRegistry.allDescriptions.filter { !$0.isOptIn }.map(\.id) : [ruleID]
            findings = Harness.findings(code, rules: rules, options: [ruleID: options])
        case .coreDataModel:
            let app = SourceInput(path: "/virtual/Persistence.swift", text: "let container = NSPersistentCloudKitContainer(name: \"Model\")")
            let model = ResourceFile(path: "/virtual/Model.xcdatamodeld/Model.xcdatamodel/contents", kind: .coreDataModel, text: code)
            findings = Harness.findings(sources: [app], rules: [ruleID], options: [ruleID: options], resources: [model])
        }
        return findings.filter { $0.ruleID == ruleID }.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    private func order(_ lhs: MarkedSource.Position, _ rhs: MarkedSource.Position) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
