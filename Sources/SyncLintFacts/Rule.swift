/// How loudly a finding speaks. Raw values are what the Xcode reporter prints.
public enum Severity: String, Sendable, Comparable, CaseIterable, Codable {
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .warning && rhs == .error
    }
}

/// Whether a rule's automatic fix may be applied without review.
public enum FixSafety: String, Sendable {
    case safe
    case unsafe
    case displayOnly = "display-only"
    case none
}

/// One example of a rule's input. A `↓` marks where a finding must land; `ok` examples carry none.
public struct RuleExample: Sendable {
    /// What the example's text is: Swift source, or a Core Data model file's XML (which the tests load
    /// as `Model.xcdatamodeld`, next to a Swift file that syncs it with `NSPersistentCloudKitContainer`).
    public enum Kind: Sendable {
        case swift
        case coreDataModel
    }

    public let code: String
    public let kind: Kind
    /// Extra rule options for this example, as the config file would give them.
    public let options: [String: OptionValue]
    /// For an example with an automatic fix: the expected source after the fix.
    public let fixed: String?
    /// For a triggering example: the message id each finding must carry, in marker order (one id for all when
    /// one is given); empty when the example does not say.
    public let messageIDs: [String]
    /// For a triggering example: the text of each note its findings must carry, in order (all findings' notes,
    /// marker order); nil when the example does not say.
    public let notes: [String]?
    /// For a triggering example: the confidence its findings must have; nil when the example does not say.
    public let confidence: Confidence?

    public init(_ code: String, kind: Kind = .swift, options: [String: OptionValue] = [:], fixed: String? = nil,
                messageIDs: [String] = [], notes: [String]? = nil, confidence: Confidence? = nil) {
        self.code = code
        self.kind = kind
        self.options = options
        self.fixed = fixed
        self.messageIDs = messageIDs
        self.notes = notes
        self.confidence = confidence
    }

    /// A triggering example whose findings carry the message `id`.
    public init(_ code: String, kind: Kind = .swift, options: [String: OptionValue] = [:], fixed: String? = nil,
                message id: String, notes: [String]? = nil, confidence: Confidence? = nil) {
        self.init(code, kind: kind, options: options, fixed: fixed, messageIDs: [id], notes: notes, confidence: confidence)
    }
}

/// A rule's option and its documentation.
public struct RuleOptionDescription: Sendable {
    public let name: String
    public let defaultValue: String
    public let summary: String

    public init(_ name: String, default defaultValue: String, _ summary: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// Everything a user, the docs generator and the test harness need to know about a rule.
/// The documentation follows ruff's sections: what it does, why it is bad, example, use instead.
public struct RuleDescription: Sendable {
    public let id: String
    public let name: String
    /// One paragraph: what the rule finds.
    public let whatItDoes: String
    /// Why the pattern costs users; names the seed it comes from.
    public let whyIsThisBad: String
    public let seed: String
    public let isOptIn: Bool
    public let severity: Severity
    public let options: [RuleOptionDescription]
    /// Code that reports (with `↓` markers) and code that stays quiet, used as tests.
    public let triggeringExamples: [RuleExample]
    public let nonTriggeringExamples: [RuleExample]
    /// Known cases where the rule is wrong or stays silent, stated plainly.
    public let knownLimitations: String
    public let fixSafety: FixSafety
    /// Where the rule looks: app code only by default; a few concurrency rules look at tests too.
    /// Findings elsewhere are dropped by the engine (`ProjectIndex.codeKind(of:)`).
    public let appliesTo: CodeKinds
    /// The messages the rule reports, each with a stable id and a template (`RuleMessage`). A finding carries
    /// the id; the example tests check that a rule reports only ids it declares, and the ids an example expects.
    public let messages: [RuleMessage]

    public init(
        id: String, name: String, whatItDoes: String, whyIsThisBad: String, seed: String,
        isOptIn: Bool = false, severity: Severity = .warning, options: [RuleOptionDescription] = [],
        triggeringExamples: [RuleExample], nonTriggeringExamples: [RuleExample],
        knownLimitations: String = "", fixSafety: FixSafety = .none, appliesTo: CodeKinds = .app,
        messages: [RuleMessage] = []
    ) {
        self.id = id
        self.name = name
        self.whatItDoes = whatItDoes
        self.whyIsThisBad = whyIsThisBad
        self.seed = seed
        self.isOptIn = isOptIn
        self.severity = severity
        self.options = options
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
        self.knownLimitations = knownLimitations
        self.fixSafety = fixSafety
        self.appliesTo = appliesTo
        self.messages = messages
    }

    /// The declared message of this id.
    public func message(_ id: String) -> RuleMessage? {
        messages.first { $0.id == id }
    }

    /// The severity of a finding with the message of this id: the message's own, else the rule's.
    public func severity(ofMessage id: String) -> Severity {
        message(id)?.severity ?? severity
    }
}
