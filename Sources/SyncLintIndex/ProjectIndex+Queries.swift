import SyncLintFacts

/// The index's answers to the named queries pending findings carry (`IndexQuery`): nil keeps a finding
/// quiet; an answer picks its message and fills the blanks.
extension ProjectIndex {
    public func answer(_ query: IndexQuery) -> IndexAnswer? {
        switch query {
        case .containerCloudKitEvidence(let file, let containers):
            let evidence = containers.isEmpty ? cloudKit.swiftData(for: file)
                : containers.lazy.compactMap { self.cloudKitEvidence(forContainerAt: $0) }.first
            return evidence.map { IndexAnswer([$0.text], notes: $0.notes) }
        case .coreDataContainerCloudKitEvidence(let file, let name):
            let evidence = name.map { cloudKit.coreData(containerNamed: $0, in: file) } ?? cloudKit.coreDataAny(for: file)
            return evidence.map { IndexAnswer([$0.text], notes: $0.notes) }
        case .failingStore(let store):
            return failingStoreAnswer(store)
        case .blockingCallee(let reference):
            return blockingCallee(of: reference).map { callee in
                IndexAnswer([layout.shown(callee.location)], notes: [FindingNote("the function that blocks is here", at: callee.location)])
            }
        case .blockingWaitReceiver(let receiver):
            guard let type = resolve(receiver) else { return IndexAnswer(confidence: .medium) }
            return !type.isCollection && FrameworkBlockingWaits.blocks(type.name) ? IndexAnswer() : nil
        case .firstMethod(let typeName, let names):
            let methods = methods(of: typeName)
            return names.first { name in methods.contains { $0.name == name } }.map { IndexAnswer([$0]) }
        case .offMainNotification(let registration, let names):
            return offMainNotification(of: registration, names: names).map { IndexAnswer([$0]) }
        case .remoteChangeNotification(let registration, let names):
            return remoteChangeNotification(of: registration, names: names).map { IndexAnswer([$0]) }
        case .overlappingTaskWrite(let calls):
            return overlappingTaskWrite(calls: calls)
        case .cancelledTaskCaller(let key):
            let caller = callSites(of: key).first { site in
                // Awaited in the task's own code, not through another function: the task that is cancelled.
                if case .ifHandleCancelled = site.cancellation { return isCancellable(site.cancellation) }
                return false
            }
            return caller.map { IndexAnswer([$0.caller.name, layout.shown($0.location)],
                                            notes: [FindingNote("awaited here by the task that is cancelled", at: $0.location)]) }
        case .helperWritesOffMain(let helper, let registration, let names):
            guard let write = writesOnCallersThread(of: helper).first,
                  let notification = offMainNotification(of: registration, names: names) else { return nil }
            // Where the helper is: it is another function, often in another file.
            let helperSummary = summary(of: helper)
            let at = helperSummary.map { " (\(layout.shown($0.location)))" } ?? ""
            let notes = helperSummary.map { [FindingNote("`\(helper.name)` is declared here", at: $0.location)] } ?? []
            return write.function.name == helper.name
                ? IndexAnswer(variant: 0, [write.write.property, notification, at], notes: notes)
                : IndexAnswer(variant: 1, [write.write.property, write.function.name, notification, at], notes: notes)
        case .uniqueKey(let model, let configured, let setKeys):
            return uniqueKeys(of: model, configured: configured).first { $0.properties.isSubset(of: setKeys) }?.answer
        case .overwrittenHandle(let name, let typeName, let functionKey, let helpers):
            guard let property = property(name, of: typeName), property.isStoredVar else { return nil }
            if cancelledElsewhere(name, typeName: typeName, function: functionKey, helpers: helpers) { return nil }
            // High only where the function is proven to run again on the same object (a view's action, a loop, a
            // handler): else the old handle may never be live when it is reassigned (a session object built and started
            // once, a task that clears its handle as it ends), which the index cannot tell.
            let again: Confidence? = mayRunAgain(functionKey) ? nil : .medium
            if let careful = restartedHandles(ofType: typeName).first(where: { $0.property == name && $0.starter != functionKey }) {
                let notes = summary(of: careful.starter).map { [FindingNote("`\(careful.starter.name)` cancels `\(name)` before restarting it", at: $0.location)] }
                return IndexAnswer(variant: 1, [careful.starter.name], notes: notes ?? [], confidence: again)
            }
            return IndexAnswer(variant: 0, confidence: again)
        case .restartedLoad(let method, let typeName, let functionKey, let cancellation, let helpers):
            guard let careful = restartedHandles(ofType: typeName).first(where: { handle in
                handle.loads.contains(method) && handle.starter != functionKey && !handle.loads.contains(functionKey.name)
                    // The load is an async method of the type: the work the handle exists to cancel.
                    && summary(of: FunctionKey(typeName: typeName, name: method))?.isAsync == true
                    && cancellation != .ifHandleCancelled(typeName: typeName, property: handle.property)
            }) else { return nil }
            let name = careful.property
            // A load that writes no state (a getter such as `gitIgnoreURL()`, awaited for its value) leaves nothing for
            // two runs to overwrite: running it twice is only work done twice.
            guard reachableSummaries(from: FunctionKey(typeName: typeName, name: method)).contains(where: { !$0.summary.writes.isEmpty })
            else { return nil }
            // A function the load itself calls (to three calls deep) is part of the load, not a second entry point.
            if reachableSummaries(from: FunctionKey(typeName: typeName, name: method)).contains(where: { $0.summary.key == functionKey }) {
                return nil
            }
            // This function looks at the handle (cancels it, awaits it, tests it) or is the careful one's helper.
            if let own = summary(of: functionKey), own.reads.contains(name) || own.cancelledHandles.contains(name) { return nil }
            // The load itself cancels the handle (`stop()` begins with `limitTask?.cancel()`): running it from here stops
            // the careful task's run rather than overlapping it.
            if reachableSummaries(from: FunctionKey(typeName: typeName, name: method)).contains(where: {
                $0.summary.cancelledHandles.contains(name) && $0.summary.key.typeName == typeName
            }) { return nil }
            if cancelledElsewhere(name, typeName: typeName, function: functionKey, helpers: helpers) { return nil }
            let callers = callSites(of: functionKey)
            if !callers.isEmpty, callers.allSatisfy({ $0.caller == careful.starter
                || $0.cancellation == .ifHandleCancelled(typeName: typeName, property: name) }) { return nil }
            let starter = summary(of: careful.starter)
            let starterPlace = starter.map { " (\(layout.shown($0.location)))" } ?? ""
            // Proven a restart of the same one-off load when the careful task's work is this load, run once: the only
            // async method of the type its task calls, outside any loop. A task that runs it in a loop (a poll, an
            // observation loop that reloads on each change: `CallFact.repeats`) or as one step among others (a shared
            // helper of a longer pipeline) is not the same work as this entry point's call: medium.
            let taskCalls = starter?.calls.filter { $0.receiver == nil && $0.cancellation == .ifHandleCancelled(typeName: typeName, property: name) } ?? []
            let asyncLoads = Set(taskCalls.map(\.callee).filter { summary(of: FunctionKey(typeName: typeName, name: $0))?.isAsync == true })
            // A load that itself cancels and restarts a task of its own (a debounced update) stops its previous run
            // when called again: two calls do not overlap there.
            let restartsItself = summary(of: FunctionKey(typeName: typeName, name: method))?.restartedHandles.isEmpty == false
            let sameOneOffLoad = asyncLoads == [method] && !taskCalls.contains { $0.callee == method && $0.repeats } && !restartsItself
            return IndexAnswer([name, careful.starter.name, starterPlace],
                               notes: starter.map { [FindingNote("`\(careful.starter.name)` cancels `\(name)` before starting the load", at: $0.location)] } ?? [],
                               confidence: sameOneOffLoad ? nil : .medium)
        case .offMainCaller(let key, let names):
            let places = executionContexts(of: key).compactMap { place -> (order: String, answer: IndexAnswer)? in
                switch place {
                case .notificationHandler(let notification):
                    return names.contains(notification) ? ("4" + notification + "`", IndexAnswer(variant: 4, [notification])) : nil
                case .concurrent, .serialQueue: return ("1", IndexAnswer(variant: 1))
                case .privateQueue: return ("2", IndexAnswer(variant: 2))
                case .detachedTask: return ("0", IndexAnswer(variant: 0))
                case .actor: return ("3", IndexAnswer(variant: 3))
                default: return nil
                }
            }
            return places.min { $0.order < $1.order }?.answer
        case .taskIdentity(let value, let typeName, let view, let isOptional):
            // A model (or a holder of one) can change under the task through sync anywhere; a plain value
            // changes under it only where the view keeps its identity while its argument changes: a split
            // view's column built from the selection. A view built per value gets a new task for each value.
            // A view the app builds only per value (a `ForEach` row keyed by the model, a view re-identified with
            // `.id(…)`, here or where a view around it is built) gets a new identity, and a new task, for each
            // value: nothing for `id:` to add.
            let evidence = identityEvidence(ofView: view)
            if evidence.builtOnlyPerValue { return nil }
            // Every place that builds the view passes a value that cannot change while it stays: nothing to restart on.
            if passesUnchangingValue(toView: view, label: value) { return nil }
            let notes: [FindingNote]
            let confidence: Confidence?
            if let kept = evidence.keptBy {
                // Where the input changes while the view stays: proven when the construction itself is in the column.
                notes = [FindingNote("`\(value)` changes here while the view keeps its identity: it is shown in a `NavigationSplitView` column, which keeps its view while the selection changes", at: kept.construction.location)]
                confidence = kept.direct || isOrHoldsPersistentModel(typeName) ? nil : .medium
            } else if isOrHoldsPersistentModel(typeName) {
                // No place seen where the view keeps its identity while the value changes, and none that builds it
                // only per value: a model, which sync can change under the task.
                notes = []
                confidence = nil
            } else {
                return nil
            }
            // `value.id` on an optional property does not compile: suggest no code there (variant 1).
            guard !isOptional, let identity = StableIdentity.expression(for: value, typeName: typeName, index: self) else {
                return IndexAnswer(variant: 1, notes: notes, confidence: confidence)
            }
            return IndexAnswer([identity], notes: notes, confidence: confidence)
        case .viewStateWrittenBy(let methods, let viewType, let conditionNames):
            var written: Set<String> = []
            for name in methods {
                // A method the index does not know may write anything: no fix (the name is the fact).
                guard let key = callee(named: name, receiver: nil, callerType: viewType) else { return IndexAnswer(variant: 0, ["\(name)()"]) }
                for reached in reachableSummaries(from: key) { written.formUnion(reached.summary.writes.map(\.property)) }
            }
            let hiding = conditionNames.intersection(written).sorted()
            guard !hiding.isEmpty else { return IndexAnswer(variant: 0, notes: rootNotes(viewType), confidence: rootConfidence(viewType)) }
            // The load writes what shows the view: it is meant to finish after the view it hides (a load-more marker),
            // so the task outliving the view is what the code needs, not proven harm.
            return IndexAnswer(variant: 1, [hiding.joined(separator: ", "), hiding.map { "`\($0)`" }.joined(separator: ", ")],
                               confidence: .medium)
        case .representableInputChanges(let view, let inputs):
            let built = constructions(ofView: view).filter { codeKind(of: $0.location) == .app }
            guard !built.isEmpty else { return IndexAnswer(confidence: .medium) }
            // A construction per value makes a new platform view (`make…` again) for each value.
            let live = built.filter { construction in
                switch construction.identity {
                case .perValue: return false
                case .stable, .splitViewSidebar, .pushedDestination:
                    return !(construction.scope.map { identityEvidence(ofView: $0).builtOnlyPerValue } ?? false)
                case .splitViewColumn: return true
                }
            }
            guard let changing = live.first(where: { construction in !inputs.allSatisfy(construction.constantArguments.contains) }) else {
                return nil
            }
            let names = inputs.filter { !changing.constantArguments.contains($0) }.map { "`\($0)`" }.joined(separator: ", ")
            return IndexAnswer(notes: [FindingNote("built here, where \(names) can change while the view keeps its identity", at: changing.location)])
        case .stateObjectArgumentBuilt(let view, let label):
            let built = constructions(ofView: view).filter { codeKind(of: $0.location) == .app }
            guard !built.isEmpty else { return IndexAnswer(confidence: .medium) }
            guard let building = built.first(where: { $0.builtArguments.contains(label) }) else { return nil }
            return IndexAnswer(notes: [FindingNote("the object passed as `\(label):` is built here, each time this body runs", at: building.location)])
        case .startsDiscardedTask(let methods, let viewType):
            for name in methods {
                guard let key = callee(named: name, receiver: nil, callerType: viewType) else { continue }
                // A task that uses nothing of the object that starts it is work for someone else (a save, a post),
                // meant to outlive the view: it does not count.
                let reached = reachableSummaries(from: key, depth: 1).map(\.summary)
                guard let starter = reached.first(where: { summary in summary.discardedTasks.contains { worksForStarter($0, in: summary) } }),
                      let started = starter.discardedTasks.first(where: { worksForStarter($0, in: starter) }) else { continue }
                // A method that runs once while its flag stays set (`guard !hasInitialized else { return }`, and nothing
                // sets the flag back) starts the task once per view, not on every appearance: medium.
                let runsOnce = [summary(of: key), starter].contains { summary in
                    summary.map { summary in summary.onceGuards.contains { isNeverReset($0, ofType: summary.key.typeName) } } ?? false
                }
                return IndexAnswer([name], notes: [FindingNote("`\(name)()` starts this `Task`, whose handle nobody keeps", at: started)]
                                        + rootNotes(viewType),
                                   confidence: runsOnce ? .medium : rootConfidence(viewType))
            }
            return nil
        case .buildsReferenceType(let typeNames, let scope):
            // Medium only where every type built is proven a value: a structure or an enumeration of the project, or a
            // framework value type (`FrameworkValueTypes`). A type the index does not see (a package outside the checkout)
            // keeps the rule's reading of it as an object.
            let values = typeNames.allSatisfy { name in
                let kinds = declarations(of: name, from: scope).map(\.kind).filter { $0 != .extension }
                return kinds.isEmpty ? FrameworkValueTypes.names.contains(name) : kinds.allSatisfy { $0 == .struct || $0 == .enum }
            }
            return IndexAnswer(confidence: values ? .medium : nil)
        case .taskOutlivesView(let view):
            return IndexAnswer(notes: rootNotes(view), confidence: rootConfidence(view))
        case .appearanceTaskAwaits(let view, let calls):
            // Each awaited call is a project `async` function with no `await` of its own: it cannot suspend, so the
            // task finishes on its first turn and nothing outlives the view.
            let neverSuspends = !calls.isEmpty && calls.allSatisfy { call in
                guard let key = callee(of: call), let callee = summary(of: key) else { return false }
                // A body that blocks its thread on a semaphore (`semaphore.wait()`) does not suspend, but runs on.
                return !callee.awaits && !reachableSummaries(from: key).contains { $0.summary.blocksInAsyncBody || !$0.summary.blockingWaits.isEmpty }
            }
            return neverSuspends ? nil : answer(.taskOutlivesView(view: view))
        case .taskIDMember(let rootType, let members):
            let chain = resolveChain(from: rootType, members: members)
            guard chain.count == members.count, let property = chain.last else { return nil }
            let ownerType = chain.count >= 2 ? chain[chain.count - 2].typeName ?? "" : rootType
            if property.isComputed {
                // Whether a computed value changes while the view shows depends on what its getter reads, which is not
                // followed: a key built from an entity's fixed fields is as stable as its `id`. So medium; and an owner
                // known only by its name (`…ViewModel`) is a guess as well.
                guard isPersistentModel(ownerType) || isObservable(ownerType) || ownerType.hasSuffix("ViewModel") else { return nil }
                return IndexAnswer(variant: 0, confidence: .medium)
            }
            guard property.isStoredVar, isPersistentModel(ownerType), !isEntityOfLocalConfigurationsOnly(ownerType) else { return nil }
            return IndexAnswer(variant: 1, [property.name])
        }
    }
}

