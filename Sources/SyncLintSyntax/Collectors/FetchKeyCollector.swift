import SwiftSyntax

/// Records the properties that `#Predicate` closures compare for equality with a value that is not a
/// literal (a lookup, not a filter such as `$0.isArchived == false`). The model comes from the macro's
/// generic argument, or from the `FetchDescriptor<Model>` or `Predicate<Model>` it is written for.
final class FetchKeyCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [.macroExpansionExpr]

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        guard let (_, closure, model) = PredicateFacts.predicate(node) else { return }
        let parameter = PredicateFacts.parameterName(of: closure)
        for sequence in closure.statements.flatMap({ Self.sequences(in: Syntax($0)) }) {
            let elements = Array(sequence.elements)
            var found: [MemberAccessExprSyntax] = []
            for (position, element) in elements.enumerated() where element.as(BinaryOperatorExprSyntax.self)?.operator.text == "==" {
                guard position > 0, position + 1 < elements.count else { continue }
                for (side, other) in [(elements[position - 1], elements[position + 1]), (elements[position + 1], elements[position - 1])] {
                    guard let member = side.as(MemberAccessExprSyntax.self),
                          member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == parameter,
                          !Self.isLiteral(other) else { continue }
                    found.append(member)
                }
            }
            // Comparisons joined only by `&&` look up one record by all of them together (a compound key); with an
            // `||` each is a lookup of its own.
            let isConjunction = !elements.contains { $0.as(BinaryOperatorExprSyntax.self)?.operator.text == "||" }
            let names = found.map { $0.declName.baseName.text }
            for member in found {
                let name = member.declName.baseName.text
                context.facts.fetchKeys.append(FetchKey(modelName: model, property: name, location: context.location(of: member),
                                                        lookedUpWith: isConjunction ? Array(Set(names).subtracting([name])).sorted() : []))
            }
        }
    }

    static func sequences(in node: Syntax) -> [SequenceExprSyntax] {
        var found: [SequenceExprSyntax] = []
        var stack = [node]
        while let next = stack.popLast() {
            if let sequence = next.as(SequenceExprSyntax.self) { found.append(sequence) }
            if next.is(ClosureExprSyntax.self) { continue }  // a nested closure is another predicate's business
            stack += next.children(viewMode: .sourceAccurate)
        }
        return found
    }

    /// A literal, or an implicit member such as `.pinned`: a filter value, not a key being looked up.
    static func isLiteral(_ expression: ExprSyntax) -> Bool {
        if let member = expression.as(MemberAccessExprSyntax.self) { return member.base == nil }
        return expression.is(BooleanLiteralExprSyntax.self) || expression.is(NilLiteralExprSyntax.self)
            || expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
            || expression.is(StringLiteralExprSyntax.self)
    }
}
