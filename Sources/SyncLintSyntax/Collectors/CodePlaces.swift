import SwiftSyntax

/// Records imports of test frameworks and the extent of preview code during the walk.
final class CodePlaceCollector: FactCollector {
    // `#Preview { }` parses as a declaration or, at the top level of a file, as an expression.
    static let nodeKinds: Set<SyntaxKind> = [.importDecl, .macroExpansionDecl, .macroExpansionExpr, .structDecl, .classDecl, .extensionDecl]
    static let testFrameworks: Set<String> = ["XCTest", "Testing"]

    init() {}

    func enter(_ node: Syntax, context: FileContext) {
        if let importDecl = node.as(ImportDeclSyntax.self) {
            if let module = importDecl.path.first?.name.text, Self.testFrameworks.contains(module) {
                context.facts.codePlaces.importsTestFramework = true
            }
            return
        }
        if let macro = node.as(MacroExpansionDeclSyntax.self) {
            if macro.macroName.text == "Preview" { recordPreview(macro, context: context) }
            return
        }
        if let macro = node.as(MacroExpansionExprSyntax.self) {
            if macro.macroName.text == "Preview" { recordPreview(macro, context: context) }
            return
        }
        let inheritance: InheritanceClauseSyntax?
        if let type = node.as(StructDeclSyntax.self) {
            inheritance = type.inheritanceClause
        } else if let type = node.as(ClassDeclSyntax.self) {
            inheritance = type.inheritanceClause
        } else {
            inheritance = node.as(ExtensionDeclSyntax.self)?.inheritanceClause
        }
        if inheritance?.inheritedTypes.contains(where: { $0.type.trimmedText == "PreviewProvider" }) == true {
            recordPreview(node, context: context)
        }
    }

    private func recordPreview(_ node: some SyntaxProtocol, context: FileContext) {
        let start = context.location(of: node).line
        let end = context.location(at: node.endPositionBeforeTrailingTrivia).line
        context.facts.codePlaces.previewLines.append(start...end)
    }
}
