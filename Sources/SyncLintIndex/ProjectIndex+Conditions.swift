import SyncLintFacts

extension ProjectIndex {
    public func holds(_ condition: IndexCondition) -> Bool {
        switch condition {
        case .isCancellable(let cancellation):
            return isCancellable(cancellation)
        case .isProvenCancellable(let cancellation):
            return isCancellable(cancellation, proven: true)
        case .someTestsCancellation(let calls):
            return calls.contains { call in
                guard let key = callee(of: call) else { return false }
                return reachableSummaries(from: key).contains { $0.summary.testsCancellationError }
            }
        case .someCalleeReads(let calls, let names):
            let wanted = Set(names)
            return calls.contains { call in
                guard let key = callee(of: call) else { return false }
                return reachableSummaries(from: key).contains { !$0.summary.reads.isDisjoint(with: wanted) }
            }
        case .isPersistentModel(let value):
            guard let type = resolve(value), !type.isCollection else { return false }
            return isPersistentModel(type.name)
        case .runsOffMain(let key):
            return executionContexts(of: key).contains(where: isOffMain)
        case .moduleDefaultsToMainActor(let file):
            return defaultsToMainActor(file)
        case .typeIsIsolated(let typeName):
            return isolation(ofType: typeName) != .none
        case .throwsCancellation(let sources, let caller, let least):
            return cancellationThrow(of: sources, caller: caller) >= least
        case .cancelledWhileStateLives(let cancellation, let writes, let type):
            return isCancelledWhileStateLives(cancellation, writes: writes, ofType: type)
        case .pushesDestination(let view):
            return pushesDestination(view)
        case .neverSuspends(let calls, let context):
            return neverSuspends(calls, on: context)
        case .runsOncePerProcess(let key):
            return runsOncePerProcess(key)
        case .isUncalledInProgram(let key):
            return isUncalledInProgram(key)
        case .setOnlyBeforeRegistration(let property, let typeName, let handler):
            return isSetOnlyBeforeRegistration(property, of: typeName, handler: handler)
        case .returnsFinishedStream(let name):
            return finishedStreamMakerNames.contains(name)
        case .closureRunsOnOwnQueue(let arguments, let name):
            for argument in arguments {
                guard let (key, entry) = wrapper(runningClosure: argument) else { continue }
                switch entry.holder {
                case .receiver: return argument.receiverName == name
                case .property(let property): return property == name && (argument.call.receiver == nil || key.typeName == argument.call.caller.typeName)
                case .parameter(let position, let label):
                    let passed = argument.contextArguments.passed(position: position, label: label)
                    if case .contextProperty(let property)? = passed?.kind { return property == name }
                    return false
                }
            }
            return false
        case .parameterHoldsContext(let parameter, let queue):
            return self.queue(ofParameter: parameter) == queue
        case .contextMethodRunsOnOwnQueue(let name):
            return summary(of: FunctionKey(typeName: FrameworkCallbacks.contextTypeName, name: name))?.runsOnOwnContextQueue == true
        case .mayThrowCancellation(let call):
            guard let callee = callee(of: call), let summary = summary(of: callee) else { return true }
            return !summary.throwsOnlyOwnErrors
        case .reachesURLSessionTransfer(let calls):
            return calls.contains { call in
                callee(of: call).map { reachesUnconvertedTransfer(from: $0) { $0.awaitsURLSessionTransfer } } ?? false
            }
        case .mayReachURLSessionTransfer(let calls):
            return calls.contains { call in
                guard let call, let key = callee(of: call) else {
                    // A call the index cannot follow: a transfer is as likely as the project's own code makes it.
                    if let method = call?.callee, FrameworkCalls.mentions(method), !FrameworkCalls.entries.contains(where: {
                        $0.method == method && $0.throwsOnCancellation == .urlErrorCancelled
                    }) { return false }
                    // A project that converts `URLError.cancelled` centrally (its API layer throws `CancellationError`
                    // in its place) hands its callers the error they already catch.
                    return projectAwaitsURLSessionTransfers && !projectConvertsURLErrorCancelled
                }
                return reachesUnconvertedTransfer(from: key) {
                    $0.awaitsURLSessionTransfer || $0.awaitsTransferNamedLikeURLSession
                }
            }
        case .readByViews(let name):
            // A project with no view code at all (a package of models, a snippet) says nothing about what views read.
            return viewReadNames.isEmpty || viewReadNames.contains(name)
        case .returnedValueShown(let key):
            return callSites(of: key).contains { site in
                guard let property = site.assignedTo else { return false }
                return self.property(property, of: site.caller.typeName ?? "") != nil && holds(.readByViews(property))
            }
        case .isPersistentModelNamed(let typeName):
            return isPersistentModel(typeName)
        case .isDeclaredOtherThanPersistentModel(let typeName):
            return declarations(of: typeName).contains { $0.kind != .extension } && !isPersistentModel(typeName)
        case .rollsBack(let key):
            return summary(of: key)?.rollsBack == true
        case .everyCallerRollsBack(let key):
            return everyCallerRollsBack(key)
        case .someResetsOnEveryPath(let keys, let flag):
            return keys.contains { summary(of: $0)?.resetsOnEveryPath.contains(flag) == true }
        case .someResets(let keys, let flag):
            return keys.contains { summary(of: $0)?.resetFlags.contains(flag) == true }
        case .someSetsTrueOnEveryPath(let keys, let flag):
            return keys.contains { summary(of: $0)?.setsTrueOnEveryPath.contains(flag) == true }
        case .everyCallerIn(let key, let names):
            let sites = callSites(of: key)
            return !sites.isEmpty && sites.allSatisfy { names.contains($0.caller.name) }
        case .someGuardsReentry(let keys):
            return keys.contains { key in
                guard let summary = summary(of: key) else { return false }
                return !summary.isAsync && !summary.onceGuards.isEmpty
            }
        case .everyCallerRunsOnce(let key):
            let sites = callSites(of: key)
            return !sites.isEmpty && sites.allSatisfy { site in
                guard let caller = summary(of: site.caller) else { return false }
                return caller.onceGuards.contains { flag in
                    !functionSummaries.values.contains { $0.key.typeName == site.caller.typeName && $0.resetFlags.contains(flag) }
                }
            }
        case .someCalls(let keys, let method):
            return keys.contains { key in
                summary(of: key).map { $0.calls.contains { $0.callee == method } || $0.unresolvedCalls[method] != nil } ?? false
            }
        case .otherFunctionResets(let typeName, let flag, let except):
            return functionSummaries.values.contains { $0.key.typeName == typeName && $0.key != except && $0.resetFlags.contains(flag) }
        case .someStopsHandle(let keys, let property):
            return keys.contains { key in
                reachableSummaries(from: key).contains { $0.summary.key.typeName == key.typeName && $0.summary.cancelledHandles.contains(property) }
            }
        case .lastParameterEscapes(let name, let receiver, let callerType):
            guard let key = callee(named: name, receiver: receiver, callerType: callerType) else { return false }
            return summary(of: key)?.lastParameterEscapes == true
        case .callsClosureParameterOffMain(let name, let receiver, let callerType, let label):
            guard let key = callee(named: name, receiver: receiver, callerType: callerType), let summary = summary(of: key) else { return false }
            return label.map { summary.closureParametersCalledOffMain.contains($0) } ?? summary.lastClosureParameterCalledOffMain
        case .holdsBackgroundContext(let property):
            return coreData.backgroundContextProperties.contains(property)
        case .runsOnlyInPerform(let key):
            return runsOnlyInPerform(key, remaining: ProjectIndex.callDepth)
        case .receivesBackgroundContextOutsidePerform(let key, let position, let label):
            return callSites(of: key).contains { site in
                guard codeKind(of: site.location) == .app, siteContext(site) != .privateQueue else { return false }
                // An actor with a custom executor (`unownedExecutor`) runs its methods inside its context's `perform`,
                // as the rule takes it for the actor's own uses.
                if let caller = site.caller.typeName, property("unownedExecutor", of: caller) != nil { return false }
                return contextArgument(of: site, position: position, label: label) { kind in
                    switch kind {
                    case .backgroundContext: return true
                    case .viewContext: return false
                    case .contextProperty(let property):
                        return coreData.backgroundContextProperties.contains(TypeProperty(typeName: site.caller.typeName ?? "", property: property))
                    case .parameter: return false
                    }
                }
            }
        case .receivesViewContext(let key, let position, let label):
            return callSites(of: key).contains { site in
                guard codeKind(of: site.location) == .app else { return false }
                return contextArgument(of: site, position: position, label: label) { kind in
                    switch kind {
                    case .backgroundContext: return false
                    case .viewContext: return true
                    case .contextProperty(let property):
                        return coreData.mainQueueContextProperties.contains(TypeProperty(typeName: site.caller.typeName ?? "", property: property))
                    case .parameter: return false
                    }
                }
            }
        case .holdsMainQueueContext(let member, let owner):
            guard let type = resolve(owner), !type.isCollection else { return false }
            return coreData.mainQueueContextProperties.contains(TypeProperty(typeName: type.name, property: member))
        case .hasProperty(let name, let typeName):
            return property(name, of: typeName) != nil
        case .propertyHasAttribute(let name, let attribute, let typeName):
            return property(name, of: typeName)?.hasAttribute(attribute) ?? false
        case .isOffMain(let context):
            return isOffMain(context)
        case .inherits(let typeName, let supertype):
            return inherits(typeName, from: supertype)
        case .nonisolatedAsyncRunsOnCaller(let file):
            return nonisolatedAsyncRunsOnCaller(file)
        case .isObservedByViews(let typeName):
            return isObservedByViews(typeName)
        case .publishesToViews(let member, let owner):
            guard let type = resolve(owner), !type.isCollection, property(member, of: type.name)?.hasAttribute("Published") == true else { return false }
            return isObservedByViews(type.name)
        case .holdsOffMainQueue(let member, let owner):
            return queueInitialValue(member, of: owner).map(FrameworkQueues.makesOffMainQueue) ?? false
        case .someAppCallerRunsOffMainThread(let key):
            return someAppCallerRunsOffMainThread(key)
        case .holdsMainQueue(let member, let owner):
            return queueInitialValue(member, of: owner).map(FrameworkQueues.isMainQueue) ?? false
        case .isLocalSaveFlag(let flag):
            return coreData.localSaveFlags.contains(flag)
        case .holdsContinuation(let name, let typeName):
            return property(name, of: typeName)?.typeName.map(FrameworkContinuations.isContinuationType) ?? false
        case .someStoredVar(let names, let typeName):
            return names.contains { property($0, of: typeName)?.isStoredVar == true }
        case .capturedSelfIsReleasable(let typeName, let isExtension, let explicitSelf, let bareNames):
            if isExtension, !declarations(of: typeName).contains(where: { $0.kind == .class || $0.kind == .actor }) { return false }
            if isSingleton(typeName) || isHeldByMainApp(typeName) { return false }
            if explicitSelf { return true }
            let members = Set(properties(of: typeName).map(\.name) + methods(of: typeName).map(\.name))
            return bareNames.contains(where: members.contains)
        case .isAppLifetimeObject(let typeName, let orSingleton):
            let lifetime = Set(FrameworkObservers.appLifetimeSupertypes.map(\.name))
            if declarations(of: typeName).contains(where: { !lifetime.isDisjoint(with: $0.inheritedTypes) }) { return true }
            return orSingleton && isSingleton(typeName)
        case .all(let conditions):
            return conditions.allSatisfy(holds)
        case .any(let conditions):
            return conditions.contains(where: holds)
        case .not(let condition):
            return !holds(condition)
        }
    }
}

