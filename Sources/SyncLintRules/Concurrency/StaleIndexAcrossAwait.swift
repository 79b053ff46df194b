import SwiftSyntax

/// The index of an element taken from an isolated collection before an `await` and used on that collection after it:
/// `guard let index = downloads.firstIndex(where: ...)`, `await ...`, `downloads.remove(at: index)`. While the method is
/// suspended, another call on the same actor may insert or remove elements, so the position no longer names the same
/// element (or is out of bounds, a crash). Part of `check_then_act_across_await`: the lookup is the check, the use by
/// position the act.
enum StaleIndexAcrossAwait {
    static let staleIndex = RuleMessage("stale_index", "`{index}` is a position in `{property}` taken before the `await` on line {awaitLine}; another call can insert into or remove from `{property}` while this one is suspended, so this may touch the wrong element or crash; look the element up again after the `await` (by its identity)")

    /// Calls that return a position in the collection they are called on.
    static let indexLookups: Set<String> = ["firstIndex", "lastIndex", "index"]
    /// Methods of a collection that take a position.
    static let positionalMethods: Set<String> = ["remove", "insert", "swapAt", "replaceSubrange", "removeSubrange"]
    /// Methods that move the elements of a collection to other positions (appending moves none).
    static let shiftingMethods: Set<String> = ["remove", "insert", "removeAll", "removeFirst", "removeLast", "removeSubrange",
                                               "replaceSubrange", "move", "sort", "reverse", "shuffle", "swapAt", "popLast"]

    /// A local bound to a position in a stored collection of `self`.
    private struct Lookup {
        let index: String
        let property: String
        let binding: Syntax
    }

