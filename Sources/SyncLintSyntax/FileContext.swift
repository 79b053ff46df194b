import SwiftSyntax

/// What a rule sees during one file's walk: where it is (scope), how to report, and the facts
/// this file contributes to the project index.
public final class FileContext {
    public let path: String
    public let tree: SourceFileSyntax
    private let lines: LineTable
    /// The file's text, for slicing a node's source without printing the tree.
    private let text: String
    public internal(set) var scope = ScopeStack()
    /// Facts for the project index; index collectors write here.
    public var facts = FileFacts()
    /// The names declared in the function being walked, so that `ValueTypes` answers most questions
    /// about locals without a lexical lookup (the summary collector records them).
    let localNames = LocalNames()
    /// The id of the rule being called, set by the walker, so rules need not name themselves.
    package var currentRuleID = ""
    /// The last call whose method name was asked, and the name: every rule listening to calls asks it
    /// of the same node in turn, and reading a token's text allocates.
    private var cachedMethodName: (id: SyntaxIdentifier, name: String)?
    package private(set) var pendingFindings: [PendingFinding] = []

    /// The answers of `executionContextHere` and `cancellabilityHere` for the innermost scope frame they were
    /// asked in: a frame's node fixes the whole stack below it, and a function's calls all ask the same.
    private var executionContextMemo: (frame: SyntaxIdentifier?, value: ExecutionContext)?
    private var cancellabilityMemo: (frame: SyntaxIdentifier?, value: Cancellability)?

    /// Where the code at the walker's position runs (`ExecutionContexts.current`).
    package func executionContextHere() -> ExecutionContext {
        let frame = scope.frames.last?.nodeID
        if let memo = executionContextMemo, memo.frame == frame { return memo.value }
        let value = ExecutionContexts.current(in: scope, file: path)
        executionContextMemo = (frame, value)
        return value
    }

    /// Whether the code at the walker's position can be cancelled (`ExecutionContexts.cancellability`).
    package func cancellabilityHere() -> Cancellability {
        let frame = scope.frames.last?.nodeID
        if let memo = cancellabilityMemo, memo.frame == frame { return memo.value }
        let value = ExecutionContexts.cancellability(in: self)
        cancellabilityMemo = (frame, value)
        return value
    }

    /// The last reference whose name was asked, and the name.
    private var referenceNameMemo: (id: SyntaxIdentifier, name: String, isIdentifier: Bool)?

    /// A reference's name, and whether it is an identifier (not `self`, `Self`, `super`, `$0`): the summary
    /// collector and rules listening to references ask about the same node in turn, and each read builds a string.
    package func referenceName(_ reference: DeclReferenceExprSyntax) -> (name: String, isIdentifier: Bool) {
        if let memo = referenceNameMemo, memo.id == reference.id { return (memo.name, memo.isIdentifier) }
        let answer: (name: String, isIdentifier: Bool)
        if case .identifier(let text) = reference.baseName.tokenKind { answer = (text, true) } else { answer = (reference.baseName.text, false) }
        referenceNameMemo = (reference.id, answer.name, answer.isIdentifier)
        return answer
    }

    /// The last receiver whose type was asked: the summary collector and a rule ask about the same call in turn.
    private var receiverTypeMemo: (id: SyntaxIdentifier, value: ValueType)?

    /// The type of a call's receiver (`ValueTypes.of`); a bare type name is the type itself (`Connections` in
    /// `Connections.track(session:)`, a static method's call), not a property of `self` of that name.
    package func valueType(ofReceiver receiver: ExprSyntax) -> ValueType {
        if let memo = receiverTypeMemo, memo.id == receiver.id { return memo.value }
        let value = ValueTypes.namedType(receiver, in: self) ?? ValueTypes.of(receiver, in: self)
        receiverTypeMemo = (receiver.id, value)
        return value
    }

    /// `TaskFacts.storedHandleName` by task call: asked again in each closure nested in the task.
    private var storedHandleNames: [SyntaxIdentifier: String?] = [:]

    /// The property a `Task { }` call's handle is stored in (`TaskFacts.storedHandleName`), in the enclosing function.
    package func storedHandleName(ofTask call: FunctionCallExprSyntax) -> String? {
        if let known = storedHandleNames[call.id] { return known }
        let name = TaskFacts.storedHandleName(of: call, in: scope.currentFunction?.body)
        storedHandleNames[call.id] = name
        return name
    }

    /// Control-flow graphs built during this walk, by the body's owner: built when first asked, once.
    private var controlFlowGraphs: [SyntaxIdentifier: BuiltControlFlowGraph?] = [:]

