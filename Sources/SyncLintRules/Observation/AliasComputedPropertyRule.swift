import SwiftSyntax

/// A computed property that only returns another stored property: duplicated state, not derived state.
public final class AliasComputedPropertyRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "alias_computed_property",
        name: "Alias Computed Property",
        whatItDoes: """
            Finds a computed property whose body only returns another stored property of the same type \
            (`@State`, `@Published` or plain), in a view or an observable or model type.
            """,
        whyIsThisBad: """
            A property named for what it should compute (`isAnyDieAnimating`) that just returns a separate flag \
            (`isAnimating`) keeps a second copy of the truth, which drifts from the real source (the dice) as soon \
            as one update forgets it. Opt-in: a plain alias kept for API compatibility or readability is common and fine.
            """,
        seed: "002",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                struct ContentView: View {
                    @State private var diceGroup: DiceGroup
                    @State private var isAnimating: Bool = false  // ❌ Duplicate state

                    var ↓isAnyDieAnimating: Bool {
                        isAnimating  // ❌ Doesn't check actual dice state
                    }
                }
                """),
            RuleExample("""
                final class PlayerModel: ObservableObject {
                    @Published var playing = false
                    var ↓isBusy: Bool { return self.playing }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                struct ContentView: View {
                    @State private var diceGroup: DiceGroup

                    var isAnyDieAnimating: Bool {
                        diceGroup.dice.contains { $0.isAnimating }  // ✓ Computes from source
                    }
                }
                """),
            RuleExample("""
                struct Header: View {
                    let title: String
                    var body: some View { Text(title) }
                    var label: String { title.uppercased() }
                }
                """),
            RuleExample("""
                struct Settings {
                    var volume = 0.5
                    var level: Double { volume }
                }
                """),
        ],
        knownLimitations: """
            Off by default. Only a body that is a single bare or `self.` reference counts; an alias that renames a \
            property on purpose (for a protocol requirement, say) is reported when the rule is on.
            """,
        messages: [aliasOfStoredState])
    static let aliasOfStoredState = RuleMessage("alias_of_stored_state", "`{name}` only returns the stored `{target}`: a second copy of state, not derived state; compute it from the source of truth or use `{target}` directly")

    public static let nodeKinds: Set<SyntaxKind> = [.patternBinding]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let binding = node.as(PatternBindingSyntax.self), let block = binding.accessorBlock,
              case .getter(let statements) = block.accessors, statements.count == 1, let statement = statements.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let type = context.scope.currentType, type.isView || type.isObservable || type.isSwiftDataModel,
              context.scope.frames.count >= 2, case .type = context.scope.frames[context.scope.frames.count - 2] else { return }
        var expression = Syntax(statement.item).as(ExprSyntax.self)
        if let returned = Syntax(statement.item).as(ReturnStmtSyntax.self) { expression = returned.expression }
        guard let expression, let path = SyntaxFacts.memberPath(expression) else { return }
        let target: String
        if path.root == "self", path.members.count == 1 { target = path.members[0] }
        else if path.members.isEmpty { target = path.root }
        else { return }
        let stored = ViewProperties(typeNode: type.node).types.keys.contains(target)
            || ViewProperties(typeNode: type.node).owned.contains(target) || ViewProperties(typeNode: type.node).injected[target] != nil
        guard stored, target != name else { return }
        context.report(binding.pattern, Self.aliasOfStoredState, ["name": name, "target": target])
    }
}
