import SwiftSyntax
import Testing
@testable import SyncLintKit

/// The semantic layer's facts on small sources: qualified types, value types, function summaries, call
/// sites and execution contexts, view construction sites, isolation, catch and cancellation facts, `#if`.
struct QualifiedTypeTests {
    @Test func nestedTypesSharingANameNeverMerge() {
        let index = Probe.index([
            "/v/A.swift": """
                enum Feed { struct Item { var title: String = "" } }
                enum Settings { struct Item { let key: String } }
                extension Feed.Item { var subtitle: String { "" } }
                """,
        ])
        #expect(index.resolveType("Item", from: "Feed") == "Feed.Item")
        #expect(index.resolveType("Item", from: "Settings") == "Settings.Item")
        #expect(index.resolveType("Item") == nil, "an ambiguous simple name is unknown, not a merge of both")
        #expect(index.property("title", of: "Feed.Item") != nil)
        #expect(index.property("title", of: "Settings.Item") == nil)
        #expect(index.property("subtitle", of: "Feed.Item")?.isComputed == true, "the extension attaches to Feed.Item")
        #expect(index.property("subtitle", of: "Settings.Item") == nil)
        #expect(index.declarations(of: "Feed.Item").count == 2)
    }

    @Test func aUniqueNestedNameStillResolvesFromOutside() {
        let index = Probe.index("enum Store { @Model final class Entry { var name: String = \"\" } }")
        #expect(index.resolveType("Entry") == "Store.Entry")
        #expect(index.isSwiftDataModel("Entry"))
        #expect(index.isSwiftDataModel("Store.Entry"))
    }
}

struct ValueTypeTests {
    static let models = """
        @Model final class Deck { var cards: [Card]? = []; var title: String = "" }
        @Model final class Card { var front: String = ""; var deck: Deck? }
        """

    /// The resolved type of every reference named `name` on the given line, in source order.
    static func types(of name: String, line: Int, in source: String) -> [ResolvedType?] {
        var questions: [ValueType] = []
        let index = Probe.index(["/v/Models.swift": models, "/v/Code.swift": source]) { node, context in
            guard context.path == "/v/Code.swift", let reference = node.as(DeclReferenceExprSyntax.self),
                  reference.baseName.text == name, context.location(of: node).line == line,
                  reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != reference.id else { return }
            questions.append(ValueTypes.of(ExprSyntax(reference), in: context))
        }
        return questions.map { index.resolve($0) }
    }

    @Test func aLoopVariableOverAModelRelationshipIsTheElementModel() {
        let source = """
            final class Importer {
                func touch(deck: Deck) {
                    for card in deck.cards ?? [] {
                        card.front = "x"
                    }
                }
            }
            """
        #expect(Self.types(of: "card", line: 4, in: source) == [ResolvedType(name: "Card", isCollection: false)])
        #expect(Self.types(of: "deck", line: 3, in: source) == [ResolvedType(name: "Deck", isCollection: false)])
    }

    @Test func fetchesAnnotationsBindingsAndClosureParameters() {
        let source = """
            struct DeckList: View {
                @Query var decks: [Deck]
                let context: ModelContext
                var body: some View {
                    ForEach(decks) { deck in Text(deck.title) }
                }
                func reload() throws {
                    let all = try context.fetch(FetchDescriptor<Card>())
                    let first: Card? = all.first
                    if let first { print(first) }
                    if let owner = first?.deck { print(owner) }
                    let made = [Card]()
                    decks.forEach { print($0) }
                    print(made, all)
                }
            }
            """
        #expect(Self.types(of: "deck", line: 5, in: source) == [ResolvedType(name: "Deck", isCollection: false)])
        #expect(Self.types(of: "all", line: 14, in: source) == [ResolvedType(name: "Card", isCollection: true)])
        #expect(Self.types(of: "first", line: 10, in: source) == [ResolvedType(name: "Card", isCollection: false)])
        #expect(Self.types(of: "owner", line: 11, in: source) == [ResolvedType(name: "Deck", isCollection: false)])
        #expect(Self.types(of: "made", line: 14, in: source) == [ResolvedType(name: "Card", isCollection: true)])
    }

