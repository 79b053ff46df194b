import SwiftSyntax

/// A looping `Task` whose handle is thrown away and that never checks for cancellation.
public final class UncancellableTaskLoopRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "uncancellable_task_loop",
        name: "Uncancellable Task Loop",
        whatItDoes: """
            Finds a `Task { }` whose handle is thrown away and whose body loops forever (`while true`, a `while` \
            or `repeat` on state the task does not own, or `for await` over a sequence) with `Task.sleep` or \
            `for await`, and never tests `Task.isCancelled` or calls `Task.checkCancellation()`; such a task whose \
            bounded loop changes `self`'s state step by step with `Task.sleep` (an animation); and a \
            `DispatchQueue` `asyncAfter` closure that calls the function it was scheduled in again (a self-rescheduling \
            chain) when no condition on `self`'s state can stop it.
            """,
        whyIsThisBad: """
            Nothing holds the task, so nothing can cancel it, and it does not look for cancellation anyway: it \
            polls or listens for the rest of the process, keeps what it captured alive, and keeps working after \
            the screen or object it served is gone. A bounded animation loop or a self-rescheduling `asyncAfter` chain \
            ends by itself, but nothing can stop it early, and calling it again starts a second run interleaved \
            with the first: two loops write the same value in turn.
            """,
        seed: "002",
        // Opt-in until measured on more code: 1 of 2 findings right on the calibration apps; the wrong one (a `for await` over a local stream its own producer finishes) is narrowed away, leaving 1 of 1 (docs/precision.md).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                func startPolling() {
                    ↓Task {
                        while true {
                            await refresh()
                            try? await Task.sleep(for: .seconds(30))
                        }
                    }
                }
                """),
            RuleExample("""
                func observeChanges() {
                    ↓Task {
                        for await _ in NotificationCenter.default.notifications(named: .NSPersistentStoreRemoteChange) {
                            await reload()
                        }
                    }
                }
                """),
            RuleExample("""
                @Observable final class Die {
                    var value = 1
                    func roll() {
                        ↓Task {
                            for _ in 1...10 {
                                value = Int.random(in: 1...6)
                                try? await Task.sleep(for: .milliseconds(50))
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                @Model final class Die {
                    var value: Int = 1
                    func animateStep(_ step: Int) {
                        guard step < 10 else { return }
                        ↓DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) {
                            self.value = Int.random(in: 1...6)
                            self.animateStep(step + 1)
                        }
                    }
                }
                """),
            // A view model built per view: each screen starts one more endless listener.
            RuleExample("""
                final class InboxModel: ObservableObject {
                    init() {
                        ↓Task {
                            for await _ in NotificationCenter.default.notifications(named: .inboxChanged) { await reload() }
                        }
                    }
                }
                struct InboxView: View {
                    @StateObject private var model = InboxModel()
                    var body: some View { Text("Inbox") }
                }
                """),
            // The stream its own function makes is never finished: the loop waits for ever.
            RuleExample("""
                final class Library {
                    func changes() -> AsyncStream<Void> {
                        AsyncStream { continuation in
                            NotificationCenter.default.addObserver(forName: .libraryChanged, object: nil, queue: nil) { _ in continuation.yield() }
                        }
                    }
                    func watch() {
                        ↓Task {
                            for await _ in changes() { await reload() }
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            // Over a channel its own function finishes after the producer's last element: the loop ends with it.
            RuleExample("""
                enum LogParser {
                    static func rawEntries(_ lines: [String]) -> AsyncThrowingChannel<String, Error> {
                        let channel = AsyncThrowingChannel<String, Error>()
                        Task.detached {
                            for line in lines { await channel.send(line) }
                            channel.finish()
                        }
                        return channel
                    }
                    static func entries(_ lines: [String]) -> AsyncChannel<Entry> {
                        let channel = AsyncChannel<Entry>()
                        Task.detached {
                            let raw = rawEntries(lines)
                            for try await line in raw { await channel.send(Entry(line)) }
                            channel.finish()
                        }
                        return channel
                    }
                }
                """),
            // Started by the app's one-time set-up (a singleton's `init`, the delegate's launch): it is meant to run for
            // the life of the app, and no second copy can start.
            RuleExample("""
                final class Sputnik {
                    static let shared = Sputnik()
                    private init() {
                        Task {
                            for await _ in NotificationCenter.default.notifications(named: .settingsChanged) { await reload() }
                        }
                    }
                }
                final class AppDelegate: NSObject, NSApplicationDelegate {
                    func applicationDidFinishLaunching(_ notification: Notification) {
                        Task {
                            for await _ in NotificationCenter.default.notifications(named: .storeReloaded) { await regenerate() }
                        }
                    }
                }
                """),
            RuleExample("""
                func startPolling() {
                    Task {
                        while !Task.isCancelled {
                            await refresh()
                            try? await Task.sleep(for: .seconds(30))
                        }
                    }
                }
                """),
            RuleExample("""
                func startPolling() {
                    pollTask = Task {
                        while true {
                            await refresh()
                            try await Task.sleep(for: .seconds(30))
                        }
                    }
                }
                """),
            RuleExample("""
                func retry() {
                    Task {
                        var attempts = 0
                        while attempts < 3 {
                            attempts += 1
                            if await upload() { break }
                            try? await Task.sleep(for: .seconds(2))
                        }
                    }
                }
                """),
            RuleExample("""
                func upscale(_ tiles: [Tile]) -> AsyncStream<Tile> {
                    let prepared = AsyncStream<Tile> { continuation in
                        for tile in tiles { continuation.yield(tile.prepared()) }
                        continuation.finish()
                    }
                    return AsyncStream { continuation in
                        Task.detached {
                            for await tile in prepared { continuation.yield(await tile.upscaled()) }
                            continuation.finish()
                        }
                    }
                }
                """),
            RuleExample("""
                @Observable final class Die {
                    var value = 1
                    @ObservationIgnored private var rollTask: Task<Void, Never>?
                    func roll() {
                        rollTask?.cancel()
                        rollTask = Task {
                            for _ in 1...10 {
                                value = Int.random(in: 1...6)
                                try? await Task.sleep(for: .milliseconds(50))
                            }
                        }
                    }
                    func warmUp() {
                        Task {
                            var frames = 0
                            for _ in 1...3 {
                                frames += 1
                                try? await Task.sleep(for: .milliseconds(10))
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                @Model final class Die {
                    var value: Int = 1
                    var isAnimating: Bool = false
                    func animateStep(_ step: Int) {
                        guard isAnimating, step < 10 else { return }
                        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) {
                            self.value = Int.random(in: 1...6)
                            self.animateStep(step + 1)
                        }
                    }
                    func refresh(from store: DieStore) {
                        DispatchQueue.main.async { store.refresh(from: self) }
                    }
                    func storeDidChange(_ note: Notification) {
                        guard Thread.isMainThread else {
                            DispatchQueue.main.async { self.storeDidChange(note) }
                            return
                        }
                        value = 1
                    }
                }
                """),
        ],
        knownLimitations: """
            A loop that ends by a condition on outside state (`while isRunning`) is taken as endless. A task started by the app's \
            one-time set-up is not reported: in the `init` of an object with one instance for the process (the app, its \
            delegate, a singleton, a type built only as a static member's value or a property of the delegate), in the \
            delegate's launch method, or (in a program) in a method called, outside loops, only from such set-up. A stored \
            handle is not checked here: `task_self_capture` and `missing_cancellation_check` cover stored tasks. \
            A chain is stoppable when an `if`, `guard` or `while` in the function or the closure reads `self`'s \
            state (`guard isAnimating`); a chain through a `DispatchWorkItem` is cancellable and never reported. \
            A `for await` over a local `AsyncStream` of the same function whose build closure calls `finish()` ends and \
            is not reported, nor one over a stream or channel made and finished by a function of the same file \
            (`for await x in parse(url)`); a stream from elsewhere is taken as endless. \
            Opt-in: 1 of 2 findings right on the calibration apps; the wrong one, a `for await` over a local stream its own producer finishes, is no longer reported, and one judged finding is too few to turn the rule on; see docs/precision.md.
            """,
        messages: [endlessLoop, steppedAnimation, reschedulingChain])
    static let endlessLoop = RuleMessage("endless_loop", "nothing can stop this looping task: its handle is thrown away and it never checks for cancellation; keep the handle and cancel it, test `Task.isCancelled` in the loop, or use `.task { }` in a view")
    static let steppedAnimation = RuleMessage("stepped_animation", "this task changes `{property}` step by step with pauses, but its handle is thrown away: a second call runs a second loop interleaved with the first, and nothing can stop either; store the task, cancel it before starting another, and test `Task.isCancelled` in the loop")
    static let reschedulingChain = RuleMessage("rescheduling_chain", "this closure schedules `{function}` again: nothing can cancel the chain, and a second call runs a second chain interleaved with the first; drive the steps from one stored `Task` with `Task.sleep`, cancelled before starting another")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self) else { return }
        if !TaskFacts.isTaskCreation(call, context: context) {
            reportReschedulingChain(call, context: context)
            return
        }
        guard Self.isDiscarded(call), let closure = SyntaxFacts.closures(of: call).first else { return }
        let locals = FlowFacts.localNames(in: closure.statements)
        var loopsForever = false
        // Streams made by a project function (`for await line in parse(url)`): endless unless that function finishes
        // what it returns, which the index knows once every file is read.
        var madeStreams: [String] = []
        var checksCancellation = false
        var animated: String?
        let outside = Self.namesOutsideSelf(closure, function: context.scope.currentFunction)
        BodyScanner.scan(closure.statements) { node in
            if FlowFacts.isCancellationCheck(node) { checksCancellation = true }
            if let loop = node.as(WhileStmtSyntax.self), Self.suspendsRepeatedly(loop.body) {
                if Self.isOpenEnded(loop.conditions, locals: locals) { loopsForever = true }
                animated = animated ?? Self.stateWritten(in: loop.body, outside: outside)
            }
            if let loop = node.as(RepeatStmtSyntax.self), Self.suspendsRepeatedly(loop.body) {
                if Self.isOpenEnded(loop.condition, locals: locals) { loopsForever = true }
                animated = animated ?? Self.stateWritten(in: loop.body, outside: outside)
            }
            if let loop = node.as(ForStmtSyntax.self) {
                if loop.awaitKeyword != nil, !Self.isFinishedLocalStream(loop.sequence, in: context.scope.currentFunction?.body) {
                    if let maker = Self.streamMaker(loop.sequence, in: closure) { madeStreams.append(maker) } else { loopsForever = true }
                }
                if Self.sleeps(loop.body) { animated = animated ?? Self.stateWritten(in: loop.body, outside: outside) }
            }
        }
        guard !checksCancellation else { return }
        let notSetUpOnce = Self.notSetUpOnce(context)
        if loopsForever {
            context.report(call.calledExpression, Self.endlessLoop, when: notSetUpOnce)
            return
        }
        let someMadeStreamEndless = madeStreams.isEmpty ? nil : IndexCondition.any(madeStreams.map { .not(.returnsFinishedStream($0)) })
        if let someMadeStreamEndless {
            context.report(call.calledExpression, Self.endlessLoop, when: .all([someMadeStreamEndless, notSetUpOnce].compactMap { $0 }))
        }
        if let property = animated {
            let conditions = [someMadeStreamEndless.map { IndexCondition.not($0) }, notSetUpOnce].compactMap { $0 }
            context.report(call.calledExpression, Self.steppedAnimation, ["property": property],
                           when: conditions.isEmpty ? nil : .all(conditions))
        }
    }

    /// A task started by the app's one-time set-up (the `init` of an object with one instance for the process, the
    /// delegate's launch, or a function called only from there) is meant to run for the life of the app, and is
    /// started once: nothing needs to stop it, and no second copy can start. Inside a closure (a callback that may
    /// run many times) it is not known.
    static func notSetUpOnce(_ context: FileContext) -> IndexCondition? {
        guard context.scope.closures.isEmpty, let type = context.scope.currentType, let function = context.scope.currentFunction else { return nil }
        return DiscardedObserverTokenRule.notOneTimeSetUp(function, in: type)
    }

    /// `DispatchQueue.main.asyncAfter { ... self.animate(step + 1) }`: a closure that schedules the function it was
    /// created in again, a chain that no handle can cancel, unless a condition on `self`'s state can stop it.
    private func reportReschedulingChain(_ call: FunctionCallExprSyntax, context: FileContext) {
        // Only a delayed closure: `DispatchQueue.main.async { self.handle(note) }` calling the function again is the
        // `guard Thread.isMainThread else { ... }` re-dispatch, a hop that runs once.
        guard context.calleeMethodName(call) == "asyncAfter",
              (SyntaxFacts.receiverText(call) ?? "").hasPrefix("DispatchQueue"),
              let closure = SyntaxFacts.closures(of: call).first,
              let function = context.scope.currentFunction, let body = function.body else { return }
        var reenters = false
        BodyScanner.scan(closure.statements) { node in
            if let inner = node.as(FunctionCallExprSyntax.self), Self.callsOwnMethod(inner, named: function.name) { reenters = true }
        }
        guard reenters else { return }
        // A guard on the object's own state (`guard isAnimating`, `generation == self.generation`) stops the chain.
        let outside = Self.namesOutsideSelf(closure, function: function)
        var stoppable = false
        BodyScanner.scan(body) { node in
            let conditions: Syntax? = node.as(IfExprSyntax.self).map { Syntax($0.conditions) }
                ?? node.as(GuardStmtSyntax.self).map { Syntax($0.conditions) }
                ?? node.as(WhileStmtSyntax.self).map { Syntax($0.conditions) }
            if let conditions, Self.mentionsOwnState(conditions, outside: outside) { stoppable = true }
        }
        BodyScanner.scan(closure.statements) { node in
            let conditions: Syntax? = node.as(IfExprSyntax.self).map { Syntax($0.conditions) }
                ?? node.as(GuardStmtSyntax.self).map { Syntax($0.conditions) }
            if let conditions, Self.mentionsOwnState(conditions, outside: outside) { stoppable = true }
        }
        guard !stoppable else { return }
        context.report(call.calledExpression, Self.reschedulingChain, ["function": function.name])
    }

    /// `name(...)`, `self.name(...)` or `self?.name(...)`: a call of the enclosing function on the same object.
    static func callsOwnMethod(_ call: FunctionCallExprSyntax, named name: String) -> Bool {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == name }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == name,
              let base = member.base else { return false }
        return SyntaxFacts.isSelf(base.as(OptionalChainingExprSyntax.self)?.expression ?? base)
    }

    /// Names that are not `self`'s members at this point: the function's parameters and locals, the closure's.
    static func namesOutsideSelf(_ closure: ClosureExprSyntax, function: FunctionScope?) -> Set<String> {
        var names = FlowFacts.localNames(in: closure.statements).union(NotificationHandler.parameterNames(closure))
        if let function {
            names.formUnion(function.parameters.map(\.name))
            if let body = function.body { names.formUnion(FlowFacts.localNames(in: body)) }
        }
        return names
    }

    /// The first stored state of `self` a body writes (`value = `, `self.value = `, `self?.value += `).
    static func stateWritten(in body: some SyntaxProtocol, outside: Set<String>) -> String? {
        var property: String?
        BodyScanner.scan(body) { node in
            guard property == nil, let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence) else { return }
            property = FlowFacts.selfProperty(target, locals: outside)
        }
        return property
    }

    /// A condition that reads `self.x` or a bare name that is not a parameter or local: the object's own state.
    static func mentionsOwnState(_ conditions: Syntax, outside: Set<String>) -> Bool {
        conditions.tokens(viewMode: .sourceAccurate).contains { token in
            guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return false }
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                guard let base = member.base else { return false }
                return SyntaxFacts.isSelf(base.as(OptionalChainingExprSyntax.self)?.expression ?? base)
            }
            if reference.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == reference.id { return false }
            return !outside.contains(name) && !SyntaxFacts.isTypeName(name)
        }
    }

    /// `for await x in stream` over a local `AsyncStream { continuation in ... continuation.finish() }` of the
    /// same function: its own producer ends it, so the loop ends too.
    static func isFinishedLocalStream(_ sequence: ExprSyntax, in body: CodeBlockSyntax?) -> Bool {
        guard let name = sequence.as(DeclReferenceExprSyntax.self)?.baseName.text, let body else { return false }
        var finished = false
        BodyScanner.scan(body) { node in
            guard !finished, let binding = node.as(PatternBindingSyntax.self),
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
                  let value = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                  ["AsyncStream", "AsyncThrowingStream"].contains(where: { SyntaxFacts.calleeName(value).hasPrefix($0) }) else { return }
            finished = value.tokens(viewMode: .sourceAccurate).contains { $0.text == "finish" }
        }
        return finished
    }

    /// `for await line in parse(url)`, or over `let lines = parse(url)` bound in the task: the name of the function that
    /// makes the sequence. Whether it builds an `AsyncStream` or a channel and calls `finish()` after its producer's last
    /// element, so that the loop ends when the producer does, is the index's question (`returnsFinishedStream`).
    static func streamMaker(_ sequence: ExprSyntax, in closure: ClosureExprSyntax) -> String? {
        var made = sequence.as(FunctionCallExprSyntax.self)
        if made == nil, let name = sequence.as(DeclReferenceExprSyntax.self)?.baseName.text {
            BodyScanner.scan(closure) { node in
                guard made == nil, let binding = node.as(PatternBindingSyntax.self),
                      binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else { return }
                made = binding.initializer?.value.as(FunctionCallExprSyntax.self)
            }
        }
        return made.map(SyntaxFacts.calleeMethodName)
    }

    static func sleeps(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { $0.text == "sleep" }
    }

    /// A statement by itself (`Task { }`) or `_ = Task { }`.
    static func isDiscarded(_ call: FunctionCallExprSyntax) -> Bool {
        if call.parent?.is(CodeBlockItemSyntax.self) == true { return true }
        if let target = TaskFacts.assignmentTarget(ofValue: call), target.is(DiscardAssignmentExprSyntax.self) { return true }
        return false
    }

    /// `true`, or a condition that mentions no local the task itself counts with.
    static func isOpenEnded(_ condition: some SyntaxProtocol, locals: Set<String>) -> Bool {
        !condition.tokens(viewMode: .sourceAccurate).contains { token in
            if case .identifier(let name) = token.tokenKind { return locals.contains(name) }
            return token.tokenKind == .keyword(.false)
        }
    }

    static func suspendsRepeatedly(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { $0.text == "sleep" || $0.tokenKind == .keyword(.await) }
    }
}
