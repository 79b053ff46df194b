import Dispatch
import SwiftSyntax

/// Something that listens to node kinds during the single walk: a rule or an index collector.
protocol NodeListener: AnyObject {
    func enter(_ node: Syntax, context: FileContext)
    func exit(_ node: Syntax, context: FileContext)
}

/// The walk as the pipeline (in the kit) runs it, without the walker's own types.
package enum FileWalk {
    /// Walks a file once: the index collectors, then `rules`, each writing to `context`.
    package static func run(_ tree: SourceFileSyntax, context: FileContext, rules: [any SyntaxRule], listenerTimes: ListenerTimes? = nil) {
        FileWalker(context: context, collectors: IndexCollectors.make(), rules: rules, listenerTimes: listenerTimes).walk(tree)
    }

    /// The node kinds the walker dispatches: a rule that listens to another kind is refused.
    package static var supportedKinds: Set<SyntaxKind> { FileWalker.supportedKinds }
}

/// The one walk of a file. It keeps the scope stack and hands each node to the index collectors
/// and then the rules that asked for its kind, on enter (after the node's own scope is pushed)
/// and on exit (before it is popped).
///
/// It overrides the typed visit methods of the kinds in `supportedKinds` only, so the other nodes of
/// a file (most of them) cost what a bare visit costs: no kind lookup, no dispatch. A rule or collector
/// that listens to another kind is refused when the plan is made (and a test checks every rule).
final class FileWalker: SyntaxVisitor {
    /// The kinds the walker dispatches, each with its slot in the listener table.
    static let dispatchedKinds: [SyntaxKind] = [
        .identifierPattern,
        .functionParameter,
        .closureParameter,
        .closureShorthandParameter,
        .closureCapture,
        .classDecl,
        .structDecl,
        .enumDecl,
        .actorDecl,
        .protocolDecl,
        .extensionDecl,
        .functionDecl,
        .initializerDecl,
        .deinitializerDecl,
        .subscriptDecl,
        .closureExpr,
        .patternBinding,
        .variableDecl,
        .functionCallExpr,
        .sequenceExpr,
        .doStmt,
        .tryExpr,
        .throwStmt,
        .declReferenceExpr,
        .macroExpansionDecl,
        .guardStmt,
        .ifExpr,
        .awaitExpr,
        .returnStmt,
        .memberAccessExpr,
        .forStmt,
        .whileStmt,
        .importDecl,
        .macroExpansionExpr,
        .identifierType,
        .memberType,
        .ifConfigDecl,
        .typeAliasDecl,
    ]
    static let supportedKinds = Set(dispatchedKinds)

    /// A dispatched kind's position in `dispatchedKinds`: a jump table, where a dictionary would hash the kind
    /// for every node. A test checks the two agree.
    static func slot(of kind: SyntaxKind) -> Int? {
        switch kind {
        case .identifierPattern: return 0
        case .functionParameter: return 1
        case .closureParameter: return 2
        case .closureShorthandParameter: return 3
        case .closureCapture: return 4
        case .classDecl: return 5
        case .structDecl: return 6
        case .enumDecl: return 7
        case .actorDecl: return 8
        case .protocolDecl: return 9
        case .extensionDecl: return 10
        case .functionDecl: return 11
        case .initializerDecl: return 12
        case .deinitializerDecl: return 13
        case .subscriptDecl: return 14
        case .closureExpr: return 15
        case .patternBinding: return 16
        case .variableDecl: return 17
        case .functionCallExpr: return 18
        case .sequenceExpr: return 19
        case .doStmt: return 20
        case .tryExpr: return 21
        case .throwStmt: return 22
        case .declReferenceExpr: return 23
        case .macroExpansionDecl: return 24
        case .guardStmt: return 25
        case .ifExpr: return 26
        case .awaitExpr: return 27
        case .returnStmt: return 28
        case .memberAccessExpr: return 29
        case .forStmt: return 30
        case .whileStmt: return 31
        case .importDecl: return 32
        case .macroExpansionExpr: return 33
        case .identifierType: return 34
        case .memberType: return 35
        case .ifConfigDecl: return 36
        case .typeAliasDecl: return 37
        default: return nil
        }
    }

    private let context: FileContext
    /// The listeners of each dispatched kind, by slot; a rule's listener carries its id, a collector's
    /// none; `timer` is the listener's slot in `listenerTimes`.
    private let listeners: [[(ruleID: String?, listener: any NodeListener, timer: Int)]]
    /// `--timings`: time spent in each listener (a rule's id or a collector's type name), or nil, and
    /// then the walk reads no clock.
    let listenerTimes: ListenerTimes?