extension ProjectIndex {
    /// Whether a Core Data entity of this name is, in every model that declares it, outside the configurations the model
    /// marks "Used with CloudKit": its store stays on the device, so sync never changes it.
    package func isEntityOfLocalConfigurationsOnly(_ entityName: String) -> Bool {
        let declaring = coreDataModels.filter { model in model.entities.contains { $0.name == entityName } }
        return !declaring.isEmpty && declaring.allSatisfy { model in !model.syncedEntities.contains { $0.name == entityName } }
    }

    /// Whether a discarded task started in `summary`'s body works for the object that starts it: it names `self`,
    /// or uses a member of its type (a stored or computed property, a method). A task of a free function, or one
    /// that uses only its parameters and globals (`CoreDataManager.shared.setOpened(...)`), does not.
    package func worksForStarter(_ task: SourceLocation, in summary: FunctionSummary) -> Bool {
        // Summaries stored without the uses (none recorded): count the task.
        guard let use = summary.discardedTaskUses.first(where: { $0.location == task }) else { return true }
        if use.namesSelf { return true }
        guard let typeName = summary.key.typeName, !use.names.isEmpty else { return false }
        let members = Set(properties(of: typeName).map(\.name)).union(methods(of: typeName).map(\.name))
        return !use.names.isDisjoint(with: members)
    }

