import SwiftSyntax

/// A notification handler found during the walk: an `@objc` method (whose registration may be anywhere,
/// so the index decides later whether it handles an off-main notification) or a closure registered in place.
package struct NotificationHandler {
    package typealias Registration = HandlerRegistration

    package let registration: Registration
    package let statements: CodeBlockItemListSyntax
    package let typeName: String
    /// The handler's parameters and locals: names that are not properties of `self`.
    package var locals: Set<String> = []

    /// The handler for a method or closure node, if it can be one.
    package static func at(_ node: Syntax, context: FileContext) -> NotificationHandler? {
        guard let type = context.scope.currentType, !type.isActor else { return nil }
        if let function = node.as(FunctionDeclSyntax.self), let body = function.body,
           SyntaxFacts.hasAttribute("objc", function.attributes),
           function.signature.parameterClause.parameters.count <= 1 {
            var handler = NotificationHandler(registration: .method(typeName: type.qualifiedName, name: function.name.text),
                                              statements: body.statements, typeName: type.qualifiedName)
            handler.locals = FlowFacts.localNames(in: body).union(function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
            return handler
        }
        guard let closure = node.as(ClosureExprSyntax.self), let call = SyntaxFacts.enclosingCall(ofClosure: closure) else { return nil }
        var handler = closureHandler(closure, call: call, typeName: type.qualifiedName)
        handler?.locals = FlowFacts.localNames(in: closure.statements).union(Self.parameterNames(closure))
        return handler
    }

    package static func parameterNames(_ closure: ClosureExprSyntax) -> Set<String> {
        guard let parameters = closure.signature?.parameterClause else { return [] }
        switch parameters {
        case .simpleInput(let names): return Set(names.map(\.name.text))
        case .parameterClause(let clause): return Set(clause.parameters.map { ($0.secondName ?? $0.firstName).text })
        }
    }

    static func closureHandler(_ closure: ClosureExprSyntax, call: FunctionCallExprSyntax, typeName: String) -> NotificationHandler? {
        let method = SyntaxFacts.calleeMethodName(call)
        if method == "addObserver", let name = SyntaxFacts.argument("forName", of: call) {
            let queue = SyntaxFacts.argument("queue", of: call)?.trimmedText ?? "nil"
            return NotificationHandler(
                registration: .closure(notification: NotificationNames.normalized(name.trimmedText), deliversOnMain: queue.contains("main"),
                                       fromAnyObject: NotificationCollector.isNilOrAbsent(SyntaxFacts.argument("object", of: call))),
                statements: closure.statements, typeName: typeName)
        }
        if method == "sink", let publisher = publisherCall(inChainOf: call), let name = SyntaxFacts.argument("for", of: publisher) {
            return NotificationHandler(
                registration: .closure(notification: NotificationNames.normalized(name.trimmedText),
                                       deliversOnMain: publisherReceivesOnMain(publisher),
                                       fromAnyObject: NotificationCollector.isNilOrAbsent(SyntaxFacts.argument("object", of: publisher))),
                statements: closure.statements, typeName: typeName)
        }
        return nil
    }

    /// A value copy of the registration that deferred findings may capture.
    package var deferred: DeferredHandler { DeferredHandler(registration: registration) }

    /// The handler's top-level `if` and `guard` statements: their conditions, and the branch the condition
    /// selects (the `if` body, the guard's `else`).
    package var conditionalBranches: [(conditions: ConditionElementListSyntax, body: CodeBlockSyntax)] {
        statements.compactMap { statement in
            let item = Syntax(statement.item)
            if let ifExpression = item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) ?? item.as(IfExprSyntax.self) {
                return (ifExpression.conditions, ifExpression.body)
            }
            if let guardStatement = item.as(GuardStmtSyntax.self) { return (guardStatement.conditions, guardStatement.body) }
            return nil
        }
    }

    /// The handler's top-level statements that run before its first hop to the main thread.
    package var statementsBeforeHop: [CodeBlockItemSyntax] {
        var result: [CodeBlockItemSyntax] = []
        for statement in statements {
            if NotificationHandlers.hopsToMain(statement) { break }
            result.append(statement)
        }
        return result
    }

    static func publisherCall(inChainOf call: FunctionCallExprSyntax) -> FunctionCallExprSyntax? {
        var current: ExprSyntax? = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
        while let expression = current {
            guard let inner = expression.as(FunctionCallExprSyntax.self) else { return nil }
            if SyntaxFacts.calleeMethodName(inner) == "publisher" { return inner }
            current = inner.calledExpression.as(MemberAccessExprSyntax.self)?.base
        }
        return nil
    }

    static func publisherReceivesOnMain(_ publisher: FunctionCallExprSyntax) -> Bool {
        NotificationHandlers.publisherReceivesOnMain(publisher)
    }
}

