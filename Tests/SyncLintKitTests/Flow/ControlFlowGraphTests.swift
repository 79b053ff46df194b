import Foundation
import SwiftParser
import SwiftSyntax
import Testing
@testable import SyncLintKit

/// Each construct the builder knows, on small sources: which node can follow which.
struct ControlFlowGraphTests {
    @Test func ifAndElseAreAlternatives() {
        let probe = FlowProbe("""
            func f() {
                if c { a = 1 } else if d { b = 2 } else { e = 3 }
                g = 4
            }
            """)
        let g = probe.graph
        #expect(!g.hasPath(from: probe.write("a = 1"), to: probe.write("b = 2")))
        #expect(!g.hasPath(from: probe.write("b = 2"), to: probe.write("e = 3")))
        for branch in ["a = 1", "b = 2", "e = 3"] {
            #expect(g.hasPath(from: probe.write(branch), to: probe.write("g = 4")))
            #expect(!g.isReachableOnlyAfter(probe.write("g = 4"), probe.write(branch)))
        }
    }

    @Test func aTernaryStatementsArmsAreAlternatives() {
        let probe = FlowProbe("""
            func f() {
                state == .done ? spinner.stopAnimating() : spinner.startAnimating()
                x = c ? first() : second()
                g = 4
            }
            """)
        let g = probe.graph
        let stop = probe.one(.call, "spinner.stopAnimating()")
        let start = probe.one(.call, "spinner.startAnimating()")
        #expect(!g.hasPath(from: stop, to: start))
        #expect(!g.hasPath(from: start, to: stop))
        #expect(g.hasPath(from: start, to: probe.write("g = 4")) && g.hasPath(from: stop, to: probe.write("g = 4")))
        // Inside an assignment the ternary keeps the source order (both arms are nodes on one path).
        #expect(g.hasPath(from: probe.one(.call, "first()"), to: probe.one(.call, "second()")))
    }

    @Test func codeAfterAGuardIsReachedOnlyThroughItsConditions() {
        let probe = FlowProbe("""
            func f() async {
                guard let x else {
                    await cleanUp()
                    return
                }
                a = x
            }
            """)
        let g = probe.graph
        let suspension = probe.one(.await, "await cleanUp()")
        #expect(!g.hasPath(from: suspension, to: probe.write("a = x")), "the else leaves: its await is not before the write")
        #expect(g.hasPath(from: suspension, to: g.exit))
        #expect(g.isReachableOnlyAfter(probe.write("a = x"), probe.one(.condition, "let x")))
    }

    @Test func switchCasesAreAlternativesAndFallthroughGoesToTheNextBody() {
        let probe = FlowProbe("""
            func f() {
                switch value {
                case 1:
                    a = 1
                    fallthrough
                case 2:
                    b = 2
                case 3:
                    c = 3
                    break
                default:
                    d = 4
                }
                e = 5
            }
            """)
        let g = probe.graph
        #expect(g.hasPath(from: probe.write("a = 1"), to: probe.write("b = 2")), "fallthrough")
        #expect(!g.hasPath(from: probe.write("b = 2"), to: probe.write("c = 3")))
        #expect(!g.hasPath(from: probe.write("c = 3"), to: probe.write("d = 4")))
        #expect(g.hasPath(from: probe.write("c = 3"), to: probe.write("e = 5")), "break leaves the switch")
        #expect(!g.isReachableOnlyAfter(probe.write("b = 2"), probe.write("a = 1")), "case 2 is also entered directly")
    }

    @Test func loopsGoRoundAndRepeatRunsItsBodyFirst() {
        let probe = FlowProbe("""
            func f() {
                for item in items { a = item }
                while c { b = 2 }
                repeat { d = 3 } while c
                e = 4
            }
            """)
        let g = probe.graph
        #expect(g.hasPath(from: probe.write("a = item"), to: probe.write("a = item")), "the back edge")
        #expect(!g.isReachableOnlyAfter(probe.write("e = 4"), probe.write("a = item")), "a loop may run zero times")
        #expect(!g.isReachableOnlyAfter(probe.write("e = 4"), probe.write("b = 2")))
        #expect(g.isReachableOnlyAfter(probe.write("e = 4"), probe.write("d = 3")), "repeat runs its body at least once")
        #expect(g.hasPath(from: probe.write("d = 3"), to: probe.write("d = 3")))
    }

    @Test func labelledBreakAndContinueLeaveTheNamedLoop() {
        let probe = FlowProbe("""
            func f() {
                outer: for row in rows {
                    for cell in row {
                        if cell.isEmpty { break outer }
                        if cell.isHidden { continue outer }
                        if cell.isLast { break }
                        a = cell
                    }
                    b = row
                }
                c = 3
            }
            """)
        let g = probe.graph
        let breakOuter = probe.one(.statement, "break outer")
        let continueOuter = probe.one(.statement, "continue outer")
        let plainBreak = probe.one(.statement, "break")
        let b = probe.write("b = row")
        #expect(g.hasPath(from: breakOuter, to: probe.write("c = 3"), avoiding: FlowProbe.writes("b")), "straight out of both loops")
        #expect(!g.hasPath(from: breakOuter, to: b))
        #expect(g.hasPath(from: plainBreak, to: b), "an unlabelled break leaves only the inner loop")
        #expect(g.successors[continueOuter].map(\.to) == [probe.all(.join, "for")[0]], "continue outer skips the rest of the row")
        #expect(g.hasPath(from: continueOuter, to: probe.write("a = cell")), "the next row's cells")
    }

