import SwiftSyntax

/// `timer = Timer.scheduledTimer(...)` over a timer that may still be scheduled, with no `invalidate()` first.
public final class TimerReplacedWithoutInvalidateRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "timer_replaced_without_invalidate",
        name: "Timer Replaced Without Invalidate",
        whatItDoes: """
            Finds `property = Timer.scheduledTimer(...)` on a stored property when some path from the start of the \
            function (or closure) to the assignment neither calls `property?.invalidate()` nor tests the property \
            (`guard timer == nil`, `if let timer`), nor calls a method of the same type that invalidates it (followed \
            three calls deep). Assignments in functions that run once per object (`init`, `viewDidLoad`, \
            `awakeFromNib`, ...) are skipped.
            """,
        whyIsThisBad: """
            The run loop keeps every scheduled timer until it is invalidated (Apple's `Timer` documentation); \
            overwriting the property only drops the app's handle on the old one. A repeating timer then keeps firing \
            for the life of the process, next to the new one: a poll runs twice as often after each restart, a \
            countdown ticks double, and the old timer's block keeps its captures alive. A one-shot debounce timer \
            still fires once, so the debounce does not debounce. Call `property?.invalidate()` before scheduling the \
            new timer.
            """,
        seed: "issue 23 candidate 4",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                final class Poller {
                    private var timer: Timer?
                    func start(every interval: TimeInterval) {
                        ↓timer = Timer.scheduledTimer(withTimeInterval: interval, repeats: true) { [weak self] _ in self?.poll() }
                    }
                    func poll() {}
                }
                """),
            RuleExample("""
                final class SearchController {
                    private var debounce: Timer?
                    func textChanged(_ text: String) {
                        if text.isEmpty { debounce?.invalidate(); return }
                        ↓self.debounce = Timer.scheduledTimer(withTimeInterval: 0.3, repeats: false) { [weak self] _ in self?.search(text) }
                    }
                    func search(_ text: String) {}
                }
                """),
        ],
        nonTriggeringExamples: [
            // Called only from `init`: there is no old timer yet.
            RuleExample("""
                final class ReachabilityStore {
                    private var timer: Timer?
                    init() { startChecking(interval: 5) }
                    deinit { timer?.invalidate() }
                    private func startChecking(interval: TimeInterval) {
                        timer = Timer.scheduledTimer(withTimeInterval: interval, repeats: true) { [weak self] _ in self?.ping() }
                    }
                    func ping() {}
                }
                """),
            RuleExample("""
                final class Poller {
                    private var timer: Timer?
                    func start(every interval: TimeInterval) {
                        timer?.invalidate()
                        timer = Timer.scheduledTimer(withTimeInterval: interval, repeats: true) { [weak self] _ in self?.poll() }
                    }
                    func restart() {
                        stop()
                        timer = Timer.scheduledTimer(withTimeInterval: 5, repeats: true) { [weak self] _ in self?.poll() }
                    }
                    func stop() { timer?.invalidate(); timer = nil }
                    func poll() {}
                }
                """),
            RuleExample("""
                final class Clock {
                    private var ticker: Timer?
                    private var countdown: [UUID: Timer] = [:]
                    init() {
                        ticker = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in }
                    }
                    func resume() {
                        guard ticker == nil else { return }
                        ticker = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in }
                    }
                    func add(_ id: UUID) {
                        countdown[id] = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in }
                        let local = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in }
                        _ = local
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in. A function the project calls only from `init`, `viewDidLoad` and the like is not reported (it \
            runs once per object, with no old timer to drop); one called once from elsewhere (a `start()` called from \
            one place at launch) is reported all the same, and a caller that always invalidates first is not followed. \
            Timers in a dictionary and `DispatchSourceTimer`s are not checked.
            """,
        messages: [replaced])
    static let replaced = RuleMessage("timer_replaced", "assigning a new timer to `{property}` leaves the old one scheduled (the run loop keeps it, and a repeating one " +
        "fires forever); call `{property}?.invalidate()` first")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let call = node.as(FunctionCallExprSyntax.self), context.calleeMethodName(call) == "scheduledTimer",
              FrameworkTimers.scheduledTimerCallees.contains(SyntaxFacts.calleeName(call)),
              let type = context.scope.currentType, let function = context.scope.currentFunction, let functionBody = function.body,
              !TaskHandleOverwrittenRule.runOnce.contains(function.name),
              let target = TaskFacts.assignmentTarget(ofValue: call), !target.is(SubscriptCallExprSyntax.self) else { return }
        let locals = FlowFacts.localNames(in: functionBody).union(function.parameters.map { $0.name })
        guard let name = FlowFacts.selfProperty(target, locals: locals), SyntaxFacts.memberPath(target)?.members.count ?? 0 <= 1 else { return }
        // The body the assignment runs in: the innermost closure inside the function, or the function.
        let owner: Syntax = context.scope.currentClosure.map { Syntax($0.node) }.flatMap { $0.position >= function.node.position ? $0 : nil }
            ?? function.node
        guard let built = context.controlFlowGraph(of: owner) else { return }
        let graph = built.graph
        if owner.id != function.node.id, Self.stops(name, in: Syntax(functionBody), before: owner.position) { return }
        let writeStart = target.positionAfterSkippingLeadingTrivia.utf8Offset
        let writes = graph.nodes.filter { $0.kind == .write && $0.start <= writeStart && writeStart < $0.end }.map(\.id)
        guard !writes.isEmpty else { return }
        let stopLabels: Set<String> = [name + "." + FrameworkTimers.stopMethod, "self." + name + "." + FrameworkTimers.stopMethod]
        let tested = Self.conditionOffsets(mentioning: name, in: owner)
        let stopsHere = { (node: ControlFlowGraph.Node) in
            (node.kind == .call && stopLabels.contains(node.label ?? ""))
                || (node.kind == .condition && tested.contains { node.start <= $0 && $0 < node.end })
        }
        let helperNodes = graph.nodes.filter { node in
            guard node.kind == .call, let label = node.label, !label.isEmpty else { return false }
            let method = label.hasPrefix("self.") ? String(label.dropFirst(5)) : label
            return !method.contains(".") && method.startsLowercase && method != function.name
        }
        let reaching = { (avoid: (ControlFlowGraph.Node) -> Bool) in
            writes.contains { graph.hasPath(from: graph.entry, to: $0, avoiding: avoid) }
        }
        guard reaching(stopsHere) else { return }
        let helperIDs = Set(helperNodes.map(\.id))
        let helpers = Set(helperNodes.compactMap { $0.label.map { $0.hasPrefix("self.") ? String($0.dropFirst(5)) : $0 } }).sorted()
        // A function the project calls only from code that runs once per object (`init`, `viewDidLoad`) has no old
        // timer to drop.
        let calledOnce = IndexCondition.everyCallerIn(FunctionKey(typeName: type.qualifiedName, name: function.name),
                                                      names: TaskHandleOverwrittenRule.runOnce.sorted())
        let stored = IndexCondition.all([.someStoredVar([name], ofType: type.qualifiedName), .not(calledOnce)])
        if helpers.isEmpty || reaching({ stopsHere($0) || helperIDs.contains($0.id) }) {
            context.report(target, Self.replaced, ["property": name], when: stored)
        } else {
            let keys = helpers.map { FunctionKey(typeName: type.qualifiedName, name: $0) }
            context.report(target, Self.replaced, ["property": name], when: .all([stored, .not(.someStopsHandle(keys, property: name))]))
        }
    }

    /// Offsets of the property's name inside conditions (`guard timer == nil`, `if let timer`, `if timer?.isValid == true`).
    static func conditionOffsets(mentioning name: String, in body: Syntax) -> [Int] {
        body.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard token.text == name, token.ancestorOrSelf(mapping: { $0.as(ConditionElementSyntax.self) }) != nil else { return nil }
            return token.positionAfterSkippingLeadingTrivia.utf8Offset
        }
    }

    /// `name?.invalidate()` (or a test of the property) before the closure that assigns, in the function around it.
    static func stops(_ name: String, in body: Syntax, before position: AbsolutePosition) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.endPosition <= position, token.text == name else { return false }
            if token.ancestorOrSelf(mapping: { $0.as(ConditionElementSyntax.self) }) != nil { return true }
            guard let member = token.parent?.parent?.parent?.as(MemberAccessExprSyntax.self) ?? token.parent?.parent?.as(MemberAccessExprSyntax.self)
            else { return false }
            return member.declName.baseName.text == FrameworkTimers.stopMethod
        }
    }
}
