import SwiftSyntax

/// An `@Published` property written on the concurrency pool: in an async method of a class with no isolation, or
/// in a `Task { }` started from one of its methods.
public final class PublishedWriteOffMainRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "published_write_off_main",
        name: "Published Write Off Main",
        whatItDoes: """
            In an `ObservableObject` class that a SwiftUI view observes (`@StateObject`, `@ObservedObject`, \
            `@EnvironmentObject`; a property with no type written and a static member as its value, `= Connections.shared`, \
            holds that member's type) and that has no isolation of its own (not `@MainActor`, not made so by a project superclass or \
            protocol, or by the module's default isolation: Swift 6.2's `SWIFT_DEFAULT_ACTOR_ISOLATION`, \
            `.defaultIsolation(MainActor.self)`), finds a write to one of its `@Published` properties (`x = …`, \
            `self.x = …`, `x += …`, `x[i] = …`, `x.append(…)`) that runs on the concurrency pool: in an `async` \
            method, in a `Task { }` started in any of its methods, or in `Task.detached`; not inside \
            `MainActor.run`, `DispatchQueue.main.async`, `Task { @MainActor in }` or a `@MainActor` method. One \
            finding per method or task: the first such write. Also finds a write to an `@Published` property of any \
            object a view observes (`self`'s, or another's, its type resolved: `AppsVM.shared.apps = []`, \
            `self.typing.mentions = …`) inside a closure a queue runs after its call returns, whatever the type \
            around it: `DispatchQueue.global().async`, `async`/`asyncAfter` on a queue made with \
            `DispatchQueue(label:)` or `OperationQueue()`'s `addOperation`, a private-queue context's `perform`, \
            `performBackgroundTask`, a `URLSession` completion handler (of `URLSession.shared`, or of a session made there \
            without a queue: the session's own delegate queue), or a closure given to a project function that calls that \
            parameter inside one of those (`Installer.install(url) { _ in … }` where `install` calls its completion in \
            `DispatchQueue.global().async`). Reported `high` where the facts prove the queue is not the main one (the call \
            makes it, or the receiver is a property whose initial value makes it, or a property the store facts know \
            holds a private-queue context); `medium` where only the receiver's name says so (`syncQueue.async`, a \
            queue given to the initializer). A `perform` on a context whose kind the facts do not tell is not \
            reported: on the tune half such contexts were the view context, set in an initializer.
            """,
        whyIsThisBad: """
            An async function with no isolation runs on the concurrency pool, not on the caller's thread (SE-0338), \
            and so does a `Task { }` created where there is no actor to inherit. `@Published` sends \
            `objectWillChange` on the thread that writes, so SwiftUI receives the change off the main thread: \
            Xcode reports "Publishing changes from background threads is not allowed", views update late or not at \
            all, and a view reading the value while it changes is a data race. The compiler does not catch it: \
            the class is not `Sendable` and the method is not isolated, so nothing crosses an isolation boundary. \
            Isolate the class to the main actor (`@MainActor final class ViewModel: ObservableObject`), or write \
            the property inside `await MainActor.run { }`.
            """,
        seed: "—",
        // On by default under the bar's rarely-fires clause (docs/precision.md, round 6): 10 findings on the whole
        // corpus (about 80 apps), every one judged right, 4 of them blind on round 6's fresh apps; it decides from
        // exact facts only (the type's isolation, the `@Published` attribute, a view holding the object).
        isOptIn: false,
        triggeringExamples: [
            RuleExample("""
                final class FeedModel: ObservableObject {
                    @Published var posts: [Post] = []
                    @Published var isLoading = false
                    private var lastLoad: Date?
                    func load() async {
                        lastLoad = .now
                        ↓isLoading = true
                        posts = await api.fetchPosts()
                        isLoading = false
                    }
                }
                struct FeedView: View {
                    @StateObject private var model = FeedModel()
                    var body: some View { List(model.posts) { Text($0.title) }.task { await model.load() } }
                }
                """),
            RuleExample("""
                class WalletModel: ObservableObject {
                    @Published private(set) var balance: Int?
                    func refresh() {
                        Task {
                            let value = try await client.balance()
                            ↓self.balance = value
                        }
                    }
                }
                struct WalletView: View {
                    @ObservedObject var model: WalletModel
                    var body: some View { Text(model.balance.map(String.init) ?? "-").onAppear { model.refresh() } }
                }
                """),
            RuleExample("""
                final class InboxModel: ObservableObject {
                    @Published var messages: [Message] = []
                    init(stream: MessageStream) {
                        Task.detached { [weak self] in
                            for await message in stream.updates {
                                ↓self?.messages.append(message)
                            }
                        }
                    }
                }
                struct InboxView: View {
                    @EnvironmentObject var inbox: InboxModel
                    var body: some View { List(inbox.messages) { Text($0.subject) } }
                }
                """),
            // A `nonisolated async` method runs on the pool whatever its class's isolation.
            RuleExample("""
                final class SearchModel: ObservableObject {
                    @Published var loading = false
                    nonisolated func load() async {
                        ↓loading = true
                    }
                }
                struct SearchView: View {
                    @StateObject var search = SearchModel()
                    var body: some View { ProgressView().opacity(search.loading ? 1 : 0) }
                }
                """, message: "written_in_nonisolated_method"),
            // The value has operators of its own (`?? 0`): the assignment still writes the property.
            RuleExample("""
                final class HomeModel: ObservableObject {
                    @Published var unreadCount = 0
                    func refreshCount() async {
                        ↓unreadCount = await api.unreadCount() ?? 0
                    }
                }
                struct HomeView: View {
                    @StateObject private var model = HomeModel()
                    var body: some View { Text("\\(model.unreadCount)").task { await model.refreshCount() } }
                }
                """),
            // A method declared in an extension in another file: the property's attribute is asked of the index.
            RuleExample("""
                final class SearchModel: ObservableObject {
                    @Published var results: [Hit] = []
                }
                extension SearchModel {
                    func search(_ text: String) async {
                        ↓results = await engine.search(text)
                    }
                }
                struct SearchView: View {
                    @StateObject var model = SearchModel()
                    var body: some View { List(model.results) { Text($0.title) } }
                }
                """),
            // A global queue's closure runs on a worker thread: a view's button writes a shared model there.
            RuleExample("""
                final class AppsModel: ObservableObject {
                    static let shared = AppsModel()
                    @Published var apps: [String] = []
                }
                struct AppsView: View {
                    @ObservedObject var model: AppsModel = .shared
                    var body: some View {
                        Button("Reset") {
                            DispatchQueue.global(qos: .userInitiated).async {
                                Installer.removeAll()
                                ↓AppsModel.shared.apps = []
                            }
                        }
                    }
                }
                """, message: "written_on_queue", confidence: .high),
            // A queue made with a label is never the main queue, whatever class holds it.
            RuleExample("""
                @MainActor final class RelayConnection: ObservableObject {
                    @Published var isConnected = false
                    private let queue = DispatchQueue(label: "relay")
                    func ping() {
                        queue.async { [weak self] in
                            ↓self?.isConnected = false
                        }
                    }
                }
                struct RelayView: View {
                    @ObservedObject var relay: RelayConnection
                    var body: some View { Text(relay.isConnected ? "on" : "off") }
                }
                """, message: "written_on_queue", confidence: .high),
            // A private-queue context's `perform` runs on its own queue; the object written is another one's property.
            RuleExample("""
                final class TypingModel: ObservableObject {
                    @Published var mentions: [String] = []
                }
                final class PostModel {
                    let typing = TypingModel()
                    private let background = PersistenceController.shared.container.newBackgroundContext()
                    func reply(to id: String) {
                        background.perform {
                            let names = Contact.names(for: id, in: self.background)
                            ↓self.typing.mentions = names
                        }
                    }
                }
                struct ComposerView: View {
                    @StateObject var typing = TypingModel()
                    var body: some View { Text(typing.mentions.joined()) }
                }
                """, message: "written_on_queue", confidence: .high),
            // A `@MainActor` class's closure on a global queue still runs there; an `inout` argument is a write.
            RuleExample("""
                @MainActor final class CommentsModel: ObservableObject {
                    @Published var comments: [Comment] = []
                    func merge(_ new: [Comment]) {
                        DispatchQueue.global().async {
                            for comment in new.sorted() {
                                InsertSorter.insert(comment, into: &↓self.comments)
                            }
                        }
                    }
                }
                struct CommentsView: View {
                    @StateObject var model = CommentsModel()
                    var body: some View { List(model.comments) { Text($0.body) } }
                }
                """, message: "written_on_queue", confidence: .high),
            // A synchronous method runs where its callers run: here, an async method of a class with no isolation.
            RuleExample("""
                final class Connections: ObservableObject {
                    static let shared = Connections()
                    @Published var sessions: [Session] = []
                    func track(_ session: Session) {
                        ↓sessions.append(session)
                    }
                }
                final class Session {
                    func connect() async {
                        await handshake()
                        Connections.shared.track(self)
                    }
                }
                struct SessionsView: View {
                    @EnvironmentObject var connections: Connections
                    var body: some View { Text("\\(connections.sessions.count)") }
                }
                """, message: "written_in_method_called_off_main", confidence: .medium),
            // A static method's callers (`Connections.track(session:)`) are its calls: one runs on the concurrency pool. The
            // view holds the shared instance with no type written: the static member's type is the object's.
            RuleExample("""
                final class Connections: ObservableObject {
                    static let shared: Connections = Connections()
                    @Published var sessions: [Session] = []
                    static func track(session: Session) {
                        ↓shared.sessions.append(session)
                    }
                }
                final class Session {
                    func connect() async {
                        await handshake()
                        Connections.track(session: self)
                    }
                }
                struct SessionsView: View {
                    @ObservedObject var connections = Connections.shared
                    var body: some View { Text("\\(connections.sessions.count)") }
                }
                """, message: "written_in_method_called_off_main", confidence: .medium),
            // A project function that calls its closure parameter from a global queue: the trailing closure runs there.
            RuleExample("""
                final class AppsModel: ObservableObject {
                    static let shared = AppsModel()
                    @Published var apps: [String] = []
                }
                enum Installer {
                    static func install(_ url: URL, returnCompletion: @escaping (URL?) -> Void) {
                        DispatchQueue.global(qos: .userInitiated).async {
                            let installed = try? unpack(url)
                            returnCompletion(installed)
                        }
                    }
                }
                struct StoreAppView: View {
                    @ObservedObject var model: AppsModel = .shared
                    let url: URL
                    var body: some View {
                        Button("Install") {
                            DispatchQueue.main.async {
                                Installer.install(url) { _ in
                                    ↓AppsModel.shared.apps = []
                                }
                            }
                        }
                    }
                }
                """, message: "written_on_queue", confidence: .high),
            // A completion a project function calls from a `URLSession` completion handler (the session's own queue), passed
            // by its label; and a write in such a handler itself.
            RuleExample("""
                final class LoginModel: ObservableObject {
                    @Published var state = 0
                    @Published var updateAvailable = false
                    func login(_ url: URL) {
                        Request.fetch(url: url, completion: { [weak self] result in
                            ↓self?.state = 1
                        })
                    }
                    func checkForUpdates(_ url: URL) {
                        URLSession.shared.dataTask(with: url) { data, _, _ in
                            ↓self.updateAvailable = data != nil
                        }.resume()
                    }
                }
                final class Request {
                    class func fetch(url: URL, completion: @escaping (Result<Data, Error>) -> Void) {
                        guard url.scheme != nil else { return completion(.failure(FetchError.invalid)) }
                        URLSession(configuration: .default).dataTask(with: url, completionHandler: { data, _, error in
                            if let data { return completion(.success(data)) }
                            if let error { completion(.failure(error)) }
                        }).resume()
                    }
                }
                struct LoginView: View {
                    @StateObject var model = LoginModel()
                    var body: some View { Text("\\(model.state) \\(model.updateAvailable)") }
                }
                """, message: "written_on_queue", confidence: .high),
            // A queue given to the initializer: only its name says it is not the main one.
            RuleExample("""
                final class Relay: ObservableObject {
                    @Published var isConnected = false
                    private let queue: DispatchQueue
                    init(queue: DispatchQueue) { self.queue = queue }
                    func drop() {
                        queue.async { ↓self.isConnected = false }
                    }
                }
                struct RelayRow: View {
                    @ObservedObject var relay: Relay
                    var body: some View { Text(relay.isConnected ? "on" : "off") }
                }
                """, message: "written_on_queue", confidence: .medium),
        ],
        nonTriggeringExamples: [
            // The fix: the class is isolated to the main actor, so its async methods and its tasks run there.
            RuleExample("""
                @MainActor final class FeedModel: ObservableObject {
                    @Published var posts: [Post] = []
                    func load() async { posts = await api.fetchPosts() }
                    func refresh() { Task { posts = await api.fetchPosts() } }
                }
                struct FeedView: View {
                    @StateObject var model = FeedModel()
                    var body: some View { List(model.posts) { Text($0.title) } }
                }
                """),
            // The task's own local of the property's name is written on the pool; the property only on the main actor.
            RuleExample("""
                final class SendModel: ObservableObject {
                    @Published var sendData: Int?
                    func sync() {
                        Task { [weak self] in
                            var sendData: Int?
                            sendData = try? await api.sendData()
                            await MainActor.run { [sendData] in self?.sendData = sendData }
                        }
                    }
                }
                struct SendView: View {
                    @StateObject var model = SendModel()
                    var body: some View { Text("\\(model.sendData ?? 0)") }
                }
                """),
            // Each write hops to the main actor; a local of the same name is not the property.
            RuleExample("""
                final class WalletModel: ObservableObject {
                    @Published var balance: Int?
                    @Published var history: [Int] = []
                    func refresh() async {
                        let value = await client.balance()
                        await MainActor.run { self.balance = value }
                        var history: [Int] = []
                        history.append(value)
                        DispatchQueue.main.async { self.history = history }
                        Task { @MainActor in self.history.append(value) }
                    }
                    @MainActor func reset() async { balance = nil }
                }
                struct WalletView: View {
                    @ObservedObject var model: WalletModel
                    var body: some View { Text(model.history.map(String.init).joined()) }
                }
                """),
            // Not `@Published`; and a synchronous method runs where its caller runs (the main thread from a view).
            RuleExample("""
                final class Cache: ObservableObject {
                    @Published var count = 0
                    private var entries: [String: Data] = [:]
                    func store(_ data: Data, for key: String) async { entries[key] = data }
                    func bump() { count += 1 }
                }
                struct CacheView: View {
                    @EnvironmentObject var cache: Cache
                    var body: some View { Button("\\(cache.count)") { cache.bump() } }
                }
                """),
            // Not an `ObservableObject`: a UIKit view model whose subscribers pick their queue (`receive(on:)`).
            RuleExample("""
                final class TimelineViewModel {
                    @Published var isLoading = false
                    func loadLatest() async {
                        isLoading = true
                        await api.fetchLatest()
                    }
                }
                final class TimelineController: UIViewController {
                    let viewModel = TimelineViewModel()
                    func bind() {
                        viewModel.$isLoading.receive(on: DispatchQueue.main).sink { [weak self] in self?.spinner.isHidden = !$0 }.store(in: &bag)
                    }
                }
                """),
            // An `ObservableObject` no view observes: its one subscriber moves to the main queue itself.
            RuleExample("""
                final class LoginViewModel: ObservableObject {
                    @Published var isSigningIn = false
                    func signIn() async { isSigningIn = true }
                }
                final class LoginController: UIViewController {
                    let model = LoginViewModel()
                    func bind() { model.$isSigningIn.receive(on: DispatchQueue.main).sink { _ in }.store(in: &bag) }
                }
                """),
            // Isolated by a project superclass.
            RuleExample("""
                @MainActor class BaseModel: ObservableObject {}
                final class ProfileModel: BaseModel {
                    @Published var name = ""
                    func load() async { name = await api.name() }
                }
                struct ProfileView: View {
                    @StateObject var profile = ProfileModel()
                    var body: some View { Text(profile.name).task { await profile.load() } }
                }
                """),
            // Back on the main queue before the write; a view context's `perform` runs on the main queue; `sync` runs
            // on the caller's thread; a queue property set to the main queue; a context of unknown kind (here the view
            // context, set in the initializer); an object no view observes.
            RuleExample("""
                final class AppsModel: ObservableObject {
                    @Published var apps: [String] = []
                    @Published var count = 0
                    private let callbackQueue: DispatchQueue = .main
                    private let lock = DispatchQueue(label: "lock")
                    private var cache: [String] = []
                    private let context: NSManagedObjectContext
                    init(store: DataManager) { context = store.container.viewContext }
                    func recount() { context.perform { self.count = 2 } }
                    func reload() {
                        DispatchQueue.global().async {
                            let found = Installer.list()
                            self.cache = found
                            DispatchQueue.main.async { self.apps = found }
                        }
                        PersistenceController.shared.container.viewContext.perform { self.count += 1 }
                        lock.sync { self.count = 0 }
                        callbackQueue.async { self.apps = [] }
                    }
                }
                final class Logger: ObservableObject {
                    @Published var lines: [String] = []
                    func log(_ line: String) { DispatchQueue.global().async { self.lines.append(line) } }
                }
                struct AppsView: View {
                    @StateObject var model = AppsModel()
                    var body: some View { Text("\\(model.apps.count) \\(model.count)") }
                }
                """),
            // Every caller of the synchronous method runs on the main actor (a view, a `@MainActor` method).
            RuleExample("""
                final class Connections: ObservableObject {
                    static let shared = Connections()
                    @Published var sessions: [Session] = []
                    func track(_ session: Session) { sessions.append(session) }
                }
                @MainActor final class Session {
                    func connect() async {
                        await handshake()
                        Connections.shared.track(self)
                    }
                }
                struct SessionsView: View {
                    @EnvironmentObject var connections: Connections
                    var body: some View { Button("\\(connections.sessions.count)") { connections.track(Session()) } }
                }
                """),
            // The callee hops back to the main queue before it calls the completion, or calls it in place; a session whose
            // delegate queue is the main one, or one held in a property (its queue is not followed); the caller hops itself;
            // the first of two trailing closures goes to `progress:`, which `download` calls in place.
            RuleExample("""
                final class AppsModel: ObservableObject {
                    static let shared = AppsModel()
                    @Published var apps: [String] = []
                    @Published var loaded = false
                    let session = URLSession(configuration: .default, delegate: nil, delegateQueue: .main)
                    func reload(_ url: URL) {
                        Installer.install(url) { _ in self.apps = [] }
                        Installer.check(url) { self.loaded = $0 }
                        URLSession(configuration: .default, delegate: nil, delegateQueue: .main).dataTask(with: url) { _, _, _ in
                            self.loaded = true
                        }.resume()
                        session.dataTask(with: url) { _, _, _ in self.loaded = true }.resume()
                        Installer.remove(url) { _ in DispatchQueue.main.async { self.apps = [] } }
                        Installer.download(url) { _ in self.loaded = false } completion: { _ in DispatchQueue.main.async { self.loaded = true } }
                    }
                }
                enum Installer {
                    static func install(_ url: URL, completion: @escaping (URL?) -> Void) {
                        DispatchQueue.global().async {
                            let installed = try? unpack(url)
                            DispatchQueue.main.async { completion(installed) }
                        }
                    }
                    static func check(_ url: URL, completion: (Bool) -> Void) { completion(FileManager.default.fileExists(atPath: url.path)) }
                    static func remove(_ url: URL, completion: @escaping (Bool) -> Void) {
                        DispatchQueue.global().async { completion((try? FileManager.default.removeItem(at: url)) != nil) }
                    }
                    static func download(_ url: URL, progress: @escaping (Double) -> Void, completion: @escaping (URL?) -> Void) {
                        progress(0)
                        DispatchQueue.global().async { completion(try? fetch(url)) }
                    }
                }
                struct AppsView: View {
                    @StateObject var model = AppsModel()
                    var body: some View { Text("\\(model.apps.count) \\(model.loaded)") }
                }
                """),
            // An actor's state is its own.
            RuleExample("""
                actor Store: ObservableObject {
                    @Published var items: [Int] = []
                    func add(_ item: Int) async { items.append(item) }
                }
                struct StoreView: View {
                    @ObservedObject var store: Store
                    var body: some View { Text("\\(store.items.count)") }
                }
                """),
        ],
        knownLimitations: """
            A class's isolation comes from its own declarations, its project superclasses and protocols, and the \
            module's default isolation; a class isolated by something SyncLint does not read (a global actor of \
            another package) is reported wrongly. An async method with no isolation is taken to run on the concurrency \
            pool, unless its module turns on SE-0461's `NonisolatedNonsendingByDefault` (the Xcode setting, Approachable \
            Concurrency, or `.enableUpcomingFeature` in `Package.swift`), which runs it on its caller's actor: async \
            methods are not reported there (a `Task { }` still runs on the pool and is). A setting in an `.xcconfig` \
            file is not read. \
            A write inside a closure passed to another function (a completion handler, `sink`) is not reported, \
            since the thread that calls it is not known, unless the framework table says (`URLSession`'s completion \
            handlers) or the function is the project's and calls that closure on a queue proven not the main one (a \
            `Type.method()` call, or one on a receiver whose type is known; overloads of one name are taken together); \
            nor one in `performAndWait` or a queue's `sync`, which may run \
            the block on the caller's own thread. A write in a synchronous method is reported (`medium`) when some \
            app caller runs it off the main thread, its callers found by name and receiver type (a static method's \
            callers, `Type.method()`, among them; a completion handler's or a notification's thread is not followed). Only \
            the first write of each method or task is reported. In an app (an Xcode project \
            with an entry point) a method nothing calls is not reported, nor a task it starts: every call of its name \
            is on a receiver of another project type, or in another type with a method of that name \
            (`ProjectIndex.isUncalledInProgram`); a call on a receiver whose type is not known counts as a call.
            """,
        messages: [writtenOnPool, writtenInTask, writtenInNonisolatedMethod, writtenInDetachedTask, writtenOnQueue, writtenInMethodCalledOffMain])
    static let writtenOnPool = RuleMessage("written_on_pool", "`{property}` is `@Published`, and `{function}` is an async method of `{type}`, which has no isolation, so it runs on the concurrency pool and publishes this change off the main thread; isolate `{type}` to `@MainActor`, or write it in `await MainActor.run { }`")
    static let writtenInTask = RuleMessage("written_in_task", "`{property}` is `@Published`, and this `Task` starts in `{type}`, which has no isolation, so it runs on the concurrency pool and publishes this change off the main thread; isolate `{type}` to `@MainActor`, or start the task with `Task { @MainActor in }`")
    static let writtenInNonisolatedMethod = RuleMessage("written_in_nonisolated_method", "`{property}` is `@Published`, and `{function}` is a `nonisolated` async method, which runs on the concurrency pool, so this change is published off the main thread; remove `nonisolated`, or write it in `await MainActor.run { }`")
    static let writtenOnQueue = RuleMessage("written_on_queue", "`{property}` is `@Published` on `{type}`, which a SwiftUI view observes, and this closure runs {queue}, so this change is published off the main thread; write it in `DispatchQueue.main.async { }` or `Task { @MainActor in }`")
    static let writtenInMethodCalledOffMain = RuleMessage("written_in_method_called_off_main", "`{property}` is `@Published` on `{type}`, which a SwiftUI view observes, and `{function}` is synchronous, so it runs where its callers run, and some caller runs off the main thread (the concurrency pool, another actor or a queue); write it in `DispatchQueue.main.async { }`, or call `{function}` on the main actor")
    static let writtenInDetachedTask = RuleMessage("written_in_detached_task", "`{property}` is `@Published`, and `Task.detached` runs on the concurrency pool, so this change is published off the main thread; write it in `await MainActor.run { }`")

    public static let nodeKinds: Set<SyntaxKind> = [.sequenceExpr, .functionCallExpr]

    /// The methods and task closures already reported in this file: one finding each.
    private var reportedRegions: Set<SyntaxIdentifier> = []
    /// The writes already reported in each queue closure (one finding per object and property).
    private var reportedWrites: Set<String> = []
    /// Local names per function body, computed once per function.
    private var localsByFunction: [SyntaxIdentifier: Set<String>] = [:]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        guard let target = Self.writtenExpression(node) else { return }
        // A closure a queue runs after its call returns runs there whatever the type around it is (a view's button, a
        // `@MainActor` class): the queue decides, and the object written may be any a view observes.
        if let queue = Self.queuePlace(context.scope, context: context) {
            reportOnQueue(target, queue, context: context)
            return
        }
        // A synchronous method runs where its callers run: on the pool or a queue when some caller does.
        if let function = Self.synchronousMethod(context.scope), let type = context.scope.currentType {
            reportInSynchronousMethod(target, function: function, type: type, context: context)
            return
        }
        guard let type = context.scope.currentType, type.kind == .class || type.kind == .extension else { return }
        guard let place = Self.pool(context.scope), !reportedRegions.contains(place.region) else { return }
        // A task's own locals (`var state` inside `Task { }`) hide the properties of those names as the function's do.
        let locals = locals(of: place.localsScope).union(place.taskScope.map { self.locals(of: $0) } ?? [])
        guard let property = FlowFacts.selfProperty(target, locals: locals), SyntaxFacts.memberPath(target).map(Self.isDirect) == true else { return }
        // A class declared here says which of its properties are `@Published`: a write to another one neither reports
        // nor takes the method's one finding. An extension's class is asked of the index.
        if let published = publishedNames(of: type), !published.contains(property) { return }
        let arguments = ["property": property, "type": type.name, "function": place.functionName]
        // A method nothing in the program calls never runs, and neither does a task it starts.
        let runs: IndexCondition = place.isMethod
            ? .not(.isUncalledInProgram(FunctionKey(typeName: type.qualifiedName, name: place.functionName))) : .all([])
        // With SE-0461 (`NonisolatedNonsendingByDefault`, Xcode's Approachable Concurrency) an async function with no
        // isolation runs on its caller's actor: the main actor when a view calls it.
        let onPoolWhenAsync: IndexCondition = .not(.nonisolatedAsyncRunsOnCaller(file: context.path))
        // The harm is SwiftUI's: a view observes the object. Other subscribers of `$property` choose their own queue
        // (`receive(on:)`), and a plain class's are all such.
        // Cheapest first: most writes are not to a `@Published` property, and `.all` stops at the first that fails.
        let published: IndexCondition = .all([.propertyHasAttribute(property, attribute: "Published", ofType: type.qualifiedName),
                                              .not(.propertyHasAttribute(property, attribute: "MainActor", ofType: type.qualifiedName)),
                                              .isObservedByViews(type.qualifiedName)])
        switch place.kind {
        case .detached:
            context.report(target, Self.writtenInDetachedTask, arguments, when: published)
        case .nonisolatedMethod:
            context.report(target, Self.writtenInNonisolatedMethod, arguments, when: .all([published, onPoolWhenAsync, runs]))
        case .asyncMethod, .task:
            // The class's isolation (its own, a project superclass's or protocol's, the module's default) decides; a
            // task of a class with no isolation runs on the pool in every language mode.
            let pool = ExecutionContext.typeIsolation(type.qualifiedName, isAsync: true)
            let conditions: [IndexCondition] = place.kind == .task ? [published, .isOffMain(pool), runs] : [published, .isOffMain(pool), onPoolWhenAsync, runs]
            context.report(target, place.kind == .task ? Self.writtenInTask : Self.writtenOnPool, arguments, when: .all(conditions))
        }
        reportedRegions.insert(place.region)
    }

    /// Reports a write, in a closure a queue runs, to an `@Published` property of an object a view observes: `self`'s or
    /// another object's (`AppsVM.shared.apps = []`, `model.items.append(x)`), its type resolved by the index.
    private func reportOnQueue(_ target: ExprSyntax, _ queue: QueuePlace, context: FileContext) {
        guard !reportedRegions.contains(queue.region) else { return }
        let written = Self.withoutAccessors(target)
        // Only a property of an object can be `@Published`: a local, or a value whose type the syntax cannot tell, is
        // never reported (`ValueTypes` answers a bare name that is no local as a member of `self`).
        guard case .member(let owner, let property) = ValueTypes.of(written, in: context) else { return }
        let key = "\(queue.region.hashValue):\(written.trimmedDescription)"
        guard !reportedWrites.contains(key) else { return }
        reportedWrites.insert(key)
        let arguments = ["property": property, "type": Self.ownerName(owner, written: written), "queue": queue.description]
        var publishes: IndexCondition = .publishesToViews(member: property, of: owner)
        // A method nothing in the program calls never dispatches its closure.
        if let type = context.scope.currentType, let function = context.scope.currentFunction, function.node.is(FunctionDeclSyntax.self) {
            publishes = .all([publishes, .not(.isUncalledInProgram(FunctionKey(typeName: type.qualifiedName, name: function.name)))])
        }
        let notMain = queue.mainWhen.map { [IndexCondition.not($0)] } ?? []
        switch queue.proof {
        case .proven:
            context.report(target, Self.writtenOnQueue, arguments, when: publishes)
        case .provenWhen(let proof):
            context.report(target, Self.writtenOnQueue, arguments, when: .all([publishes, proof]))
            context.report(target, Self.writtenOnQueue, arguments, when: .all([publishes, .not(proof)] + notMain), confidence: .medium)
        case .named:
            context.report(target, Self.writtenOnQueue, arguments, when: .all([publishes] + notMain), confidence: .medium)
        case .onlyWhen(let proof):
            context.report(target, Self.writtenOnQueue, arguments, when: .all([publishes, proof]))
        }
    }

    /// Reports, at `medium`, a write in a synchronous method to an `@Published` property of an object a view observes,
    /// when some app caller of the method runs it off the main thread (`someAppCallerRunsOffMainThread`): the callers
    /// are found by name and receiver type, which the facts do not prove to be the only ones.
    private func reportInSynchronousMethod(_ target: ExprSyntax, function: FunctionScope, type: TypeScope, context: FileContext) {
        let written = Self.withoutAccessors(target)
        guard case .member(let owner, let property) = ValueTypes.of(written, in: context) else { return }
        let key = "\(function.node.id.hashValue):\(written.trimmedDescription)"
        guard !reportedWrites.contains(key) else { return }
        reportedWrites.insert(key)
        let arguments = ["property": property, "type": Self.ownerName(owner, written: written), "function": function.name]
        let method = FunctionKey(typeName: type.qualifiedName, name: function.name)
        context.report(target, Self.writtenInMethodCalledOffMain, arguments,
                       when: .all([.publishesToViews(member: property, of: owner), .someAppCallerRunsOffMainThread(method)]), confidence: .medium)
    }

    /// The synchronous method (declared with `func`) the walker is in, with only closures that run in place between;
    /// nil in a `@MainActor` or async method, an initializer or accessor, or any other closure.
    static func synchronousMethod(_ scope: ScopeStack) -> FunctionScope? {
        for frame in scope.frames.reversed() {
            switch frame {
            case .closure(let closure):
                guard !closure.isMainActorAnnotated, case .other(let callee) = closure.kind, runsInPlace(callee) else { return nil }
            case .function(let function):
                guard !function.isAsync, !function.isMainActor, function.node.is(FunctionDeclSyntax.self) else { return nil }
                return function
            case .type:
                return nil
            }
        }
        return nil
    }

    /// The property a write changes, without the element or unwrapping around it: `self?.items` for
    /// `self?.items[i] = …`, `model.items` for `model.items!.append(…)`.
    static func withoutAccessors(_ target: ExprSyntax) -> ExprSyntax {
        var current = target
        while true {
            if let optional = current.as(OptionalChainingExprSyntax.self) { current = optional.expression }
            else if let forced = current.as(ForceUnwrapExprSyntax.self) { current = forced.expression }
            else if let subscriptCall = current.as(SubscriptCallExprSyntax.self) { current = subscriptCall.calledExpression }
            else { return current }
        }
    }

    /// The type a message names for the object written: the type for `self` or a type's static member, else the
    /// object as written (`typingTextModel`).
    static func ownerName(_ owner: ValueType, written: ExprSyntax) -> String {
        if case .named(let name, _) = owner { return name }
        if let base = written.as(MemberAccessExprSyntax.self)?.base { return base.trimmedDescription }
        return written.trimmedDescription
    }

    /// How sure it is that a queue closure runs off the main thread.
    enum QueueProof {
        /// The call says so: `DispatchQueue.global().async`, `DispatchQueue(label:).async`, `performBackgroundTask`.
        case proven
        /// The index can prove it: the receiver is a property whose initial value makes a queue that is never main, or
        /// that holds a private-queue context.
        case provenWhen(IndexCondition)
        /// Only a name says so (`syncQueue.async`): medium.
        case named
        /// The index can prove it, and nothing is reported when it cannot: a context's `perform` on a context of
        /// unknown kind is as often the view context's, on the main queue (Squirrel's `context`, set from
        /// `container.viewContext` in an initializer, on the tune half).
        case onlyWhen(IndexCondition)
    }

    /// A closure that a queue runs after the call that takes it returns: where a write in it happens.
    struct QueuePlace {
        let region: SyntaxIdentifier
        /// How the message names where the closure runs.
        let description: String
        let proof: QueueProof
        /// When this holds the queue is the main one after all (a property set to `.main`, a view context): quiet.
        var mainWhen: IndexCondition?
    }

    /// The queue closure the walker is in, or nil when the innermost closure that does not run in place is anything
    /// else (a task, the main queue, a completion handler) or a queue call that may run it on the caller's thread
    /// (`sync`, `performAndWait`: not in `FrameworkQueues.asynchronousDispatchMethods`).
    static func queuePlace(_ scope: ScopeStack, context: FileContext) -> QueuePlace? {
        for frame in scope.frames.reversed() {
            guard case .closure(let closure) = frame, !closure.isMainActorAnnotated else { return nil }
            switch closure.kind {
            case .other(let callee):
                if callee == FrameworkQueues.backgroundTaskMethod {
                    return QueuePlace(region: closure.node.id, description: "on a new private-queue context's queue (`performBackgroundTask`)", proof: .proven)
                }
                if ExecutionContexts.isSessionCompletionOffMain(closure) {
                    return QueuePlace(region: closure.node.id, description: "on the delegate queue `URLSession` makes for its completion handlers",
                                      proof: .proven)
                }
                guard runsInPlace(callee) else { return calleePlace(closure, context: context) }
            case .backgroundQueue:
                guard let call = closure.call else { return nil }
                return dispatchPlace(closure, call, context: context)
            case .perform:
                guard let call = closure.call else { return nil }
                return performPlace(closure, call, context: context)
            default:
                // `performAndWait` and a queue's `sync` may run the block on the calling thread: where they run is the
                // caller's, which this does not follow.
                return nil
            }
        }
        return nil
    }

    /// A closure given to a project function that calls that parameter on a queue proven not the main one
    /// (`Installer.install(ipa) { url in … }` where `install` calls `completion(url)` inside `DispatchQueue.global().async`):
    /// off the main thread when the index resolves the callee and its summary says so; nothing otherwise.
    private static func calleePlace(_ closure: ClosureScope, context: FileContext) -> QueuePlace? {
        guard let call = closure.call else { return nil }
        let callee: (name: String, receiver: ValueType?)
        if let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base, let type = ValueTypes.namedType(base, in: context) {
            callee = (context.calleeMethodName(call), type)  // `Installer.install(url) { … }`: a static method
        } else if let known = UnsynchronizedCaptureMutationRule.callee(of: call, context: context) {
            callee = known
        } else {
            return nil
        }
        let label: String?
        if call.trailingClosure?.id == closure.node.id {
            // With more trailing closures after it, the first goes to an earlier parameter, not the last.
            guard call.additionalTrailingClosures.isEmpty else { return nil }
            label = nil
        } else if let argument = closure.node.parent?.as(LabeledExprSyntax.self) {
            label = argument.label?.text ?? "_"
        } else if let trailing = closure.node.parent?.as(MultipleTrailingClosureElementSyntax.self) {
            label = trailing.label.text
        } else {
            return nil
        }
        let condition: IndexCondition = .callsClosureParameterOffMain(callee: callee.name, receiver: callee.receiver,
                                                                      callerType: context.scope.currentType?.qualifiedName, label: label)
        return QueuePlace(region: closure.node.id, description: "where `\(callee.name)` calls it, on a queue that is not the main one",
                          proof: .onlyWhen(condition))
    }

    /// `queue.async { }`: off the main thread when the queue is made here (`DispatchQueue.global()`,
    /// `DispatchQueue(label:)`) or is a property whose initial value makes such a queue; a receiver known only by
    /// its name (`syncQueue`, a parameter) is medium.
    private static func dispatchPlace(_ closure: ClosureScope, _ call: FunctionCallExprSyntax, context: FileContext) -> QueuePlace? {
        guard FrameworkQueues.asynchronousDispatchMethods.contains(SyntaxFacts.calleeMethodName(call)),
              let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return nil }
        let text = receiver.trimmedDescription
        if FrameworkQueues.makesOffMainQueue(text) {
            let isGlobal = text.contains("global(")
            return QueuePlace(region: closure.node.id, description: isGlobal ? "on a global queue's worker thread" : "on a queue of the app's own",
                              proof: .proven)
        }
        // `OperationQueue.current` may be the main queue; a name with `main` in it says it is.
        if text.lowercased().contains("main") || text.contains("current") { return nil }
        let description = "on `\(text)`, a queue of the app's own"
        if case .member(let owner, let property) = ValueTypes.of(receiver, in: context) {
            return QueuePlace(region: closure.node.id, description: description, proof: .provenWhen(.holdsOffMainQueue(member: property, of: owner)),
                              mainWhen: .holdsMainQueue(member: property, of: owner))
        }
        return QueuePlace(region: closure.node.id, description: description, proof: .named)
    }

    /// `context.perform { }`: the context's own queue, off the main thread when the context is a property holding a
    /// private-queue context (`newBackgroundContext()`, `.privateQueueConcurrencyType`: the store facts); a view
    /// context's `perform` runs on the main queue, and a context of unknown kind is not reported.
    private static func performPlace(_ closure: ClosureScope, _ call: FunctionCallExprSyntax, context: FileContext) -> QueuePlace? {
        guard let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return nil }
        let text = receiver.trimmedDescription
        if FrameworkCallbacks.isMainQueueContext(text) { return nil }
        let description = "on the queue of `\(text)`, a private-queue context (`perform`)"
        guard case .member(let owner, let property) = ValueTypes.of(receiver, in: context),
              case .named(let ownerName, _) = owner, let type = context.scope.currentType, ownerName == type.qualifiedName else { return nil }
        return QueuePlace(region: closure.node.id, description: description,
                          proof: .onlyWhen(.holdsBackgroundContext(TypeProperty(typeName: ownerName, property: property))))
    }

    /// The expression a statement writes: an assignment's or compound assignment's target, the collection a
    /// mutating call changes (`items.append(x)`), or a call's first `inout` argument (`sort(&items)`).
    static func writtenExpression(_ node: Syntax) -> ExprSyntax? {
        if let sequence = node.as(SequenceExprSyntax.self) { return SyntaxFacts.writeTarget(sequence) }
        // `sortComments(new, into: &self.comments)`: an `inout` argument is written by the call.
        if let call = node.as(FunctionCallExprSyntax.self), let argument = call.arguments.lazy.compactMap({ $0.expression.as(InOutExprSyntax.self) }).first {
            return argument.expression
        }
        guard let call = node.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              StaleModelAfterAwaitRule.collectionMutations.contains(member.declName.baseName.text), let base = member.base else { return nil }
        return base
    }

    /// `x`, `self.x`, `self?.x`, `x[i]`: the property itself, not a member of the value it holds.
    static func isDirect(_ path: (root: String, members: [String])) -> Bool {
        path.root == "self" ? path.members.count == 1 : path.members.isEmpty
    }

    enum PoolKind { case asyncMethod, nonisolatedMethod, task, detached }

    /// Where a write on the pool happens: the method or task it belongs to (one finding each), how it got there,
    /// and the function whose locals it may name.
    struct PoolPlace {
        let kind: PoolKind
        let region: SyntaxIdentifier
        let functionName: String
        let localsScope: Syntax
        /// The task closure the write is in, whose locals it may name too.
        var taskScope: Syntax?
        /// The function is a method declared with `func` (not an initializer or an accessor), which runs only when called.
        var isMethod: Bool { localsScope.is(FunctionDeclSyntax.self) }
    }

    /// The place on the concurrency pool the walker is in, or nil when the code hops to the main actor, runs
    /// where its caller runs, or runs somewhere the syntax does not tell (a completion handler, `sink`).
    static func pool(_ scope: ScopeStack) -> PoolPlace? {
        var task: ClosureScope?
        for frame in scope.frames.reversed() {
            switch frame {
            case .closure(let closure):
                if closure.isMainActorAnnotated { return nil }
                switch closure.kind {
                case .task:
                    if task == nil { task = closure }
                case .detachedTask:
                    return PoolPlace(kind: .detached, region: closure.node.id, functionName: "", localsScope: Syntax(closure.node))
                case .other(let callee):
                    // Only a closure known to run in place, before its call returns, runs where the code around it runs.
                    guard Self.runsInPlace(callee) else { return nil }
                default:
                    return nil
                }
            case .function(let function):
                if function.isMainActor { return nil }
                if let task {
                    return PoolPlace(kind: .task, region: task.node.id, functionName: function.name, localsScope: function.node,
                                     taskScope: Syntax(task.node))
                }
                guard function.isAsync else { return nil }
                // `nonisolated async` leaves even a main-actor class's isolation (Swift 6.0 and 6.1; see the limitations).
                if function.isNonisolated {
                    return PoolPlace(kind: .nonisolatedMethod, region: function.node.id, functionName: function.name, localsScope: function.node)
                }
                return PoolPlace(kind: .asyncMethod, region: function.node.id, functionName: function.name, localsScope: function.node)
            case .type:
                return nil
            }
        }
        return nil
    }

    /// The standard library's sequence algorithms call their closure before they return (`forEach`, `map`, ...), as
    /// do `withAnimation` and `withTransaction` (`FrameworkHandlers.runsInPlace`). Any other closure (a completion
    /// handler, `sink`, a stored closure) runs at a time and on a thread the syntax does not tell, unless the framework
    /// table or the callee's summary says where.
    static func runsInPlace(_ callee: String) -> Bool {
        FrameworkHandlers.runsInPlace(callee)
    }

    /// The `@Published` stored properties a class declaration lists, once per declaration; nil for an extension.
    private var publishedByType: [SyntaxIdentifier: Set<String>] = [:]

    private func publishedNames(of type: TypeScope) -> Set<String>? {
        guard let declaration = type.node.as(ClassDeclSyntax.self) else { return nil }
        if let known = publishedByType[type.node.id] { return known }
        var names: Set<String> = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), SyntaxFacts.hasAttribute("Published", variable.attributes) else { continue }
            for binding in variable.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { names.insert(name) }
            }
        }
        publishedByType[type.node.id] = names
        return names
    }

    private func locals(of scope: Syntax) -> Set<String> {
        if let known = localsByFunction[scope.id] { return known }
        let names = FlowFacts.localNames(in: scope)
        localsByFunction[scope.id] = names
        return names
    }
}
