import SwiftSyntax

/// In an actor or main-actor method: `let copy = property`, an `await`, then `property = <from copy>`: the write
/// puts back a value read before the suspension and loses whatever another call changed meanwhile.
public final class StaleSnapshotWriteAcrossAwaitRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "stale_snapshot_write_across_await",
        name: "Stale Snapshot Write Across Await",
        whatItDoes: """
            In an actor or a `@MainActor` type (written, or a type with no isolation of its own in a module that \
            defaults to the main actor: Swift 6.2's `SWIFT_DEFAULT_ACTOR_ISOLATION`, `.defaultIsolation(MainActor.self)`), finds an async method that copies a stored property into a local \
            (`var items = self.items`), and on some path after an `await` writes the property back from that copy \
            (`self.items = items`, `balance = current - fee`), without reading the property again on the way; and \
            `property = property + await f()`, where the left operand is read before the suspension. A re-check after \
            the `await` (a condition that reads the property on every path to the write) keeps it quiet.
            """,
        whyIsThisBad: """
            An actor runs other calls while a method is suspended (actor reentrancy: Apple's Swift book, \
            "Actors"; SE-0306). A second call that changes the property during the `await` has its change \
            overwritten by the stale copy: an item appended twice is kept once, a counter loses increments, a \
            cache drops the entries another load stored. Change the property in place after the `await` \
            (`items.append(contentsOf: loaded)`), or read it again after suspending and merge.
            """,
        seed: "issue 23 candidate 13",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                actor Inbox {
                    private var messages: [Message] = []
                    func refresh() async throws {
                        var updated = messages
                        let fresh = try await api.fetchNew()
                        updated.append(contentsOf: fresh)
                        ↓messages = updated
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Wallet {
                    var balance = 0
                    func pay(_ invoice: Invoice) async {
                        let current = balance
                        let fee = await pricing.fee(for: invoice)
                        ↓self.balance = current - invoice.amount - fee
                    }
                    func add(_ amount: Int) async {
                        ↓balance = balance + (await bonus.amount(for: amount))
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                actor Inbox {
                    private var messages: [Message] = []
                    func refresh() async throws {
                        let fresh = try await api.fetchNew()
                        messages.append(contentsOf: fresh)
                    }
                    func reload() async throws {
                        let before = messages
                        let fresh = try await api.fetchAll()
                        guard messages == before else { return }
                        messages = fresh
                    }
                    func trim() {
                        var kept = messages
                        kept.removeFirst()
                        messages = kept
                    }
                }
                """),
            RuleExample("""
                final class Wallet {
                    var balance = 0
                    func pay(_ invoice: Invoice) async {
                        let current = balance
                        let fee = await pricing.fee(for: invoice)
                        balance = current - fee
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Wallet {
                    var balance = 0
                    func add(_ amount: Int) async {
                        let extra = await bonus.amount(for: amount)
                        balance = balance + extra
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in. A method whose callers never overlap (one button whose task is awaited before the next tap) \
            cannot lose an update and is reported all the same. Only a copy made directly from the property \
            (`let x = property` or `self.property`) is followed, inside one method; a copy passed through a helper \
            is not.
            """,
        messages: [staleWrite])
    static let staleWrite = RuleMessage("stale_write", "`{property}` is written from a value read before an `await`: a call that changed it while this one was " +
        "suspended loses its change; change `{property}` in place after the `await`, or read it again and merge")

    public static let nodeKinds: Set<SyntaxKind> = [.functionDecl]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let function = node.as(FunctionDeclSyntax.self), let body = function.body,
              function.signature.effectSpecifiers?.asyncSpecifier != nil, let type = context.scope.currentType,
              !function.modifiers.contains(where: { $0.name.text == "nonisolated" }),
              SyntaxFacts.containsAwait(body) else { return }
        // Isolated as written, or (a type with no isolation of its own) by a module that defaults to the main actor
        // (Swift 6.2), which only the index knows.
        let isolatedAsWritten = type.isActor || type.isMainActor || type.isView || SyntaxFacts.hasAttribute("MainActor", function.attributes)
        guard isolatedAsWritten || (!type.isNonisolated && !SyntaxFacts.hasAttribute("concurrent", function.attributes)) else { return }
        let isolation: IndexCondition? = isolatedAsWritten ? nil : .moduleDefaultsToMainActor(file: context.path)
        var locals = FlowFacts.localNames(in: body)
        for parameter in function.signature.parameterClause.parameters { locals.insert((parameter.secondName ?? parameter.firstName).text) }
        // Locals copied from a property: local → (property, the declaration).
        var snapshots: [String: (property: String, node: Syntax)] = [:]
        var writes: [(property: String, target: ExprSyntax, value: [ExprSyntax])] = []
        BodyScanner.scan(body) { node in
            if let binding = node.as(PatternBindingSyntax.self), let local = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
               let value = binding.initializer?.value, Self.isPlainProperty(value),
               let property = FlowFacts.selfProperty(value, locals: locals.subtracting([local])) {
                snapshots[local] = (property, node)
            } else if let sequence = node.as(SequenceExprSyntax.self), let assignment = Self.assignment(sequence),
                      Self.isPlainProperty(assignment.target), let property = FlowFacts.selfProperty(assignment.target, locals: locals) {
                writes.append((property, assignment.target, assignment.value))
            }
        }
        guard !writes.isEmpty, let built = context.controlFlowGraph(of: function) else { return }
        let graph = built.graph
        let awaits = graph.nodes.filter { $0.kind == .await }
        guard !awaits.isEmpty else { return }
        for write in writes {
            let names = Set(write.value.flatMap { Self.names(in: $0) })
            guard let valueEnd = write.value.last?.endPosition.utf8Offset else { continue }
            let writeStart = write.target.positionAfterSkippingLeadingTrivia.utf8Offset
            // The write's node, or (for `x = a + b`, which the graph keeps as a statement) its statement's.
            let around = graph.nodes.filter { [.write, .statement].contains($0.kind) && $0.start <= writeStart && writeStart < $0.end }
            guard let writeNode = around.first(where: { $0.kind == .write }) ?? around.min(by: { $0.end - $0.start < $1.end - $1.start })
            else { continue }
            // Offsets where the property is read again (not the write's own target), each a re-check.
            let targetEnd = write.target.endPosition.utf8Offset
            let reads = Self.offsets(of: write.property, in: Syntax(body)).filter { $0 < writeStart || $0 >= targetEnd }
            let rereads = { (node: ControlFlowGraph.Node) in node.id != writeNode.id && reads.contains { node.start <= $0 && $0 < node.end } }
            // `property = property + await f()`: the read comes first, in the same expression.
            if names.contains(write.property), let firstRead = write.value.flatMap({ Self.offsets(of: write.property, in: Syntax($0)) }).min(),
               awaits.contains(where: { $0.start > firstRead && $0.end <= valueEnd }) {
                context.report(write.target, Self.staleWrite, ["property": write.property],
                               when: Self.condition(.someStoredVar([write.property], ofType: type.qualifiedName), isolation))
                continue
            }
            guard !names.contains(write.property) else { continue }
            let copies = snapshots.filter { $0.value.property == write.property && names.contains($0.key) }
            let stale = copies.contains { copy in
                let copyStart = copy.value.node.positionAfterSkippingLeadingTrivia.utf8Offset
                let copyNodes = graph.nodes.filter { $0.kind == .statement && $0.start <= copyStart && copyStart < $0.end }.map(\.id)
                return awaits.contains { suspension in
                    copyNodes.contains { graph.hasPath(from: $0, to: suspension.id) }
                        && graph.hasPath(from: suspension.id, to: writeNode.id, avoiding: rereads)
                }
            }
            if stale {
                context.report(write.target, Self.staleWrite, ["property": write.property],
                               when: Self.condition(.someStoredVar([write.property], ofType: type.qualifiedName), isolation))
            }
        }
    }

    /// `target = value`, the value as the sequence's elements after `=` (`current - fee` stays unfolded).
    static func assignment(_ sequence: SequenceExprSyntax) -> (target: ExprSyntax, value: [ExprSyntax])? {
        let elements = Array(sequence.elements)
        guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) else { return nil }
        return (elements[0], Array(elements.dropFirst(2)))
    }

    /// `name` or `self.name`: the property itself, not a member of it.
    static func isPlainProperty(_ expression: ExprSyntax) -> Bool {
        if expression.is(DeclReferenceExprSyntax.self) { return true }
        guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base else { return false }
        return SyntaxFacts.isSelf(base)
    }

    static func names(in expression: ExprSyntax) -> Set<String> {
        Set(expression.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .identifier(let name) = token.tokenKind { return name }
            return nil
        })
    }

    /// Offsets of `name` used as `name` or `self.name` (not `other.name`).
    static func offsets(of name: String, in node: Syntax) -> [Int] {
        node.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard token.text == name, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return nil }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id,
               let base = member.base, !SyntaxFacts.isSelf(base) { return nil }
            return token.positionAfterSkippingLeadingTrivia.utf8Offset
        }
    }

    /// The finding's condition, and the module's default isolation when the code is isolated only by it.
    static func condition(_ condition: IndexCondition, _ isolation: IndexCondition?) -> IndexCondition {
        isolation.map { .all([condition, $0]) } ?? condition
    }
}
