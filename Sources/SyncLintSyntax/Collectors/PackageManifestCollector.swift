import SwiftSyntax

/// Reads the targets of a `Package.swift` (the manifest is Swift and is walked like any file): each target's name,
/// the folder of its sources, and whether its `swiftSettings` make its module default to the main actor
/// (`.defaultIsolation(MainActor.self)`, Swift 6.2). Other files are left at once.
final class PackageManifestCollector: FactCollector {
    static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr]
    /// The `Target` factory methods of PackageDescription, and the folder SwiftPM looks in when `path:` is not given.
    static let targetKinds: [String: String] = [
        "target": "Sources", "executableTarget": "Sources", "testTarget": "Tests", "macro": "Sources", "plugin": "Plugins",
    ]
    static let manifestName = "Package.swift"

    /// Whether the walked file is a manifest, decided on the first call.
    private var isManifest: Bool?

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        if isManifest == nil {
            isManifest = context.path == Self.manifestName || context.path.hasSuffix("/" + Self.manifestName)
        }
        guard isManifest == true, let call = node.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              member.base == nil || member.base?.trimmedText == "Target",
              let defaultFolder = Self.targetKinds[member.declName.baseName.text],
              let name = Self.literal(SyntaxFacts.argument("name", of: call)) else { return }
        let packageFolder = String(context.path.dropLast(Self.manifestName.count)).trimmingSuffix("/")
        let relative = Self.literal(SyntaxFacts.argument("path", of: call)) ?? "\(defaultFolder)/\(name)"
        let folder = relative.hasPrefix("/") ? relative : (packageFolder.isEmpty ? relative : packageFolder + "/" + relative)
        let settings = SyntaxFacts.argument("swiftSettings", of: call).flatMap { Self.arrayLiteral($0, in: call) }
        let defaultsToMainActor = settings?.elements.contains { Self.isMainActorDefault($0.expression) } ?? false
        let runsOnCaller = settings?.elements.contains { Self.enablesNonisolatedNonsending($0.expression) } ?? false
        context.facts.packageTargets.append(PackageTargetFact(name: name, folder: folder.trimmingSuffix("/"),
                                                              defaultsToMainActor: defaultsToMainActor,
                                                              nonisolatedAsyncRunsOnCaller: runsOnCaller))
    }

    /// `.defaultIsolation(MainActor.self)` with no condition: a `.when(configuration:)` would make Debug and Release differ.
    static func isMainActorDefault(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self),
              call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "defaultIsolation",
              call.arguments.count == 1, let argument = call.arguments.first?.expression.as(MemberAccessExprSyntax.self)
        else { return false }
        return argument.declName.baseName.text == "self" && argument.base?.trimmedText == "MainActor"
    }

    /// `.enableUpcomingFeature("NonisolatedNonsendingByDefault")` (or the experimental spelling) with no condition.
    static func enablesNonisolatedNonsending(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self),
              let method = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
              method == "enableUpcomingFeature" || method == "enableExperimentalFeature", call.arguments.count == 1 else { return false }
        return literal(call.arguments.first?.expression) == "NonisolatedNonsendingByDefault"
    }

    /// The settings as written (`swiftSettings: [...]`), or the array a top-level `let` of the manifest binds
    /// (`swiftSettings: sharedSettings`).
    static func arrayLiteral(_ expression: ExprSyntax, in call: FunctionCallExprSyntax) -> ArrayExprSyntax? {
        if let array = expression.as(ArrayExprSyntax.self) { return array }
        guard let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
              let file = call.root.as(SourceFileSyntax.self) else { return nil }
        for statement in file.statements {
            guard let variable = statement.item.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                return binding.initializer?.value.as(ArrayExprSyntax.self)
            }
        }
        return nil
    }

    static func literal(_ expression: ExprSyntax?) -> String? {
        expression?.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) && count > suffix.count ? String(dropLast(suffix.count)) : self
    }
}
