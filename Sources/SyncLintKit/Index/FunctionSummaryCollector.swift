import SwiftSyntax

/// Builds a `FunctionSummary` for every method, initializer, free function and computed property during
/// the walk, and records where SwiftUI views are constructed. Effects inside closures count for the
/// enclosing function, each with the context its closure runs in.
final class FunctionSummaryCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [
        .functionDecl, .initializerDecl, .patternBinding, .closureExpr, .sequenceExpr, .functionCallExpr,
        .awaitExpr, .forStmt, .memberAccessExpr, .declReferenceExpr, .ifExpr, .guardStmt,
        .identifierPattern, .functionParameter, .closureParameter, .closureShorthandParameter, .closureCapture,
    ]

    /// A function being summarized, with the names its body declared so far (not properties of `self`).
    private struct Frame {
        var summary: FunctionSummary
        var locals: Set<String>
        let nodeID: SyntaxIdentifier
    }

    private var frames: [Frame] = []
    /// Every name declared in the functions walked so far, to type call receivers without a name lookup.
    private let localNames = LocalNames()

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        switch node.kind {
        case .identifierPattern:
            // A computed property's own name is not a local of its getter.
            guard let frame = frames.last, node.parent?.id != frame.nodeID else { return }
            localNames.record(node)
        case .functionParameter, .closureParameter, .closureShorthandParameter, .closureCapture:
            if !frames.isEmpty { localNames.record(node) }
        case .functionDecl, .initializerDecl:
            guard let function = context.scope.currentFunction, function.node.id == node.id else { return }
            let key = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
            var frame = Frame(summary: FunctionSummary(key: key, isAsync: function.isAsync,
                                                       declaredContext: ExecutionContexts.current(in: context.scope),
                                                       location: context.location(of: node)),
                              locals: [], nodeID: node.id)
            frame.locals.formUnion(function.parameters.map(\.name))
            frame.summary.lastParameterEscapes = function.parameters.last.map { Self.isEscapingClosureType($0.typeName) } ?? false
            frames.append(frame)
        case .patternBinding:
            guard let binding = node.as(PatternBindingSyntax.self) else { return }
            if binding.accessorBlock != nil, DeclarationCollector.isComputed(binding),
               let function = context.scope.currentFunction, function.node.id == node.id {
                let key = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name)
                frames.append(Frame(summary: FunctionSummary(key: key, isAsync: function.isAsync,
                                                             declaredContext: ExecutionContexts.current(in: context.scope),
                                                             location: context.location(of: node)),
                                    locals: [], nodeID: node.id))
            } else if !frames.isEmpty, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                frames[frames.count - 1].locals.insert(name)
            }
        case .closureExpr:
            guard !frames.isEmpty, let closure = context.scope.currentClosure, closure.node.id == node.id else { return }
            frames[frames.count - 1].locals.formUnion(NotificationHandler.parameterNames(closure.node))
            if ExecutionContexts.ofClosure(closure) == .mainActor, closure.kind != .viewTask, closure.kind != .onAppear,
               closure.kind != .onDisappear {
                frames[frames.count - 1].summary.hopsToMainActor = true
            }
        case .forStmt:
            guard !frames.isEmpty, let loop = node.as(ForStmtSyntax.self) else { return }
            for token in loop.pattern.tokens(viewMode: .sourceAccurate) {
                if case .identifier(let name) = token.tokenKind { frames[frames.count - 1].locals.insert(name) }
            }
            if loop.awaitKeyword != nil, context.scope.currentClosure == nil { frames[frames.count - 1].summary.awaits = true }
        case .ifExpr, .guardStmt:
            guard !frames.isEmpty else { return }
            let conditions = node.as(IfExprSyntax.self)?.conditions ?? node.as(GuardStmtSyntax.self)?.conditions
            for condition in conditions ?? [] {
                if let binding = condition.condition.as(OptionalBindingConditionSyntax.self),
                   let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, binding.initializer != nil {
                    frames[frames.count - 1].locals.insert(name)
                }
            }
        case .awaitExpr:
            if !frames.isEmpty, context.scope.currentClosure == nil { frames[frames.count - 1].summary.awaits = true }
        case .sequenceExpr:
            recordWrite(node, context: context)
        case .functionCallExpr:
            guard let call = node.as(FunctionCallExprSyntax.self) else { return }
            recordConstruction(call, context: context)
            recordCall(call, context: context)
        case .memberAccessExpr:
            guard !frames.isEmpty, let member = node.as(MemberAccessExprSyntax.self), let base = member.base else { return }
            if node.parent?.is(LabeledExprSyntax.self) == true {
                frames[frames.count - 1].summary.passedReferences.insert(member.declName.baseName.text)
            }
            guard SyntaxFacts.isSelf(base), !Self.isWriteTarget(node) else { return }
            frames[frames.count - 1].summary.reads.insert(member.declName.baseName.text)
        case .declReferenceExpr:
            if !frames.isEmpty, node.parent?.is(LabeledExprSyntax.self) == true,
               let reference = node.as(DeclReferenceExprSyntax.self) {
                frames[frames.count - 1].summary.passedReferences.insert(reference.baseName.text)
            }
            recordBareRead(node, context: context)
        default:
            break
        }
    }

    func exit(_ node: Syntax, context: FileContext) {
        guard let last = frames.last, last.nodeID == node.id else { return }
        frames.removeLast()
        if frames.isEmpty { localNames.removeAll() }
        context.facts.functionSummaries.append(last.summary)
    }

    private func recordWrite(_ node: Syntax, context: FileContext) {
        guard !frames.isEmpty, let sequence = node.as(SequenceExprSyntax.self),
              let target = SyntaxFacts.writeTarget(sequence),
              let property = FlowFacts.selfProperty(target, locals: frames[frames.count - 1].locals) else { return }
        let value = SyntaxFacts.assignment(sequence).flatMap { SyntaxFacts.boolLiteral($0.value) }
        frames[frames.count - 1].summary.writes.append(StateWrite(
            property: property, boolValue: value, context: ExecutionContexts.current(in: context.scope),
            location: context.location(of: target)))
    }

    private func recordBareRead(_ node: Syntax, context: FileContext) {
        guard !frames.isEmpty, let reference = node.as(DeclReferenceExprSyntax.self),
              case .identifier(let name) = reference.baseName.tokenKind,
              !frames[frames.count - 1].locals.contains(name), name.first?.isLowercase == true else { return }
        if let parent = node.parent {
            // `a.b`'s `b`, a call's callee and a write target are not reads of a property.
            if let member = parent.as(MemberAccessExprSyntax.self), member.declName.id == node.id { return }
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { return }
        }
        if Self.isWriteTarget(node) { return }
        frames[frames.count - 1].summary.reads.insert(name)
    }

    private func recordCall(_ call: FunctionCallExprSyntax, context: FileContext) {
        guard !frames.isEmpty else { return }
        let method = context.calleeMethodName(call)
        let calleeName = SyntaxFacts.calleeName(call)
        let index = frames.count - 1
        switch method {
        case "post" where calleeName.hasSuffix("post") && SyntaxFacts.argument("name", of: call) != nil:
            if let name = SyntaxFacts.argument("name", of: call) {
                frames[index].summary.posts.append(NotificationNames.normalized(name.trimmedDescription))
            }
        case "scheduledTimer" where calleeName == "Timer.scheduledTimer":
            frames[index].summary.timers.append(context.location(of: call))
        case "save" where call.arguments.isEmpty:
            if let receiver = SyntaxFacts.receiverText(call) { frames[index].summary.saves.append(receiver) }
        case "rollback" where call.arguments.isEmpty, "reset" where call.arguments.isEmpty:
            if (SyntaxFacts.receiverText(call) ?? "").lowercased().hasSuffix("context") { frames[index].summary.rollsBack = true }
        case "cancel" where call.arguments.isEmpty:
            if let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
               let property = FlowFacts.selfProperty(receiver, locals: frames[index].locals) {
                frames[index].summary.cancelledHandles.insert(property)
            }
        default:
            break
        }
        // Calls that may reach another function of the project: unqualified ones (a method of `self` or a
        // free function) and method calls on a receiver whose type the syntax tells.
        guard method.first?.isLowercase == true else { return }
        let receiver: ValueType?
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return }
            if SyntaxFacts.isSelf(base) {
                receiver = nil
            } else {
                let type = ValueTypes.of(base, selfType: context.scope.currentType?.qualifiedName, depth: 0, names: localNames)
                guard type.isKnown else { return }
                receiver = type
            }
        } else if call.calledExpression.is(DeclReferenceExprSyntax.self) {
            receiver = nil
        } else {
            return
        }
        frames[index].summary.calls.append(CallFact(
            caller: frames[index].summary.key, callee: method, receiver: receiver,
            context: ExecutionContexts.current(in: context.scope),
            cancellation: ExecutionContexts.cancellability(in: context), location: context.location(of: call),
            ifConfigClauses: IfConfigFacts.clauses(of: Syntax(call), file: context.path)))
    }

    /// A view type built in a SwiftUI view's code, and whether each value gets a view of its own.
    private func recordConstruction(_ call: FunctionCallExprSyntax, context: FileContext) {
        guard context.scope.currentType?.isView == true,
              let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
              reference.baseName.text.first?.isUppercase == true else { return }
        let perValue = context.scope.closures.contains { closure in
            guard let call = closure.call else { return false }
            switch SyntaxFacts.calleeMethodName(call) {
            case "ForEach", "List", "Table", "OutlineGroup": return true
            case "navigationDestination": return SyntaxFacts.argument("for", of: call) != nil || SyntaxFacts.argument("item", of: call) != nil
            case "sheet", "fullScreenCover", "popover": return SyntaxFacts.argument("item", of: call) != nil
            default: return false
            }
        }
        // The innermost closure decides: a per-value container inside a detail column builds per value.
        let inColumn = !perValue && context.scope.closures.contains { closure in
            guard let call = closure.call, SyntaxFacts.calleeName(call) == "NavigationSplitView" else { return false }
            return ["detail", "content"].contains(Self.argumentLabel(of: closure.node))
        }
        context.facts.viewConstructions.append(ViewConstruction(
            typeName: reference.baseName.text, scope: context.scope.currentType?.qualifiedName,
            identity: perValue ? .perValue : (inColumn ? .splitViewColumn : .stable), location: context.location(of: call)))
    }

    /// The label a closure is passed with: `detail` for `NavigationSplitView { } detail: { }` or `detail: { }`.
    static func argumentLabel(of closure: ClosureExprSyntax) -> String? {
        if let element = closure.parent?.as(MultipleTrailingClosureElementSyntax.self) { return element.label.text }
        return closure.parent?.as(LabeledExprSyntax.self)?.label?.text
    }

    /// `@escaping (Int) -> Void`, or `((Int) -> Void)?` (an optional closure is escaping by definition).
    static func isEscapingClosureType(_ typeText: String) -> Bool {
        typeText.contains("@escaping") || (typeText.hasSuffix(")?") && typeText.contains("->"))
    }

    /// The left side of `x = v` or `x += v`.
    static func isWriteTarget(_ node: Syntax) -> Bool {
        guard let list = node.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self),
              let target = SyntaxFacts.writeTarget(sequence) else { return false }
        return target.id == node.id
    }
}
