import SwiftSyntax

/// Records where the project registers `@Model` types and how it configures its stores,
/// so CloudKit rules know whether sync is on and which models a container holds.
final class ModelContainerCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr, .variableDecl]

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        if let call = node.as(FunctionCallExprSyntax.self) {
            record(call, context: context)
        } else if let variable = node.as(VariableDeclSyntax.self) {
            recordVersionedSchemaModels(variable, context: context)
        }
    }

    static let interestingNames: Set<String> = [
        "ModelContainer", "Schema", "ModelConfiguration", "NSPersistentCloudKitContainer", "NSPersistentContainer", "modelContainer",
    ]

    private func record(_ call: FunctionCallExprSyntax, context: FileContext) {
        let method = context.calleeMethodName(call)
        // `configurations: .init(isStoredInMemoryOnly: true)`: the implicit member is a `ModelConfiguration`.
        if method == "init", Self.isImplicitConfiguration(call) {
            recordConfiguration(call, at: context.location(of: call), context: context)
            return
        }
        guard Self.interestingNames.contains(method) else { return }
        let callee = SyntaxFacts.calleeName(call)
        let location = context.location(of: call)
        switch callee {
        case "ModelContainer":
            register(typesIn: call.arguments, at: location, context: context)
            recordContainer(call, at: location, context: context)
        case "Schema":
            register(typesIn: call.arguments, at: location, context: context)
            if let name = Self.bindingName(of: call) {
                // `Schema(Store.entries)`: the list is named, and the index finds it in whichever file binds it.
                let listName = call.arguments.first.flatMap { $0.label == nil ? Self.referencedName($0.expression) : nil }
                context.facts.schemaBindings.append(SchemaBinding(name: name, models: Self.selfTypeNames(in: Syntax(call.arguments)), location: location,
                                                                  listName: listName, ownerType: Self.memberOwner(of: Syntax(call), context: context)))
            }
        case "ModelConfiguration":
            recordConfiguration(call, at: location, context: context)
        case "NSPersistentCloudKitContainer", "NSPersistentContainer":
            let name = SyntaxFacts.argument("name", of: call).flatMap(Self.stringLiteral)
            var kind: StoreConfiguration.Kind = FrameworkStores.containerClasses[callee] == .syncs ? .coreDataCloudKit : .coreDataLocal
            if Self.alwaysInMemory(call) { kind = .inMemory }
            // `description.cloudKitContainerOptions = nil` on every path: the store stays local.
            else if kind == .coreDataCloudKit, Self.alwaysClearsCloudKitOptions(call) { kind = .coreDataLocal }
            context.facts.storeConfigurations.append(StoreConfiguration(kind: kind, location: location, modelName: name,
                                                                        bindingName: Self.bindingName(of: call)))
        default:
            if method == "modelContainer", callee.hasPrefix(".") || !SyntaxFacts.isTypeName(callee) {
                register(typesIn: call.arguments, at: location, context: context)
                // `.modelContainer(for:)` builds a default configuration: CloudKit follows the entitlements.
                if let models = SyntaxFacts.argument("for", of: call) {
                    let kind: StoreConfiguration.Kind = Self.isInMemory(call) ? .inMemory : .swiftDataAutomatic
                    let names = Self.selfTypeNames(in: Syntax(models))
                    context.facts.storeConfigurations.append(StoreConfiguration(kind: kind, location: location, modelName: nil,
                                                                                ownModels: names.isEmpty ? nil : names, container: location))
                }
            }
        }
    }

    /// `ModelContainer(for: A.self, B.self, migrationPlan: P.self, configurations: a, b)`: the models before the
    /// labels that follow them, the configurations after `configurations:` (a variadic list or an array).
    /// With no `configurations:` the container builds one default configuration, whose CloudKit follows the
    /// entitlements ("combining your app's entitlements with the type's default values").
    private func recordContainer(_ call: FunctionCallExprSyntax, at location: SourceLocation, context: FileContext) {
        var models: [String] = []
        var schemaName: String?
        var configurations: [ExprSyntax] = []
        var section = "for"
        for argument in call.arguments {
            if let label = argument.label?.text { section = label }
            switch section {
            case "for":
                let names = Self.selfTypeNames(in: Syntax(argument.expression))
                models += names
                if names.isEmpty, let name = Self.referencedName(argument.expression) { schemaName = name }
            case "configurations":
                // An array built elsewhere (`configurations: configs`) counts as one configuration no
                // binding matches: the container's stores then stay unknown.
                if let array = argument.expression.as(ArrayExprSyntax.self) {
                    configurations += array.elements.map(\.expression)
                } else {
                    configurations.append(argument.expression)
                }
            default: break
            }
        }
        let names = configurations.compactMap { SyntaxFacts.memberPath($0).map { $0.members.last ?? $0.root } }
        context.facts.containers.append(ContainerFact(location: location, models: models, schemaName: schemaName,
                                                      configurationNames: names, configurationCount: configurations.count))
        if SyntaxFacts.argument("configurations", of: call) == nil {
            context.facts.storeConfigurations.append(StoreConfiguration(kind: .swiftDataAutomatic, location: location, modelName: nil,
                                                                        container: location))
        }
    }

    /// A `ModelConfiguration(...)`: whether its store syncs (from the table), the models it names, and the
    /// container it is passed to when written inside one.
    private func recordConfiguration(_ call: FunctionCallExprSyntax, at location: SourceLocation, context: FileContext) {
        let kind: StoreConfiguration.Kind
        if Self.isInMemory(call) {
            kind = .inMemory
        } else if let database = SyntaxFacts.argument("cloudKitDatabase", of: call) {
            // A value the table does not know (a variable, a condition) may sync: counted as syncing, as before.
            switch FrameworkStores.cloudKitDatabase(database.trimmedText) ?? .syncs {
            case .local: kind = .swiftDataLocal
            case .followsEntitlements: kind = .swiftDataAutomatic
            case .syncs: kind = .swiftDataCloudKit
            case .inMemory: kind = .inMemory
            }
        } else {
            kind = .swiftDataAutomatic
        }
        var ownModels: [String]?
        var ownSchemaName: String?
        if SyntaxFacts.argument("for", of: call) != nil {
            // `for: A.self, B.self`: the variadic list runs on over the unlabelled arguments after it.
            var names: [String] = []
            var inList = false
            for argument in call.arguments {
                if let label = argument.label?.text { inList = label == "for" }
                if inList { names += Self.selfTypeNames(in: Syntax(argument.expression)) }
            }
            ownModels = names.isEmpty ? nil : names
        } else if let schema = SyntaxFacts.argument("schema", of: call) {
            if let name = Self.referencedName(schema) {
                ownSchemaName = name
            } else {
                let names = Self.selfTypeNames(in: Syntax(schema))
                ownModels = names.isEmpty ? nil : names
            }
        }
        let container = Self.enclosingContainer(of: call).map { context.location(of: $0) }
        context.facts.storeConfigurations.append(StoreConfiguration(kind: kind, location: location, modelName: nil,
                                                                    bindingName: Self.bindingName(of: call), ownModels: ownModels,
                                                                    ownSchemaName: ownSchemaName, container: container))
    }

    /// `.init(...)` written as (an element of) a `ModelContainer(...)`'s `configurations:` argument.
    static func isImplicitConfiguration(_ call: FunctionCallExprSyntax) -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
              member.declName.baseName.tokenKind == .keyword(.`init`) else { return false }
        var node = Syntax(call).parent
        while let current = node {
            if let argument = current.as(LabeledExprSyntax.self) {
                guard argument.label?.text == "configurations",
                      let outer = argument.parent?.parent?.as(FunctionCallExprSyntax.self) else { return false }
                return SyntaxFacts.calleeName(outer) == "ModelContainer"
            }
            if !(current.is(ArrayElementSyntax.self) || current.is(ArrayElementListSyntax.self) || current.is(ArrayExprSyntax.self)) { return false }
            node = current.parent
        }
        return false
    }

    /// The `ModelContainer(...)` call a configuration is written inside, as one of its arguments.
    private static func enclosingContainer(of call: FunctionCallExprSyntax) -> FunctionCallExprSyntax? {
        var node = Syntax(call).parent
        while let current = node {
            if let outer = current.as(FunctionCallExprSyntax.self) {
                return SyntaxFacts.calleeName(outer) == "ModelContainer" ? outer : nil
            }
            if current.is(CodeBlockItemSyntax.self) || current.is(ClosureExprSyntax.self) { return nil }
            node = current.parent
        }
        return nil
    }

    /// The name a call's value is bound to: `x` in `let x = Call()`, `let x = try Call()`, `x = Call()`, `self.x = Call()`.
    static func bindingName(of call: FunctionCallExprSyntax) -> String? {
        var value = Syntax(call)
        while let parent = value.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) { value = parent }
        if let binding = value.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self) {
            return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        guard let expression = value.as(ExprSyntax.self), let target = TaskFacts.assignmentTarget(ofValue: expression) else { return nil }
        return TaskFacts.propertyName(target)
    }

    /// `isStoredInMemoryOnly: true`, `inMemory: true`, or a `/dev/null` URL among the call's arguments.
    static func isInMemory(_ call: FunctionCallExprSyntax) -> Bool {
        for label in FrameworkStores.inMemoryLabels where SyntaxFacts.argument(label, of: call)?.trimmedText == "true" {
            return true
        }
        return call.arguments.contains { mentionsInMemoryStore($0.expression) }
    }

    /// `NSInMemoryStoreType` or a `"/dev/null"` string anywhere in the node.
    static func mentionsInMemoryStore(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { token in
            token.text == FrameworkStores.inMemoryStoreTypeName || token.tokenKind == .stringSegment(FrameworkStores.inMemoryStorePath)
        }
    }

    /// A Core Data container whose enclosing body, at its own level (not inside an `if`), points its store
    /// at `/dev/null` or makes it `NSInMemoryStoreType`: a container for tests or previews only. The
    /// template's `if inMemory { ... }` is conditional and leaves the container as it is.
    static func alwaysInMemory(_ call: FunctionCallExprSyntax) -> Bool {
        guard let item = call.ancestorOrSelf(mapping: { $0.as(CodeBlockItemSyntax.self) }),
              let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return false }
        return list.contains { sibling in
            // An `if` or a `switch` (`case .inMemory: ... "/dev/null"`) is conditional: the store may be on disk.
            let expression = sibling.item.as(ExpressionStmtSyntax.self)?.expression
            let conditional = sibling.item.is(IfExprSyntax.self) || sibling.item.is(SwitchExprSyntax.self)
                || (expression?.is(IfExprSyntax.self) ?? false) || (expression?.is(SwitchExprSyntax.self) ?? false)
            return !conditional && mentionsInMemoryStore(sibling.item)
        }
    }

    /// A CloudKit container whose enclosing body, at its own level (not inside an `if`), sets a store
    /// description's `cloudKitContainerOptions` to `nil`: "nil: this store stays local". A conditional
    /// assignment (a setting that turns sync off) leaves it syncing.
    static func alwaysClearsCloudKitOptions(_ call: FunctionCallExprSyntax) -> Bool {
        guard let item = call.ancestorOrSelf(mapping: { $0.as(CodeBlockItemSyntax.self) }),
              let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return false }
        return list.contains { sibling in
            guard let sequence = sibling.item.as(ExpressionStmtSyntax.self)?.expression.as(SequenceExprSyntax.self)
                    ?? sibling.item.as(SequenceExprSyntax.self),
                  let assignment = SyntaxFacts.assignment(sequence) else { return false }
            return SyntaxFacts.memberPath(assignment.target)?.members.last == FrameworkStores.cloudKitOptionsProperty
                && assignment.value.is(NilLiteralExprSyntax.self)
        }
    }

    /// `static var models: [any PersistentModel.Type] { [A.self, B.self] }` in a `VersionedSchema`.
    private func recordVersionedSchemaModels(_ variable: VariableDeclSyntax, context: FileContext) {
        recordModelList(variable, context: context)
        guard variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "models",
              variable.modifiers.contains(where: { $0.name.text == "static" }) else { return }
        let names = Self.selfTypeNames(in: Syntax(variable))
        if !names.isEmpty {
            var registration = ModelRegistration(typeNames: names, location: context.location(of: variable))
            registration.scope = context.scope.currentType?.qualifiedName
            context.facts.modelRegistrations.append(registration)
        }
    }

    private func register(typesIn arguments: LabeledExprListSyntax, at location: SourceLocation, context: FileContext) {
        let names = Self.selfTypeNames(in: Syntax(arguments))
        if !names.isEmpty {
            var registration = ModelRegistration(typeNames: names, location: location)
            registration.scope = context.scope.currentType?.qualifiedName
            context.facts.modelRegistrations.append(registration)
        }
    }

    /// Every `X.self` in a subtree.
    /// `let entries: [any PersistentModel.Type] = [A.self, B.self]`: a list of types (every element `X.self`) bound to a
    /// name, which a schema made elsewhere may name (`SchemaBinding.listName`).
    private func recordModelList(_ variable: VariableDeclSyntax, context: FileContext) {
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let array = binding.initializer?.value.as(ArrayExprSyntax.self), !array.elements.isEmpty else { return }
        let names = Self.selfTypeNames(in: Syntax(array))
        guard names.count == array.elements.count else { return }
        context.facts.schemaBindings.append(SchemaBinding(name: name, models: names, location: context.location(of: variable),
                                                          ownerType: Self.memberOwner(of: Syntax(variable), context: context)))
    }

    /// The type whose stored member the node's variable declaration is (declared directly in its body), or nil for a
    /// local or a global.
    static func memberOwner(of node: Syntax, context: FileContext) -> String? {
        guard let variable = node.ancestorOrSelf(mapping: { $0.as(VariableDeclSyntax.self) }),
              variable.parent?.is(MemberBlockItemSyntax.self) == true else { return nil }
        return context.scope.currentType?.name
    }

    /// The name an argument refers to: `schema` in `schema`, `self.schema` or `Self.schema`; `Store.schema` for another
    /// type's member, so that the index looks for `schema` in `Store` and not for any binding of that name.
    static func referencedName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
              member.declName.baseName.tokenKind != .keyword(.self) else { return nil }
        let name = member.declName.baseName.text
        if SyntaxFacts.isSelf(base) || base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.Self) { return name }
        guard let owner = base.as(DeclReferenceExprSyntax.self)?.baseName.text, SyntaxFacts.isTypeName(owner) else { return nil }
        return owner + "." + name
    }

    static func selfTypeNames(in node: Syntax) -> [String] {
        var names: [String] = []
        for token in node.tokens(viewMode: .sourceAccurate) where token.tokenKind == .keyword(.self) {
            guard let member = token.parent?.parent?.as(MemberAccessExprSyntax.self),
                  member.declName.baseName.tokenKind == .keyword(.self),
                  let base = member.base else { continue }
            let name = SyntaxFacts.dottedName(base)
            if let last = name.split(separator: ".").last, SyntaxFacts.isTypeName(String(last)) { names.append(String(last)) }
        }
        return names
    }

    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
              let segment = literal.segments.first?.as(StringSegmentSyntax.self) else { return nil }
        return segment.content.text
    }
}