    @Test func unknownStaysUnknown() {
        let source = """
            final class Worker {
                func run() {
                    let thing = makeThing()
                    let card = thing.card
                    print(thing, card)
                }
            }
            """
        #expect(Self.types(of: "thing", line: 5, in: source) == [nil])
        #expect(Self.types(of: "card", line: 5, in: source) == [nil], "a name that says `card` is not a Card")
    }
    /// Call receivers are typed from the names the walk saw declared (no lexical lookup): each answer
    /// must be the one Swift's scoping gives.
    @Test func receiversOfCallsFollowSwiftScoping() {
        let source = """
            final class Shelf {
                var deck: Deck = Deck()
                func sort(card: Card) {
                    if true { let deck = card; deck.touch() }
                    deck.touch()
                    let card = card.deck
                    card?.touch()
                    #if os(iOS)
                    let pile = Card()
                    #else
                    let pile = Deck()
                    #endif
                    pile.touch()
                    switch 3 {
                    case let deck where deck > 2: deck.touch()
                    default: break
                    }
                    do { try load() } catch { error.touch() }
                }
            }
            """
        let index = Probe.index(["/v/Models.swift": Self.models, "/v/Code.swift": source])
        let calls = index.functionSummaries.values.flatMap(\.calls).filter { $0.callee == "touch" }
        func receiver(onLine line: Int) -> String? {
            calls.first { $0.location.line == line }.flatMap { $0.receiver }.flatMap { index.resolve($0)?.name }
        }
        #expect(receiver(onLine: 4) == "Card", "the block's own `deck` shadows the property")
        #expect(receiver(onLine: 5) == "Deck", "after the block, `deck` is the property again")
        #expect(receiver(onLine: 7) == "Deck", "`let card = card.deck` reads the parameter")
        #expect(receiver(onLine: 13) == "Deck", "a `let` in an `#if` clause is visible after the `#endif`")
        #expect(receiver(onLine: 15) == nil, "a `case let` binding (an Int here) shadows the property in its body")
        #expect(calls.contains { $0.location.line == 18 } == false, "the implicit `error` is not a property of self")
    }

    /// A closure's capture list: `[weak x]` holds the outer `x`, `[y = value]` the value.
    @Test func capturedNamesHaveTheirOuterValuesType() {
        let source = """
            final class Shelf {
                var deck: Deck? = nil
                func start() {
                    let current = deck
                    Task { [weak current] in
                        guard let current else { return }
                        current.touch()
                    }
                    Task { [pile = deck] in pile?.touch() }
                }
            }
            """
        let index = Probe.index(["/v/Models.swift": Self.models, "/v/Code.swift": source])
        let receivers = index.functionSummaries.values.flatMap(\.calls).filter { $0.callee == "touch" }
            .sorted { $0.location.line < $1.location.line }.map { $0.receiver.flatMap { index.resolve($0)?.name } }
        #expect(receivers == ["Deck", "Deck"])
    }

    /// `Self.shared` is a static member of the type the code is in, as `Shelf.shared` would be.
    @Test func selfNamesTheEnclosingType() {
        let source = """
            final class Shelf {
                static let shared = Deck()
                func sort() {
                    Self.shared.touch()
                    Shelf.shared.touch()
                }
            }
            """
        let index = Probe.index(["/v/Models.swift": Self.models, "/v/Code.swift": source])
        let receivers = index.functionSummaries.values.flatMap(\.calls).filter { $0.callee == "touch" }
            .sorted { $0.location.line < $1.location.line }.map { $0.receiver.flatMap { index.resolve($0)?.name } }
        #expect(receivers == ["Deck", "Deck"])
    }
}

struct FunctionSummaryTests {
    static let store = """
        final class Store {
            var items: [String] = []
            var isLoading = false
            func handle() { refresh() }
            func refresh() { self.apply() }
            func apply() {
                items = []
                isLoading = false
                NotificationCenter.default.post(name: .storeChanged, object: nil)
            }
            func again() { again() }
            func twice() { once() }
            func once() { twice() }
        }
        """

    @Test func aCatchThatThrowsCancellationErrorForURLErrorCancelledConverts() {
        let index = Probe.index("""
            final class API {
                func byPattern(_ url: URL) async throws -> Data {
                    do { return try await URLSession.shared.data(from: url).0 }
                    catch let error as URLError where error.code == .cancelled { throw CancellationError() }
                }
                func byTest(_ url: URL) async throws -> Data {
                    do { return try await URLSession.shared.data(from: url).0 } catch {
                        if (error as? URLError)?.code == .cancelled { throw CancellationError() }
                        throw error
                    }
                }
                func passesOn(_ url: URL) async throws -> Data {
                    do { return try await URLSession.shared.data(from: url).0 } catch is CancellationError { throw CancellationError() }
                }
                func inAClosure(_ url: URL) async throws {
                    do { try await load(url) } catch let error as URLError where error.code == .cancelled {
                        let rethrow = { throw CancellationError() }
                        try rethrow()
                    }
                }
            }
            """)
        func converts(_ name: String) -> Bool? { index.summary(of: FunctionKey(typeName: "API", name: name))?.convertsURLErrorCancelled }
        #expect(converts("byPattern") == true)
        #expect(converts("byTest") == true)
        #expect(converts("passesOn") == false, "a CancellationError passed on converts nothing")
        #expect(converts("inAClosure") == false, "the throw must stand in the catch itself, not in a closure")
    }

