import SwiftSyntax

/// A stored (cancellable) task that writes state after an `await` without checking for cancellation.
public final class MissingCancellationCheckRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "missing_cancellation_check",
        name: "Missing Cancellation Check",
        whatItDoes: """
            Inside a `Task { }` whose handle is stored on `self` (so it is meant to be cancelled), finds a write \
            to state of `self` after an `await` that cannot throw (no `try`, or `try?`) with no \
            `Task.checkCancellation()` or `Task.isCancelled` test between them.
            """,
        whyIsThisBad: """
            Cancelling a task only sets a flag; code after a non-throwing `await` runs anyway. A cancelled, \
            superseded load then writes its stale result over the newer one's (a reading app's post-mortem: \
            "`Task.checkCancellation()` before and after async work"; "Check cancellation after suspension").
            """,
        seed: "000, 001",
        triggeringExamples: [
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        searchTask = Task {
                            let found = await api.search(query)
                            ↓results = found
                        }
                    }
                }
                """),
            RuleExample("""
                final class Poller {
                    var status = ""
                    private var pollTask: Task<Void, Never>?
                    func start() {
                        let task = Task { [weak self] in
                            try? await Task.sleep(for: .seconds(5))
                            ↓self?.status = "stale"
                        }
                        pollTask = task
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @MainActor final class LibraryModel {
                    var refreshTask: Task<Void, Never>?
                    func refresh() {
                        refreshTask?.cancel()
                        refreshTask = Task {
                            await library.reload()
                            refreshTask = nil
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SearchModel {
                    var results: [Result] = []
                    private var searchTask: Task<Void, Never>?
                    func search(_ query: String) {
                        searchTask?.cancel()
                        searchTask = Task {
                            let found = await api.search(query)
                            guard !Task.isCancelled else { return }
                            results = found
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ReaderModel {
                    var article: Article?
                    private var loadingTask: Task<Void, Never>?
                    func load() {
                        loadingTask = Task {
                            do {
                                let fresh = try await service.fetch()
                                article = fresh
                            } catch {}
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Logger {
                    var lines: [String] = []
                    func log(_ line: String) {
                        Task {
                            await store.append(line)
                            lines.append(line)
                        }
                    }
                }
                """),
        ],
        knownLimitations: """
            Only tasks stored on `self` directly or through a local constant in the same function are checked; a \
            handle stored in a collection is not. After a `try await` that throws `CancellationError` the write is \
            skipped by the throw, so it is not reported, although a callee that ignores cancellation returns normally.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.closureExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let closure = node.as(ClosureExprSyntax.self), let frame = context.scope.currentClosure,
              frame.kind == .task, let call = frame.call, let type = context.scope.currentType,
              let handle = TaskFacts.storedHandleName(of: call, in: context.scope.currentFunction?.body) else { return }
        let locals = FlowFacts.localNames(in: closure.statements)
        var pendingAwait: AwaitExprSyntax?
        var reportedProperty: String?
        BodyScanner.scan(closure.statements) { node in
            guard reportedProperty == nil else { return }
            if let suspension = node.as(AwaitExprSyntax.self) {
                pendingAwait = FlowFacts.isNonThrowingAwait(suspension) ? suspension : nil
            } else if FlowFacts.isCancellationCheck(node) {
                pendingAwait = nil
            } else if pendingAwait != nil, let sequence = node.as(SequenceExprSyntax.self),
                      let target = SyntaxFacts.writeTarget(sequence), let property = FlowFacts.selfProperty(target, locals: locals),
                      // The task clearing its own handle is cleanup that must run when it is cancelled too.
                      property != handle {
                reportedProperty = property
                let typeName = type.qualifiedName
                context.report(target) { index in
                    guard index.property(property, of: typeName) != nil else { return nil }
                    return "this task is stored to be cancelled, but writes `\(property)` after an `await` without checking; " +
                        "add `guard !Task.isCancelled else { return }` (or `try Task.checkCancellation()`) before the write"
                }
            }
        }
    }
}