    init(context: FileContext, collectors: [any FactCollector], rules: [any SyntaxRule], listenerTimes: ListenerTimes? = nil) {
        self.context = context
        self.listenerTimes = listenerTimes
        var table: [[(ruleID: String?, listener: any NodeListener, timer: Int)]] = Array(repeating: [], count: Self.dispatchedKinds.count)
        for collector in collectors {
            let timer = listenerTimes?.slot(for: "\(type(of: collector))", isRule: false) ?? 0
            for kind in type(of: collector).nodeKinds {
                if let slot = Self.slot(of: kind) { table[slot].append((nil, collector, timer)) }
            }
        }
        for rule in rules {
            let ruleType = type(of: rule)
            let timer = listenerTimes?.slot(for: ruleType.description.id, isRule: true) ?? 0
            for kind in ruleType.nodeKinds {
                if let slot = Self.slot(of: kind) { table[slot].append((ruleType.description.id, RuleListener(rule), timer)) }
            }
        }
        self.listeners = table
        super.init(viewMode: .sourceAccurate)
    }

    private func enter(_ node: Syntax, _ kind: SyntaxKind) -> SyntaxVisitorContinueKind {
        // Names used further on may be declared in what the walk has not met yet: `LocalNames` leaves those to the lookup.
        context.localNames.walkNode = node
        if ScopeBuilder.opensScope(node, kind: kind), let frame = ScopeBuilder.frame(for: node) { context.scope.push(frame) }
        // cannot fail: only the visit methods of dispatched kinds call this.
        for (ruleID, listener, timer) in listeners[Self.slot(of: kind)!] {
            if let ruleID { context.currentRuleID = ruleID }
            if let listenerTimes {
                let start = DispatchTime.now().uptimeNanoseconds
                listener.enter(node, context: context)
                listenerTimes.add(DispatchTime.now().uptimeNanoseconds - start, to: timer)
            } else {
                listener.enter(node, context: context)
            }
        }
        return .visitChildren
    }

