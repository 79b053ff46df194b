import Foundation

/// Everything a reporter may print: the findings, the rules that ran, and where the project's root
/// is, so CI reporters can print paths relative to the checkout.
public struct LintReport: Sendable {
    public let findings: [Finding]
    /// The rules that ran, sorted by id (SARIF lists every one, not only those that fired).
    public let rules: [RuleDescription]
    /// Absolute path report paths are relative to.
    public let root: String
    /// Per finding, in the same order: its identity (baseline key, fingerprints).
    public let identities: [FindingIdentity]
    /// Where the rule reference (`docs/rules.md`) is published, or nil: then reports carry no help
    /// links rather than a guessed address. `helpURL(for:)` appends the rule's anchor.
    public let documentationURL: String?

    public init(findings: [Finding], rules: [RuleDescription], root: String = "/",
                documentationURL: String? = RuleDocumentation.documentationURL, locate: Bool = true,
                text: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }) {
        self.findings = findings
        self.rules = rules.sorted { $0.id < $1.id }
        self.root = root
        self.documentationURL = documentationURL
        // Identities read and parse each file with findings again; reporters that print only
        // positions skip that (`locate: false`), leaving identities without line and declaration texts.
        self.identities = FindingIdentities.compute(findings, root: root, text: locate ? text : { _ in nil })
    }

    init(findings: [Finding], rules: [RuleDescription], root: String, identities: [FindingIdentity], documentationURL: String?) {
        self.findings = findings
        self.rules = rules
        self.root = root
        self.identities = identities
        self.documentationURL = documentationURL
    }

    /// A finding's path relative to the root, or its absolute path when it lies outside.
    public func path(of finding: Finding) -> String {
        ProjectRoot.relative(finding.file, to: root) ?? finding.file
    }

    /// A note's path relative to the root, or its absolute path when it lies outside.
    public func path(of note: FindingNote) -> String {
        ProjectRoot.relative(note.location.file, to: root) ?? note.location.file
    }

    /// A finding's notes as compiler-style lines, `path:line:col: note: text`, for formats with a free-text
    /// body but no field for related locations (Checkstyle, JUnit, Code Climate).
    public func noteLines(of finding: Finding) -> [String] {
        finding.notes.map { "\(path(of: $0)):\($0.location.line):\($0.location.column): note: \($0.text)" }
    }

    /// The rule's section in the rule reference, by the anchor GitHub gives its heading.
    public func helpURL(for ruleID: String) -> String? {
        guard let documentationURL else { return nil }
        return documentationURL + "#" + (rule(ruleID).map(RuleDocumentation.anchor(for:)) ?? ruleID)
    }

    public func rule(_ id: String) -> RuleDescription? {
        rules.first { $0.id == id }
    }

    /// Findings per rule id, rules sorted by id.
    var findingsByRule: [(ruleID: String, findings: [Finding])] {
        Dictionary(grouping: findings, by: \.ruleID).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    var errorCount: Int { findings.filter { $0.severity == .error }.count }
    var warningCount: Int { findings.count - errorCount }
}

extension RuleDocumentation {
    /// The anchor GitHub's Markdown renderer gives a rule's heading (`## \`id\`: Name`): lowercased,
    /// punctuation other than `-` and `_` dropped, spaces made hyphens.
    public static func anchor(for rule: RuleDescription) -> String {
        let heading = "\(rule.id): \(rule.name)".lowercased()
        return String(heading.compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    /// The first sentence of a text: up to the first period that ends a sentence (followed by a space
    /// and a capital letter, or the end), outside backticks, so `.task` and `e.g.` do not end it.
    public static func firstSentence(_ text: String) -> String {
        let collapsed = FindingIdentity.normalized(Substring(text))
        let characters = Array(collapsed)
        var inCode = false
        for (index, character) in characters.enumerated() {
            if character == "`" { inCode.toggle() }
            guard character == ".", !inCode else { continue }
            if index + 1 == characters.count { return collapsed }
            if characters[index + 1] == " ", index + 2 < characters.count, characters[index + 2].isUppercase {
                return String(characters[...index])
            }
        }
        return collapsed
    }
}
