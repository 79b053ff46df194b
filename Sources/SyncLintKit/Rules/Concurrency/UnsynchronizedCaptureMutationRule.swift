import SwiftSyntax

/// A local `var` mutated from closures that run concurrently.
public final class UnsynchronizedCaptureMutationRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "unsynchronized_capture_mutation",
        name: "Unsynchronized Capture Mutation",
        whatItDoes: """
            Finds a local `var` captured and mutated inside closures that run concurrently: \
            `DispatchQueue.*.async`, `DispatchQueue.concurrentPerform`, `group.addTask`, `Task.detached`, or \
            completion handlers (closures passed as `completion:`/`handler:`/`callback:`, and non-isolated \
            `Task`s) started in a loop.
            """,
        whyIsThisBad: """
            Each closure reads and writes the same variable with no synchronization: increments are lost and \
            a "when all have finished" check fires twice or never (a dice app's pattern guide: the \
            completion counter). Count with a task group, or keep the counter on the main actor. In Swift 6 language mode \
            the compiler already rejects this for `@Sendable` closures (\"mutation of captured var in \
            concurrently-executing code\"); SyncLint also finds it in Swift 5 mode and in completion handlers the \
            compiler cannot see are concurrent.
            """,
        seed: "002",
        triggeringExamples: [
            RuleExample("""
                func rollAllWithAnimation(completion: @escaping () -> Void) {
                    var completedCount = 0  // ❌ Not thread-safe!
                    for die in dice {
                        DispatchQueue.main.async {
                            die.animateRoll {
                                ↓completedCount += 1  // ❌ Race condition!
                                if completedCount == totalCount { completion() }
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                func checksum(_ chunks: [Data]) -> Int {
                    var total = 0
                    DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
                        ↓total += chunks[index].count
                    }
                    return total
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                func total(of queue: DispatchQueue, parts: [Int]) -> Int {
                    var sum = 0
                    for part in parts {
                        queue.sync { sum += part }
                    }
                    return sum
                }
                """),
            RuleExample("""
                @MainActor
                func rollAllWithAnimation(completion: @escaping () -> Void) {
                    var completedCount = 0  // Main-actor isolated
                    let totalCount = dice.filter { !$0.locked }.count
                    for die in dice where !die.locked {
                        Task {
                            await die.animateRoll()
                            completedCount += 1
                            if completedCount == totalCount { completion() }
                        }
                    }
                }
                """),
            RuleExample("""
                func total(of values: [Int]) -> Int {
                    var sum = 0
                    values.forEach { sum += $0 }
                    DispatchQueue.main.async { print("done") }
                    return sum
                }
                """),
            RuleExample("""
                func load() {
                    DispatchQueue.global().async {
                        var buffer: [UInt8] = []
                        buffer.append(1)
                        self.items.append(contentsOf: buffer)
                    }
                }
                """),
        ],
        knownLimitations: """
            Only mutations of the variable itself (`x = `, `x += `) are found, not mutating method calls on it. \
            A trailing-closure completion handler is not recognized (most trailing closures run before their \
            function returns: on swift-nio and async-http-client, every one was synchronous). A completion handler \
            called on one serial queue is reported when started in a loop, though it would not race.
            """,
        // A deadlock or a lost update fails a test run as surely as an app: tests are checked too.
        appliesTo: [.app, .tests])

    public static let nodeKinds: Set<SyntaxKind> = [.sequenceExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
              let name = target.as(DeclReferenceExprSyntax.self)?.baseName.text,
              let function = context.scope.currentFunction, let body = function.body else { return }
        let closures = context.scope.closures
        guard let outermost = closures.last,
              let declaration = Self.localVarDeclaration(name, in: body), declaration < outermost.node.position else { return }
        let isolated = context.scope.isMainActorIsolated || context.scope.currentType?.isActor == true
        let concurrent = closures.contains { closure in
            // `queue.sync { }` runs the closure before the caller goes on: never concurrently with it.
            if let call = closure.call, ["sync", "asyncAndWait", "performAndWait"].contains(SyntaxFacts.calleeMethodName(call)) { return false }
            switch closure.kind {
            case .backgroundQueue, .taskGroupChild, .detachedTask: return true
            case .mainQueue: return Self.startedInLoop(closure, after: declaration)
            case .task: return !isolated && Self.startedInLoop(closure, after: declaration)
            case .other:
                return Self.isCompletionHandler(closure) && Self.startedInLoop(closure, after: declaration)
            default: return false
            }
        }
        guard concurrent else { return }
        context.report(target, "`\(name)` is mutated from closures that run concurrently, so updates race; count with a task group or keep it on one actor")
    }

    /// A closure passed as `completion:`, `completionHandler:`, `handler:` or `callback:`: called later, on any thread.
    /// Trailing closures are not counted: most are called before their function returns (`withNextBuffer { }`).
    static func isCompletionHandler(_ closure: ClosureScope) -> Bool {
        guard let label = closure.node.parent?.as(LabeledExprSyntax.self)?.label?.text.lowercased() else { return false }
        return label.contains("completion") || label.contains("handler") || label.contains("callback")
    }

    /// Where `var name` is declared directly in the function body (not inside a closure).
    static func localVarDeclaration(_ name: String, in body: CodeBlockSyntax) -> AbsolutePosition? {
        var position: AbsolutePosition?
        BodyScanner.scan(body) { node in
            guard let binding = node.as(PatternBindingSyntax.self),
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
                  binding.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.var) else { return }
            position = node.position
        }
        return position
    }

    /// A closure passed to a call inside a loop that began after the variable was declared.
    static func startedInLoop(_ closure: ClosureScope, after declaration: AbsolutePosition) -> Bool {
        var current = Syntax(closure.node)
        while let parent = current.parent {
            if parent.is(FunctionDeclSyntax.self) || parent.is(ClosureExprSyntax.self) { return false }
            if let loop = parent.as(ForStmtSyntax.self), loop.position > declaration { return true }
            if let loop = parent.as(WhileStmtSyntax.self), loop.position > declaration { return true }
            current = parent
        }
        return false
    }
}