    @Test func contextsPassedAsArgumentsAreKeptWithTheirKind() {
        let index = Probe.index("""
            final class Importer {
                let container: NSPersistentContainer
                private lazy var backgroundContext = container.newBackgroundContext()
                func run(_ count: Int) {
                    let context = container.newBackgroundContext()
                    let main = container.viewContext
                    insert(count, into: context)
                    insert(count, into: container.viewContext)
                    insert(count, into: backgroundContext)
                    insert(count, into: main)
                    insert(count, into: NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType))
                    log(count)
                }
                func insert(_ count: Int, into context: NSManagedObjectContext) {}
                func log(_ count: Int) {}
            }
            """)
        let calls = index.summary(of: FunctionKey(typeName: "Importer", name: "run"))?.calls.filter { $0.callee == "insert" || $0.callee == "log" } ?? []
        #expect(calls.map { $0.contextArguments.map(\.kind) } == [
            [.backgroundContext], [.viewContext], [.contextProperty("backgroundContext")], [], [.backgroundContext], [],
        ])
        #expect(calls.first?.contextArguments.first.map { [String(describing: $0.label), String($0.position)] } == ["Optional(\"into\")", "1"])
    }

    @Test func effectsOfAHelperTwoCallsDeep() {
        let index = Probe.index(Self.store)
        let reached = index.reachableSummaries(from: FunctionKey(typeName: "Store", name: "handle"))
        #expect(reached.map(\.summary.key.name) == ["handle", "refresh", "apply"])
        let apply = reached.last?.summary
        #expect(apply?.writes.map(\.property) == ["items", "isLoading"])
        #expect(apply?.resetFlags == ["isLoading"])
        #expect(apply?.posts == ["storeChanged"])
    }

    @Test func recursionEnds() {
        let index = Probe.index(Self.store)
        #expect(index.reachableSummaries(from: FunctionKey(typeName: "Store", name: "again")).count == 1)
        #expect(index.reachableSummaries(from: FunctionKey(typeName: "Store", name: "twice")).count == 2)
        #expect(index.executionContexts(of: FunctionKey(typeName: "Store", name: "twice")).isEmpty)
    }

    /// Whether a function's errors can carry its task's cancellation, followed through project functions to the
    /// framework calls that report one; another module's awaited call may; local work and continuations cannot.
    @Test func cancellationAFunctionCanThrow() {
        let index = Probe.index("""
            protocol Client { func send(_ request: URLRequest) async throws -> Data }
            final class LiveClient: Client {
                func send(_ request: URLRequest) async throws -> Data { try await URLSession.shared.data(for: request).0 }
            }
            @ModelActor actor Store {
                func all() throws -> [Item] { try modelContext.fetch(FetchDescriptor<Item>()) }
            }
            final class Loader {
                let client: Client
                let store: Store
                func remote() async throws -> Data { try await client.send(request) }
                func local() async throws -> [Item] { try await store.all() }
                func waits() async throws { try await Task.sleep(for: .seconds(1)) }
                func viaWait() async throws { try await waits() }
                func external() async throws { try await sdk.refresh() }
                func bridged() async throws -> Int { try await withCheckedThrowingContinuation { c in legacy { c.resume(with: $0) } } }
                func swallowed() async throws { do { try await waits() } catch { throw LoadError.failed } }
                func passedOn() async throws { do { try await waits() } catch { log(error); throw error } }
                func detached() async throws { Task { try await self.waits() }; try store.check() }
                func recursive() async throws { try await recursive() }
            }
            protocol Provider { func fetch() async throws -> Int }
            extension Provider {
                func resolve() async -> Result<Int, Error> { do { return .success(try await fetch()) } catch { return .failure(error) } }
                func load() async throws -> Int { try await fetch() }
            }
            struct SleepyProvider: Provider { func fetch() async throws -> Int { try await Task.sleep(for: .seconds(1)); return 1 } }
            """)
        func thrown(_ name: String) -> CancellationThrow { index.cancellationThrow(of: FunctionKey(typeName: "Loader", name: name)) }
        #expect(thrown("remote") == .proven, "through a protocol's project conformer to a URLSession transfer")
        #expect(thrown("local") == .never, "a model actor's synchronous fetch reads no task's flag")
        #expect(thrown("waits") == .proven)
        #expect(thrown("viaWait") == .proven)
        #expect(thrown("external") == .unknown, "another module's awaited call may report a cancellation")
        #expect(thrown("bridged") == .never, "a continuation does not observe cancellation")
        #expect(thrown("swallowed") == .never, "wraps every error in its own")
        #expect(thrown("passedOn") == .proven, "a catch that passes on what it caught")
        #expect(thrown("detached") == .never, "a task nobody awaits throws to no one here")
        #expect(thrown("recursive") == .unknown, "a call met again is not followed: overloads share a name")
        #expect(index.cancellationThrow(of: FunctionKey(typeName: "Provider", name: "load")) == .proven,
                "a protocol extension's call of a requirement runs the conformers' methods")
    }

    /// Whether a throwing function's errors are all the app's own: only its own body counts (not its
    /// closures), a catch-all around a `try` keeps it so, and a typed `throws` says so itself.
    @Test func errorsAFunctionLetsEscape() {
        let index = Probe.index("""
            enum LoadError: Error { case missing, wrapped(Error) }
            final class Loader {
                func own() throws { throw LoadError.missing }
                func passesOn() throws { try own() }
                func typed() throws(LoadError) { try own() }
                func wraps() throws { do { try own() } catch { throw LoadError.wrapped(error) } }
                func rethrowsIt(_ error: Error) throws { throw error }
                func closureTries() throws { let later = { try self.own() }; _ = later; throw LoadError.missing }
                func cancels() throws { throw CancellationError() }
                func streams(_ lines: AsyncThrowingStream<String, Error>) async throws {
                    for try await _ in lines {}
                    throw LoadError.missing
                }
                func quietTry() throws { try? own(); throw LoadError.missing }
                func nothing() throws {}
                func nested() throws {
                    func inner() throws { try own() }
                    throw LoadError.missing
                }
            }
            """)
        func ownOnly(_ name: String) -> Bool? { index.summary(of: FunctionKey(typeName: "Loader", name: name))?.throwsOnlyOwnErrors }
        #expect(ownOnly("own") == true)
        #expect(ownOnly("passesOn") == false)
        #expect(ownOnly("typed") == true)
        #expect(ownOnly("wraps") == true)
        #expect(ownOnly("rethrowsIt") == false)
        #expect(ownOnly("closureTries") == true, "a closure's `try` throws when the closure runs, not here")
        #expect(ownOnly("cancels") == false)
        #expect(ownOnly("streams") == false)
        #expect(ownOnly("quietTry") == true)
        #expect(ownOnly("nothing") == false, "throws nothing of its own")
        #expect(ownOnly("nested") == true, "a nested function's `try` is its own")
    }

    /// Which functions await a URLSession transfer (the framework table's receivers) or a call only named like one
    /// (`loader.data(for:)` on a protocol), and whether a call reaches one through the functions it calls.
    @Test func urlSessionTransfersAwaitedAndReached() {
        let index = Probe.index("""
            protocol DataLoader { func data(for request: URLRequest) async throws -> (Data, URLResponse) }
            final class Client {
                let loader: DataLoader
                init(loader: DataLoader) { self.loader = loader }
                func direct(_ url: URL) async throws -> Data { try await URLSession.shared.data(from: url).0 }
                func viaHelper(_ url: URL) async throws -> Data { try await direct(url) }
                func viaLoader(_ request: URLRequest) async throws -> Data { try await loader.data(for: request).0 }
                func sleeps() async throws { try await Task.sleep(for: .seconds(1)) }
                func fileData(_ url: URL) throws -> Data { try Data(contentsOf: url) }
            }
            """)
        func summary(_ name: String) -> FunctionSummary? { index.summary(of: FunctionKey(typeName: "Client", name: name)) }
        #expect(summary("direct")?.awaitsURLSessionTransfer == true)
        #expect(summary("direct")?.awaitsTransferNamedLikeURLSession == false)
        #expect(summary("viaHelper")?.awaitsURLSessionTransfer == false, "the helper's own body awaits no transfer")
        #expect(summary("viaLoader")?.awaitsURLSessionTransfer == false)
        #expect(summary("viaLoader")?.awaitsTransferNamedLikeURLSession == true)
        #expect(summary("sleeps")?.awaitsURLSessionTransfer == false)
        #expect(summary("sleeps")?.awaitsTransferNamedLikeURLSession == false)
        func call(_ name: String) -> CallReference {
            CallReference(caller: FunctionKey(typeName: "Client", name: "caller"), callee: name, receiver: nil)
        }
        #expect(index.holds(.reachesURLSessionTransfer([call("viaHelper")])))
        #expect(!index.holds(.reachesURLSessionTransfer([call("viaLoader")])))
        #expect(index.holds(.mayReachURLSessionTransfer([call("viaLoader")])))
        #expect(!index.holds(.mayReachURLSessionTransfer([call("sleeps")])))
        // A call the index cannot follow, in a project that awaits transfers; `Task.sleep` is known to throw only
        // `CancellationError`.
        #expect(index.holds(.mayReachURLSessionTransfer([call("unknownClosureProperty")])))
        #expect(!index.holds(.mayReachURLSessionTransfer([call("sleep")])))
        let offline = Probe.index("""
            final class Store { func load() async throws { try await Task.sleep(for: .seconds(1)) } }
            """)
        #expect(!offline.holds(.mayReachURLSessionTransfer([CallReference(caller: FunctionKey(typeName: "Store", name: "x"),
                                                                           callee: "unknownClosureProperty", receiver: nil)])),
                "a project that awaits no transfer of its own")
    }

    @Test func readsAreMembersNotLocals() {
        let index = Probe.index("""
            final class Counter {
                var total = 0
                func report() -> String {
                    let prefix = "n"
                    return prefix + String(total) + String(self.total)
                }
            }
            """)
        #expect(index.summary(of: FunctionKey(typeName: "Counter", name: "report"))?.reads.contains("prefix") == false)
        #expect(index.summary(of: FunctionKey(typeName: "Counter", name: "report"))?.reads.contains("total") == true)
    }
}

