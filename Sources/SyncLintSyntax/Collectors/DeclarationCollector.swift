import SwiftSyntax

/// Records every type declaration and extension with its attributes, inheritance, stored and computed
/// properties and methods. It reads the member list directly instead of walking member bodies.
package final class DeclarationCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [.classDecl, .structDecl, .enumDecl, .actorDecl, .protocolDecl, .extensionDecl, .typeAliasDecl]

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        if let alias = node.as(TypeAliasDeclSyntax.self) {
            // A top-level alias to a plain type name: the module's code may name the type by it (`Schema([OfflineTrack.self])`).
            guard context.scope.currentType == nil, alias.genericParameterClause == nil,
                  let target = Self.plainTypeName(alias.initializer.value) else { return }
            context.facts.typeAliases[alias.name.text] = target
            return
        }
        guard let type = TypeDeclarationView(node) else { return }
        var properties: [PropertyFact] = []
        var methods: [MethodFact] = []
        var macros: [MemberMacro] = []
        for member in type.memberBlock.members {
            if let macro = member.decl.as(MacroExpansionDeclSyntax.self) {
                macros.append(MemberMacro(name: macro.macroName.text, location: context.location(of: macro)))
            }
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                properties += Self.properties(of: variable, context: context)
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                methods.append(MethodFact(
                    name: function.name.text,
                    isAsync: function.signature.effectSpecifiers?.asyncSpecifier != nil,
                    isStatic: function.modifiers.contains { ["static", "class"].contains($0.name.text) },
                    location: context.location(of: function.name)))
            } else if let deinitializer = member.decl.as(DeinitializerDeclSyntax.self) {
                // Recorded as a method named `deinit`: a type that declares one expects to be released.
                methods.append(MethodFact(name: "deinit", isAsync: false, isStatic: false,
                                          location: context.location(of: deinitializer.deinitKeyword)))
            }
        }
        var fact = TypeFact(
            name: type.name, qualifiedName: type.qualifiedName, kind: type.kind, attributes: SyntaxFacts.attributes(type.attributes),
            inheritedTypes: type.inheritedTypes, properties: properties, methods: methods,
            docComment: Self.docComment(node), location: context.location(of: node))
        fact.memberMacros = macros
        fact.isNonisolated = node.asProtocol(WithModifiersSyntax.self)?.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) } ?? false
        context.facts.types.append(fact)
    }

    /// `Item`, `SchemaV2.Item`: a type named by identifiers only, no generic arguments, optionals or compositions.
    static func plainTypeName(_ type: TypeSyntax) -> String? {
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil, let base = plainTypeName(member.baseType) {
            return base + "." + member.name.text
        }
        return nil
    }

    package static func properties(of variable: VariableDeclSyntax, context: FileContext) -> [PropertyFact] {
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let isStatic = variable.modifiers.contains { ["static", "class"].contains($0.name.text) }
        // `private var x`, `private(set) var x`; `fileprivate` lets other types of the file assign it too.
        let isSetterPrivate = variable.modifiers.contains { $0.name.tokenKind == .keyword(.private) }
        let attributes = SyntaxFacts.attributes(variable.attributes)
        return variable.bindings.compactMap { binding in
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
            let written = binding.typeAnnotation?.type
            var isOptional = written.map { $0.is(OptionalTypeSyntax.self) || $0.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) } ?? false
            var typeName = written.map { unwrapped($0, context: context) }
            if typeName == nil, let value = binding.initializer?.value, let wrapped = optionalValueType(value) {
                (typeName, isOptional) = (wrapped, true)
            }
            if typeName == nil, let value = binding.initializer?.value { typeName = inferredType(value) }
            if typeName == nil { typeName = environmentObjectType(attributes) }
            return PropertyFact(
                name: name, isLet: isLet, isStatic: isStatic, typeName: typeName, isOptional: isOptional,
                defaultValue: binding.initializer.map { context.sourceText(of: $0.value) }, attributes: attributes,
                isComputed: isComputed(binding), location: context.location(of: binding.pattern), isSetterPrivate: isSetterPrivate)
        }
    }

    /// `@Environment(Model.self) var model`: SwiftUI's `Environment.init(_ objectType:)` reads an observable object
    /// of that type from the environment, so the property holds a `Model`
    /// (https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf). Nil for any other attribute.
    static func environmentObjectType(_ attributes: [AttributeFact]) -> String? {
        guard let argument = attributes.first(where: { $0.name == "Environment" })?.arguments,
              argument.hasSuffix(".self"), !argument.hasPrefix("\\") else { return nil }
        let name = String(argument.dropLast(".self".count)).trimmingCharacters(in: .whitespaces)
        return SyntaxFacts.isTypeName(name) ? name : nil
    }

    package static func unwrapped(_ type: TypeSyntax, context: FileContext? = nil) -> String {
        var type = type
        // `inout Foo?` (a parameter the function writes back): the value is a `Foo?` all the same.
        if let attributed = type.as(AttributedTypeSyntax.self), !attributed.specifiers.isEmpty, attributed.attributes.isEmpty {
            type = attributed.baseType
        }
        if let optional = type.as(OptionalTypeSyntax.self) { type = optional.wrappedType }
        if let forced = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { type = forced.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil { return identifier.name.text }
        return context?.sourceText(of: type) ?? type.trimmedText
    }

    /// The wrapped type of a value spelled with its optional type: `[Item]?.some([])`, `Item?.none`, `Optional<Item>.none`
    /// (the property is then optional, though no annotation says so).
    static func optionalValueType(_ value: ExprSyntax) -> String? {
        let text = value.trimmedDescription
        for marker in ["?.some(", "?.none"] {
            guard let range = text.range(of: marker), marker == "?.some(" || range.upperBound == text.endIndex else { continue }
            let wrapped = String(text[..<range.lowerBound])
            return wrapped.isEmpty || wrapped.contains(" ") ? nil : wrapped
        }
        if text.hasPrefix("Optional<"), let close = text.firstIndex(of: ">"), text[close...].hasPrefix(">.none") || text[close...].hasPrefix(">.some(") {
            return String(text[text.index(text.startIndex, offsetBy: "Optional<".count)..<close])
        }
        return nil
    }

    /// The type of `= Foo(...)`, `= Foo.bar`-free literals and `= Task { }`; nil when it takes a compiler.
    static func inferredType(_ value: ExprSyntax) -> String? {
        if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if value.is(FloatLiteralExprSyntax.self) { return "Double" }
        if value.is(StringLiteralExprSyntax.self) { return "String" }
        if let call = value.as(FunctionCallExprSyntax.self) {
            let callee = SyntaxFacts.calleeName(call)
            if callee == "Task.detached" { return "Task" }
            if SyntaxFacts.isTypeName(callee), !callee.contains(".") { return callee }
        }
        return nil
    }

    /// A binding with a getter body is computed; one with only `willSet`/`didSet` is stored.
    package static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
        guard let block = binding.accessorBlock else { return false }
        switch block.accessors {
        case .getter: return true
        case .accessors(let accessors):
            return accessors.contains { !["willSet", "didSet"].contains($0.accessorSpecifier.text) }
        }
    }

    static func docComment(_ node: Syntax) -> String {
        node.leadingTrivia.compactMap { piece -> String? in
            switch piece {
            case .docLineComment(let text), .docBlockComment(let text): return text
            default: return nil
            }
        }.joined(separator: "\n")
    }
}