extension ProjectIndex {
    /// Every call site's function, or one of its own callers (to three calls up), rolls back.
    func everyCallerRollsBack(_ key: FunctionKey) -> Bool {
        var seen: Set<FunctionKey> = []
        func rollsBack(_ key: FunctionKey, depth: Int) -> Bool {
            guard depth > 0, seen.insert(key).inserted else { return false }
            let sites = callSites(of: key)
            return !sites.isEmpty && sites.allSatisfy { site in
                summary(of: site.caller)?.rollsBack == true || rollsBack(site.caller, depth: depth - 1)
            }
        }
        return rollsBack(key, depth: ProjectIndex.callDepth)
    }
}

extension ProjectIndex {
    /// A type with a static stored instance of itself (`static let shared = Store()`, `static let shared: Store = .init()`)
    /// and no `deinit`: one that declares a `deinit` (to cancel its task, say) expects to be released.
    /// A type the `@main` app builds into a stored property of its own (`@State private var store = Store()`,
    /// `let model = Model()`): it lives as long as the app does, so holding it strongly leaks nothing.
    func isHeldByMainApp(_ typeName: String) -> Bool {
        let simple = typeName.split(separator: ".").last.map(String.init) ?? typeName
        return typesByName.values.joined().contains { app in
            app.attributes.contains { $0.name == "main" } && app.inheritedTypes.contains("App")
                && app.properties.contains { property in
                    !property.isComputed && !property.isStatic
                        && (property.defaultValue ?? "").hasPrefix(simple + "(") && (property.typeName == nil || property.typeName == simple)
                }
        }
    }