    /// Whether no function of the type sets the flag back to `false`: a guard on it lets the guarded code run once.
    package func isNeverReset(_ flag: String, ofType typeName: String?) -> Bool {
        !functionSummaries.values.contains { summary in
            summary.key.typeName == typeName && summary.writes.contains { $0.property == flag && $0.boolValue != true }
        }
    }

    /// Whether every construction of the view in app code passes, for `label`, a value that cannot change while the
    /// view stays: a constant (`"Done"`, `.red`), or a property of the building view that is a plain `let` without a
    /// value of its own and is itself given such a value wherever that view is built (followed `depth` views out).
    package func passesUnchangingValue(toView view: String, label: String, depth: Int = ProjectIndex.callDepth) -> Bool {
        guard depth > 0 else { return false }
        let built = constructions(ofView: view).filter { codeKind(of: $0.location) == .app }
        guard !built.isEmpty else { return false }
        return built.allSatisfy { construction in
            if construction.constantArguments.contains(label) { return true }
            guard let forwarded = construction.forwardedArguments[label], let scope = construction.scope,
                  let property = property(forwarded, of: scope), property.isLet, !property.isComputed, !property.isStatic,
                  !property.hasDefault, property.attributes.isEmpty else { return false }
            return passesUnchangingValue(toView: scope, label: forwarded, depth: depth - 1)
        }
    }