struct CallSiteTests {
    @Test func aFunctionWhoseNameStartsWithAnUnderscoreHasItsCallersFound() {
        let index = Probe.index("""
            final class MapRegionManager {
                var loader: Loader = Loader()
                func _loadSearchResponse() async {}
                func __refresh() {}
                func loadSearchResponse() {
                    Task { await _loadSearchResponse() }
                    self.__refresh()
                    loader._fetch()
                }
            }
            final class Loader { func _fetch() {} }
            """)
        #expect(index.callSites(of: FunctionKey(typeName: "MapRegionManager", name: "_loadSearchResponse")).map(\.caller.name)
                == ["loadSearchResponse"])
        #expect(index.callSites(of: FunctionKey(typeName: "MapRegionManager", name: "__refresh")).map(\.caller.name) == ["loadSearchResponse"])
        #expect(index.callSites(of: FunctionKey(typeName: "Loader", name: "_fetch")).map(\.caller.name) == ["loadSearchResponse"])
        // A call is still known as a task's, so the function's cancellability follows it: a dropped task is never cancelled.
        #expect(!index.isCancellable(.ifCallersCancellable(FunctionKey(typeName: "MapRegionManager", name: "_loadSearchResponse"))))
    }

    @Test func aHelperCalledFromAnOffMainHandlerAndAGlobalQueueRunsOffMain() {
        let index = Probe.index("""
            final class Syncer {
                func start() {
                    NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: nil, queue: nil) { _ in
                        self.reload()
                    }
                }
                func reload() { scheduleTimer() }
                func scheduleTimer() { Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in } }
                func kick() { DispatchQueue.global().async { self.scheduleTimer() } }
                func onMain() { DispatchQueue.main.async { self.scheduleTimer() } }
            }
            """)
        let contexts = index.executionContexts(of: FunctionKey(typeName: "Syncer", name: "scheduleTimer"))
        #expect(contexts.contains(.notificationHandler("NSPersistentStoreRemoteChange")))
        #expect(contexts.contains(.concurrent))
        #expect(contexts.contains(.mainActor))
        #expect(contexts.filter { index.isOffMain($0) }.count == 2)
        #expect(index.summary(of: FunctionKey(typeName: "Syncer", name: "scheduleTimer"))?.timers.count == 1)
        #expect(index.callSites(of: FunctionKey(typeName: "Syncer", name: "reload")).map(\.caller.name) == ["start"])
    }

    @Test func aMainActorTypesMethodRunsOnTheMainActorWhoeverCallsIt() {
        let index = Probe.index("""
            @MainActor final class Model { func update() {} }
            final class Worker {
                let model: Model
                func run() { DispatchQueue.global().async { self.model.update() } }
            }
            """)
        #expect(index.executionContexts(of: FunctionKey(typeName: "Model", name: "update")) == [.mainActor])
        #expect(index.callSites(of: FunctionKey(typeName: "Model", name: "update")).map(\.context) == [.concurrent])
    }

    @Test func viewsBuiltPerValueAndInADetailColumn() {
        let index = Probe.index("""
            struct Item { let id: Int }
            struct ItemDetail: View { let item: Item; var body: some View { Text("") } }
            struct Root: View {
                @State var selection: Item?
                let items: [Item]
                var body: some View {
                    NavigationSplitView {
                        List(items) { item in ItemDetail(item: item) }
                    } detail: {
                        if let selection { ItemDetail(item: selection) }
                    }
                    .sheet(item: $selection) { item in ItemDetail(item: item) }
                }
            }
            """)
        let identities = index.constructions(ofView: "ItemDetail").map(\.identity)
        #expect(identities == [.perValue, .splitViewColumn, .perValue])
    }
}

