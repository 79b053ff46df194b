/// A finding made during a file's walk, as plain data: a message, or a question for the finished project index
/// (an `IndexCondition` it must meet, an `IndexQuery` whose answer picks one of `messages` and fills its blanks).
/// It never holds syntax nodes or closures, so the file's tree can be freed as soon as its walk ends, and a cache
/// can store it and resolve it against a later index (`message(in:)`, next to the index).
package struct PendingFinding: Sendable, Codable {
    package let ruleID: String
    package let location: SourceLocation
    /// The message, when no query completes it.
    package let message: String?
    /// A condition written as data; the finding holds when the index says it does.
    package var condition: IndexCondition? = nil
    /// A question whose answer picks one of `messages` and fills its blanks (`MessageTemplate`); nil keeps it quiet.
    package var query: IndexQuery? = nil
    package var messages: [String] = []
    /// Facts for the fix known during the walk (`Finding.arguments`).
    package var arguments: [String: String] = [:]
    /// Names for the answer's arguments, in order, added to `arguments` when the query answers.
    package var answerArguments: [String] = []

    package init(ruleID: String, location: SourceLocation, message: String?, condition: IndexCondition? = nil,
                 query: IndexQuery? = nil, messages: [String] = [], arguments: [String: String] = [:], answerArguments: [String] = []) {
        self.ruleID = ruleID
        self.location = location
        self.message = message
        self.condition = condition
        self.query = query
        self.messages = messages
        self.arguments = arguments
        self.answerArguments = answerArguments
    }
}

/// A resolved finding's message and the facts its fix reads (`Finding.arguments`).
public struct FindingMessage: Sendable, Hashable, Codable {
    public let text: String
    public let arguments: [String: String]

    public init(_ text: String, arguments: [String: String] = [:]) {
        self.text = text
        self.arguments = arguments
    }
}