    /// What the app's constructions of a SwiftUI view tell about its identity: whether every one gives it a new
    /// identity per value (a list row, a view re-identified with `.id(…)`, directly or through the view that builds
    /// it), and else the construction, if any, where it keeps its identity while its argument changes (a split
    /// view's column, a destination pushed from a split view's sidebar), `direct` when that construction is in the
    /// column itself rather than in a view built there. Followed up to `callDepth` views out.
    package func identityEvidence(ofView view: String) -> (builtOnlyPerValue: Bool, keptBy: (construction: ViewConstruction, direct: Bool)?) {
        var seen: Set<String> = []
        func evidence(_ view: String, depth: Int) -> (perValue: Bool, kept: (construction: ViewConstruction, direct: Bool)?) {
            // `seen` holds the views on the path being followed: a view that builds itself ends there.
            guard depth > 0, seen.insert(view).inserted else { return (false, nil) }
            defer { seen.remove(view) }
            let built = constructions(ofView: view).filter { codeKind(of: $0.location) == .app }
            guard !built.isEmpty else { return (false, nil) }
            var allPerValue = true
            var kept: (construction: ViewConstruction, direct: Bool)?
            for construction in built {
                switch construction.identity {
                case .perValue: continue
                case .splitViewColumn:
                    allPerValue = false
                    if kept?.direct != true { kept = (construction, true) }
                case .pushedDestination:
                    // Pushed from a view that is itself shown in a split view's sidebar: the detail column keeps it.
                    if let scope = construction.scope, isInSplitViewSidebar(scope, depth: depth - 1) {
                        allPerValue = false
                        if kept?.direct != true { kept = (construction, true) }
                    }
                case .stable, .splitViewSidebar:
                    let outer: (perValue: Bool, kept: (construction: ViewConstruction, direct: Bool)?) =
                        construction.scope.map { evidence($0, depth: depth - 1) } ?? (perValue: false, kept: nil)
                    if outer.perValue { continue }
                    allPerValue = false
                    if kept == nil, let outerKept = outer.kept { kept = (outerKept.construction, false) }
                }
            }
            return (allPerValue, kept)
        }
        let found = evidence(view, depth: Self.callDepth + 1)
        return (found.perValue, found.kept)
    }

