import SwiftSyntax

/// An `AsyncStream` whose continuation is never finished and has no `onTermination`.
public final class UnfinishedAsyncStreamRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "unfinished_async_stream",
        name: "Unfinished Async Stream",
        whatItDoes: """
            Finds `AsyncStream { continuation in … }` and `AsyncThrowingStream { … }` whose build closure only ever \
            yields: the continuation is never finished (`finish()`, `finish(throwing:)`) and gets no \
            `onTermination`, anywhere in the closure or the callbacks and tasks inside it, and never leaves it \
            (stored, passed on, returned), so nothing else can finish it either.
            """,
        whyIsThisBad: """
            Iteration of a stream ends only when its continuation finishes \
            (https://developer.apple.com/documentation/swift/asyncstream/continuation/finish()): a load that does \
            `for await value in stream` and then clears its loading state never gets there, and the task that runs \
            it is never done. When the consumer is cancelled instead, `onTermination` is the only place that hears \
            of it (https://developer.apple.com/documentation/swift/asyncstream/continuation/ontermination); without \
            it the observer, timer or task that feeds the stream keeps running, and keeps what it captured, for the \
            rest of the process.
            """,
        seed: "—",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                func changes() -> AsyncStream<Void> {
                    ↓AsyncStream { continuation in
                        NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { _ in
                            continuation.yield(())
                        }
                    }
                }
                """),
            RuleExample("""
                func progress(of download: Download) -> AsyncStream<Double> {
                    ↓AsyncStream<Double> { continuation in
                        Task {
                            for await fraction in download.fractions {
                                continuation.yield(fraction)
                            }
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                func changes() -> AsyncStream<Void> {
                    AsyncStream { continuation in
                        let token = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { _ in
                            continuation.yield(())
                        }
                        continuation.onTermination = { _ in NotificationCenter.default.removeObserver(token) }
                    }
                }
                """),
            RuleExample("""
                func progress(of download: Download) -> AsyncStream<Double> {
                    AsyncStream { continuation in
                        Task {
                            for await fraction in download.fractions {
                                continuation.yield(fraction)
                            }
                            continuation.finish()
                        }
                    }
                }
                """),
            RuleExample("""
                final class Feed {
                    private var continuation: AsyncStream<Post>.Continuation?
                    lazy var posts = AsyncStream<Post> { continuation in
                        self.continuation = continuation
                    }
                    func close() { continuation?.finish() }
                }
                """),
            RuleExample("""
                let numbers = AsyncStream { $0.yield(1) }
                """),
        ],
        knownLimitations: """
            A stream meant to live as long as the app (a process-wide change feed consumed by one endless loop) is \
            reported although nothing needs to end it; suppress it there. A continuation stored or passed on is not \
            followed, nor `AsyncStream.makeStream()`, nor a closure that names its continuation `$0`.
            """,
        messages: [unfinished])
    static let unfinished = RuleMessage("stream_never_finished", "nothing finishes this stream's continuation `{name}` and it has no `onTermination`: " +
        "a `for await` over it never ends, and what feeds it keeps running after its consumer is cancelled; " +
        "call `{name}.finish()` when the source ends and tear the source down in `{name}.onTermination`")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self),
              FrameworkContinuations.streamInitializer(named: SyntaxFacts.calleeName(call)) != nil,
              let closure = SyntaxFacts.closures(of: call).last, let name = ContinuationUse.parameterName(of: closure) else { return }
        let uses = StreamContinuationUses(name: name)
        uses.walk(closure.statements)
        guard uses.yields, !uses.endsOrEscapes else { return }
        context.report(call.calledExpression, Self.unfinished, ["name": name])
    }

    /// How the build closure uses its continuation: only `yield`, or also something that ends it or lets it out.
    private final class StreamContinuationUses: SyntaxVisitor {
        let name: String
        var yields = false
        var endsOrEscapes = false

        init(name: String) {
            self.name = name
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            guard node.baseName.text == name else { return .visitChildren }
            if let member = node.parent?.as(MemberAccessExprSyntax.self) {
                if member.declName.id == node.id { return .visitChildren }  // `other.continuation`
                let used = member.declName.baseName.text
                if FrameworkContinuations.endsStream(member: used) {
                    endsOrEscapes = true
                } else if used == "yield", member.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == member.id {
                    yields = true
                } else {
                    endsOrEscapes = true
                }
            } else {
                endsOrEscapes = true  // stored, passed on, returned: finished elsewhere, perhaps
            }
            return .visitChildren
        }

        /// The same name declared again inside: another value, not followed.
        override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
            if node.identifier.text == name { endsOrEscapes = true }
            return .visitChildren
        }

        override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
            if node.name.text == name { endsOrEscapes = true }
            return .visitChildren
        }

        override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
            if (node.secondName ?? node.firstName).text == name { endsOrEscapes = true }
            return .visitChildren
        }
    }
}