struct IsolationTests {
    @Test func isolationIsInheritedAsSwiftInfersIt() {
        let index = Probe.index("""
            struct Screen: View { var body: some View { Text("") } }
            @MainActor protocol Presenter {}
            final class AlertPresenter: Presenter {}
            class Base: UIViewController {}
            final class Derived: Base {}
            actor Cache {}
            final class Plain {}
            @MainActor final class Annotated {}
            extension Plain { @MainActor func onMain() {} }
            """)
        #expect(index.isolation(ofType: "Screen") == .mainActor)
        #expect(index.isolation(ofType: "AlertPresenter") == .mainActor)
        #expect(index.isolation(ofType: "Derived") == .mainActor)
        #expect(index.isolation(ofType: "Cache") == .actor)
        #expect(index.isolation(ofType: "Plain") == .none)
        #expect(index.isolation(ofType: "Annotated") == .mainActor)
        #expect(index.summary(of: FunctionKey(typeName: "Plain", name: "onMain"))?.declaredContext == .mainActor)
    }

    /// AppKit's and UIKit's windows, panels, cells and controls inherit `@MainActor` from `NSResponder`/`UIResponder`;
    /// the index sees only the superclass a project type names, so a panel subclass is main-actor by that name.
    @Test func windowsPanelsAndCellsOfTheFrameworksAreMainActor() {
        let index = Probe.index("""
            final class SearchPanel: NSPanel {}
            final class StatusWindow: NSWindow {}
            final class ItemCell: UITableViewCell {}
            final class Feed: NSObject {}
            final class Poller: Operation {}
            """)
        #expect(index.isolation(ofType: "SearchPanel") == .mainActor)
        #expect(index.isolation(ofType: "StatusWindow") == .mainActor)
        #expect(index.isolation(ofType: "ItemCell") == .mainActor)
        #expect(index.isolation(ofType: "Feed") == .none, "NSObject is not isolated")
        #expect(index.isolation(ofType: "Poller") == .none, "Operation is not isolated")
    }

