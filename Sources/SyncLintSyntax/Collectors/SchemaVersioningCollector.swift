import SwiftSyntax

/// Records the static members SwiftData reads from a `VersionedSchema` (`versionIdentifier`, `models`) and a
/// `SchemaMigrationPlan` (`schemas`), with the type that declares them. A list is recorded only when it is an
/// array literal of `Type.self` items (stored or returned by a getter): a list built at run time
/// (`V1.models + [Tag.self]`) is not known, so no rule reasons about it.
final class SchemaVersioningCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [.variableDecl]

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        guard let variable = node.as(VariableDeclSyntax.self),
              variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }),
              variable.bindings.count == 1, let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let member = SchemaMemberFact.Member(rawValue: name),
              let type = context.scope.currentType, context.scope.currentFunction == nil,
              let value = Self.valueExpression(of: binding) else { return }
        let values: [String]?
        switch member {
        case .versionIdentifier: values = Self.versionNumbers(value)
        case .models, .schemas: values = Self.typeList(value)
        }
        guard let values else { return }
        context.facts.schemaMembers.append(SchemaMemberFact(typeName: type.qualifiedName, member: member, values: values,
                                                            location: context.location(of: binding.pattern)))
    }

    /// The initializer, or the one expression a getter returns (`{ [A.self] }`, `{ return [A.self] }`, `get { ... }`).
    static func valueExpression(of binding: PatternBindingSyntax) -> ExprSyntax? {
        if let initializer = binding.initializer?.value { return initializer }
        guard let accessors = binding.accessorBlock?.accessors else { return nil }
        let body: CodeBlockItemListSyntax?
        switch accessors {
        case .getter(let statements): body = statements
        case .accessors(let list): body = list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
        }
        guard let body, body.count == 1, let item = body.first?.item else { return nil }
        if let expression = item.as(ExprSyntax.self) { return expression }
        if let statement = item.as(ReturnStmtSyntax.self) { return statement.expression }
        return item.as(ExpressionStmtSyntax.self)?.expression
    }

    /// `Schema.Version(1, 2, 0)` (or `.init(1, 2, 0)`, `Version(1, 2, 0)`) with three integer literals.
    static func versionNumbers(_ expression: ExprSyntax) -> [String]? {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return nil }
        let callee = SyntaxFacts.dottedName(call.calledExpression)
        guard FrameworkSchemas.versionInitializers.contains(callee), call.arguments.count == 3 else { return nil }
        let numbers = call.arguments.compactMap { argument -> String? in
            guard argument.label == nil, let literal = argument.expression.as(IntegerLiteralExprSyntax.self) else { return nil }
            return literal.literal.text.replacingOccurrences(of: "_", with: "")
        }
        return numbers.count == 3 ? numbers.map { String(Int($0) ?? -1) } : nil
    }

    /// `[A.self, Outer.B.self]` → `["A", "Outer.B"]`; nil unless every element is `Type.self`.
    static func typeList(_ expression: ExprSyntax) -> [String]? {
        guard let array = expression.as(ArrayExprSyntax.self) else { return nil }
        var names: [String] = []
        for element in array.elements {
            guard let member = element.expression.as(MemberAccessExprSyntax.self),
                  member.declName.baseName.tokenKind == .keyword(.self), let base = member.base else { return nil }
            let name = SyntaxFacts.dottedName(base)
            guard SyntaxFacts.isTypeName(name) else { return nil }
            names.append(name)
        }
        return names
    }
}
