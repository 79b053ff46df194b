import SwiftSyntax

/// Records code that never runs (`if false { }`, `#if false`), the types only Swift code can build, and the type names
/// the file refers to (see `DeadCodeFacts`).
final class DeadCodeCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [
        .ifExpr, .ifConfigDecl, .declReferenceExpr, .identifierType, .memberType, .structDecl, .enumDecl, .classDecl, .actorDecl,
    ]
    static let entryPointAttributes: Set<String> = ["main", "UIApplicationMain", "NSApplicationMain"]

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        switch node.kind {
        case .declReferenceExpr:
            if let reference = node.as(DeclReferenceExprSyntax.self) { recordReference(reference.baseName.text, at: node, context: context) }
        case .identifierType:
            if let type = node.as(IdentifierTypeSyntax.self) { recordReference(type.name.text, at: node, context: context) }
        case .memberType:
            if let type = node.as(MemberTypeSyntax.self) { recordReference(type.name.text, at: node, context: context) }
        case .ifExpr:
            // `if false { ... }`: the body never runs (its `else`, if any, always does).
            guard let ifExpression = node.as(IfExprSyntax.self), ifExpression.conditions.count == 1,
                  case .expression(let condition) = ifExpression.conditions.first?.condition,
                  Self.isFalseLiteral(condition) else { return }
            context.facts.deadCode.unreachableLines.append(lines(of: ifExpression.body, context: context))
        case .ifConfigDecl:
            guard let ifConfig = node.as(IfConfigDeclSyntax.self) else { return }
            for clause in ifConfig.clauses where clause.poundKeyword.tokenKind != .poundElse {
                guard let condition = clause.condition, Self.isFalseLiteral(condition) || condition.as(IntegerLiteralExprSyntax.self)?.literal.text == "0",
                      let elements = clause.elements else { continue }
                context.facts.deadCode.unreachableLines.append(lines(of: elements, context: context))
            }
        default:
            recordType(node, context: context)
        }
    }

    private func recordType(_ node: Syntax, context: FileContext) {
        guard let declaration = node.asProtocol(DeclGroupSyntax.self) else { return }
        let attributes = SyntaxFacts.attributes(declaration.attributes).map(\.name)
        if attributes.contains(where: Self.entryPointAttributes.contains) { context.facts.deadCode.hasEntryPoint = true }
        // Structs and enums only: a class may be built by name from a storyboard or by the Objective-C runtime.
        let name: TokenSyntax
        if let type = node.as(StructDeclSyntax.self) { name = type.name } else if let type = node.as(EnumDeclSyntax.self) { name = type.name } else { return }
        guard attributes.isEmpty,
              !declaration.modifiers.contains(where: { ["public", "open", "package"].contains($0.name.text) }),
              (declaration.inheritanceClause?.inheritedTypes ?? []).allSatisfy({ $0.type.trimmedDescription == "View" })
        else { return }
        context.facts.deadCode.unbuiltCandidates.append(TypeExtent(name: name.text, lines: lines(of: node, context: context)))
    }

    /// A use of a type's name, unless it stands inside a declaration or extension of a type of that name (a type
    /// that only builds itself is still never built).
    private func recordReference(_ name: String, at node: Syntax, context: FileContext) {
        guard Self.startsUppercase(name), !context.facts.deadCode.referencedTypeNames.contains(name) else { return }
        // The walker's scope stack holds the enclosing type declarations and extensions (by simple name): reading it
        // costs nothing, where climbing the node's ancestors (and spelling each extension's type) took about a twentieth
        // of a whole run's CPU.
        for frame in context.scope.frames {
            if case .type(let type) = frame, type.kind != .protocol, type.name == name { return }
        }
        context.facts.deadCode.referencedTypeNames.insert(name)
    }

    /// Whether a name starts with an uppercase letter, deciding ASCII without Unicode tables (nearly every name).
    static func startsUppercase(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return false }
        if first < 0x80 { return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") }
        return name.first?.isUppercase == true
    }

    static func isFalseLiteral(_ expression: ExprSyntax) -> Bool {
        expression.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.false)
    }

    private func lines(of node: some SyntaxProtocol, context: FileContext) -> ClosedRange<Int> {
        let start = context.location(of: node).line
        return start...max(start, context.location(at: node.endPositionBeforeTrailingTrivia).line)
    }
}
