import SwiftSyntax

/// Which closures and declarations decide where code runs.
public enum ExecutionContexts {
    /// Where the code at the walker's position runs.
    public static func current(in context: FileContext) -> ExecutionContext {
        current(in: context.scope, file: context.path)
    }

    /// Where the code at a position of `file` runs. What only the module decides (a default isolation, Swift 6.2)
    /// is left to the index: `.typeIsolation` for members of a type, `.moduleDefault` for free functions.
    public static func current(in scope: ScopeStack, file: String) -> ExecutionContext {
        for frame in scope.frames.reversed() {
            switch frame {
            case .closure(let closure):
                if let decided = ofClosure(closure) { return decided }
            case .function(let function):
                if function.isMainActor { return .mainActor }
                if function.isConcurrent { return .concurrent }
                if function.isNonisolated { return function.isAsync ? .concurrent : .callers }
                if let type = enclosingType(of: frame, in: scope) {
                    if type.isActor { return .actor }
                    if type.isMainActor || type.isView { return .mainActor }
                    if type.isNonisolated { return function.isAsync ? .concurrent : .callers }
                    return .typeIsolation(type.qualifiedName, isAsync: function.isAsync)
                }
                return .moduleDefault(file: file, isAsync: function.isAsync)
            case .type(let type):
                if type.isActor { return .actor }
                if type.isMainActor || type.isView { return .mainActor }
                if type.isNonisolated { return .callers }
                return .typeIsolation(type.qualifiedName, isAsync: false)
            }
        }
        return .callers
    }