    private func exit(_ node: Syntax, _ kind: SyntaxKind) {
        // cannot fail: only the visit methods of dispatched kinds call this.
        for (ruleID, listener, timer) in listeners[Self.slot(of: kind)!] {
            if let ruleID { context.currentRuleID = ruleID }
            if let listenerTimes {
                let start = DispatchTime.now().uptimeNanoseconds
                listener.exit(node, context: context)
                listenerTimes.add(DispatchTime.now().uptimeNanoseconds - start, to: timer)
            } else {
                listener.exit(node, context: context)
            }
        }
        if ScopeBuilder.opensScope(node, kind: kind) { context.scope.pop(openedBy: node) }
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .classDecl) }
    override func visitPost(_ node: ClassDeclSyntax) { exit(Syntax(node), .classDecl) }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .structDecl) }
    override func visitPost(_ node: StructDeclSyntax) { exit(Syntax(node), .structDecl) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .enumDecl) }
    override func visitPost(_ node: EnumDeclSyntax) { exit(Syntax(node), .enumDecl) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .actorDecl) }
    override func visitPost(_ node: ActorDeclSyntax) { exit(Syntax(node), .actorDecl) }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .protocolDecl) }
    override func visitPost(_ node: ProtocolDeclSyntax) { exit(Syntax(node), .protocolDecl) }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .extensionDecl) }
    override func visitPost(_ node: ExtensionDeclSyntax) { exit(Syntax(node), .extensionDecl) }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .functionDecl) }
    override func visitPost(_ node: FunctionDeclSyntax) { exit(Syntax(node), .functionDecl) }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .initializerDecl) }
    override func visitPost(_ node: InitializerDeclSyntax) { exit(Syntax(node), .initializerDecl) }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .deinitializerDecl) }
    override func visitPost(_ node: DeinitializerDeclSyntax) { exit(Syntax(node), .deinitializerDecl) }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .subscriptDecl) }
    override func visitPost(_ node: SubscriptDeclSyntax) { exit(Syntax(node), .subscriptDecl) }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .closureExpr) }
    override func visitPost(_ node: ClosureExprSyntax) { exit(Syntax(node), .closureExpr) }
    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .patternBinding) }
    override func visitPost(_ node: PatternBindingSyntax) { exit(Syntax(node), .patternBinding) }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .variableDecl) }
    override func visitPost(_ node: VariableDeclSyntax) { exit(Syntax(node), .variableDecl) }
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .functionCallExpr) }
    override func visitPost(_ node: FunctionCallExprSyntax) { exit(Syntax(node), .functionCallExpr) }
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .sequenceExpr) }
    override func visitPost(_ node: SequenceExprSyntax) { exit(Syntax(node), .sequenceExpr) }
    override func visit(_ node: DoStmtSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .doStmt) }
    override func visitPost(_ node: DoStmtSyntax) { exit(Syntax(node), .doStmt) }
    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .tryExpr) }
    override func visitPost(_ node: TryExprSyntax) { exit(Syntax(node), .tryExpr) }
    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .declReferenceExpr) }
    override func visitPost(_ node: DeclReferenceExprSyntax) { exit(Syntax(node), .declReferenceExpr) }
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .typeAliasDecl) }
    override func visitPost(_ node: TypeAliasDeclSyntax) { exit(Syntax(node), .typeAliasDecl) }
    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .macroExpansionDecl) }
    override func visitPost(_ node: MacroExpansionDeclSyntax) { exit(Syntax(node), .macroExpansionDecl) }
    override func visit(_ node: GuardStmtSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .guardStmt) }
    override func visitPost(_ node: GuardStmtSyntax) { exit(Syntax(node), .guardStmt) }
    override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .ifExpr) }
    override func visitPost(_ node: IfExprSyntax) { exit(Syntax(node), .ifExpr) }
    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .awaitExpr) }
    override func visitPost(_ node: AwaitExprSyntax) { exit(Syntax(node), .awaitExpr) }
    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .returnStmt) }
    override func visitPost(_ node: ReturnStmtSyntax) { exit(Syntax(node), .returnStmt) }
    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .memberAccessExpr) }
    override func visitPost(_ node: MemberAccessExprSyntax) { exit(Syntax(node), .memberAccessExpr) }
    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .identifierPattern) }
    override func visitPost(_ node: IdentifierPatternSyntax) { exit(Syntax(node), .identifierPattern) }
    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .functionParameter) }
    override func visitPost(_ node: FunctionParameterSyntax) { exit(Syntax(node), .functionParameter) }
    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .closureParameter) }
    override func visitPost(_ node: ClosureParameterSyntax) { exit(Syntax(node), .closureParameter) }
    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .closureShorthandParameter) }
    override func visitPost(_ node: ClosureShorthandParameterSyntax) { exit(Syntax(node), .closureShorthandParameter) }
    override func visit(_ node: ClosureCaptureSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .closureCapture) }
    override func visitPost(_ node: ClosureCaptureSyntax) { exit(Syntax(node), .closureCapture) }
    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .forStmt) }
    override func visitPost(_ node: ForStmtSyntax) { exit(Syntax(node), .forStmt) }
    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .macroExpansionExpr) }
    override func visitPost(_ node: MacroExpansionExprSyntax) { exit(Syntax(node), .macroExpansionExpr) }
    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .importDecl) }
    override func visitPost(_ node: ImportDeclSyntax) { exit(Syntax(node), .importDecl) }
    override func visit(_ node: ThrowStmtSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .throwStmt) }
    override func visitPost(_ node: ThrowStmtSyntax) { exit(Syntax(node), .throwStmt) }
    override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .whileStmt) }
    override func visitPost(_ node: WhileStmtSyntax) { exit(Syntax(node), .whileStmt) }
    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .identifierType) }
    override func visitPost(_ node: IdentifierTypeSyntax) { exit(Syntax(node), .identifierType) }
    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .memberType) }
    override func visitPost(_ node: MemberTypeSyntax) { exit(Syntax(node), .memberType) }
    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind { enter(Syntax(node), .ifConfigDecl) }
    override func visitPost(_ node: IfConfigDeclSyntax) { exit(Syntax(node), .ifConfigDecl) }
}

/// Adapts a rule to the walker's listener list.
private final class RuleListener: NodeListener {
    let rule: any SyntaxRule
    init(_ rule: any SyntaxRule) { self.rule = rule }
    func enter(_ node: Syntax, context: FileContext) { rule.enter(node, context: context) }
    func exit(_ node: Syntax, context: FileContext) { rule.exit(node, context: context) }
}

