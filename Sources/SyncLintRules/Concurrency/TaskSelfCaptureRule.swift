import SwiftSyntax

/// A long-lived or nested `Task` that holds `self` strongly.
public final class TaskSelfCaptureRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "task_self_capture",
        name: "Task Self Capture",
        whatItDoes: """
            In a class or actor, finds (1) a `Task` stored on `self` whose closure uses `self` strongly and \
            loops (`while`, `repeat`, `for await`, or a `for` with `Task.sleep` over anything but a literal range), and (2) a `Task { }` \
            or a re-scheduled `DispatchQueue` closure nested inside a `[weak self]` closure that uses `self` strongly again \
            and keeps going: it loops or calls the function it was created in (a self-rescheduling chain). With \
            `strict: true`, every `Task` whose closure uses `self` without `[weak self]` is reported, one-shot nested \
            tasks included. Also (3) a function nested in a `[weak self]` closure that uses `self` strongly and \
            schedules itself again from a `DispatchQueue` or `Task` closure. Also (4) a `Task` with `[weak self]` \
            whose body binds `self` strongly again (`guard let self`) before a long or endless loop that uses it \
            (`for await` over anything but a task group's children, a `while`/`repeat` that awaits: a poll, a \
            retry), and (5) a one-shot `Task` stored in a handle the owner's `deinit` cancels that holds `self` \
            strongly across an `await` (captured strongly, or bound again by `guard let self` and used after the \
            `await`).
            """,
        whyIsThisBad: """
            `self` holds the task and the task holds `self`: a looping task keeps its owner alive forever, and \
            the owner's `deinit` (where it would cancel the task) never runs. A nested `Task` inside a \
            `[weak self]` closure silently takes back the strong reference the outer closure gave up.
            """,
        seed: "000, 002",
        // Opt-in until narrowed further: 1 of 7 findings right on the calibration apps; narrowed (singletons, task groups, name-only recursion), 1 of the 2 left is right: a loop that ends in an object a singleton owns (docs/precision.md).
        isOptIn: true,
        options: [RuleOptionDescription("strict", default: "false",
                                        "report every `Task` in a class that uses `self` strongly")],
        triggeringExamples: [
            RuleExample("""
                final class Ticker {
                    var value = 0
                    private var tickTask: Task<Void, Never>?
                    func start() {
                        tickTask = ↓Task {
                            while !Task.isCancelled {
                                try? await Task.sleep(for: .seconds(1))
                                value += 1
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Die {
                    var value = 1
                    func animateStep(step: Int) {
                        Task { [weak self] in
                            guard let self else { return }
                            ↓Task {
                                self.animateStep(step: step + 1)
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Scheduler {
                    func scheduleWork() {
                        ↓Task {
                            try? await Task.sleep(for: .seconds(1))
                            self.updateValue()
                        }
                    }
                }
                """, options: ["strict": .bool(true)]),
            RuleExample("""
                final class Dice {
                    var face = 1
                    func roll(remaining: Int) {
                        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { [weak self] in
                            guard let self else { return }
                            self.face = Int.random(in: 1...6)
                            ↓DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { self.roll(remaining: remaining - 1) }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Refresher {
                    func refresh() {
                        Task { [weak self] in
                            guard let self else { return }
                            ↓Task { await self.reload() }
                        }
                    }
                }
                """, options: ["strict": .bool(true)]),
            RuleExample("""
                final class Spinner {
                    var angle = 0.0
                    func spin() {
                        DispatchQueue.main.async { [weak self] in
                            guard let self else { return }
                            func ↓step() {
                                self.angle += 10
                                DispatchQueue.main.asyncAfter(deadline: .now() + 0.02) { step() }
                            }
                            step()
                        }
                    }
                }
                """),
            // A one-shot task in a handle `deinit` cancels, holding `self` across the request: `deinit` never runs.
            RuleExample("""
                final class StopPicker: UIViewController {
                    var stop: Stop
                    private var fetchTask: Task<Void, Never>?
                    deinit { fetchTask?.cancel() }
                    func load() {
                        fetchTask = ↓Task { [weak self] in
                            guard let self else { return }
                            let trip = try? await api.trip(id: self.stop.tripID)
                            self.show(trip, boarding: self.stop.id)
                        }
                    }
                }
                """),
            RuleExample("""
                final class Downloader {
                    private var task: Task<Void, Never>?
                    var data: Data?
                    deinit { task?.cancel() }
                    func start(_ url: URL) {
                        task = ↓Task {
                            data = try? await URLSession.shared.data(from: url).0
                        }
                    }
                }
                """),
            // `guard let self` before an endless loop: `[weak self]` gives nothing back.
            RuleExample("""
                final class ChangeObserver {
                    private var observeTask: Task<Void, Never>?
                    func observe() {
                        observeTask = ↓Task { [weak self] in
                            guard let self else { return }
                            for await _ in NotificationCenter.default.notifications(named: .NSPersistentStoreRemoteChange) {
                                await self.reload()
                            }
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            // The fix: what the request needs is copied first, and `self` is looked up after the `await`.
            RuleExample("""
                final class StopPicker: UIViewController {
                    var stop: Stop
                    private var fetchTask: Task<Void, Never>?
                    deinit { fetchTask?.cancel() }
                    func load() {
                        let tripID = stop.tripID
                        fetchTask = Task { [weak self] in
                            let trip = try? await api.trip(id: tripID)
                            self?.show(trip)
                        }
                    }
                }
                """),
            // `deinit` cancels nothing: the one-shot task lets `self` go when it ends.
            RuleExample("""
                final class Downloader {
                    private var task: Task<Void, Never>?
                    var data: Data?
                    func start(_ url: URL) {
                        task = Task {
                            data = try? await URLSession.shared.data(from: url).0
                        }
                    }
                }
                """),
            // `self` unwrapped once per element: released between notifications.
            RuleExample("""
                final class ChangeObserver {
                    private var observeTask: Task<Void, Never>?
                    func observe() {
                        observeTask = Task { [weak self] in
                            for await _ in NotificationCenter.default.notifications(named: .NSPersistentStoreRemoteChange) {
                                guard let self else { return }
                                await self.reload()
                            }
                        }
                    }
                }
                """),
            // The `@main` app builds the store and keeps it for the app's life: nothing to release.
            RuleExample("""
                @main struct NotesApp: App {
                    @State private var store = NoteStore()
                    var body: some Scene { WindowGroup { ContentView() } }
                }
                final class NoteStore {
                    private var observeTask: Task<Void, Never>?
                    func observe() {
                        observeTask = Task { [weak self] in
                            guard let self else { return }
                            for await _ in NotificationCenter.default.notifications(named: .NSPersistentStoreRemoteChange) {
                                await self.reload()
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Ticker {
                    var value = 0
                    private var tickTask: Task<Void, Never>?
                    func start() {
                        tickTask = Task { [weak self] in
                            while !Task.isCancelled {
                                try? await Task.sleep(for: .seconds(1))
                                self?.value += 1
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Die {
                    var value = 1
                    func animateStep(step: Int) {
                        guard step < 10 else { return }
                        Task { [weak self] in
                            try? await Task.sleep(for: .milliseconds(50))
                            guard let self else { return }
                            self.value = Int.random(in: 1...6)
                            self.animateStep(step: step + 1)
                        }
                    }
                }
                """),
            RuleExample("""
                final class Scheduler {
                    func scheduleWork() {
                        Task {
                            try? await Task.sleep(for: .seconds(1))
                            self.updateValue()
                        }
                    }
                }
                """),
            RuleExample("""
                struct CounterView: View {
                    @State private var count = 0
                    @State private var timer: Task<Void, Never>?
                    func start() {
                        timer = Task { while !Task.isCancelled { count += 1; try? await Task.sleep(for: .seconds(1)) } }
                    }
                }
                """),
            RuleExample("""
                final class Refresher {
                    func refresh() {
                        Task { [weak self] in
                            guard let self else { return }
                            Task { await self.reload() }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Poller {
                    func poll() {
                        Task { [weak self] in
                            Task { while !Task.isCancelled { await self?.check(); try? await Task.sleep(for: .seconds(5)) } }
                        }
                    }
                }
                """),
            RuleExample("""
                final class SyncEngine {
                    static let shared = SyncEngine()
                    private var pollTask: Task<Void, Never>?
                    func start() {
                        pollTask = Task {
                            while !Task.isCancelled {
                                await self.pull()
                                try? await Task.sleep(for: .seconds(60))
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Library {
                    var books: [Book] = []
                    private var loadTask: Task<Void, Never>?
                    func reload(_ urls: [URL]) {
                        loadTask = Task {
                            books = await withTaskGroup(of: Book?.self) { group in
                                for url in urls { group.addTask { await Book.load(url) } }
                                var loaded: [Book] = []
                                for await book in group { if let book { loaded.append(book) } }
                                return loaded
                            }
                        }
                    }
                    @objc func refresh() {
                        debouncer.debounce { [weak self] in
                            guard let self else { return }
                            Task { await self.store.refresh() }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Spinner {
                    var angle = 0.0
                    func spin() {
                        DispatchQueue.main.async { [weak self] in
                            guard let self else { return }
                            func step(_ count: Int) {
                                self.angle += 10
                                if count > 0 { step(count - 1) }
                            }
                            step(36)
                        }
                    }
                }
                """),
        ],
        knownLimitations: """
            Implicit uses of `self` are recognized by member names the index knows for the enclosing type; a local \
            variable with a member's name counts as a use. In the default mode a one-shot task that uses `self` \
            strongly is not reported: it releases `self` when it finishes (turn on `strict` \
            to report it too), nor is a one-shot `Task` nested in a `[weak self]` closure after \
            `guard let self`, which keeps `self` alive only until it ends. `self?.x` goes through the weak \
            reference and is never a strong use. Structs are never reported: a view's `self` is a value. An \
            app-lifetime singleton (a type with `static let shared = Type()`) is never reported: it lives as long as \
            the process anyway. A `for await` over a task group's `group` ends with its children and is not a loop; \
            "calls the function it was created in" means a call on `self` (not `store.refresh()` inside `refresh()`) \
            made by the scheduled closure itself, not by a handler nested in it. \
            For (5), only a `deinit` in the class's own declaration is seen (a task started in an extension is \
            checked against none), and after `guard let self` only explicit `self.` uses after the `await` count. \
            An object the `@main` app builds into a stored property of its own lives as long as the app and is \
            never reported. \
            Opt-in: 1 of 7 findings right on the calibration apps (`self` an app-lifetime singleton, a task group that ends, recursion matched by name); after narrowing those, 1 of 2 is right (the other: a wait loop that ends, in an object a singleton owns); see docs/precision.md.
            """,
        messages: [capturesStrongly, reschedulingNestedFunction, holdsSelfAcrossAwait, holdsSelfForLoop])
    static let holdsSelfAcrossAwait = RuleMessage("holds_self_across_await", "this `Task` is stored in `{handle}`, which `deinit` cancels, but it holds `self` strongly across an `await`: while it waits `self` cannot be released, so `deinit` never runs to cancel it; copy what the request needs into locals before the task and use `self?` after the `await`")
    static let holdsSelfForLoop = RuleMessage("holds_self_for_loop", "`guard let {name}` before this `Task`'s endless loop holds `self` strongly for the loop's whole life, so `[weak self]` releases nothing and the owner is never freed; unwrap `self` inside the loop, once per element or retry")
    static let capturesStrongly = RuleMessage("captures_self_strongly", "{reason}; add `[weak self]` and unwrap it inside the loop or after each `await`")
    static let reschedulingNestedFunction = RuleMessage("rescheduling_nested_function", "this nested function inside a `[weak self]` closure uses `self` strongly and schedules itself again, so each run keeps `self` alive for the next; capture `[weak self]` in the scheduled closure and unwrap it in each run")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr, .functionDecl]

    private let strict: Bool

    public init(options: RuleOptions) {
        strict = options.bool("strict", default: false)
    }

    public func enter(_ node: Syntax, context: FileContext) {
        if let function = node.as(FunctionDeclSyntax.self) {
            reportReschedulingNestedFunction(function, context: context)
            return
        }
        guard let call = node.as(FunctionCallExprSyntax.self) else { return }
        let isTask = TaskFacts.isTaskCreation(call, context: context)
        // `DispatchQueue.main.asyncAfter { }` and friends: a closure that re-schedules work later.
        let isRescheduled = !isTask && ["async", "asyncAfter"].contains(context.calleeMethodName(call))
            && (SyntaxFacts.receiverText(call) ?? "").hasPrefix("DispatchQueue")
        guard isTask || isRescheduled, let closure = SyntaxFacts.closures(of: call).first,
              let type = context.scope.currentType, type.kind == .class || type.kind == .actor || type.kind == .extension
        else { return }
        if isTask, reportHeldSelf(call, closure: closure, type: type, context: context) { return }
        guard !SyntaxFacts.capturesSelfWeakly(closure) else { return }
        let uses = SelfUses(closure, enclosingFunction: context.scope.currentFunction?.name)
        let insideWeakClosure = context.scope.closures.contains { $0.capturesSelfWeakly }
        let storedName = isTask ? context.storedHandleName(ofTask: call) : nil
        let kind = isTask ? "`Task`" : "re-scheduled closure"
        let reason: String
        if insideWeakClosure && (uses.loops || uses.reentersEnclosingFunction) {
            // Each run schedules the next: the chain keeps `self` alive for as long as it goes on.
            reason = "this \(kind) inside a `[weak self]` closure captures `self` strongly again and schedules more work"
        } else if insideWeakClosure && isTask && strict {
            reason = "this `Task` inside a `[weak self]` closure captures `self` strongly again"
        } else if storedName != nil && uses.loops {
            reason = "this looping `Task` is stored on `self` and captures `self` strongly, so neither is ever released"
        } else if strict && isTask {
            reason = "this `Task` captures `self` strongly"
        } else {
            return
        }
        report(Syntax(call.calledExpression), Self.capturesStrongly, ["reason": reason], uses: uses, type: type, context: context)
    }

    /// A `Task` that holds `self` for longer than its work needs it, proven from the closure and the owner's own
    /// declaration: `[weak self]` then `guard let self` before a long or endless loop (`for await`, a retry or
    /// poll) that uses it, which holds `self` for the loop's whole life; or a one-shot task stored in a handle the
    /// owner's `deinit` cancels that holds `self` strongly across an `await` (captured strongly, or bound again by
    /// `guard let self` and used after the `await`): while it waits `self` cannot go, so `deinit` never runs to
    /// cancel it. Returns whether it reported.
    private func reportHeldSelf(_ call: FunctionCallExprSyntax, closure: ClosureExprSyntax, type: TypeScope, context: FileContext) -> Bool {
        let weak = SyntaxFacts.capturesSelfWeakly(closure)
        let rebinding = weak ? SelfLifetimeFacts.strongRebinding(in: closure) : nil
        if let rebinding, SelfLifetimeFacts.longLoop(in: closure, from: rebinding.index + 1, using: rebinding.name) != nil {
            report(Syntax(call.calledExpression), Self.holdsSelfForLoop, ["name": rebinding.name],
                   uses: SelfUses(explicitSelf: true), type: type, context: context)
            return true
        }
        // A `deinit` is declared in the type's own body: in an extension the walk cannot see it.
        guard type.kind != .extension, let handle = context.storedHandleName(ofTask: call),
              SelfLifetimeFacts.handlesCancelledInDeinit(of: type.node).contains(handle) else { return false }
        let uses: SelfUses
        if weak {
            guard let rebinding, SelfLifetimeFacts.usesAfterFirstAwait(rebinding.name, in: closure, from: rebinding.index + 1) else { return false }
            uses = SelfUses(explicitSelf: true)
        } else {
            uses = SelfUses(closure, enclosingFunction: nil)
            // A looping task keeps its own message (neither is ever released), below.
            guard !uses.loops, SyntaxFacts.containsAwait(closure.statements), uses.explicitSelf || !uses.bareNames.isEmpty else { return false }
        }
        report(Syntax(call.calledExpression), Self.holdsSelfAcrossAwait, ["handle": handle], uses: uses, type: type, context: context)
        return true
    }

    /// Reports when the index confirms the uses are of `self` (by the members it knows) in a class or actor that
    /// is not an app-lifetime singleton (`static let shared = Type()`): such an object lives as long as the
    /// process whatever holds it, so holding it strongly leaks nothing.
    private func report(_ node: Syntax, _ message: RuleMessage, _ arguments: [String: String] = [:], uses: SelfUses, type: TypeScope,
                        context: FileContext) {
        context.report(node, message, arguments, when: .capturedSelfIsReleasable(typeName: type.qualifiedName, isExtension: type.kind == .extension,
                                                                    explicitSelf: uses.explicitSelf, bareNames: uses.bareNames))
    }

    /// A function declared inside a `[weak self]` closure that uses `self` strongly (after `guard let self`) and
    /// schedules itself again from a `DispatchQueue` or `Task` closure: each run keeps `self` alive for the next.
    private func reportReschedulingNestedFunction(_ function: FunctionDeclSyntax, context: FileContext) {
        guard let type = context.scope.currentType, type.kind == .class || type.kind == .actor || type.kind == .extension,
              let body = function.body else { return }
        // The frames around the nested function, innermost first: it must sit in a `[weak self]` closure.
        var insideWeakClosure = false
        for frame in context.scope.frames.reversed().dropFirst() {
            if case .closure(let closure) = frame, closure.capturesSelfWeakly { insideWeakClosure = true; break }
            if case .closure = frame { continue }
            break
        }
        guard insideWeakClosure else { return }
        let name = function.name.text
        var reschedules = false
        BodyScanner.scan(body) { node in
            guard !reschedules, let call = node.as(FunctionCallExprSyntax.self) else { return }
            let scheduling = TaskFacts.isTaskCreation(call, context: context)
                || (["async", "asyncAfter"].contains(SyntaxFacts.calleeMethodName(call)) && (SyntaxFacts.receiverText(call) ?? "").hasPrefix("DispatchQueue"))
            guard scheduling, let closure = SyntaxFacts.closures(of: call).first, !SyntaxFacts.capturesSelfWeakly(closure) else { return }
            BodyScanner.scan(closure.statements) { inner in
                if let again = inner.as(FunctionCallExprSyntax.self),
                   again.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == name { reschedules = true }
            }
        }
        guard reschedules else { return }
        let uses = SelfUses(body, enclosingFunction: nil)
        guard uses.explicitSelf || !uses.bareNames.isEmpty else { return }
        report(Syntax(function.name), Self.reschedulingNestedFunction, uses: uses, type: type, context: context)
    }
}

/// How a task closure uses `self`: explicitly, or by bare member names; whether it loops; and whether it
/// calls the function it was created in again (a self-rescheduling chain).
private struct SelfUses {
    var explicitSelf = false
    var bareNames: Set<String> = []
    var loops = false
    var reentersEnclosingFunction = false

    /// Uses already proven (a `self` bound strongly and used).
    init(explicitSelf: Bool) {
        self.explicitSelf = explicitSelf
    }

    init(_ closure: ClosureExprSyntax, enclosingFunction: String?) {
        self.init(closure.statements, enclosingFunction: enclosingFunction)
    }

    init(_ statements: some SyntaxProtocol, enclosingFunction: String?) {
        var sleeps = false
        var hasOpenEndedFor = false
        for token in statements.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .keyword(.self):
                // `guard let self` in a nested weak closure rebinds; a bare `self` expression is a strong use,
                // `self?.x` goes through the weak reference and is not.
                if let reference = token.parent?.as(DeclReferenceExprSyntax.self), reference.parent?.is(OptionalChainingExprSyntax.self) != true {
                    explicitSelf = true
                }
            case .keyword(.while), .keyword(.repeat): loops = true
            case .keyword(.for):
                // `for step in 1...10` ends by itself; a loop over a collection or stream may not.
                if let loop = token.parent?.as(ForStmtSyntax.self) {
                    if loop.awaitKeyword != nil, !Self.isTaskGroup(loop.sequence) { loops = true }
                    if !Self.isLiteralRange(loop.sequence) { hasOpenEndedFor = true }
                }
            case .identifier(let name):
                if name == "sleep" { sleeps = true }
                if let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                   reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != reference.id {
                    bareNames.insert(name)
                }
                if name == enclosingFunction, Self.isCallee(token), Self.isDirectlyIn(token, statements) { reentersEnclosingFunction = true }
            default: break
            }
        }
        if hasOpenEndedFor && sleeps { loops = true }
    }

    /// `name(...)`, `self.name(...)` or `self?.name(...)`: the token names a method of `self` being called (not
    /// `service.name(...)`, another object's method that shares the name).
    static func isCallee(_ token: TokenSyntax) -> Bool {
        guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return false }
        var callee = Syntax(reference)
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            guard let base = member.base, SyntaxFacts.isSelf(base.as(OptionalChainingExprSyntax.self)?.expression ?? base) else { return false }
            callee = Syntax(member)
        }
        return callee.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == callee.id
    }

    /// Whether the token runs with the scheduled closure itself, not in a closure nested in it that someone else
    /// calls later (a menu action's handler that rebuilds the menu is not a rescheduling chain).
    static func isDirectlyIn(_ token: TokenSyntax, _ statements: some SyntaxProtocol) -> Bool {
        var current = token.parent
        while let node = current, node.id != statements.id {
            if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return false }
            current = node.parent
        }
        return true
    }

    /// `for await result in group` where `group` is the parameter of a `withTaskGroup { group in }` closure
    /// around the loop: it ends when the group's children do.
    static func isTaskGroup(_ sequence: ExprSyntax) -> Bool {
        guard let name = sequence.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        var current = sequence.parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self) {
                if NotificationHandler.parameterNames(closure).contains(name) {
                    guard let call = SyntaxFacts.enclosingCall(ofClosure: closure) else { return false }
                    return SyntaxFacts.calleeName(call).hasSuffix("TaskGroup")
                }
            }
            current = node.parent
        }
        return false
    }

    /// `1...10`, `0..<5`: a range between two integer literals.
    static func isLiteralRange(_ sequence: ExprSyntax) -> Bool {
        guard let elements = sequence.as(SequenceExprSyntax.self)?.elements, elements.count == 3 else { return false }
        let parts = Array(elements)
        return parts[0].is(IntegerLiteralExprSyntax.self) && parts[2].is(IntegerLiteralExprSyntax.self)
            && ["...", "..<"].contains(parts[1].as(BinaryOperatorExprSyntax.self)?.operator.text ?? "")
    }
}
