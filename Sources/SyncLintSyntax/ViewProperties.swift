import SwiftSyntax

/// The stored properties of a SwiftUI view, split by who owns their value.
public struct ViewProperties {
    /// Values passed in by the parent: plain stored `let`/`var` without an initial value, and
    /// `@Bindable`, `@ObservedObject`, `@Binding` properties. Name → written type.
    public var injected: [String: String] = [:]
    /// Values the view owns or SwiftUI supplies: `@State`, `@StateObject`, `@Environment`, `@Query`, ...
    public var owned: Set<String> = []
    /// Every stored property's written or simply inferred type, injected or owned.
    public var types: [String: String] = [:]
    /// Stored properties declared optional (`T?`): `name.member` does not compile on them.
    public var optional: Set<String> = []

    static let injectingWrappers: Set<String> = ["Bindable", "ObservedObject", "Binding"]

    /// Reads the member list of a type declaration; extensions have no stored properties, so they give none.
    public init(typeNode: Syntax) {
        guard let type = TypeDeclarationView(typeNode), type.kind != .extension else { return }
        for member in type.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { $0.name.text == "static" }) else { continue }
            let wrappers = SyntaxFacts.attributes(variable.attributes).map(\.name)
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      !DeclarationCollector.isComputed(binding) else { continue }
                let typeName = binding.typeAnnotation.map { DeclarationCollector.unwrapped($0.type) }
                    ?? binding.initializer.flatMap { DeclarationCollector.inferredType($0.value) } ?? ""
                if !typeName.isEmpty { types[name] = typeName }
                if binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true { optional.insert(name) }
                if let wrapper = wrappers.first {
                    if Self.injectingWrappers.contains(wrapper) { injected[name] = typeName } else { owned.insert(name) }
                } else if binding.initializer == nil {
                    injected[name] = typeName
                } else {
                    owned.insert(name)
                }
            }
        }
    }

    /// Injected properties the subtree refers to, as `name` or `self.name`, in order of first use.
    public func injectedNames(usedIn node: some SyntaxProtocol) -> [String] {
        var used: [String] = []
        for token in node.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, injected[name] != nil, !used.contains(name) else { continue }
            // `other.name` is someone else's member; `name` and `self.name` are ours.
            if let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.id == token.id,
               let base = member.base, !SyntaxFacts.isSelf(base) {
                continue
            }
            used.append(name)
        }
        return used
    }

    /// The injected properties the subtree works on: those of `injectedNames(usedIn:)` it uses other than as the
    /// target of a plain assignment. A `@Binding` the code only assigns (`errorOutReason = error.localizedDescription`)
    /// is where it reports a result, an output: that it changes says nothing about the work.
    public func injectedInputs(usedIn node: some SyntaxProtocol) -> [String] {
        var read: Set<String> = []
        for token in node.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, injected[name] != nil, !read.contains(name),
                  let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            var expression = ExprSyntax(reference)
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                guard let base = member.base, SyntaxFacts.isSelf(base) else { continue }
                expression = ExprSyntax(member)
            }
            if let sequence = expression.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self),
               SyntaxFacts.assignment(sequence)?.target.id == expression.id { continue }
            read.insert(name)
        }
        return injectedNames(usedIn: node).filter(read.contains)
    }
}
