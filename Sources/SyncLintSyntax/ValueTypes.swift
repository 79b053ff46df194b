import SwiftLexicalLookup
import SwiftSyntax

/// Works out the `ValueType` of expressions during the walk. A local name is resolved from the names the
/// walk has recorded in the function so far (`LocalNames`, a dictionary read), and otherwise with
/// swift-syntax's `SwiftLexicalLookup` (names ahead of the walk, outside functions, implicit ones).
/// It is asked on demand, by the few rules and collectors that need a value's type, never for every node.
public enum ValueTypes {
    /// How deep one question may go (`let a = b; let b = c; ...`) before it is given up as unknown.
    static let depthLimit = ValueType.depthLimit

    /// `SwiftLexicalLookup`'s name lookup, except in a file with syntax errors, where it finds nothing:
    /// the lookup force-unwraps every name in scope, and a declaration whose name the parser had to
    /// invent (`guard loundContext)`) crashes it. Found by the fuzz test; such a file's values stay unknown.
    package static func lookup(_ node: some SyntaxProtocol, _ identifier: Identifier) -> [LookupResult] {
        guard !node.root.hasError else { return [] }
        return node.lookup(identifier)
    }

    public static func of(_ expression: ExprSyntax, in context: FileContext) -> ValueType {
        of(expression, selfType: context.scope.currentType?.qualifiedName, depth: 0, names: context.localNames)
    }

