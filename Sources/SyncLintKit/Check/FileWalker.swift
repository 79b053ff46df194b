import SwiftSyntax

/// Something that listens to node kinds during the single walk: a rule or an index collector.
protocol NodeListener: AnyObject {
    func enter(_ node: Syntax, context: FileContext)
    func exit(_ node: Syntax, context: FileContext)
}

/// The one walk of a file. It keeps the scope stack and hands each node to the index collectors
/// and then the rules that asked for its kind, on enter (after the node's own scope is pushed)
/// and on exit (before it is popped).
final class FileWalker: SyntaxAnyVisitor {
    private let context: FileContext
    private let listeners: [SyntaxKind: [(ruleID: String, listener: any NodeListener)]]
    /// For each node entered and not yet left: its listeners, and whether it opened a scope frame.
    /// Looked up once on enter, because asking a node its kind and hashing it cost more than the visit itself.
    private var entered: [(listeners: [(ruleID: String, listener: any NodeListener)]?, opensScope: Bool)] = []

    init(context: FileContext, collectors: [any FactCollector], rules: [any SyntaxRule]) {
        self.context = context
        var table: [SyntaxKind: [(ruleID: String, listener: any NodeListener)]] = [:]
        for collector in collectors {
            for kind in type(of: collector).nodeKinds { table[kind, default: []].append(("", collector)) }
        }
        for rule in rules {
            let ruleType = type(of: rule)
            for kind in ruleType.nodeKinds {
                table[kind, default: []].append((ruleType.description.id, RuleListener(rule)))
            }
        }
        self.listeners = table
        super.init(viewMode: .sourceAccurate)
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        let kind = node.kind
        let opensScope = ScopeBuilder.opensScope(node, kind: kind)
        if opensScope, let frame = ScopeBuilder.frame(for: node) { context.scope.push(frame) }
        let interested = listeners[kind]
        entered.append((interested, opensScope))
        if let interested {
            for (ruleID, listener) in interested {
                context.currentRuleID = ruleID
                listener.enter(node, context: context)
            }
        }
        return .visitChildren
    }

    override func visitAnyPost(_ node: Syntax) {
        let (interested, opensScope) = entered.removeLast()
        if let interested {
            for (ruleID, listener) in interested {
                context.currentRuleID = ruleID
                listener.exit(node, context: context)
            }
        }
        if opensScope { context.scope.pop(openedBy: node) }
    }
}

/// Adapts a rule to the walker's listener list.
private final class RuleListener: NodeListener {
    let rule: any SyntaxRule
    init(_ rule: any SyntaxRule) { self.rule = rule }
    func enter(_ node: Syntax, context: FileContext) { rule.enter(node, context: context) }
    func exit(_ node: Syntax, context: FileContext) { rule.exit(node, context: context) }
}

/// Builds scope frames from declarations and closures.
enum ScopeBuilder {
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
            return .type(TypeScope(name: type.name, kind: type.kind, attributes: SyntaxFacts.attributes(type.attributes),
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
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? binding.pattern.trimmedDescription
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

    /// Decides what runs a closure from the call it is passed to. Called for every closure and by rules
    /// for many calls, so it looks at the method name's token first and builds receiver text only for
    /// the few names that need it.
    static func classify(_ call: FunctionCallExprSyntax) -> ClosureKind {
        let method = SyntaxFacts.calleeMethodName(call)
        switch method {
        case "Task":
            return SyntaxFacts.calleeName(call) == "Task" ? .task : .other(callee: method)
        case "detached":
            return SyntaxFacts.calleeName(call) == "Task.detached" ? .detachedTask : .other(callee: method)
        case "run":
            return SyntaxFacts.calleeName(call) == "MainActor.run" ? .mainActorRun : .other(callee: method)
        case "onAppear": return .onAppear
        case "onDisappear": return .onDisappear
        case "addTask", "addTaskUnlessCancelled": return .taskGroupChild
        case "concurrentPerform": return .backgroundQueue
        case "task", "perform", "performAndWait", "async", "asyncAfter", "sync", "asyncAndWait", "addOperation":
            break
        default:
            return .other(callee: method)
        }
        let receiver = SyntaxFacts.receiverText(call) ?? ""
        switch method {
        case "task": return SyntaxFacts.isTypeName(receiver) ? .other(callee: method) : .viewTask
        case "perform": return receiver.isEmpty ? .other(callee: method) : .perform(receiver: receiver)
        case "performAndWait": return receiver.isEmpty ? .other(callee: method) : .performAndWait(receiver: receiver)
        case "addOperation": return receiver == "OperationQueue.main" ? .mainQueue : .backgroundQueue
        default:
            if receiver.hasPrefix("DispatchQueue.main") || receiver == "OperationQueue.main" { return .mainQueue }
            if receiver.hasPrefix("DispatchQueue") || receiver.lowercased().hasSuffix("queue") { return .backgroundQueue }
            return .other(callee: method)
        }
    }
}

/// A uniform view of the declarations that declare (or extend) a type.
struct TypeDeclarationView {
    let name: String
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
            let extended = decl.extendedType.trimmedDescription
            let simpleName = extended.split(separator: ".").last.map(String.init) ?? extended
            (name, kind, attributes, inheritance, memberBlock) = (simpleName, .extension, decl.attributes, decl.inheritanceClause, decl.memberBlock)
        } else {
            return nil
        }
        inheritedTypes = inheritance?.inheritedTypes.map { SyntaxFacts.simpleTypeName($0.type) } ?? []
    }
}
