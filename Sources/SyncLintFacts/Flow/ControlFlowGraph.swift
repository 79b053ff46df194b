/// The control-flow graph of one function, initializer, accessor or closure body, as plain values: no syntax
/// nodes, so it can be stored, sent between threads and, later, cached. A closure inside the body is one
/// node here (`closure`); its own body has its own graph. Built by `ControlFlowGraphBuilder` (Check/).
public struct ControlFlowGraph: Codable, Sendable, Hashable {
    /// What a node stands for. Structural nodes (`join`) only shape the graph; the others are what rules ask about.
    public enum NodeKind: String, Codable, Sendable, Hashable {
        /// Where the body starts.
        case entry
        /// Where a normal return (or falling off the end) leaves the body.
        case exit
        /// Where an error leaves the body: a `throw`, or a `try` whose error no `catch` of the body handles.
        case errorExit
        /// A branch point, a loop header, a merge, a `case` or `catch` clause's start.
        case join
        /// A simple statement (a declaration, an expression statement), after the nodes of its parts.
        case statement
        /// One condition of an `if`, `guard` or `while`, after the nodes of its parts.
        case condition
        /// A suspension point: `await`, `for await`.
        case await
        /// An assignment or compound assignment; `label` is the target's text (`self.isLoading`).
        case write
        /// A call; `label` is the callee's dotted name (`api.search`).
        case call
        /// `Task.isCancelled`, `isCancelled`, `Task.checkCancellation()`, `checkCancellation()`.
        case cancellationCheck
        /// A `try` that can throw: its error edges leave from here.
        case tryPoint
        case returnStatement
        case throwStatement
        /// A closure expression: its body runs at another time and has its own graph.
        case closure
    }

    /// How control passes along an edge.
    public enum EdgeKind: String, Codable, Sendable, Hashable {
        case normal
        /// An error thrown to a `catch` clause of the same body.
        case throwToCatch
        /// An error that leaves the body (towards `errorExit`, through the `defer`s it runs on the way).
        case throwOut
        /// A cancellation check that throws (`try Task.checkCancellation()`), to a `catch` or out of the body.
        case cancellation

        public var isError: Bool { self != .normal }
    }

    public struct Node: Codable, Sendable, Hashable {
        public let id: Int
        public let kind: NodeKind
        /// UTF-8 offsets of the source the node stands for, in its file (`end` excluded).
        public let start: Int
        public let end: Int
        /// The write's target or the call's callee; nil for other kinds.
        public let label: String?

        public init(id: Int, kind: NodeKind, start: Int, end: Int, label: String? = nil) {
            self.id = id
            self.kind = kind
            self.start = start
            self.end = end
            self.label = label
        }
    }

    public struct Edge: Codable, Sendable, Hashable {
        public let from: Int
        public let to: Int
        public let kind: EdgeKind

        public init(from: Int, to: Int, kind: EdgeKind) {
            self.from = from
            self.to = to
            self.kind = kind
        }
    }

    public let nodes: [Node]
    public let edges: [Edge]
    public let entry: Int
    public let exit: Int
    public let errorExit: Int
    /// Per node, the edges leaving it and those arriving at it (derived from `edges`).
    public let successors: [[Edge]]
    public let predecessors: [[Edge]]

    public init(nodes: [Node], edges: [Edge], entry: Int, exit: Int, errorExit: Int) {
        self.nodes = nodes
        self.edges = edges
        self.entry = entry
        self.exit = exit
        self.errorExit = errorExit
        var successors = Array(repeating: [Edge](), count: nodes.count)
        var predecessors = Array(repeating: [Edge](), count: nodes.count)
        for edge in edges {
            successors[edge.from].append(edge)
            predecessors[edge.to].append(edge)
        }
        self.successors = successors
        self.predecessors = predecessors
    }

    private enum CodingKeys: String, CodingKey { case nodes, edges, entry, exit, errorExit }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(nodes: try container.decode([Node].self, forKey: .nodes), edges: try container.decode([Edge].self, forKey: .edges),
                  entry: try container.decode(Int.self, forKey: .entry), exit: try container.decode(Int.self, forKey: .exit),
                  errorExit: try container.decode(Int.self, forKey: .errorExit))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(nodes, forKey: .nodes)
        try container.encode(edges, forKey: .edges)
        try container.encode(entry, forKey: .entry)
        try container.encode(exit, forKey: .exit)
        try container.encode(errorExit, forKey: .errorExit)
    }

    /// Both ways out of the body: a normal exit and an error that leaves it.
    public var exits: Set<Int> { [exit, errorExit] }

    /// The nodes of a kind, in source order (then in the order they were built: a `defer`'s copies follow).
    public func nodes(ofKind kind: NodeKind) -> [Node] {
        nodes.filter { $0.kind == kind }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }
}
