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
