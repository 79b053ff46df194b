import Foundation
import SwiftParser
import SwiftSyntax
import Testing

/// No trap is reachable from user input unless a comment says why it cannot happen: every `try!`,
/// `as!`, force unwrap, `fatalError(` and `preconditionFailure(` in Sources/ needs `cannot fail:` and
/// a reason on its line or the line before. Found on the syntax tree, so the `try!` in rules' example
/// strings and in comments are not counted.
struct SourceHygieneTests {
    @Test func sourcesHaveNoUnexplainedTraps() throws {
        let sources = Repository.root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var scanned = 0
        var unexplained: [String] = []
        while let url = enumerator.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            scanned += 1
            let relative = url.path.replacingOccurrences(of: Repository.root.path + "/", with: "")
            unexplained += Self.unexplainedTraps(in: text).map { "\(relative):\($0.line): \($0.kind)" }
        }
        #expect(scanned > 50, "the scan found the sources")
        #expect(unexplained.isEmpty, "explain each with a `// cannot fail: why` comment or remove it:\n\(unexplained.joined(separator: "\n"))")
    }

    @Test func theScanFindsEveryKindOfTrapAndAcceptsAnExplainedOne() {
        let text = """
        let a = try! load()
        let b = value!.count
        let c = list[0]!
        let d = x as! Int + 1
        fatalError("no")
        let s = "try! in a string, value! in a string"
        // try! in a comment
        // cannot fail: the literal is a valid URL
        let u = URL(string: "https://example.com")!
        let v = y! // cannot fail: set in init
        let w = z != nil && !flag
        """
        let found = Self.unexplainedTraps(in: text)
        #expect(found.map(\.line) == [1, 2, 3, 4, 5], "\(found)")
        #expect(found.map(\.kind) == ["try!", "force unwrap", "force unwrap", "as!", "fatalError("])
    }

    struct Trap: CustomStringConvertible {
        let line: Int
        let kind: String
        var description: String { "\(line): \(kind)" }
    }

    static func unexplainedTraps(in text: String) -> [Trap] {
        let tree = Parser.parse(source: text)
        let finder = TrapFinder(converter: SourceLocationConverter(fileName: "", tree: tree))
        finder.walk(tree)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func explained(_ line: Int) -> Bool {
            [line - 1, line - 2].contains { $0 >= 0 && $0 < lines.count && lines[$0].contains("cannot fail:") }
        }
        return finder.traps.filter { !explained($0.line) }
    }
}

private final class TrapFinder: SyntaxVisitor {
    let converter: SourceLocationConverter
    var traps: [SourceHygieneTests.Trap] = []

    init(converter: SourceLocationConverter) {
        self.converter = converter
        super.init(viewMode: .sourceAccurate)
    }

    private func record(_ node: some SyntaxProtocol, _ kind: String) {
        traps.append(.init(line: node.startLocation(converter: converter).line, kind: kind))
    }

    override func visit(_ node: ForceUnwrapExprSyntax) -> SyntaxVisitorContinueKind {
        record(node.exclamationMark, "force unwrap")
        return .visitChildren
    }

    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark?.tokenKind == .exclamationMark { record(node, "try!") }
        return .visitChildren
    }

    override func visit(_ node: AsExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark?.tokenKind == .exclamationMark { record(node, "as!") }
        return .visitChildren
    }

    /// `a + b as! T`: inside an unfolded sequence the parser leaves the cast unresolved.
    override func visit(_ node: UnresolvedAsExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark?.tokenKind == .exclamationMark { record(node, "as!") }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let callee = node.calledExpression.as(DeclReferenceExprSyntax.self),
           ["fatalError", "preconditionFailure"].contains(callee.baseName.text) {
            record(node, callee.baseName.text + "(")
        }
        return .visitChildren
    }
}
