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
        case .firstMethod(let typeName, let names):
            let methods = methods(of: typeName)
            return names.first { name in methods.contains { $0.name == name } }.map { IndexAnswer([$0]) }
        case .offMainNotification(let registration, let names):
            return offMainNotification(of: registration, names: names).map { IndexAnswer([$0]) }
        case .remoteChangeNotification(let registration, let names):
            return remoteChangeNotification(of: registration, names: names).map { IndexAnswer([$0]) }
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
            if let careful = restartedHandles(ofType: typeName).first(where: { $0.property == name && $0.starter != functionKey }) {
                let notes = summary(of: careful.starter).map { [FindingNote("`\(careful.starter.name)` cancels `\(name)` before restarting it", at: $0.location)] }
                return IndexAnswer(variant: 1, [careful.starter.name], notes: notes ?? [])
            }
            return IndexAnswer(variant: 0)
        case .restartedLoad(let method, let typeName, let functionKey, let cancellation, let helpers):
            guard let careful = restartedHandles(ofType: typeName).first(where: { handle in
                handle.loads.contains(method) && handle.starter != functionKey && !handle.loads.contains(functionKey.name)
                    // The load is an async method of the type: the work the handle exists to cancel.
                    && summary(of: FunctionKey(typeName: typeName, name: method))?.isAsync == true
                    && cancellation != .ifHandleCancelled(typeName: typeName, property: handle.property)
            }) else { return nil }
            let name = careful.property
            // A function the load itself calls (to three calls deep) is part of the load, not a second entry point.
            if reachableSummaries(from: FunctionKey(typeName: typeName, name: method)).contains(where: { $0.summary.key == functionKey }) {
                return nil
            }
            // This function looks at the handle (cancels it, awaits it, tests it) or is the careful one's helper.
            if let own = summary(of: functionKey), own.reads.contains(name) || own.cancelledHandles.contains(name) { return nil }
            if cancelledElsewhere(name, typeName: typeName, function: functionKey, helpers: helpers) { return nil }
            let callers = callSites(of: functionKey)
            if !callers.isEmpty, callers.allSatisfy({ $0.caller == careful.starter
                || $0.cancellation == .ifHandleCancelled(typeName: typeName, property: name) }) { return nil }
            let starter = summary(of: careful.starter)
            let starterPlace = starter.map { " (\(layout.shown($0.location)))" } ?? ""
            return IndexAnswer([name, careful.starter.name, starterPlace],
                               notes: starter.map { [FindingNote("`\(careful.starter.name)` cancels `\(name)` before starting the load", at: $0.location)] } ?? [])
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
            let built = constructions(ofView: view).filter { codeKind(of: $0.location) == .app }
            guard isOrHoldsPersistentModel(typeName) || built.contains(where: { $0.identity == .splitViewColumn }) else { return nil }
            // A view the app builds only per value (a `ForEach` row keyed by the model, a view re-identified with
            // `.id(…)`) gets a new identity, and a new task, for each model: nothing for `id:` to add.
            if !built.isEmpty, built.allSatisfy({ $0.identity == .perValue }) { return nil }
            // `value.id` on an optional property does not compile: suggest no code there (variant 1).
            guard !isOptional, let identity = StableIdentity.expression(for: value, typeName: typeName, index: self) else {
                return IndexAnswer(variant: 1)
            }
            return IndexAnswer([identity])
        case .viewStateWrittenBy(let methods, let viewType, let conditionNames):
            var written: Set<String> = []
            for name in methods {
                // A method the index does not know may write anything: no fix (the name is the fact).
                guard let key = callee(named: name, receiver: nil, callerType: viewType) else { return IndexAnswer(variant: 0, ["\(name)()"]) }
                for reached in reachableSummaries(from: key) { written.formUnion(reached.summary.writes.map(\.property)) }
            }
            let hiding = conditionNames.intersection(written).sorted()
            guard !hiding.isEmpty else { return IndexAnswer(variant: 0) }
            return IndexAnswer(variant: 1, [hiding.joined(separator: ", "), hiding.map { "`\($0)`" }.joined(separator: ", ")])
        case .taskIDMember(let rootType, let members):
            let chain = resolveChain(from: rootType, members: members)
            guard chain.count == members.count, let property = chain.last else { return nil }
            let ownerType = chain.count >= 2 ? chain[chain.count - 2].typeName ?? "" : rootType
            if property.isComputed {
                if isPersistentModel(ownerType) || isObservable(ownerType) { return IndexAnswer(variant: 0) }
                // An owner known only by its name (`…ViewModel`): a guess, so medium.
                return ownerType.hasSuffix("ViewModel") ? IndexAnswer(variant: 0, confidence: .medium) : nil
            }
            guard property.isStoredVar, isPersistentModel(ownerType) else { return nil }
            return IndexAnswer(variant: 1, [property.name])
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
        return !callers.isEmpty && callers.allSatisfy { summary(of: $0.caller)?.cancelledHandles.contains(name) == true }
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
