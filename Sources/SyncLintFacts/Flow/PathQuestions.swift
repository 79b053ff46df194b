/// The path questions rules ask of a function's graph. Each takes node ids and predicates over nodes, so a
/// rule says what it looks for (a write of `isLoading`, a cancellation check) and the graph answers where
/// control can go. Errors and cancellation are paths like any other: a `try` that can throw has an edge to
/// its `catch` or to `errorExit`, through the `defer`s that run on the way.
extension ControlFlowGraph {
    /// Nodes control can reach from `start` (included) without entering a node that satisfies `avoiding`;
    /// `start` itself is never avoided. `following` picks the edges taken (all by default).
    public func reachable(from start: Int, avoiding: (Node) -> Bool = { _ in false },
                          following: (EdgeKind) -> Bool = { _ in true }) -> Set<Int> {
        var seen: Set<Int> = [start]
        var stack = [start]
        while let node = stack.popLast() {
            for edge in successors[node] where following(edge.kind) && !seen.contains(edge.to) && !avoiding(nodes[edge.to]) {
                seen.insert(edge.to)
                stack.append(edge.to)
            }
        }
        return seen
    }

    /// "Is there a path from `start` to `target` on which no node between them satisfies `avoiding`?"
    /// (an `await` to a write with no cancellation check on the way). `target` itself is not tested.
    public func hasPath(from start: Int, to target: Int, avoiding: (Node) -> Bool = { _ in false }) -> Bool {
        if start == target { return successors[start].contains { $0.to == start } || hasCycle(through: start, avoiding: avoiding) }
        return reachable(from: start, avoiding: { $0.id != target && avoiding($0) }).contains(target)
    }

    private func hasCycle(through node: Int, avoiding: (Node) -> Bool) -> Bool {
        successors[node].contains { edge in
            !avoiding(nodes[edge.to]) && reachable(from: edge.to, avoiding: { $0.id != node && avoiding($0) }).contains(node)
        }
    }

    /// The exits (`exit`, `errorExit`) some path from `start` reaches without passing a node that satisfies
    /// `passes`: empty when "on every path from `start` to an exit of the body, including errors that leave
    /// it and cancellation, such a node is passed" (a flag reset, run directly or by a `defer`).
    public func exitsAvoiding(from start: Int, _ passes: (Node) -> Bool) -> Set<Int> {
        reachable(from: start, avoiding: passes).intersection(exits)
    }

    /// "On every path from `start` to an exit, is a node satisfying `passes` passed?"
    public func everyPathToExit(from start: Int, passes: (Node) -> Bool) -> Bool {
        exitsAvoiding(from: start, passes).isEmpty
    }

    /// Per node, the nodes on every path from the entry to it (itself included): a forward "must" problem.
    /// Nodes the entry cannot reach get every node (nothing contradicts it).
    public func dominators() -> [Set<Int>] {
        let all = Set(nodes.map(\.id))
        return Dataflow.solve(self, direction: .forward, confluence: .must, boundary: [], universe: all) { node, value in
            value.union([node.id])
        }.output
    }

    /// "Is `later` reachable only after `earlier`?": every path from the entry to `later` passes `earlier`.
    public func isReachableOnlyAfter(_ later: Int, _ earlier: Int) -> Bool {
        if later == earlier || earlier == entry { return true }
        return !reachable(from: entry, avoiding: { $0.id == earlier }).contains(later)
    }

    /// Whether control can get from the entry to the node at all.
    public func isReachable(_ node: Int) -> Bool {
        reachable(from: entry).contains(node)
    }
}

/// Branches on one condition that cannot change between them (`if strategy == .refresh` twice on a parameter):
/// a path that takes the `then` side of one and the `else` side of another is not a real path. Each group holds
/// the branches on one condition, as UTF-8 offset ranges of their `then` and `else` code (a node lies on a side
/// when it starts inside it).
public struct CorrelatedBranches: Sendable, Hashable {
    public struct Branch: Sendable, Hashable {
        /// The condition's own code: an edge out of it into anything but `then` takes the `else` side (an `if`
        /// without `else` goes straight to the code after it).
        public let condition: Range<Int>
        public let then: Range<Int>
        public let otherwise: Range<Int>?
        public init(condition: Range<Int>, then: Range<Int>, otherwise: Range<Int>?) {
            self.condition = condition
            self.then = then
            self.otherwise = otherwise
        }

        /// The side an edge from `previous` (nil at a start) to `node` takes: 0 neither, 1 `then`, 2 `else`.
        func side(entering node: ControlFlowGraph.Node, from previous: ControlFlowGraph.Node?) -> Int8 {
            if then.contains(node.start) { return 1 }
            if otherwise?.contains(node.start) == true { return 2 }
            if let previous, condition.contains(previous.start), !condition.contains(node.start) { return 2 }
            return 0
        }
    }

    public let groups: [[Branch]]

    public init(groups: [[Branch]]) { self.groups = groups }

    /// A node, and which side of each group the path to it took (0 none yet, 1 `then`, 2 `else`).
    public struct State: Sendable, Hashable {
        public let node: Int
        public let sides: [Int8]
        public init(node: Int, sides: [Int8]) {
            self.node = node
            self.sides = sides
        }
    }

    /// The sides after entering `node`, or nil when that contradicts the side already taken.
    public func enter(_ node: ControlFlowGraph.Node, from previous: ControlFlowGraph.Node?, with sides: [Int8]) -> [Int8]? {
        var next = sides
        for (index, group) in groups.enumerated() {
            for branch in group {
                let side = branch.side(entering: node, from: previous)
                guard side != 0 else { continue }
                if next[index] != 0, next[index] != side { return nil }
                next[index] = side
            }
        }
        return next
    }

    public func start(at node: ControlFlowGraph.Node) -> State {
        State(node: node.id, sides: enter(node, from: nil, with: Array(repeating: 0, count: groups.count)) ?? Array(repeating: 0, count: groups.count))
    }
}

extension ControlFlowGraph {
    /// `reachable(from:avoiding:following:)` on the paths that take the same side of every branch of a correlated
    /// group: the states (node and sides taken) control can reach from `starts`.
    public func reachable(from starts: [CorrelatedBranches.State], consistentWith branches: CorrelatedBranches,
                          avoiding: (Node) -> Bool = { _ in false },
                          following: (EdgeKind) -> Bool = { _ in true }) -> Set<CorrelatedBranches.State> {
        var seen = Set(starts)
        var stack = starts
        while let state = stack.popLast() {
            for edge in successors[state.node] where following(edge.kind) && !avoiding(nodes[edge.to]) {
                guard let sides = branches.enter(nodes[edge.to], from: nodes[state.node], with: state.sides) else { continue }
                let next = CorrelatedBranches.State(node: edge.to, sides: sides)
                if seen.insert(next).inserted { stack.append(next) }
            }
        }
        return seen
    }
}