    func isSingleton(_ typeName: String) -> Bool {
        let simple = typeName.split(separator: ".").last.map(String.init) ?? typeName
        if methods(of: typeName).contains(where: { $0.name == "deinit" }) { return false }
        return properties(of: typeName).contains { property in
            guard property.isStatic, !property.isComputed else { return false }
            let value = property.defaultValue ?? ""
            return property.typeName == simple || value.hasPrefix(simple + "(") || value.hasPrefix("Self(")
                || value.hasPrefix(".init(") && property.typeName == simple
        }
    }
}

extension ProjectIndex {
    /// The project function a call reaches that blocks its thread on a semaphore or group
    /// (`FunctionSummary.blockingWaits`), or nil. Asked for every method call in async code: most names belong to
    /// no blocking function at all, so the name is looked up first.
    package func blockingCallee(of call: CallReference) -> FunctionSummary? {
        guard blockingFunctionNames.value({ [self] in
            Set(functionSummaries.values.filter { !$0.blockingWaits.isEmpty }.map(\.key.name))
        }).contains(call.callee), let callee = callee(of: call), let summary = summary(of: callee),
              !summary.blockingWaits.isEmpty else { return nil }
        return summary
    }
}

extension ProjectIndex {
    /// Whether the app's own code (not tests or previews) awaits a `URLSession` transfer anywhere.
    var projectAwaitsURLSessionTransfers: Bool {
        functionSummaries.values.contains { $0.awaitsURLSessionTransfer && codeKind(of: $0.location) == .app }
    }

