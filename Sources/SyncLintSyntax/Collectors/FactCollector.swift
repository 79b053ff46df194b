import SwiftSyntax

/// Collects facts for the project index during the single walk, writing to `context.facts`.
/// Collectors run before the rules on each node.
protocol FactCollector: NodeListener {
    static var nodeKinds: Set<SyntaxKind> { get }
    init()
}

extension FactCollector {
    func exit(_ node: Syntax, context: FileContext) {}
}

/// The index collectors, in the order they run.
enum IndexCollectors {
    static func make() -> [any FactCollector] {
        [DeclarationCollector(), ModelContainerCollector(), NotificationCollector(), FunctionSummaryCollector(), CodePlaceCollector(), FetchKeyCollector(),
         SchemaVersioningCollector(), PredicateMemberCollector(), DeadCodeCollector(), PackageManifestCollector()]
    }
}
