import SwiftSyntax

/// A catch-all that shows a cancelled task to the user as an error.
public final class CancellationReportedAsErrorRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "cancellation_reported_as_error",
        name: "Cancellation Reported As Error",
        whatItDoes: """
            Finds a catch-all `catch` in code that can be cancelled (a `.task` or `.refreshable` closure, a \
            task-group child, a `Task` whose stored handle is cancelled, or an async function called from one of \
            those or from outside the project) whose `do` awaits a throwing call, and that puts the error into user-visible state (a property named like `error`, \
            `errorMessage` or `alert`, or a `show...Error`/`show...Alert` call) with no earlier \
            `catch is CancellationError` and no cancellation test inside it.
            """,
        whyIsThisBad: """
            Cancellation is how `.task(id:)` and task handles stop stale work, and it arrives as a thrown \
            `CancellationError` (or `URLError.cancelled`). Showing it as an error turns every normal \
            navigation into a red banner (a reading app's post-mortem: "Separate `CancellationError` handling, doesn't \
            show error UI").
            """,
        seed: "000, 001",
        // Opt-in until narrowed further: 8 of 19 findings right on eight public apps: callees with typed throws or that wrap every error in the app's own type, functions only started from button tasks, and error properties no view reads (docs/precision.md).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    var errorMessage: String?
                    func loadContent() async {
                        do {
                            content = try await service.fetch(articleId)
                        } ↓catch {
                            errorMessage = error.localizedDescription
                        }
                    }
                }
                """, fixed: """
                @MainActor final class ReaderViewModel {
                    var errorMessage: String?
                    func loadContent() async {
                        do {
                            content = try await service.fetch(articleId)
                        } catch is CancellationError {
                        } catch {
                            errorMessage = error.localizedDescription
                        }
                    }
                }
                """),
            RuleExample("""
                final class Uploader {
                    var upload: Task<Void, Never>?
                    func start() {
                        upload = Task {
                            do { try await send() } ↓catch let failure { self.showUploadError(failure) }
                        }
                    }
                    func stop() { upload?.cancel() }
                }
                """, fixed: """
                final class Uploader {
                    var upload: Task<Void, Never>?
                    func start() {
                        upload = Task {
                            do { try await send() } catch is CancellationError {} catch let failure { self.showUploadError(failure) }
                        }
                    }
                    func stop() { upload?.cancel() }
                }
                """),
            RuleExample("""
                @MainActor final class FeedModel {
                    var errorMessage: String?
                    func refresh() async {
                        do { try await client.reload() } ↓catch { errorMessage = error.localizedDescription }
                    }
                }
                struct FeedView: View {
                    let model: FeedModel
                    var body: some View { List {}.refreshable { await model.refresh() } }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                enum SyncError: Error { case offline, rejected }
                @MainActor final class SyncModel {
                    var errorMessage: String?
                    func sync() async {
                        do throws(SyncError) {
                            try await client.push()
                        } catch {
                            errorMessage = "\\(error)"
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ComposerModel {
                    var errorMessage: String?
                    func send() async {
                        do { try await client.post(draft) } catch { errorMessage = error.localizedDescription }
                    }
                }
                struct ComposerView: View {
                    let model: ComposerModel
                    var body: some View { AsyncButton("Send", action: model.send) }
                }
                """),
            RuleExample("""
                func loadContent() async {
                    do {
                        let content = try await service.fetch(articleId)
                        self.content = content
                    } catch is CancellationError {
                        Logger.reader.debug("Load cancelled")
                    } catch {
                        self.errorMessage = "An unexpected error occurred. Please try again."
                    }
                }
                """),
            RuleExample("""
                func refresh() async {
                    do { try await sync() } catch {
                        guard !(error is CancellationError) else { return }
                        alert = AlertState(error)
                    }
                }
                """),
            RuleExample("""
                func save() {
                    do { try context.save() } catch { errorMessage = error.localizedDescription }
                }
                """),
            RuleExample("""
                func load() async {
                    do { try await fetch() } catch { logger.error("load failed: \\(error)") }
                }
                """),
            RuleExample("""
                final class Uploader {
                    func start() {
                        Task {
                            do { try await send() } catch let failure { self.showUploadError(failure) }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class FeedModel {
                    var errorMessage: String?
                    func refresh() async {
                        do { try await client.reload() } catch { errorMessage = error.localizedDescription }
                    }
                }
                struct FeedView: View {
                    let model: FeedModel
                    var body: some View { Button("Reload") { Task { await model.refresh() } } }
                }
                """),
            RuleExample("""
                func export() async {
                    await prepare()
                    do { try archive.write() } catch { errorMessage = error.localizedDescription }
                }
                """),
            RuleExample("""
                func fetchInstance() async {
                    do { instance = try await client.instance() } catch {
                        let errorType = classify(error)
                        metrics.record(errorType)
                        instance = nil
                        instanceFetchError = nil
                    }
                }
                """),
        ],
        knownLimitations: """
            A callee that converts cancellation into its own error type before it reaches the catch is not \
            seen, nor is user-visible state with other names. Code that nobody can cancel is quiet: a `Task { }` \
            whose handle is dropped (a button action) and async functions only such tasks call (followed three \
            calls deep), and an async function the project never calls but names without calling (passed by \
            reference, as `Button(action: save)`); one the project never mentions counts as cancellable, since its \
            callers are outside what was linted. A `do` whose only `try` is synchronous (or `try?`), and a \
            `do throws(DomainError)` with a typed error, cannot receive a cancellation and are quiet. The fix \
            (unsafe: a cancelled run now skips everything the catch-all did, resets included) adds an empty \
            `catch is CancellationError` clause before the catch-all. \
            Opt-in: 8 of 19 findings right on eight public apps: callees with typed throws or that wrap every error in the app's own type, functions only started from button tasks, and error properties no view reads; see docs/precision.md.
            """,
        fixSafety: .unsafe)

    public static let nodeKinds: Set<SyntaxKind> = [.doStmt]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        // Only an awaited throwing call can throw a cancellation: a synchronous `try` or a `try?` cannot.
        guard let doStatement = node.as(DoStmtSyntax.self), context.scope.isAsyncContext,
              doStatement.throwsClause?.type == nil, CatchFacts.awaitsThrowingCall(doStatement.body) else { return }
        for clause in doStatement.catchClauses {
            let patternText = clause.catchItems.trimmedDescription
            if patternText.contains("CancellationError") || patternText.contains(".cancelled") { return }
            guard CatchFacts.isCatchAll(clause), !CatchFacts.testsCancellation(clause.body),
                  Self.showsErrorToUser(clause.body, locals: Self.locals(around: clause, context: context)) else { continue }
            // Code nobody can cancel (a `Task { }` whose handle is dropped, an async function only such tasks
            // call) never receives a cancellation, so its catch is right to show every error.
            context.report(clause.catchKeyword,
                           "this catch shows a cancelled task as an error; add `catch is CancellationError` before it, or return early when `error is CancellationError`",
                           when: .isCancellable(ExecutionContexts.cancellability(in: context)))
        }
    }

    /// Names declared in the enclosing function or closure: writing those shows nothing to the user.
    static func locals(around clause: CatchClauseSyntax, context: FileContext) -> Set<String> {
        if let closure = context.scope.currentClosure { return FlowFacts.localNames(in: closure.node.statements) }
        if let body = context.scope.currentFunction?.body { return FlowFacts.localNames(in: body) }
        return FlowFacts.localNames(in: clause.body)
    }

    /// An assignment of a real value (not `nil`, `false` or `""`, which clear state) to a property named like an
    /// error or alert, or a `show...Error` / `present...Alert` call.
    static func showsErrorToUser(_ body: CodeBlockSyntax, locals: Set<String>) -> Bool {
        var shows = false
        BodyScanner.scan(body) { node in
            if let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
               let path = SyntaxFacts.memberPath(assignment.target),
               path.root != "self" ? (!path.members.isEmpty || !locals.contains(path.root)) : true {
                let name = (path.members.last ?? path.root).lowercased()
                let clears = assignment.value.is(NilLiteralExprSyntax.self) || SyntaxFacts.boolLiteral(assignment.value) == false
                    || assignment.value.trimmedDescription == "\"\""
                if (name.contains("error") || name.contains("alert")) && !clears { shows = true }
            }
            if let call = node.as(FunctionCallExprSyntax.self) {
                let name = SyntaxFacts.calleeMethodName(call)
                if (name.hasPrefix("show") || name.hasPrefix("present")) && (name.contains("Error") || name.contains("Alert")) { shows = true }
            }
        }
        return shows
    }
}
