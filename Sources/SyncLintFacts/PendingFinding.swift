/// A finding made during a file's walk, as plain data: a message, or a question for the finished project index
/// (an `IndexCondition` it must meet, an `IndexQuery` whose answer picks one of `messages` and fills its blanks).
/// It never holds syntax nodes or closures, so the file's tree can be freed as soon as its walk ends, and a cache
/// can store it and resolve it against a later index (`message(in:)`, next to the index).
package struct PendingFinding: Sendable, Codable {
    package let ruleID: String
    package let location: SourceLocation
    /// The message's template, when no query completes it.
    package let message: String?
    /// A condition written as data; the finding holds when the index says it does.
    package var condition: IndexCondition? = nil
    /// A question whose answer picks one of `messages` and fills its blanks (`MessageTemplate`); nil keeps it quiet.
    package var query: IndexQuery? = nil
    package var messages: [String] = []
    /// The message ids: of `message` (one), or of each of `messages`, in order; `default` where none is given.
    package var messageIDs: [String] = []
    /// The blanks of the message and the facts for the fix known during the walk (`Finding.arguments`).
    package var arguments: [String: String] = [:]
    /// Names for the answer's arguments, in order, added to `arguments` when the query answers.
    package var answerArguments: [String] = []
    /// Related places known during the walk; an index answer may add its own (`IndexAnswer.notes`).
    package var notes: [FindingNote] = []
    /// What the walk proved; an index answer may lower it (`IndexAnswer.confidence`).
    package var confidence: Confidence = .high

    package init(ruleID: String, location: SourceLocation, message: String?, condition: IndexCondition? = nil,
                 query: IndexQuery? = nil, messages: [String] = [], arguments: [String: String] = [:], answerArguments: [String] = [],
                 messageIDs: [String] = [], notes: [FindingNote] = [], confidence: Confidence = .high) {
        self.ruleID = ruleID
        self.location = location
        self.message = message
        self.condition = condition
        self.query = query
        self.messages = messages
        self.arguments = arguments
        self.answerArguments = answerArguments
        self.messageIDs = messageIDs
        self.notes = notes
        self.confidence = confidence
    }

    /// The id of the message `variant` picks (0 for a finding with one message).
    package func messageID(variant: Int) -> String {
        messageIDs.indices.contains(variant) ? messageIDs[variant] : RuleMessage.defaultID
    }

    private enum CodingKeys: String, CodingKey {
        case ruleID, location, message, condition, query, messages, messageIDs, arguments, answerArguments, notes, confidence
    }

    /// Pending findings stored before message ids, notes and confidence existed still decode.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ruleID = try container.decode(String.self, forKey: .ruleID)
        location = try container.decode(SourceLocation.self, forKey: .location)
        message = try container.decodeIfPresent(String.self, forKey: .message)
        condition = try container.decodeIfPresent(IndexCondition.self, forKey: .condition)
        query = try container.decodeIfPresent(IndexQuery.self, forKey: .query)
        messages = try container.decodeIfPresent([String].self, forKey: .messages) ?? []
        messageIDs = try container.decodeIfPresent([String].self, forKey: .messageIDs) ?? []
        arguments = try container.decodeIfPresent([String: String].self, forKey: .arguments) ?? [:]
        answerArguments = try container.decodeIfPresent([String].self, forKey: .answerArguments) ?? []
        notes = try container.decodeIfPresent([FindingNote].self, forKey: .notes) ?? []
        confidence = try container.decodeIfPresent(Confidence.self, forKey: .confidence) ?? .high
    }
}

/// A resolved finding's message: its text, its id, the arguments (blanks and the facts its fix reads,
/// `Finding.arguments`), its notes and its confidence.
public struct FindingMessage: Sendable, Hashable, Codable {
    public let text: String
    public let arguments: [String: String]
    public var id: String = RuleMessage.defaultID
    public var notes: [FindingNote] = []
    public var confidence: Confidence = .high

    public init(_ text: String, arguments: [String: String] = [:], id: String = RuleMessage.defaultID, notes: [FindingNote] = [],
                confidence: Confidence = .high) {
        self.text = text
        self.arguments = arguments
        self.id = id
        self.notes = notes
        self.confidence = confidence
    }
}
