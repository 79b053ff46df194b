import SwiftSyntax
import Testing
@testable import SyncLintKit

/// Function summaries computed on the control-flow graph, as the walk builds them.
struct FlowSummaryTests {
    @Test func resetsOnEveryPathFollowsBranchesDefersAndErrors() {
        let index = Probe.index("""
            final class FeedModel {
                var isLoading = false
                var isSaving = false
                func bothBranches(_ fast: Bool) {
                    if fast { isLoading = false } else { isLoading = false }
                }
                func oneBranch(_ fast: Bool) {
                    if fast { isLoading = false }
                }
                func deferred() throws {
                    defer { isLoading = false }
                    try store.save()
                }
                func skippedByAnError() throws {
                    try store.save()
                    isLoading = false
                }
                func caughtError() {
                    do { throw SaveError.full } catch { log(error) }
                    isSaving = false
                }
                func afterAGuard(_ ready: Bool) {
                    guard ready else { return }
                    isLoading = false
                }
            }
            """)
        func resets(_ name: String) -> Set<String>? { index.summary(of: FunctionKey(typeName: "FeedModel", name: name))?.resetsOnEveryPath }
        #expect(resets("bothBranches") == ["isLoading"], "a reset in both branches of an if is on every path")
        #expect(resets("oneBranch") == [])
        #expect(resets("deferred") == ["isLoading"], "a defer runs on the throwing exit too")
        #expect(resets("skippedByAnError") == [], "an error leaving the function skips the reset")
        #expect(resets("caughtError") == ["isSaving"], "a throw its own catch handles does not leave the function")
        #expect(resets("afterAGuard") == [])
    }

    @Test func writesAfterAnAwaitFollowTheGraphAndInPlaceClosures() {
        let index = Probe.index("""
            @MainActor final class FeedModel {
                var posts: [String] = []
                var status = ""
                var isLoading = false
                func load() async {
                    status = "loading"
                    let page = await api.posts()
                    posts = page
                    isLoading = false
                }
                func animated() async {
                    let page = try? await api.posts()
                    withAnimation { posts = page ?? [] }
                }
                func later() async {
                    await api.ping()
                    DispatchQueue.main.async { self.status = "done" }
                }
                func branch(_ cached: [String]?) async {
                    if let cached { posts = cached } else { await api.ping() }
                }
                func guarded() async {
                    guard !isLoading else { return }
                    isLoading = true
                    defer { isLoading = false }
                    posts = await api.posts()
                }
            }
            """)
        func summary(_ name: String) -> FunctionSummary? { index.summary(of: FunctionKey(typeName: "FeedModel", name: name)) }
        #expect(summary("load")?.writesAfterAwait == ["posts"], "a write before the await and a reset after it are not results written late")
        #expect(summary("animated")?.writesAfterAwait == ["posts"], "withAnimation runs its closure in place")
        #expect(summary("later")?.writesAfterAwait == [], "a closure that runs later is not this function's write")
        #expect(summary("branch")?.writesAfterAwait == [], "the await is in the other branch")
        #expect(summary("guarded")?.writesAfterAwait == ["posts"])
        #expect(summary("guarded")?.reentryGuards == ["isLoading"])
        #expect(summary("load")?.reentryGuards == [])
    }

    @Test func graphsAreBuiltOnlyWhenAskedAndOncePerBody() throws {
        var walked: FileContext?
        _ = Probe.index("""
            final class Model {
                var isLoading = false
                func load() async { isLoading = true; await fetch() }
                func reset() { isLoading = false }
            }
            """) { _, context in walked = context }
        let context = try #require(walked)
        #expect(context.builtControlFlowGraphCount == 1, "only `reset` sets a flag to false: its summary asks, nothing else does")
        let reset = try #require(context.tree.tokens(viewMode: .sourceAccurate)
            .compactMap { $0.parent?.as(FunctionDeclSyntax.self) }.first { $0.name.text == "reset" })
        let first = context.controlFlowGraph(of: reset)
        let second = context.controlFlowGraph(of: reset)
        #expect(first?.graph == second?.graph)
        #expect(context.builtControlFlowGraphCount == 1, "the summary's graph is shared, not built again")
    }
}
