import Foundation
import SyncLintFacts
import Testing
@testable import SyncLintKit

/// Who can cancel a function nothing calls: in a program (an Xcode project with an entry point, all of whose code was
/// linted) no one, unless the system may call it as a framework protocol's requirement or an override; without an
/// entry point (a library) its callers may be outside the run, so it may be cancelled (medium).
struct UncalledInProgramTests {
    static let app = """
        @main struct ClipApp: App {
            var body: some Scene { WindowGroup { Text("Clip") } }
        }
        """
    /// `copySelection` is never called: its swallowed `try?` sleep can be cancelled only if something calls it.
    static let helper = """
        final class PasteboardHelper {
            func copySelection() async -> String? {
                try? await Task.sleep(for: .milliseconds(100))
                return NSPasteboard.general.string(forType: .string)
            }
        }
        """

    private func findingLines(_ sources: [(String, String)], inXcodeProject: Bool = true) -> [Int] {
        var configuration = Configuration()
        configuration.onlyRules = ["cancellation_swallowed_by_try_optional"]
        configuration.confidence = .medium
        let target = XcodeTarget(name: "Clip", productType: "com.apple.product-type.application", files: Set(sources.map(\.0)), entitlements: nil)
        let layout = inXcodeProject ? ProjectLayout(xcodeProjects: [XcodeProject(path: "/app/Clip.xcodeproj/project.pbxproj", sourceRoot: "/app",
                                                                                 targets: [target])]) : ProjectLayout()
        return Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, layout: layout, configuration: configuration)
            .findings.map(\.line)
    }

    @Test func aFunctionNothingCallsInAProgramIsUncancellable() {
        #expect(findingLines([("/app/ClipApp.swift", Self.app), ("/app/PasteboardHelper.swift", Self.helper)]) == [])
    }

    @Test func withoutAnEntryPointItsCallersMayBeOutsideTheRun() {
        #expect(findingLines([("/app/PasteboardHelper.swift", Self.helper)]) == [3])
        #expect(findingLines([("/app/ClipApp.swift", Self.app), ("/app/PasteboardHelper.swift", Self.helper)], inXcodeProject: false) == [3])
    }

    @Test func aTypeThatAdoptsAFrameworkProtocolMayBeCalledByTheSystem() {
        let adopted = Self.helper.replacingOccurrences(of: "final class PasteboardHelper {", with: "final class PasteboardHelper: NSServicesMenuRequestor {")
        #expect(findingLines([("/app/ClipApp.swift", Self.app), ("/app/PasteboardHelper.swift", adopted)]) == [3])
    }

    @Test func aFunctionCalledFromAViewTaskIsCancellable() {
        let view = "struct ClipView: View {\n    let helper = PasteboardHelper()\n    var body: some View { Text(\"\").task { _ = await helper.copySelection() } }\n}"
        #expect(findingLines([("/app/ClipApp.swift", Self.app), ("/app/PasteboardHelper.swift", Self.helper), ("/app/ClipView.swift", view)]) == [3])
    }
}

/// An `@Published` write in an async method nothing in the program calls never runs: calls of the same name on
/// another type's receiver (`posts.refresh()` on a `PostsModel`) are not calls of it. A call on a receiver of unknown
/// type, a reference that may name it, a framework protocol that may require it, or a library's code keep it.
struct PublishedWriteInUncalledMethodTests {
    static let app = UncalledInProgramTests.app
    /// Two view models with a `refresh()` each; only the posts model's is called, on a receiver of its own type.
    static let models = """
        final class GalleryModel: ObservableObject {
            @Published var photos: [Photo] = []
            func load() { photos = [] }
            func refresh() async {
                photos = await api.photos()
            }
        }
        final class PostsModel: ObservableObject {
            @Published var posts: [Post] = []
            func refresh() async {
                posts = await api.posts()
            }
        }
        """
    static let views = """
        struct GalleryView: View {
            @StateObject private var gallery = GalleryModel()
            var body: some View { List(gallery.photos) { PhotoRow(photo: $0) }.onAppear { gallery.load() } }
        }
        struct PostsView: View {
            @StateObject private var feed = PostsModel()
            var body: some View { List(feed.posts) { PostRow(post: $0) }.refreshable { await feed.refresh() } }
        }
        """

