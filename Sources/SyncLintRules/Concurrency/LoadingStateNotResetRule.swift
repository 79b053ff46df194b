import SwiftSyntax

/// A loading flag set to `true` that some exit leaves set.
public final class LoadingStateNotResetRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "loading_state_not_reset",
        name: "Loading State Not Reset",
        whatItDoes: """
            Finds a function that sets a loading flag (`isLoading`, `isFetching`, `isRefreshing`, `isSaving`, \
            `isSyncing`; configurable; also with a suffix, `isLoadingAbout`, `isFetchingMore`, but not settings such as \
            `isSyncingEnabled`) to `true` and then leaves on some path (a `return`, a `throw`, a guard's \
            `else`, or a `try` that can throw out of the function) without setting it back to `false` first, \
            with no `defer` that does; or whose `do` resets it on success while its catch-all and everything after \
            leave it set; or that resets it on some paths and reaches its end on another with the flag still set. \
            The same in a `Task { }` closure that sets the flag, and for a flag on a nested state value \
            (`searchInfo.isLoading`); for a "finished" flag (`didFinishLoading`, `hasLoaded`; configurable) that every \
            other exit sets `true`; and for progress shown and hidden by a pair of calls on one receiver \
            (`coordinator.showLoading()` / `hideLoading()`, `spinner.startAnimating()` / `stopAnimating()`, \
            `beginRefreshing()` / `endRefreshing()`) that the function itself undoes on some paths only.
            """,
        whyIsThisBad: """
            The flag drives a spinner. An early return or a thrown error that skips the reset leaves the spinner \
            turning forever, and often blocks the next load too. A `defer { isLoading = false }` right after setting it covers every exit.
            """,
        seed: "000, 001",
        // Opt-in: judged on apps nobody tuned on (docs/precision.md, "Test half"), it fell far short of the bar for
        // a default rule (90% on 20 findings from 5 apps).
        isOptIn: true,
        options: [RuleOptionDescription("flags", default: "[isLoading, isFetching, isRefreshing, isSaving, isSyncing]",
                                        "names of the Bool properties that drive progress UI"),
                  RuleOptionDescription("finished_flags", default: "[didFinishLoading, hasFinishedLoading, isFinishedLoading, hasLoaded, didLoad, isLoaded]",
                                        "names of the Bool properties that say a load has ended (the UI shows progress until they are true)")],
        triggeringExamples: [
            RuleExample("""
                func loadContent() async {
                    isLoading = true
                    do {
                        articleContent = try await service.fetch(article)
                    } catch {
                        errorMessage = error.localizedDescription
                        ↓return
                    }
                    isLoading = false
                }
                """, fixed: """
                func loadContent() async {
                    isLoading = true
                    defer { isLoading = false }
                    do {
                        articleContent = try await service.fetch(article)
                    } catch {
                        errorMessage = error.localizedDescription
                        return
                    }
                    isLoading = false
                }
                """, message: "exit_leaves_flag_set", notes: ["`isLoading` is set to true here"], confidence: .high),
            RuleExample("""
                func refresh() async throws {
                    self.isRefreshing = true
                    guard let account else { ↓return }
                    let items = try await api.items(for: account)
                    self.items = items
                    self.isRefreshing = false
                }
                """),
            RuleExample("""
                func loadAbout() async {
                    isLoadingAbout = true
                    guard let instance else { ↓return }
                    about = await client.about(instance)
                    isLoadingAbout = false
                }
                """),
            RuleExample("""
                func fetchMore() async {
                    isFetchingMore = true
                    do {
                        items += try await api.page(after: items.last)
                        isFetchingMore = false
                    } ↓catch {
                        errorMessage = error.localizedDescription
                    }
                }
                """, message: "catch_leaves_flag_set", notes: ["`isFetchingMore` is set to true here"], confidence: .high),
            // The exit is a generation check: a newer search has started and owns the flag, which it resets: medium.
            RuleExample("""
                @MainActor final class SearchModel {
                    var isLoading = false
                    var searchIndex = 0
                    var receivedIndex = 0
                    var items: [Item] = []
                    func search(_ term: String) async {
                        isLoading = true
                        let thisSearch = searchIndex
                        searchIndex += 1
                        let result = await api.search(term)
                        if thisSearch < receivedIndex { ↓return }
                        items = result
                        receivedIndex = thisSearch
                        isLoading = false
                    }
                }
                """, message: "exit_leaves_flag_set", confidence: .medium),
            // The look-alike: the exit tests the result, not the run's token: high.
            RuleExample("""
                @MainActor final class SearchModel {
                    var isLoading = false
                    var searchIndex = 0
                    var items: [Item] = []
                    func search(_ term: String) async {
                        isLoading = true
                        let thisSearch = searchIndex
                        searchIndex += 1
                        let result = await api.search(term)
                        if result.isEmpty { ↓return }
                        items = result
                        isLoading = false
                    }
                }
                """, message: "exit_leaves_flag_set", confidence: .high),
            // Nothing in the function resets the flag: only its name says it is loading state.
            RuleExample("""
                func prepare(_ ready: Bool) {
                    isSyncing = true
                    guard ready else { ↓return }
                    startSync()
                }
                """, message: "exit_leaves_flag_set", confidence: .medium),
            RuleExample("""
                func refreshFeed() {
                    isRefreshingFeed = true
                    guard let account else { ↓return }
                    api.feed(for: account) { items in
                        self.items = items
                        self.isRefreshingFeed = false
                    }
                }
                """),
            RuleExample("""
                func load() async throws {
                    isLoading = true
                    guard let url else { ↓throw LoadError.missingURL }
                    items = try await api.items(at: url)
                    isLoading = false
                }
                """),
            // The task resets the flag only at its end; cancelled, it returns first, and nothing else resets it.
            RuleExample("""
                @MainActor final class TripModel {
                    var isLoading = false
                    private var loadTask: Task<Void, Never>?
                    func load() {
                        loadTask?.cancel()
                        loadTask = Task { [weak self] in
                            guard let self else { return }
                            isLoading = true
                            do {
                                trip = try await api.trip()
                            } catch is CancellationError {
                                ↓return
                            } catch {
                                self.error = error
                            }
                            isLoading = false
                        }
                    }
                }
                """, message: "exit_leaves_flag_set", confidence: .high),
            // A flag on a nested state value.
            RuleExample("""
                func search() async {
                    searchInfo.isLoading = true
                    guard let query else { ↓return }
                    results = await api.search(query)
                    searchInfo.isLoading = false
                }
                """, message: "exit_leaves_flag_set", confidence: .high),
            // Every other exit marks the load finished; the cancelled one leaves the picker on "Loading…".
            RuleExample("""
                final class RoutePickerModel {
                    var didFinishLoading = false
                    func loadRoutes() async {
                        guard let service else {
                            didFinishLoading = true
                            return
                        }
                        do {
                            routes = try await service.routes()
                            didFinishLoading = true
                        } catch {
                            if error is CancellationError { ↓return }
                            loadError = error.localizedDescription
                            didFinishLoading = true
                        }
                    }
                }
                """, message: "exit_skips_finished_flag", confidence: .medium),
            // The spinner is hidden when the lookup fails, never when it succeeds.
            RuleExample("""
                enum ProfileRouting {
                    static func openProfile(provider: Provider, acct: String) async {
                        provider.coordinator.showLoading()
                        let account = try? await provider.api.lookup(acct)
                        guard let account else {
                            provider.coordinator.hideLoading()
                            return
                        }
                        await open(provider: provider, account: account)
                    ↓}
                }
                """, message: "end_leaves_state_on", notes: ["`provider.coordinator.showLoading()` turns it on here"], confidence: .high),
            RuleExample("""
                func load() async {
                    isLoading = true
                    guard let url else {
                        isLoading = false
                        return
                    }
                    items = await api.items(at: url)
                ↓}
                """, message: "end_leaves_flag_set", confidence: .high),
            // The task hides the spinner (through a method that stops it) only when notes came back.
            RuleExample("""
                final class EpisodeViewController: UIViewController {
                    func loadShowNotes() {
                        loadingIndicator.startAnimating()
                        Task { [weak self] in
                            if let notes = await self?.episode.loadNotes() {
                                self?.showNotesDidLoad(notes)
                            }
                        ↓}
                    }
                    private func showNotesDidLoad(_ notes: String) {
                        loadingIndicator.stopAnimating()
                        webView.loadHTMLString(notes, baseURL: nil)
                    }
                }
                """, message: "closure_leaves_state_on", confidence: .high),
            RuleExample("""
                func refresh() {
                    isRefreshing = true
                    api.fetch { result in
                        if case .success(let items) = result {
                            self.items = items
                            self.isRefreshing = false
                        }
                    ↓}
                }
                """, message: "closure_leaves_flag_set", confidence: .high),
            RuleExample("""
                func load(_ strategy: LoadStrategy) async {
                    if strategy == .background { isRefreshing = true } else { isLoading = true }
                    guard let client else {
                        if strategy == .background { isRefreshing = false }
                        ↓return
                    }
                    posts = await client.posts()
                    if strategy == .background { isRefreshing = false } else { isLoading = false }
                }
                """),
            // The indicator is set from the argument, then the body loads and stops it after: the early return skips that.
            RuleExample("""
                func showHistory(_ isVisible: Bool) async {
                    if isVisible { activityIndicator.startAnimating() } else { activityIndicator.stopAnimating() }
                    guard let note else { ↓return }
                    versions = await loader.versions(of: note)
                    activityIndicator.stopAnimating()
                }
                """, message: "exit_leaves_state_on", confidence: .high),
            // Shown under a parameter, hidden under the same one at the end; the early return skips it.
            RuleExample("""
                func reload(showsProgress: Bool) async {
                    if showsProgress { hud.showLoading() }
                    guard let account else { ↓return }
                    items = await api.items(for: account)
                    if showsProgress { hud.hideLoading() }
                }
                """, message: "exit_leaves_state_on", confidence: .high),
            // Returns a `Bool`, but takes no lock: nothing tests the flag before setting it, and a failed check leaves it set.
            RuleExample("""
                @MainActor final class FormModel {
                    var isSaving = false
                    func startSaving(_ draft: Draft) -> Bool {
                        isSaving = true
                        guard draft.isValid else { ↓return false }
                        store.save(draft)
                        isSaving = false
                        return true
                    }
                }
                """, message: "exit_leaves_flag_set", notes: ["`isSaving` is set to true here"], confidence: .high),
            // The view's success path hands over to a callback instead of dismissing: the view and its flag stay.
            RuleExample("""
                struct AddCategoryView: View {
                    @Environment(\\.dismiss) private var dismiss
                    @State private var isSaving = false
                    @State private var errorMessage: String?
                    let onSaved: () -> Void
                    var body: some View { Button("Save") { Task { await create() } }.disabled(isSaving) }
                    private func create() async {
                        isSaving = true
                        do {
                            try await store.createGroup(name: name)
                            onSaved()
                        } catch {
                            errorMessage = error.localizedDescription
                            isSaving = false
                        }
                    ↓}
                }
                """, message: "end_leaves_flag_set", notes: ["`isSaving` is set to true here"], confidence: .high),
        ],
        nonTriggeringExamples: [
            // The success path dismisses the view whose own `@State` the flag is: the flag goes with it.
            RuleExample("""
                struct AddCategoryView: View {
                    @Environment(\\.dismiss) private var dismiss
                    @State private var isSaving = false
                    @State private var errorMessage: String?
                    var body: some View { Button("Save") { Task { await create() } }.disabled(isSaving) }
                    private func create() async {
                        isSaving = true
                        do {
                            try await store.createGroup(name: name)
                            dismiss()
                        } catch {
                            errorMessage = error.localizedDescription
                            isSaving = false
                        }
                    }
                }
                """),
            // A try-lock: it returns early while the flag is set and sets it for its caller, which resets it.
            RuleExample("""
                @MainActor final class FormModel {
                    var isSaving = false
                    func beginSaving() -> Bool {
                        guard isSaving == false else { return false }
                        isSaving = true
                        return true
                    }
                    func save(_ draft: Draft) async -> Bool {
                        guard beginSaving() else { return false }
                        defer { isSaving = false }
                        return await store.save(draft)
                    }
                }
                """),
            // The method that cancels the task resets the flag the cancelled task leaves set.
            RuleExample("""
                @MainActor final class TripModel {
                    var isLoading = false
                    private var loadTask: Task<Void, Never>?
                    func load() {
                        loadTask?.cancel()
                        loadTask = Task { [weak self] in
                            guard let self else { return }
                            isLoading = true
                            do {
                                trip = try await api.trip()
                            } catch is CancellationError {
                                return
                            } catch {
                                self.error = error
                            }
                            isLoading = false
                        }
                    }
                    func deactivate() {
                        loadTask?.cancel()
                        isLoading = false
                    }
                }
                """),
            // A reducer sets the flag on its `inout` state in one case and resets it in another.
            RuleExample("""
                func reduce(into state: inout State, action: Action) -> Effect {
                    switch action {
                    case .load:
                        state.isLoading = true
                        return .run { send in await send(.loaded(try await api.items())) }
                    case .loaded(let items):
                        state.items = items
                        state.isLoading = false
                        return .none
                    }
                }
                """),
            // A helper marks the load finished on every path of its own.
            RuleExample("""
                final class RoutePickerModel {
                    var didFinishLoading = false
                    func loadRoutes() async {
                        if let cached {
                            apply(cached)
                            return
                        }
                        guard !didFinishLoading else { return }
                        do {
                            apply(try await service.routes())
                        } catch {
                            if error is CancellationError {
                                didFinishLoading = true
                                return
                            }
                            loadError = error.localizedDescription
                            didFinishLoading = true
                        }
                    }
                    func apply(_ routes: [Route]) {
                        self.routes = routes
                        didFinishLoading = true
                    }
                }
                """),
            RuleExample("""
                enum ProfileRouting {
                    static func openProfile(provider: Provider, acct: String) async {
                        provider.coordinator.showLoading()
                        let account = try? await provider.api.lookup(acct)
                        provider.coordinator.hideLoading()
                        guard let account else { return }
                        await open(provider: provider, account: account)
                    }
                }
                """),
            // The completion handler ends the load the function began.
            RuleExample("""
                func load() {
                    isLoading = true
                    guard let url else {
                        isLoading = false
                        return
                    }
                    api.items(at: url) { items in
                        self.items = items
                        self.isLoading = false
                    }
                }
                """),
            // The task hides the spinner on every path; a path that ends because `self` is gone takes it along.
            RuleExample("""
                final class EpisodeViewController: UIViewController {
                    func loadShowNotes() {
                        loadingIndicator.startAnimating()
                        Task { [weak self] in
                            let notes = await self?.episode.loadNotes()
                            self?.showNotesDidLoad(notes ?? "")
                        }
                        api.refresh { [weak self] result in
                            guard let self else { return }
                            if case .failure = result { self.loadingIndicator.stopAnimating(); return }
                            self.loadingIndicator.stopAnimating()
                        }
                    }
                    private func showNotesDidLoad(_ notes: String) {
                        loadingIndicator.stopAnimating()
                    }
                }
                """),
            // The spinner shown here is hidden by the code it hands over to.
            RuleExample("""
                func refresh() {
                    spinner.startAnimating()
                    api.refresh { self.spinner.stopAnimating() }
                }
                """),
            RuleExample("""
                func load(_ strategy: LoadStrategy) async {
                    if strategy == .background { isRefreshing = true } else { isLoading = true }
                    guard let client else {
                        if strategy == .background { isRefreshing = false } else { isLoading = false }
                        return
                    }
                    posts = await client.posts()
                    if strategy == .background { isRefreshing = false } else { isLoading = false }
                }
                """),
            RuleExample("""
                func switchAccount() async {
                    isLoading = true
                    defer { isLoading = false }
                    do {
                        try await session.switchAccount()
                        isLoading = false
                    } catch {
                        errorMessage = error.localizedDescription
                    }
                }
                """),
            RuleExample("""
                func load() async {
                    isLoading = true
                    do {
                        guard let url else { throw LoadError.missingURL }
                        items = try await api.items(at: url)
                    } catch {
                        errorMessage = error.localizedDescription
                    }
                    isLoading = false
                }
                """, message: "exit_leaves_flag_set", notes: ["`isLoading` is set to true here"], confidence: .high),
            RuleExample("""
                func refresh() async throws {
                    isRefreshing = true
                    if let account {
                        items = try? await api.items(for: account)
                        isRefreshing = false
                        return
                    } else {
                        isRefreshing = false
                        return
                    }
                }
                """),
            RuleExample("""
                final class FeedModel {
                    func fetchMore() async {
                        isFetchingMore = true
                        guard let cursor else { finish(); return }
                        items += await api.page(after: cursor)
                        isFetchingMore = false
                    }
                    func finish() { isFetchingMore = false }
                }
                """),
            RuleExample("""
                func loadChapter() async {
                    isLoadingChapter = true
                    guard await reader.hasPages else {
                        await MainActor.run { isLoadingChapter = false }
                        return
                    }
                    isLoadingChapter = false
                }
                """),
            RuleExample("""
                func toggleSync() {
                    isSyncingEnabled = true
                    guard let account else { return }
                    sync(account)
                }
                """),
            RuleExample("""
                func refresh() async throws {
                    isRefreshing = true
                    defer { isRefreshing = false }
                    guard let account else { return }
                    items = try await api.items(for: account)
                }
                """),
            RuleExample("""
                func loadContent() async {
                    guard articleContent == nil else { return }
                    loadingTask?.cancel()
                    isLoading = true
                    let task = Task { [weak self] in
                        guard let self else { return }
                        do {
                            try Task.checkCancellation()
                            articleContent = try await readerService.fetchContent(for: article)
                        } catch is CancellationError {
                        } catch {
                            errorMessage = error.localizedDescription
                        }
                        isLoading = false
                    }
                    loadingTask = task
                    await task.value
                }
                """),
            RuleExample("""
                func save() async {
                    isSaving = true
                    do {
                        try await store.save()
                    } catch {
                        isSaving = false
                        return
                    }
                    isSaving = false
                }
                """),
            // A setter: the indicator follows the argument; start and stop are under opposite conditions.
            RuleExample("""
                func setActivityIndicatorVisible(_ isVisible: Bool) {
                    if isVisible {
                        activityIndicator.startAnimating()
                    } else {
                        activityIndicator.stopAnimating()
                    }
                }
                """),
            // A cell's configuration: a ternary's arms are alternatives, and so are an `if` and its `else`.
            RuleExample("""
                enum LoaderSection {
                    static func configure(cell: LoaderCell, attribute: LoaderAttribute) {
                        attribute.isNoResult ? cell.spinner.stopAnimating() : cell.spinner.startAnimating()
                        cell.emptyStatusLabel.isHidden = !attribute.isNoResult
                    }
                }
                """),
            RuleExample("""
                final class RequestCell: UITableViewCell {
                    func configure(with request: FollowRequest) {
                        let state = request.state
                        if state == .accepting {
                            acceptIndicator.startAnimating()
                            acceptButton.tintColor = .clear
                        } else {
                            acceptIndicator.stopAnimating()
                            acceptButton.tintColor = .white
                        }
                        guard state == .accepted else { return }
                        acceptButton.isEnabled = false
                    }
                }
                """),
            // The same parameter decides both: shown and hidden together, or neither.
            RuleExample("""
                func reload(showsProgress: Bool) async {
                    if showsProgress { hud.showLoading() }
                    guard let account else {
                        if showsProgress { hud.hideLoading() }
                        return
                    }
                    items = await api.items(for: account)
                    if showsProgress { hud.hideLoading() }
                }
                """),
        ],
        knownLimitations: """
            Opt-in by its figure on 25 apps nobody tuned on (docs/precision.md, round of issue 21): 1 of 12 findings over the round was right (the flag reset by a task started before the return, a `defer`, or the caller's `catch`). \
            Paths are those of the function's control-flow graph (a `throw` that its own `catch` handles does not \
            leave it; a `defer` runs on every exit after it); a reset in a closure that runs at once \
            (`MainActor.run`, `withAnimation`, `performAndWait`) counts, and so does a call of a method of the same type \
            that resets the flag on every path (its function summary). A reset only inside a completion handler does \
            not count for an exit before it. Two `if`s on the same condition over \
            parameters only (which cannot change in between) take the same side: the flag set under one side and an \
            exit under the other is no path. The catch-all check asks the graph too (a `defer` reset covers it). \
            A call of `dismiss()` (an `@Environment(\\.dismiss)` action, or `presentationMode.wrappedValue.dismiss()`) counts as \
            a reset of a flag that is the same view's own `@State`: the presentation and its state go. \
            A try-lock is not reported: a synchronous function returning `Bool` that returns early while the flag is set \
            (`guard isSaving == false else { return false }`) and then sets it, for its caller to reset. \
            A function that falls off its end \
            without a reset is not reported (the reset may come from elsewhere). One finding per flag and function: \
            the first exit that skips the reset. The fix (unsafe: the flag now turns `false` when the function \
            returns, after any code that followed the old reset) adds `defer { flag = false }` right after the \
            assignment, only when that assignment is a statement of the function body itself, not nested in an \
            `if` or a loop. The flag is found by its name: when the function never resets it itself, the name is all \
            that says it is loading state, and the finding has medium confidence (shown with `--confidence medium`). \
            In a `Task { }` closure, an exit that leaves the flag set is not reported when another method of the type \
            resets it (the code that cancels the task may end the state; which method cancels it is not followed). \
            The end of a body is reported only when the body itself turns the state off on another path and no \
            closure in it (a completion handler) does. A finished flag's findings have medium confidence: such a flag is as \
            often a memo or a run-once latch (a failed load is retried by the next call) as what takes a loading screen \
            away. A finished flag is on from the function's entry: an exit under a \
            test of the flag itself (`guard !didFinishLoading else { return }`) is not reported. A reset counts as the body's own only where some path reaches it from \
            where the state is turned on: start and stop under opposite conditions (`if visible { start } else { stop }`, \
            the two arms of a ternary) make the function a setter of the state, not a load. A pair of calls is \
            known by its verbs and words only (`show`/`hide`, `start`/`stop`, `begin`/`end` with `Loading`, `Progress`, \
            `HUD`, `Activity`, `Animating`, `Refreshing`, ...), matched by the receiver's text; a helper called on the \
            way is not known to hide the progress. A flag of a parameter or a local (`state.isLoading` on a reducer's \
            `inout` state) is not followed. Progress counters and per-item "fetched" sets are not loading flags here.
            """,
        fixSafety: .unsafe,
        messages: [exitLeavesFlagSet, catchLeavesFlagSet, endLeavesFlagSet, exitSkipsFinishedFlag, endSkipsFinishedFlag, exitLeavesStateOn, endLeavesStateOn,
                   closureLeavesFlagSet, closureLeavesStateOn])
    static let exitLeavesFlagSet = RuleMessage("exit_leaves_flag_set", "this exit leaves `{flag}` true (set on line {setLine}); add `defer { {flag} = false }` right after setting it")
    static let catchLeavesFlagSet = RuleMessage("catch_leaves_flag_set", "when this catch runs, `{flag}` stays true (set on line {setLine}): only the `do` resets it; add `defer { {flag} = false }` right after setting it")

    static let endLeavesFlagSet = RuleMessage("end_leaves_flag_set", "this path reaches the end with `{flag}` still true (set on line {setLine}) while other paths reset it; add `defer { {flag} = false }` right after setting it")
    static let closureLeavesFlagSet = RuleMessage("closure_leaves_flag_set", "this closure can end on a path that leaves `{flag}` true (set on line {setLine}), while its other paths reset it")
    static let closureLeavesStateOn = RuleMessage("closure_leaves_state_on", "this closure can end on a path without `{off}`, which its other paths run after `{state}` (line {setLine}): the progress stays shown")
    static let exitSkipsFinishedFlag = RuleMessage("exit_skips_finished_flag", "this exit skips `{off}`, which the other exits run: the load is never shown as finished")
    static let endSkipsFinishedFlag = RuleMessage("end_skips_finished_flag", "this path reaches the end without `{off}`, which the other exits run: the load is never shown as finished")
    static let exitLeavesStateOn = RuleMessage("exit_leaves_state_on", "this exit skips `{off}`, which other paths run after `{state}` (line {setLine}): the progress stays shown")
    static let endLeavesStateOn = RuleMessage("end_leaves_state_on", "this path reaches the end without `{off}`, which other paths run after `{state}` (line {setLine}): the progress stays shown")

    public static let nodeKinds: Set<SyntaxKind> = [.sequenceExpr, .functionCallExpr, .functionDecl, .closureExpr]

    static let defaultFlags = ["isLoading", "isFetching", "isRefreshing", "isSaving", "isSyncing"]
    static let defaultFinishedFlags = ["didFinishLoading", "hasFinishedLoading", "isFinishedLoading", "hasLoaded", "didLoad", "isLoaded"]
    private let names: LoadingStateNames
    /// Functions and task closures seen turning loading state on (or marking a load finished) during the walk:
    /// only those are analysed, on exit.
    private var candidates: Set<SyntaxIdentifier> = []

    public init(options: RuleOptions) {
        names = LoadingStateNames(flags: Set(options.strings("flags", default: Self.defaultFlags)),
                                  finishedFlags: Set(options.strings("finished_flags", default: Self.defaultFinishedFlags)))
    }

    public func enter(_ node: Syntax, context: FileContext) {
        guard let mark = names.mark(of: node, excluded: []), mark.turnsOn || mark.state.kind == .finishedFlag,
              let owner = Self.owner(in: context.scope) else { return }
        candidates.insert(owner)
    }

    /// Calls in the body that dismiss the view whose own `@State` the flag is: `dismiss()` of an
    /// `@Environment(\.dismiss)` property (SwiftUI's `DismissAction`), or `presentationMode.wrappedValue.dismiss()`.
    /// The presentation goes, and the view's state with it: nothing is left showing the flag.
    static func dismissCalls(in body: Syntax, owner: Syntax, flag: String) -> [Syntax] {
        var current = owner.parent
        while let node = current, !node.is(StructDeclSyntax.self) { current = node.parent }
        guard let view = current?.as(StructDeclSyntax.self) else { return [] }
        var dismissActions: Set<String> = []
        var presentationModes: Set<String> = []
        var flagIsState = false
        for member in view.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let names = variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
            if names.contains(flag), SyntaxFacts.hasAttribute("State", variable.attributes) { flagIsState = true }
            for attribute in variable.attributes {
                guard let attribute = attribute.as(AttributeSyntax.self), attribute.attributeName.trimmedText == "Environment",
                      let argument = attribute.arguments?.trimmedDescription else { continue }
                if argument == "\\.dismiss" { dismissActions.formUnion(names) }
                if argument == "\\.presentationMode" { presentationModes.formUnion(names) }
            }
        }
        guard flagIsState, !dismissActions.isEmpty || !presentationModes.isEmpty else { return [] }
        var calls: [Syntax] = []
        BodyScanner.scan(body) { node in
            guard let call = node.as(FunctionCallExprSyntax.self) else { return }
            let callee = call.calledExpression
            if let reference = callee.as(DeclReferenceExprSyntax.self), dismissActions.contains(reference.baseName.text) {
                calls.append(node)
            } else if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base,
                      member.declName.baseName.text == "dismiss", let path = SyntaxFacts.memberPath(base),
                      (path.root == "self" ? Array(path.members.dropFirst()) : path.members) == ["wrappedValue"],
                      presentationModes.contains(path.root == "self" ? path.members.first ?? "" : path.root) {
                calls.append(node)
            } else if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base, SyntaxFacts.isSelf(base),
                      dismissActions.contains(member.declName.baseName.text) {
                calls.append(node)
            }
        }
        return calls
    }

    /// A synchronous function returning `Bool` that returns early while the flag is set (`guard !flag`, `guard flag ==
    /// false`) among its first statements, and sets it itself: it takes the flag for its caller and says whether it did.
    static func isTryLock(_ owner: Syntax, flag: String, parameters: Set<String>) -> Bool {
        guard let function = owner.as(FunctionDeclSyntax.self), let body = function.body,
              function.signature.effectSpecifiers?.asyncSpecifier == nil,
              function.signature.returnClause?.type.trimmedText == "Bool" else { return false }
        let locals = parameters.union(FlowFacts.localNames(in: body))
        return body.statements.prefix { !$0.item.is(ReturnStmtSyntax.self) }.contains { item in
            guard let conditions = SyntaxFacts.earlyExitConditions(Syntax(item.item))
                    ?? item.item.as(ExpressionStmtSyntax.self).flatMap({ SyntaxFacts.earlyExitConditions(Syntax($0.expression)) })
            else { return false }
            let negated = item.item.is(GuardStmtSyntax.self)
            return conditions.contains { condition in
                guard let expression = condition.condition.as(ExprSyntax.self) else { return false }
                // A guard passes while the flag is unset; an `if ... { return }` leaves while it is set.
                return negated ? FunctionSummaryCollector.unsetFlag(expression, locals: locals) == flag
                    : FlowFacts.selfProperty(expression, locals: locals) == flag
            }
        }
    }

    /// The body a mark belongs to: the function, or a `Task { }` closure, whose exits must turn the state off.
    /// A mark in any other closure (a completion handler) is not followed.
    static func owner(in scope: ScopeStack) -> SyntaxIdentifier? {
        if let closure = scope.currentClosure {
            switch closure.kind {
            case .task, .detachedTask: return closure.node.id
            default: return nil
            }
        }
        guard let function = scope.currentFunction, function.node.is(FunctionDeclSyntax.self) else { return nil }
        return function.node.id
    }

    public func exit(_ node: Syntax, context: FileContext) {
        guard candidates.contains(node.id) else { return }
        if let function = node.as(FunctionDeclSyntax.self), let body = function.body {
            let parameters = Set(function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
            analyse(owner: node, body: Syntax(body), end: body.rightBrace, parameters: parameters, caller: nil, context: context)
        } else if let closure = node.as(ClosureExprSyntax.self) {
            // The task's code runs after its function returned: a reset elsewhere in the type (the method that
            // cancels the task) may be what ends the state the task leaves on when cancelled.
            let caller = context.scope.currentFunction.map { FunctionKey(typeName: context.scope.currentType?.qualifiedName, name: $0.name) }
            analyse(owner: node, body: Syntax(closure.statements), end: closure.rightBrace, parameters: [], caller: caller, context: context)
        }
    }

    private func analyse(owner: Syntax, body: Syntax, end: TokenSyntax, parameters: Set<String>, caller: FunctionKey?, context: FileContext) {
        guard let built = context.controlFlowGraph(of: owner) else { return }
        let excluded = parameters.union(FlowFacts.localNames(in: body))
        var marks: [LoadingMark] = []
        var exits: [Syntax] = []
        BodyScanner.scan(body) { node in
            if let mark = self.names.mark(of: node, excluded: excluded) {
                marks.append(mark)
            } else if let call = node.as(FunctionCallExprSyntax.self), Self.runsClosureNow(call) {
                // `await MainActor.run { isLoading = false }`, `withAnimation { ... }`: the closure runs before the
                // call returns, so what it turns off counts where the call stands.
                for closure in SyntaxFacts.closures(of: call) {
                    BodyScanner.scan(closure.statements) { inner in
                        if let mark = self.names.mark(of: inner, excluded: excluded), !mark.turnsOn {
                            marks.append(LoadingMark(state: mark.state, turnsOn: false, node: node))
                        }
                    }
                }
            } else if node.is(ReturnStmtSyntax.self) || node.is(ThrowStmtSyntax.self)
                        || node.as(TryExprSyntax.self)?.questionOrExclamationMark == nil && node.is(TryExprSyntax.self) {
                exits.append(node)
            }
        }
        let typeName = context.scope.currentType?.qualifiedName
        let helperCalls = FlowFacts.selfMethodCalls(in: body)
        let branches = Self.correlatedBranches(in: body, parameters: parameters)
        var states: [LoadingState] = []
        for mark in marks where !states.contains(mark.state) { states.append(mark.state) }
        for state in states {
            // A try-lock (`func beginSaving() -> Bool { guard isSaving == false else { return false }; isSaving = true;
            // return true }`): setting the flag is what it does for its caller, whose own exits must reset it.
            if case .flag = state.kind, Self.isTryLock(owner, flag: state.name, parameters: parameters) { continue }
            let ons = marks.filter { $0.state == state && $0.turnsOn }.map(\.node)
            let offs = marks.filter { $0.state == state && !$0.turnsOn }.map(\.node)
            // Where the state is turned on: its marks, or, for a finished flag nothing sets `false`, the entry
            // (the load is on until the flag says it ended). A pair of calls counts only when the body itself
            // turns it off on some path: the name of a call says less than a flag's.
            let starts: [Int]
            let setNode: Syntax
            switch state.kind {
            case .flag:
                guard let first = ons.first else { continue }
                (starts, setNode) = (ons.flatMap { built.nodes(for: $0) }, first)
            case .finishedFlag:
                guard !offs.isEmpty else { continue }
                (starts, setNode) = ons.first.map { _ in (ons.flatMap { built.nodes(for: $0) }, ons[0]) } ?? ([built.graph.entry], owner)
            case .shownBy:
                guard let first = ons.first else { continue }
                (starts, setNode) = (ons.flatMap { built.nodes(for: $0) }, first)
            }
            let setLine = context.location(of: setNode).line
            // A view's own `@State` flag ends with the view: dismissing it (`dismiss()`) on the way out turns it off.
            let dismissals = state.kind == .flag ? Self.dismissCalls(in: body, owner: owner, flag: state.name) : []
            let resetNodes = Set((offs + dismissals).flatMap { built.nodes(for: $0) })
            // Two `if`s on one unchanging condition take the same side, for a pair of calls as for a flag.
            let question = UnresetExit(graph: built.graph, starts: starts, resets: resetNodes, branches: state.kind == .finishedFlag ? .init(groups: []) : branches)
            // Only a reset that some path reaches from where the state is turned on shows the body ends what it
            // began (`Self.resetsAfterTurningOn`): one under the opposite condition (`if visible { start } else { stop }`,
            // a ternary's other arm) or before the set makes the function a setter of the state, not a load.
            let endsWhatItBegins = state.kind == .finishedFlag ? !offs.isEmpty
                : Self.resetsAfterTurningOn(starts: starts, resets: resetNodes, in: built.graph, branches: question.branches)
            // The state's name is all that says it is loading state; the body's own reset on another path proves it
            // is meant to be turned off again. Without one, the finding has medium confidence.
            // A finished flag (`isLoaded`, `didLoad`) is as often a memo or a run-once latch that a failed load simply
            // leaves for the next call to retry, as the flag that takes a "Loading…" screen away: medium.
            let confidence: Confidence = endsWhatItBegins && state.kind != .finishedFlag ? .high : .medium
            let (message, arguments): (RuleMessage, [String: String])
            switch state.kind {
            case .flag: (message, arguments) = (Self.exitLeavesFlagSet, ["flag": state.name, "setLine": String(setLine)])
            case .finishedFlag: (message, arguments) = (Self.exitSkipsFinishedFlag, ["off": state.turnOff])
            case .shownBy: (message, arguments) = (Self.exitLeavesStateOn, ["state": state.name, "off": state.turnOff, "setLine": String(setLine)])
            }
            let notes = state.kind == .flag ? [context.note("`\(state.name)` is set to true here", at: setNode)]
                : setNode == owner ? [] : [context.note("`\(state.name)` turns it on here", at: setNode)]
            // A flag reset by code outside the task: the task's exits are not the only way back.
            let resetOutside: IndexCondition? = caller.flatMap { caller in
                guard let typeName, case .flag = state.kind else { return nil }
                return .otherFunctionResets(typeName: typeName, flag: state.name, except: caller)
            }
            let helpers = Dictionary(grouping: helperCalls.flatMap { call in built.nodes(for: call.node).map { (call.name, $0) } }, by: \.0)
                .mapValues { Set($0.map(\.1)) }
            // A method of `self` called on the way that turns the state off on every path of its own turns it off
            // here. Which helpers do is known only once the index is built; the graph is not kept, so the sets of
            // helpers that would close every leaking path are worked out now, as data.
            func report(at node: some SyntaxProtocol, _ message: RuleMessage, lowered: Bool = false, leaks: (Set<Int>) -> Bool) {
                let confidence: Confidence = lowered ? .medium : confidence
                var conditions: [IndexCondition] = resetOutside.map { [.not($0)] } ?? []
                let allHelperNodes = helpers.values.reduce(into: Set<Int>()) { $0.formUnion($1) }
                if !helpers.isEmpty, !leaks(allHelperNodes), let helperFact = Self.helperFact(for: state) {
                    let closing = Self.closingHelperSets(helpers, leaks: leaks)
                    conditions.append(.not(.any(closing.map { names in .all(names.map { helperFact([FunctionKey(typeName: typeName, name: $0)]) }) })))
                }
                if conditions.isEmpty {
                    context.report(node, message, arguments, notes: notes, confidence: confidence)
                } else {
                    context.report(node, message, arguments, when: conditions.count == 1 ? conditions[0] : .all(conditions), notes: notes, confidence: confidence)
                }
            }
            // Progress the body shows and never hides itself is followed only into the closures it hands it to.
            if case .shownBy = state.kind, !endsWhatItBegins {
                reportHandOvers(of: state, in: body, typeName: typeName, arguments: arguments, notes: notes, context: context)
                continue
            }
            // The first exit, in source order, that some path from the set reaches and leaves by with no reset;
            // an exit under a test of the state itself (`guard !isLoading else { return }`) is the state's own logic.
            // An exit that leaks whatever the helpers on the way do comes first: one a helper may close is reported
            // only if the index says it does not.
            let leaking = exits.filter { exit in
                !Self.isGuarded(exit, by: state, in: body) && question.leaks(through: built.nodes(for: exit), avoiding: [])
            }
            let allHelperNodes = helpers.values.reduce(into: Set<Int>()) { $0.formUnion($1) }
            if let exit = leaking.first(where: { question.leaks(through: built.nodes(for: $0), avoiding: allHelperNodes) }) ?? leaking.first {
                let exitNodes = built.nodes(for: exit)
                // An exit taken when this run's token is stale (`if thisSearch <= receivedSearch { return }`, the token
                // read from a stored property before the first `await`): a newer run has started, and it owns the flag,
                // which its own end resets. The leak lasts only until then: medium.
                let superseded = Self.exitsOnStaleToken(exit, in: body, excluded: excluded)
                report(at: exit, message, lowered: superseded) { question.leaks(through: exitNodes, avoiding: $0) }
                continue
            }
            if case .flag = state.kind, let branch = failureBranch(of: state.name, ons: ons, offs: offs, resetNodes: resetNodes,
                                                                   in: body, built: built) {
                let helpers = FlowFacts.selfMethodCalls(in: branch.clause.body).map(\.name)
                    + FlowFacts.selfMethodCalls(in: body).filter { $0.node.position > branch.statement.endPosition }.map(\.name)
                var condition: IndexCondition = .not(.someResets(helpers.map { FunctionKey(typeName: typeName, name: $0) }, flag: state.name))
                if let resetOutside { condition = .all([condition, .not(resetOutside)]) }
                context.report(branch.clause.catchKeyword, Self.catchLeavesFlagSet, arguments, when: condition, notes: notes)
                continue
            }
            // The end of the body, reached on some path with the state still on, when the body turns it off on other
            // paths itself and no closure in it (a completion handler, a task) turns it off later.
            if endsWhatItBegins, !Self.closuresTurnOff(state, in: body, names: names, excluded: excluded), question.leaksAtEnd(avoiding: []) {
                let endMessage: RuleMessage
                switch state.kind {
                case .flag: endMessage = Self.endLeavesFlagSet
                case .finishedFlag: endMessage = Self.endSkipsFinishedFlag
                case .shownBy: endMessage = Self.endLeavesStateOn
                }
                report(at: end, endMessage) { question.leaksAtEnd(avoiding: $0) }
                continue
            }
            guard !ons.isEmpty, state.kind != .finishedFlag else { continue }
            reportHandOvers(of: state, in: body, typeName: typeName, arguments: arguments, notes: notes, context: context)
        }
    }

    /// Loading state the body turns on and hands to a closure that runs later (a task, a completion handler) to turn
    /// off: a path through that closure that ends without turning it off leaves it on. The closure must turn it off
    /// on some other path itself, directly or through a method of `self` (which the index must confirm); a path that
    /// ends because `self` is gone (`guard let self else { return }`) takes the state with it.
    private func reportHandOvers(of state: LoadingState, in body: Syntax, typeName: String?, arguments: [String: String],
                                 notes: [FindingNote], context: FileContext) {
        for closure in Self.closuresRunLater(in: body) {
            guard let built = context.controlFlowGraph(of: closure) else { continue }
            var direct: [Syntax] = []
            var helpers: [(name: String, node: Syntax)] = []
            BodyScanner.scan(closure.statements) { node in
                if let mark = self.names.mark(of: node, excluded: []), mark.state == state, !mark.turnsOn {
                    direct.append(node)
                } else if let call = node.as(FunctionCallExprSyntax.self), let name = Self.selfMethodName(call) {
                    helpers.append((name, node))
                }
            }
            let graph = built.graph
            let directNodes = Set(direct.flatMap { built.nodes(for: $0) })
            let helperNodes = Set(helpers.flatMap { built.nodes(for: $0.node) })
            let selfGone = Set(Self.selfGoneExits(in: closure).flatMap { built.nodes(for: $0) })
            let avoided = directNodes.union(helperNodes).union(selfGone)
            let ends = graph.reachable(from: graph.entry, avoiding: { avoided.contains($0.id) })
            guard ends.contains(graph.exit) || ends.contains(graph.errorExit) else { continue }
            let keys = helpers.map { FunctionKey(typeName: typeName, name: $0.name) }
            let message = state.kind == .flag ? Self.closureLeavesFlagSet : Self.closureLeavesStateOn
            if !directNodes.isEmpty {
                context.report(closure.rightBrace, message, arguments, notes: notes)
            } else if !keys.isEmpty {
                // Only a helper turns it off: the closure hands the state over only if the index says the helper does.
                let turnsOff: IndexCondition
                switch state.kind {
                case .flag: turnsOff = .someResets(keys, flag: state.name)
                case .shownBy(let off): turnsOff = .someCalls(keys, method: Self.methodName(off))
                case .finishedFlag: continue
                }
                context.report(closure.rightBrace, message, arguments, when: turnsOff, notes: notes)
            }
        }
    }

    /// The closures of the body (not nested in another) that run after it: passed to a call that does not run them
    /// at once (`MainActor.run`, `withAnimation`), or given to `Task { }`.
    static func closuresRunLater(in body: Syntax) -> [ClosureExprSyntax] {
        var found: [ClosureExprSyntax] = []
        var stack = [body]
        while let node = stack.popLast() {
            if let closure = node.as(ClosureExprSyntax.self) {
                let call = closure.parent?.as(FunctionCallExprSyntax.self)
                    ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
                    ?? closure.parent?.parent?.as(FunctionCallExprSyntax.self)
                if let call, !runsClosureNow(call) { found.append(closure) }
                continue
            }
            stack += node.children(viewMode: .sourceAccurate)
        }
        return found.sorted { $0.position < $1.position }
    }

    /// `load()`, `self.load()`, `self?.load()`: a method of `self`.
    static func selfMethodName(_ call: FunctionCallExprSyntax) -> String? {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self), reference.baseName.text.startsLowercase {
            return reference.baseName.text
        }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        let receiver = base.as(OptionalChainingExprSyntax.self)?.expression ?? base
        return SyntaxFacts.isSelf(receiver) ? member.declName.baseName.text : nil
    }

    /// `hideLoading` of `coordinator.hideLoading()`.
    static func methodName(_ call: String) -> String {
        let withoutArguments = call.hasSuffix("()") ? String(call.dropLast(2)) : call
        return withoutArguments.split(separator: ".").last.map(String.init) ?? withoutArguments
    }

    /// The `return`s and `throw`s in the `else` of a `guard let self` (or `guard let strongSelf = self`) in the closure.
    static func selfGoneExits(in closure: ClosureExprSyntax) -> [Syntax] {
        var exits: [Syntax] = []
        BodyScanner.scan(closure.statements) { node in
            guard let guardStatement = node.as(GuardStmtSyntax.self), guardStatement.conditions.contains(where: { element in
                guard let binding = element.condition.as(OptionalBindingConditionSyntax.self) else { return false }
                if let value = binding.initializer?.value { return SyntaxFacts.isSelf(value) }
                return binding.pattern.trimmedDescription == "self"
            }) else { return }
            BodyScanner.scan(guardStatement.body) { inner in
                if inner.is(ReturnStmtSyntax.self) || inner.is(ThrowStmtSyntax.self) { exits.append(inner) }
            }
        }
        return exits
    }

    /// What the index must say of a helper for its call to turn the state off: it resets the flag, or sets the
    /// finished flag, on every path of its own. Nothing is known of a helper's calls that hide progress.
    static func helperFact(for state: LoadingState) -> (([FunctionKey]) -> IndexCondition)? {
        switch state.kind {
        case .flag: return { .someResetsOnEveryPath($0, flag: state.name) }
        case .finishedFlag: return { .someSetsTrueOnEveryPath($0, flag: state.name) }
        case .shownBy: return nil
        }
    }

    /// A failure branch: the `do` resets the flag when the work succeeds, its catch-all does not, and nothing after
    /// the `do` statement resets it either. A completion handler after the `do` that resets the flag may cover the
    /// failure: its closure counts as a reset where it stands.
    private func failureBranch(of flag: String, ons: [Syntax], offs: [Syntax], resetNodes: Set<Int>, in body: Syntax,
                               built: BuiltControlFlowGraph) -> (statement: DoStmtSyntax, clause: CatchClauseSyntax)? {
        let closureResets = Self.closuresResetting(flag, in: body).flatMap { built.nodes(for: $0) }
        let failure = UnresetExit(graph: built.graph, starts: ons.flatMap { built.nodes(for: $0) }, resets: resetNodes.union(closureResets))
        guard let first = ons.first else { return nil }
        return Self.failureBranchWithoutReset(flag, from: first, resets: offs, in: body,
                                              leavesSet: { failure.leavesSet(through: built.nodes(for: $0)) })
    }

    /// Whether the exit stands under an `if` or `guard` whose condition reads the state's flag.
    /// Whether the exit is under a test (an `if` or a `guard`) after the body's first `await` that reads both a local
    /// bound before that `await` straight from a stored property of `self` (`let thisSearch = searchIndex`: the run's
    /// token) and a stored property of `self` (the current value it is compared with): a generation check.
    static func exitsOnStaleToken(_ exit: Syntax, in body: Syntax, excluded: Set<String>) -> Bool {
        var firstAwait: AbsolutePosition?
        BodyScanner.scan(body) { node in
            if firstAwait == nil, node.is(AwaitExprSyntax.self) { firstAwait = node.position }
        }
        guard let firstAwait else { return false }
        var tokens: Set<String> = []
        BodyScanner.scan(body) { node in
            guard node.endPosition <= firstAwait, let binding = node.as(PatternBindingSyntax.self),
                  let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let value = binding.initializer?.value,
                  FlowFacts.selfProperty(value, locals: excluded.subtracting([name])) != nil else { return }
            tokens.insert(name)
        }
        guard !tokens.isEmpty else { return false }
        var current = exit.parent
        while let node = current, node.id != body.id {
            if let conditions = node.as(GuardStmtSyntax.self)?.conditions ?? node.as(IfExprSyntax.self)?.conditions,
               conditions.position > firstAwait {
                let names = conditions.tokens(viewMode: .sourceAccurate).map(\.text)
                let readsToken = names.contains(where: tokens.contains)
                let readsState = !CheckThenActAcrossAwaitRule.propertiesRead(conditions, locals: excluded).isEmpty
                if readsToken && readsState { return true }
            }
            current = node.parent
        }
        return false
    }

    static func isGuarded(_ exit: Syntax, by state: LoadingState, in body: Syntax) -> Bool {
        guard state.kind == .flag || state.kind == .finishedFlag, let last = state.name.split(separator: ".").last else { return false }
        var current = exit.parent
        while let node = current, node.id != body.id {
            let conditions = node.as(GuardStmtSyntax.self)?.conditions ?? node.as(IfExprSyntax.self)?.conditions
            if let conditions, conditions.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == last }) { return true }
            current = node.parent
        }
        return false
    }

    /// Whether a closure in the body (not nested in another) turns the state off: it runs later and may end it.
    static func closuresTurnOff(_ state: LoadingState, in body: Syntax, names: LoadingStateNames, excluded: Set<String>) -> Bool {
        var stack = [body]
        while let node = stack.popLast() {
            if let closure = node.as(ClosureExprSyntax.self) {
                var found = false
                BodyScanner.scan(closure.statements) { inner in
                    if let mark = names.mark(of: inner, excluded: excluded), mark.state == state, !mark.turnsOn { found = true }
                }
                if found || (state.kind == .flag && mentionsReset(state.name, in: node)) { return true }
                continue
            }
            stack += node.children(viewMode: .sourceAccurate)
        }
        return false
    }

    /// "From where the flag is set, does some path reach this exit and leave the function by it (a `return` to
    /// the exit, a `throw` or `try` whose error leaves, running the `defer`s on the way) with no reset?"
    /// Plain values: a pending finding asks it again once the index says which helper calls reset the flag.
    /// The smallest sets of helper names whose calls, if each helper resets the flag on every path of its own,
    /// leave no path from the set to the exit without a reset (`leaks(nodes)`: a path avoids those nodes).
    /// Up to eight helpers every subset is tried; beyond that, each helper alone and all of them together.
    static func closingHelperSets(_ helpers: [String: Set<Int>], leaks: (Set<Int>) -> Bool) -> [[String]] {
        let names = helpers.keys.sorted()
        let candidates: [[String]]
        if names.count <= 8 {
            candidates = (1..<(1 << names.count)).map { mask in names.indices.filter { mask & (1 << $0) != 0 }.map { names[$0] } }
                .sorted { $0.count < $1.count }
        } else {
            candidates = names.map { [$0] } + [names]
        }
        var closing: [[String]] = []
        for candidate in candidates where !closing.contains(where: { Set($0).isSubset(of: candidate) }) {
            let nodes = candidate.reduce(into: Set<Int>()) { $0.formUnion(helpers[$1] ?? []) }
            if !leaks(nodes) { closing.append(candidate) }
        }
        return closing
    }

    /// Whether some path from where the state is turned on reaches a reset (keeping to one side of each correlated
    /// branch group): a reset only under the opposite condition, or only before the state is turned on, is no
    /// reset of what the body began.
    static func resetsAfterTurningOn(starts: [Int], resets: Set<Int>, in graph: ControlFlowGraph, branches: CorrelatedBranches) -> Bool {
        guard !resets.isEmpty else { return false }
        if branches.groups.isEmpty {
            return starts.contains { start in !graph.reachable(from: start).isDisjoint(with: resets) }
        }
        return graph.reachable(from: starts.map { branches.start(at: graph.nodes[$0]) }, consistentWith: branches)
            .contains { resets.contains($0.node) }
    }

    /// `if` statements of the body on the same condition over the function's parameters only (which cannot
    /// change): the flag set on one side and the exit on the other side of the same condition is no path.
    static func correlatedBranches(in body: Syntax, parameters: Set<String>) -> CorrelatedBranches {
        var byCondition: [String: [CorrelatedBranches.Branch]] = [:]
        BodyScanner.scan(body) { node in
            guard let ifExpression = node.as(IfExprSyntax.self), ifExpression.conditions.count == 1,
                  let only = ifExpression.conditions.first, case .expression(let condition) = only.condition else { return }
            // Every name the condition reads is a parameter (members after a dot are not names it reads).
            let names = condition.tokens(viewMode: .sourceAccurate).filter { token in
                if case .identifier = token.tokenKind { return token.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period }
                return token.tokenKind == .keyword(.self)
            }
            guard !names.isEmpty, names.allSatisfy({ parameters.contains($0.text) }) else { return }
            let then = ifExpression.body.positionAfterSkippingLeadingTrivia.utf8Offset..<ifExpression.body.endPositionBeforeTrailingTrivia.utf8Offset
            let otherwise = ifExpression.elseBody.map { $0.positionAfterSkippingLeadingTrivia.utf8Offset..<$0.endPositionBeforeTrailingTrivia.utf8Offset }
            let conditionRange = condition.positionAfterSkippingLeadingTrivia.utf8Offset..<condition.endPositionBeforeTrailingTrivia.utf8Offset
            byCondition[condition.trimmedDescription, default: []].append(.init(condition: conditionRange, then: then, otherwise: otherwise))
        }
        return CorrelatedBranches(groups: byCondition.keys.sorted().compactMap { key in
            byCondition[key].flatMap { $0.count >= 2 ? $0 : nil }
        }.prefix(4).map { $0 })
    }

    struct UnresetExit: Sendable {
        let graph: ControlFlowGraph
        let starts: [Int]
        let resets: Set<Int>
        var branches = CorrelatedBranches(groups: [])

        /// From the set, some path enters the catch clause (`clauseNodes`, its entry) and goes on from it to the
        /// function's normal end, with no reset on the way (a `defer`'s reset is on every such path).
        func leavesSet(through clauseNodes: [Int]) -> Bool {
            let avoiding = { (node: ControlFlowGraph.Node) in resets.contains(node.id) }
            let reached = starts.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: avoiding)) }
            return clauseNodes.contains { clause in
                reached.contains(clause) && graph.reachable(from: clause, avoiding: avoiding).contains(graph.exit)
            }
        }

        /// `leaks` along the paths that keep to one side of each correlated branch group (`branches`).
        func leaksOnConsistentPaths(through exitNodes: [Int], avoided: Set<Int>) -> Bool {
            let avoiding = { (node: ControlFlowGraph.Node) in avoided.contains(node.id) }
            let reached = graph.reachable(from: starts.map { branches.start(at: graph.nodes[$0]) }, consistentWith: branches, avoiding: avoiding)
            return exitNodes.contains { exit in
                let atExit = reached.filter { $0.node == exit }
                switch graph.nodes[exit].kind {
                case .returnStatement:
                    return graph.reachable(from: Array(atExit), consistentWith: branches, avoiding: avoiding).contains { $0.node == graph.exit }
                default:
                    return atExit.contains { state in
                        graph.successors[exit].contains { edge in
                            guard edge.kind == .throwOut || edge.kind == .cancellation, !avoided.contains(edge.to),
                                  let sides = branches.enter(graph.nodes[edge.to], from: graph.nodes[exit], with: state.sides) else { return false }
                            return graph.reachable(from: [.init(node: edge.to, sides: sides)], consistentWith: branches, avoiding: avoiding,
                                                   following: { $0 != .throwToCatch }).contains { $0.node == graph.errorExit }
                        }
                    }
                }
            }
        }

        /// Some path from the set falls off the end of the body (reaches its exit from a node that is no `return`)
        /// with no reset on the way.
        func leaksAtEnd(avoiding more: Set<Int>) -> Bool {
            let avoided = resets.union(more)
            let reached: Set<Int>
            if branches.groups.isEmpty {
                reached = starts.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: { avoided.contains($0.id) })) }
            } else {
                reached = Set(graph.reachable(from: starts.map { branches.start(at: graph.nodes[$0]) }, consistentWith: branches,
                                              avoiding: { avoided.contains($0.id) }).map(\.node))
            }
            return graph.predecessors[graph.exit].contains { edge in
                edge.kind == .normal && reached.contains(edge.from) && !avoided.contains(edge.from)
                    && graph.nodes[edge.from].kind != .returnStatement
            }
        }

        func leaks(through exitNodes: [Int], avoiding more: Set<Int>) -> Bool {
            let avoided = resets.union(more)
            if !branches.groups.isEmpty { return leaksOnConsistentPaths(through: exitNodes, avoided: avoided) }
            let reached = starts.reduce(into: Set<Int>()) { $0.formUnion(graph.reachable(from: $1, avoiding: { avoided.contains($0.id) })) }
            return exitNodes.contains { exit in
                guard reached.contains(exit) else { return false }
                switch graph.nodes[exit].kind {
                case .returnStatement:
                    return graph.reachable(from: exit, avoiding: { avoided.contains($0.id) }).contains(graph.exit)
                default:
                    // Only the error's own way out: not to a `catch` of this function, not the path on which nothing threw.
                    return graph.successors[exit].contains { edge in
                        (edge.kind == .throwOut || edge.kind == .cancellation) && !avoided.contains(edge.to)
                            && graph.reachable(from: edge.to, avoiding: { avoided.contains($0.id) }, following: { $0 != .throwToCatch })
                                .contains(graph.errorExit)
                    }
                }
            }
        }
    }

    /// The closures in the body (not nested in another closure) that reset the flag.
    static func closuresResetting(_ flag: String, in body: Syntax) -> [ClosureExprSyntax] {
        var found: [ClosureExprSyntax] = []
        var stack = [body]
        while let node = stack.popLast() {
            if let closure = node.as(ClosureExprSyntax.self) {
                if mentionsReset(flag, in: node) { found.append(closure) }
                continue
            }
            stack += node.children(viewMode: .sourceAccurate)
        }
        return found
    }

    /// Calls that run their closure before they return.
    static func runsClosureNow(_ call: FunctionCallExprSyntax) -> Bool {
        let name = SyntaxFacts.calleeName(call)
        return ["MainActor.run", "withAnimation", "withTransaction", "autoreleasepool"].contains(name)
            || ["performAndWait", "sync"].contains(SyntaxFacts.calleeMethodName(call))
    }

    /// A `do` after the flag is set whose body resets it (on success) while its catch-all clause does not, when the
    /// graph has a path from the set through that clause to the function's end with no reset (`leavesSet`, asked
    /// of the clause): a `defer`, a reset after the `do` on every path, or a completion handler's reset closes it.
    static func failureBranchWithoutReset(_ flag: String, from start: Syntax, resets: [Syntax], in body: Syntax,
                                          leavesSet: (CatchClauseSyntax) -> Bool)
        -> (statement: DoStmtSyntax, clause: CatchClauseSyntax)? {
        var candidates: [(statement: DoStmtSyntax, clause: CatchClauseSyntax)] = []
        BodyScanner.scan(body) { node in
            guard let doStatement = node.as(DoStmtSyntax.self), doStatement.endPosition > start.position,
                  resets.contains(where: { $0.isInside(doStatement.body) }),
                  let clause = doStatement.catchClauses.first(where: CatchFacts.isCatchAll),
                  !resets.contains(where: { $0.isInside(clause) }), !mentionsReset(flag, in: Syntax(clause.body)) else { return }
            candidates.append((doStatement, clause))
        }
        return candidates.first { leavesSet($0.clause) }
    }

    /// `flag = false` / `self.flag = false` anywhere in the node, closures included.
    static func mentionsReset(_ flag: String, in node: Syntax) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.text == flag, let next = token.nextToken(viewMode: .sourceAccurate), next.text == "=",
                  let value = next.nextToken(viewMode: .sourceAccurate) else { return false }
            return value.text == "false"
        }
    }
}