    static func of(_ expression: ExprSyntax, selfType: String?, depth: Int, names: LocalNames? = nil) -> ValueType {
        guard depth < depthLimit else { return .unknown }
        let next = depth + 1
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return ofReference(reference, selfType: selfType, depth: next, names: names)
        }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return .unknown }
            let name = member.declName.baseName.text
            // `Self.shared`: a static member of the type the code is in.
            if let typeReference = base.as(DeclReferenceExprSyntax.self), typeReference.baseName.tokenKind == .keyword(.Self) {
                return selfType.map { .member(.named($0, scope: nil), name) } ?? .unknown
            }
            if let typeReference = base.as(DeclReferenceExprSyntax.self), SyntaxFacts.isTypeName(typeReference.baseName.text),
               isUnboundName(typeReference, names: names) {
                return .member(.named(typeReference.baseName.text, scope: selfType), name)
            }
            let baseType = of(base, selfType: selfType, depth: next, names: names)
            return baseType.isKnown ? .member(baseType, name) : .unknown
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return ofCall(call, selfType: selfType, depth: next, names: names)
        }
        if let tryExpression = expression.as(TryExprSyntax.self) { return of(tryExpression.expression, selfType: selfType, depth: next, names: names) }
        if let awaitExpression = expression.as(AwaitExprSyntax.self) { return of(awaitExpression.expression, selfType: selfType, depth: next, names: names) }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return of(optional.expression, selfType: selfType, depth: next, names: names) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return of(forced.expression, selfType: selfType, depth: next, names: names) }
        if let subscriptCall = expression.as(SubscriptCallExprSyntax.self) {
            let base = of(subscriptCall.calledExpression, selfType: selfType, depth: next, names: names)
            return base.isKnown ? .element(base) : .unknown
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return of(only.expression, selfType: selfType, depth: next, names: names)
        }
        if let cast = expression.as(AsExprSyntax.self) {
            return .named(DeclarationCollector.unwrapped(cast.type), scope: selfType)
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            // `value ?? fallback`: the value's type (a `?? []` keeps the collection).
            let elements = Array(sequence.elements)
            if elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
                return of(elements[0], selfType: selfType, depth: next, names: names)
            }
            // `value as? Foo`, `value as! Foo`, `value as Foo`.
            if elements.count == 3, elements[1].is(UnresolvedAsExprSyntax.self), let type = elements[2].as(TypeExprSyntax.self) {
                return .named(DeclarationCollector.unwrapped(type.type), scope: selfType)
            }
        }
        return .unknown
    }

    /// The type a bare type name stands for as a call's receiver (`Installer` in `Installer.install(url)`, a static
    /// method's call): nil for anything else, or for a name a local declaration binds.
    package static func namedType(_ expression: ExprSyntax, in context: FileContext) -> ValueType? {
        guard let reference = expression.as(DeclReferenceExprSyntax.self), SyntaxFacts.isTypeName(reference.baseName.text),
              isUnboundName(reference, names: context.localNames) else { return nil }
        return .named(reference.baseName.text, scope: context.scope.currentType?.qualifiedName)
    }

    /// A name that no local declaration binds, so a type name refers to the type.
    private static func isUnboundName(_ reference: DeclReferenceExprSyntax, names: LocalNames?) -> Bool {
        switch names?.answer(reference) {
        case .declaration: return false
        case .notLocal: return true
        case .cannotTell, nil: break
        }
        guard let identifier = Identifier(reference.baseName) else { return true }
        for result in ValueTypes.lookup(reference, identifier) {
            if case .lookForMembers = result { return true }
            if !result.names.isEmpty { return false }
        }
        return true
    }

    static func ofReference(_ reference: DeclReferenceExprSyntax, selfType: String?, depth: Int, names: LocalNames? = nil) -> ValueType {
        let token = reference.baseName
        if token.tokenKind == .keyword(.self) { return selfType.map { .named($0, scope: nil) } ?? .unknown }
        switch names?.answer(reference) {
        case .declaration(let declaring): return ofDeclaringSyntax(declaring, selfType: selfType, depth: depth, names: names)
        case .notLocal: return selfType.map { .member(.named($0, scope: nil), token.text) } ?? .unknown
        case .cannotTell, nil: break
        }
        // `$0` and `Self` are never a value whose type the syntax tells: no lookup needed to say so.
        if case .dollarIdentifier = token.tokenKind { return .unknown }
        if token.tokenKind == .keyword(.Self) { return .unknown }
        guard let identifier = Identifier(token) else { return .unknown }
        for result in ValueTypes.lookup(reference, identifier) {
            if case .lookForMembers = result {
                // Not a local: a property of `self` (or of the type, in a static context).
                return selfType.map { .member(.named($0, scope: nil), token.text) } ?? .unknown
            }
            guard let name = result.names.first else { continue }
            return ofDeclaration(name, selfType: selfType, depth: depth, names: names)
        }
        return .unknown
    }

    static func ofDeclaration(_ name: LookupName, selfType: String?, depth: Int, names: LocalNames? = nil) -> ValueType {
        switch name {
        case .implicit(.self):
            return selfType.map { .named($0, scope: nil) } ?? .unknown
        case .identifier(let syntax, _):
            return ofDeclaringSyntax(syntax, selfType: selfType, depth: depth, names: names)
        case .equivalentNames(let equivalents):
            return equivalents.first.map { ofDeclaration($0, selfType: selfType, depth: depth, names: names) } ?? .unknown
        default:
            return .unknown
        }
    }

    /// The type of the name a declaring node introduces: a `let`/`var`, a parameter, a loop variable,
    /// an optional binding, a closure parameter.
    static func ofDeclaringSyntax(_ syntax: Syntax, selfType: String?, depth: Int, names: LocalNames? = nil) -> ValueType {
        if let parameter = syntax.as(FunctionParameterSyntax.self) {
            return .named(DeclarationCollector.unwrapped(parameter.type), scope: selfType)
        }
        if let parameter = syntax.as(ClosureParameterSyntax.self) {
            if let type = parameter.type { return .named(DeclarationCollector.unwrapped(type), scope: selfType) }
            return ofClosureParameter(Syntax(parameter), selfType: selfType, depth: depth, names: names)
        }
        if syntax.is(ClosureShorthandParameterSyntax.self) {
            return ofClosureParameter(syntax, selfType: selfType, depth: depth, names: names)
        }
        if let capture = syntax.as(ClosureCaptureSyntax.self) {
            // `[x = value]`: the value's; `[x]`, `[weak x]`: the outer `x`'s, as visible where the closure starts.
            if let value = capture.initializer?.value { return of(value, selfType: selfType, depth: depth, names: names) }
            guard let closure = syntax.ancestor(ClosureExprSyntax.self) else { return .unknown }
            return ofOuterName(capture.name, at: closure, skipping: syntax.id, selfType: selfType, depth: depth, names: names)
        }
        guard let pattern = syntax.as(IdentifierPatternSyntax.self) else { return .unknown }
        var parent = pattern.parent
        // `let (a, b) = ...` and `case let .x(a)` bind parts of a value: their types take a compiler.
        if parent?.is(ValueBindingPatternSyntax.self) == true { parent = parent?.parent }
        if let binding = parent?.as(PatternBindingSyntax.self) {
            if let annotation = binding.typeAnnotation { return .named(DeclarationCollector.unwrapped(annotation.type), scope: selfType) }
            if let value = binding.initializer?.value { return of(value, selfType: selfType, depth: depth, names: names) }
            return .unknown
        }
        if let condition = parent?.as(OptionalBindingConditionSyntax.self) {
            if let annotation = condition.typeAnnotation { return .named(DeclarationCollector.unwrapped(annotation.type), scope: selfType) }
            if let value = condition.initializer?.value { return of(value, selfType: selfType, depth: depth, names: names) }
            // `if let x`: the unwrapped outer `x`, looked up from the condition itself.
            return ofShorthandBinding(condition, name: pattern.identifier, selfType: selfType, depth: depth, names: names)
        }
        if let loop = parent?.as(ForStmtSyntax.self) {
            let sequence = of(loop.sequence, selfType: selfType, depth: depth, names: names)
            return sequence.isKnown ? .element(sequence) : .unknown
        }
        return .unknown
    }

    /// `if let deck` / `guard let deck`: the value of the `deck` visible where the condition stands.
    private static func ofShorthandBinding(_ condition: OptionalBindingConditionSyntax, name: TokenSyntax,
                                           selfType: String?, depth: Int, names: LocalNames?) -> ValueType {
        // The binding itself is visible only after the condition.
        ofOuterName(name, at: condition, skipping: condition.pattern.id, selfType: selfType, depth: depth, names: names)
    }

    /// The value of the name visible where `anchor` starts, other than the declaration `skipping` (a shorthand
    /// binding's own pattern, a closure capture).
    private static func ofOuterName(_ name: TokenSyntax, at anchor: some SyntaxProtocol, skipping: SyntaxIdentifier,
                                    selfType: String?, depth: Int, names: LocalNames?) -> ValueType {
        if let names {
            switch names.answer(name, at: anchor.positionAfterSkippingLeadingTrivia) {
            case .declaration(let declaring): return ofDeclaringSyntax(declaring, selfType: selfType, depth: depth + 1, names: names)
            case .notLocal: return selfType.map { .member(.named($0, scope: nil), name.text) } ?? .unknown
            case .cannotTell: break
            }
        }
        guard let identifier = Identifier(name) else { return .unknown }
        for result in ValueTypes.lookup(anchor, identifier) {
            if case .lookForMembers = result { return selfType.map { .member(.named($0, scope: nil), name.text) } ?? .unknown }
            guard let match = result.names.first(where: { $0.syntax.id != skipping }) else { continue }
            return ofDeclaration(match, selfType: selfType, depth: depth + 1, names: names)
        }
        return .unknown
    }

    /// A closure parameter whose type the call tells: the element of the collection that `ForEach`,
    /// `List`, `map`, `forEach`, `filter`, `compactMap`, `flatMap`, `first(where:)`, `contains(where:)` and
    /// `sorted(by:)` iterate, the value type `navigationDestination(for:)` names, or the item `sheet(item:)` binds.
    static func ofClosureParameter(_ parameter: Syntax, selfType: String?, depth: Int, names: LocalNames? = nil) -> ValueType {
        guard let closure = parameter.ancestor(ClosureExprSyntax.self),
              let call = SyntaxFacts.enclosingCall(ofClosure: closure) else { return .unknown }
        let method = SyntaxFacts.calleeMethodName(call)
        switch method {
        case "ForEach", "List", "Table", "OutlineGroup":
            guard let data = call.arguments.first, data.label == nil else { return .unknown }
            let collection = of(data.expression, selfType: selfType, depth: depth, names: names)
            return collection.isKnown ? .element(collection) : .unknown
        case "map", "forEach", "filter", "compactMap", "flatMap", "first", "contains", "allSatisfy", "sorted", "min", "max",
             "reduce", "last", "removeAll", "firstIndex", "lastIndex", "drop", "prefix":
            guard let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return .unknown }
            let collection = of(receiver, selfType: selfType, depth: depth, names: names)
            return collection.isKnown ? .element(collection) : .unknown
        case "navigationDestination":
            guard let type = SyntaxFacts.argument("for", of: call)?.as(MemberAccessExprSyntax.self),
                  type.declName.baseName.text == "self", let base = type.base else { return .unknown }
            return .named(base.trimmedText, scope: selfType)
        case "sheet", "fullScreenCover", "popover":
            guard let item = SyntaxFacts.argument("item", of: call) else { return .unknown }
            return ofBinding(item, selfType: selfType, depth: depth, names: names)
        default:
            return .unknown
        }
    }

    /// `$selection` → the type of `selection`.
    private static func ofBinding(_ expression: ExprSyntax, selfType: String?, depth: Int, names: LocalNames?) -> ValueType {
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.baseName.text.hasPrefix("$") {
            let name = String(reference.baseName.text.dropFirst())
            return selfType.map { .member(.named($0, scope: nil), name) } ?? .unknown
        }
        return of(expression, selfType: selfType, depth: depth, names: names)
    }

    static func ofCall(_ call: FunctionCallExprSyntax, selfType: String?, depth: Int, names: LocalNames? = nil) -> ValueType {
        // `[Card]()`
        if let array = call.calledExpression.as(ArrayExprSyntax.self), array.elements.count == 1,
           let element = array.elements.first?.expression, SyntaxFacts.isTypeName(element.trimmedText) {
            return .named("[" + element.trimmedText + "]", scope: selfType)
        }
        let method = SyntaxFacts.calleeMethodName(call)
        // `context.fetch(FetchDescriptor<Card>(...))`, `context.fetch(request)`: an array of the fetched type.
        if method == "fetch", let argument = call.arguments.first?.expression {
            let request = of(argument, selfType: selfType, depth: depth + 1, names: names)
            if case .named(let written, let scope) = request, let fetched = fetchedType(written) {
                return .named("[" + fetched + "]", scope: scope)
            }
            if let requestCall = argument.as(FunctionCallExprSyntax.self), SyntaxFacts.calleeMethodName(requestCall) == "fetchRequest",
               let receiver = SyntaxFacts.receiverText(requestCall), SyntaxFacts.isTypeName(receiver) {
                return .named("[" + receiver + "]", scope: selfType)
            }
            return .unknown
        }
        // `Card(...)`, `FetchDescriptor<Card>(...)`, `Outer.Inner(...)`: the called name is a type's. Any other
        // call's result is unknown, said before the callee's text is built: in a chain of SwiftUI modifiers that
        // text is the whole chain, for every call of it.
        guard method.startsUppercase || call.calledExpression.is(GenericSpecializationExprSyntax.self) else { return .unknown }
        let calleeText: String
        if let specialized = call.calledExpression.as(GenericSpecializationExprSyntax.self) {
            calleeText = specialized.trimmedText
        } else {
            calleeText = SyntaxFacts.calleeName(call)
        }
        let head = calleeText.split(separator: "<").first.map(String.init) ?? calleeText
        if SyntaxFacts.isTypeName(head), head.split(separator: ".").allSatisfy({ $0.startsUppercase }) {
            return .named(calleeText, scope: selfType)
        }
        return .unknown
    }

    /// `Card` for `FetchDescriptor<Card>` and `NSFetchRequest<Card>`.
    static func fetchedType(_ written: String) -> String? {
        for wrapper in ["FetchDescriptor<", "NSFetchRequest<"] where written.hasPrefix(wrapper) && written.hasSuffix(">") {
            return String(written.dropFirst(wrapper.count).dropLast())
        }
        return nil
    }
}

