import Foundation

/// Fields by position for the facts a cache entry holds most of (and the enums among them, by case number): a function summary and what it contains
/// (its calls, writes and locations) make up most of a payload, and decoding them through their synthesized
/// `init(from:)` cost most of a warm run's time (unspecialized generic calls, a container per value, a key
/// looked up per field). Here each is an unkeyed container of its stored properties in declaration order,
/// written and read by code that knows the types.
///
/// Safe when a fact type changes: each layout lists the stored properties it was written for, and is used
/// only while `Mirror` finds exactly those on the type (checked once per run); otherwise the type goes
/// through its `Codable` conformance as before, which is slower but complete. `CompactCodingTests` fails
/// when a list is out of date, so the layout is brought up to date rather than quietly unused. A payload's
/// field count is checked too, so an entry of another layout is refused (the tool fingerprint already keeps
/// builds apart).
enum CompactLayouts {
    static let functionSummaryFields = [
        "key", "isAsync", "declaredContext", "location", "lastParameterEscapes", "closureParametersCalledOffMain",
        "lastClosureParameterCalledOffMain", "reads", "passedReferences", "passedMemberReferences", "writes",
        "awaits", "hopsToMainActor", "posts", "timers", "saves", "rollsBack", "runsOnOwnContextQueue", "closuresRunInPerform", "cancelledHandles", "cancelledInoutHandles", "startedHandles",
        "discardedTasks", "discardedTaskUses", "onceGuards", "throwsOnlyOwnErrors", "awaitsURLSessionTransfer",
        "awaitsTransferNamedLikeURLSession", "convertsURLErrorCancelled", "testsCancellationError", "blockingWaits", "resetsOnEveryPath", "writesAfterAwait", "reentryGuards", "setsTrueOnEveryPath", "calls",
        "unresolvedCalls", "cancellationSources", "disappearOnlyTaskCalls", "blocksInAsyncBody", "awaitedCalls", "awaitsOtherThanCalls",
        "returnsFinishedStream",
    ]
    static let callFactFields = ["caller", "callee", "receiver", "context", "cancellation", "location", "ifConfigClauses", "assignedTo",
                                  "contextArguments", "repeats", "onNewObject", "closureArguments", "performParameter"]
    static let stateWriteFields = ["property", "boolValue", "context", "location"]
    static let sourceLocationFields = ["file", "line", "column"]
    static let functionKeyFields = ["typeName", "name"]
    static let ifConfigClauseFields = ["file", "offset", "clause"]

    static let typeFactFields = ["name", "qualifiedName", "kind", "attributes", "inheritedTypes", "properties", "methods", "docComment", "location", "memberMacros",
                                  "isNonisolated"]
    static let propertyFactFields = ["name", "isLet", "isStatic", "typeName", "isOptional", "defaultValue", "attributes", "isComputed", "location", "isSetterPrivate"]
    static let methodFactFields = ["name", "isAsync", "isStatic", "location"]
    static let attributeFactFields = ["name", "arguments"]
    static let memberMacroFields = ["name", "location"]
    static let fileFactsFields = ["types", "modelRegistrations", "storeConfigurations", "containers", "schemaBindings", "coreData",
                                  "functionSummaries", "viewConstructions", "codePlaces", "fetchKeys", "schemaMembers", "predicateMembers",
                                  "viewReadNames", "deadCode", "packageTargets", "typeAliases"]
    static let viewConstructionFields = ["typeName", "scope", "identity", "location", "constantArguments", "builtArguments", "forwardedArguments",
                                          "inContainersOnly", "isRoot"]

    static let sampleLocation = SourceLocation(file: "", line: 0, column: 0)
    static let sampleKey = FunctionKey(typeName: nil, name: "")

    /// Each type's stored properties as `Mirror` sees them.
    static func fields(of value: Any) -> [String] { Mirror(reflecting: value).children.map { $0.label ?? "" } }