    /// Reports, once per function, the first use by position of a collection after an `await` that a path from the
    /// lookup reaches with no new lookup and no bounds test of the position on the way. High confidence when the type
    /// itself moves the collection's elements (`remove`, `insert`, a whole new value) in the declaration the function
    /// is in: then a call that overlaps this one's suspension can shift them. Else medium: what else changes the
    /// collection is not seen.
    static func check(_ function: FunctionDeclSyntax, body: CodeBlockSyntax, type: TypeScope, locals: Set<String>,
                      isolation: IndexCondition?, context: FileContext) {
        var lookups: [Lookup] = []
        var suspensions: [Syntax] = []
        var references: [DeclReferenceExprSyntax] = []
        var conditions: [Syntax] = []
        BodyScanner.scan(body) { node in
            if let binding = node.as(OptionalBindingConditionSyntax.self),
               let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
               let value = binding.initializer?.value, let property = lookedUpCollection(value, locals: locals) {
                lookups.append(Lookup(index: name, property: property, binding: node))
            } else if let binding = node.as(PatternBindingSyntax.self),
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let value = binding.initializer?.value, let property = lookedUpCollection(value, locals: locals) {
                lookups.append(Lookup(index: name, property: property, binding: node))
            } else if node.is(AwaitExprSyntax.self) {
                suspensions.append(node)
            } else if let reference = node.as(DeclReferenceExprSyntax.self) {
                references.append(reference)
            } else if let list = node.as(ConditionElementListSyntax.self) {
                conditions.append(Syntax(list))
            }
        }
        guard !lookups.isEmpty, !suspensions.isEmpty, let built = context.controlFlowGraph(of: function) else { return }
        let graph = built.graph
        for lookup in lookups {
            // A second lookup into the same name, or an assignment to it, starts over: only the first one is followed.
            let rebinds = lookups.filter { $0.index == lookup.index && $0.binding.id != lookup.binding.id }.map(\.binding)
                + references.filter { $0.baseName.text == lookup.index && isAssigned($0) }.map(Syntax.init)
            // A test of the position against the collection after the `await` (`guard items.indices.contains(index)`,
            // `index < items.count`) checks it again.
            let rechecks = conditions.filter { list in
                let names = Set(list.tokens(viewMode: .sourceAccurate).map(\.text))
                return names.contains(lookup.index) && names.contains(lookup.property)
            }
            let stops = Set((rebinds + rechecks).flatMap { graphNodes(of: $0, in: built) })
            let starts = graphNodes(of: lookup.binding, in: built)
            let fromLookup = starts.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: { stops.contains($0.id) })) }
            let uses = references.filter { $0.baseName.text == lookup.index && $0.position > lookup.binding.endPosition
                && usesPosition($0, of: lookup.property, locals: locals) }
            for suspension in suspensions where suspension.position > lookup.binding.position {
                let suspensionNodes = built.nodes(for: suspension).filter(fromLookup.contains)
                guard !suspensionNodes.isEmpty else { continue }
                // In a loop, the lookup itself runs again before the next use.
                let lookupAgain = stops.union(starts)
                let afterSuspension = suspensionNodes.reduce(into: Set<Int>()) {
                    $0.formUnion(graph.reachable(from: $1, avoiding: { lookupAgain.contains($0.id) }))
                }
                // An argument of the awaited call is evaluated before the suspension.
                guard let use = uses.first(where: { use in
                    !use.isInside(suspension) && graphNodes(of: Syntax(use), in: built).contains(where: afterSuspension.contains)
                }) else { continue }
                let confidence: Confidence = typeMovesElements(of: lookup.property, in: type.node) ? .high : .medium
                let awaitLine = context.location(of: suspension).line
                context.report(use, staleIndex, ["index": lookup.index, "property": lookup.property, "awaitLine": String(awaitLine)],
                               when: CheckThenActAcrossAwaitRule.condition(.someStoredVar([lookup.property], ofType: type.qualifiedName), isolation),
                               notes: [context.note("`\(lookup.index)` is looked up in `\(lookup.property)` here", at: lookup.binding)],
                               confidence: confidence)
                return
            }
        }
    }

    /// `items.firstIndex(where: ...)`, `self.items.firstIndex(of: x)!`: the stored collection of `self` looked up.
    static func lookedUpCollection(_ value: ExprSyntax, locals: Set<String>) -> String? {
        var current = value
        while true {
            if let forced = current.as(ForceUnwrapExprSyntax.self) { current = forced.expression; continue }
            if let tried = current.as(TryExprSyntax.self) { current = tried.expression; continue }
            break
        }
        guard let call = current.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              indexLookups.contains(member.declName.baseName.text), let base = member.base else { return nil }
        return FlowFacts.selfProperty(base, locals: locals)
    }

    /// `items[index]`, `items.remove(at: index)`, `items.insert(x, at: index)`: the reference is the position of an
    /// element of the collection.
    static func usesPosition(_ reference: DeclReferenceExprSyntax, of property: String, locals: Set<String>) -> Bool {
        guard let argument = reference.parent?.as(LabeledExprSyntax.self), argument.expression.id == ExprSyntax(reference).id,
              let list = argument.parent?.as(LabeledExprListSyntax.self) else { return false }
        if let subscriptCall = list.parent?.as(SubscriptCallExprSyntax.self) {
            return FlowFacts.selfProperty(subscriptCall.calledExpression, locals: locals) == property
        }
        guard let call = list.parent?.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              positionalMethods.contains(member.declName.baseName.text), let base = member.base else { return false }
        return FlowFacts.selfProperty(base, locals: locals) == property
    }

    /// `index = ...`, `index += 1`: the name is given a new value.
    private static func isAssigned(_ reference: DeclReferenceExprSyntax) -> Bool {
        guard let list = reference.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self),
              let target = SyntaxFacts.writeTarget(sequence) else { return false }
        return target.id == ExprSyntax(reference).id
    }

    /// Whether the type's declaration (this one: the type, or the extension the function is in) moves the elements of
    /// the collection: a call of a method that shifts them (`items.remove(at:)`, `items.insert(_:at:)`, `removeAll`) or
    /// an assignment of a whole new collection outside an initializer.
    static func typeMovesElements(of property: String, in declaration: Syntax) -> Bool {
        var moves = false
        for token in declaration.tokens(viewMode: .sourceAccurate) where !moves && token.text == property {
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            var expression = ExprSyntax(reference)
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                guard let base = member.base, SyntaxFacts.isSelf(base) else { continue }
                expression = ExprSyntax(member)
            }
            if let member = expression.parent?.as(MemberAccessExprSyntax.self), member.base?.id == expression.id,
               shiftingMethods.contains(member.declName.baseName.text), member.parent?.is(FunctionCallExprSyntax.self) == true {
                moves = true
            } else if let list = expression.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self),
                      SyntaxFacts.assignment(sequence)?.target.id == expression.id, !isInInitializer(sequence) {
                moves = true
            }
        }
        return moves
    }

    private static func isInInitializer(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let parent = current {
            if parent.is(InitializerDeclSyntax.self) { return true }
            if parent.is(FunctionDeclSyntax.self) || parent.is(AccessorDeclSyntax.self) { return false }
            current = parent.parent
        }
        return false
    }

    /// The graph nodes of a syntax node, or of the nearest enclosing node the graph made one for.
    private static func graphNodes(of node: Syntax, in built: BuiltControlFlowGraph) -> [Int] {
        var current: Syntax? = node
        while let candidate = current {
            let nodes = built.nodes(for: candidate)
            if !nodes.isEmpty { return nodes }
            current = candidate.parent
        }
        return []
    }
}
