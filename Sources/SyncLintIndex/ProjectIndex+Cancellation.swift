import SyncLintFacts

/// Whether an awaited call can throw a cancellation at all: followed through the project's functions
/// (`FunctionSummary.cancellationSources`) to the framework calls that report one (`FrameworkCalls`:
/// `Task.sleep`, `Task.checkCancellation()`, URLSession's async transfers).
extension ProjectIndex {
    /// How many project functions deep a cancellation source is followed: a view model's load, its repository, its
    /// API client, the client's request helper, the transfer. Deeper than that is `unknown`, not `never`.
    public static let cancellationDepth = 5

    /// What the errors of the function can carry of its task's cancellation: `proven` when it (or a project function
    /// it reaches through calls whose errors it lets out) throws one the framework table knows; `never` when every
    /// such call is followed and none does; `unknown` otherwise. A function that throws only the app's own errors
    /// (`throwsOnlyOwnErrors`) hands over none its callers could tell apart: `never`.
    public func cancellationThrow(of key: FunctionKey) -> CancellationThrow {
        var seen: Set<FunctionKey> = []
        return cancellationThrow(of: key, remaining: Self.cancellationDepth, seen: &seen)
    }

    /// The same for a call a rule sees: a project function is followed; anything else awaited may throw one.
    public func cancellationThrow(of call: CallReference, awaited: Bool = true) -> CancellationThrow {
        var seen: Set<FunctionKey> = []
        return cancellationThrow(ofCall: call.callee, receiver: call.receiver, callerType: call.caller.typeName, awaited: awaited,
                                 remaining: Self.cancellationDepth, seen: &seen)
    }

    /// The same for the `try`s of a body a rule reads (a `do` body), made in a function of `caller`'s type.
    public func cancellationThrow(of sources: CancellationSources, caller: FunctionKey) -> CancellationThrow {
        var seen: Set<FunctionKey> = [caller]
        return cancellationThrow(of: sources, in: caller, remaining: Self.cancellationDepth, seen: &seen)
    }

    private func cancellationThrow(of key: FunctionKey, remaining: Int, seen: inout Set<FunctionKey>) -> CancellationThrow {
        guard let summary = functionSummaries[key] else { return .unknown }
        // Met again on the way (recursion, or overloads merged under one name: `getData(for:)` calling another
        // `getData`): what that call reaches is not followed, so it may throw one. A real cycle's other calls still
        // decide at the first visit.
        guard seen.insert(key).inserted else { return .unknown }
        if summary.throwsOnlyOwnErrors { return .never }
        return cancellationThrow(of: summary.cancellationSources, in: key, remaining: remaining, seen: &seen)
    }

    private func cancellationThrow(of sources: CancellationSources, in key: FunctionKey, remaining: Int,
                                   seen: inout Set<FunctionKey>) -> CancellationThrow {
        if sources.throwsItself { return .proven }
        guard remaining > 0 else { return sources.calls.isEmpty && !sources.awaitsUnnamed ? .never : .unknown }
        var result: CancellationThrow = sources.awaitsUnnamed ? .unknown : .never
        for call in sources.calls {
            let found = cancellationThrow(ofCall: call.callee, receiver: call.receiver, callerType: key.typeName, awaited: call.awaited,
                                          remaining: remaining - 1, seen: &seen)
            result = max(result, found)
            if result == .proven { break }
        }
        return result
    }

    private func cancellationThrow(ofCall name: String, receiver: ValueType?, callerType: String?, awaited: Bool,
                                   remaining: Int, seen: inout Set<FunctionKey>) -> CancellationThrow {
        // The type whose method it calls: the receiver's, or for an unqualified call the function's own (a protocol
        // extension calling a requirement, `try await fetch(in:)`).
        let resolved = receiver == .unknown ? nil : callee(named: name, receiver: receiver, callerType: callerType)
        let owner = resolved?.typeName ?? receiver.flatMap { $0 == .unknown ? nil : receiverOwner($0) }
        // A protocol's requirement has no body (its summary says nothing): its project conformers' methods, and a
        // default implementation in an extension, are what the call may run. None of them: unknown.
        if let owner, declarations(of: owner).contains(where: { $0.kind == .protocol }) {
            var keys = subtypes(of: owner).map { FunctionKey(typeName: $0, name: name) }.filter { functionSummaries[$0] != nil }
            let own = FunctionKey(typeName: owner, name: name)
            if let summary = functionSummaries[own], summary.cancellationSources != CancellationSources() { keys.append(own) }
            guard !keys.isEmpty else { return awaited ? .unknown : .never }
            var result: CancellationThrow = .never
            for key in keys {
                result = max(result, cancellationThrow(of: key, remaining: remaining, seen: &seen))
                if result == .proven { break }
            }
            return result
        }
        if let key = resolved { return cancellationThrow(of: key, remaining: remaining, seen: &seen) }
        // Another module's call, a closure, a receiver of unknown type: awaited, it may report a cancellation; a
        // synchronous one reads no task's flag (only `Task.checkCancellation()` does, which the table knows).
        return awaited ? .unknown : .never
    }

