import SwiftSyntax
import SyncLintFacts
import SyncLintIndex

/// A rule that looks at syntax during the single walk of each file.
///
/// A fresh instance is made for every file, so a rule may keep per-file state in stored properties.
/// The walker calls `enter`/`exit` only for the node kinds in `nodeKinds`, in source order, with the
/// shared `FileContext` (scope stack, reporting). Questions about other files are asked by
/// reporting with `context.report(..., when:)`, which is resolved once the project index is complete.
public protocol SyntaxRule: AnyObject {
    static var description: RuleDescription { get }
    static var nodeKinds: Set<SyntaxKind> { get }
    init(options: RuleOptions)
    func enter(_ node: Syntax, context: FileContext)
    func exit(_ node: Syntax, context: FileContext)
    /// Called once after the file's walk, for rules that decide at the end.
    func finishFile(context: FileContext)
}

extension SyntaxRule {
    public func enter(_ node: Syntax, context: FileContext) {}
    public func exit(_ node: Syntax, context: FileContext) {}
    public func finishFile(context: FileContext) {}
}

/// A rule that looks only at the finished project index (declarations across files, model files,
/// entitlements), never at a syntax tree.
public protocol ProjectRule {
    static var description: RuleDescription { get }
    static func check(index: ProjectIndex, options: RuleOptions) -> [Finding]
}