extension ValueTypes {
    /// The name a value is reached from: `deck` for `deck.cards ?? []`, `try? items.first`, `store.items[0]`,
    /// `items.filter { ... }`; nil when it starts at a call or a literal.
    public static func rootReference(of expression: ExprSyntax) -> DeclReferenceExprSyntax? {
        var current = expression
        for _ in 0..<depthLimit * 2 {
            if let reference = current.as(DeclReferenceExprSyntax.self) { return reference }
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base { current = base; continue }
            if let call = current.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               let base = member.base { current = base; continue }
            if let wrapped = current.as(TryExprSyntax.self) { current = wrapped.expression; continue }
            if let wrapped = current.as(AwaitExprSyntax.self) { current = wrapped.expression; continue }
            if let wrapped = current.as(OptionalChainingExprSyntax.self) { current = wrapped.expression; continue }
            if let wrapped = current.as(ForceUnwrapExprSyntax.self) { current = wrapped.expression; continue }
            if let wrapped = current.as(SubscriptCallExprSyntax.self) { current = wrapped.calledExpression; continue }
            if let sequence = current.as(SequenceExprSyntax.self), let first = sequence.elements.first { current = first; continue }
            return nil
        }
        return nil
    }

    /// Whether the value a name holds was obtained outside `region` (a closure): a property, a parameter or
    /// local from outside, or a loop variable or binding inside that iterates or unwraps such a value. A value
    /// made inside the region (a fetch from a context made there, a new object) is not.
    public static func originIsOutside(_ reference: DeclReferenceExprSyntax, region: some SyntaxProtocol, depth: Int = 0) -> Bool {
        guard depth < depthLimit else { return false }
        if reference.baseName.tokenKind == .keyword(.self) { return true }
        guard let identifier = Identifier(reference.baseName) else { return false }
        for result in ValueTypes.lookup(reference, identifier) {
            if case .lookForMembers = result { return true }
            guard let name = result.names.first else { continue }
            let declaring = Syntax(name.syntax)
            guard declaring.isInside(region) else { return true }
            let source: ExprSyntax?
            if let loop = declaring.parent?.as(ForStmtSyntax.self) {
                source = loop.sequence
            } else if let binding = declaring.parent?.as(PatternBindingSyntax.self) {
                source = binding.initializer?.value
            } else if let binding = declaring.parent?.as(OptionalBindingConditionSyntax.self) {
                source = binding.initializer?.value
            } else if declaring.is(ClosureParameterSyntax.self) || declaring.is(ClosureShorthandParameterSyntax.self),
                      let closure = declaring.ancestor(ClosureExprSyntax.self), let call = SyntaxFacts.enclosingCall(ofClosure: closure) {
                source = call.calledExpression.as(MemberAccessExprSyntax.self)?.base ?? call.arguments.first?.expression
            } else {
                source = nil
            }
            guard let source, let root = rootReference(of: source) else { return false }
            return originIsOutside(root, region: region, depth: depth + 1)
        }
        return false
    }
}

