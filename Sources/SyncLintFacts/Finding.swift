/// One problem found, where it is, and what to do instead.
public struct Finding: Sendable, Hashable, Codable {
    public let ruleID: String
    public let ruleName: String
    public var severity: Severity
    public let message: String
    /// Absolute path of the file.
    public let file: String
    public let line: Int
    public let column: Int
    /// Facts the rule recorded for its fix (`identity` for `task_without_id`), so a fix reads data, never
    /// the message text. Empty for most findings.
    public let arguments: [String: String]

    public init(ruleID: String, ruleName: String, severity: Severity, message: String, file: String, line: Int, column: Int,
                arguments: [String: String] = [:]) {
        self.ruleID = ruleID
        self.ruleName = ruleName
        self.severity = severity
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.arguments = arguments
    }

    /// Deterministic order: file, line, column, rule, message.
    public static func ordered(_ lhs: Finding, _ rhs: Finding) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.ruleID, lhs.message) < (rhs.file, rhs.line, rhs.column, rhs.ruleID, rhs.message)
    }
}
