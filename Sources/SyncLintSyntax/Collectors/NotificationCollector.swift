import SwiftSyntax

/// Collects what the sync-notification rules ask about: notification registrations (with the handler
/// and its thread), posts, private-queue context properties, local-save flags and change merging.
final class NotificationCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr, .sequenceExpr, .variableDecl]

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        if let call = node.as(FunctionCallExprSyntax.self) {
            record(call, context: context)
        } else if let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence) {
            recordAssignment(target: assignment.target, value: assignment.value, context: context)
        } else if let variable = node.as(VariableDeclSyntax.self) {
            recordMainQueueContextProperty(variable, context: context)
        }
    }

    /// A property of a type declared as a main-queue context: its initializer, or its getter's one expression,
    /// is `….viewContext` (`FrameworkCallbacks.mainQueueContexts`).
    private func recordMainQueueContextProperty(_ variable: VariableDeclSyntax, context: FileContext) {
        guard context.scope.currentFunction == nil, let type = context.scope.currentType else { return }
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let value = binding.initializer?.value ?? Self.returnedExpression(of: binding.accessorBlock),
                  let path = SyntaxFacts.memberPath(value) else { continue }
            let last = path.members.last ?? path.root
            guard FrameworkCallbacks.mainQueueContextNames.contains(last), last != name else { continue }
            context.facts.coreData.mainQueueContextProperties.append(TypeProperty(typeName: type.qualifiedName, property: name))
        }
    }

    /// The one expression a getter returns: `{ container.viewContext }`, `{ return container.viewContext }`,
    /// `{ get { container.viewContext } }`.
    static func returnedExpression(of accessors: AccessorBlockSyntax?) -> ExprSyntax? {
        guard let accessors else { return nil }
        let statements: CodeBlockItemListSyntax
        switch accessors.accessors {
        case .getter(let items): statements = items
        case .accessors(let list):
            guard let getter = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }), let body = getter.body else { return nil }
            statements = body.statements
        }
        guard statements.count == 1, let item = statements.first?.item else { return nil }
        if let returned = item.as(ReturnStmtSyntax.self) { return returned.expression }
        return item.as(ExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression
    }

    private func record(_ call: FunctionCallExprSyntax, context: FileContext) {
        let method = context.calleeMethodName(call)
        let typeName = context.scope.currentType?.qualifiedName ?? ""
        switch method {
        case "addObserver":
            if let selector = SyntaxFacts.argument("selector", of: call), let name = SyntaxFacts.argument("name", of: call) {
                context.facts.coreData.registrations.append(NotificationRegistration(
                    typeName: typeName, handler: .method(Self.selectorMethod(selector)), notification: NotificationNames.normalized(name.trimmedText),
                    fromAnyObject: Self.isNilOrAbsent(SyntaxFacts.argument("object", of: call)), deliversOnMain: false,
                    location: context.location(of: call)))
            } else if let name = SyntaxFacts.argument("forName", of: call) {
                let queue = SyntaxFacts.argument("queue", of: call)?.trimmedText ?? "nil"
                context.facts.coreData.registrations.append(NotificationRegistration(
                    typeName: typeName, handler: .closure, notification: NotificationNames.normalized(name.trimmedText),
                    fromAnyObject: Self.isNilOrAbsent(SyntaxFacts.argument("object", of: call)), deliversOnMain: queue.contains("main"),
                    location: context.location(of: call)))
            }
        case "publisher":
            guard let name = SyntaxFacts.argument("for", of: call) else { return }
            context.facts.coreData.registrations.append(NotificationRegistration(
                typeName: typeName, handler: .closure, notification: NotificationNames.normalized(name.trimmedText),
                fromAnyObject: Self.isNilOrAbsent(SyntaxFacts.argument("object", of: call)),
                deliversOnMain: NotificationHandlers.publisherReceivesOnMain(call), location: context.location(of: call)))
        case "notifications":
            guard let name = SyntaxFacts.argument("named", of: call) else { return }
            context.facts.coreData.registrations.append(NotificationRegistration(
                typeName: typeName, handler: .closure, notification: NotificationNames.normalized(name.trimmedText),
                fromAnyObject: Self.isNilOrAbsent(SyntaxFacts.argument("object", of: call)),
                deliversOnMain: context.scope.isMainActorIsolated, location: context.location(of: call)))
        case "post":
            guard let name = SyntaxFacts.argument("name", of: call) else { return }
            context.facts.coreData.posts.append(NotificationPost(
                typeName: typeName, functionName: context.scope.currentFunction?.name ?? "",
                notification: NotificationNames.normalized(name.trimmedText)))
        case "mergeChanges":
            context.facts.coreData.mergesRemoteChanges.append(context.location(of: call))
        case FrameworkCallbacks.loadPersistentStoresMethod:
            context.facts.coreData.storeLoads.append(context.location(of: call))
        case "performBackgroundTask":
            context.facts.coreData.backgroundContextsMade.append(context.location(of: call))
        case "newBackgroundContext", "NSManagedObjectContext":
            if method == "newBackgroundContext" { context.facts.coreData.backgroundContextsMade.append(context.location(of: call)) }
            guard method == "newBackgroundContext" || SyntaxFacts.argument("concurrencyType", of: call)?.trimmedText.contains("privateQueue") == true
            else { return }
            if let property = Self.storedPropertyReceiving(call, context: context) {
                context.facts.coreData.backgroundContextProperties.append(TypeProperty(typeName: typeName, property: property))
            }
        default: break
        }
    }

    private func recordAssignment(target: ExprSyntax, value: ExprSyntax, context: FileContext) {
        let path = SyntaxFacts.memberPath(target)
        if path?.members.last == "automaticallyMergesChangesFromParent", SyntaxFacts.boolLiteral(value) == true {
            context.facts.coreData.mergesRemoteChanges.append(context.location(of: target))
            return
        }
        guard SyntaxFacts.boolLiteral(value) == true, let path, let type = context.scope.currentType,
              let body = context.scope.currentFunction?.body else { return }
        let property: String
        if path.root == "self", path.members.count == 1 { property = path.members[0] }
        else if path.members.isEmpty { property = path.root }
        else { return }
        let savesContext = body.tokens(viewMode: .sourceAccurate).contains { token in
            token.text == "save" && token.previousToken(viewMode: .sourceAccurate)?.text == "."
        }
        if savesContext { context.facts.coreData.localSaveFlags.append(TypeProperty(typeName: type.qualifiedName, property: property)) }
    }

    /// `handle(_:)` → `handle`; `self.handle(_:)` → `handle`.
    static func selectorMethod(_ selector: ExprSyntax) -> String {
        var text = selector.trimmedText
        if let open = text.firstIndex(of: "("), text.hasPrefix("#selector") {
            text = String(text[text.index(after: open)...])
        }
        let name = text.split(separator: "(").first.map(String.init) ?? text
        return name.split(separator: ".").last.map(String.init) ?? name
    }

    static func isNilOrAbsent(_ argument: ExprSyntax?) -> Bool {
        guard let argument else { return true }
        return argument.is(NilLiteralExprSyntax.self)
    }

    /// The stored property a call's value goes to: `self.x = call`, `x = call`, or `let x = call` as a member default.
    static func storedPropertyReceiving(_ call: FunctionCallExprSyntax, context: FileContext) -> String? {
        if let target = TaskFacts.assignmentTarget(ofValue: call) { return TaskFacts.propertyName(target) }
        if let binding = call.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
           context.scope.currentFunction == nil {
            return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        return nil
    }
}
