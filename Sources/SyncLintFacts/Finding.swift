/// One problem found, where it is, and what to do instead: data (rule id, message id and arguments, location,
/// notes, confidence), with its text rendered from the rule's declared template.
public struct Finding: Sendable, Hashable, Codable {
    public let ruleID: String
    public let ruleName: String
    public var severity: Severity
    /// The text, rendered from the template of `messageID` with `arguments`.
    public let message: String
    /// Absolute path of the file.
    public let file: String
    public let line: Int
    public let column: Int
    /// The blanks of the message (named, and `0`, `1`, ... for an index answer's words) and the facts the rule
    /// recorded for its fix (`identity` for `task_without_id`), so a fix reads data, never the message text.
    public let arguments: [String: String]
    /// Which of the rule's declared messages (`RuleDescription.messages`) this is; `default` for a rule that
    /// reports plain text. Not part of a finding's identity (`FindingIdentity`): baselines keep matching.
    public let messageID: String
    /// Related places ("registered here", "CloudKit is turned on here"), in the order the rule gave them.
    public let notes: [FindingNote]
    /// How much of the finding the facts prove (`Confidence`).
    public let confidence: Confidence

    public init(ruleID: String, ruleName: String, severity: Severity, message: String, file: String, line: Int, column: Int,
                arguments: [String: String] = [:], messageID: String = RuleMessage.defaultID, notes: [FindingNote] = [],
                confidence: Confidence = .high) {
        self.ruleID = ruleID
        self.ruleName = ruleName
        self.severity = severity
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.arguments = arguments
        self.messageID = messageID
        self.notes = notes
        self.confidence = confidence
    }

    private enum CodingKeys: String, CodingKey {
        case ruleID, ruleName, severity, message, file, line, column, arguments, messageID, notes, confidence
    }

    /// Findings stored before message ids, notes and confidence existed still decode (as `default`, none, `high`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ruleID = try container.decode(String.self, forKey: .ruleID)
        ruleName = try container.decode(String.self, forKey: .ruleName)
        severity = try container.decode(Severity.self, forKey: .severity)
        message = try container.decode(String.self, forKey: .message)
        file = try container.decode(String.self, forKey: .file)
        line = try container.decode(Int.self, forKey: .line)
        column = try container.decode(Int.self, forKey: .column)
        arguments = try container.decodeIfPresent([String: String].self, forKey: .arguments) ?? [:]
        messageID = try container.decodeIfPresent(String.self, forKey: .messageID) ?? RuleMessage.defaultID
        notes = try container.decodeIfPresent([FindingNote].self, forKey: .notes) ?? []
        confidence = try container.decodeIfPresent(Confidence.self, forKey: .confidence) ?? .high
    }

    public var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    /// Deterministic order: file, line, column, rule, message.
    public static func ordered(_ lhs: Finding, _ rhs: Finding) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.ruleID, lhs.message) < (rhs.file, rhs.line, rhs.column, rhs.ruleID, rhs.message)
    }
}

/// A place related to a finding and what happens there, as compilers print `note:` lines after a warning.
public struct FindingNote: Sendable, Hashable, Codable {
    public let location: SourceLocation
    /// A short phrase: "registered here", "CloudKit is turned on here", "the task starts here".
    public let text: String

    public init(_ text: String, at location: SourceLocation) {
        self.text = text
        self.location = location
    }
}

/// How much of a finding the facts prove. `high`: every fact it needs was proven (receiver type known, task
/// proven cancellable, state proven read by a view, store proven to sync). `medium`: a step was decided from a
/// name or a text (a flag called `isLoading`, a comment that says "unique"). The default output shows `high`
/// only; `--confidence medium` or `confidence: medium` in the configuration show both.
public enum Confidence: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case medium
    case high

    public static func < (lhs: Confidence, rhs: Confidence) -> Bool {
        lhs == .medium && rhs == .high
    }
}

/// One of a rule's messages, declared as data in its description: a stable id (`missing_id`), and a template
/// whose blanks, `{name}` or `{0}`, are filled from the finding's arguments. Tests assert ids, not prose.
public struct RuleMessage: Sendable, Hashable, Codable {
    /// The id a plain-text report gets (`FileContext.report(_:_:)` with a `String`).
    public static let defaultID = "default"

    public let id: String
    public let template: String
    /// The severity of findings with this message, when it differs from the rule's: the same crash is an error
    /// where the store syncs and a warning where it is local (`RuleDescription.severity(ofMessage:)`).
    public var severity: Severity? = nil

    public init(_ id: String, _ template: String, severity: Severity? = nil) {
        self.id = id
        self.template = template
        self.severity = severity
    }

    /// The template with its blanks filled (`MessageTemplate.fill`).
    public func text(_ arguments: [String: String] = [:]) -> String {
        MessageTemplate.fill(template, arguments)
    }
}