    /// A view built in a `NavigationSplitView`'s sidebar, or inside a view built there.
    func isInSplitViewSidebar(_ view: String, depth: Int) -> Bool {
        guard depth > 0 else { return false }
        return constructions(ofView: view).contains { construction in
            construction.identity == .splitViewSidebar
                || (construction.identity == .stable && construction.scope.map { isInSplitViewSidebar($0, depth: depth - 1) } == true)
        }
    }
}

extension ProjectIndex {
    /// A persistent model, or a type with a stored property holding one (a view model around an article).
    package func isOrHoldsPersistentModel(_ typeName: String) -> Bool {
        if isPersistentModel(typeName) { return true }
        return properties(of: typeName).contains { property in
            !property.isComputed && !property.isStatic && property.elementTypeName.map(isPersistentModel) == true
        }
    }
}

extension ProjectIndex {
    /// Configured keys; then, for a model that syncs with CloudKit (which enforces no uniqueness),
    /// `@Attribute(.unique)` and the properties the project itself looks the model up by in a `#Predicate`;
    /// then keys its documentation names as unique in so many words. Each as `IndexQuery.uniqueKey` answers.
    /// A compound key (a lookup by several properties joined with `&&`) holds all its properties, and `{0}` names
    /// them together; an insert must set every one of them for the key to count.
    func uniqueKeys(of model: String, configured: [String]) -> [(properties: Set<String>, answer: IndexAnswer)] {
        guard isSwiftDataModel(model) || isManagedObject(model) else { return [] }
        if !configured.isEmpty { return configured.map { ([$0], IndexAnswer(variant: 0, [$0])) } }
        let properties = properties(of: model)
        var keys: [(properties: Set<String>, answer: IndexAnswer)] = []
        func has(_ key: Set<String>) -> Bool { keys.contains { $0.properties == key } }
        if let declaration = declarations(of: model).first, let evidence = cloudKitEvidence(forModel: declaration.name, declaredIn: declaration.location.file) {
            let unique = properties.filter { $0.attributes.contains { $0.name == "Attribute" && $0.arguments.contains(".unique") } }
            keys += unique.map { ([$0.name], IndexAnswer(variant: 1, [$0.name])) }
            let fetched = (fetchKeysByModel[model] ?? []).filter { codeKind(of: $0.location) == .app }
            for fetch in fetched {
                let key = Set([fetch.property] + fetch.lookedUpWith)
                guard key.allSatisfy({ name in properties.contains(where: { $0.name == name }) }), !has(key) else { continue }
                let named = key.sorted().joined(separator: "` and `")
                keys.append((key, IndexAnswer(variant: 2, [named, layout.shown(fetch.location), evidence.text],
                                              notes: [FindingNote("the app looks it up by `\(named)` here", at: fetch.location)] + evidence.notes)))
            }
        }
        let doc = declarations(of: model).map(\.docComment).joined(separator: "\n")
        for line in doc.split(separator: "\n") where Self.statesUniqueness(String(line)) {
            for property in properties where line.contains("`\(property.name)`") && !has([property.name]) {
                // Decided from the words of a comment, not from code: medium.
                keys.append(([property.name], IndexAnswer(variant: 3, [property.name], confidence: .medium)))
            }
        }
        return keys
    }

