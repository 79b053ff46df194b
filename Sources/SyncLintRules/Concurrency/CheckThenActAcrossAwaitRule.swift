import SwiftSyntax

/// A check of actor state, a suspension, then a write of the same state: reentrancy's classic race.
public final class CheckThenActAcrossAwaitRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "check_then_act_across_await",
        name: "Check Then Act Across Await",
        whatItDoes: """
            In an actor or a `@MainActor` type (written, or a type with no isolation of its own in a module that \
            defaults to the main actor: Swift 6.2's `SWIFT_DEFAULT_ACTOR_ISOLATION`, `.defaultIsolation(MainActor.self)`), finds an async method that checks a stored property in a `guard` \
            or in an `if` that decides whether the write happens (one of its outcomes cannot reach it), then suspends (`await`), then writes that same property, with nothing between the check and \
            the suspension that stops a second call: no in-flight task handle cancelled or awaited, and no \
            assignment to a property the check also reads (a flag such as `isLoading`).
            """,
        whyIsThisBad: """
            An actor runs other calls while a method is suspended. Two calls both pass the check before either \
            writes, so the work runs twice and the later write wins with whichever result arrives last: a \
            double load, and a spinner that may never stop.
            """,
        seed: "000, 001",
        // Opt-in until narrowed further: 1 of 8 findings right on eight public apps: the callers held an in-flight flag, or a flag set before the suspension already guarded the method (docs/precision.md).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    var articleContent: String?
                    var isLoading = false
                    func loadContent() async {
                        ↓guard articleContent == nil else { return }
                        isLoading = true
                        let content = await service.fetchContent()
                        articleContent = content
                        isLoading = false
                    }
                }
                """),
            RuleExample("""
                actor TokenStore {
                    private var token: String?
                    func validToken() async throws -> String {
                        ↓if let token { return token }
                        let fresh = try await api.refreshToken()
                        token = fresh
                        return fresh
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Cache {
                    var value: Data?
                    var isOnline = true
                    func load() async {
                        ↓guard value == nil else { return }
                        if !isOnline { await connectivity.wait() }
                        value = store.read()
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @MainActor final class PagesModel {
                    var pages: [Page] = []
                    var previous: [Page] = []
                    func load(_ chapter: Chapter) async {
                        if !pages.isEmpty { previous = pages }
                        pages = await loader.pages(of: chapter)
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Cache {
                    var value: Data?
                    var isOnline = true
                    func load() async {
                        guard value == nil else { return }
                        guard isOnline else {
                            await connectivity.report()
                            return
                        }
                        value = store.read()
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    var articleContent: String?
                    var isLoading = false
                    func loadContent() async {
                        guard !isLoading, articleContent == nil else { return }
                        isLoading = true
                        let content = await service.fetchContent()
                        articleContent = content
                        isLoading = false
                    }
                }
                """),
            RuleExample("""
                actor TokenStore {
                    private var token: String?
                    private var refreshTask: Task<String, Error>?
                    func validToken() async throws -> String {
                        if let token { return token }
                        if let refreshTask { return try await refreshTask.value }
                        let task = Task { try await api.refreshToken() }
                        refreshTask = task
                        let fresh = try await task.value
                        token = fresh
                        return fresh
                    }
                }
                """),
            RuleExample("""
                final class Cache {
                    var value: Data?
                    func load() async {
                        guard value == nil else { return }
                        value = await fetch()
                    }
                }
                """),
        ],
        knownLimitations: """
            Only the method's own statements count: a guard in a caller, or a write in a helper, is not seen. \
            Any `cancel()` call or an `await` of a task's `value` between the check and the suspension counts as \
            protection, whether or not it is the right task. A class with no actor isolation is not checked; \
            `check_then_act` races there are data races the compiler's checks find. \
            Opt-in: 1 of 8 findings right on eight public apps: the callers held an in-flight flag, or a flag set before the suspension already guarded the method; see docs/precision.md.
            """,
        messages: [checkThenAct])
    static let checkThenAct = RuleMessage("check_then_act", "`{property}` is checked here, then written after an `await`: a second call can pass the check meanwhile; set an in-progress flag the check reads before suspending, or keep and await the in-flight task")

    public static let nodeKinds: Set<SyntaxKind> = [.functionDecl]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let function = node.as(FunctionDeclSyntax.self), let body = function.body,
              function.signature.effectSpecifiers?.asyncSpecifier != nil,
              let type = context.scope.currentType,
              !function.modifiers.contains(where: { $0.name.text == "nonisolated" }) else { return }
        // Isolated as written, or (a type with no isolation of its own, not a view) by a module that defaults to the
        // main actor (Swift 6.2), which only the index knows.
        let isolatedAsWritten = type.isActor || type.isMainActor || SyntaxFacts.hasAttribute("MainActor", function.attributes)
        guard isolatedAsWritten || (!type.isView && !type.isNonisolated && !SyntaxFacts.hasAttribute("concurrent", function.attributes))
        else { return }
        let isolation: IndexCondition? = isolatedAsWritten ? nil : .moduleDefaultsToMainActor(file: context.path)
        var locals = FlowFacts.localNames(in: body)
        for parameter in function.signature.parameterClause.parameters { locals.insert((parameter.secondName ?? parameter.firstName).text) }
        var checks: [(node: Syntax, reads: Set<String>)] = []
        var events: [(position: AbsolutePosition, kind: Event, node: Syntax)] = []
        BodyScanner.scan(body) { node in
            if let guardStatement = node.as(GuardStmtSyntax.self) {
                checks.append((node, Self.propertiesRead(guardStatement.conditions, locals: locals)))
            } else if let ifExpression = node.as(IfExprSyntax.self) {
                checks.append((node, Self.propertiesRead(ifExpression.conditions, locals: locals)))
            } else if let suspension = node.as(AwaitExprSyntax.self) {
                let awaitsTaskValue = suspension.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "value"
                events.append((node.positionAfterSkippingLeadingTrivia, awaitsTaskValue ? .protection : .suspension, node))
            } else if let call = node.as(FunctionCallExprSyntax.self), context.calleeMethodName(call) == "cancel" {
                events.append((node.positionAfterSkippingLeadingTrivia, .protection, node))
            } else if let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
                      let property = FlowFacts.selfProperty(target, locals: locals) {
                events.append((node.positionAfterSkippingLeadingTrivia, .write(property), node))
            }
        }
        let typeName = type.qualifiedName
        for check in checks where !check.reads.isEmpty {
            // Events after the checking statement (not in its own body), asked of the graph: a path from the check
            // through a suspension to a write of what it read, with no protection before the suspension. A
            // protection or an `await` in another branch, or in a `guard`'s `else` that leaves, is not on it.
            let later = events.filter { $0.position > check.node.endPosition }
            guard let built = context.controlFlowGraph(of: function),
                  let property = Self.unprotectedWrite(after: check, events: later, in: built) else { continue }
            let keyword = check.node.as(GuardStmtSyntax.self)?.guardKeyword ?? check.node.as(IfExprSyntax.self)?.ifKeyword
            guard let keyword else { continue }
            context.report(keyword, Self.checkThenAct, ["property": property], when: Self.condition(.someStoredVar([property], ofType: typeName), isolation))
            return
        }
    }

    /// The first property the check reads that some path writes after a suspension, when a path from the check
    /// reaches that suspension with no protection on it.
    private static func unprotectedWrite(after check: (node: Syntax, reads: Set<String>),
                                         events: [(position: AbsolutePosition, kind: Event, node: Syntax)],
                                         in built: BuiltControlFlowGraph) -> String? {
        let graph = built.graph
        let conditions = check.node.as(GuardStmtSyntax.self)?.conditions ?? check.node.as(IfExprSyntax.self)?.conditions
        let starts = conditions.map { $0.flatMap { built.nodes(for: $0) } } ?? []
        var protections: Set<Int> = []
        var suspensions: [Int] = []
        var writes: [(property: String, nodes: Set<Int>)] = []
        for event in events {
            let nodes = built.nodes(for: event.node)
            switch event.kind {
            case .protection: protections.formUnion(nodes)
            case .suspension: suspensions.append(contentsOf: nodes)
            case .write(let property):
                guard check.reads.contains(property) else { continue }
                protections.formUnion(nodes)
                writes.append((property, Set(nodes)))
            }
        }
        let beforeProtection = starts.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: { protections.contains($0.id) })) }
        let afterSuspension = suspensions.filter(beforeProtection.contains)
            .reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1)) }
        // An `if` whose outcomes all go on to the write does not decide whether it happens: a second call passing
        // it changes nothing (`if !pages.isEmpty { keep(pages) }` before `pages = await load()`). A `guard`'s `else`
        // leaves, so a guard decides by construction.
        if check.node.is(IfExprSyntax.self), let last = starts.last {
            let outcomes = graph.successors[last].map(\.to)
            let allReach = { (targets: Set<Int>) in outcomes.allSatisfy { !graph.reachable(from: $0).isDisjoint(with: targets) } }
            return writes.first { !$0.nodes.isDisjoint(with: afterSuspension) && !allReach($0.nodes) }?.property
        }
        return writes.first { !$0.nodes.isDisjoint(with: afterSuspension) }?.property
    }

    private enum Event {
        case suspension
        case protection
        case write(String)
    }

    /// Stored properties of `self` a condition list reads, including `if let token` shorthand.
    static func propertiesRead(_ conditions: ConditionElementListSyntax, locals: Set<String>) -> Set<String> {
        var reads: Set<String> = []
        for condition in conditions {
            if let binding = condition.condition.as(OptionalBindingConditionSyntax.self) {
                if binding.initializer == nil, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                   !locals.contains(name) {
                    reads.insert(name)
                }
                if let value = binding.initializer?.value, let property = FlowFacts.selfProperty(value, locals: locals) { reads.insert(property) }
                continue
            }
            for token in condition.tokens(viewMode: .sourceAccurate) {
                guard case .identifier = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                let expression = ExprSyntax(reference)
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                    if let base = member.base, SyntaxFacts.isSelf(base) { reads.insert(reference.baseName.text) }
                    continue
                }
                if let property = FlowFacts.selfProperty(expression, locals: locals) { reads.insert(property) }
            }
        }
        return reads
    }

    /// The finding's condition, and the module's default isolation when the code is isolated only by it.
    static func condition(_ condition: IndexCondition, _ isolation: IndexCondition?) -> IndexCondition {
        isolation.map { .all([condition, $0]) } ?? condition
    }
}