    /// How many bodies' graphs this walk has built (tests check that graphs are built only when asked).
    package var builtControlFlowGraphCount: Int { controlFlowGraphs.count }

    /// The control-flow graph of a function, initializer, accessor or closure (or of a body given directly:
    /// a code block, a closure's statements), built the first time a rule or collector asks, then shared.
    package func controlFlowGraph(of owner: some SyntaxProtocol) -> BuiltControlFlowGraph? {
        if let known = controlFlowGraphs[owner.id] { return known }
        let built = ControlFlowGraphBuilder.build(of: owner)
        controlFlowGraphs[owner.id] = built
        return built
    }

    /// Whether the file has an `#if` at all: most do not, and then no node sits in a clause.
    private lazy var hasIfConfig: Bool = text.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.indices.dropLast(2).contains { bytes[$0] == UInt8(ascii: "#") && bytes[$0 + 1] == UInt8(ascii: "i") && bytes[$0 + 2] == UInt8(ascii: "f") }
    } ?? text.contains("#if")

    /// The `#if` clauses enclosing a node, outermost first (`IfConfigFacts.clauses`).
    func ifConfigClauses(of node: some SyntaxProtocol) -> [IfConfigClause] {
        hasIfConfig ? IfConfigFacts.clauses(of: Syntax(node), file: path) : []
    }

    package init(path: String, text: String, tree: SourceFileSyntax) {
        self.path = path
        self.tree = tree
        self.lines = LineTable(text)
        self.text = text
        facts.codePlaces.file = path
        facts.deadCode.file = path
        facts.deadCode.hasEntryPoint = path.hasSuffix("/main.swift") || path == "main.swift"
    }

    public func location(of node: some SyntaxProtocol) -> SourceLocation {
        location(at: node.positionAfterSkippingLeadingTrivia)
    }

    public func location(at position: AbsolutePosition) -> SourceLocation {
        let (line, column) = lines.lineAndColumn(at: position.utf8Offset)
        return SourceLocation(file: path, line: line, column: scalarColumn(offset: position.utf8Offset, utf8Column: column))
    }

    /// Columns count Unicode scalars (`SourceColumn`); on an ASCII line that is the byte count.
    private func scalarColumn(offset: Int, utf8Column: Int) -> Int {
        let start = offset - (utf8Column - 1)
        let counted = text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            guard start >= 0, start <= offset, offset <= bytes.count else { return utf8Column }
            return SourceColumn.scalarColumn(bytesBefore: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        }
        return counted ?? SourceColumn.scalarColumn(bytesBefore: text.utf8.dropFirst(start).prefix(utf8Column - 1))
    }

    /// `SyntaxFacts.calleeMethodName`, remembered for the node being dispatched.
    public func calleeMethodName(_ call: FunctionCallExprSyntax) -> String {
        if let cached = cachedMethodName, cached.id == call.id { return cached.name }
        let name = SyntaxFacts.calleeMethodName(call)
        cachedMethodName = (call.id, name)
        return name
    }

    /// The node's source text without its leading and trailing trivia, as `trimmedDescription` gives it,
    /// sliced from the file instead of printed from the tree.
    public func sourceText(of node: some SyntaxProtocol) -> String {
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = node.endPositionBeforeTrailingTrivia.utf8Offset
        let sliced = text.utf8.withContiguousStorageIfAvailable { bytes -> String in
            guard start >= 0, start <= end, end <= bytes.count else { return node.trimmedText }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return sliced ?? node.trimmedText
    }

    /// Reports a finding at the node's first token.
    public func report(_ node: some SyntaxProtocol, _ message: String) {
        report(at: location(of: node), message)
    }

    public func report(at location: SourceLocation, _ message: String) {
        pendingFindings.append(PendingFinding(ruleID: currentRuleID, location: location, message: message))
    }

    /// Reports a finding with facts its fix reads (`Finding.arguments`).
    public func report(_ node: some SyntaxProtocol, _ message: String, arguments: [String: String]) {
        pendingFindings.append(PendingFinding(ruleID: currentRuleID, location: location(of: node), message: message,
                                              arguments: arguments))
    }

    /// Reports a finding that holds when the project index says `condition` does.
    public func report(_ node: some SyntaxProtocol, _ message: String, when condition: IndexCondition) {
        pendingFindings.append(PendingFinding(ruleID: currentRuleID, location: location(of: node), message: message,
                                              condition: condition))
    }

    /// Reports a finding whose message the project index completes: the answer to `query` picks one of
    /// `messages` (`IndexAnswer.variant`) and fills its blanks (`{0}`, `{1}`, ...); no answer, no finding.
    /// With `condition`, the finding also needs the condition to hold.
    /// `answerArguments` names the answer's arguments, in order, for the fix (`Finding.arguments`): the fix reads
    /// facts only the index has (an identity that compiles) by name, never the message.
    public func report(_ node: some SyntaxProtocol, _ messages: [String], answering query: IndexQuery, when condition: IndexCondition? = nil,
                       answerArguments: [String] = []) {
        pendingFindings.append(PendingFinding(ruleID: currentRuleID, location: location(of: node), message: nil,
                                              condition: condition, query: query, messages: messages, answerArguments: answerArguments))
    }

    /// `report(_:_:answering:when:)` with one message.
    public func report(_ node: some SyntaxProtocol, _ message: String, answering query: IndexQuery, when condition: IndexCondition? = nil) {
        report(node, [message], answering: query, when: condition)
    }

    // Declared messages (`RuleMessage`, listed in the rule's `RuleDescription.messages`): the finding carries the
    // message's id and `arguments`, which fill the template's `{name}` blanks and are the facts a fix reads.
    // `notes` are related places (`note(_:at:)`); `confidence` is `.medium` where the rule decided from a name or
    // a text, not a fact.

    /// Reports the declared message at the node's first token; with `condition`, when the index says it holds.
    public func report(_ node: some SyntaxProtocol, _ message: RuleMessage, _ arguments: [String: String] = [:],
                       when condition: IndexCondition? = nil, notes: [FindingNote] = [], confidence: Confidence = .high) {
        report(at: location(of: node), message, arguments, when: condition, notes: notes, confidence: confidence)
    }

    public func report(at location: SourceLocation, _ message: RuleMessage, _ arguments: [String: String] = [:],
                       when condition: IndexCondition? = nil, notes: [FindingNote] = [], confidence: Confidence = .high) {
        pendingFindings.append(PendingFinding(ruleID: currentRuleID, location: location, message: message.template, condition: condition,
                                              arguments: arguments, messageIDs: [message.id], notes: notes, confidence: confidence))
    }

    /// Reports one of the declared messages, picked by the index's answer to `query` (`IndexAnswer.variant`), its
    /// `{0}`, `{1}`, ... blanks filled by the answer (also named by `answerArguments`), the rest by `arguments`.
    public func report(_ node: some SyntaxProtocol, _ messages: [RuleMessage], _ arguments: [String: String] = [:],
                       answering query: IndexQuery, when condition: IndexCondition? = nil, answerArguments: [String] = [],
                       notes: [FindingNote] = [], confidence: Confidence = .high) {
        pendingFindings.append(PendingFinding(ruleID: currentRuleID, location: location(of: node), message: nil, condition: condition,
                                              query: query, messages: messages.map(\.template), arguments: arguments,
                                              answerArguments: answerArguments, messageIDs: messages.map(\.id), notes: notes,
                                              confidence: confidence))
    }

    /// `report(_:_:_:answering:when:answerArguments:notes:confidence:)` with one message.
    public func report(_ node: some SyntaxProtocol, _ message: RuleMessage, _ arguments: [String: String] = [:],
                       answering query: IndexQuery, when condition: IndexCondition? = nil, answerArguments: [String] = [],
                       notes: [FindingNote] = [], confidence: Confidence = .high) {
        report(node, [message], arguments, answering: query, when: condition, answerArguments: answerArguments, notes: notes,
               confidence: confidence)
    }

    /// A note for a finding: `text` about the place of `node` ("the task starts here").
    public func note(_ text: String, at node: some SyntaxProtocol) -> FindingNote {
        FindingNote(text, at: location(of: node))
    }
}

/// Line starts of a source text, for turning UTF-8 offsets into 1-based line and UTF-8 column, as
/// swift-syntax's `SourceLocationConverter` does, from one scan of the bytes instead of the tree.
struct LineTable {
    private var starts: [Int] = [0]

    init(_ text: String) {
        var previous: UInt8 = 0
        var offset = 0
        for byte in text.utf8 {
            offset += 1
            if byte == 10 {  // \n, also ending a \r\n
                if previous == 13 { starts[starts.count - 1] = offset } else { starts.append(offset) }
            } else if byte == 13 {  // \r, which may be followed by \n
                starts.append(offset)
            }
            previous = byte
        }
    }

    func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - starts[low] + 1)
    }
}