    /// Whether the call passes, as the parameter at `position` labelled `label`, a context of a kind `matches` accepts:
    /// a labelled parameter is matched by its label, an unlabelled one by its position.
    func contextArgument(of site: CallFact, position: Int, label: String?, _ matches: (ContextArgument.Kind) -> Bool) -> Bool {
        site.contextArguments.contains { argument in
            let same = label.map { argument.label == $0 } ?? (argument.label == nil && argument.position == position)
            return same && matches(argument.kind)
        }
    }

    /// Whether the app's own code converts `URLError.cancelled` into `CancellationError` somewhere
    /// (`FunctionSummary.convertsURLErrorCancelled`): an API layer that does so for every request the app makes.
    var projectConvertsURLErrorCancelled: Bool {
        functionSummaries.values.contains { $0.convertsURLErrorCancelled && codeKind(of: $0.location) == .app }
    }

    /// Whether the function, or one it calls (to `callDepth` calls), has the property `awaits` asks for (it awaits a
    /// transfer), on a path of calls that passes through no function converting `URLError.cancelled` into
    /// `CancellationError`: a converter's transfers, and those of the functions it calls, reach its callers converted.
    func reachesUnconvertedTransfer(from key: FunctionKey, where awaits: (FunctionSummary) -> Bool) -> Bool {
        var seen: Set<FunctionKey> = []
        func visit(_ key: FunctionKey, remaining: Int) -> Bool {
            guard let summary = functionSummaries[key], seen.insert(key).inserted, !summary.convertsURLErrorCancelled else { return false }
            if awaits(summary) { return true }
            guard remaining > 0 else { return false }
            return summary.calls.contains { call in callee(of: call).map { visit($0, remaining: remaining - 1) } ?? false }
        }
        return visit(key, remaining: ProjectIndex.callDepth)
    }