    /// A documentation line that says a key is unique, not one that says there is no uniqueness.
    static func statesUniqueness(_ line: String) -> Bool {
        let lowered = line.lowercased()
        guard lowered.contains("unique") else { return false }
        return !["no unique", "not unique", "non-unique", "nonunique", "without unique", "isn't unique", "no uniqueness"]
            .contains(where: lowered.contains)
    }
}

extension ProjectIndex {
    /// A helper called first that cancels the handle (to three calls deep), or callers that all cancel it.
    func cancelledElsewhere(_ name: String, typeName: String, function: FunctionKey, helpers: [String]) -> Bool {
        let cancels = { (key: FunctionKey) in
            self.reachableSummaries(from: key).contains { $0.summary.cancelledHandles.contains(name) && $0.summary.key.typeName == typeName }
        }
        if helpers.contains(where: { cancels(FunctionKey(typeName: typeName, name: $0)) }) { return true }
        let callers = callSites(of: function)
        // A caller that cancels the handle, or that returns early on a flag it sets before going on (`guard
        // !isLoadingMore else { return }; isLoadingMore = true`), or that runs once per object, lets no second run
        // start while the first holds the handle.
        return !callers.isEmpty && callers.allSatisfy { site in
            guard let caller = summary(of: site.caller) else { return false }
            // An initializer's call has no earlier task to drop.
            return caller.cancelledHandles.contains(name) || !caller.reentryGuards.isEmpty || !caller.onceGuards.isEmpty
                || site.caller.name == "init" || cancelsBefore(site, handle: name, typeName: typeName, in: caller)
        }
    }

