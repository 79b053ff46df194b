import SwiftSyntax

/// Which `#if` clauses a node stands in. Statements in different clauses of one `#if` never run together
/// (`#if os(iOS) ... #else ... #endif`), so a flow rule must not pair them.
public enum IfConfigFacts {
    /// The clauses enclosing `node`, outermost first.
    public static func clauses(of node: Syntax, file: String) -> [IfConfigClause] {
        var result: [IfConfigClause] = []
        var current = node.parent
        while let ancestor = current {
            if let clause = ancestor.as(IfConfigClauseSyntax.self), let list = clause.parent?.as(IfConfigClauseListSyntax.self), let decl = list.parent?.as(IfConfigDeclSyntax.self) {
                let index = list.firstIndex { $0.id == clause.id }.map { list.distance(from: list.startIndex, to: $0) } ?? 0
                result.insert(IfConfigClause(file: file, offset: decl.position.utf8Offset, clause: index), at: 0)
            }
            current = ancestor.parent
        }
        return result
    }

    /// Whether two facts sit in different clauses of the same `#if`, so they never both run.
    public static func areExclusive(_ first: [IfConfigClause], _ second: [IfConfigClause]) -> Bool {
        for a in first {
            for b in second where a.file == b.file && a.offset == b.offset && a.clause != b.clause { return true }
        }
        return false
    }
}