    @Test func nonisolatedMembersAndTypesFromOtherFiles() {
        let index = Probe.index([
            "/v/A.swift": "@MainActor final class Feed {}",
            "/v/B.swift": """
                extension Feed {
                    func reload() {}
                    nonisolated func key() -> String { "" }
                    nonisolated func fetch() async {}
                }
                """,
        ])
        let reload = index.summary(of: FunctionKey(typeName: "Feed", name: "reload"))
        #expect(reload.map { index.resolved($0.declaredContext) } == .mainActor)
        #expect(index.summary(of: FunctionKey(typeName: "Feed", name: "key"))?.declaredContext == .callers)
        #expect(index.summary(of: FunctionKey(typeName: "Feed", name: "fetch"))?.declaredContext == .concurrent)
    }
}

struct CatchFactsTests {
    /// Facts of every catch clause in the source, with the index to answer cancellability.
    static func facts(_ source: String) -> (facts: [CatchFacts], index: ProjectIndex) {
        var facts: [CatchFacts] = []
        let index = Probe.index(source) { node, context in
            guard let doStatement = node.as(DoStmtSyntax.self) else { return }
            for clause in doStatement.catchClauses.indices {
                facts.append(CatchFacts.of(doStatement, clause: doStatement.catchClauses.distance(from: doStatement.catchClauses.startIndex, to: clause),
                                           context: context))
            }
        }
        return (facts, index)
    }

    @Test func aCatchAfterCatchIsCancellationError() {
        let (facts, _) = Self.facts("""
            @MainActor final class Loader {
                var message: String?
                func load() async {
                    do { try await fetch() }
                    catch is CancellationError { return }
                    catch { message = error.localizedDescription }
                }
            }
            """)
        #expect(facts.count == 2)
        #expect(facts[1].handlesCancellationError)
        #expect(!facts[1].handlesURLErrorCancelled)
        #expect(facts[1].isCatchAll)
        #expect(facts[1].doAwaitsThrowingCall)
        #expect(facts[1].destinations == [.property("message")])
    }

