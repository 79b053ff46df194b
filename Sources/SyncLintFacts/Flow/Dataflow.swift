/// A small dataflow framework on a `ControlFlowGraph`: a worklist solver, forward or backward, that meets
/// values where paths join, by union ("may": on some path) or by intersection ("must": on every path).
public enum DataflowDirection: Sendable {
    /// Values flow from the entry along edges: "what holds when control reaches a node".
    case forward
    /// Values flow from the exits against edges: "what holds on the way from a node to an exit".
    case backward
}

public enum DataflowConfluence: Sendable {
    /// A fact holds at a join if it holds on some incoming path (union).
    case may
    /// A fact holds at a join only if it holds on every incoming path (intersection).
    case must
}

/// The solution of a problem: per node, the value before its transfer (`input`) and after it (`output`),
/// in the direction of the problem (for a backward problem, `input` is what holds after the node in
/// program order).
public struct DataflowSolution<Value: Sendable>: Sendable {
    public let input: [Value]
    public let output: [Value]
}

public enum Dataflow {
    /// Solves a problem over sets. `boundary` is the value at the entry (forward) or at both exits (backward).
    /// Nodes no path reaches from the boundary keep the neutral value of the confluence: the empty set for
    /// "may", `universe` for "must" (vacuously true: no path contradicts it).
    public static func solve<Element: Hashable & Sendable>(
        _ graph: ControlFlowGraph, direction: DataflowDirection, confluence: DataflowConfluence,
        boundary: Set<Element>, universe: Set<Element> = [],
        transfer: (ControlFlowGraph.Node, Set<Element>) -> Set<Element>
    ) -> DataflowSolution<Set<Element>> {
        let neutral = confluence == .may ? Set<Element>() : universe
        return solve(graph, direction: direction, boundary: boundary, neutral: neutral,
                     meet: { confluence == .may ? $0.union($1) : $0.intersection($1) }, transfer: transfer)
    }

    /// The general solver: any value with a meet. Iterates to a fixed point, so `transfer` and `meet` must be
    /// monotone on a lattice of finite height (sets of a finite universe are).
    public static func solve<Value: Equatable & Sendable>(
        _ graph: ControlFlowGraph, direction: DataflowDirection, boundary: Value, neutral: Value,
        meet: (Value, Value) -> Value, transfer: (ControlFlowGraph.Node, Value) -> Value
    ) -> DataflowSolution<Value> {
        let count = graph.nodes.count
        var input = Array(repeating: neutral, count: count)
        var output = Array(repeating: neutral, count: count)
        let starts: Set<Int> = direction == .forward ? [graph.entry] : graph.exits
        // Only predecessors already reached contribute: one no path reaches yet has no value to meet.
        var worklist = Array(starts)
        var queued = Set(worklist)
        for start in starts {
            input[start] = boundary
            output[start] = transfer(graph.nodes[start], boundary)
        }
        var reached = starts
        while let node = worklist.popLast() {
            queued.remove(node)
            let next = direction == .forward ? graph.successors[node].map(\.to) : graph.predecessors[node].map(\.from)
            for target in next where !starts.contains(target) {
                let incoming = direction == .forward ? graph.predecessors[target].map(\.from) : graph.successors[target].map(\.to)
                var value: Value?
                for source in incoming where reached.contains(source) {
                    value = value.map { meet($0, output[source]) } ?? output[source]
                }
                let newInput = value ?? neutral
                let newOutput = transfer(graph.nodes[target], newInput)
                let firstVisit = reached.insert(target).inserted
                if firstVisit || newInput != input[target] || newOutput != output[target] {
                    input[target] = newInput
                    output[target] = newOutput
                    if queued.insert(target).inserted { worklist.append(target) }
                }
            }
        }
        return DataflowSolution(input: input, output: output)
    }
}