    /// Whether code at the walker's position can be cancelled, as far as this file tells.
    static func cancellability(in context: FileContext) -> Cancellability {
        for frame in context.scope.frames.reversed() {
            switch frame {
            case .closure(let closure):
                switch closure.kind {
                case .viewTask: return .always
                // A child task is cancelled with the task that runs its group: whatever decides for the group decides for it.
                case .taskGroupChild: continue
                case .other(let callee) where FrameworkCalls.swiftUICancels(closureOf: callee): return .always
                case .task, .detachedTask:
                    guard let call = closure.call, let type = context.scope.currentType,
                          let property = context.storedHandleName(ofTask: call) else { return .never }
                    return .ifHandleCancelled(typeName: type.qualifiedName, property: property)
                case .other:
                    continue
                default:
                    return .never
                }
            case .function(let function):
                guard function.isAsync else { return .never }
                return .ifCallersCancellable(FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name))
            case .type:
                return .never
            }
        }
        return .never
    }

    /// Whether what cancels code at the walker's position is a SwiftUI `.task { }` without `id:`: SwiftUI cancels it
    /// only when its view disappears (https://developer.apple.com/documentation/swiftui/view/task(priority:_:): "SwiftUI
    /// will automatically cancel the task at some point after the view disappears"), never while the view is shown.
    /// `.task(id:)` is cancelled when its id changes too, `.refreshable` when a refresh is replaced: those are not.
    package static func isCancelledOnlyOnDisappear(in context: FileContext) -> Bool {
        for frame in context.scope.frames.reversed() {
            guard case .closure(let closure) = frame else { return false }
            switch closure.kind {
            case .viewTask:
                guard let call = closure.call else { return false }
                return SyntaxFacts.argument("id", of: call) == nil
            case .taskGroupChild, .other:
                if case .other(let callee) = closure.kind, FrameworkCalls.swiftUICancels(closureOf: callee) { return false }
                continue
            default:
                return false
            }
        }
        return false
    }

    /// The context a closure imposes, or nil when it runs where its surroundings run (`map`, `forEach`, `Task { }`).
    package static func ofClosure(_ closure: ClosureScope) -> ExecutionContext? {
        if closure.isMainActorAnnotated { return .mainActor }
        switch closure.kind {
        case .mainQueue, .mainActorRun, .onAppear, .onDisappear, .viewTask: return .mainActor
        case .backgroundQueue:
            guard let call = closure.call else { return .serialQueue }
            let entry = FrameworkCalls.lookup(method: SyntaxFacts.calleeMethodName(call), receiver: SyntaxFacts.receiverText(call) ?? "",
                                              callee: SyntaxFacts.calleeName(call))
            return entry?.runsClosure == .concurrentQueue ? .concurrent : .serialQueue
        case .perform(let receiver), .performAndWait(let receiver):
            return isMainContext(receiver) || receiverIsLocalMainContext(closure) ? .mainActor : .privateQueue
        case .detachedTask: return .detachedTask
        case .taskGroupChild: return .concurrent
        case .task: return nil
        case .other(let callee):
            guard let call = closure.call else { return nil }
            if callee == FrameworkCallbacks.observerMethod, let name = SyntaxFacts.argument(FrameworkCallbacks.observerNameLabel, of: call) {
                let queue = SyntaxFacts.argument(FrameworkCallbacks.observerQueueLabel, of: call)?.trimmedText ?? "nil"
                return FrameworkCallbacks.observerRunsOnMain(queueText: queue) ? .mainActor : .notificationHandler(NotificationNames.normalized(name.trimmedText))
            }
            if isCompletionHandler(closure.node, of: call) { return .completionHandler }
            return nil
        }
    }

    /// Whether the code at the walker's position runs on a queue the facts prove is not the main one: the innermost
    /// closure around it that does not run in place (`FrameworkHandlers.runsInPlace`) is `Task.detached`, an
    /// asynchronous dispatch on a queue made here (`DispatchQueue.global().async`, `DispatchQueue(label:).async`,
    /// `FrameworkQueues.offMainQueueMakers`), `performBackgroundTask`, or a `URLSession` completion handler on a session
    /// whose queue the session makes (`isSessionCompletionOffMain`). Not annotated `@MainActor`.
    package static func runsOnProvenOffMainQueue(_ scope: ScopeStack) -> Bool {
        for frame in scope.frames.reversed() {
            guard case .closure(let closure) = frame, !closure.isMainActorAnnotated else { return false }
            switch closure.kind {
            case .detachedTask:
                return true
            case .backgroundQueue:
                guard let call = closure.call, FrameworkQueues.asynchronousDispatchMethods.contains(SyntaxFacts.calleeMethodName(call)),
                      let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return false }
                return FrameworkQueues.makesOffMainQueue(receiver.trimmedDescription)
            case .other(let callee):
                if callee == FrameworkQueues.backgroundTaskMethod || isSessionCompletionOffMain(closure) { return true }
                guard FrameworkHandlers.runsInPlace(callee) else { return false }
            default:
                return false
            }
        }
        return false
    }

    /// A closure given to a `URLSession` task method (`dataTask`, `downloadTask`, `uploadTask`: its one closure is the
    /// completion handler) of `URLSession.shared`, or of a session made right there with only a configuration or with
    /// `delegateQueue: nil`: it runs on the delegate queue the session makes, never the main one
    /// (`FrameworkQueues.urlSessionCompletions`). A session held in a property or a local is not followed: its queue may
    /// be `.main`.
    package static func isSessionCompletionOffMain(_ closure: ClosureScope) -> Bool {
        guard let call = closure.call, FrameworkQueues.urlSessionTaskMethods.contains(SyntaxFacts.calleeMethodName(call)),
              let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return false }
        if receiver.trimmedDescription == FrameworkQueues.sharedSession { return true }
        guard let made = receiver.as(FunctionCallExprSyntax.self), made.calledExpression.trimmedDescription == FrameworkQueues.sessionType,
              made.arguments.first?.label?.text == "configuration" else { return false }
        if let queue = made.arguments.first(where: { $0.label?.text == FrameworkQueues.sessionQueueLabel }) {
            return queue.expression.is(NilLiteralExprSyntax.self)
        }
        return made.arguments.count == 1
    }

    /// `viewContext`, `container.viewContext`, `mainContext`: contexts bound to the main queue.
    static func isMainContext(_ receiver: String) -> Bool {
        FrameworkCallbacks.isMainQueueContext(receiver)
    }

    /// `let context = container.viewContext` and then `context.performAndWait { }`: the local is the main-queue
    /// context under another name, so its block runs on the main queue, not a private one.
    static func receiverIsLocalMainContext(_ closure: ClosureScope) -> Bool {
        guard let receiver = closure.call?.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(DeclReferenceExprSyntax.self),
              case .local(let initializer?) = ValueTypes.origin(of: receiver) else { return false }
        return isMainContext(initializer.trimmedDescription)
    }

    /// A closure passed as `completionHandler:` / `completion:` / `withCompletionHandler:`, or the trailing
    /// closure of a method whose name ends in `completionHandler`.
    package static func isCompletionHandler(_ closure: ClosureExprSyntax, of call: FunctionCallExprSyntax) -> Bool {
        if let argument = closure.parent?.as(LabeledExprSyntax.self), let label = argument.label?.text {
            return FrameworkCallbacks.completionHandlerLabels.contains(label)
        }
        return SyntaxFacts.calleeMethodName(call).hasSuffix(FrameworkCallbacks.completionHandlerMethodSuffix)
    }

    /// The closures around the walker's position, innermost first, passed to calls the framework table does not know,
    /// up to the first frame that decides where code runs (`CallFact.closureArguments`); `locals` are the function's
    /// names declared so far, for telling what a receiver or argument context is.
    package static func closureArguments(in context: FileContext, locals: Set<String> = []) -> [ClosureArgument] {
        let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
        var result: [ClosureArgument] = []
        for frame in context.scope.frames.reversed() {
            guard case .closure(let closure) = frame, ofClosure(closure) == nil, case .other(let callee) = closure.kind else { break }
            guard callee.startsLikeValueName else { continue }
            if let argument = closureArgument(closure, callee: callee, caller: caller, context: context, locals: locals) { result.append(argument) }
        }
        return result
    }

    /// The parameter of `function` whose `perform`/`performAndWait` block is the innermost frame deciding where the walker's
    /// position runs (`context.perform { }` in `patch(context:)`); nil for any other frame or receiver.
    package static func performParameter(in context: FileContext, function: FunctionKey) -> ContextParameter? {
        for frame in context.scope.frames.reversed() {
            guard case .closure(let closure) = frame else { return nil }
            guard ofClosure(closure) != nil else { continue }
            switch closure.kind {
            case .perform(let receiver), .performAndWait(let receiver):
                guard ofClosure(closure) == .privateQueue,
                      let (position, label) = ContextArguments.parameter(named: receiver, in: context.scope.currentFunction?.parameterClause)
                else { return nil }
                return ContextParameter(function: function, position: position, label: label)
            default:
                return nil
            }
        }
        return nil
    }

    /// The closure as an argument of the call it is passed to (`CallFact.closureArguments`); nil when it is not one.
    package static func closureArgument(_ closure: ClosureScope, callee: String, caller: FunctionKey, context: FileContext,
                                        locals: Set<String>) -> ClosureArgument? {
        guard let call = closure.call else { return nil }
        let position: Int
        let label: String?
        let isTrailing: Bool
        if call.trailingClosure?.id == closure.node.id {
            (position, label, isTrailing) = (call.arguments.count, nil, true)
        } else if let element = closure.node.parent?.as(LabeledExprSyntax.self),
                  let found = call.arguments.firstIndex(where: { $0.id == element.id }) {
            (position, label, isTrailing) = (call.arguments.distance(from: call.arguments.startIndex, to: found), element.label?.text, false)
        } else {
            return nil
        }
        var receiver: ValueType?
        var receiverContext: ContextArgument.Kind?
        var receiverName: String?
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return nil }
            if !SyntaxFacts.isSelf(base) {
                receiver = context.valueType(ofReceiver: base)
                receiverContext = ContextArguments.kind(of: base, in: context.scope.currentFunction?.body, locals: locals,
                                                        parameters: context.scope.currentFunction?.parameterClause)
                receiverName = SyntaxFacts.memberPath(base).map { $0.members.last ?? $0.root }
            }
        } else if !call.calledExpression.is(DeclReferenceExprSyntax.self) {
            return nil
        }
        return ClosureArgument(call: CallReference(caller: caller, callee: callee, receiver: receiver), position: position, label: label,
                               isTrailing: isTrailing, receiverContext: receiverContext,
                               contextArguments: ContextArguments.of(call, in: context.scope.currentFunction?.body, locals: locals,
                                                                     parameters: context.scope.currentFunction?.parameterClause),
                               receiverName: receiverName)
    }

    private static func enclosingType(of functionFrame: ScopeFrame, in scope: ScopeStack) -> TypeScope? {
        var passedFunction = false
        for frame in scope.frames.reversed() {
            if case .function(let function) = frame, case .function(let target) = functionFrame, function.node.id == target.node.id {
                passedFunction = true
                continue
            }
            if passedFunction, case .type(let type) = frame { return type }
            if passedFunction, case .function = frame { return nil }
        }
        return nil
    }
}