    /// The project types that list `typeName` among their supertypes, and theirs, to three levels.
    func subtypes(of typeName: String) -> [String] {
        let map = directSubtypes.value { [self] in
            var result: [String: [String]] = [:]
            for (name, declarations) in typesByName {
                for supertype in Set(declarations.flatMap(\.inheritedTypes)) {
                    guard let resolved = resolveType(supertype, from: Self.enclosingScope(of: name)) else { continue }
                    result[resolved, default: []].append(name)
                }
            }
            return result.mapValues { $0.sorted() }
        }
        var found: [String] = []
        var frontier = [typeName]
        for _ in 0..<3 {
            frontier = frontier.flatMap { map[$0] ?? [] }.filter { !found.contains($0) }
            found += frontier
        }
        return found
    }

    // MARK: Who cancels, and whether the state written outlives it

    /// Whether the code can be cancelled while the state it writes still shows: some way it is cancelled is not a
    /// `.task { }` (without `id:`) of a view that owns that state. Such a task is cancelled only when its view
    /// disappears; state the view owns (`@State`, an object it holds as `@StateObject` or `@State`) is shown again only
    /// if the view comes back with it, which a view that pushes a destination (`NavigationLink`,
    /// `navigationDestination`) does. `writes` are the properties the code writes, of `type`; `.task(id:)`, a
    /// `.refreshable`, a stored handle cancelled elsewhere, or a caller on another object all outlive the canceller.
    public func isCancelledWhileStateLives(_ cancellation: Cancellability, writes: [String], ofType type: String?) -> Bool {
        var seen: Set<FunctionKey> = []
        func check(_ cancellation: Cancellability, holder: StateHolder, remaining: Int) -> Bool {
            switch cancellation {
            case .always, .ifHandleCancelled: return isCancellable(cancellation)
            case .never: return false
            case .ifCallersCancellable(let key):
                guard remaining >= 0, seen.insert(key).inserted else { return false }
                let sites = cancellerSites(of: key).filter { codeKind(of: $0.location) == .app }
                // No call resolved to it: whether it is cancellable at all is `isCancellable`'s question.
                if sites.isEmpty { return isCancellable(cancellation) }
                return sites.contains { site in
                    let holderAtCaller = stateHolder(holder, after: site)
                    guard case .always = site.cancellation,
                          summary(of: site.caller)?.disappearOnlyTaskCalls.contains(site.location) == true,
                          let view = site.caller.typeName else {
                        return check(site.cancellation, holder: holderAtCaller, remaining: remaining - 1)
                    }
                    return !viewOwnsState(view: view, holder: holderAtCaller, writes: writes, ofType: type)
                        || pushesDestination(view)
                }
            }
        }
        return check(cancellation, holder: .ownObject, remaining: ProjectIndex.callDepth)
    }

    /// Whose state the written properties are, seen from a function up the call chain: its own object's (the code
    /// runs on `self`, or on a caller that calls it on `self`), the object one of its properties holds (the caller
    /// calls `planner.locatePlace()` and the code writes the planner's state), or an object the index cannot tie to it.
    enum StateHolder: Equatable {
        case ownObject
        case heldBy(property: String)
        case unknown
    }

    /// The holder of the written state as the caller of `site` sees it: a call on `self` keeps it; a call on a property
    /// of the caller's own type (`planner.locatePlace()`) makes the state the object that property holds; anything else
    /// (a deeper path, a parameter, a shared instance) loses the tie.
    func stateHolder(_ holder: StateHolder, after site: CallFact) -> StateHolder {
        guard let receiver = site.receiver else { return holder }
        guard holder == .ownObject, case .member(let base, let name) = receiver, case .named(let owner, _) = base,
              let caller = site.caller.typeName, resolveType(owner) == resolveType(caller) else { return .unknown }
        return .heldBy(property: name)
    }

    /// Whether the state the code writes dies with the view: the view calls a method of its own that writes its own
    /// `@State`, or calls (directly or through its own methods) the object it holds as `@StateObject` (or `@State`)
    /// whose own state the code writes.
    func viewOwnsState(view: String, holder: StateHolder, writes: [String], ofType type: String?) -> Bool {
        guard !writes.isEmpty else { return false }
        switch holder {
        case .ownObject:
            // The view's own method: its `@State` dies with it.
            guard let type, resolveType(type) == resolveType(view) else { return false }
            return writes.allSatisfy { property($0, of: view)?.hasAttribute("State") == true }
        case .heldBy(let name):
            guard let held = property(name, of: view) else { return false }
            return held.hasAttribute("StateObject") || held.hasAttribute("State")
        case .unknown:
            return false
        }
    }

    /// Whether the view pushes a destination over itself (`NavigationLink`, `navigationDestination`): it disappears
    /// while it stays in the stack, and its `.task` is cancelled then, with its state still there on return.
    public func pushesDestination(_ view: String) -> Bool {
        guard let qualified = resolveType(view) else { return false }
        return viewConstructionsBySimpleName.values.contains { constructions in
            constructions.contains { $0.identity == .pushedDestination && $0.scope.flatMap { resolveType($0) } == qualified }
        }
    }
}