/// Where a bare name used in a function points (`ValueTypes.origin(of:)`).
package enum NameOrigin {
    /// A local or a parameter, with the value it was declared with (`let x = value`), if any.
    case local(initializer: ExprSyntax?)
    /// No local of that name: a member of `self`, a type or a global.
    case notLocal
    /// The lookup cannot tell (a file with syntax errors).
    case unknown
}

extension ValueTypes {
    /// Where `reference`'s name points, asked of `SwiftLexicalLookup` (for the few names a rule asks about).
    package static func origin(of reference: DeclReferenceExprSyntax) -> NameOrigin {
        guard let identifier = Identifier(reference.baseName) else { return .unknown }
        for result in lookup(reference, identifier) {
            if case .lookForMembers = result { return .notLocal }
            guard let name = result.names.first else { continue }
            return .local(initializer: Syntax(name.syntax).parent?.as(PatternBindingSyntax.self)?.initializer?.value)
        }
        return root(of: reference).hasError ? .unknown : .notLocal
    }

    private static func root(of node: some SyntaxProtocol) -> Syntax { node.root }
}

extension SyntaxProtocol {
    /// The nearest enclosing node of a kind.
    package func ancestor<Node: SyntaxProtocol>(_ kind: Node.Type) -> Node? {
        var current = parent
        while let node = current {
            if let match = node.as(kind) { return match }
            current = node.parent
        }
        return nil
    }
}
