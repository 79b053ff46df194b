import SwiftSyntax

/// A local `var` mutated from closures that run concurrently.
public final class UnsynchronizedCaptureMutationRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "unsynchronized_capture_mutation",
        name: "Unsynchronized Capture Mutation",
        whatItDoes: """
            Finds a local `var` captured and mutated inside closures that run concurrently: \
            `DispatchQueue.*.async`, `DispatchQueue.concurrentPerform`, `group.addTask`, `Task.detached`, or \
            completion handlers (closures passed as `completion:`/`handler:`/`callback:`, trailing closures passed \
            to a project function whose last parameter is `@escaping`, and non-isolated `Task`s: not in main-actor code, written or by the module's default isolation) started in a loop.
            """,
        whyIsThisBad: """
            Each closure reads and writes the same variable with no synchronization: increments are lost and \
            a "when all have finished" check fires twice or never. Count with a task group, or keep the counter on the main actor. In Swift 6 language mode \
            the compiler already rejects this for `@Sendable` closures (\"mutation of captured var in \
            concurrently-executing code\"); SyncLint also finds it in Swift 5 mode and in completion handlers the \
            compiler cannot see are concurrent.
            """,
        seed: "002",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
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
            RuleExample("""
                final class FeedAPI {
                    func load(_ feed: URL, completion: @escaping (Result<Data, Error>) -> Void) {
                        URLSession.shared.dataTask(with: feed) { data, _, _ in completion(.success(data ?? Data())) }.resume()
                    }
                }
                final class FeedRefresher {
                    let api = FeedAPI()
                    func refreshAll(_ feeds: [URL], done: @escaping () -> Void) {
                        var completedCount = 0
                        for feed in feeds {
                            api.load(feed) { _ in
                                ↓completedCount += 1
                                if completedCount == feeds.count { done() }
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                func loadDashboard() async -> [Post] {
                    var posts: [Post] = []
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { ↓posts = await api.posts() }
                        group.addTask { ↓posts = await api.pinnedPosts() }
                    }
                    return posts
                }
                """),
            RuleExample("""
                func totalSize(_ files: [URL]) async -> Int {
                    var total = 0
                    await withTaskGroup(of: Void.self) { group in
                        for file in files {
                            group.addTask { ↓total += await size(of: file) }
                        }
                    }
                    return total
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                func loadDashboard() async -> (Profile?, [Post]) {
                    var profile: Profile?
                    var posts: [Post] = []
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { profile = await api.profile() }
                        group.addTask { posts = await api.posts() }
                    }
                    return (profile, posts)
                }
                """),
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
            RuleExample("""
                final class FeedAPI {
                    func cached(_ feed: URL, _ body: (Data?) -> Void) { body(nil) }
                    func load(_ feed: URL, completion: @escaping (Data?) -> Void) { completion(nil) }
                }
                final class FeedRefresher {
                    let api = FeedAPI()
                    func countCached(_ feeds: [URL]) -> Int {
                        var hits = 0
                        for feed in feeds {
                            api.cached(feed) { data in if data != nil { hits += 1 } }
                        }
                        return hits
                    }
                    @MainActor func refreshAll(_ feeds: [URL]) {
                        var completedCount = 0
                        for feed in feeds {
                            api.load(feed) { _ in completedCount += 1 }
                        }
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21): 4 findings, all wrong (completions delivered on one serial or main queue). \
            A task-group child added once (not in a loop) that is the only code of the group's body naming the \
            variable is not reported: the group's end orders its write before the reads after it. \
            Only mutations of the variable itself (`x = `, `x += `) are found, not mutating method calls on it. \
            A trailing closure counts only when the function it is passed to is the project's own and declares its \
            last parameter `@escaping` (or an optional closure): most trailing closures run before their function \
            returns (on swift-nio and async-http-client, every one was synchronous), and an SDK method's trailing \
            closure (`dataTask(with:) { }`) is not recognized. A trailing closure in main-actor code is not reported. A completion handler \
            called on one serial queue is reported when started in a loop, though it would not race. A closure taken to run concurrently only because its argument label says `completion`, `handler` or \
            `callback` gives a medium-confidence finding (shown with `--confidence medium`).
            """,
        // A deadlock or a lost update fails a test run as surely as an app: tests are checked too.
        appliesTo: [.app, .tests],
        messages: [racingMutation])
    static let racingMutation = RuleMessage("racing_mutation", "`{name}` is mutated from closures that run concurrently, so updates race; count with a task group or keep it on one actor")

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
        // Code with no isolation of its own is main-actor code in a module that defaults to it (Swift 6.2): only the
        // index knows, so a race that needs the code unisolated (tasks that inherit its actor) holds when it does not.
        let unisolatedUnlessDefault: IndexCondition?
        switch ExecutionContexts.current(in: context) {
        case .typeIsolation, .moduleDefault: unisolatedUnlessDefault = isolated ? nil : .not(.moduleDefaultsToMainActor(file: context.path))
        default: unisolatedUnlessDefault = nil
        }
        let concurrentClosures = closures.filter { closure in
            // `queue.sync { }` runs the closure before the caller goes on: never concurrently with it.
            if let call = closure.call, ["sync", "asyncAndWait", "performAndWait"].contains(SyntaxFacts.calleeMethodName(call)) { return false }
            switch closure.kind {
            case .backgroundQueue, .detachedTask: return true
            case .taskGroupChild: return !Self.isOnlyChildTouching(name, child: closure, in: closures, after: declaration)
            case .mainQueue: return Self.startedInLoop(closure, after: declaration)
            case .task: return !isolated && Self.startedInLoop(closure, after: declaration)
            case .other:
                return Self.isCompletionHandler(closure) && Self.startedInLoop(closure, after: declaration)
            default: return false
            }
        }
        if !concurrentClosures.isEmpty {
            // A closure taken for a completion handler only by its argument label (`completion:`) is a guess: medium.
            let byLabelOnly = concurrentClosures.allSatisfy { if case .other = $0.kind { return true } else { return false } }
            let onlyTasks = concurrentClosures.allSatisfy { $0.kind == .task }
            context.report(target, Self.racingMutation, ["name": name], when: onlyTasks ? unisolatedUnlessDefault : nil,
                           confidence: byLabelOnly ? .medium : .high)
            return
        }
        // A trailing closure started in a loop, passed to a project function whose last parameter escapes
        // (`api.load(item) { _ in count += 1 }`): each runs later, on whatever thread the function calls it from.
        guard !isolated, let closure = closures.first(where: { Self.isTrailing($0.node) && Self.startedInLoop($0, after: declaration) }),
              closures.prefix(while: { $0.node.id != closure.node.id }).allSatisfy({ Self.isPassThrough($0) }),
              let call = closure.call, let callee = Self.callee(of: call, context: context) else { return }
        let callerType = context.scope.currentType?.qualifiedName
        context.report(target, Self.racingMutation, ["name": name],
                       when: .lastParameterEscapes(callee: callee.name, receiver: callee.receiver, callerType: callerType))
    }

    /// A task-group child, added once (not in a loop), that is the only code in the group's body to name the
    /// variable: no sibling writes or reads it while it runs, and the group's end orders its write before any
    /// read after `withTaskGroup` returns (each child filling its own result variable).
    static func isOnlyChildTouching(_ name: String, child: ClosureScope, in closures: [ClosureScope], after declaration: AbsolutePosition) -> Bool {
        guard !startedInLoop(child, after: declaration),
              let index = closures.firstIndex(where: { $0.node.id == child.node.id }), index + 1 < closures.count else { return false }
        let groupBody = closures[index + 1].node
        return !groupBody.tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .identifier(name) && !token.isInside(child.node)
        }
    }

    /// `call { }` or `call(x) { }` (also the first of several trailing closures).
    static func isTrailing(_ closure: ClosureExprSyntax) -> Bool {
        closure.parent?.as(FunctionCallExprSyntax.self)?.trailingClosure?.id == closure.id
    }

    /// Closures nested in the trailing closure that run right where they stand (`forEach`, `if` helpers).
    static func isPassThrough(_ closure: ClosureScope) -> Bool {
        if case .other = closure.kind { return !isCompletionHandler(closure) && !isTrailing(closure.node) }
        return false
    }

    /// The called function's name and receiver type: nil receiver for `load(x)` or `self.load(x)`; a known
    /// type for `api.load(x)`; nil as a whole when the receiver's type is unknown.
    static func callee(of call: FunctionCallExprSyntax, context: FileContext) -> (name: String, receiver: ValueType?)? {
        let name = context.calleeMethodName(call)
        if call.calledExpression.is(DeclReferenceExprSyntax.self) { return (name, nil) }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        if SyntaxFacts.isSelf(base) { return (name, nil) }
        let type = ValueTypes.of(base, in: context)
        return type.isKnown ? (name, type) : nil
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
