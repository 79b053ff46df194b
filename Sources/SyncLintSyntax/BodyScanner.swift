import SwiftSyntax

/// Visits a function or closure body in source order without entering nested closures, functions
/// or types, whose code runs at another time. Flow rules use it on the few bodies a cheap test on
/// the shared walk selected; it never walks a whole file.
package final class BodyScanner: SyntaxAnyVisitor {
    private let visitNode: (Syntax) -> Void
    private let root: SyntaxIdentifier

    private init(root: Syntax, visit: @escaping (Syntax) -> Void) {
        self.visitNode = visit
        self.root = root.id
        super.init(viewMode: .sourceAccurate)
    }

    package static func scan(_ node: some SyntaxProtocol, _ visit: @escaping (Syntax) -> Void) {
        let scanner = BodyScanner(root: Syntax(node), visit: visit)
        scanner.walk(node)
    }

    /// Tokens are not handed on: no scan asks about one, and they are half the nodes.
    package override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    package override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if node.id != root {
            switch node.kind {
            case .closureExpr, .functionDecl, .classDecl, .structDecl, .enumDecl, .actorDecl, .protocolDecl, .extensionDecl:
                return .skipChildren
            default: break
            }
        }
        visitNode(node)
        return .visitChildren
    }
}

/// Facts about statements that flow rules share.
package enum FlowFacts {
    /// Names declared in a body (parameters excluded): `let x`, `var x`, `if let x = y`, `for x in`.
    /// The shorthand `if let x` is left out: it unwraps the property `x` itself.
    package static func localNames(in body: some SyntaxProtocol) -> Set<String> {
        var names: Set<String> = []
        BodyScanner.scan(body) { node in
            guard let pattern = node.as(IdentifierPatternSyntax.self) else { return }
            if let binding = pattern.parent?.as(OptionalBindingConditionSyntax.self), binding.initializer == nil { return }
            names.insert(pattern.identifier.text)
        }
        return names
    }

    /// The stored property of `self` an expression names: `x` (not a local) or `self.x` / `self?.x`.
    package static func selfProperty(_ expression: ExprSyntax, locals: Set<String>) -> String? {
        guard let path = SyntaxFacts.memberPath(expression) else { return nil }
        if path.root == "self", let first = path.members.first { return first }
        if path.members.isEmpty, !locals.contains(path.root), !SyntaxFacts.isTypeName(path.root) { return path.root }
        return nil
    }

    /// Calls of `self`'s methods in a body, in source order: `load()` (a lowercase name; an uppercase one
    /// builds a value) and `self.load()`, with the call node.
    package static func selfMethodCalls(in body: some SyntaxProtocol) -> [(name: String, node: Syntax)] {
        var calls: [(name: String, node: Syntax)] = []
        BodyScanner.scan(body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self) else { return }
            if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self), reference.baseName.text.startsLowercase {
                calls.append((reference.baseName.text, node))
            } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, SyntaxFacts.isSelf(base) {
                calls.append((member.declName.baseName.text, node))
            }
        }
        return calls
    }

    /// `Task.isCancelled`, `Task.checkCancellation()`, `isCancelled` and `checkCancellation()`.
    package static func isCancellationCheck(_ node: Syntax) -> Bool {
        if let member = node.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            return name == "isCancelled" || name == "checkCancellation"
        }
        if let reference = node.as(DeclReferenceExprSyntax.self), reference.parent?.is(MemberAccessExprSyntax.self) != true {
            let name = reference.baseName.text
            return name == "isCancelled" || name == "checkCancellation"
        }
        return false
    }

    /// An `await` whose failure cannot throw out: not under `try`, or under `try?`/`try!`.
    package static func isNonThrowingAwait(_ suspension: AwaitExprSyntax) -> Bool {
        var node = Syntax(suspension)
        while let parent = node.parent, !parent.is(CodeBlockItemSyntax.self) {
            if let tryExpr = parent.as(TryExprSyntax.self) { return tryExpr.questionOrExclamationMark != nil }
            node = parent
        }
        return true
    }

    /// The nearest enclosing statement list and the item of it that holds `node`.
    package static func enclosingItem(of node: Syntax) -> (list: CodeBlockItemListSyntax, item: CodeBlockItemSyntax)? {
        var current = node
        while let parent = current.parent {
            if let item = parent.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self) {
                return (list, item)
            }
            current = parent
        }
        return nil
    }

    /// Every statement list from `node` up to (and including) the one that is `root`'s statements.
    package static func enclosingLists(of node: Syntax, upTo root: SyntaxIdentifier) -> [CodeBlockItemListSyntax] {
        var lists: [CodeBlockItemListSyntax] = []
        var current = node
        while let parent = current.parent {
            if let list = parent.as(CodeBlockItemListSyntax.self) { lists.append(list) }
            if parent.id == root { break }
            current = parent
        }
        return lists
    }
}

extension SyntaxProtocol {
    /// Whether this node lies within `ancestor` (or is it).
    package func isInside(_ ancestor: some SyntaxProtocol) -> Bool {
        var current: Syntax? = Syntax(self)
        while let node = current {
            if node.id == ancestor.id { return true }
            current = node.parent
        }
        return false
    }
}
