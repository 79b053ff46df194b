import SwiftSyntax

/// The main-queue `viewContext` used from a background queue, a detached task or another context's queue.
public final class ViewContextOffMainRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "view_context_off_main",
        name: "View Context Off Main",
        whatItDoes: """
            Finds `viewContext` used inside a `DispatchQueue.global()` (or other queue's) closure, `Task.detached`, \
            or a background context's `perform` block.
            """,
        whyIsThisBad: """
            `viewContext` is a main-queue context: it and its objects may only be used on the main thread. From \
            another thread it races with SwiftUI reading the same objects and crashes intermittently. Use \
            `viewContext.perform { }`, or a background context with objects fetched by id.
            """,
        seed: "004",
        triggeringExamples: [
            RuleExample("""
                func refreshInBackground() {
                    DispatchQueue.global(qos: .background).async {
                        let items = try? self.container.↓viewContext.fetch(Item.fetchRequest())
                        print(items?.count ?? 0)
                    }
                }
                """),
            RuleExample("""
                func merge(from background: NSManagedObjectContext) {
                    background.perform {
                        try? background.save()
                        ↓viewContext.refreshAllObjects()
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                func refresh() {
                    viewContext.perform {
                        self.viewContext.refreshAllObjects()
                    }
                    DispatchQueue.global().async {
                        let summary = self.compute()
                        DispatchQueue.main.async { self.viewContext.refreshAllObjects(); self.show(summary) }
                    }
                }
                """),
            RuleExample("""
                func purgeOld(_ request: NSBatchDeleteRequest) {
                    let context = container.newBackgroundContext()
                    context.performAndWait {
                        let result = try? context.execute(request) as? NSBatchDeleteResult
                        let ids = result?.result as? [NSManagedObjectID] ?? []
                        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [self.container.viewContext])
                    }
                }
                """),
            RuleExample("""
                @MainActor func reload() {
                    lists = (try? viewContext.fetch(ItemList.fetchRequest())) ?? []
                }
                """),
        ],
        knownLimitations: """
            Objects fetched from `viewContext` and then used off the main thread are not followed, only the context \
            itself, and only where it is used (`viewContext.x`), not where it is passed to a call. A property named `viewContext` that is not the container's view context is reported too.
            """,
        messages: [usedOffMain])
    static let usedOffMain = RuleMessage("used_off_main", "`viewContext` belongs to the main thread but is used {place}; use `viewContext.perform { }`, or a background context with objects fetched by id")

    public static let nodeKinds: Set<SyntaxKind> = [.declReferenceExpr]

    /// `viewContext.fetch(...)`, `container.viewContext.refreshAllObjects()`: the context itself is used.
    /// Passing it along (`mergeChanges(fromRemoteContextSave:into: [viewContext])`, which is made for
    /// that) is not.
    static func isUsedAsReceiver(_ reference: DeclReferenceExprSyntax) -> Bool {
        var expression = Syntax(reference)
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            expression = Syntax(member)
        }
        return expression.parent?.as(MemberAccessExprSyntax.self)?.base?.id == expression.id
    }

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let reference = node.as(DeclReferenceExprSyntax.self), context.referenceName(reference).name == "viewContext",
              Self.isUsedAsReceiver(reference) else { return }
        for closure in context.scope.closures {
            if closure.isMainActorAnnotated { return }
            let place: String
            switch closure.kind {
            case .mainQueue, .mainActorRun: return
            case .backgroundQueue: place = "on a background queue"
            case .detachedTask: place = "in `Task.detached`"
            case .perform(let receiver), .performAndWait(let receiver):
                if receiver.hasSuffix("viewContext") { return }
                place = "on another context's queue"
            default: continue
            }
            context.report(reference, Self.usedOffMain, ["place": place])
            return
        }
    }
}