/// Builds scope frames from declarations and closures.
package enum ScopeBuilder {
    static func opensScope(_ node: Syntax, kind: SyntaxKind) -> Bool {
        switch kind {
        case .classDecl, .structDecl, .enumDecl, .actorDecl, .protocolDecl, .extensionDecl,
             .functionDecl, .initializerDecl, .deinitializerDecl, .subscriptDecl, .closureExpr:
            return true
        case .patternBinding:
            return node.as(PatternBindingSyntax.self)?.accessorBlock != nil
        default:
            return false
        }
    }

    static func frame(for node: Syntax) -> ScopeFrame? {
        if let type = TypeDeclarationView(node) {
            return .type(TypeScope(name: type.name, qualifiedName: type.qualifiedName, kind: type.kind, attributes: SyntaxFacts.attributes(type.attributes),
                                   inheritedTypes: type.inheritedTypes, node: node))
        }
        if let function = node.as(FunctionDeclSyntax.self) {
            let effects = function.signature.effectSpecifiers
            return .function(FunctionScope(
                name: function.name.text, isAsync: effects?.asyncSpecifier != nil, isThrowing: effects?.throwsClause != nil,
                attributeList: function.attributes, parameterClause: function.signature.parameterClause, body: function.body, node: node))
        }
        if let initializer = node.as(InitializerDeclSyntax.self) {
            let effects = initializer.signature.effectSpecifiers
            return .function(FunctionScope(
                name: "init", isAsync: effects?.asyncSpecifier != nil, isThrowing: effects?.throwsClause != nil,
                attributeList: initializer.attributes, parameterClause: initializer.signature.parameterClause,
                body: initializer.body, node: node))
        }
        if let deinitializer = node.as(DeinitializerDeclSyntax.self) {
            return .function(FunctionScope(name: "deinit", isAsync: false, isThrowing: false, attributeList: nil,
                                           parameterClause: nil, body: deinitializer.body, node: node))
        }
        if let subscriptDecl = node.as(SubscriptDeclSyntax.self) {
            return .function(FunctionScope(name: "subscript", isAsync: false, isThrowing: false, attributeList: subscriptDecl.attributes,
                                           parameterClause: subscriptDecl.parameterClause, body: nil, node: node))
        }
        if let binding = node.as(PatternBindingSyntax.self) {
            var isAsync = false
            var isThrowing = false
            if case .accessors(let accessors)? = binding.accessorBlock?.accessors {
                isAsync = accessors.contains { $0.effectSpecifiers?.asyncSpecifier != nil }
                isThrowing = accessors.contains { $0.effectSpecifiers?.throwsClause != nil }
            }
            let attributes = binding.parent?.parent?.as(VariableDeclSyntax.self)?.attributes
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? binding.pattern.trimmedText
            return .function(FunctionScope(name: name, isAsync: isAsync, isThrowing: isThrowing,
                                           attributeList: attributes, parameterClause: nil, body: nil, node: node))
        }
        if let closure = node.as(ClosureExprSyntax.self) {
            return .closure(closureScope(closure))
        }
        return nil
    }

    static func closureScope(_ closure: ClosureExprSyntax) -> ClosureScope {
        let call = SyntaxFacts.enclosingCall(ofClosure: closure)
        let isMainActor = SyntaxFacts.hasAttribute("MainActor", closure.signature?.attributes)
        return ClosureScope(kind: call.map(classify) ?? .other(callee: ""), node: closure, call: call,
                            capturesSelfWeakly: SyntaxFacts.capturesSelfWeakly(closure), isMainActorAnnotated: isMainActor)
    }

    /// Decides what runs a closure from the call it is passed to, by asking the framework table
    /// (`FrameworkCalls`). Called for every closure and by rules for many calls, so it looks the method
    /// name up first and builds receiver text only for the few names the table knows.
    package static func classify(_ call: FunctionCallExprSyntax) -> ClosureKind {
        let method = SyntaxFacts.calleeMethodName(call)
        guard FrameworkCalls.mentions(method) else { return .other(callee: method) }
        let receiver = FrameworkCalls.needsReceiver(method) ? SyntaxFacts.receiverText(call) ?? "" : ""
        let callee = FrameworkCalls.needsCallee(method) ? SyntaxFacts.calleeName(call) : ""
        guard let runner = FrameworkCalls.lookup(method: method, receiver: receiver, callee: callee)?.runsClosure else {
            return .other(callee: method)
        }
        switch runner {
        case .unstructuredTask: return .task
        case .detachedTask: return .detachedTask
        case .taskGroupChild: return .taskGroupChild
        case .mainActorRun: return .mainActorRun
        case .viewTask: return .viewTask
        case .onAppear: return .onAppear
        case .onDisappear: return .onDisappear
        case .mainQueue: return .mainQueue
        case .concurrentQueue, .otherQueue: return .backgroundQueue
        case .contextPerform: return .perform(receiver: receiver)
        case .contextPerformAndWait: return .performAndWait(receiver: receiver)
        }
    }
}

/// A uniform view of the declarations that declare (or extend) a type.
struct TypeDeclarationView {
    let name: String
    /// `Outer.Inner` for a nested type; for an extension, the extended type as written (`Outer.Inner`).
    let qualifiedName: String
    let kind: TypeKind
    let attributes: AttributeListSyntax?
    let inheritedTypes: [String]
    let memberBlock: MemberBlockSyntax