    /// `(error as NSError).code != -999` and `NSURLErrorCancelled` test for a cancelled transfer: not only for
    /// `CancellationError`.
    @Test func aTestOfTheCancelledTransfersCode() {
        let (facts, _) = Self.facts("""
            @MainActor final class Timeline {
                var state: LoadState = .idle
                func load() async {
                    do { try await fetch() } catch { if (error as NSError).code != -999 { state = .error(error) } }
                    do { try await fetch() } catch {
                        if error is CancellationError || (error as NSError).code == NSURLErrorCancelled { return }
                        state = .error(error)
                    }
                    do { try await fetch() } catch { if error is CancellationError { return }; state = .error(error) }
                    do { try await fetch() } catch { if total - 999 > 0 { state = .error(error) } }
                }
            }
            """)
        #expect(facts.map(\.bodyTestsCancellation) == [true, true, true, false])
        #expect(facts.map(\.bodyTestsOnlyCancellationError) == [false, false, true, false])
    }

    @Test func aSynchronousTryCannotThrowACancellation() {
        let (facts, _) = Self.facts("""
            final class Saver {
                func save() async {
                    await prepare()
                    do { try context.save() } catch { lastError = error }
                    do { let _ = try? await fetch() } catch { lastError = error }
                }
            }
            """)
        #expect(facts.map(\.doAwaitsThrowingCall) == [false, false])
    }

    @Test func theAwaitedErrorReachesAClauseOnlyAlongTheGraph() {
        let (facts, _) = Self.facts("""
            final class Loader {
                func load() async {
                    do {
                        do { try await fetch() } catch { return }
                        try cache.write()
                    } catch { lastError = error }
                    do {
                        do { try await fetch() } catch { throw error }
                    } catch { lastError = error }
                    do {
                        do { try await fetch() } catch let error as DecodingError { log(error) }
                    } catch { lastError = error }
                    do {
                        for try await line in lines { print(line) }
                    } catch { lastError = error }
                }
            }
            """)
        // In source order of the `do`s: outer, inner; outer, inner; outer, inner; the loop's.
        #expect(facts.map(\.doAwaitsThrowingCall) == [false, true, true, true, true, true, true])
    }