    static let functionSummaryMatches = fields(of: FunctionSummary(key: sampleKey, isAsync: false, declaredContext: .callers, location: sampleLocation)) == functionSummaryFields
    static let callFactMatches = fields(of: CallFact(caller: sampleKey, callee: "", receiver: nil, context: .callers, cancellation: .never,
                                                     location: sampleLocation, ifConfigClauses: [])) == callFactFields
    static let stateWriteMatches = fields(of: StateWrite(property: "", boolValue: nil, context: .callers, location: sampleLocation)) == stateWriteFields
    static let sourceLocationMatches = fields(of: sampleLocation) == sourceLocationFields
    static let functionKeyMatches = fields(of: sampleKey) == functionKeyFields
    static let ifConfigClauseMatches = fields(of: IfConfigClause(file: "", offset: 0, clause: 0)) == ifConfigClauseFields

    static let typeFactMatches = fields(of: TypeFact(name: "", qualifiedName: "", kind: .struct, attributes: [], inheritedTypes: [], properties: [],
                                                     methods: [], docComment: "", location: sampleLocation)) == typeFactFields
    static let propertyFactMatches = fields(of: PropertyFact(name: "", isLet: false, isStatic: false, typeName: nil, isOptional: false, defaultValue: nil,
                                                             attributes: [], isComputed: false, location: sampleLocation)) == propertyFactFields
    static let methodFactMatches = fields(of: MethodFact(name: "", isAsync: false, isStatic: false, location: sampleLocation)) == methodFactFields
    static let attributeFactMatches = fields(of: AttributeFact(name: "", arguments: "")) == attributeFactFields
    static let memberMacroMatches = fields(of: MemberMacro(name: "", location: sampleLocation)) == memberMacroFields
    static let fileFactsMatches = fields(of: FileFacts()) == fileFactsFields
    static let viewConstructionMatches = fields(of: ViewConstruction(typeName: "", scope: nil, identity: .stable, location: sampleLocation))
        == viewConstructionFields

    /// Whether every layout is up to date (for the test that says which is not).
    static var outOfDate: [String] {
        [("FunctionSummary", functionSummaryMatches), ("CallFact", callFactMatches), ("StateWrite", stateWriteMatches),
         ("SourceLocation", sourceLocationMatches), ("FunctionKey", functionKeyMatches), ("IfConfigClause", ifConfigClauseMatches),
         ("TypeFact", typeFactMatches), ("PropertyFact", propertyFactMatches), ("MethodFact", methodFactMatches),
         ("AttributeFact", attributeFactMatches), ("MemberMacro", memberMacroMatches), ("FileFacts", fileFactsMatches),
         ("ViewConstruction", viewConstructionMatches)]
            .filter { !$0.1 }.map(\.0)
    }

    // MARK: - Encoding

