import Testing
@testable import SyncLintKit

/// The path questions rules ask, and the dataflow solver under them, on small sources.
struct PathQuestionTests {
    private static func isCheck(_ node: ControlFlowGraph.Node) -> Bool { node.kind == .cancellationCheck }

    @Test func anAwaitReachesAWriteWithNoCheckOnlyWhenNoPathPassesOne() {
        let probe = FlowProbe("""
            func f() async {
                let found = await api.search()
                if mode == .quick {
                    guard !Task.isCancelled else { return }
                    results = found
                } else {
                    guard !Task.isCancelled else { return }
                    archive = found
                }
            }
            """)
        let g = probe.graph
        let suspension = probe.one(.await, "await api.search()")
        #expect(!g.hasPath(from: suspension, to: probe.write("results = found"), avoiding: Self.isCheck(_:)))
        #expect(!g.hasPath(from: suspension, to: probe.write("archive = found"), avoiding: Self.isCheck(_:)))
        let other = FlowProbe("""
            func f() async {
                let found = await api.search()
                if flag { guard !Task.isCancelled else { return } }
                latest = found
            }
            """)
        #expect(other.graph.hasPath(from: other.one(.await, "await api.search()"), to: other.write("latest = found"), avoiding: Self.isCheck(_:)),
                "a check in an if that may not run protects nothing")
    }

    @Test func everyPathToAnExitCountsErrorsThatLeaveButNotThoseCaught() {
        let caught = FlowProbe("""
            func f() async {
                isLoading = true
                do {
                    try await load()
                    if items.isEmpty { throw LoadError.empty }
                } catch {
                    message = "failed"
                }
                isLoading = false
            }
            """)
        #expect(caught.graph.everyPathToExit(from: caught.write("isLoading = true"), passes: FlowProbe.writes("isLoading")))
        let leaks = FlowProbe("""
            func f() async throws {
                isLoading = true
                try await load()
                isLoading = false
            }
            """)
        let exits = leaks.graph.exitsAvoiding(from: leaks.write("isLoading = true"), FlowProbe.writes("isLoading"))
        #expect(exits == [leaks.graph.errorExit], "only the error leaves it set")
        let cancelled = FlowProbe("""
            func f() async throws {
                isLoading = true
                try Task.checkCancellation()
                isLoading = false
            }
            """)
        let start = cancelled.write("isLoading = true")
        #expect(!cancelled.graph.everyPathToExit(from: start, passes: FlowProbe.writes("isLoading")), "cancellation is an exit too")
        #expect(cancelled.graph.reachable(from: start, avoiding: FlowProbe.writes("isLoading"), following: { $0 != .cancellation })
            .isDisjoint(with: cancelled.graph.exits), "and the only one skipping the reset")
    }

    @Test func reachableOnlyAfterIsDominance() {
        let probe = FlowProbe("""
            func f() {
                a = 1
                if c { b = 2 } else { b = 3 }
                d = 4
            }
            """)
        let g = probe.graph
        let dominators = g.dominators()
        let d = probe.write("d = 4")
        #expect(g.isReachableOnlyAfter(d, probe.write("a = 1")))
        #expect(!g.isReachableOnlyAfter(d, probe.write("b = 2")))
        #expect(dominators[d].contains(probe.write("a = 1")))
        #expect(!dominators[d].contains(probe.write("b = 2")))
        // The two answers agree on every pair of reachable nodes.
        let reachable = g.reachable(from: g.entry)
        for later in reachable {
            for earlier in reachable {
                #expect(dominators[later].contains(earlier) == g.isReachableOnlyAfter(later, earlier))
            }
        }
    }

    @Test func theSolverRunsForwardAndBackwardMayAndMust() {
        let probe = FlowProbe("""
            func f() async {
                if c { a = 1 } else { b = 2 }
                d = 3
                await save()
            }
            """)
        let g = probe.graph
        let d = probe.write("d = 3")
        // Forward: which writes happened before, on some path (may) and on every path (must).
        let labels = Set(g.nodes.compactMap { $0.kind == .write ? $0.label : nil })
        func written(_ node: ControlFlowGraph.Node, _ value: Set<String>) -> Set<String> {
            node.kind == .write ? value.union([node.label ?? ""]) : value
        }
        let may = Dataflow.solve(g, direction: .forward, confluence: .may, boundary: [], transfer: written)
        let must = Dataflow.solve(g, direction: .forward, confluence: .must, boundary: [], universe: labels, transfer: written)
        #expect(may.input[d] == ["a", "b"])
        #expect(must.input[d] == [])
        #expect(must.output[d] == ["d"])
        // Backward: is an `await` still ahead, on some path?
        let awaitAhead = Dataflow.solve(g, direction: .backward, confluence: .may, boundary: Set<Bool>()) { node, value in
            node.kind == .await ? [true] : value
        }
        #expect(awaitAhead.input[d] == [true])
        #expect(awaitAhead.output[probe.one(.await, "await save()")] == [true])
        #expect(awaitAhead.input[g.exit] == [])
    }

    @Test func unreachableNodesKeepTheNeutralValue() {
        let probe = FlowProbe("""
            func f() {
                return;
                a = 1
            }
            """)
        let must = Dataflow.solve(probe.graph, direction: .forward, confluence: .must, boundary: [], universe: ["x"]) { _, value in value }
        #expect(must.input[probe.write("a = 1")] == ["x"])
        #expect(must.input[probe.graph.exit] == [])
    }
}
