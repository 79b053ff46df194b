import SwiftSyntax

/// Small questions about syntax that many rules ask. Pure functions on nodes, no state.
public enum SyntaxFacts {
    /// The callee of a call as dotted text without arguments: `Task`, `Task.detached`,
    /// `DispatchQueue.main.async`, `.task` (a modifier on an implicit base), `context.perform`.
    public static func calleeName(_ call: FunctionCallExprSyntax) -> String {
        dottedName(call.calledExpression)
    }

    /// `a.b.c` for member-access chains; `.task` for a member access whose base is another call
    /// (a SwiftUI modifier chain); the identifier for plain references; generics dropped.
    public static func dottedName(_ expression: ExprSyntax) -> String {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text
        }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else { return "." + name }
            if base.is(FunctionCallExprSyntax.self) || base.is(SubscriptCallExprSyntax.self) { return "." + name }
            let baseName = dottedName(base)
            return baseName.isEmpty ? "." + name : baseName + "." + name
        }
        if let specialized = expression.as(GenericSpecializationExprSyntax.self) {
            return dottedName(specialized.expression)
        }
        if let optional = expression.as(OptionalChainingExprSyntax.self) {
            return dottedName(optional.expression)
        }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) {
            return dottedName(forced.expression)
        }
        if expression.is(SuperExprSyntax.self) { return "super" }
        return ""
    }

    /// The last component of a callee: `async` for `DispatchQueue.main.async`.
    public static func calleeMethodName(_ call: FunctionCallExprSyntax) -> String {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        return calleeName(call).split(separator: ".").last.map(String.init) ?? ""
    }

    /// The receiver of a method call as text: `viewModel` for `viewModel.load()`; nil for a free call.
    public static func receiverText(_ call: FunctionCallExprSyntax) -> String? {
        call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.trimmedText
    }

    /// All closures passed to a call: trailing, additional trailing, and closure arguments.
    public static func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
        var result: [ClosureExprSyntax] = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
        if let trailing = call.trailingClosure { result.append(trailing) }
        result += call.additionalTrailingClosures.map(\.closure)
        return result
    }

    public static func argument(_ label: String, of call: FunctionCallExprSyntax) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    /// The call a closure is passed to (as trailing closure or argument), if any.
    public static func enclosingCall(ofClosure closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        if let call = closure.parent?.as(FunctionCallExprSyntax.self) { return call }
        if let element = closure.parent?.as(LabeledExprSyntax.self),
           let call = element.parent?.parent?.as(FunctionCallExprSyntax.self) {
            return call
        }
        if let trailing = closure.parent?.as(MultipleTrailingClosureElementSyntax.self) {
            return trailing.parent?.parent?.as(FunctionCallExprSyntax.self)
        }
        return nil
    }

    /// An assignment `lhs = rhs` (the parser leaves operators unfolded, as a sequence).
    public static func assignment(_ sequence: SequenceExprSyntax) -> (target: ExprSyntax, value: ExprSyntax)? {
        let elements = Array(sequence.elements)
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
        return (elements[0], elements[2])
    }

    /// A compound assignment `lhs += rhs` and friends, whatever operators its right-hand side has (`total += a * b`):
    /// assignment binds loosest, so in the unfolded sequence the element before a leading one is its target.
    public static func compoundAssignment(_ sequence: SequenceExprSyntax) -> (target: ExprSyntax, op: String)? {
        let elements = Array(sequence.elements)
        guard elements.count >= 3, elements.count % 2 == 1, let op = elements[1].as(BinaryOperatorExprSyntax.self) else { return nil }
        let text = op.operator.text
        guard text.count >= 2, text.hasSuffix("="), !["==", "!=", "<=", ">=", "===", "!=="].contains(text) else { return nil }
        return (elements[0], text)
    }

    /// The equality tests in an expression, as its operands and operator: `a == b`, `a != b`, `a === b`, `a !== b`
    /// (the tree is not folded: the operands are the elements next to the operator, which for `==` joined by `&&`
    /// or `||` are the compared values).
    public static func equalityTests(in node: some SyntaxProtocol) -> [(left: ExprSyntax, op: String, right: ExprSyntax)] {
        var tests: [(left: ExprSyntax, op: String, right: ExprSyntax)] = []
        var sequences: [SequenceExprSyntax] = []
        BodyScanner.scan(node) { if let sequence = $0.as(SequenceExprSyntax.self) { sequences.append(sequence) } }
        for sequence in sequences {
            let elements = Array(sequence.elements)
            for index in elements.indices.dropFirst().dropLast() {
                guard let op = elements[index].as(BinaryOperatorExprSyntax.self)?.operator.text,
                      ["==", "!=", "===", "!=="].contains(op) else { continue }
                tests.append((elements[index - 1], op, elements[index + 1]))
            }
        }
        return tests
    }

    /// Any write: `x = v` or `x += v`; returns the target.
    public static func writeTarget(_ sequence: SequenceExprSyntax) -> ExprSyntax? {
        // `count = await load() ?? 0`: as for a compound assignment, the element before a leading `=` is the target
        // whatever operators the value has (`assignment(_:)` keeps to `x = v`, whose value it returns as one expression).
        let elements = Array(sequence.elements)
        if elements.count >= 3, elements.count % 2 == 1, elements[1].is(AssignmentExprSyntax.self) { return elements[0] }
        return compoundAssignment(sequence)?.target
    }

    /// `self.a.b` → ["a", "b"] with root "self"; `a.b` → root "a", members ["b"]; `a` → root "a".
    public static func memberPath(_ expression: ExprSyntax) -> (root: String, members: [String])? {
        var members: [String] = []
        var current = expression
        while true {
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
                members.insert(member.declName.baseName.text, at: 0)
                current = base
            } else if let optional = current.as(OptionalChainingExprSyntax.self) {
                current = optional.expression
            } else if let forced = current.as(ForceUnwrapExprSyntax.self) {
                current = forced.expression
            } else if let subscriptCall = current.as(SubscriptCallExprSyntax.self) {
                current = subscriptCall.calledExpression
            } else {
                break
            }
        }
        if let reference = current.as(DeclReferenceExprSyntax.self) { return (reference.baseName.text, members) }
        return nil
    }

    public static func attributes(_ list: AttributeListSyntax?) -> [AttributeFact] {
        guard let list else { return [] }
        return list.compactMap { element in
            guard let attribute = element.as(AttributeSyntax.self) else { return nil }
            return AttributeFact(name: simpleTypeName(attribute.attributeName), arguments: attribute.arguments?.trimmedText ?? "")
        }
    }

    public static func hasAttribute(_ name: String, _ list: AttributeListSyntax?) -> Bool {
        guard let list else { return false }
        return list.contains { element in
            guard let attribute = element.as(AttributeSyntax.self) else { return false }
            return simpleTypeName(attribute.attributeName) == name
        }
    }

    /// `Foo` for `Foo`, `Module.Foo` and `Foo<T>`, read from the name token instead of printing the type.
    public static func simpleTypeName(_ type: TypeSyntax) -> String {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        let text = type.trimmedText
        return text.split(separator: ".").last.map(String.init) ?? text
    }

    /// A type as a dotted path without generic arguments: `Outer.Inner` for `Outer.Inner`, `Outer<T>.Inner`,
    /// `Module.Outer.Inner` stays as written; `[Item]` and other shapes as their trimmed text.
    public static func typePath(_ type: TypeSyntax) -> String {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return typePath(member.baseType) + "." + member.name.text }
        return type.trimmedText
    }

    /// Whether the closure's capture list holds `weak self` or `unowned self`.
    public static func capturesSelfWeakly(_ closure: ClosureExprSyntax) -> Bool {
        guard let captures = closure.signature?.capture?.items else { return false }
        return captures.contains { item in
            let specifier = item.specifier?.specifier.text
            let captured = item.initializer?.value.trimmedText ?? item.name.text
            return (specifier == "weak" || specifier == "unowned") && (captured == "self" || item.name.text == "self")
        }
    }

    /// `self` as an expression.
    /// Whether the statements beside `call`, at its own level (not inside an `if`), point the store at `/dev/null` or
    /// make it `NSInMemoryStoreType`: the store `call` creates or loads is a test's or a preview's, kept in memory.
    package static func storeIsInMemory(beside call: FunctionCallExprSyntax) -> Bool {
        ModelContainerCollector.alwaysInMemory(call)
    }

    public static func isSelf(_ expression: ExprSyntax) -> Bool {
        expression.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    }

    /// The conditions of a `guard`, or of an `if` whose body returns: a test that ends the function early when it
    /// holds (or fails). Nil for any other node.
    public static func earlyExitConditions(_ node: Syntax) -> ConditionElementListSyntax? {
        if let statement = node.as(GuardStmtSyntax.self) { return statement.conditions }
        if let statement = node.as(IfExprSyntax.self), statement.body.statements.contains(where: { $0.item.is(ReturnStmtSyntax.self) }) {
            return statement.conditions
        }
        return nil
    }

    /// `true`/`false` literal value of an expression, if it is one.
    public static func boolLiteral(_ expression: ExprSyntax) -> Bool? {
        guard let literal = expression.as(BooleanLiteralExprSyntax.self) else { return nil }
        return literal.literal.tokenKind == .keyword(.true)
    }

    /// The expression inside any `try`, `try?`, `try!` and `await` marks around it: `try await load()` is `load()`.
    /// The marks say how the call is made, not what it is.
    public static func withoutTryOrAwait(_ expression: ExprSyntax) -> ExprSyntax {
        var current = expression
        while let inner = current.as(TryExprSyntax.self)?.expression ?? current.as(AwaitExprSyntax.self)?.expression { current = inner }
        return current
    }

    /// Whether the subtree contains an `await`. Does not descend into nested closures or functions.
    public static func containsAwait(_ node: some SyntaxProtocol) -> Bool {
        AwaitFinder.find(in: Syntax(node))
    }

    /// `Foo` or `Foo.Bar`: an uppercase identifier path, not a call or an expression.
    public static func isTypeName(_ text: String) -> Bool {
        guard text.startsUppercase else { return false }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
        }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    }
}

