import SwiftSyntax

/// The Core Data contexts a call passes as arguments (`ContextArgument`), read from the call and the function
/// around it, so the index can follow a context into the callee's parameter.
package enum ContextArguments {
    /// The context arguments of `call`, made in `body` (the enclosing function's) where `locals` are the names the
    /// function declared so far. Only arguments whose expression names a context are looked at.
    package static func of(_ call: FunctionCallExprSyntax, in body: CodeBlockSyntax?, locals: Set<String>,
                           parameters: FunctionParameterClauseSyntax? = nil) -> [ContextArgument] {
        guard !call.arguments.isEmpty else { return [] }
        var result: [ContextArgument] = []
        for (position, argument) in call.arguments.enumerated() {
            guard let kind = kind(of: argument.expression, in: body, locals: locals, parameters: parameters) else { continue }
            result.append(ContextArgument(position: position, label: argument.label?.text, kind: kind))
        }
        return result
    }

    /// What context an expression is: made right there, the container's `viewContext`, a local bound to either,
    /// or a property of `self` named as a context.
    static func kind(of expression: ExprSyntax, in body: CodeBlockSyntax?, locals: Set<String>,
                     parameters: FunctionParameterClauseSyntax? = nil) -> ContextArgument.Kind? {
        if let made = expression.as(FunctionCallExprSyntax.self) { return makesBackgroundContext(made) ? .backgroundContext : nil }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            let name = member.declName.baseName.text
            if name == "viewContext" { return .viewContext }
            return SyntaxFacts.isSelf(base) && name.lowercased().contains("context") ? .contextProperty(name) : nil
        }
        guard let reference = expression.as(DeclReferenceExprSyntax.self) else { return nil }
        let name = reference.baseName.text
        guard name.lowercased().contains("context") else { return nil }
        if let (position, label) = parameter(named: name, in: parameters) { return .parameter(position: position, label: label) }
        guard locals.contains(name) else { return .contextProperty(name) }
        guard let body else { return nil }
        var found: ContextArgument.Kind?
        BodyScanner.scan(body) { node in
            guard let binding = node.as(PatternBindingSyntax.self),
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
                  let value = binding.initializer?.value else { return }
            if let made = value.as(FunctionCallExprSyntax.self), makesBackgroundContext(made) { found = .backgroundContext }
            else if value.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "viewContext" { found = .viewContext }
        }
        return found
    }

    /// The position and call-site label (nil for `_`) of the function's parameter that the body calls `name`: the
    /// argument a call site's `ContextArgument` must match.
    package static func parameter(named name: String, in clause: FunctionParameterClauseSyntax?) -> (position: Int, label: String?)? {
        for (position, parameter) in (clause?.parameters ?? []).enumerated() where (parameter.secondName ?? parameter.firstName).text == name {
            let label = parameter.firstName.text
            return (position, label == "_" ? nil : label)
        }
        return nil
    }

    /// `container.newBackgroundContext()` or `NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)`.
    static func makesBackgroundContext(_ call: FunctionCallExprSyntax) -> Bool {
        let method = SyntaxFacts.calleeMethodName(call)
        if method == "newBackgroundContext" { return true }
        return method == "NSManagedObjectContext"
            && SyntaxFacts.argument("concurrencyType", of: call)?.trimmedText.contains("privateQueue") == true
    }
}