    @Test func guardInsideALoopContinuesWithTheNextIteration() {
        let probe = FlowProbe("""
            func f() {
                for item in items {
                    guard item.isValid else { continue }
                    a = item
                }
                b = 2
            }
            """)
        let g = probe.graph
        let skip = probe.one(.statement, "continue")
        #expect(g.hasPath(from: skip, to: probe.write("b = 2")))
        #expect(g.hasPath(from: skip, to: probe.write("a = item")), "only through the next iteration")
        #expect(g.isReachableOnlyAfter(probe.write("a = item"), probe.one(.condition, "item.isValid")))
    }

    @Test func returnEndsThePathAndLeavesThroughTheExit() {
        let probe = FlowProbe("""
            func f() {
                if c { return }
                a = 1
                return;
                b = 2
            }
            """)
        let g = probe.graph
        #expect(g.hasPath(from: probe.all(.returnStatement, "return")[0], to: g.exit))
        #expect(!g.hasPath(from: probe.all(.returnStatement, "return")[0], to: probe.write("a = 1")))
        #expect(!g.isReachable(probe.write("b = 2")), "code after a return")
    }

    @Test func aThrowCaughtInTheSameFunctionDoesNotLeaveIt() {
        let probe = FlowProbe("""
            func f() throws {
                do {
                    throw LoadError.missing
                } catch {
                    a = 1
                }
                b = 2
            }
            """)
        let g = probe.graph
        let thrown = probe.one(.throwStatement, "throw LoadError.missing")
        #expect(g.hasPath(from: thrown, to: probe.write("a = 1")))
        #expect(!g.hasPath(from: thrown, to: g.errorExit), "the catch-all takes it")
        #expect(g.successors[thrown].allSatisfy { $0.kind == .throwToCatch })
        #expect(!g.isReachable(g.errorExit))
    }

    @Test func aPatternCatchMayBePassedOverAndTryQuestionReachesNoCatch() {
        let probe = FlowProbe("""
            func f() async throws {
                do {
                    try? await first()
                    try await second()
                } catch is CancellationError {
                    a = 1
                }
            }
            """)
        let g = probe.graph
        let second = probe.one(.tryPoint, "try await second()")
        #expect(g.hasPath(from: second, to: probe.write("a = 1")))
        #expect(g.successors[second].contains { $0.to == g.errorExit && $0.kind == .throwOut }, "CancellationError is not every error")
        #expect(probe.all(.tryPoint, "try? await first()").isEmpty, "try? throws nowhere")
    }

    @Test func forTryAwaitThrowsFromEachStepToTheCatch() {
        let probe = FlowProbe("""
            func f() async {
                do {
                    for try await line in url.lines { a = line }
                } catch {
                    b = 2
                }
                for await tick in ticks { c = tick }
            }
            """)
        let g = probe.graph
        let step = probe.one(.tryPoint, "try")
        #expect(g.predecessors[step].contains { g.nodes[$0.from].kind == .await }, "the step's error comes after its suspension")
        #expect(g.successors[step].contains { $0.kind == .throwToCatch }, "a failing step goes to the catch")
        #expect(g.hasPath(from: step, to: probe.write("b = 2")))
        #expect(probe.all(.tryPoint, "try").count == 1, "`for await` without `try` throws nothing")
    }

    @Test func nestedDoCatchTriesTheInnerClausesFirst() {
        let probe = FlowProbe("""
            func f() throws {
                do {
                    do {
                        try load()
                    } catch let error as DecodingError {
                        a = error
                    }
                    do {
                        try save()
                    } catch {
                        b = 2
                    }
                } catch {
                    c = 3
                }
            }
            """)
        let g = probe.graph
        let load = probe.one(.tryPoint, "try load()")
        let save = probe.one(.tryPoint, "try save()")
        #expect(g.hasPath(from: load, to: probe.write("a = error")))
        #expect(g.hasPath(from: load, to: probe.write("c = 3")), "past the typed clause, to the outer one")
        #expect(g.successors[load].filter { $0.kind == .throwToCatch }.count == 2)
        #expect(g.successors[save].filter { $0.kind == .throwToCatch }.count == 1, "the inner catch-all ends the search")
        #expect(g.hasPath(from: save, to: probe.write("b = 2")))
        #expect(!g.isReachable(g.errorExit))
    }