    /// Whether the caller, before the call site, calls a function that cancels the handle (to three calls deep):
    /// `teardown(); startReceiveLoop()` where `teardown()` runs `receiveTask?.cancel()`. The old task is cancelled
    /// before the call stores the new one.
    func cancelsBefore(_ site: CallFact, handle name: String, typeName: String, in caller: FunctionSummary) -> Bool {
        caller.calls.contains { call in
            guard call.location.file == site.location.file,
                  (call.location.line, call.location.column) < (site.location.line, site.location.column),
                  let callee = callee(of: call) else { return false }
            return reachableSummaries(from: callee).contains { $0.summary.cancelledHandles.contains(name) && $0.summary.key.typeName == typeName }
        }
    }

    /// Whether the function can be called again on the same object while work it started runs: some chain of its
    /// callers (to `depth` calls up) reaches code that runs again and again by what it is: a call in a loop
    /// (`CallFact.repeats`), a SwiftUI view's code (an action, an appearance, a change handler: the view runs it on
    /// each event), a notification handler or a completion handler, or a function handed to someone else to call
    /// (`passedReferences`: a target-action, a callback). A function whose callers all run once per object
    /// (`init`), or whose chain ends in code the index sees called once, is not proven to run again.
    package func mayRunAgain(_ key: FunctionKey, depth: Int = ProjectIndex.callDepth) -> Bool {
        var seen: Set<FunctionKey> = []
        func visit(_ key: FunctionKey, remaining: Int) -> Bool {
            guard seen.insert(key).inserted else { return false }
            if let typeName = key.typeName, isView(typeName) { return true }
            let sites = callSites(of: key)
            if sites.isEmpty {
                // Called through a receiver whose type the syntax cannot tell, from a view; or handed to someone to call.
                return functionSummaries.values.contains { summary in
                    (summary.unresolvedCalls[key.name] != nil && summary.key.typeName.map(isView) == true)
                        || (summary.passedReferences.contains(key.name) && summary.key.typeName == key.typeName)
                }
            }
            for site in sites {
                // A call on an object the caller has just built is that object's first: it cannot overlap its own earlier run.
                if site.caller.name == "init" || site.onNewObject { continue }
                if site.repeats { return true }
                switch site.context {
                case .notificationHandler, .completionHandler: return true
                default: break
                }
                if remaining > 0, visit(site.caller, remaining: remaining - 1) { return true }
            }
            return false
        }
        return visit(key, remaining: depth)
    }
}

