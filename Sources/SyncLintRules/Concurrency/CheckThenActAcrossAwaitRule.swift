import SwiftSyntax

/// A check of actor state, a suspension, then a write of the same state: reentrancy's classic race.
public final class CheckThenActAcrossAwaitRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "check_then_act_across_await",
        name: "Check Then Act Across Await",
        whatItDoes: """
            In an actor or a `@MainActor` type (written, or a type with no isolation of its own in a module that \
            defaults to the main actor: Swift 6.2's `SWIFT_DEFAULT_ACTOR_ISOLATION`, `.defaultIsolation(MainActor.self)`), finds an async method that checks a stored property in a `guard` \
            or in an `if` that decides whether the write happens (one of its outcomes cannot reach it), then suspends (`await`), then writes that same property, with nothing between the check and \
            the suspension that stops a second call: no in-flight task handle cancelled or awaited, and no \
            assignment to a property the check also reads (a flag such as `isLoading`). Also a position looked up in \
            a stored collection before a suspension (`let index = items.firstIndex(where: ...)`) and used on that \
            collection after it (`items[index]`, `items.remove(at: index)`) with no new lookup or test of it in between, \
            in an actor-isolated type (an extension too: the index knows the type it extends).
            """,
        whyIsThisBad: """
            An actor runs other calls while a method is suspended. Two calls both pass the check before either \
            writes, so the work runs twice and the later write wins with whichever result arrives last: a \
            double load, and a spinner that may never stop.
            """,
        seed: "000, 001",
        // Opt-in until narrowed further: 1 of 8 findings right on eight public apps: the callers held an in-flight flag, or a flag set before the suspension already guarded the method (docs/precision.md).
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    var articleContent: String?
                    var isLoading = false
                    func loadContent() async {
                        ↓guard articleContent == nil else { return }
                        isLoading = true
                        let content = await service.fetchContent()
                        articleContent = content
                        isLoading = false
                    }
                }
                """, message: "check_then_act", confidence: .medium),
            // The method builds the object it stores: two calls build two, and the second replaces the first.
            RuleExample("""
                @MainActor final class AppState {
                    private var socketStorage: SocketManager?
                    func socketManager() async -> SocketManager {
                        ↓if let existing = socketStorage { return existing }
                        let manager = SocketManager(client: client)
                        await manager.configureCursorStore()
                        socketStorage = manager
                        return manager
                    }
                }
                final class SocketManager {
                    init(client: Client) {}
                    func configureCursorStore() async {}
                }
                """, message: "check_then_act", confidence: .high),
            // The look-alike: what it builds and stores is a value (a timestamp), not an object: two calls store two
            // dates, the later one kept; nothing else holds the first: medium.
            RuleExample("""
                @MainActor final class FeedModel {
                    private var lastFetched: Date?
                    func loadFilters() async {
                        let start = Date()
                        ↓if let lastFetched, lastFetched.timeIntervalSinceNow > -100 { return }
                        filters = await api.filters()
                        lastFetched = start
                    }
                }
                """, message: "check_then_act", confidence: .medium),
            RuleExample("""
                actor TokenStore {
                    private var token: String?
                    func validToken() async throws -> String {
                        ↓if let token { return token }
                        let fresh = try await api.refreshToken()
                        token = fresh
                        return fresh
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Cache {
                    var value: Data?
                    var isOnline = true
                    func load() async {
                        ↓guard value == nil else { return }
                        if !isOnline { await connectivity.wait() }
                        value = store.read()
                    }
                }
                """),
            // A private method: its callers in the type may serialize it, which the rule does not follow.
            RuleExample("""
                @MainActor final class NotificationsSource {
                    var lastGroup: Group?
                    var groups: [Group] = []
                    func fetchNextPage() async throws { try await fetchNextPageV2() }
                    private func fetchNextPageV2() async throws {
                        ↓guard let last = lastGroup else { return }
                        let page = try await api.groups(before: last.id)
                        groups += page.groups
                        lastGroup = page.last
                    }
                }
                """, message: "check_then_act", confidence: .medium),
            // The in-progress flag's early exit comes after the check, but the flag is set only after the suspension:
            // a second call passes both tests meanwhile.
            RuleExample("""
                actor Connection {
                    var isUsable = true
                    var receiveInProgress = false
                    func receive() async throws -> Data {
                        ↓guard isUsable else { throw ConnectionError.closed }
                        guard receiveInProgress == false else { throw ConnectionError.busy }
                        do {
                            let data = try await socket.read()
                            receiveInProgress = true
                            return data
                        } catch {
                            isUsable = false
                            throw error
                        }
                    }
                }
                """, message: "check_then_act", confidence: .medium),
            // The request token is tested after the suspension, but only around another write: the result is stored
            // whichever call started last.
            RuleExample("""
                @MainActor final class SummaryModel {
                    var summary: String?
                    var isGenerating = false
                    var activeRequestID: UUID?
                    func generate() async {
                        ↓guard summary == nil else { return }
                        let requestID = UUID()
                        activeRequestID = requestID
                        let result = await generator.generate()
                        if activeRequestID == requestID { isGenerating = false }
                        summary = result
                    }
                }
                """, message: "check_then_act", confidence: .medium),
            // The counter is copied but never bumped by this method: a later call compares equal too.
            RuleExample("""
                @MainActor final class ScriptStore {
                    var scripts: [Script] = []
                    private var syncGeneration = 0
                    func sync() async {
                        ↓guard !scripts.isEmpty else { return }
                        let generation = syncGeneration
                        let loaded = await loader.load()
                        guard generation == syncGeneration else { return }
                        scripts = loaded
                    }
                }
                """, message: "check_then_act", confidence: .medium),
            // The helper the guard calls only tests the flag; nothing sets it before the suspension.
            RuleExample("""
                @MainActor final class SettingsModel {
                    var pendingArchive: URL?
                    var isBusy = false
                    func restore() async -> Bool {
                        ↓guard let pendingArchive, canAct() else { return false }
                        await service.restore(pendingArchive)
                        self.pendingArchive = nil
                        return true
                    }
                    func canAct() -> Bool { isBusy == false }
                }
                """, message: "check_then_act", confidence: .medium),
            // A position looked up before the suspension, used to remove after it: another completion may have
            // removed an earlier element meanwhile (this function itself removes them).
            RuleExample("""
                @MainActor final class DownloadManager {
                    var activeDownloads: [Download] = []
                    var completedDownloads: [Download] = []
                    func complete(_ id: UUID) async {
                        guard let index = activeDownloads.firstIndex(where: { $0.id == id }) else { return }
                        var download = activeDownloads[index]
                        download.size = await fileSize(of: download)
                        activeDownloads.remove(at: ↓index)
                        completedDownloads.insert(download, at: 0)
                    }
                }
                """, message: "stale_index", notes: ["`index` is looked up in `activeDownloads` here"], confidence: .high),
            // In an extension, isolated by the type it extends; an argument of the awaited call is read before it suspends.
            RuleExample("""
                @MainActor final class JobQueue {
                    var jobs: [Job] = []
                    func cancel(_ id: Int) { jobs.removeAll { $0.id == id } }
                }
                extension JobQueue {
                    func finish(_ id: Int) async {
                        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
                        await log(jobs[index])
                        jobs[↓index].isDone = true
                    }
                }
                """, message: "stale_index", confidence: .medium),
        ],
        nonTriggeringExamples: [
            // The property is tested again after the suspension, before the write.
            RuleExample("""
                @MainActor final class MapModel {
                    var hasShownSurvey = false
                    func checkForSurvey() async {
                        guard !hasShownSurvey else { return }
                        await surveys.refresh()
                        guard !hasShownSurvey, let survey = surveys.first else { return }
                        hasShownSurvey = true
                        present(survey)
                    }
                }
                """),
            // An earlier early exit's flag is set before the suspension: a second call stops there.
            RuleExample("""
                @MainActor final class SurveyService {
                    var isLoading = false
                    var allSurveys: [Survey] = []
                    func fetchSurveys(force: Bool) async {
                        guard !isLoading else { return }
                        if !force, !allSurveys.isEmpty { return }
                        isLoading = true
                        defer { isLoading = false }
                        allSurveys = await api.surveys()
                    }
                }
                """),
            // An in-progress flag tested by a later early exit and set before the suspension: a second call stops there
            // (the only write after the suspension marks the connection dead).
            RuleExample("""
                actor Connection {
                    var isUsable = true
                    var receiveInProgress = false
                    func receive() async throws -> Data {
                        guard isUsable else { throw ConnectionError.closed }
                        guard receiveInProgress == false else { throw ConnectionError.busy }
                        receiveInProgress = true
                        defer { receiveInProgress = false }
                        do {
                            return try await socket.read()
                        } catch {
                            isUsable = false
                            throw error
                        }
                    }
                }
                """),
            // A request token stored before the suspension and tested against this call's value after it, before the
            // write: a call overtaken by a later one stores nothing.
            RuleExample("""
                @MainActor final class SummaryModel {
                    var summary: String?
                    var activeRequestID: UUID?
                    func generate() async {
                        guard summary == nil else { return }
                        let requestID = UUID()
                        activeRequestID = requestID
                        let result = await generator.generate()
                        guard activeRequestID == requestID else { return }
                        summary = result
                    }
                }
                """),
            // A generation counter bumped and copied before the suspension, compared after it.
            RuleExample("""
                @MainActor final class ScriptStore {
                    var scripts: [Script] = []
                    private var syncGeneration = 0
                    func sync() async {
                        guard !scripts.isEmpty else { return }
                        syncGeneration &+= 1
                        let generation = syncGeneration
                        let loaded = await loader.load()
                        guard generation == syncGeneration else { return }
                        scripts = loaded
                    }
                }
                """),
            // The property the check reads is set before the suspension; the local of the same name is declared after
            // the check, so it hides nothing there.
            RuleExample("""
                actor PairingClient {
                    var pairingToken: UUID?
                    var session: Session?
                    func pair() async throws {
                        guard pairingToken == nil, session == nil else { throw PairingError.busy }
                        let pairingToken = UUID()
                        self.pairingToken = pairingToken
                        session = try await api.pair(token: pairingToken)
                    }
                }
                """),
            // The guard calls a synchronous helper that returns early on the in-progress flag and sets it.
            RuleExample("""
                @MainActor final class SettingsModel {
                    var pendingArchive: URL?
                    var isBusy = false
                    func restore() async -> Bool {
                        guard let pendingArchive, beginAction() else { return false }
                        defer { isBusy = false }
                        await service.restore(pendingArchive)
                        self.pendingArchive = nil
                        return true
                    }
                    func beginAction() -> Bool {
                        guard isBusy == false else { return false }
                        isBusy = true
                        return true
                    }
                }
                """),
            // Looked up again after the suspension, by identity.
            RuleExample("""
                @MainActor final class DownloadManager {
                    var activeDownloads: [Download] = []
                    func complete(_ id: UUID) async {
                        guard let index = activeDownloads.firstIndex(where: { $0.id == id }) else { return }
                        let download = activeDownloads[index]
                        let size = await fileSize(of: download)
                        guard let current = activeDownloads.firstIndex(where: { $0.id == id }) else { return }
                        activeDownloads[current].size = size
                        activeDownloads.removeAll { $0.id == id }
                    }
                }
                """),
            // Used by position only before the suspension.
            RuleExample("""
                @MainActor final class DownloadManager {
                    var activeDownloads: [Download] = []
                    func start(_ id: UUID) async {
                        guard let index = activeDownloads.firstIndex(where: { $0.id == id }) else { return }
                        activeDownloads[index].status = .running
                        await session.resume(id)
                        activeDownloads.removeAll { $0.id == id }
                    }
                }
                """),
            // A `mutating` method: the caller holds the value with exclusive access for the whole call.
            RuleExample("""
                extension ServerPicker {
                    @MainActor mutating func pickServer() async throws {
                        guard let region else { return }
                        let servers = try await api.servers(in: region)
                        self.region = servers.first?.region
                    }
                }
                """),
            // No isolation: not an actor's reentrancy (data races are the compiler's to find).
            RuleExample("""
                final class DownloadList {
                    var downloads: [Download] = []
                    func complete(_ id: UUID) async {
                        guard let index = downloads.firstIndex(where: { $0.id == id }) else { return }
                        await store.save(id)
                        downloads.remove(at: index)
                    }
                }
                """),
            RuleExample("""
                @MainActor final class PagesModel {
                    var pages: [Page] = []
                    var previous: [Page] = []
                    func load(_ chapter: Chapter) async {
                        if !pages.isEmpty { previous = pages }
                        pages = await loader.pages(of: chapter)
                    }
                }
                """),
            RuleExample("""
                @MainActor final class Cache {
                    var value: Data?
                    var isOnline = true
                    func load() async {
                        guard value == nil else { return }
                        guard isOnline else {
                            await connectivity.report()
                            return
                        }
                        value = store.read()
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    var articleContent: String?
                    var isLoading = false
                    func loadContent() async {
                        guard !isLoading, articleContent == nil else { return }
                        isLoading = true
                        let content = await service.fetchContent()
                        articleContent = content
                        isLoading = false
                    }
                }
                """),
            RuleExample("""
                actor TokenStore {
                    private var token: String?
                    private var refreshTask: Task<String, Error>?
                    func validToken() async throws -> String {
                        if let token { return token }
                        if let refreshTask { return try await refreshTask.value }
                        let task = Task { try await api.refreshToken() }
                        refreshTask = task
                        let fresh = try await task.value
                        token = fresh
                        return fresh
                    }
                }
                """),
            RuleExample("""
                final class Cache {
                    var value: Data?
                    func load() async {
                        guard value == nil else { return }
                        value = await fetch()
                    }
                }
                """),
        ],
        knownLimitations: """
            Only the method's own statements count: a guard in a caller, or a write in a helper, is not seen; so a \
            finding has high confidence only where a second call does proven harm: the method builds the object it \
            stores (`let manager = Manager(...)` ... `storage = manager`), so two calls build two objects and the later \
            replaces the first; a type proven a value (a structure or enumeration of the project, or a Foundation value such \
            as a `Date()` timestamp: `FrameworkValueTypes`) is medium; a `mutating` method is not checked (its caller holds the \
            value with exclusive access across its suspensions); and not in a view (its methods run from its own handlers, such as `.task`) or a `private` method \
            (its callers in the type may serialize it). A fetched value stored by two calls (a cache, a page) is medium. Protection: a flag an earlier early exit tests, \
            set before the suspension (`guard !isLoading else { return }` ... `isLoading = true`), and a test of the \
            property again after the suspension, before the write. \
            Any `cancel()` call or an `await` of a task's `value` between the check and the suspension counts as \
            protection, whether or not it is the right task. A class with no actor isolation is not checked; \
            `check_then_act` races there are data races the compiler's checks find. \
            Also protection: an early exit on a flag that the method sets after that exit and before the suspension, \
            wherever the exit stands (`guard receiveInProgress == false ...; receiveInProgress = true`); an early exit on a \
            call of a synchronous method of the type that returns early on a flag and sets it itself (`guard \
            beginAction() else { return }`, from the index's function summary); and a request token: a property given a \
            local's value before the suspension (`activeRequestID = requestID`), or a counter the method writes and copies to a \
            local (`syncGeneration &+= 1; let generation = syncGeneration`), tested against that local by an \
            early exit after it (`guard activeRequestID == requestID`), which stops a call a later one has overtaken \
            before its write. A local declared after the check does not hide the property of the same name it reads. \
            A stale position has high confidence when the declaration the method is in (the type, or that \
            extension) itself moves the collection's elements (`remove`, `insert`, `removeAll`, a new value assigned \
            outside `init`), so an overlapping call can shift them; otherwise medium (what else changes the collection \
            is not seen). A test of the position against the collection after the `await` counts as a new lookup. \
            Opt-in: 1 of 8 findings right on eight public apps: the callers held an in-flight flag, or a flag set before the suspension already guarded the method; see docs/precision.md.
            """,
        messages: [checkThenAct, StaleIndexAcrossAwait.staleIndex])
    static let checkThenAct = RuleMessage("check_then_act", "`{property}` is checked here, then written after an `await`: a second call can pass the check meanwhile; set an in-progress flag the check reads before suspending, or keep and await the in-flight task")

    public static let nodeKinds: Set<SyntaxKind> = [.functionDecl]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let function = node.as(FunctionDeclSyntax.self), let body = function.body,
              function.signature.effectSpecifiers?.asyncSpecifier != nil,
              let type = context.scope.currentType,
              !function.modifiers.contains(where: { $0.name.text == "nonisolated" }),
              // A `mutating` method works on a value the caller holds with exclusive access for the whole call, across
              // its suspensions: no second call can run on it meanwhile.
              !function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.mutating) }) else { return }
        // Isolated as written, or (a type with no isolation of its own, not a view) by a module that defaults to the
        // main actor (Swift 6.2), which only the index knows.
        let isolatedAsWritten = type.isActor || type.isMainActor || SyntaxFacts.hasAttribute("MainActor", function.attributes)
        guard isolatedAsWritten || (!type.isView && !type.isNonisolated && !SyntaxFacts.hasAttribute("concurrent", function.attributes))
        else { return }
        let isolation: IndexCondition? = isolatedAsWritten ? nil : .moduleDefaultsToMainActor(file: context.path)
        var locals = FlowFacts.localNames(in: body)
        for parameter in function.signature.parameterClause.parameters { locals.insert((parameter.secondName ?? parameter.firstName).text) }
        // A position looked up in a collection before a suspension and used on it after. An extension's members are
        // isolated by the type it extends, which only the index sees.
        let staleIndexIsolation: IndexCondition? = isolatedAsWritten ? nil
            : .any([.moduleDefaultsToMainActor(file: context.path), .typeIsIsolated(type.qualifiedName)])
        StaleIndexAcrossAwait.check(function, body: body, type: type, locals: locals, isolation: staleIndexIsolation, context: context)
        var checks: [(node: Syntax, reads: Set<String>)] = []
        var events: [(position: AbsolutePosition, kind: Event, node: Syntax)] = []
        // A local declared after a check does not hide the property of the same name the check reads
        // (`guard pairingToken == nil ...` then `let pairingToken = UUID(); self.pairingToken = pairingToken`).
        let declarations = Self.localDeclarations(in: body)
        let parameters = Set(function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
        func localsBefore(_ position: AbsolutePosition) -> Set<String> {
            parameters.union(declarations.filter { $0.position < position }.map(\.name))
        }
        // A property given a local's value (`activeRequestID = requestID`): a request token, which a later test
        // against the same local (`activeRequestID == requestID`) finds changed when another call has started since.
        var tokenWrites: Set<TokenWrite> = []
        var tokenCopies: Set<TokenWrite> = []
        BodyScanner.scan(body) { node in
            if let guardStatement = node.as(GuardStmtSyntax.self) {
                checks.append((node, Self.propertiesRead(guardStatement.conditions, locals: localsBefore(node.position))))
            } else if let ifExpression = node.as(IfExprSyntax.self) {
                checks.append((node, Self.propertiesRead(ifExpression.conditions, locals: localsBefore(node.position))))
            } else if let binding = node.as(PatternBindingSyntax.self),
                      let local = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let value = binding.initializer?.value, let property = FlowFacts.selfProperty(value, locals: localsBefore(node.position)) {
                // The other way round: a counter bumped, then copied (`syncGeneration &+= 1; let generation =
                // syncGeneration`). Kept only where the method itself writes the property (below).
                tokenCopies.insert(TokenWrite(property: property, local: local))
            } else if let suspension = node.as(AwaitExprSyntax.self) {
                let awaitsTaskValue = suspension.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "value"
                events.append((node.positionAfterSkippingLeadingTrivia, awaitsTaskValue ? .protection : .suspension, node))
            } else if let call = node.as(FunctionCallExprSyntax.self), context.calleeMethodName(call) == "cancel" {
                events.append((node.positionAfterSkippingLeadingTrivia, .protection, node))
            } else if let sequence = node.as(SequenceExprSyntax.self), let target = SyntaxFacts.writeTarget(sequence),
                      let property = FlowFacts.selfProperty(target, locals: locals) {
                events.append((node.positionAfterSkippingLeadingTrivia, .write(property), node))
                if let assignment = SyntaxFacts.assignment(sequence), let value = assignment.value.as(DeclReferenceExprSyntax.self),
                   locals.contains(value.baseName.text) {
                    tokenWrites.insert(TokenWrite(property: property, local: value.baseName.text))
                }
            }
        }
        let writtenProperties = Set(events.compactMap { event -> String? in if case .write(let property) = event.kind { property } else { nil } })
        tokenWrites.formUnion(tokenCopies.filter { writtenProperties.contains($0.property) })
        let typeName = type.qualifiedName
        // A view's methods run from its own body's handlers (`.task`, once per appearance and cancelled when it goes;
        // a button), and a private method from the type's own methods, which may already serialize it: the rule does
        // not follow those callers, so what it finds there is medium.
        let isPrivate = function.modifiers.contains { $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate) }
        let callersUnseen = type.isView || isPrivate
        for check in checks where !check.reads.isEmpty {
            // Events after the checking statement (not in its own body), asked of the graph: a path from the check
            // through a suspension to a write of what it read, with no protection before the suspension. A
            // protection or an `await` in another branch, or in a `guard`'s `else` that leaves, is not on it.
            let later = events.filter { $0.position > check.node.endPosition }
            // A flag an early exit tests (`guard !isLoading else { return }`, before this check or after it), set
            // after that test and before the suspension (`isLoading = true`), stops a second call there whatever
            // this check reads.
            let guardedFlags = checks.filter { SyntaxFacts.earlyExitConditions($0.node) != nil }
                .map { (end: $0.node.endPosition, reads: $0.reads) }
            // A test of the property again after the suspension, before the write, checks it anew; so does a test of
            // a request token against the value this call stored (`guard activeRequestID == requestID`), for every write.
            let rechecks = checks.filter { $0.node.position > check.node.endPosition }
            let tokenTests = rechecks.filter {
                SyntaxFacts.earlyExitConditions($0.node) != nil && Self.testsToken($0.node, tokenWrites, locals: locals)
            }.map(\.node)
            guard let built = context.controlFlowGraph(of: function),
                  let property = Self.unprotectedWrite(after: check, events: later, guardedFlags: guardedFlags, rechecks: rechecks,
                                                       tokenTests: tokenTests, in: built)
            else { continue }
            // An early exit before the suspension on a call of a synchronous method of the type (`guard
            // beginManageAction() else { return }`) that returns early on an in-progress flag and sets it itself
            // (`FunctionSummary.onceGuards`): a second call stops there. Only the index has that method's summary.
            let firstSuspension = later.first { if case .suspension = $0.kind { return true } else { return false } }?.position
            let entryGuards = checks.filter { check in firstSuspension.map { check.node.endPosition <= $0 } ?? false }
                .compactMap { SyntaxFacts.earlyExitConditions($0.node) }
                .flatMap { conditions in
                    FlowFacts.selfMethodCalls(in: conditions).filter { call in
                        call.node.parent?.is(AwaitExprSyntax.self) != true
                    }.map { FunctionKey(typeName: typeName, name: $0.name) }
                }
            let keyword = check.node.as(GuardStmtSyntax.self)?.guardKeyword ?? check.node.as(IfExprSyntax.self)?.ifKeyword
            guard let keyword else { continue }
            // What a second call does is proven harm when the method builds the object it stores (`let manager =
            // Manager(...)`, then `storage = manager` after the `await`): two calls build two, and the later one
            // replaces the first, which other code may already hold. A fetched value stored twice (a cache filled by
            // both calls, a page loaded twice) may be the same value, and a caller may already serialize the
            // method, which the rule does not follow: medium.
            // Harm for an object: two calls build two, and the later replaces one other code may already hold. A value
            // (`let start = Date()` stored as a timestamp) built twice is only the later value: the index says which
            // types are proven values.
            let builtTypes = callersUnseen ? [] : Self.typesBuiltAndStored(property, in: body, locals: locals)
            let stored: IndexCondition = entryGuards.isEmpty ? .someStoredVar([property], ofType: typeName)
                : .all([.someStoredVar([property], ofType: typeName), .not(.someGuardsReentry(entryGuards))])
            let condition = Self.condition(stored, isolation)
            if builtTypes.isEmpty {
                context.report(keyword, Self.checkThenAct, ["property": property], when: condition, confidence: .medium)
            } else {
                context.report(keyword, Self.checkThenAct, ["property": property],
                               answering: .buildsReferenceType(typeNames: builtTypes.sorted(), scope: typeName), when: condition)
            }
            return
        }
    }

    /// The first property the check reads that some path writes after a suspension, when a path from the check
    /// reaches that suspension with no protection on it.
    private static func unprotectedWrite(after check: (node: Syntax, reads: Set<String>),
                                         events: [(position: AbsolutePosition, kind: Event, node: Syntax)],
                                         guardedFlags: [(end: AbsolutePosition, reads: Set<String>)],
                                         rechecks: [(node: Syntax, reads: Set<String>)], tokenTests: [Syntax],
                                         in built: BuiltControlFlowGraph) -> String? {
        let graph = built.graph
        let conditions = check.node.as(GuardStmtSyntax.self)?.conditions ?? check.node.as(IfExprSyntax.self)?.conditions
        let starts = conditions.map { $0.flatMap { built.nodes(for: $0) } } ?? []
        var protections: Set<Int> = []
        var suspensions: [Int] = []
        var writes: [(property: String, nodes: Set<Int>)] = []
        for event in events {
            let nodes = built.nodes(for: event.node)
            switch event.kind {
            case .protection: protections.formUnion(nodes)
            case .suspension: suspensions.append(contentsOf: nodes)
            case .write(let property):
                if guardedFlags.contains(where: { $0.end <= event.position && $0.reads.contains(property) }) { protections.formUnion(nodes) }
                guard check.reads.contains(property) else { continue }
                protections.formUnion(nodes)
                writes.append((property, Set(nodes)))
            }
        }
        let beforeProtection = starts.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: { protections.contains($0.id) })) }
        let reached = suspensions.filter(beforeProtection.contains)
        // Where a write is reached after a suspension on a path with no new test of its property.
        func afterSuspension(_ property: String) -> Set<Int> {
            let testing = rechecks.filter { $0.reads.contains(property) }.map(\.node) + tokenTests
            let tests = Set(testing.flatMap { recheck -> [Int] in
                let conditions = recheck.as(GuardStmtSyntax.self)?.conditions ?? recheck.as(IfExprSyntax.self)?.conditions
                return conditions.map { $0.flatMap { built.nodes(for: $0) } } ?? []
            })
            return reached.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: { tests.contains($0.id) })) }
        }
        // An `if` whose outcomes all go on to the write does not decide whether it happens: a second call passing
        // it changes nothing (`if !pages.isEmpty { keep(pages) }` before `pages = await load()`). A `guard`'s `else`
        // leaves, so a guard decides by construction.
        if check.node.is(IfExprSyntax.self), let last = starts.last {
            let outcomes = graph.successors[last].map(\.to)
            let allReach = { (targets: Set<Int>) in outcomes.allSatisfy { !graph.reachable(from: $0).isDisjoint(with: targets) } }
            return writes.first { !$0.nodes.isDisjoint(with: afterSuspension($0.property)) && !allReach($0.nodes) }?.property
        }
        return writes.first { !$0.nodes.isDisjoint(with: afterSuspension($0.property)) }?.property
    }

    /// Whether a write of the property stores an object the body builds: `property = Manager(...)`, or a local bound
    /// to `Manager(...)` (an uppercase callee: a type's initializer) and then assigned to the property itself (not a
    /// member of it, not an entry of a collection it holds).
    static func storesObjectItBuilds(_ property: String, in body: CodeBlockSyntax, locals: Set<String>) -> Bool {
        !typesBuiltAndStored(property, in: body, locals: locals).isEmpty
    }

    /// The types of what the body builds and stores into the property (`storesObjectItBuilds`).
    static func typesBuiltAndStored(_ property: String, in body: CodeBlockSyntax, locals: Set<String>) -> Set<String> {
        func construction(_ expression: ExprSyntax) -> String? {
            guard let call = SyntaxFacts.withoutTryOrAwait(expression).as(FunctionCallExprSyntax.self) else { return nil }
            let name = SyntaxFacts.calleeName(call)
            return SyntaxFacts.isTypeName(name) && name != "Task" && !name.hasPrefix("Task.") ? name : nil
        }
        func isConstruction(_ expression: ExprSyntax) -> Bool { construction(expression) != nil }
        var built: [String: String] = [:]
        var stores: Set<String> = []
        BodyScanner.scan(body) { node in
            if let binding = node.as(PatternBindingSyntax.self), let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
               let value = binding.initializer?.value, isConstruction(value) {
                built[name] = construction(value)
            } else if let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
                      // The property itself is given the object (`storage = manager`), not a member of it or an entry
                      // in it (`cache[key] = Entry(...)`, `item?.thumbnail = UIImage(...)`).
                      let path = SyntaxFacts.memberPath(assignment.target),
                      path.root == "self" ? path.members == [property] : (path.root == property && path.members.isEmpty),
                      !assignment.target.is(SubscriptCallExprSyntax.self),
                      FlowFacts.selfProperty(assignment.target, locals: locals) == property {
                let value = assignment.value
                if let type = construction(value) { stores.insert(type) }
                if let reference = value.as(DeclReferenceExprSyntax.self), let type = built[reference.baseName.text] { stores.insert(type) }
            }
        }
        return stores
    }

    /// A property of `self` given a local's value (`activeRequestID = requestID`).
    private struct TokenWrite: Hashable {
        let property: String
        let local: String
    }

    /// Whether a check's conditions compare a request token with the local this call stored in it
    /// (`activeRequestID == requestID`, `self.pairingToken != pairingToken`).
    private static func testsToken(_ check: Syntax, _ writes: Set<TokenWrite>, locals: Set<String>) -> Bool {
        guard !writes.isEmpty,
              let conditions = check.as(GuardStmtSyntax.self)?.conditions ?? check.as(IfExprSyntax.self)?.conditions else { return false }
        return SyntaxFacts.equalityTests(in: conditions).contains { test in
            [(test.left, test.right), (test.right, test.left)].contains { left, right in
                guard let local = right.as(DeclReferenceExprSyntax.self)?.baseName.text, locals.contains(local),
                      // The property named with `self.`, or bare where no local hides it.
                      let property = FlowFacts.selfProperty(left, locals: locals) else { return false }
                return writes.contains(TokenWrite(property: property, local: local))
            }
        }
    }

    /// Each local the body declares (`let`, `var`, a binding in a condition, a loop variable) with where.
    static func localDeclarations(in body: CodeBlockSyntax) -> [(name: String, position: AbsolutePosition)] {
        var declarations: [(name: String, position: AbsolutePosition)] = []
        BodyScanner.scan(body) { node in
            guard let pattern = node.as(IdentifierPatternSyntax.self) else { return }
            if let binding = pattern.parent?.as(OptionalBindingConditionSyntax.self), binding.initializer == nil { return }
            declarations.append((pattern.identifier.text, pattern.position))
        }
        return declarations
    }

    private enum Event {
        case suspension
        case protection
        case write(String)
    }

    /// Stored properties of `self` a condition list reads, including `if let token` shorthand.
    static func propertiesRead(_ conditions: ConditionElementListSyntax, locals: Set<String>) -> Set<String> {
        var reads: Set<String> = []
        for condition in conditions {
            if let binding = condition.condition.as(OptionalBindingConditionSyntax.self) {
                if binding.initializer == nil, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                   !locals.contains(name) {
                    reads.insert(name)
                }
                if let value = binding.initializer?.value, let property = FlowFacts.selfProperty(value, locals: locals) { reads.insert(property) }
                continue
            }
            for token in condition.tokens(viewMode: .sourceAccurate) {
                guard case .identifier = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                let expression = ExprSyntax(reference)
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                    if let base = member.base, SyntaxFacts.isSelf(base) { reads.insert(reference.baseName.text) }
                    continue
                }
                if let property = FlowFacts.selfProperty(expression, locals: locals) { reads.insert(property) }
            }
        }
        return reads
    }

    /// The finding's condition, and the module's default isolation when the code is isolated only by it.
    static func condition(_ condition: IndexCondition, _ isolation: IndexCondition?) -> IndexCondition {
        isolation.map { .all([condition, $0]) } ?? condition
    }
}
