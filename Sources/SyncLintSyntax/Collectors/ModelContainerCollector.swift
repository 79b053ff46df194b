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
        guard Self.interestingNames.contains(method) else { return }
        let callee = SyntaxFacts.calleeName(call)
        let location = context.location(of: call)
        switch callee {
        case "ModelContainer", "Schema":
            register(typesIn: call.arguments, at: location, context: context)
            if callee == "ModelContainer", SyntaxFacts.argument("configurations", of: call) == nil,
               !call.arguments.contains(where: { $0.expression.trimmedText.contains("Configuration") }) {
                context.facts.storeConfigurations.append(StoreConfiguration(kind: .swiftDataAutomatic, location: location, modelName: nil))
            }
        case "ModelConfiguration":
            let database = SyntaxFacts.argument("cloudKitDatabase", of: call)?.trimmedText
            let kind: StoreConfiguration.Kind
            switch database {
            case _ where Self.isInMemory(call): kind = .inMemory
            case nil: kind = .swiftDataAutomatic
            case ".none", "ModelConfiguration.CloudKitDatabase.none": kind = .swiftDataLocal
            default: kind = .swiftDataCloudKit
            }
            context.facts.storeConfigurations.append(StoreConfiguration(kind: kind, location: location, modelName: nil))
        case "NSPersistentCloudKitContainer", "NSPersistentContainer":
            let name = SyntaxFacts.argument("name", of: call).flatMap(Self.stringLiteral)
            var kind: StoreConfiguration.Kind = callee == "NSPersistentCloudKitContainer" ? .coreDataCloudKit : .coreDataLocal
            if Self.alwaysInMemory(call) { kind = .inMemory }
            context.facts.storeConfigurations.append(StoreConfiguration(kind: kind, location: location, modelName: name))
        default:
            if method == "modelContainer", callee.hasPrefix(".") || !SyntaxFacts.isTypeName(callee) {
                register(typesIn: call.arguments, at: location, context: context)
                // `.modelContainer(for:)` builds a default configuration: CloudKit follows the entitlements.
                if SyntaxFacts.argument("for", of: call) != nil {
                    let kind: StoreConfiguration.Kind = Self.isInMemory(call) ? .inMemory : .swiftDataAutomatic
                    context.facts.storeConfigurations.append(StoreConfiguration(kind: kind, location: location, modelName: nil))
                }
            }
        }
    }

    /// `isStoredInMemoryOnly: true`, `inMemory: true`, or a `/dev/null` URL among the call's arguments.
    static func isInMemory(_ call: FunctionCallExprSyntax) -> Bool {
        for label in ["isStoredInMemoryOnly", "inMemory"] where SyntaxFacts.argument(label, of: call)?.trimmedText == "true" {
            return true
        }
        return call.arguments.contains { mentionsInMemoryStore($0.expression) }
    }

    /// `NSInMemoryStoreType` or a `"/dev/null"` string anywhere in the node.
    static func mentionsInMemoryStore(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { token in
            token.text == "NSInMemoryStoreType" || token.tokenKind == .stringSegment("/dev/null")
        }
    }

    /// A Core Data container whose enclosing body, at its own level (not inside an `if`), points its store
    /// at `/dev/null` or makes it `NSInMemoryStoreType`: a container for tests or previews only. The
    /// template's `if inMemory { ... }` is conditional and leaves the container as it is.
    static func alwaysInMemory(_ call: FunctionCallExprSyntax) -> Bool {
        guard let item = call.ancestorOrSelf(mapping: { $0.as(CodeBlockItemSyntax.self) }),
              let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return false }
        return list.contains { sibling in
            !sibling.item.is(IfExprSyntax.self) && !(sibling.item.as(ExpressionStmtSyntax.self)?.expression.is(IfExprSyntax.self) ?? false)
                && mentionsInMemoryStore(sibling.item)
        }
    }

    /// `static var models: [any PersistentModel.Type] { [A.self, B.self] }` in a `VersionedSchema`.
    private func recordVersionedSchemaModels(_ variable: VariableDeclSyntax, context: FileContext) {
        guard variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "models",
              variable.modifiers.contains(where: { $0.name.text == "static" }) else { return }
        let names = Self.selfTypeNames(in: Syntax(variable))
        if !names.isEmpty {
            context.facts.modelRegistrations.append(ModelRegistration(typeNames: names, location: context.location(of: variable)))
        }
    }

    private func register(typesIn arguments: LabeledExprListSyntax, at location: SourceLocation, context: FileContext) {
        let names = Self.selfTypeNames(in: Syntax(arguments))
        if !names.isEmpty {
            context.facts.modelRegistrations.append(ModelRegistration(typeNames: names, location: location))
        }
    }

    /// Every `X.self` in a subtree.
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
