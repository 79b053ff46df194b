import SwiftParser
import SwiftSyntax
@testable import SyncLintKit
@testable import SyncLintSyntax

/// Walks sources exactly as the pipeline does (index collectors, scope stack) and lets a test look at
/// chosen nodes during the walk, then builds the project index from the files' facts.
enum Probe {
    static func index(_ files: [String: String], visit: @escaping (Syntax, FileContext) -> Void = { _, _ in }) -> ProjectIndex {
        var facts: [FileFacts] = []
        for path in files.keys.sorted() {
            let text = files[path] ?? ""
            let tree = Parser.parse(source: text)
            let context = FileContext(path: path, text: text, tree: tree)
            let probe = ProbeRule(options: RuleOptions())
            probe.visit = visit
            FileWalker(context: context, collectors: IndexCollectors.make(), rules: [probe]).walk(tree)
            facts.append(context.facts)
        }
        return ProjectIndex(files: facts)
    }

    static func index(_ source: String, visit: @escaping (Syntax, FileContext) -> Void = { _, _ in }) -> ProjectIndex {
        index(["/virtual/Probe.swift": source], visit: visit)
    }
}

/// A rule that only hands nodes to a test's closure.
final class ProbeRule: SyntaxRule {
    static let description = RuleDescription(
        id: "probe", name: "Probe", whatItDoes: "Test probe.", whyIsThisBad: "", seed: "",
        triggeringExamples: [], nonTriggeringExamples: [])
    static let nodeKinds: Set<SyntaxKind> = [.declReferenceExpr, .doStmt, .functionCallExpr, .memberAccessExpr]
    var visit: (Syntax, FileContext) -> Void = { _, _ in }

    init(options: RuleOptions) {}

    func enter(_ node: Syntax, context: FileContext) { visit(node, context) }
}
