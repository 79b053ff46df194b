import SwiftSyntax

/// A model object written on a background queue or in a detached task.
public final class ModelMutatedOffMainRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "model_mutated_off_main",
        name: "Model Mutated Off Main",
        whatItDoes: """
            Finds a write to a model object (SwiftData `@Model` or Core Data `NSManagedObject`) inside \
            `DispatchQueue.global().async`, another non-main queue, or `Task.detached`: `self.x = ...` in a model's \
            own method, or `object.x = ...` on a parameter whose type is a model.
            """,
        whyIsThisBad: """
            A model object belongs to the context (and thread) that fetched it; the main context's objects belong \
            to the main thread. Writing one from another thread corrupts the context and crashes intermittently \
            (seed 002, pattern 1: "Crash risk!"). Do the work on the main actor, or pass the object's id to a \
            background context and fetch it there.
            """,
        seed: "002",
        triggeringExamples: [
            RuleExample("""
                @Model
                class Die {
                    var value: Int = 1
                    func roll() {
                        DispatchQueue.global().async {
                            ↓self.value = Int.random(in: 1...6)  // Crash risk!
                        }
                    }
                }
                """),
            RuleExample("""
                final class Item: NSManagedObject { @NSManaged var title: String? }
                func rename(_ item: Item, to title: String) {
                    Task.detached {
                        ↓item.title = title
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                @MainActor @Model
                class Die {
                    var value: Int = 1
                    func roll() {
                        DispatchQueue.global().async {
                            let next = Int.random(in: 1...6)
                            DispatchQueue.main.async { self.value = next }
                        }
                    }
                }
                """),
            RuleExample("""
                final class Item: NSManagedObject { @NSManaged var title: String? }
                func rename(_ id: NSManagedObjectID, to title: String, in background: NSManagedObjectContext) {
                    background.perform {
                        let item = background.object(with: id) as? Item
                        item?.title = title
                    }
                }
                """),
            RuleExample("""
                final class Counter {
                    var value = 0
                    func bump() { DispatchQueue.global().async { self.value += 1 } }
                }
                """),
        ],
        knownLimitations: """
            Only `self` in a model's own methods and function parameters typed as a model are tracked; an object \
            reached through another property, or a local fetched before the dispatch, is not. A write on a \
            background context's own objects inside its `perform` is correct and is not reported.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.sequenceExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
              let path = SyntaxFacts.memberPath(target), !path.members.isEmpty,
              let queue = Self.offMainClosure(context.scope.closures) else { return }
        if path.root == "self" {
            guard let type = context.scope.currentType else { return }
            if type.isSwiftDataModel || type.isManagedObject {
                context.report(target, Self.message(queue))
            } else if type.kind == .extension {
                let typeName = type.qualifiedName
                context.report(target) { index in index.isPersistentModel(typeName) ? Self.message(queue) : nil }
            }
            return
        }
        guard let parameter = context.scope.currentFunction?.parameters.first(where: { $0.name == path.root }) else { return }
        let typeName = TypeNames.element(of: parameter.typeName)
        context.report(target) { index in index.isPersistentModel(typeName) ? Self.message(queue) : nil }
    }

    static func message(_ queue: String) -> String {
        "a model object is written \(queue), off the thread its context belongs to; write it on the main actor, or fetch it by id in a background context's `perform`"
    }

    /// The description of the nearest enclosing closure that runs off the main thread, unless a closure
    /// nearer to the write hops back to main or runs on a context's own queue.
    static func offMainClosure(_ closures: [ClosureScope]) -> String? {
        for closure in closures {
            switch closure.kind {
            case .mainQueue, .mainActorRun, .perform, .performAndWait: return nil
            case .backgroundQueue: return "on a background queue"
            case .detachedTask: return closure.isMainActorAnnotated ? nil : "in `Task.detached`"
            default: if closure.isMainActorAnnotated { return nil }
            }
        }
        return nil
    }
}