/// What counts as a hop to the main thread, and other questions the notification rules share.
package enum NotificationHandlers {
    package static let optionDescription = RuleOptionDescription(
        "off_main_notifications", default: "[]",
        "more notification names (last component, e.g. `myStoreDidChange`) that arrive off the main thread")

    /// The notifications a rule treats as arriving off the main thread: Core Data's and CloudKit's, plus configured ones.
    package static func names(_ options: RuleOptions) -> Set<String> {
        Set(NotificationNames.offMainByDefault + options.strings("off_main_notifications", default: []))
    }

    /// `DispatchQueue.main.async/sync`, `MainActor.run`, `Task { @MainActor in }`, `MainActor.assumeIsolated`,
    /// `viewContext.perform`, and the re-dispatch `guard Thread.isMainThread else { DispatchQueue.main.async { ... }; return }`.
    package static func hopsToMain(_ statement: some SyntaxProtocol) -> Bool {
        var hops = false
        BodyScanner.scan(statement) { node in
            guard !hops, let call = node.as(FunctionCallExprSyntax.self) else { return }
            let callee = SyntaxFacts.calleeName(call)
            let method = SyntaxFacts.calleeMethodName(call)
            let receiver = SyntaxFacts.receiverText(call) ?? ""
            if ["async", "sync", "asyncAfter"].contains(method), receiver == "DispatchQueue.main" { hops = true }
            if callee == "MainActor.run" || callee == "MainActor.assumeIsolated" { hops = true }
            if method == "perform" || method == "performAndWait", receiver.hasSuffix("viewContext") { hops = true }
            if callee == "Task", let closure = SyntaxFacts.closures(of: call).first,
               SyntaxFacts.hasAttribute("MainActor", closure.signature?.attributes) { hops = true }
        }
        return hops
    }

    /// The notification centre's `publisher(for:)` call an expression's publisher chain starts from
    /// (`NotificationCenter.default.publisher(for: .refresh)`, `....publisher(for: name).receive(on: RunLoop.main)`), by
    /// the method and label `FrameworkObservers.registrations` lists; nil for another publisher or a stored one.
    package static func notificationPublisher(_ expression: ExprSyntax) -> FunctionCallExprSyntax? {
        var current: ExprSyntax? = expression
        while let call = current?.as(FunctionCallExprSyntax.self) {
            let method = SyntaxFacts.calleeMethodName(call)
            if method == "publisher", FrameworkObservers.registrations.contains(where: {
                $0.method == method && SyntaxFacts.argument($0.nameLabel, of: call) != nil
            }) { return call }
            current = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
        }
        return nil
    }

    /// A `.receive(on:)` with the main queue or run loop somewhere in the publisher's chain.
    static func publisherReceivesOnMain(_ publisher: FunctionCallExprSyntax) -> Bool {
        var top = Syntax(publisher)
        while let parent = top.parent, parent.is(MemberAccessExprSyntax.self) || parent.is(FunctionCallExprSyntax.self) {
            top = parent
        }
        let text = top.trimmedText
        guard let range = text.range(of: "receive(on:") else { return false }
        let rest = text[range.upperBound...].prefix(40)
        return rest.contains("main")
    }

    /// The stored property of `self` a reference reads or writes (`self.x`, or `x` not declared locally),
    /// excluding method calls; nil otherwise.
    package static func selfPropertyAccess(_ node: Syntax, locals: Set<String>) -> String? {
        if let member = node.as(MemberAccessExprSyntax.self), let base = member.base,
           SyntaxFacts.isSelf(base.as(OptionalChainingExprSyntax.self)?.expression ?? base) {
            if member.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == member.id { return nil }
            return member.declName.baseName.text
        }
        if let reference = node.as(DeclReferenceExprSyntax.self), case .identifier(let name) = reference.baseName.tokenKind,
           !locals.contains(name), !SyntaxFacts.isTypeName(name) {
            if reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id == reference.id { return nil }
            if reference.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == reference.id { return nil }
            return name
        }
        return nil
    }
}

/// The part of a handler a deferred finding needs: its registration, without syntax.
package struct DeferredHandler: Sendable {
    package let registration: NotificationHandler.Registration

    package func runsOffMain(_ index: ProjectIndex, names: Set<String>) -> String? {
        index.offMainNotification(of: registration, names: names)
    }

    package func handlesRemoteChange(_ index: ProjectIndex, names: Set<String>) -> String? {
        index.remoteChangeNotification(of: registration, names: names)
    }
}
