import SwiftSyntax

/// The names a walk has seen declared inside functions so far, each with the stretch of source where it
/// is visible, so that the type of a local can be found without a `SwiftLexicalLookup` lookup. A lookup
/// walks every enclosing scope and every statement before the name, again for each question; on app code
/// the lookups for call receivers cost a tenth of the whole run. The walk meets every declaration before
/// any use of it, so recording them as it goes answers the same question in a dictionary read.
///
/// Only names that patterns and parameters declare are recorded. A name Swift declares implicitly
/// (`error` in a `catch`, `newValue` and `oldValue` in an observer) has no node to record, so for those
/// the answer is "cannot tell" and the caller falls back to the lookup.
final class LocalNames {
    enum Answer {
        /// The node that declares the name where it is used (an identifier pattern or a parameter).
        case declaration(Syntax)
        /// No local of that name is visible there: a property of `self`, a type or a global.
        case notLocal
        /// The record cannot say; ask `SwiftLexicalLookup`.
        case cannotTell
    }

    private struct Entry {
        let node: Syntax
        /// Where the declaration is visible: from after `let x = ...` ends (inside a loop's body, ...) to the
        /// end of its scope. Worked out when a question first needs it: most names are never asked about.
        var visible: Range<AbsolutePosition>?
    }

    private var entries: [String: [Entry]] = [:]
    static let implicitNames: Set<String> = ["error", "newValue", "oldValue"]
    /// The outermost function the walk is in; names are recorded only there, so only questions about it
    /// can be answered.
    private var openFunction: Range<AbsolutePosition>?
    /// The node the walk is at, whose position is worked out only when a question needs it: how far the walk
    /// has come, since a name used further on may be shadowed by a declaration not met yet.
    var walkNode: Syntax?
    private var walkPosition: AbsolutePosition {
        walkNode?.positionAfterSkippingLeadingTrivia ?? AbsolutePosition(utf8Offset: 0)
    }

    /// The walk enters an outermost function (or computed property): its names are recorded from now on.
    func open(_ function: Syntax) {
        entries.removeAll(keepingCapacity: true)
        openFunction = function.position..<function.endPosition
    }

    /// The walk leaves it: its names are forgotten, and questions go back to the lexical lookup.
    func close() {
        entries.removeAll(keepingCapacity: true)
        openFunction = nil
    }

    /// Records the name a declaring node introduces: an identifier pattern (`let`, `var`, `if let`, `for`,
    /// `case let`), a function or closure parameter, or a closure's capture.
    func record(_ node: Syntax) {
        let name: TokenSyntax
        if let pattern = node.as(IdentifierPatternSyntax.self) {
            name = pattern.identifier
        } else if let parameter = node.as(FunctionParameterSyntax.self) {
            name = parameter.secondName ?? parameter.firstName
        } else if let parameter = node.as(ClosureParameterSyntax.self) {
            name = parameter.secondName ?? parameter.firstName
        } else if let parameter = node.as(ClosureShorthandParameterSyntax.self) {
            name = parameter.name
        } else if let capture = node.as(ClosureCaptureSyntax.self) {
            name = capture.name
        } else {
            return
        }
        guard case .identifier(let text) = name.tokenKind else { return }
        entries[text, default: []].append(Entry(node: node, visible: nil))
    }

    /// Where a use of `reference`'s name points, as far as the record tells.
    func answer(_ reference: DeclReferenceExprSyntax) -> Answer {
        answer(reference.baseName, at: reference.positionAfterSkippingLeadingTrivia)
    }

    /// Where the name `token` would point at `position`.
    func answer(_ token: TokenSyntax, at position: AbsolutePosition) -> Answer {
        guard let openFunction, openFunction.contains(position), position <= walkPosition,
              case .identifier(let name) = token.tokenKind, !Self.implicitNames.contains(name) else { return .cannotTell }
        guard var candidates = entries[name] else { return .notLocal }
        defer { entries[name] = candidates }
        for slot in candidates.indices where candidates[slot].visible == nil {
            let node = candidates[slot].node
            let start = Self.visibleFrom(node)
            candidates[slot].visible = start..<max(start, Self.scopeEnd(of: node))
        }
        // The latest visible declaration shadows earlier ones.
        for entry in candidates.reversed() where entry.visible?.contains(position) == true {
            return .declaration(entry.node)
        }
        return .notLocal
    }

    /// A `let`'s name is visible after its whole binding (`let item = item.copy()` reads the outer `item`),
    /// a loop variable after the sequence, an optional binding after its condition; a `case let x` from
    /// the pattern on, since its `where` clause reads it.
    private static func visibleFrom(_ node: Syntax) -> AbsolutePosition {
        var current = node.parent
        while let ancestor = current {
            if ancestor.is(PatternBindingSyntax.self) || ancestor.is(OptionalBindingConditionSyntax.self)
                || ancestor.is(MatchingPatternConditionSyntax.self) {
                return ancestor.endPositionBeforeTrailingTrivia
            }
            if let loop = ancestor.as(ForStmtSyntax.self) { return loop.sequence.endPositionBeforeTrailingTrivia }
            if ancestor.is(ClosureSignatureSyntax.self) || ancestor.is(FunctionSignatureSyntax.self)
                || ancestor.is(StmtSyntax.self) || ancestor.is(DeclSyntax.self) || ancestor.is(ExprSyntax.self) { break }
            current = ancestor.parent
        }
        return node.endPositionBeforeTrailingTrivia
    }

    /// The end of the scope a declaration lives in: its statement list (a `let`, a `guard let`), or the
    /// statement, closure or function that binds it (`if let`, a loop variable, a parameter).
    private static func scopeEnd(of node: Syntax) -> AbsolutePosition {
        var current = node.parent
        while let ancestor = current {
            switch ancestor.kind {
            case .codeBlockItemList:
                // A declaration in an `#if` clause belongs to the statements around the `#if`.
                if ancestor.parent?.kind != .ifConfigClause { return (ancestor.parent ?? ancestor).endPosition }
            case .closureExpr, .forStmt, .ifExpr, .whileStmt, .switchCase, .catchClause, .functionDecl, .initializerDecl,
                 .accessorDecl, .subscriptDecl:
                return ancestor.endPosition
            default:
                break
            }
            current = ancestor.parent
        }
        return node.root.endPosition
    }
}