    @Test func defersRunOnEveryExitLatestFirst() {
        let probe = FlowProbe("""
            func f() throws {
                defer { a = 1 }
                defer { b = 2 }
                if c { return }
                try load()
                d = 4
            }
            """)
        let g = probe.graph
        let aCopies = probe.all(.write, "a = 1")
        let bCopies = probe.all(.write, "b = 2")
        #expect(aCopies.count == 3 && bCopies.count == 3, "return, the error and the end each run both")
        #expect(g.everyPathToExit(from: g.entry, passes: FlowProbe.writes("a")))
        #expect(g.everyPathToExit(from: g.entry, passes: FlowProbe.writes("b")))
        for (b, a) in zip(bCopies, aCopies) {
            #expect(g.hasPath(from: b, to: a) && !g.hasPath(from: a, to: b), "the later defer runs first")
        }
        let load = probe.one(.tryPoint, "try load()")
        #expect(g.hasPath(from: load, to: g.errorExit))
        #expect(!g.successors[load].contains { $0.to == g.errorExit }, "the error runs the defers first")
        #expect(!g.everyPathToExit(from: g.entry, passes: FlowProbe.writes("d")))
    }

    @Test func aDeferRegisteredAfterAnExitDoesNotRunOnIt() {
        let probe = FlowProbe("""
            func f() {
                guard c else { return }
                defer { a = 1 }
                b = 2
            }
            """)
        let g = probe.graph
        #expect(probe.all(.write, "a = 1").count == 1)
        #expect(!g.everyPathToExit(from: g.entry, passes: FlowProbe.writes("a")))
        #expect(g.everyPathToExit(from: probe.write("b = 2"), passes: FlowProbe.writes("a")))
    }

    @Test func ifConfigClausesAreAlternatives() {
        let probe = FlowProbe("""
            func f() {
                #if os(iOS)
                a = 1
                #elseif os(macOS)
                b = 2
                #else
                c = 3
                #endif
                #if DEBUG
                d = 4
                #endif
                e = 5
            }
            """)
        let g = probe.graph
        #expect(!g.hasPath(from: probe.write("a = 1"), to: probe.write("b = 2")))
        #expect(!g.hasPath(from: probe.write("b = 2"), to: probe.write("c = 3")))
        #expect(!g.isReachableOnlyAfter(probe.write("e = 5"), probe.write("d = 4")), "without #else none may hold")
        #expect(g.hasPath(from: probe.write("c = 3"), to: probe.write("d = 4")))
    }

    @Test func suspensionPointsAreNodesAfterWhatTheyWaitFor() {
        let probe = FlowProbe("""
            func f() async {
                async let page = loader.page()
                results = await page
                for await update in updates { a = update }
            }
            """)
        let g = probe.graph
        let read = probe.one(.await, "await page")
        #expect(g.hasPath(from: read, to: probe.write("results = await page")), "the write happens when the value is back")
        #expect(probe.one(.statement, "async let page = loader.page()") >= 0)
        #expect(probe.all(.await, "for").count == 1, "for await suspends at each element")
        #expect(g.hasPath(from: probe.all(.await, "for")[0], to: probe.write("a = update")))
    }

    @Test func aClosureIsOneNodeAndHasItsOwnGraph() {
        let source = """
            func f() {
                Task { a = await load() }
                b = 2
            }
            """
        let probe = FlowProbe(source)
        #expect(probe.all(.write, "a = await load()").isEmpty)
        #expect(probe.all(.closure, "{ a = await load() }").count == 1)
        #expect(probe.all(.call, "Task { a = await load() }").count == 1)
        let tree = Parser.parse(source: source)
        let closure = tree.tokens(viewMode: .sourceAccurate).compactMap { $0.parent?.as(ClosureExprSyntax.self) }.first
        let inner = closure.flatMap { ControlFlowGraphBuilder.build(of: $0) }
        #expect(inner?.graph.nodes(ofKind: .write).count == 1)
        #expect(inner?.graph.nodes(ofKind: .await).count == 1)
    }

    @Test func aThrowingCancellationCheckLeavesAlongCancellationEdges() {
        let probe = FlowProbe("""
            func f() async throws {
                try Task.checkCancellation()
                if Task.isCancelled { return }
                a = 1
            }
            """)
        let g = probe.graph
        let check = probe.one(.tryPoint, "try Task.checkCancellation()")
        #expect(g.successors[check].contains { $0.to == g.errorExit && $0.kind == .cancellation })
        #expect(probe.all(.cancellationCheck, "Task.isCancelled").count == 1)
        #expect(probe.all(.cancellationCheck, "Task.checkCancellation()").count == 1)
    }

    @Test func aGraphSurvivesJSON() throws {
        let probe = FlowProbe("""
            func f() throws {
                defer { a = 1 }
                do { try load() } catch is CancellationError { return }
            }
            """)
        let data = try JSONEncoder().encode(probe.graph)
        let decoded = try JSONDecoder().decode(ControlFlowGraph.self, from: data)
        #expect(decoded == probe.graph)
        #expect(decoded.successors == probe.graph.successors)
    }
}