    @Test func whereTheErrorGoes() {
        let (facts, _) = Self.facts("""
            @MainActor final class Results {
                var results: [String: Result<Data, Error>] = [:]
                var banner: Banner?
                func load(key: String) async throws {
                    do { _ = try await fetch() } catch { results[key] = .failure(error) }
                    do { _ = try await fetch() } catch { banner = Banner(error) }
                    do { _ = try await fetch() } catch { presenter.show(error) }
                    do { _ = try await fetch() } catch { throw error }
                    do { _ = try await fetch() } catch { logger.error("\\(error)") }
                    do { _ = try await fetch() } catch let failure { let text = "\\(failure)"; print(text) }
                }
            }
            """)
        #expect(facts.map(\.destinations) == [
            [.failureResult("results")], [.appValue(property: "banner")],
            [.passedTo(callee: "show", receiver: .member(.named("Results", scope: nil), "presenter"))],
            [.rethrown], [], [],
        ])
    }

    @Test func codeThatCanAndCannotBeCancelled() {
        let (facts, index) = Self.facts("""
            @MainActor final class ViewModel {
                var error: Error?
                var handle: Task<Void, Never>?
                func load() async { do { try await fetch() } catch { self.error = error } }
                func loadFromButton() async { do { try await fetch() } catch { self.error = error } }
                func startStored() { handle = Task { do { try await fetch() } catch { self.error = error } } }
                func stop() { handle?.cancel() }
                func startDropped() { Task { do { try await fetch() } catch { self.error = error } } }
            }
            struct Screen: View {
                let model: ViewModel
                var body: some View {
                    Text("").task { await model.load() }
                    Button("Go") { Task { await model.loadFromButton() } }
                }
            }
            """)
        #expect(facts.map { index.isCancellable($0.cancellation) } == [true, false, true, false])
    }

    /// A child task is cancelled with the task that runs its group; a test calling a function says nothing
    /// about how the app runs it.
    @Test func groupChildrenAndTestCallers() {
        var cancellations: [Cancellability] = []
        let index = Probe.index([
            "/v/App.swift": """
                @MainActor final class Feed {
                    var error: Error?
                    func fromView() async {
                        await withTaskGroup(of: Void.self) { group in
                            group.addTask { do { try await fetch() } catch { self.error = error } }
                        }
                    }
                    func fromButton() {
                        Task {
                            await withTaskGroup(of: Void.self) { group in
                                group.addTask { do { try await fetch() } catch { self.error = error } }
                            }
                        }
                    }
                    func reload() async { do { try await fetch() } catch { self.error = error } }
                }
                struct FeedView: View {
                    let feed: Feed
                    var body: some View {
                        Text("").task { await feed.fromView() }
                        Button("Reload") { Task { await feed.reload() } }
                    }
                }
                """,
            "/v/FeedTests.swift": """
                import XCTest
                final class FeedTests: XCTestCase {
                    func testReload() async { let feed = Feed(); await feed.reload() }
                }
                """,
        ]) { node, context in
            guard let doStatement = node.as(DoStmtSyntax.self) else { return }
            cancellations.append(CatchFacts.of(doStatement, clause: 0, context: context).cancellation)
        }
        #expect(cancellations.map { index.isCancellable($0) } == [true, false, false],
                "a child of a `.task`'s group can be cancelled; one of a dropped `Task`'s group cannot; a test's call counts for nothing")
    }

    /// State a view only writes (`self.loadError = error`) is not state the view shows.
    @Test func writesInViewCodeAreNotReads() {
        let index = Probe.index("""
            struct Sheet: View {
                @State private var loadError: Error?
                @State private var shownError: Error?
                var body: some View {
                    Text(shownError?.localizedDescription ?? "").task {
                        do { try await load() } catch { loadError = error; self.shownError = error }
                    }
                }
            }
            """)
        #expect(index.viewReadNames.contains("shownError"))
        #expect(!index.viewReadNames.contains("loadError"))
    }

    /// `try await top` after `async let top = loadTop()` awaits `loadTop()`: a callee that wraps every error
    /// in the app's own type hands over no cancellation.
    @Test func anAsyncLetAwaitsTheCallItStarted() {
        var awaited: [CallReference?] = []
        _ = Probe.index("""
            final class Tracker {
                func refresh() async {
                    async let top = loadTop()
                    async let other = [1]
                    do { _ = try await top; _ = try await other } catch {}
                }
            }
            """) { node, context in
            guard let doStatement = node.as(DoStmtSyntax.self) else { return }
            awaited = CatchFacts.awaitedThrowingCalls(doStatement.body, context: context)
        }
        #expect(awaited.map { $0?.callee } == ["loadTop", nil])
    }
}

struct IfConfigTests {
    @Test func statementsInDifferentClausesNeverRunTogether() {
        let index = Probe.index("""
            final class Poster {
                func save() {
                    #if os(iOS)
                    context.perform { try? self.context.save() }
                    #else
                    context.performAndWait { try? self.context.save() }
                    #endif
                    notify()
                }
                func notify() {}
            }
            """)
        let calls = index.summary(of: FunctionKey(typeName: "Poster", name: "save"))?.calls ?? []
        let perform = calls.first { $0.callee == "perform" }
        let performAndWait = calls.first { $0.callee == "performAndWait" }
        let notify = calls.first { $0.callee == "notify" }
        #expect(perform?.ifConfigClauses.map(\.clause) == [0])
        #expect(performAndWait?.ifConfigClauses.map(\.clause) == [1])
        #expect(IfConfigFacts.areExclusive(perform?.ifConfigClauses ?? [], performAndWait?.ifConfigClauses ?? []))
        #expect(!IfConfigFacts.areExclusive(perform?.ifConfigClauses ?? [], notify?.ifConfigClauses ?? []))
    }
}

struct FetchKeyTests {
    @Test func predicatesThatLookUpByAValueNameTheModelsKeys() {
        let index = Probe.index("""
            func lookups(url: URL, code: String, context: ModelContext) throws {
                _ = try context.fetch(FetchDescriptor<Article>(predicate: #Predicate { $0.url == url }))
                let byCode: Predicate<Station> = #Predicate { station in code == station.code }
                _ = #Predicate<Tag> { $0.name == name && $0.isArchived == false }
                _ = #Predicate<Tag> { $0.kind == .pinned }
            }
            """)
        let keys = index.fetchKeysByModel.mapValues { $0.map(\.property) }
        #expect(keys == ["Article": ["url"], "Station": ["code"], "Tag": ["name"]],
                "a comparison with a literal (`false`, `.pinned`) filters; it does not look anything up")
    }
}