extension PendingFinding {
    /// The message when the finding holds against the finished index, else nil: the template picked (by the
    /// answer's variant, for a query), filled from the walk's arguments and the answer's (`0`, `1`, ..., and the
    /// names `answerArguments` gives them), with the walk's notes and the answer's, and the lower confidence.
    package func message(in index: ProjectIndex) -> FindingMessage? {
        if let condition, !index.holds(condition) { return nil }
        if let query {
            guard let answer = index.answer(query), messages.indices.contains(answer.variant) else { return nil }
            var facts = arguments.merging(MessageTemplate.positional(answer.arguments)) { walk, _ in walk }
            for (name, value) in zip(answerArguments, answer.arguments) where !name.isEmpty { facts[name] = value }
            return FindingMessage(MessageTemplate.fill(messages[answer.variant], facts), arguments: facts,
                                  id: messageID(variant: answer.variant), notes: notes + answer.notes,
                                  confidence: min(confidence, answer.confidence ?? .high))
        }
        return message.map {
            FindingMessage(MessageTemplate.fill($0, arguments), arguments: arguments, id: messageID(variant: 0), notes: notes,
                           confidence: confidence)
        }
    }
}

extension ProjectIndex {
    /// See `IndexQuery.overlappingTaskWrite`: the first awaited call whose function, or a function it calls, writes
    /// a stored property views read after an `await`, unless a function on the way guards against a second call.
    func overlappingTaskWrite(calls: [CallReference]) -> IndexAnswer? {
        for call in calls {
            guard let entry = callee(of: call) else { continue }
            let reached = summariesReachedOutsideRestartedTasks(from: entry)
            // One function that returns early while a call is in flight stops a second task at its door.
            guard reached.allSatisfy({ $0.reentryGuards.isEmpty }) else { continue }
            for summary in reached where summary.isAsync {
                guard let typeName = summary.key.typeName else { continue }
                let shown = summary.writesAfterAwait.sorted().first { name in
                    property(name, of: typeName)?.isStoredVar == true && holds(.readByViews(name))
                }
                guard let shown else { continue }
                return IndexAnswer([summary.key.name, shown, layout.shown(summary.location)],
                                   notes: [FindingNote("`\(summary.key.name)` writes `\(shown)` after an `await`", at: summary.location)])
            }
        }
        return nil
    }

    /// The function and those it calls (to `callDepth` calls), each once, except calls made inside a task the caller
    /// restarts (`FunctionSummary.restartedHandles`: it cancels the handle, then stores the new task there): the next
    /// call cancels that work, so it cannot overlap with a newer run.
    func summariesReachedOutsideRestartedTasks(from key: FunctionKey) -> [FunctionSummary] {
        var result: [FunctionSummary] = []
        var seen: Set<FunctionKey> = []
        func visit(_ key: FunctionKey, remaining: Int) {
            guard let summary = functionSummaries[key], seen.insert(key).inserted else { return }
            result.append(summary)
            guard remaining > 0 else { return }
            let restarted = summary.restartedHandles
            for call in summary.calls {
                if case .ifHandleCancelled(let typeName, let property) = call.cancellation, typeName == key.typeName,
                   restarted.contains(property) { continue }
                if let callee = callee(of: call) { visit(callee, remaining: remaining - 1) }
            }
        }
        visit(key, remaining: ProjectIndex.callDepth)
        return result
    }
}

extension ProjectIndex {
    /// A view that is the root of a window or hosting controller (`rootPlacement(ofView:)`) appears once per window:
    /// what its appearance starts outliving it is not proven to matter, so medium.
    func rootConfidence(_ view: String?) -> Confidence? {
        view.flatMap { rootPlacement(ofView: $0) } == nil ? nil : .medium
    }

    func rootNotes(_ view: String?) -> [FindingNote] {
        guard let view, let root = rootPlacement(ofView: view) else { return [] }
        return [FindingNote("the view is the root of a window or a hosting controller here, built once for it", at: root.location)]
    }
}