    /// The node of `value` when its type has an up-to-date layout, else nil.
    static func node<Value>(for value: Value, strings: CompactCoding.StringTable) throws -> CompactCoding.Node? {
        var fields = FieldWriter(strings: strings)
        // Each `unsafeBitCast` is between a type and itself: the type is checked on the line before.
        if Value.self == SourceLocation.self, sourceLocationMatches {
            let location = unsafeBitCast(value, to: SourceLocation.self)
            try fields.add(location.file); try fields.add(location.line); try fields.add(location.column)
        } else if Value.self == FunctionKey.self, functionKeyMatches {
            let key = unsafeBitCast(value, to: FunctionKey.self)
            try fields.add(key.typeName); try fields.add(key.name)
        } else if Value.self == IfConfigClause.self, ifConfigClauseMatches {
            let clause = unsafeBitCast(value, to: IfConfigClause.self)
            try fields.add(clause.file); try fields.add(clause.offset); try fields.add(clause.clause)
        } else if Value.self == StateWrite.self, stateWriteMatches {
            let write = unsafeBitCast(value, to: StateWrite.self)
            try fields.add(write.property); try fields.add(write.boolValue); try fields.add(write.context); try fields.add(write.location)
        } else if Value.self == CallFact.self, callFactMatches {
            let call = unsafeBitCast(value, to: CallFact.self)
            try fields.add(call.caller); try fields.add(call.callee); try fields.add(call.receiver); try fields.add(call.context)
            try fields.add(call.cancellation); try fields.add(call.location); try fields.addArray(call.ifConfigClauses); try fields.add(call.assignedTo)
            try fields.add(call.contextArguments); try fields.add(call.repeats); try fields.add(call.onNewObject)
            try fields.add(call.closureArguments); try fields.add(call.performParameter)
        } else if Value.self == FunctionSummary.self, functionSummaryMatches {
            let summary = unsafeBitCast(value, to: FunctionSummary.self)
            try fields.add(summary.key); try fields.add(summary.isAsync); try fields.add(summary.declaredContext)
            try fields.add(summary.location); try fields.add(summary.lastParameterEscapes)
            try fields.add(summary.closureParametersCalledOffMain); try fields.add(summary.lastClosureParameterCalledOffMain); try fields.add(summary.reads)
            try fields.add(summary.passedReferences); try fields.add(summary.passedMemberReferences); try fields.addArray(summary.writes); try fields.add(summary.awaits)
            try fields.add(summary.hopsToMainActor); try fields.add(summary.posts); try fields.addArray(summary.timers)
            try fields.add(summary.saves); try fields.add(summary.rollsBack); try fields.add(summary.runsOnOwnContextQueue)
            try fields.add(summary.closuresRunInPerform)
            try fields.add(summary.cancelledHandles)
            try fields.add(summary.cancelledInoutHandles); try fields.add(summary.startedHandles); try fields.addArray(summary.discardedTasks); try fields.add(summary.discardedTaskUses)
            try fields.add(summary.onceGuards); try fields.add(summary.throwsOnlyOwnErrors)
            try fields.add(summary.awaitsURLSessionTransfer); try fields.add(summary.awaitsTransferNamedLikeURLSession)
            try fields.add(summary.convertsURLErrorCancelled); try fields.add(summary.testsCancellationError)
            try fields.addArray(summary.blockingWaits); try fields.add(summary.resetsOnEveryPath); try fields.add(summary.writesAfterAwait)
            try fields.add(summary.reentryGuards); try fields.add(summary.setsTrueOnEveryPath); try fields.addArray(summary.calls)
            try fields.add(summary.unresolvedCalls); try fields.add(summary.cancellationSources)
            try fields.add(summary.disappearOnlyTaskCalls); try fields.add(summary.blocksInAsyncBody)
            try fields.add(summary.awaitedCalls); try fields.add(summary.awaitsOtherThanCalls)
            try fields.add(summary.returnsFinishedStream)
        } else if Value.self == AttributeFact.self, attributeFactMatches {
            let attribute = unsafeBitCast(value, to: AttributeFact.self)
            try fields.add(attribute.name); try fields.add(attribute.arguments)
        } else if Value.self == MemberMacro.self, memberMacroMatches {
            let macro = unsafeBitCast(value, to: MemberMacro.self)
            try fields.add(macro.name); try fields.add(macro.location)
        } else if Value.self == MethodFact.self, methodFactMatches {
            let method = unsafeBitCast(value, to: MethodFact.self)
            try fields.add(method.name); try fields.add(method.isAsync); try fields.add(method.isStatic); try fields.add(method.location)
        } else if Value.self == PropertyFact.self, propertyFactMatches {
            let property = unsafeBitCast(value, to: PropertyFact.self)
            try fields.add(property.name); try fields.add(property.isLet); try fields.add(property.isStatic); try fields.add(property.typeName)
            try fields.add(property.isOptional); try fields.add(property.defaultValue); try fields.addArray(property.attributes)
            try fields.add(property.isComputed); try fields.add(property.location); try fields.add(property.isSetterPrivate)
        } else if Value.self == TypeFact.self, typeFactMatches {
            let type = unsafeBitCast(value, to: TypeFact.self)
            try fields.add(type.name); try fields.add(type.qualifiedName); try fields.add(type.kind.rawValue); try fields.addArray(type.attributes)
            try fields.add(type.inheritedTypes); try fields.addArray(type.properties); try fields.addArray(type.methods)
            try fields.add(type.docComment); try fields.add(type.location); try fields.addArray(type.memberMacros)
            try fields.add(type.isNonisolated)
        } else if Value.self == FileFacts.self, fileFactsMatches {
            let facts = unsafeBitCast(value, to: FileFacts.self)
            try fields.addArray(facts.types); try fields.addArray(facts.modelRegistrations); try fields.addArray(facts.storeConfigurations)
            try fields.addArray(facts.containers); try fields.addArray(facts.schemaBindings); try fields.add(facts.coreData)
            try fields.addArray(facts.functionSummaries); try fields.addArray(facts.viewConstructions); try fields.add(facts.codePlaces)
            try fields.addArray(facts.fetchKeys); try fields.addArray(facts.schemaMembers); try fields.addArray(facts.predicateMembers)
            try fields.add(facts.viewReadNames); try fields.add(facts.deadCode); try fields.addArray(facts.packageTargets)
            try fields.add(facts.typeAliases)
        } else if Value.self == ViewConstruction.self, viewConstructionMatches {
            let construction = unsafeBitCast(value, to: ViewConstruction.self)
            try fields.add(construction.typeName); try fields.add(construction.scope); try fields.add(construction.identity)
            try fields.add(construction.location); try fields.add(construction.constantArguments); try fields.add(construction.builtArguments)
            // Keys and values alternately, in key order: one list of strings instead of a keyed container.
            try fields.add(construction.forwardedArguments.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] })
            try fields.add(construction.inContainersOnly); try fields.add(construction.isRoot)
        } else if Value.self == ViewConstruction.Identity.self {
            switch unsafeBitCast(value, to: ViewConstruction.Identity.self) {
            case .perValue: try fields.add(0)
            case .stable: try fields.add(1)
            case .splitViewColumn: try fields.add(2)
            case .splitViewSidebar: try fields.add(3)
            case .pushedDestination: try fields.add(4)
            }
        } else if Value.self == ValueType.self {
            // Enums: a case number, then the case's values. The switches have no `default`, so a case added to
            // the type does not compile until it is added here.
            switch unsafeBitCast(value, to: ValueType.self) {
            case .named(let name, let scope): try fields.add(0); try fields.add(name); try fields.add(scope)
            case .member(let base, let member): try fields.add(1); try fields.add(base); try fields.add(member)
            case .element(let base): try fields.add(2); try fields.add(base)
            case .unknown: try fields.add(3)
            }
        } else if Value.self == ExecutionContext.self {
            switch unsafeBitCast(value, to: ExecutionContext.self) {
            case .mainActor: try fields.add(0)
            case .actor: try fields.add(1)
            case .concurrent: try fields.add(2)
            case .serialQueue: try fields.add(3)
            case .privateQueue: try fields.add(4)
            case .detachedTask: try fields.add(5)
            case .notificationHandler(let name): try fields.add(6); try fields.add(name)
            case .completionHandler: try fields.add(7)
            case .typeIsolation(let typeName, let isAsync): try fields.add(8); try fields.add(typeName); try fields.add(isAsync)
            case .callers: try fields.add(9)
            case .moduleDefault(let file, let isAsync): try fields.add(10); try fields.add(file); try fields.add(isAsync)
            }
        } else if Value.self == Cancellability.self {
            switch unsafeBitCast(value, to: Cancellability.self) {
            case .always: try fields.add(0)
            case .never: try fields.add(1)
            case .ifHandleCancelled(let typeName, let property): try fields.add(2); try fields.add(typeName); try fields.add(property)
            case .ifCallersCancellable(let key): try fields.add(3); try fields.add(key)
            }
        } else {
            return nil
        }
        let node = CompactCoding.Node()
        node.content = .unkeyed(fields.nodes)
        return node
    }

    struct FieldWriter {
        let strings: CompactCoding.StringTable
        var nodes: [CompactCoding.Node] = []

        mutating func add<T: Encodable>(_ value: T) throws {
            nodes.append(try CompactCoding.node(for: value, strings: strings, codingPath: []))
        }

        /// An array as `Array.encode(to:)` writes it (an unkeyed container of its elements), without its generic detour.
        mutating func addArray<T: Encodable>(_ values: [T]) throws {
            let node = CompactCoding.Node()
            node.content = .unkeyed(try values.map { try CompactCoding.node(for: $0, strings: strings, codingPath: []) })
            nodes.append(node)
        }
    }

    // MARK: - Decoding

    /// The value in `payload.bytes[start..<end]` when `T` has an up-to-date layout, else nil.
    static func value<T>(_ type: T.Type, payload: CompactCoding.Payload, start: Int, end: Int) throws -> T? {
        // Each `unsafeBitCast` is between a type and itself: the type is checked first.
        if T.self == SourceLocation.self, sourceLocationMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 3)
            let location = SourceLocation(file: try fields.next(), line: try fields.next(), column: try fields.next())
            try fields.finish()
            return unsafeBitCast(location, to: T.self)
        }
        if T.self == FunctionKey.self, functionKeyMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 2)
            let key = FunctionKey(typeName: try fields.optional(), name: try fields.next())
            try fields.finish()
            return unsafeBitCast(key, to: T.self)
        }
        if T.self == IfConfigClause.self, ifConfigClauseMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 3)
            let clause = IfConfigClause(file: try fields.next(), offset: try fields.next(), clause: try fields.next())
            try fields.finish()
            return unsafeBitCast(clause, to: T.self)
        }
        if T.self == StateWrite.self, stateWriteMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 4)
            let write = StateWrite(property: try fields.next(), boolValue: try fields.optional(), context: try fields.next(), location: try fields.next())
            try fields.finish()
            return unsafeBitCast(write, to: T.self)
        }
        if T.self == CallFact.self, callFactMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 13)
            var call = CallFact(caller: try fields.next(), callee: try fields.next(), receiver: try fields.optional(), context: try fields.next(),
                                cancellation: try fields.next(), location: try fields.next(), ifConfigClauses: try fields.array(),
                                assignedTo: try fields.optional())
            call.contextArguments = try fields.next()
            call.repeats = try fields.next()
            call.onNewObject = try fields.next()
            call.closureArguments = try fields.next()
            call.performParameter = try fields.optional()
            try fields.finish()
            return unsafeBitCast(call, to: T.self)
        }
        if T.self == FunctionSummary.self, functionSummaryMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 43)
            var summary = FunctionSummary(key: try fields.next(), isAsync: try fields.next(), declaredContext: try fields.next(), location: try fields.next())
            summary.lastParameterEscapes = try fields.next()
            summary.closureParametersCalledOffMain = try fields.next()
            summary.lastClosureParameterCalledOffMain = try fields.next()
            summary.reads = try fields.next()
            summary.passedReferences = try fields.next()
            summary.passedMemberReferences = try fields.next()
            summary.writes = try fields.array()
            summary.awaits = try fields.next()
            summary.hopsToMainActor = try fields.next()
            summary.posts = try fields.next()
            summary.timers = try fields.array()
            summary.saves = try fields.next()
            summary.rollsBack = try fields.next()
            summary.runsOnOwnContextQueue = try fields.next()
            summary.closuresRunInPerform = try fields.next()
            summary.cancelledHandles = try fields.next()
            summary.cancelledInoutHandles = try fields.next()
            summary.startedHandles = try fields.next()
            summary.discardedTasks = try fields.array()
            summary.discardedTaskUses = try fields.next()
            summary.onceGuards = try fields.next()
            summary.throwsOnlyOwnErrors = try fields.next()
            summary.awaitsURLSessionTransfer = try fields.next()
            summary.awaitsTransferNamedLikeURLSession = try fields.next()
            summary.convertsURLErrorCancelled = try fields.next()
            summary.testsCancellationError = try fields.next()
            summary.blockingWaits = try fields.array()
            summary.resetsOnEveryPath = try fields.next()
            summary.writesAfterAwait = try fields.next()
            summary.reentryGuards = try fields.next()
            summary.setsTrueOnEveryPath = try fields.next()
            summary.calls = try fields.array()
            summary.unresolvedCalls = try fields.next()
            summary.cancellationSources = try fields.next()
            summary.disappearOnlyTaskCalls = try fields.next()
            summary.blocksInAsyncBody = try fields.next()
            summary.awaitedCalls = try fields.next()
            summary.awaitsOtherThanCalls = try fields.next()
            summary.returnsFinishedStream = try fields.next()
            try fields.finish()
            return unsafeBitCast(summary, to: T.self)
        }
        if T.self == AttributeFact.self, attributeFactMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 2)
            let attribute = AttributeFact(name: try fields.next(), arguments: try fields.next())
            try fields.finish()
            return unsafeBitCast(attribute, to: T.self)
        }
        if T.self == MemberMacro.self, memberMacroMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 2)
            let macro = MemberMacro(name: try fields.next(), location: try fields.next())
            try fields.finish()
            return unsafeBitCast(macro, to: T.self)
        }
        if T.self == MethodFact.self, methodFactMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 4)
            let method = MethodFact(name: try fields.next(), isAsync: try fields.next(), isStatic: try fields.next(), location: try fields.next())
            try fields.finish()
            return unsafeBitCast(method, to: T.self)
        }
        if T.self == PropertyFact.self, propertyFactMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 10)
            let property = PropertyFact(name: try fields.next(), isLet: try fields.next(), isStatic: try fields.next(), typeName: try fields.optional(),
                                        isOptional: try fields.next(), defaultValue: try fields.optional(), attributes: try fields.array(),
                                        isComputed: try fields.next(), location: try fields.next(), isSetterPrivate: try fields.next())
            try fields.finish()
            return unsafeBitCast(property, to: T.self)
        }
        if T.self == TypeFact.self, typeFactMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 11)
            let name: String = try fields.next(), qualifiedName: String = try fields.next()
            guard let kind = TypeKind(rawValue: try fields.next()) else { throw CompactCoding.Failure(description: "an unknown TypeKind") }
            var type = TypeFact(name: name, qualifiedName: qualifiedName, kind: kind, attributes: try fields.array(), inheritedTypes: try fields.next(),
                                properties: try fields.array(), methods: try fields.array(), docComment: try fields.next(), location: try fields.next(),
                                memberMacros: try fields.array())
            type.isNonisolated = try fields.next()
            try fields.finish()
            return unsafeBitCast(type, to: T.self)
        }
        if T.self == FileFacts.self, fileFactsMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 16)
            var facts = FileFacts()
            facts.types = try fields.array()
            facts.modelRegistrations = try fields.array()
            facts.storeConfigurations = try fields.array()
            facts.containers = try fields.array()
            facts.schemaBindings = try fields.array()
            facts.coreData = try fields.next()
            facts.functionSummaries = try fields.array()
            facts.viewConstructions = try fields.array()
            facts.codePlaces = try fields.next()
            facts.fetchKeys = try fields.array()
            facts.schemaMembers = try fields.array()
            facts.predicateMembers = try fields.array()
            facts.viewReadNames = try fields.next()
            facts.deadCode = try fields.next()
            facts.packageTargets = try fields.array()
            facts.typeAliases = try fields.next()
            try fields.finish()
            return unsafeBitCast(facts, to: T.self)
        }
        if T.self == ViewConstruction.self, viewConstructionMatches {
            var fields = try FieldReader(payload: payload, start: start, end: end, count: 9)
            let typeName: String = try fields.next(), scope: String? = try fields.optional()
            let identity: ViewConstruction.Identity = try fields.next(), location: SourceLocation = try fields.next()
            let constant: Set<String> = try fields.next(), built: Set<String> = try fields.next()
            let pairs: [String] = try fields.next()
            guard pairs.count % 2 == 0 else { throw CompactCoding.Failure(description: "an odd list of forwarded arguments") }
            var forwarded: [String: String] = [:]
            for index in stride(from: 0, to: pairs.count, by: 2) { forwarded[pairs[index]] = pairs[index + 1] }
            let inContainersOnly: Bool = try fields.next(), isRoot: Bool = try fields.next()
            try fields.finish()
            let construction = ViewConstruction(typeName: typeName, scope: scope, identity: identity, location: location,
                                                constantArguments: constant, builtArguments: built, forwardedArguments: forwarded,
                                                inContainersOnly: inContainersOnly, isRoot: isRoot)
            return unsafeBitCast(construction, to: T.self)
        }
        if T.self == ViewConstruction.Identity.self {
            var fields = try FieldReader(payload: payload, start: start, end: end)
            let identity: ViewConstruction.Identity
            switch try fields.next(Int.self) {
            case 0: identity = .perValue
            case 1: identity = .stable
            case 2: identity = .splitViewColumn
            case 3: identity = .splitViewSidebar
            case 4: identity = .pushedDestination
            default: throw CompactCoding.Failure(description: "an unknown case of ViewConstruction.Identity")
            }
            try fields.finish()
            return unsafeBitCast(identity, to: T.self)
        }
        if T.self == ValueType.self {
            var fields = try FieldReader(payload: payload, start: start, end: end)
            let type: ValueType
            switch try fields.next(Int.self) {
            case 0: type = .named(try fields.next(), scope: try fields.optional())
            case 1: type = .member(try fields.next(), try fields.next())
            case 2: type = .element(try fields.next())
            case 3: type = .unknown
            default: throw CompactCoding.Failure(description: "an unknown case of ValueType")
            }
            try fields.finish()
            return unsafeBitCast(type, to: T.self)
        }
        if T.self == ExecutionContext.self {
            var fields = try FieldReader(payload: payload, start: start, end: end)
            let context: ExecutionContext
            switch try fields.next(Int.self) {
            case 0: context = .mainActor
            case 1: context = .actor
            case 2: context = .concurrent
            case 3: context = .serialQueue
            case 4: context = .privateQueue
            case 5: context = .detachedTask
            case 6: context = .notificationHandler(try fields.next())
            case 7: context = .completionHandler
            case 8: context = .typeIsolation(try fields.next(), isAsync: try fields.next())
            case 9: context = .callers
            case 10: context = .moduleDefault(file: try fields.next(), isAsync: try fields.next())
            default: throw CompactCoding.Failure(description: "an unknown case of ExecutionContext")
            }
            try fields.finish()
            return unsafeBitCast(context, to: T.self)
        }
        if T.self == Cancellability.self {
            var fields = try FieldReader(payload: payload, start: start, end: end)
            let cancellability: Cancellability
            switch try fields.next(Int.self) {
            case 0: cancellability = .always
            case 1: cancellability = .never
            case 2: cancellability = .ifHandleCancelled(typeName: try fields.next(), property: try fields.next())
            case 3: cancellability = .ifCallersCancellable(try fields.next())
            default: throw CompactCoding.Failure(description: "an unknown case of Cancellability")
            }
            try fields.finish()
            return unsafeBitCast(cancellability, to: T.self)
        }
        return nil
    }

    /// Reads a layout's fields in order: the container's count must be the layout's, every field within it.
    struct FieldReader {
        let payload: CompactCoding.Payload
        var cursor: Int
        let end: Int

        /// `count` is the layout's number of fields; nil for an enum, whose count depends on its case (the
        /// case's reader checks it by `finish`, since every field must lie within the container).
        init(payload: CompactCoding.Payload, start: Int, end: Int, count: Int? = nil) throws {
            self.payload = payload
            self.end = end
            cursor = start
            let written = try payload.varint(at: &cursor, limit: end)
            if let count, written != UInt64(count) {
                throw CompactCoding.Failure(description: "a layout with another number of fields")
            }
        }

        private mutating func span() throws -> (start: Int, end: Int) {
            let length = try payload.varint(at: &cursor, limit: end)
            guard length <= UInt64(end - cursor) else { throw CompactCoding.Failure(description: "a field past its value's end") }
            let span = (cursor, cursor + Int(length))
            cursor += Int(length)
            return span
        }

        mutating func next<T: Decodable>(_ type: T.Type = T.self) throws -> T {
            let span = try span()
            return try CompactCoding.value(T.self, payload: payload, start: span.start, end: span.end)
        }

        /// An optional field: nil is an empty span, and no other value is empty.
        mutating func optional<T: Decodable>(_ type: T.Type = T.self) throws -> T? {
            let span = try span()
            guard span.start != span.end else { return nil }
            return try CompactCoding.value(T.self, payload: payload, start: span.start, end: span.end)
        }

        /// An array as `Array.init(from:)` reads it, each element decoded by code specialized for its type.
        mutating func array<T: Decodable>(_ type: T.Type = T.self) throws -> [T] {
            let span = try span()
            var cursor = span.start
            let count = try payload.varint(at: &cursor, limit: span.end)
            guard count <= UInt64(span.end - span.start) else { throw CompactCoding.Failure(description: "an array longer than its span") }
            var elements: [T] = []
            elements.reserveCapacity(Int(count))
            for _ in 0..<count {
                let length = try payload.varint(at: &cursor, limit: span.end)
                guard length <= UInt64(span.end - cursor) else { throw CompactCoding.Failure(description: "an element past its array's end") }
                elements.append(try CompactCoding.value(T.self, payload: payload, start: cursor, end: cursor + Int(length)))
                cursor += Int(length)
            }
            guard cursor == span.end else { throw CompactCoding.Failure(description: "an array with bytes left over") }
            return elements
        }

        func finish() throws {
            guard cursor == end else { throw CompactCoding.Failure(description: "a layout with bytes left over") }
        }
    }
}
