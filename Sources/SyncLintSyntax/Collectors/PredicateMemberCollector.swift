import SwiftSyntax

/// Records each member of a `#Predicate` closure's parameter that the predicate reads (`$0.title`,
/// `book.author`), the first component of the key path: the model property SwiftData must find in the model's
/// metadata. Nested closures (`$0.tags.contains { $0.name == x }`) read another type's members and are skipped.
final class PredicateMemberCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [.macroExpansionExpr]

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        guard let (_, closure, model) = PredicateFacts.predicate(node) else { return }
        let parameter = PredicateFacts.parameterName(of: closure)
        var stack = closure.statements.map { Syntax($0) }
        while let next = stack.popLast() {
            if next.is(ClosureExprSyntax.self) { continue }
            if let member = next.as(MemberAccessExprSyntax.self),
               member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == parameter {
                context.facts.predicateMembers.append(PredicateMemberFact(modelName: model, property: member.declName.baseName.text,
                                                                          location: context.location(of: member.declName)))
            }
            stack += next.children(viewMode: .sourceAccurate)
        }
    }
}
