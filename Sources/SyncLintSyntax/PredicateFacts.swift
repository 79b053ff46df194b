import SwiftSyntax

/// What a `#Predicate` is written for and how its closure names its subject, asked by the collectors that
/// record predicate facts and by rules that look at one predicate.
package enum PredicateFacts {
    /// A `#Predicate` expansion with its closure and the model it is written for; nil for any other node, or a
    /// predicate whose model the file does not say.
    package static func predicate(_ node: Syntax) -> (macro: MacroExpansionExprSyntax, closure: ClosureExprSyntax, subject: String)? {
        guard let macro = node.as(MacroExpansionExprSyntax.self), macro.macroName.text == "Predicate",
              let closure = macro.trailingClosure ?? macro.arguments.first?.expression.as(ClosureExprSyntax.self),
              let subject = subject(of: macro) else { return nil }
        return (macro, closure, subject)
    }

    /// `Article` from `#Predicate<Article>`, `FetchDescriptor<Article>(predicate: #Predicate { ... })`, or
    /// `let p: Predicate<Article> = #Predicate { ... }`.
    package static func subject(of macro: MacroExpansionExprSyntax) -> String? {
        if let argument = macro.genericArgumentClause?.arguments.first {
            return argument.argument.as(TypeSyntax.self)?.trimmedText
        }
        var node = Syntax(macro).parent
        for _ in 0..<6 {
            guard let current = node else { return nil }
            if let call = current.as(FunctionCallExprSyntax.self),
               let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self),
               generic.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "FetchDescriptor" {
                return generic.genericArgumentClause.arguments.first?.argument.as(TypeSyntax.self)?.trimmedText
            }
            if let binding = current.as(PatternBindingSyntax.self),
               let type = binding.typeAnnotation?.type.as(IdentifierTypeSyntax.self), type.name.text == "Predicate" {
                return type.genericArgumentClause?.arguments.first?.argument.as(TypeSyntax.self)?.trimmedText
            }
            node = current.parent
        }
        return nil
    }

    /// The name the closure gives its subject: its first parameter, or `$0`.
    package static func parameterName(of closure: ClosureExprSyntax) -> String {
        closure.signature?.parameterClause.flatMap(firstParameterName) ?? "$0"
    }

    static func firstParameterName(_ clause: ClosureSignatureSyntax.ParameterClause) -> String? {
        switch clause {
        case .simpleInput(let names): return names.first?.name.text
        case .parameterClause(let parameters): return parameters.parameters.first?.firstName.text
        }
    }
}
