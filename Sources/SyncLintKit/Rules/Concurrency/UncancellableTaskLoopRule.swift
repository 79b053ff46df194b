import SwiftSyntax

/// A looping `Task` whose handle is thrown away and that never checks for cancellation.
public final class UncancellableTaskLoopRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "uncancellable_task_loop",
        name: "Uncancellable Task Loop",
        whatItDoes: """
            Finds a `Task { }` whose handle is thrown away and whose body loops forever (`while true`, a `while` \
            or `repeat` on state the task does not own, or `for await` over a sequence) with `Task.sleep` or \
            `for await`, and never tests `Task.isCancelled` or calls `Task.checkCancellation()`.
            """,
        whyIsThisBad: """
            Nothing holds the task, so nothing can cancel it, and it does not look for cancellation anyway: it \
            polls or listens for the rest of the process, keeps what it captured alive, and keeps working after \
            the screen or object it served is gone (a dice app's pattern guide: "Always provide a way to cancel \
            long-running async operations").
            """,
        seed: "002",
        // Opt-in until narrowed further: 1 of 2 findings right on eight public apps: a `for await` over a local stream its own producer finishes is not endless (docs/precision.md).
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
        ],
        nonTriggeringExamples: [
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
        ],
        knownLimitations: """
            A loop that ends by a condition on outside state (`while isRunning`) is taken as endless. A stored \
            handle is not checked here: `task_self_capture` and `missing_cancellation_check` cover stored tasks. \
            Opt-in: 1 of 2 findings right on eight public apps: a `for await` over a local stream its own producer finishes is not endless; see docs/precision.md.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), TaskFacts.isTaskCreation(call, context: context),
              Self.isDiscarded(call), let closure = SyntaxFacts.closures(of: call).first else { return }
        let locals = FlowFacts.localNames(in: closure.statements)
        var loopsForever = false
        var checksCancellation = false
        BodyScanner.scan(closure.statements) { node in
            if FlowFacts.isCancellationCheck(node) { checksCancellation = true }
            if let loop = node.as(WhileStmtSyntax.self), Self.isOpenEnded(loop.conditions, locals: locals),
               Self.suspendsRepeatedly(loop.body) {
                loopsForever = true
            }
            if let loop = node.as(RepeatStmtSyntax.self), Self.isOpenEnded(loop.condition, locals: locals),
               Self.suspendsRepeatedly(loop.body) {
                loopsForever = true
            }
            if let loop = node.as(ForStmtSyntax.self), loop.awaitKeyword != nil { loopsForever = true }
        }
        guard loopsForever, !checksCancellation else { return }
        context.report(call.calledExpression,
                       "nothing can stop this looping task: its handle is thrown away and it never checks for cancellation; " +
                       "keep the handle and cancel it, test `Task.isCancelled` in the loop, or use `.task { }` in a view")
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