    private func findings(_ sources: [(String, String)], inXcodeProject: Bool = true) -> [String] {
        var configuration = Configuration()
        configuration.onlyRules = ["published_write_off_main"]
        let target = XcodeTarget(name: "Gallery", productType: "com.apple.product-type.application", files: Set(sources.map(\.0)), entitlements: nil)
        let layout = inXcodeProject ? ProjectLayout(xcodeProjects: [XcodeProject(path: "/app/Gallery.xcodeproj/project.pbxproj", sourceRoot: "/app",
                                                                                 targets: [target])]) : ProjectLayout()
        return Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, layout: layout, configuration: configuration)
            .findings.map { "\($0.file.split(separator: "/").last ?? ""):\($0.line)" }
    }

    private func program(models: String = models, views: String = views, more: [(String, String)] = []) -> [(String, String)] {
        [("/app/GalleryApp.swift", Self.app), ("/app/Models.swift", models), ("/app/Views.swift", views)] + more
    }

    @Test func aMethodCalledOnlyOnAnotherTypesReceiverIsQuiet() {
        #expect(findings(program()) == ["Models.swift:11"])
    }

    @Test func withoutAnEntryPointItsCallersMayBeOutsideTheRun() {
        #expect(findings(program(), inXcodeProject: false) == ["Models.swift:5", "Models.swift:11"])
    }

    @Test func aCallOnAReceiverOfUnknownTypeMayBeIts() {
        let caller = "func reloadAll(_ model: SomeLibraryType) async { await model.refresh() }"
        #expect(findings(program(more: [("/app/Reload.swift", caller)])) == ["Models.swift:5", "Models.swift:11"])
    }

    @Test func aCallOnItsOwnTypeReachesIt() {
        let caller = "struct GalleryRefresher { let model: GalleryModel\n    func run() async { await model.refresh() } }"
        #expect(findings(program(more: [("/app/Refresher.swift", caller)])) == ["Models.swift:5", "Models.swift:11"])
    }

    @Test func aReferenceThatMayNameItKeepsIt() {
        // `action: gallery.refresh` names a member of a value whose type the summary does not keep.
        let views = Self.views.replacingOccurrences(of: ".onAppear { gallery.load() }", with: ".toolbar { AsyncButton(action: gallery.refresh) }")
        #expect(findings(program(views: views)) == ["Models.swift:5", "Models.swift:11"])
        // A bare `refresh` in a view that has its own `refresh()` names the view's.
        let own = Self.views.replacingOccurrences(
            of: "var body: some View { List(gallery.photos) { PhotoRow(photo: $0) }.onAppear { gallery.load() } }",
            with: "var body: some View { List(gallery.photos) { PhotoRow(photo: $0) }.onAppear(perform: refresh) }\n    func refresh() { gallery.load() }")
        #expect(findings(program(views: own)) == ["Models.swift:11"])
    }

    /// Every protocol of the table (`FrameworkRequirements`): adopting it does not make a method of another name callable
    /// by the system; a method its requirements name may be called.
    @Test(arguments: FrameworkRequirements.membersByProtocol.keys.sorted())
    func aFrameworkProtocolCallsOnlyItsRequirements(protocolName: String) {
        let models = Self.models.replacingOccurrences(of: "final class GalleryModel: ObservableObject {",
                                                       with: "final class GalleryModel: ObservableObject, \(protocolName) {")
        #expect(findings(program(models: models)) == ["Models.swift:11"])
    }

    @Test func aMethodAFrameworkProtocolRequiresMayBeCalled() {
        let models = Self.models.replacingOccurrences(of: "final class GalleryModel: ObservableObject {", with: "final class GalleryModel: ObservableObject, Hashable {")
            .replacingOccurrences(of: "func refresh() async {\n        photos", with: "func hash() async {\n        photos")
        #expect(findings(program(models: models)) == ["Models.swift:5", "Models.swift:11"])
    }

    @Test func aProtocolOutsideTheProjectMayRequireIt() {
        let models = Self.models.replacingOccurrences(of: "final class GalleryModel: ObservableObject {",
                                                       with: "final class GalleryModel: ObservableObject, RefreshableSource {")
        #expect(findings(program(models: models)) == ["Models.swift:5", "Models.swift:11"])
    }
}
