import SyncLintFacts

extension ProjectIndex {
    /// Whether every run of the function is part of the app's one-time set-up, so its code runs at most once per
    /// process: the `init` of a type with one instance for the life of the process (`livesOncePerProcess`), an app
    /// delegate's AppKit launch callback, or (in a program, all of whose callers the index sees) a function every call
    /// of which is made, outside any loop, from such a function in turn (to `callDepth` calls up). A function nothing
    /// calls, one named without a call (handed on as a closure), or one a framework protocol may call is not.
    /// An observer registered or a loop started there lives as long as the app by design: it is set up once.
    func runsOncePerProcess(_ key: FunctionKey) -> Bool {
        var seen: Set<FunctionKey> = []
        func runsOnce(_ key: FunctionKey, depth: Int) -> Bool {
            guard let typeName = key.typeName, seen.insert(key).inserted else { return false }
            if key.name == "init" { return livesOncePerProcess(typeName) }
            if FrameworkObservers.launchMethods.contains(where: { $0.selector.hasPrefix(key.name + "(") && !$0.selector.hasPrefix("application(") }),
               isAppLifetimeType(typeName) { return true }
            guard isProgram, depth > 0, let owner = resolveType(typeName) else { return false }
            let calls = callPositions(named: key.name).compactMap { position -> CallFact? in
                guard let call = functionSummaries[position.caller]?.calls[position.position] else { return nil }
                return mayReach(call, key, owner: owner) ? call : nil
            }
            guard !calls.isEmpty, !mayBeNamedWithoutCall(key, owner: owner) else { return false }
            // A method some framework protocol of the type may call runs whenever the framework says.
            let scope = resolveType(owner)
            guard declarations(of: owner).allSatisfy({ declaration in
                declaration.inheritedTypes.allSatisfy { resolveType($0, from: scope) != nil || !FrameworkRequirements.mayCall(key.name, through: $0) }
            }) else { return false }
            return calls.allSatisfy { call in !call.repeats && runsOnce(call.caller, depth: depth - 1) }
        }
        return runsOnce(key, depth: ProjectIndex.callDepth)
    }

    /// Whether the type has one instance for the life of the process: it is the app or its delegate
    /// (`FrameworkObservers.appLifetimeSupertypes`), a singleton (`static let shared = Type()`), or it is built only as
    /// the value of a stored property of a static member of some type (`static let store = Store()`) or of the app or
    /// its delegate (`lazy var socket = { … Socket(path: p) }()`). Built anywhere else the index can tell (a view's
    /// `@StateObject`, a property of an object made per screen), it is not.
    func livesOncePerProcess(_ typeName: String) -> Bool {
        if isAppLifetimeType(typeName) || isSingleton(typeName) { return true }
        let simple = typeName.split(separator: ".").last.map(String.init) ?? typeName
        return propertyBuiltTypeMap[simple] ?? false
    }

    /// `propertyBuiltTypes`, made with one pass over every type's stored properties.
    var propertyBuiltTypeMap: [String: Bool] {
        propertyBuiltTypes.value { [self] in
            let lifetime = Set(FrameworkObservers.appLifetimeSupertypes.map(\.name))
            var heldOnce: [String: Bool] = [:]
            for declaration in typesByName.values.joined() {
                let holderLivesOnce = !lifetime.isDisjoint(with: declaration.inheritedTypes)
                for property in declaration.properties where !property.isComputed {
                    guard let value = property.defaultValue else { continue }
                    for name in Self.typesBuilt(by: value) {
                        heldOnce[name] = (heldOnce[name] ?? true) && (property.isStatic || holderLivesOnce)
                    }
                }
            }
            return heldOnce
        }
    }

    /// The simple type names a property's value builds: the callee it starts with (`Store(…)`), and in a closure that
    /// is called at once (`{ … Socket(path: p) }()`) every name called after something other than a letter, digit or
    /// `_` (`SecureEnclave.Store(` builds `Store`, `SecretStore(` does not).
    static func typesBuilt(by value: String) -> Set<String> {
        func isNamePart(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
        var names: Set<String> = []
        let leading = value.prefix(while: isNamePart)
        if !leading.isEmpty, value.dropFirst(leading.count).first == "(" { names.insert(String(leading)) }
        guard value.hasPrefix("{") else { return names }
        var current = ""
        var previous: Character = "{"
        var startedAfter: Character = "{"
        for character in value {
            if isNamePart(character) {
                if current.isEmpty { startedAfter = previous }
                current.append(character)
            } else {
                if character == "(", !current.isEmpty, !isNamePart(startedAfter) { names.insert(current) }
                current = ""
            }
            previous = character
        }
        return names
    }

    /// `finishedStreamMakers`, made with one pass over the summaries.
    var finishedStreamMakerNames: Set<String> {
        finishedStreamMakers.value { [self] in Set(functionSummaries.values.filter(\.returnsFinishedStream).map(\.key.name)) }
    }

    /// Some declaration of the type inherits one of `FrameworkObservers.appLifetimeSupertypes` (the app, its delegate).
    func isAppLifetimeType(_ typeName: String) -> Bool {
        let lifetime = Set(FrameworkObservers.appLifetimeSupertypes.map(\.name))
        return declarations(of: typeName).contains { !lifetime.isDisjoint(with: $0.inheritedTypes) }
    }
}
