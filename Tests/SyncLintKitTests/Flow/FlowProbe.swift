import Foundation
import SwiftParser
import SwiftSyntax
@testable import SyncLintKit

/// The graph of one function of a small source, with lookups by what the nodes stand for.
struct FlowProbe {
    let built: BuiltControlFlowGraph
    let source: String
    var graph: ControlFlowGraph { built.graph }

    /// The graph of the function named `function` (the first function when nil).
    init(_ source: String, function: String? = nil) {
        self.source = source
        let tree = Parser.parse(source: source)
        let declaration = tree.tokens(viewMode: .sourceAccurate).lazy.compactMap { token -> FunctionDeclSyntax? in
            guard let declaration = token.parent?.as(FunctionDeclSyntax.self), declaration.funcKeyword.id == token.id else { return nil }
            return function == nil || declaration.name.text == function ? declaration : nil
        }.first
        guard let declaration, let built = ControlFlowGraphBuilder.build(of: declaration) else {
            fatalError("no function \(function ?? "") in the probe's source")
        }
        self.built = built
    }

    /// The source a node stands for.
    func text(_ node: Int) -> String {
        let bytes = Array(source.utf8)
        let item = graph.nodes[node]
        return String(decoding: bytes[item.start..<item.end], as: UTF8.self)
    }

    /// Every node of a kind whose source text is `text`, in source order (a `defer`'s copies included).
    func all(_ kind: ControlFlowGraph.NodeKind, _ text: String) -> [Int] {
        graph.nodes(ofKind: kind).map(\.id).filter { self.text($0) == text }
    }

    /// The one node of a kind whose source text is `text`.
    func one(_ kind: ControlFlowGraph.NodeKind, _ text: String) -> Int {
        let found = all(kind, text)
        precondition(found.count == 1, "expected one \(kind) `\(text)`, found \(found.count)")
        return found[0]
    }

    func write(_ text: String) -> Int { one(.write, text) }

    /// Whether `node` is a write with this target.
    static func writes(_ target: String) -> (ControlFlowGraph.Node) -> Bool {
        { $0.kind == .write && $0.label == target }
    }
}
