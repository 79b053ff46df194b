import SwiftSyntax

/// The type being walked and what it is, from its own declaration (attributes, inheritance clause).
public struct TypeScope {
    public let name: String
    /// `Outer.Inner` for nested types; the key of the type in the project index.
    public let qualifiedName: String
    public let kind: TypeKind
    public let attributes: [AttributeFact]
    public let inheritedTypes: [String]
    public let node: Syntax

    public func hasAttribute(_ name: String) -> Bool { attributes.contains { $0.name == name } }
    public var isView: Bool { inheritedTypes.contains("View") }
    public var isActor: Bool { kind == .actor }
    public var isMainActor: Bool { hasAttribute("MainActor") }
    /// `nonisolated struct` / `nonisolated extension`: its members take no isolation from the type or the module.
    public var isNonisolated: Bool {
        node.asProtocol(WithModifiersSyntax.self)?.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) } ?? false
    }
    public var isObservable: Bool { hasAttribute("Observable") || inheritedTypes.contains("ObservableObject") }
    public var isSwiftDataModel: Bool { hasAttribute("Model") }
    public var isManagedObject: Bool { inheritedTypes.contains("NSManagedObject") }
}

/// The function (or initializer, accessor) being walked. Attributes and parameters are read on
/// demand: most functions are never asked about them.
public struct FunctionScope {
    public let name: String
    public let isAsync: Bool
    public let isThrowing: Bool
    let attributeList: AttributeListSyntax?
    package let parameterClause: FunctionParameterClauseSyntax?
    public let body: CodeBlockSyntax?
    public let node: Syntax

    public var attributes: [AttributeFact] { SyntaxFacts.attributes(attributeList) }

    /// Parameter names as used in the body, with their written types.
    public var parameters: [(name: String, typeName: String)] {
        parameterClause?.parameters.map { parameter in
            ((parameter.secondName ?? parameter.firstName).text, parameter.type.trimmedText)
        } ?? []
    }

    public var isMainActor: Bool { SyntaxFacts.hasAttribute("MainActor", attributeList) }

    /// `@concurrent` (Swift 6.2): runs on the concurrency pool whatever its type's isolation or its module's settings.
    public var isConcurrent: Bool { SyntaxFacts.hasAttribute("concurrent", attributeList) }

    /// `nonisolated func`: runs outside the type's actor.
    public var isNonisolated: Bool {
        node.as(FunctionDeclSyntax.self)?.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) } ?? false
    }
}

/// What runs a closure, which decides its thread, lifetime and cancellation.
public enum ClosureKind: Equatable {
    /// `Task { }` or `Task(priority:) { }`: inherits the actor, not cancelled by anyone unless stored.
    case task
    /// `Task.detached { }`: runs on the global executor.
    case detachedTask
    /// SwiftUI `.task { }` / `.task(id:) { }`: cancelled when the view disappears.
    case viewTask
    /// SwiftUI `.onAppear { }`.
    case onAppear
    /// SwiftUI `.onDisappear { }`.
    case onDisappear
    /// `DispatchQueue.main.async/asyncAfter/sync`.
    case mainQueue
    /// `DispatchQueue.global().async`, another queue's `async`, `concurrentPerform`.
    case backgroundQueue
    /// `context.perform { }` (asynchronous) on any receiver.
    case perform(receiver: String)
    /// `context.performAndWait { }`.
    case performAndWait(receiver: String)
    /// `group.addTask { }` in a task group.
    case taskGroupChild
    /// `MainActor.run { }`.
    case mainActorRun
    /// Any other closure, with the method it is passed to (`map`, `forEach`; "" when not passed to a call).
    case other(callee: String)
}

public struct ClosureScope {
    public let kind: ClosureKind
    public let node: ClosureExprSyntax
    /// The call the closure is passed to.
    public let call: FunctionCallExprSyntax?
    public let capturesSelfWeakly: Bool
    /// `Task { @MainActor in }`.
    public let isMainActorAnnotated: Bool
}

public enum ScopeFrame {
    case type(TypeScope)
    case function(FunctionScope)
    case closure(ClosureScope)

    /// The node that opened the frame; the walker pops the frame when it leaves that node.
    var nodeID: SyntaxIdentifier {
        switch self {
        case .type(let type): return type.node.id
        case .function(let function): return function.node.id
        case .closure(let closure): return closure.node.id
        }
    }
}

/// The stack of enclosing declarations and closures at the node being walked.
public struct ScopeStack {
    public private(set) var frames: [ScopeFrame] = []

    mutating func push(_ frame: ScopeFrame) { frames.append(frame) }

    /// Pops the frame `node` opened, if it opened one.
    mutating func pop(openedBy node: Syntax) {
        if let last = frames.last, last.nodeID == node.id { frames.removeLast() }
    }

    /// The innermost enclosing type.
    public var currentType: TypeScope? {
        for frame in frames.reversed() { if case .type(let type) = frame { return type } }
        return nil
    }

    /// The innermost enclosing function (ignoring closures between).
    public var currentFunction: FunctionScope? {
        for frame in frames.reversed() {
            if case .function(let function) = frame { return function }
            if case .type = frame { return nil }
        }
        return nil
    }

    /// The innermost enclosing closure, if it is nearer than the enclosing function.
    public var currentClosure: ClosureScope? {
        for frame in frames.reversed() {
            if case .closure(let closure) = frame { return closure }
            if case .function = frame { return nil }
            if case .type = frame { return nil }
        }
        return nil
    }

    /// Enclosing closures from the innermost out, up to the enclosing function.
    public var closures: [ClosureScope] {
        var result: [ClosureScope] = []
        for frame in frames.reversed() {
            if case .closure(let closure) = frame { result.append(closure) } else { break }
        }
        return result
    }

    /// Whether code here may suspend: inside an async function, or a closure that runs as a task.
    public var isAsyncContext: Bool {
        for frame in frames.reversed() {
            switch frame {
            case .closure(let closure):
                switch closure.kind {
                case .task, .detachedTask, .viewTask, .taskGroupChild: return true
                case .other:
                    if closure.node.signature?.effectSpecifiers?.asyncSpecifier != nil { return true }
                    continue
                default: return false
                }
            case .function(let function): return function.isAsync
            case .type: return false
            }
        }
        return false
    }

    /// Whether the enclosing type or function is isolated to the main actor.
    public var isMainActorIsolated: Bool {
        if currentFunction?.isMainActor == true { return true }
        if let type = currentType, type.isMainActor || type.isView { return true }
        return false
    }
}