/// Finds an `await` in a subtree, skipping nested closures and declarations, which run at other times.
private final class AwaitFinder: SyntaxVisitor {
    var found = false

    static func find(in node: Syntax) -> Bool {
        if node.is(AwaitExprSyntax.self) { return true }
        let finder = AwaitFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if node.awaitKeyword != nil { found = true }
        return .visitChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

extension SyntaxProtocol {
    /// The node's source without the trivia before its first token and after its last: what
    /// `trimmedDescription` gives, without building a trimmed copy of the tree first (which on app code
    /// cost a twentieth of the run: rules ask for receivers' and types' text on every call).
    package var trimmedText: String {
        let text = description
        let utf8 = text.utf8
        let leading = leadingTrivia.sourceLength.utf8Length
        let trailing = trailingTrivia.sourceLength.utf8Length
        guard leading + trailing <= utf8.count else { return trimmedDescription }
        let start = utf8.index(utf8.startIndex, offsetBy: leading)
        let end = utf8.index(utf8.endIndex, offsetBy: -trailing)
        return String(text[start..<end])
    }
}

extension StringProtocol {
    /// Whether the name starts with an uppercase letter (a type, by Swift's naming convention). Asked for
    /// most names the walk meets: an ASCII first letter is answered from its byte, without the Unicode
    /// property tables `Character.isUppercase` consults.
    package var startsUppercase: Bool {
        guard let byte = utf8.first else { return false }
        if byte < 0x80 { return byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        return first?.isUppercase == true
    }

    /// Whether the name starts with a lowercase letter (a value or a method); see `startsUppercase`.
    package var startsLowercase: Bool {
        guard let byte = utf8.first else { return false }
        if byte < 0x80 { return byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        return first?.isLowercase == true
    }

    /// Whether the name is a value's or a method's by Swift's naming convention: it starts with a lowercase letter
    /// once leading underscores are skipped (`load`, `_loadSearchResponse`, `__fetch`), not with an uppercase one
    /// (a type, whose call builds a value). `startsLowercase` alone took `_load()` for something else.
    package var startsLikeValueName: Bool {
        let name = drop { $0 == "_" }
        return name.startsLowercase
    }
}
