import SwiftSyntax

/// A continuation resumed on a path that has already resumed it.
public final class ContinuationResumedTwiceRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "continuation_resumed_twice",
        name: "Continuation Resumed Twice",
        whatItDoes: """
            In the closure of `withCheckedContinuation`, `withCheckedThrowingContinuation` and their unsafe kin, finds \
            a `resume` that some path of the closure's control-flow graph reaches after another `resume` of the same \
            continuation: an error branch that resumes and falls through to the success resume (a missing \
            `return`), a resume in a loop, or a callback that resumes and is registered in a loop. Resumes in nested \
            closures are followed; the continuation must stay in the closure (never stored or passed on). And a \
            continuation stored in a property (`CheckedContinuation`/`UnsafeContinuation` by its declared type) that \
            is resumed through the property (`pending?.resume(…)`) when some path then leaves the method with the \
            property still holding it (no `pending = nil` after the resume, directly or in a `defer`).
            """,
        whyIsThisBad: """
            Apple: "You must call a resume method exactly once on every execution path". A checked continuation \
            resumed a second time traps ("SWIFT TASK CONTINUATION MISUSE: … tried to resume its continuation more \
            than once"), crashing the app on the path that took both resumes, typically the error path; an unsafe \
            one is undefined behaviour (https://developer.apple.com/documentation/swift/checkedcontinuation). The \
            usual fix is a `return` after the first resume (FlowCrypt/flowcrypt-ios issue 966, "if it doesn't return, \
            there's a risk another continuation.resume may run and crash the app", fixed in pull request 967; \
            mattt/iMCP pull request 112, "Fix crash caused by calling checked continuation multiple times").
            """,
        seed: "—",
        isOptIn: true,
        severity: .error,
        triggeringExamples: [
            RuleExample("""
                func load() async throws -> Data {
                    try await withCheckedThrowingContinuation { continuation in
                        api.fetch { data, error in
                            if let error {
                                continuation.resume(throwing: error)
                            }
                            ↓continuation.resume(returning: data ?? Data())
                        }
                    }
                }
                """),
            RuleExample("""
                func firstReady(_ items: [Item]) async -> Item {
                    await withCheckedContinuation { continuation in
                        for item in items where item.isReady {
                            ↓continuation.resume(returning: item)
                        }
                    }
                }
                """),
            RuleExample("""
                func save(_ record: Record) async throws {
                    try await withUnsafeThrowingContinuation { continuation in
                        database.save(record) { error in
                            guard error == nil else {
                                continuation.resume(throwing: error!)
                                return
                            }
                            continuation.resume()
                        }
                        ↓continuation.resume()
                    }
                }
                """),
            RuleExample("""
                final class LocationProvider: NSObject, CLLocationManagerDelegate {
                    private var pending: CheckedContinuation<CLLocation, Error>?
                    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
                        guard let location = locations.last else { return }
                        ↓pending?.resume(returning: location)
                    }
                }
                """),
            // A "has been resumed" flag tested first but set only after the resume; and one tested and set first but
            // outside any lock or serial queue, where two threads may pass the test together (medium).
            RuleExample("""
                final class StatusChecker {
                    var continuation: CheckedContinuation<String, Error>?
                    var resumed = false
                    let queue = DispatchQueue(label: "resume")
                    func finish(_ value: String) {
                        queue.sync {
                            guard !resumed else { return }
                            ↓continuation?.resume(returning: value)
                            resumed = true
                        }
                    }
                }
                """),
            RuleExample("""
                final class StatusChecker {
                    var continuation: CheckedContinuation<String, Error>?
                    var resumed = false
                    func finish(_ value: String) {
                        guard !resumed else { return }
                        resumed = true
                        ↓continuation?.resume(returning: value)
                    }
                }
                """, confidence: .medium),
        ],
        nonTriggeringExamples: [
            // Tested and set under a serial queue before resuming: a second call returns before the resume.
            RuleExample("""
                final class StatusChecker {
                    var continuation: CheckedContinuation<String, Error>?
                    var continuationHasBeenCalled = false
                    let queue = DispatchQueue(label: "resume")
                    let lock = NSLock()
                    func finish(_ value: String) {
                        queue.sync {
                            guard !continuationHasBeenCalled else { return }
                            continuationHasBeenCalled = true
                            continuation?.resume(returning: value)
                        }
                    }
                    func fail(_ error: Error) {
                        lock.withLock {
                            if self.continuationHasBeenCalled { return }
                            self.continuationHasBeenCalled = true
                            self.continuation?.resume(throwing: error)
                        }
                    }
                    func cancel() {
                        lock.lock()
                        guard !continuationHasBeenCalled else { lock.unlock(); return }
                        continuationHasBeenCalled = true
                        lock.unlock()
                        continuation?.resume(throwing: CancellationError())
                    }
                }
                """),
            RuleExample("""
                final class LocationProvider: NSObject, CLLocationManagerDelegate {
                    private var pending: CheckedContinuation<CLLocation, Error>?
                    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
                        guard let location = locations.last else { return }
                        pending?.resume(returning: location)
                        pending = nil
                    }
                    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
                        defer { pending = nil }
                        pending?.resume(throwing: error)
                    }
                }
                """),
            RuleExample("""
                final class Downloader {
                    private var pending: Download?
                    func finish() { pending?.resume() }
                }
                """),
            RuleExample("""
                func load() async throws -> Data {
                    try await withCheckedThrowingContinuation { continuation in
                        api.fetch { data, error in
                            if let error {
                                continuation.resume(throwing: error)
                                return
                            }
                            continuation.resume(returning: data ?? Data())
                        }
                    }
                }
                """),
            RuleExample("""
                func load() async throws -> Data {
                    try await withCheckedThrowingContinuation { continuation in
                        api.fetch { result in
                            switch result {
                            case .success(let data): continuation.resume(returning: data)
                            case .failure(let error): continuation.resume(throwing: error)
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                func load() async throws -> Data {
                    try await withCheckedThrowingContinuation { continuation in
                        api.fetch(success: { continuation.resume(returning: $0) },
                                  failure: { continuation.resume(throwing: $0) })
                    }
                }
                """),
            RuleExample("""
                final class Prompt {
                    private var pending: CheckedContinuation<Bool, Never>?
                    func ask() async -> Bool {
                        await withCheckedContinuation { continuation in
                            pending = continuation
                            continuation.resume(returning: false)
                        }
                    }
                }
                """),
            RuleExample("""
                func firstReady(_ items: [Item]) async -> Item? {
                    await withCheckedContinuation { continuation in
                        for item in items where item.isReady {
                            continuation.resume(returning: item)
                            return
                        }
                        continuation.resume(returning: nil)
                    }
                }
                """),
        ],
        knownLimitations: """
            A continuation passed to a function or captured by a nested function is not followed (nothing is \
            reported for it), nor resumes in two different callbacks that may race (a timeout and a reply): only one \
            path through one closure, or a callback registered again on a path after it, is asked about. A closure \
            that the API calls once per element (not a loop in the code) is not known. A stored continuation is \
            followed only where it is resumed through its property, and is reported even when the method can run \
            only once (a one-shot callback).
            """,
        messages: [resumedAgain, storedStillHeld])
    static let resumedAgain = RuleMessage("resumed_again", "`{name}` may already have been resumed when this runs (a path reaches it after another resume); " +
        "`return` after each resume: a checked continuation traps when resumed twice")
    static let storedStillHeld = RuleMessage("stored_continuation_still_held", "`{property}` still holds this continuation after it is resumed, so the next call resumes it again and traps; " +
        "set `{property} = nil` right after resuming (or take it first: `let c = {property}; {property} = nil; c?.resume(…)`)")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self) else { return }
        if SyntaxFacts.calleeMethodName(call) == FrameworkContinuations.resumeMethod.callee {
            checkStoredContinuation(call, context: context)
            return
        }
        guard let use = ContinuationUse.of(call) else { return }
        for level in use.levels {
            guard let built = context.controlFlowGraph(of: level.closure) else { continue }
            if let second = Self.secondResume(in: level, graph: built) {
                context.report(second, Self.resumedAgain, ["name": use.name])
                return
            }
        }
    }

    /// `pending?.resume(…)` on a property that holds a continuation, after which some path leaves the body with the
    /// property still holding it: the next call resumes it again.
    private func checkStoredContinuation(_ call: FunctionCallExprSyntax, context: FileContext) {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
              let type = context.scope.currentType,
              let property = TaskFacts.propertyName(base.as(OptionalChainingExprSyntax.self)?.expression ?? base.as(ForceUnwrapExprSyntax.self)?.expression ?? base),
              let owner = context.scope.currentClosure.map({ Syntax($0.node) }) ?? context.scope.currentFunction?.node else { return }
        // A parameter of the closure or function (`{ continuation in … }`) is not the property.
        let parameters = context.scope.closures.compactMap { ContinuationUse.parameterName(of: $0.node) }
            + (context.scope.currentFunction?.parameterClause?.parameters.map { ($0.secondName ?? $0.firstName).text } ?? [])
        let locals = FlowFacts.localNames(in: owner).union(parameters)
        guard !locals.contains(property), let built = context.controlFlowGraph(of: owner) else { return }
        let graph = built.graph
        let clears: (ControlFlowGraph.Node) -> Bool = { node in
            node.kind == .write && (node.label == property || node.label == "self." + property || node.label == "self?." + property)
        }
        let leaves = built.nodes(for: call).contains { start in !graph.exitsAvoiding(from: start, clears).isEmpty }
        guard leaves else { return }
        // Behind a "has been resumed" flag tested and set first (`guard !resumed else { return }; resumed = true`), a
        // second call returns before resuming: impossible inside a section that runs one caller at a time (a serial
        // queue's `sync`, a lock's `withLock`); outside one, two threads may still pass the test together (medium).
        var confidence = Confidence.high
        if let tests = Self.resumedFlagTests(call, owner: owner, built: built, locals: locals) {
            if let section = context.scope.currentClosure?.call,
               FrameworkContinuations.isExclusiveSection(callee: SyntaxFacts.calleeMethodName(section)) { return }
            // `lock.lock()` on every path before the test (and the resume after it): the same exclusion, spelled out.
            let locks = graph.nodes.filter { $0.kind == .call && ($0.label ?? "").hasSuffix(".lock") }.map(\.id)
            if !locks.isEmpty, tests.allSatisfy({ test in !graph.hasPath(from: graph.entry, to: test, avoiding: { locks.contains($0.id) }) }) { return }
            confidence = .medium
        }
        context.report(call, Self.storedStillHeld, ["property": property], when: .holdsContinuation(property, ofType: type.qualifiedName),
                       confidence: confidence)
    }

    /// Every path from the start of `owner` to the resume tests a stored flag (a condition that reads it) and then sets
    /// it to `true`: `guard !continuationHasBeenCalled else { return }; continuationHasBeenCalled = true; c?.resume(…)`.
    /// A flag set only after the resume, or on some paths, does not count.
    /// The flag's test nodes when the resume is behind one; nil when it is not.
    static func resumedFlagTests(_ resume: FunctionCallExprSyntax, owner: Syntax, built: BuiltControlFlowGraph, locals: Set<String>) -> Set<Int>? {
        let graph = built.graph
        var setters: [String: Set<Int>] = [:]
        BodyScanner.scan(owner) { node in
            guard let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
                  assignment.value.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true),
                  let flag = FlowFacts.selfProperty(assignment.target, locals: locals) else { return }
            setters[flag, default: []].formUnion(built.nodes(for: sequence).filter { graph.nodes[$0].kind == .write })
        }
        let targets = built.nodes(for: resume).filter { graph.nodes[$0].kind == .call }
        guard !targets.isEmpty else { return nil }
        for (flag, writes) in setters.sorted(by: { $0.key < $1.key }) {
            var tests: Set<Int> = []
            BodyScanner.scan(owner) { node in
                guard let condition = node.as(ConditionElementSyntax.self),
                      condition.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == flag }) else { return }
                tests.formUnion(built.nodes(for: condition).filter { graph.nodes[$0].kind == .condition })
            }
            guard !writes.isEmpty, !tests.isEmpty else { continue }
            // No path reaches the resume without the test, nor without the write after it.
            let guarded = targets.allSatisfy { target in
                !graph.hasPath(from: graph.entry, to: target, avoiding: { tests.contains($0.id) })
                    && tests.allSatisfy { test in !graph.hasPath(from: test, to: target, avoiding: { writes.contains($0.id) }) }
            }
            if guarded { return tests }
        }
        return nil
    }

    /// A resume (or the first resume of a nested closure) that some path reaches after a resume of the same level,
    /// or after itself (in a loop). Two callbacks are not paired: an API calls one of them (success or failure).
    static func secondResume(in level: ContinuationUse.Level, graph built: BuiltControlFlowGraph) -> FunctionCallExprSyntax? {
        let graph = built.graph
        // An expression statement's syntax is also its statement node's: keep the call (or closure) nodes only.
        let resumes = level.resumes.map { (nodes: built.nodes(for: $0).filter { graph.nodes[$0].kind == .call }, report: $0, isClosure: false) }
        let callbacks = level.children.compactMap { child -> (nodes: [Int], report: FunctionCallExprSyntax, isClosure: Bool)? in
            guard let first = Self.firstResume(in: child) else { return nil }
            return (built.nodes(for: child).filter { graph.nodes[$0].kind == .closure }, first, true)
        }
        let items = resumes + callbacks
        for later in items {
            for earlier in items where !(earlier.isClosure && later.isClosure && earlier.report.id != later.report.id) {
                // Strictly after: from the edges leaving `earlier` (so a resume reaches itself only around a loop).
                let found = earlier.nodes.contains { start in
                    let after = Set(graph.successors[start].flatMap { graph.reachable(from: $0.to) })
                    return later.nodes.contains { after.contains($0) }
                }
                if found { return later.report }
            }
        }
        return nil
    }

    private static func firstResume(in closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        final class Finder: SyntaxVisitor {
            var found: FunctionCallExprSyntax?
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if found == nil, SyntaxFacts.calleeMethodName(node) == FrameworkContinuations.resumeMethod.callee { found = node }
                return found == nil ? .visitChildren : .skipChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(closure)
        return finder.found
    }
}
