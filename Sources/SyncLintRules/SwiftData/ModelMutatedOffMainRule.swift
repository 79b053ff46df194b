import SwiftSyntax

/// A model object written on a background queue or in a detached task, or passed into an actor and used there.
public final class ModelMutatedOffMainRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "model_mutated_off_main",
        name: "Model Mutated Off Main",
        whatItDoes: """
            Finds a write to a model object (SwiftData `@Model` or Core Data `NSManagedObject`) inside \
            `DispatchQueue.global().async`, another non-main queue, or `Task.detached`: `self.x = ...` in a model's \
            own method, or `object.x = ...` on an object from outside the closure whose type is a model. Also a \
            model object passed as a parameter into an actor's method (an `actor` not isolated to the main actor) \
            and used there: read or written on the actor's executor.
            """,
        whyIsThisBad: """
            A model object belongs to the context (and thread) that fetched it; the main context's objects belong \
            to the main thread. Writing one from another thread corrupts the context and crashes intermittently. \
            Do the work on the main actor, or pass the object's id to a \
            background context and fetch it there.
            """,
        seed: "002",
        // Opt-in: judged on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21), it falls short of the bar
        // for a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
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
            RuleExample("""
                @Model final class Card { var reviewed: Bool = false; var deck: Deck? }
                @Model final class Deck { @Relationship(inverse: \\Card.deck) var cards: [Card]? }
                func resetProgress(of deck: Deck) {
                    DispatchQueue.global().async {
                        for card in deck.cards ?? [] {
                            ↓card.reviewed = false
                        }
                    }
                }
                """),
            RuleExample("""
                @Model final class Card { var reviewed: Bool = false; var deck: Deck? }
                @Model final class Deck { @Relationship(inverse: \\Card.deck) var cards: [Card]? }
                func markReviewed(_ deck: Deck, context: ModelContext) {
                    for card in deck.cards ?? [] {
                        DispatchQueue.global().async { ↓card.reviewed = true }
                    }
                    let strays = (try? context.fetch(FetchDescriptor<Card>())) ?? []
                    for card in strays {
                        DispatchQueue.global(qos: .utility).async { ↓card.deck = deck }
                    }
                }
                """),
            RuleExample("""
                @Model final class Subscription { var channelID: String = ""; var name: String = "" }
                actor RecordMapper {
                    func record(for ↓subscription: Subscription) -> CKRecord {
                        let record = CKRecord(recordType: "Subscription")
                        record["channelID"] = subscription.channelID as CKRecordValue
                        return record
                    }
                }
                """, message: "passed_into_actor"),
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
                @Model final class Card { var reviewed: Bool = false }
                func resetProgress(container: ModelContainer) {
                    DispatchQueue.global().async {
                        let context = ModelContext(container)
                        let cards = (try? context.fetch(FetchDescriptor<Card>())) ?? []
                        for card in cards { card.reviewed = false }
                        try? context.save()
                    }
                }
                """),
            RuleExample("""
                @Model final class Card { var reviewed: Bool = false; var deck: Deck? }
                @Model final class Deck { @Relationship(inverse: \\Card.deck) var cards: [Card]? }
                func markReviewed(_ deck: Deck) {
                    for card in deck.cards ?? [] {
                        DispatchQueue.main.async { card.reviewed = true }
                        DispatchQueue.global().async { let summary = card.reviewed ? "done" : "open"; print(summary) }
                    }
                }
                """),
            RuleExample("""
                final class Counter {
                    var value = 0
                    func bump() { DispatchQueue.global().async { self.value += 1 } }
                }
                """),
            // The fix: the mapper runs on the main actor; and an actor given only an id fetches in its own context.
            RuleExample("""
                @Model final class Subscription { var channelID: String = ""; var name: String = "" }
                @MainActor final class RecordMapper {
                    func record(for subscription: Subscription) -> CKRecord {
                        let record = CKRecord(recordType: "Subscription")
                        record["channelID"] = subscription.channelID as CKRecordValue
                        return record
                    }
                }
                @ModelActor actor Importer {
                    func rename(_ id: PersistentIdentifier, to name: String, zone: CKRecordZone) {
                        guard let subscription = modelContext.model(for: id) as? Subscription else { return }
                        subscription.name = name + zone.zoneID.zoneName
                    }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 35 apps nobody tuned on (docs/precision.md, round 4 of issue 21): no finding on the test half; 6 on the tune half, all wrong (methods nobody calls; objects new or fetched by the actor itself). \
            The written object's type comes from the semantic layer: `self` in a model's own methods, parameters, \
            properties, locals with an evident type, and loop variables over a model's relationship or a fetched \
            array (`for card in deck.cards ?? []`), whether the loop is inside the background closure or around it. An object obtained inside the background closure itself (a \
            fetch from a context made there) is not reported, nor is a value whose type the syntax does not tell. \
            A write on a background context's own objects inside its `perform` is correct and is not reported.
            """,
        messages: [writtenOffMain, passedIntoActor])
    static let writtenOffMain = RuleMessage("written_off_main", "a model object is written {queue}, off the thread its context belongs to; write it on the main actor, or fetch it by id in a background context's `perform`")

    static let passedIntoActor = RuleMessage("passed_into_actor", "`{parameter}` is a model object passed into actor `{actor}` and used on its executor, off the thread its context belongs to; pass its `persistentModelID` (or `objectID`) and fetch it in the actor's own context, or isolate `{actor}` to the main actor")

    public static let nodeKinds: Set<SyntaxKind> = [.sequenceExpr, .functionDecl]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        if let function = node.as(FunctionDeclSyntax.self) {
            reportModelParameters(of: function, context: context)
            return
        }
        guard let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
              let path = SyntaxFacts.memberPath(target), !path.members.isEmpty,
              let (queue, closure) = Self.offMainClosure(context.scope.closures) else { return }
        if path.root == "self" {
            guard let type = context.scope.currentType else { return }
            if type.isSwiftDataModel || type.isManagedObject {
                context.report(target, Self.writtenOffMain, ["queue": queue])
            } else if type.kind == .extension {
                let typeName = type.qualifiedName
                context.report(target, Self.writtenOffMain, ["queue": queue], when: .isPersistentModelNamed(typeName))
            }
            return
        }
        // The written object's type, and whether it came from outside the closure: a parameter, a property, or a
        // loop variable over one (`for card in deck.cards ?? []`). An object fetched inside the closure belongs
        // to a context made there.
        guard let root = ValueTypes.rootReference(of: target.as(MemberAccessExprSyntax.self)?.base ?? target),
              ValueTypes.originIsOutside(root, region: closure.node) else { return }
        let objectPath = target.as(MemberAccessExprSyntax.self)?.base ?? target
        context.report(target, Self.writtenOffMain, ["queue": queue], when: .isPersistentModel(ValueTypes.of(objectPath, in: context)))
    }

    /// A model object is bound to its context's thread, and an actor's method runs on the actor's executor: a model
    /// parameter of such a method that the body uses is read or written off that thread. The parameter's type is
    /// asked of the index (`@Model` or `NSManagedObject`).
    private func reportModelParameters(of function: FunctionDeclSyntax, context: FileContext) {
        guard let type = context.scope.currentType, type.isActor, !type.isMainActor, let body = function.body,
              !SyntaxFacts.hasAttribute("MainActor", function.attributes),
              !function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) else { return }
        for parameter in function.signature.parameterClause.parameters {
            var written = parameter.type
            if let optional = written.as(OptionalTypeSyntax.self) { written = optional.wrappedType }
            guard let typeName = written.as(IdentifierTypeSyntax.self)?.name.text, typeName.first?.isUppercase == true else { continue }
            let name = (parameter.secondName ?? parameter.firstName).text
            guard name != "_", body.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .identifier(name) }) else { continue }
            context.report(parameter.secondName ?? parameter.firstName, Self.passedIntoActor, ["parameter": name, "actor": type.name],
                           when: .isPersistentModel(.named(typeName, scope: type.qualifiedName)))
        }
    }

    /// The nearest enclosing closure that runs off the main thread and its description, unless a closure
    /// nearer to the write hops back to main or runs on a context's own queue.
    static func offMainClosure(_ closures: [ClosureScope]) -> (String, ClosureScope)? {
        for closure in closures {
            switch closure.kind {
            case .mainQueue, .mainActorRun, .perform, .performAndWait: return nil
            case .backgroundQueue: return ("on a background queue", closure)
            case .detachedTask: return closure.isMainActorAnnotated ? nil : ("in `Task.detached`", closure)
            default: if closure.isMainActorAnnotated { return nil }
            }
        }
        return nil
    }
}