    /// Whether every place the function runs is a private-queue `perform` block: its own isolation says so, or it
    /// has callers and each is in one, or (with no isolation of its own) only called from functions that are. An
    /// entry point nobody calls may be called from anywhere.
    func runsOnlyInPerform(_ key: FunctionKey, remaining: Int) -> Bool {
        var seen: Set<FunctionKey> = []
        func check(_ key: FunctionKey, _ remaining: Int) -> Bool {
            guard seen.insert(key).inserted else { return true }
            if let summary = summary(of: key) {
                let own = resolved(summary.declaredContext)
                if own != .callers { return own == .privateQueue }
            }
            let sites = callSites(of: key)
            guard !sites.isEmpty, remaining > 0 else { return false }
            return sites.allSatisfy { site in
                let context = siteContext(site)
                return context == .callers ? check(site.caller, remaining - 1) : context == .privateQueue
            }
        }
        return check(key, remaining)
    }
}

extension ProjectIndex {
    /// The initial value written for the property `member` of a value of type `owner` (`let queue = DispatchQueue(label:
    /// "sync")`), as written without its surrounding trivia; nil when the type, the property or its initial value is not known.
    func queueInitialValue(_ member: String, of owner: ValueType) -> String? {
        guard let type = resolve(owner), !type.isCollection else { return nil }
        return property(member, of: type.name)?.defaultValue
    }
}

extension ProjectIndex {
    /// Whether some call of the function from app code runs off the main thread: the caller's own context is the pool,
    /// a detached task, another actor, a queue or a private-queue context; a caller that runs where its callers run is
    /// followed (to `callDepth` calls). Unlike `executionContexts`, calls from tests and previews and the threads of
    /// completion handlers and notifications (whose callers are not known) do not count.
    func someAppCallerRunsOffMainThread(_ key: FunctionKey) -> Bool {
        var seen: Set<FunctionKey> = []
        func visit(_ key: FunctionKey, remaining: Int) -> Bool {
            guard seen.insert(key).inserted else { return false }
            if let summary = functionSummaries[key] {
                let own = resolved(summary.declaredContext)
                if own != .callers { return Self.isProvenOffMainThread(own) }
            }
            return callSites(of: key).contains { site in
                guard codeKind(of: site.location) == .app else { return false }
                let context = siteContext(site)
                if context == .callers { return remaining > 0 && visit(site.caller, remaining: remaining - 1) }
                return Self.isProvenOffMainThread(context)
            }
        }
        return visit(key, remaining: ProjectIndex.callDepth)
    }

    /// `ExecutionContext.isOffMain`, less a completion handler's thread, which depends on the API that calls it.
    static func isProvenOffMainThread(_ context: ExecutionContext) -> Bool {
        context.isOffMain && context != .completionHandler
    }
}
