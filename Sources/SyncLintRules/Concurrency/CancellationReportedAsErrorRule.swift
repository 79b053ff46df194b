import SwiftSyntax

/// A catch-all that shows a cancelled task to the user as an error.
public final class CancellationReportedAsErrorRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "cancellation_reported_as_error",
        name: "Cancellation Reported As Error",
        whatItDoes: """
            Finds a catch-all `catch` in code that can be cancelled (a `.task` or `.refreshable` closure, a \
            `Task` whose stored handle is cancelled, a task-group child of either, or an async function called from \
            one of those or from outside the project) whose `do` awaits a throwing call, and that puts the error into user-visible state (a property named like `error`, \
            `errorMessage` or `alert`; a `message`, `banner` or `toast` built from the error; a failed result such as \
            `results[key] = .failure(error)` or `state = .failed(error)`; the app's own wrapper `self.error = AppError(error)`; \
            a `show...Error`/`display...Error`/`show...Alert` call; or `return .failure(error)` from a helper whose caller stores the result \
            where a view reads it, `result = await resolve()`), or that stops the app (`assertionFailure`, \
            `preconditionFailure`, `fatalError`), with no earlier \
            `catch is CancellationError` and no cancellation test inside it.
            """,
        whyIsThisBad: """
            Cancellation is how `.task(id:)` and task handles stop stale work, and it arrives as a thrown \
            `CancellationError` (or `URLError.cancelled`). Showing it as an error turns every normal \
            navigation into a red banner.
            """,
        seed: "000, 001",
        // Opt-in: 20 of 22 findings judged right on ten public apps after the narrowing (docs/precision.md), a quick reading; the two wrong are async functions started from button tasks through a receiver whose type is not known.
        isOptIn: true,
        triggeringExamples: [
            // The awaited call reaches `Task.sleep` through the app's own service: proven to throw when cancelled.
            RuleExample("""
                final class ArticleService {
                    func fetch(_ id: Int) async throws -> String {
                        try await Task.sleep(for: .milliseconds(300))
                        return try cache.article(id)
                    }
                }
                @MainActor final class ReaderViewModel {
                    var errorMessage: String?
                    var content = ""
                    let service = ArticleService()
                    func loadContent() async {
                        do {
                            content = try await service.fetch(articleId)
                        } ↓catch {
                            errorMessage = error.localizedDescription
                        }
                    }
                }
                struct ReaderView: View {
                    let model: ReaderViewModel
                    var body: some View { Text(model.errorMessage ?? "").task { await model.loadContent() } }
                }
                """, fixed: """
                final class ArticleService {
                    func fetch(_ id: Int) async throws -> String {
                        try await Task.sleep(for: .milliseconds(300))
                        return try cache.article(id)
                    }
                }
                @MainActor final class ReaderViewModel {
                    var errorMessage: String?
                    var content = ""
                    let service = ArticleService()
                    func loadContent() async {
                        do {
                            content = try await service.fetch(articleId)
                        } catch is CancellationError {
                        } catch {
                            errorMessage = error.localizedDescription
                        }
                    }
                }
                struct ReaderView: View {
                    let model: ReaderViewModel
                    var body: some View { Text(model.errorMessage ?? "").task { await model.loadContent() } }
                }
                """, confidence: .high),
            // Another module's call (a receiver the index cannot follow) may throw a cancellation, or may not: medium.
            RuleExample("""
                @MainActor final class ReaderViewModel {
                    var errorMessage: String?
                    func loadContent() async {
                        do {
                            content = try await service.fetch(articleId)
                        } ↓catch {
                            errorMessage = error.localizedDescription
                        }
                    }
                }
                struct ReaderView: View {
                    let model: ReaderViewModel
                    var body: some View { Text(model.errorMessage ?? "").task { await model.loadContent() } }
                }
                """, confidence: .medium),
            // Called through an environment value of a protocol type from a view's `.task`: SwiftUI cancels that task, and
            // the call may run this conformer's method (another conformer's, as far as the index can tell: medium).
            RuleExample("""
                protocol CalendarSyncing { func connect() async }
                final class CalendarSync: CalendarSyncing {
                    var lastError: String?
                    func connect() async {
                        do { try await Task.sleep(for: .seconds(1)) } ↓catch { lastError = error.localizedDescription }
                    }
                }
                extension EnvironmentValues { @Entry var calendarSync: any CalendarSyncing = CalendarSync() }
                struct SyncSettings: View {
                    @Environment(\\.calendarSync) private var calendarSync
                    var body: some View { Text((calendarSync as? CalendarSync)?.lastError ?? "").task { await calendarSync.connect() } }
                }
                """, confidence: .medium),
            // A shared instance a view holds (`= BillingManager.shared`), loaded in the view's `.task`: the call reaches this
            // method, and SwiftUI cancels the task when the view goes, while the shared state stays.
            RuleExample("""
                @MainActor final class BillingManager: ObservableObject {
                    static let shared = BillingManager()
                    @Published var errorMessage: String?
                    func loadPlan() async {
                        do { try await Task.sleep(for: .seconds(1)) } ↓catch { errorMessage = error.localizedDescription }
                    }
                }
                struct BillingView: View {
                    @ObservedObject private var billing = BillingManager.shared
                    var body: some View { Text(billing.errorMessage ?? "").task { await billing.loadPlan() } }
                }
                """, confidence: .high),
            // Never called in the project: its callers may be outside the run, so it may be cancelled, but no fact says so.
            RuleExample("""
                @MainActor final class ExportModel {
                    var errorMessage: String?
                    func export() async {
                        do { try await exporter.run() } ↓catch { errorMessage = error.localizedDescription }
                    }
                }
                struct ExportView: View {
                    let model: ExportModel
                    var body: some View { Text(model.errorMessage ?? "") }
                }
                """, confidence: .medium),
            // The error goes through the app's helper, which tests for `CancellationError`: it may show nothing.
            RuleExample("""
                func describe(_ error: Error) -> String? {
                    if error is CancellationError { return nil }
                    return error.localizedDescription
                }
                @MainActor final class InboxModel {
                    var errorMessage: String?
                    func load() async {
                        do { try await inbox.sync() } ↓catch { errorMessage = describe(error) }
                    }
                }
                struct InboxView: View {
                    let model: InboxModel
                    var body: some View { Text(model.errorMessage ?? "").task { await model.load() } }
                }
                """, confidence: .medium),
            // The app's client reports cancellation as its own `.cancelled` case, handled before the catch-all.
            RuleExample("""
                enum ApiClientError: Error { case cancelled, noEntity }
                @MainActor final class PostLoader {
                    var error: Error?
                    func load() async {
                        do { try await api.upgrade() } catch ApiClientError.cancelled {} ↓catch { self.error = error }
                    }
                }
                struct PostView: View {
                    let loader: PostLoader
                    var body: some View { Text(loader.error == nil ? "" : "failed").task { await loader.load() } }
                }
                """, confidence: .medium),
            // The app's own test of the error, known by its name only.
            RuleExample("""
                @MainActor final class StackModel {
                    var loadError: Error?
                    func load() async {
                        do { try await portainer.stacks() } ↓catch {
                            guard !error.isCancellationError else { return }
                            self.loadError = error
                        }
                    }
                }
                struct StackView: View {
                    let model: StackModel
                    var body: some View { Text(model.loadError == nil ? "" : "failed").task { await model.load() } }
                }
                """, confidence: .medium),
            RuleExample("""
                final class Uploader {
                    var upload: Task<Void, Never>?
                    func start() {
                        upload = Task {
                            do { try await send() } ↓catch let failure { self.showUploadError(failure) }
                        }
                    }
                    func stop() { upload?.cancel() }
                }
                """, fixed: """
                final class Uploader {
                    var upload: Task<Void, Never>?
                    func start() {
                        upload = Task {
                            do { try await send() } catch is CancellationError {} catch let failure { self.showUploadError(failure) }
                        }
                    }
                    func stop() { upload?.cancel() }
                }
                """),
            RuleExample("""
                @MainActor final class FeedModel {
                    var errorMessage: String?
                    func refresh() async {
                        do { try await client.reload() } ↓catch { errorMessage = error.localizedDescription }
                    }
                }
                struct FeedView: View {
                    let model: FeedModel
                    var body: some View { List { Text(model.errorMessage ?? "") }.refreshable { await model.refresh() } }
                }
                """),
            RuleExample("""
                @Observable final class PreviewStore {
                    var results: [URL: Result<Data, Error>] = [:]
                    func load(_ url: URL) async {
                        do { results[url] = .success(try await fetcher.data(url)) } ↓catch { results[url] = .failure(error) }
                    }
                }
                struct PreviewRow: View {
                    let store: PreviewStore
                    let url: URL
                    var body: some View { Text(store.results[url] == nil ? "" : "done").task { await store.load(url) } }
                }
                """),
            // The view's own `@State`, from its `.task` without `id:`: cancelled only when the view disappears. This view
            // pushes a destination over itself, so it disappears while it stays, and the error is there on return.
            RuleExample("""
                struct StopsView: View {
                    @State private var errorMessage: String?
                    @State private var stops: [Stop] = []
                    var body: some View {
                        List(stops) { stop in NavigationLink(stop.name) { StopDetail(stop: stop) } }
                            .overlay { Text(errorMessage ?? "") }
                            .task {
                                do {
                                    try await Task.sleep(for: .seconds(1))
                                    stops = try await StopsLoader.shared.load()
                                } ↓catch {
                                    errorMessage = error.localizedDescription
                                }
                            }
                    }
                }
                """, confidence: .high),
            // The same in a sheet that pushes nothing: its task is cancelled only when the sheet goes, and its `@State`
            // with it; nothing proves the error is ever seen.
            RuleExample("""
                struct ClaimSheet: View {
                    @State private var errorMessage: String?
                    var body: some View {
                        Text(errorMessage ?? "Claiming…").task {
                            do {
                                try await Task.sleep(for: .seconds(1))
                                try await ClaimService.shared.claim()
                            } ↓catch {
                                errorMessage = error.localizedDescription
                            }
                        }
                    }
                }
                """, confidence: .medium),
            // An earlier clause takes every `URLError`, so the transfer's `URLError.cancelled` never gets here; the
            // `Task.sleep` before it still throws `CancellationError` into the catch-all.
            RuleExample("""
                @Observable final class ForecastService {
                    var errorMessage: String?
                    func fetch(_ url: URL) async {
                        do {
                            try await Task.sleep(for: .milliseconds(300))
                            let (data, _) = try await URLSession.shared.data(from: url)
                            forecast = try JSONDecoder().decode(Forecast.self, from: data)
                        } catch let urlError as URLError {
                            errorMessage = urlError.code == .notConnectedToInternet ? "Offline" : nil
                        } ↓catch {
                            errorMessage = "Could not load weather"
                        }
                    }
                }
                struct ForecastView: View {
                    let service: ForecastService
                    let url: URL
                    var body: some View { Text(service.errorMessage ?? "").task(id: url) { await service.fetch(url) } }
                }
                """, confidence: .high),
            // An object the view is handed (`let planner`), called through the view's own method from its `.task`: the
            // planner outlives the view's task, so the error stays where another view shows it.
            RuleExample("""
                @Observable final class TripPlanner {
                    var errorMessage: String?
                    func locatePlace(_ name: String) async {
                        do { try await Task.sleep(for: .seconds(1)) } ↓catch { errorMessage = error.localizedDescription }
                    }
                }
                struct LocateSheet: View {
                    let planner: TripPlanner
                    var body: some View { Text(planner.errorMessage ?? "").task { await locate() } }
                    private func locate() async { await planner.locatePlace("Home") }
                }
                """, confidence: .high),
            // The same planner held as the sheet's own `@State`: the `.task` is cancelled only when the sheet goes, and the
            // planner (with its error) goes with it; nothing proves the error is ever seen.
            RuleExample("""
                @Observable final class TripPlanner {
                    var errorMessage: String?
                    func locatePlace(_ name: String) async {
                        do { try await Task.sleep(for: .seconds(1)) } ↓catch { errorMessage = error.localizedDescription }
                    }
                }
                struct LocateSheet: View {
                    @State private var planner = TripPlanner()
                    var body: some View { Text(planner.errorMessage ?? "").task { await locate() } }
                    private func locate() async { await planner.locatePlace("Home") }
                }
                """, confidence: .medium),
            RuleExample("""
                struct InboxView: View {
                    @State private var toast: Toast?
                    var body: some View {
                        List {}.overlay { toast.map(ToastView.init) }.task {
                            do { try await inbox.sync() } ↓catch { toast = Toast(error: error) }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ProfileModel: ObservableObject {
                    @Published var failure: AppFailure?
                    @Published var state: LoadState = .idle
                    func load() async {
                        do { state = .loaded(try await api.profile()) } ↓catch { self.failure = AppFailure(error); state = .failed(error) }
                    }
                }
                struct ProfileScreen: View {
                    @StateObject var model = ProfileModel()
                    var body: some View { Text("\\(model.state)").alert(item: $model.failure) { _ in Alert(title: Text("")) }.task { await model.load() } }
                }
                """),
            RuleExample("""
                struct AvatarView: View {
                    @State private var errorMessage: String?
                    let url: URL
                    var body: some View {
                        Text(errorMessage ?? "").task(id: url) {
                            do {
                                let (data, _) = try await URLSession.shared.data(from: url)
                                image = UIImage(data: data)
                            } catch is CancellationError {
                            } ↓catch {
                                errorMessage = error.localizedDescription
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class FeedModel {
                    var errorMessage: String?
                    func refresh() async {
                        do {
                            do { try await client.reload() } catch let error as DecodingError { log(error) }
                            try cache.write()
                        } ↓catch {
                            errorMessage = error.localizedDescription
                        }
                    }
                }
                struct FeedView: View {
                    let model: FeedModel
                    var body: some View { Text(model.errorMessage ?? "").task { await model.refresh() } }
                }
                """),
            RuleExample("""
                struct LogView: View {
                    @State private var errorMessage: String?
                    let url: URL
                    var body: some View {
                        Text(errorMessage ?? "").task {
                            do { for try await line in url.lines { print(line) } } ↓catch { errorMessage = error.localizedDescription }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ArticleProvider: ObservableObject {
                    @Published var result: Result<[String], Error>?
                    func reload() async {
                        result = await resolve()
                    }
                    private func resolve() async -> Result<[String], Error> {
                        do { return .success(try await api.articles()) } ↓catch { return .failure(error) }
                    }
                }
                struct ArticlesView: View {
                    @StateObject var provider = ArticleProvider()
                    var body: some View { Text(provider.result == nil ? "" : "done").task { await provider.reload() } }
                }
                """),
            RuleExample("""
                struct SyncView: View {
                    var body: some View {
                        Text("Sync").task {
                            do { try await engine.sync() } ↓catch { assertionFailure("sync failed: \\(error)") }
                        }
                    }
                }
                """),
            RuleExample("""
                struct AvatarView: View {
                    @State private var errorMessage: String?
                    let url: URL
                    var body: some View {
                        Text(errorMessage ?? "").task(id: url) {
                            do {
                                let (data, _) = try await URLSession.shared.data(from: url)
                                image = UIImage(data: data)
                            } ↓catch {
                                if error is CancellationError { return }
                                errorMessage = error.localizedDescription
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                final class StopsAPI {
                    func stops(near url: URL) async throws -> Data {
                        let (data, _) = try await URLSession.shared.data(from: url)
                        return data
                    }
                }
                @MainActor final class StopsModel {
                    var loadError: Error?
                    let api = StopsAPI()
                    func load(_ url: URL) async {
                        do { _ = try await api.stops(near: url) } catch is CancellationError {} ↓catch { loadError = error }
                    }
                }
                struct StopsView: View {
                    let model: StopsModel
                    let url: URL
                    var body: some View { Text(model.loadError == nil ? "" : "failed").task { await model.load(url) } }
                }
                """),
            RuleExample("""
                protocol DataLoader { func data(for request: URLRequest) async throws -> (Data, URLResponse) }
                final class RoutesService {
                    let loader: DataLoader
                    init(loader: DataLoader) { self.loader = loader }
                    func routes(_ request: URLRequest) async throws -> Data { try await loader.data(for: request).0 }
                }
                @MainActor final class RoutePicker: ObservableObject {
                    @Published var loadError: Error?
                    let service: RoutesService
                    init(service: RoutesService) { self.service = service }
                    func load(_ request: URLRequest) async {
                        do { _ = try await service.routes(request) } ↓catch {
                            if error is CancellationError { return }
                            loadError = error
                        }
                    }
                }
                struct RoutePickerView: View {
                    @ObservedObject var picker: RoutePicker
                    let request: URLRequest
                    var body: some View { Text(picker.loadError == nil ? "" : "failed").task { await picker.load(request) } }
                }
                """),
            RuleExample("""
                struct API {
                    var lookup: (String) async throws -> [String]
                    static func request(_ url: URL) async throws -> Data { try await URLSession.shared.data(from: url).0 }
                }
                @MainActor final class MovieLookup {
                    var error: Error?
                    var api: API
                    init(api: API) { self.api = api }
                    func search(_ query: String) async {
                        do { _ = try await api.lookup(query) } catch is CancellationError {} ↓catch { self.error = error }
                    }
                }
                struct LookupView: View {
                    let lookup: MovieLookup
                    var body: some View { Text(lookup.error == nil ? "" : "failed").task { await lookup.search("a") } }
                }
                """),
            RuleExample("""
                final class MapRegionLoader {
                    var pending: Task<Void, Never>?
                    func schedule() {
                        pending?.cancel()
                        pending = Task { do { try await refreshStops() } ↓catch { await application.displayError(error) } }
                    }
                }
                """),
            RuleExample("""
                final class StopsAPI {
                    func stops(near url: URL) async throws -> Data { try await request(url) }
                    func arrivals(at url: URL) async throws -> Data { try await URLSession.shared.data(from: url).0 }
                    private func request(_ url: URL) async throws -> Data {
                        do { return try await URLSession.shared.data(from: url).0 }
                        catch let error as URLError where error.code == .cancelled { throw CancellationError() }
                    }
                }
                @MainActor final class ArrivalsModel {
                    var loadError: Error?
                    let api = StopsAPI()
                    func load(_ url: URL) async {
                        do { _ = try await api.arrivals(at: url) } catch is CancellationError {} ↓catch { loadError = error }
                    }
                }
                struct ArrivalsView: View {
                    let model: ArrivalsModel
                    let url: URL
                    var body: some View { Text(model.loadError == nil ? "" : "failed").task { await model.load(url) } }
                }
                """, message: "url_error_cancelled_shown", confidence: .high),
        ],
        nonTriggeringExamples: [
            // The same without the sleep: the only cancellable call is the transfer, whose `URLError.cancelled` the
            // earlier `catch let urlError as URLError` takes; the catch-all never receives a cancellation.
            RuleExample("""
                @Observable final class ForecastService {
                    var errorMessage: String?
                    func fetch(_ url: URL) async {
                        do {
                            let (data, _) = try await URLSession.shared.data(from: url)
                            forecast = try JSONDecoder().decode(Forecast.self, from: data)
                        } catch let urlError as URLError {
                            errorMessage = urlError.code == .notConnectedToInternet ? "Offline" : nil
                        } catch {
                            errorMessage = "Could not load weather"
                        }
                    }
                }
                struct ForecastView: View {
                    let service: ForecastService
                    let url: URL
                    var body: some View { Text(service.errorMessage ?? "").task(id: url) { await service.fetch(url) } }
                }
                """),
            // Its only caller is a button's `Task { }` whose handle nobody keeps, reached through `@Environment(Model.self)`
            // (the property holds a `LoginModel`): nothing ever cancels it, so every error it shows is a real one.
            RuleExample("""
                @Observable final class LoginModel {
                    var errorMessage: String?
                    func validate() async {
                        do { try await Task.sleep(for: .seconds(1)); try await api.login() } catch { errorMessage = error.localizedDescription }
                    }
                }
                struct LoginView: View {
                    @Environment(LoginModel.self) private var model
                    var body: some View {
                        Button(model.errorMessage ?? "Log in") { Task { await model.validate() } }
                    }
                }
                """),
            // The awaited call is a model actor's synchronous fetch: hopping to an actor throws no cancellation, and
            // nothing it does reads the task's flag, so a cancelled load cannot land in the catch.
            RuleExample("""
                @ModelActor actor SeriesStore {
                    func allSeries() throws -> [Series] { try modelContext.fetch(FetchDescriptor<Series>()) }
                }
                @MainActor final class NotificationsModel {
                    var errorMessage: String?
                    var series: [Series] = []
                    let store: SeriesStore
                    init(store: SeriesStore) { self.store = store }
                    func load() async {
                        do { series = try await store.allSeries() } catch { errorMessage = error.localizedDescription }
                    }
                }
                struct NotificationsView: View {
                    let model: NotificationsModel
                    var body: some View { Text(model.errorMessage ?? "").task { await model.load() } }
                }
                """),
            // A continuation over work on a queue: it "does not observe cancellation", so its error is the work's own.
            RuleExample("""
                final class StatsManager {
                    func calculate() async throws -> Int {
                        try await withCheckedThrowingContinuation { continuation in
                            DispatchQueue.global().async { continuation.resume(with: Result { try self.compute() }) }
                        }
                    }
                }
                struct StatsView: View {
                    @State private var errorMessage: String?
                    let manager = StatsManager()
                    var body: some View {
                        Text(errorMessage ?? "").refreshable {
                            do { _ = try await manager.calculate() } catch { errorMessage = error.localizedDescription }
                        }
                    }
                }
                """),
            RuleExample("""
                struct TripSheet: View {
                    @State private var loadError: Error?
                    var body: some View {
                        Text("Trip").task {
                            do { try await load() } catch { loadError = error }
                        }
                    }
                }
                """),
            RuleExample("""
                enum TopError: Error { case download }
                @MainActor final class Tracker {
                    var errorMessage: String?
                    var items: [String] = []
                    func loadTop() async throws -> [String] {
                        do { return try await api.top() } catch { throw TopError.download }
                    }
                    func refresh() async {
                        async let top = loadTop()
                        do { items = try await top } catch { errorMessage = error.localizedDescription }
                    }
                }
                struct TopView: View {
                    let tracker: Tracker
                    var body: some View { Text(tracker.errorMessage ?? "").task { await tracker.refresh() } }
                }
                """),
            RuleExample("""
                @MainActor final class Feed {
                    var error: Error?
                    func reloadAll() {
                        Task {
                            await withTaskGroup(of: Void.self) { group in
                                group.addTask { do { try await fetch() } catch { self.error = error } }
                            }
                        }
                    }
                }
                struct FeedView: View {
                    let feed: Feed
                    var body: some View { Text(feed.error?.localizedDescription ?? "").onAppear { feed.reloadAll() } }
                }
                """),
            RuleExample("""
                enum FeedError: Error { case offline, server(Int) }
                final class FeedClient {
                    func entries() async throws(FeedError) -> [String] { [] }
                }
                struct FeedList: View {
                    @State private var errorMessage: String?
                    let client: FeedClient
                    var body: some View {
                        Text(errorMessage ?? "").task {
                            do { _ = try await client.entries() } catch { errorMessage = "\\(error)" }
                        }
                    }
                }
                """),
            RuleExample("""
                struct AppError: Error { let underlying: Error }
                final class Gateway {
                    func fetch() async throws -> Data {
                        do { return try await transport.send() } catch { throw AppError(underlying: error) }
                    }
                }
                struct GatewayView: View {
                    @State private var errorMessage: String?
                    let gateway: Gateway
                    var body: some View {
                        Text(errorMessage ?? "").task {
                            do { _ = try await gateway.fetch() } catch { errorMessage = error.localizedDescription }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class SyncStatus {
                    var lastSyncError: Error?
                    func sync() async {
                        do { try await engine.run() } catch { lastSyncError = error }
                    }
                }
                struct SyncBadge: View {
                    let status: SyncStatus
                    var body: some View { Text("Sync").task { await status.sync() } }
                }
                """),
            RuleExample("""
                struct AvatarView: View {
                    @State private var errorMessage: String?
                    let url: URL
                    var body: some View {
                        Text(errorMessage ?? "").task(id: url) {
                            do {
                                let (data, _) = try await URLSession.shared.data(from: url)
                                image = UIImage(data: data)
                            } catch is CancellationError {
                            } catch let error as URLError where error.code == .cancelled {
                            } catch {
                                errorMessage = error.localizedDescription
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                enum SyncError: Error { case offline, rejected }
                @MainActor final class SyncModel {
                    var errorMessage: String?
                    func sync() async {
                        do throws(SyncError) {
                            try await client.push()
                        } catch {
                            errorMessage = "\\(error)"
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class ComposerModel {
                    var errorMessage: String?
                    func send() async {
                        do { try await client.post(draft) } catch { errorMessage = error.localizedDescription }
                    }
                }
                struct ComposerView: View {
                    let model: ComposerModel
                    var body: some View { AsyncButton("Send", action: model.send) }
                }
                """),
            RuleExample("""
                func loadContent() async {
                    do {
                        let content = try await service.fetch(articleId)
                        self.content = content
                    } catch is CancellationError {
                        Logger.reader.debug("Load cancelled")
                    } catch {
                        self.errorMessage = "An unexpected error occurred. Please try again."
                    }
                }
                """),
            RuleExample("""
                func refresh() async {
                    do { try await sync() } catch {
                        guard !(error is CancellationError) else { return }
                        alert = AlertState(error)
                    }
                }
                """),
            RuleExample("""
                func save() {
                    do { try context.save() } catch { errorMessage = error.localizedDescription }
                }
                """),
            RuleExample("""
                func load() async {
                    do { try await fetch() } catch { logger.error("load failed: \\(error)") }
                }
                """),
            RuleExample("""
                final class Uploader {
                    func start() {
                        Task {
                            do { try await send() } catch let failure { self.showUploadError(failure) }
                        }
                    }
                }
                """),
            RuleExample("""
                @MainActor final class FeedModel {
                    var errorMessage: String?
                    func refresh() async {
                        do { try await client.reload() } catch { errorMessage = error.localizedDescription }
                    }
                }
                struct FeedView: View {
                    let model: FeedModel
                    var body: some View { Button("Reload") { Task { await model.refresh() } } }
                }
                """),
            RuleExample("""
                func export() async {
                    await prepare()
                    do { try archive.write() } catch { errorMessage = error.localizedDescription }
                }
                """),
            RuleExample("""
                func fetchInstance() async {
                    do { instance = try await client.instance() } catch {
                        let errorType = classify(error)
                        metrics.record(errorType)
                        instance = nil
                        instanceFetchError = nil
                    }
                }
                """),
            RuleExample("""
                @MainActor final class FeedModel {
                    var errorMessage: String?
                    func refresh() async {
                        do {
                            do { try await client.reload() } catch { return }
                            try cache.write()
                        } catch {
                            errorMessage = error.localizedDescription
                        }
                    }
                }
                struct FeedView: View {
                    let model: FeedModel
                    var body: some View { Text(model.errorMessage ?? "").task { await model.refresh() } }
                }
                """),
            RuleExample("""
                @MainActor final class ArticleProvider: ObservableObject {
                    @Published var count = 0
                    func reload() async {
                        let outcome = await resolve()
                        if case .success(let items) = outcome { count = items.count }
                    }
                    private func resolve() async -> Result<[String], Error> {
                        do { return .success(try await api.articles()) } catch { return .failure(error) }
                    }
                }
                struct ArticlesView: View {
                    @StateObject var provider = ArticleProvider()
                    var body: some View { Text("\\(provider.count)").task { await provider.reload() } }
                }
                """),
            RuleExample("""
                struct SyncView: View {
                    var body: some View {
                        Button("Sync") { Task { do { try await engine.sync() } catch { assertionFailure("sync failed: \\(error)") } } }
                    }
                }
                """),
            RuleExample("""
                struct AvatarView: View {
                    @State private var errorMessage: String?
                    let url: URL
                    var body: some View {
                        Text(errorMessage ?? "").task(id: url) {
                            do {
                                let (data, _) = try await URLSession.shared.data(from: url)
                                image = UIImage(data: data)
                            } catch {
                                if error is CancellationError || (error as? URLError)?.code == .cancelled { return }
                                errorMessage = error.localizedDescription
                            }
                        }
                    }
                }
                """),
            RuleExample("""
                final class StopsStore {
                    func stops() async throws -> [String] {
                        try await Task.sleep(for: .milliseconds(10))
                        return []
                    }
                }
                @MainActor final class StopsModel {
                    var loadError: Error?
                    let store = StopsStore()
                    func load() async {
                        do { _ = try await store.stops() } catch is CancellationError {} catch { loadError = error }
                    }
                }
                struct StopsView: View {
                    let model: StopsModel
                    var body: some View { Text(model.loadError == nil ? "" : "failed").task { await model.load() } }
                }
                """),
            RuleExample("""
                struct Store {
                    var lookup: (String) async throws -> [String]
                }
                @MainActor final class MovieLookup {
                    var error: Error?
                    var store: Store
                    init(store: Store) { self.store = store }
                    func search(_ query: String) async {
                        do { _ = try await store.lookup(query) } catch is CancellationError {} catch { self.error = error }
                    }
                }
                struct LookupView: View {
                    let lookup: MovieLookup
                    var body: some View { Text(lookup.error == nil ? "" : "failed").task { await lookup.search("a") } }
                }
                """),
            RuleExample("""
                @MainActor final class TimelineModel {
                    var state: LoadState = .idle
                    func fetchNewest() async {
                        do { try await fetchPage() } catch let error {
                            if (error as NSError).code != -999 { state = .error(error) }
                        }
                    }
                }
                struct TimelineView: View {
                    let model: TimelineModel
                    var body: some View { Text("\\(model.state)").refreshable { await model.fetchNewest() } }
                }
                """),
            RuleExample("""
                struct API {
                    var lookup: (String) async throws -> [String]
                    static func request(_ url: URL) async throws -> Data { try await request(URLRequest(url: url)) }
                    static func request(_ request: URLRequest) async throws -> Data {
                        do { return try await URLSession.shared.data(for: request).0 }
                        catch let error as URLError where error.code == .cancelled { throw CancellationError() }
                    }
                }
                @MainActor final class MovieLookup {
                    var error: Error?
                    var api: API
                    init(api: API) { self.api = api }
                    func search(_ query: String) async {
                        do { _ = try await api.lookup(query) } catch is CancellationError {} catch { self.error = error }
                    }
                }
                struct LookupView: View {
                    let lookup: MovieLookup
                    var body: some View { Text(lookup.error == nil ? "" : "failed").task { await lookup.search("a") } }
                }
                """),
            RuleExample("""
                final class StopsAPI {
                    func stops(near url: URL) async throws -> Data { try await request(url) }
                    private func request(_ url: URL) async throws -> Data {
                        do { return try await URLSession.shared.data(from: url).0 } catch {
                            if (error as? URLError)?.code == .cancelled { throw CancellationError() }
                            throw error
                        }
                    }
                }
                @MainActor final class StopsModel {
                    var loadError: Error?
                    let api = StopsAPI()
                    func load(_ url: URL) async {
                        do { _ = try await api.stops(near: url) } catch is CancellationError {} catch { loadError = error }
                    }
                }
                struct StopsView: View {
                    let model: StopsModel
                    let url: URL
                    var body: some View { Text(model.loadError == nil ? "" : "failed").task { await model.load(url) } }
                }
                """),
            // The same service reached only from a button's `Task { }` whose handle is dropped: nothing can cancel it.
            RuleExample("""
                protocol CalendarSyncing { func connect() async }
                final class CalendarSync: CalendarSyncing {
                    var lastError: String?
                    func connect() async {
                        do { try await Task.sleep(for: .seconds(1)) } catch { lastError = error.localizedDescription }
                    }
                }
                extension EnvironmentValues { @Entry var calendarSync: any CalendarSyncing = CalendarSync() }
                struct SyncSettings: View {
                    @Environment(\\.calendarSync) private var calendarSync
                    var body: some View {
                        Button("Connect") { Task { await calendarSync.connect() } }
                        Text((calendarSync as? CalendarSync)?.lastError ?? "")
                    }
                }
                """),
            // A shared instance held by a view, called only from a button's dropped `Task { }`.
            RuleExample("""
                @MainActor final class BillingManager: ObservableObject {
                    static let shared = BillingManager()
                    @Published var errorMessage: String?
                    func openPortal() async {
                        do { try await Task.sleep(for: .seconds(1)) } catch { errorMessage = error.localizedDescription }
                    }
                }
                struct BillingView: View {
                    @ObservedObject private var billing = BillingManager.shared
                    var body: some View {
                        Button("Manage") { Task { await billing.openPortal() } }
                        Text(billing.errorMessage ?? "")
                    }
                }
                """),
            RuleExample("""
                final class MapRegionManager {
                    func _loadSearchResponse() async {
                        do { try await refreshStops() } catch { await application.displayError(error) }
                    }
                    func loadSearchResponse() {
                        Task { await _loadSearchResponse() }
                    }
                }
                """),
        ],
        knownLimitations: """
            A catch that shows the error only through a call named like `showError(_:)`, `presentAlert` or `displayError(_:)` is \
            known by that name alone: its finding has medium confidence (shown with `--confidence medium`). \
            A callee that converts cancellation into its own error type before it reaches the catch is not \
            seen, nor is user-visible state with other names. Code that nobody can cancel is quiet: a `Task { }` \
            whose handle is dropped (a button action) and async functions only such tasks call (followed three \
            calls deep), and an async function the project never calls but names without calling (passed by \
            reference, as `Button(action: save)`); calls through a view's `@Environment(\\.key)` value, a property \
            holding a shared instance (`= Store.shared`) or an `any`/`some` protocol type count as its callers (through \
            a protocol only as a may: medium), and one nothing calls in an app (an Xcode project with an entry point) \
            whose type adopts no framework protocol or superclass is quiet; one the project never mentions otherwise \
            counts as cancellable, since its callers are outside what was linted, but with medium confidence (so is a catch that hands its error to a \
            project function that tests for `CancellationError`, to three calls deep, such as `handleError(_:)`, and a \
            catch-all after a clause for a `.cancelled` case of the app's own error, `catch ApiClientError.cancelled`, or \
            one that reads a member of the error named like a cancellation test, `error.isCancellationError`), as does one called only on receivers whose \
            type the index does not know: the high tier needs a caller the index resolves that is proven cancellable. \
            The high tier also needs the awaited calls proven to throw a cancellation: followed through the project's \
            functions (five calls deep, a protocol through its project conformers) to a call the framework table says \
            throws one (`Task.sleep`, `Task.checkCancellation()`, a URLSession transfer) or `throw CancellationError()`; \
            an awaited call the index cannot follow (another module's, a receiver of unknown type) may throw one: \
            medium; when every call is followed and none can (a model actor's synchronous fetch, a continuation over a \
            callback, which does not observe cancellation, a context's `perform`), the catch is quiet. And it needs the \
            state it writes to outlive what cancels it: a `.task { }` without `id:` is cancelled only when its view \
            disappears, so state that view owns (its `@State`, an object it holds as `@StateObject` or `@State`, called directly \
            or through the view's own methods) is seen \
            again only if the view comes back, which a view that pushes a destination over itself does; otherwise \
            (a sheet or a leaf destination, say) the finding is medium. A view hidden another way (a tab) is not seen. \
            A `do` whose only `try` is synchronous (or `try?`), and a \
            `do throws(DomainError)` with a typed error, cannot receive a cancellation and are quiet; so is a catch that \
            the awaited call's error never reaches on the control-flow graph (an inner `do` catches it first). The fix \
            (unsafe: a cancelled run now skips everything the catch-all did, resets included) adds an empty \
            `catch is CancellationError` clause before the catch-all, or, when one is already there, an empty \
            `catch let error as URLError where error.code == .cancelled`. When the catch-all ends by leaving, the \
            new clause leaves the same way for a bare `return`, `break` or `continue`, and there is no fix for \
            `return value`, `throw` or `fatalError`: an empty clause would fall through to the code after the `do`. \
            Error state counts as shown when view code somewhere in the project reads a member of that name (by name, \
            not by type); a callee with typed throws, or whose every `try` is caught and every `throw` builds the \
            app's own error, hands over no cancellation and keeps the catch quiet. After `catch is CancellationError` (or \
            a catch-all that returns early only on `error is CancellationError`), a catch-all is reported only when the `do` awaits a `URLSession` transfer, \
            or a project function it awaits does (followed three calls deep), and nothing handles `URLError.cancelled`; \
            when the functions it reaches await only a call named like a transfer (`loader.data(for:)` on a protocol), or \
            it awaits a call the index cannot follow (a closure property, another package's method) in a project whose \
            code awaits URLSession transfers, the finding has medium confidence. A project function that turns \
            `URLError.cancelled` into `CancellationError` (a `catch` for it that throws `CancellationError()`) converts: \
            a transfer reached only through it counts as handled by `catch is CancellationError` (overloads of one name \
            count as one: when one converts, all do), and in a project that \
            has one, a call the index cannot follow is taken to go through it (its API layer converts centrally), so \
            a transfer the app awaits around that layer through such a call is not seen. A catch that tests the error's code \
            against `NSURLErrorCancelled` (or `-999`) counts as handling cancellation, though it lets a \
            `CancellationError` through. Calls from tests and previews never make a function cancellable, and a task-group \
            child is as cancellable as the task that runs its group. A callee reached through a protocol of \
            another package is taken as able to throw a cancellation. Opt-in: on ten public apps, a careful \
            judgement found 4 of 16 findings right (10 wrong were loads through such a protocol); see docs/precision.md.
            """,
        fixSafety: .unsafe,
        messages: [urlErrorShown, cancellationShown, cancellationStopsApp])
    static let urlErrorShown = RuleMessage("url_error_cancelled_shown", "a cancelled URLSession transfer throws `URLError.cancelled`, not `CancellationError`, and this catch shows it as an error; also skip `URLError.cancelled` (`catch let error as URLError where error.code == .cancelled`)")
    static let cancellationStopsApp = RuleMessage("cancellation_stops_app", "this catch stops the app (`assertionFailure`, `preconditionFailure` or `fatalError`) when the task is cancelled; add `catch is CancellationError` before it, or return early when `error is CancellationError`")
    static let cancellationShown = RuleMessage("cancellation_shown", "this catch shows a cancelled task as an error; add `catch is CancellationError` before it, or return early when `error is CancellationError`")

    public static let nodeKinds: Set<SyntaxKind> = [.doStmt]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        // Only an awaited throwing call can throw a cancellation: a synchronous `try` or a `try?` cannot.
        guard let doStatement = node.as(DoStmtSyntax.self), context.scope.isAsyncContext,
              doStatement.throwsClause?.type == nil, CatchFacts.awaitsThrowingCall(doStatement.body) else { return }
        var awaited: [CallReference?]?
        var sources: CancellationSources?
        var awaitsURLSession: Bool?
        // `catch ApiClientError.cancelled`: the app's own error has a case for cancellation, which its client
        // likely throws in place of `CancellationError` (known by the case's name: medium).
        var catchesOwnCancelledCase = false
        // `catch let error as URLError` before the catch-all takes every `URLError`: a transfer's `URLError.cancelled`
        // never reaches the catch-all, only a `CancellationError` can.
        var urlErrorsCaught = false
        for (index, clause) in doStatement.catchClauses.enumerated() {
            guard CatchFacts.isCatchAll(clause) else {
                // A specific clause for the cancellation handles it; clauses for other errors change nothing.
                let pattern = clause.catchItems.trimmedText
                if pattern.contains("URLError") && pattern.contains("cancelled") { return }
                if CatchFacts.catchesEveryURLError(clause) { urlErrorsCaught = true }
                if pattern.hasSuffix(".cancelled") || pattern.hasSuffix(".canceled") { catchesOwnCancelledCase = true }
                continue
            }
            let facts = CatchFacts.of(doStatement, clause: index, context: context)
            // On the graph: an inner `do` that catches the awaited call's error first leaves this clause none.
            guard facts.doAwaitsThrowingCall else { return }
            if facts.handlesURLErrorCancelled { return }
            // `if error is CancellationError { return }` handles what `catch is CancellationError` would, no more.
            if facts.bodyTestsCancellation && !facts.bodyTestsOnlyCancellationError { return }
            // Both kinds caught before it: a `CancellationError` and every `URLError` go to the earlier clauses.
            if urlErrorsCaught && (facts.handlesCancellationError || facts.bodyTestsOnlyCancellationError) { return }
            var message: RuleMessage
            // When the `do` awaits no transfer itself, whether a call it awaits reaches one is the index's question.
            var transferThroughCalls = false
            if facts.handlesCancellationError || facts.bodyTestsOnlyCancellationError {
                // `catch is CancellationError` first: a URLSession transfer still throws `URLError.cancelled`.
                if awaitsURLSession == nil { awaitsURLSession = CatchFacts.awaitsURLSessionCall(doStatement.body) }
                transferThroughCalls = awaitsURLSession != true
                message = Self.urlErrorShown
            } else {
                message = Self.cancellationShown
            }
            guard let (shown, shownByName) = Self.userVisible(clause, facts: facts, context: context) else { continue }
            if !facts.handlesCancellationError, !facts.bodyTestsOnlyCancellationError, Self.stopsTheApp(clause.body), !Self.callsShowingError(clause.body) {
                message = Self.cancellationStopsApp
            }
            if awaited == nil { awaited = CatchFacts.awaitedThrowingCalls(doStatement.body, context: context) }
            // Whether the awaited calls can throw a cancellation at all, followed through the project's functions to the
            // framework calls that report one: proven (a `Task.sleep`, a URLSession transfer, `checkCancellation()` on
            // the way) is high; a call the index cannot follow (another module's, a receiver of unknown type) may:
            // medium; none (local work, a continuation, a callee that throws only the app's own errors): quiet.
            if sources == nil {
                sources = CatchFacts.cancellationSources(ofBody: doStatement.body, context: context, urlErrorsCaught: urlErrorsCaught)
            }
            let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
            let delivers: IndexCondition = .throwsCancellation(sources ?? CancellationSources(), caller: caller, atLeast: .proven)
            let mayDeliver: IndexCondition = .all([.throwsCancellation(sources ?? CancellationSources(), caller: caller, atLeast: .unknown),
                                                   .not(delivers)])
            // Code nobody can cancel (a `Task { }` whose handle is dropped, an async function only such tasks
            // call) never receives a cancellation, so its catch is right to show every error. Cancellable by fact
            // (a `.task` closure, a handle its type cancels, a resolved caller that is either) is high; an async
            // function the project never calls, or calls only on receivers of unknown type, is cancellable as far
            // as anything says, not proven: medium. One finding either way.
            // A catch that hands its error to a helper of the project that tests for `CancellationError` (`handleError`,
            // `handleErrorWithDetails`) may show nothing for a cancellation, whatever the helper returns: not proven.
            let helpers = Self.callsTakingError(clause, context: context)
            // `guard !error.isCancellationError else { return }`: the app's own test, known by its name: medium.
            let proven: IndexCondition = catchesOwnCancelledCase || Self.asksErrorAboutCancellation(clause) ? .any([])
                : helpers.isEmpty ? .isProvenCancellable(facts.cancellation)
                : .all([.isProvenCancellable(facts.cancellation), .not(.someTestsCancellation(helpers))])
            // Who cancels it, and whether the state it writes outlives that: a `.task { }` without `id:` is cancelled only
            // when its view disappears, and state that view owns goes with it unless the view pushes a destination over
            // itself and comes back; proven visible is high, the rest medium.
            let outlives = Self.stateOutlivesCancellation(clause, facts: facts, context: context)
            let provenVisible: IndexCondition = .all([proven, outlives])
            let cancellable: [(IndexCondition, Confidence)] = [
                (provenVisible, shownByName ? .medium : .high),
                (.all([.isCancellable(facts.cancellation), .not(provenVisible)]), .medium),
            ]
            guard transferThroughCalls else {
                for (condition, confidence) in cancellable {
                    context.report(clause.catchKeyword, message, when: .all([condition, delivers, shown]), confidence: confidence)
                }
                context.report(clause.catchKeyword, message, when: .all([.isCancellable(facts.cancellation), mayDeliver, shown]),
                               confidence: .medium)
                return
            }
            // `URLError.cancelled` through the awaited calls: proven when a project function they reach awaits a
            // transfer the framework table knows; likely (medium) when one awaits a call only named like one, or a
            // call the index cannot follow stands in a project that awaits transfers. One finding either way.
            let followed = (awaited ?? []).compactMap { $0 }
            for (condition, confidence) in cancellable {
                context.report(clause.catchKeyword, message, when: .all([condition, delivers, shown, .reachesURLSessionTransfer(followed)]),
                               confidence: confidence)
            }
            context.report(clause.catchKeyword, message,
                           when: .all([.isCancellable(facts.cancellation), .throwsCancellation(sources ?? CancellationSources(), caller: caller,
                                                                                              atLeast: .unknown),
                                       shown, .not(.reachesURLSessionTransfer(followed)),
                                       .mayReachURLSessionTransfer(awaited ?? [])]),
                           confidence: .medium)
            return
        }
    }

    /// Whether the catch can run while the state it writes is still shown, as a condition on the index: in a view's
    /// `.task { }` without `id:` (cancelled only when the view disappears), state that is the view's own `@State`
    /// outlives it only when the view pushes a destination over itself; elsewhere the index follows the callers
    /// (`IndexCondition.cancelledWhileStateLives`).
    static func stateOutlivesCancellation(_ clause: CatchClauseSyntax, facts: CatchFacts, context: FileContext) -> IndexCondition {
        var writes = Set(assignedVisibleProperties(clause.body, locals: locals(around: clause, context: context)))
        for destination in facts.destinations {
            switch destination {
            case .property(let name), .appValue(let name), .failureResult(let name): writes.insert(name)
            case .passedTo(let callee, _):
                // `router.display(error)`, `showError(error)`: shown by someone else, not followed. A helper whose value
                // is stored (`self.error = makePresentableError(from: error)`) leaves the stored property deciding.
                if showingPrefixes.contains(where: callee.lowercased().hasPrefix) { return .all([]) }
            case .returnedFailure, .rethrown: return .all([])  // shown by the caller: not followed
            }
        }
        let type = context.scope.currentType?.qualifiedName
        guard case .always = facts.cancellation else {
            return .cancelledWhileStateLives(facts.cancellation, writes: writes.sorted(), ofType: type)
        }
        guard ExecutionContexts.isCancelledOnlyOnDisappear(in: context), let view = type, !writes.isEmpty else { return .all([]) }
        let owned: IndexCondition = .all(writes.sorted().map { .propertyHasAttribute($0, attribute: "State", ofType: view) })
        return .any([.not(owned), .pushesDestination(view)])
    }

    /// The clause reads a member of the caught error named like a cancellation test (`error.isCancellationError`,
    /// `error.isCancelled`): the app's own extension, which the rule cannot read as a fact.
    static func asksErrorAboutCancellation(_ clause: CatchClauseSyntax) -> Bool {
        let name = CatchFacts.errorName(of: clause)
        var asks = false
        BodyScanner.scan(clause.body) { node in
            guard let member = node.as(MemberAccessExprSyntax.self), member.declName.baseName.text.lowercased().contains("cancel"),
                  let base = member.base?.as(DeclReferenceExprSyntax.self), base.baseName.text == name else { return }
            asks = true
        }
        return asks
    }

    /// The calls in the clause that take the caught error as an argument (`handleErrorWithDetails(error)`), for the index.
    static func callsTakingError(_ clause: CatchClauseSyntax, context: FileContext) -> [CallReference] {
        let name = CatchFacts.errorName(of: clause)
        let caller = FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: context.scope.currentFunction?.name ?? "")
        var calls: [CallReference] = []
        BodyScanner.scan(clause.body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self),
                  call.arguments.contains(where: { $0.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == name }) else { return }
            let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
            let type = receiver.flatMap { SyntaxFacts.isSelf($0) ? nil : ValueTypes.of($0, in: context) }
            calls.append(CallReference(caller: caller, callee: SyntaxFacts.calleeMethodName(call), receiver: type))
        }
        return calls
    }

    /// How the name of a call that shows an error starts: `showError`, `presentAlert`, `displayError(_:)`.
    static let showingPrefixes = ["show", "present", "display"]

    /// Names a property or call can have when it shows something to the user.
    static let visibleWords = ["error", "alert", "message", "banner", "toast"]

    /// Whether the clause shows the error to the user, as a condition on the index: a `show...Error` /
    /// `present...Alert` call shows it (known by its name only: `byName`); a property shows it when view code reads
    /// it. Nil when the clause does neither.
    static func userVisible(_ clause: CatchClauseSyntax, facts: CatchFacts, context: FileContext) -> (IndexCondition, byName: Bool)? {
        var properties = Set(Self.assignedVisibleProperties(clause.body, locals: Self.locals(around: clause, context: context)))
        var calls = Self.callsShowingError(clause.body)
        var returned: IndexCondition?
        for destination in facts.destinations {
            switch destination {
            case .property(let name), .appValue(let name):
                if Self.visibleWords.contains(where: name.lowercased().contains) { properties.insert(name) }
            case .failureResult(let name):
                // `results[key] = .failure(error)`, `state = .failed(error)`: the view renders the failed state.
                properties.insert(name)
            case .passedTo(let callee, _):
                let lowered = callee.lowercased()
                if Self.showingPrefixes.contains(where: lowered.hasPrefix) && Self.visibleWords.contains(where: lowered.contains) {
                    calls = true
                }
            case .returnedFailure:
                // `return .failure(error)`: shown when a caller stores the result where a view reads it.
                if let function = context.scope.currentFunction, context.scope.currentClosure == nil {
                    returned = .returnedValueShown(FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: function.name))
                }
            case .rethrown:
                break
            }
        }
        // A `show...Error` call shows it whatever else the clause does; that is known by the call's name only.
        if calls { return (.all([]), true) }
        // `assertionFailure`, `preconditionFailure` and `fatalError` stop the app: no view needs to read anything.
        if Self.stopsTheApp(clause.body) { return (.all([]), false) }
        // Error state that no view reads under any name is bookkeeping, not a message to the user; a view that
        // reads it (or reads the value a helper's returned failure is stored in) proves it is shown.
        let shown = properties.sorted().map(IndexCondition.readByViews) + (returned.map { [$0] } ?? [])
        return shown.isEmpty ? nil : (.any(shown), false)
    }

    /// Names declared in the enclosing function or closure: writing those shows nothing to the user.
    static func locals(around clause: CatchClauseSyntax, context: FileContext) -> Set<String> {
        if let closure = context.scope.currentClosure { return FlowFacts.localNames(in: closure.node.statements) }
        if let body = context.scope.currentFunction?.body { return FlowFacts.localNames(in: body) }
        return FlowFacts.localNames(in: clause.body)
    }

    /// Properties assigned a real value (not `nil`, `false` or `""`, which clear state) whose names say they
    /// show an error: `errorMessage = ...`, `self.alert = ...`, `showError = true`.
    static func assignedVisibleProperties(_ body: CodeBlockSyntax, locals: Set<String>) -> [String] {
        var names: [String] = []
        BodyScanner.scan(body) { node in
            guard let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
                  let path = SyntaxFacts.memberPath(assignment.target),
                  path.root != "self" ? (!path.members.isEmpty || !locals.contains(path.root)) : true else { return }
            let name = path.members.last ?? path.root
            let clears = assignment.value.is(NilLiteralExprSyntax.self) || SyntaxFacts.boolLiteral(assignment.value) == false
                || assignment.value.trimmedText == "\"\""
            if ["error", "alert"].contains(where: name.lowercased().contains) && !clears { names.append(name) }
        }
        return names
    }

    /// `assertionFailure`, `preconditionFailure` or `fatalError` in the clause: a cancellation stops the app (a debug
    /// build, for `assertionFailure`) as if it were a failure.
    static func stopsTheApp(_ body: CodeBlockSyntax) -> Bool {
        var stops = false
        BodyScanner.scan(body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self) else { return }
            if ["assertionFailure", "preconditionFailure", "fatalError"].contains(SyntaxFacts.calleeName(call)) { stops = true }
        }
        return stops
    }

    /// A `show...Error` / `present...Alert` call (with or without the error as its argument).
    static func callsShowingError(_ body: CodeBlockSyntax) -> Bool {
        var shows = false
        BodyScanner.scan(body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self) else { return }
            let name = SyntaxFacts.calleeMethodName(call)
            if Self.showingPrefixes.contains(where: name.hasPrefix) && (name.contains("Error") || name.contains("Alert")) { shows = true }
        }
        return shows
    }
}