    init?(_ node: Syntax) {
        let inheritance: InheritanceClauseSyntax?
        if let decl = node.as(ClassDeclSyntax.self) {
            (name, kind, attributes, inheritance, memberBlock) = (decl.name.text, .class, decl.attributes, decl.inheritanceClause, decl.memberBlock)
        } else if let decl = node.as(StructDeclSyntax.self) {
            (name, kind, attributes, inheritance, memberBlock) = (decl.name.text, .struct, decl.attributes, decl.inheritanceClause, decl.memberBlock)
        } else if let decl = node.as(EnumDeclSyntax.self) {
            (name, kind, attributes, inheritance, memberBlock) = (decl.name.text, .enum, decl.attributes, decl.inheritanceClause, decl.memberBlock)
        } else if let decl = node.as(ActorDeclSyntax.self) {
            (name, kind, attributes, inheritance, memberBlock) = (decl.name.text, .actor, decl.attributes, decl.inheritanceClause, decl.memberBlock)
        } else if let decl = node.as(ProtocolDeclSyntax.self) {
            (name, kind, attributes, inheritance, memberBlock) = (decl.name.text, .protocol, decl.attributes, decl.inheritanceClause, decl.memberBlock)
        } else if let decl = node.as(ExtensionDeclSyntax.self) {
            let extended = decl.extendedType.trimmedText
            let simpleName = extended.split(separator: ".").last.map(String.init) ?? extended
            (name, kind, attributes, inheritance, memberBlock) = (simpleName, .extension, decl.attributes, decl.inheritanceClause, decl.memberBlock)
        } else {
            return nil
        }
        inheritedTypes = inheritance?.inheritedTypes.map { SyntaxFacts.simpleTypeName($0.type) } ?? []
        qualifiedName = Self.qualifiedName(of: node, name: kind == .extension ? Self.extendedTypeText(node) : name)
    }

    /// The extended type of an extension without generic arguments or spaces: `Outer.Inner` for `extension Outer.Inner`.
    private static func extendedTypeText(_ node: Syntax) -> String {
        guard let decl = node.as(ExtensionDeclSyntax.self) else { return "" }
        return SyntaxFacts.typePath(decl.extendedType)
    }

    /// Prefixes the names of the enclosing type declarations (an enclosing extension contributes the type it
    /// extends), so `struct Inner` inside `enum Outer` is `Outer.Inner`. Types inside functions keep the
    /// enclosing types' prefix: they are rare and never extended from elsewhere.
    static func qualifiedName(of node: Syntax, name: String) -> String {
        var components = [name]
        var current = node.parent
        while let ancestor = current {
            switch ancestor.kind {
            case .classDecl, .structDecl, .enumDecl, .actorDecl, .protocolDecl:
                if let enclosing = TypeDeclarationView.simpleName(ancestor) { components.insert(enclosing, at: 0) }
            case .extensionDecl:
                if let decl = ancestor.as(ExtensionDeclSyntax.self) {
                    components.insert(SyntaxFacts.typePath(decl.extendedType), at: 0)
                }
                return components.joined(separator: ".")
            default:
                break
            }
            current = ancestor.parent
        }
        return components.joined(separator: ".")
    }

    private static func simpleName(_ node: Syntax) -> String? {
        if let decl = node.as(ClassDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(StructDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(EnumDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ActorDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ProtocolDeclSyntax.self) { return decl.name.text }
        return nil
    }
}

/// Nanoseconds spent in each listener of one file's walk, for `--timings`: one instance per file,
/// used by one thread.
package final class ListenerTimes {
    package init() {}
    private(set) var names: [(name: String, isRule: Bool)] = []
    private(set) var nanoseconds: [UInt64] = []

    package func slot(for name: String, isRule: Bool) -> Int {
        if let index = names.firstIndex(where: { $0.name == name }) { return index }
        names.append((name, isRule))
        nanoseconds.append(0)
        return names.count - 1
    }

    package func add(_ elapsed: UInt64, to slot: Int) { nanoseconds[slot] += elapsed }

    /// Seconds per rule id and per collector name.
    package var seconds: (rules: [String: Double], collectors: [String: Double]) {
        var rules: [String: Double] = [:], collectors: [String: Double] = [:]
        for (index, entry) in names.enumerated() {
            let value = Double(nanoseconds[index]) / 1e9
            if entry.isRule { rules[entry.name, default: 0] += value } else { collectors[entry.name, default: 0] += value }
        }
        return (rules, collectors)
    }
}
