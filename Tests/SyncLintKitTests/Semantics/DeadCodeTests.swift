import Foundation
import Testing
@testable import SyncLintKit

/// Findings in code proven never to run are dropped: a view no code builds in an app with an entry point, the body of
/// `if false`, a `#if false` clause. Without an entry point (a library, a snippet) any type may be built elsewhere.
struct DeadCodeTests {
    static let app = """
        @main struct BookApp: App {
            var body: some Scene { WindowGroup { LibraryView() } }
        }
        """
    static let views = """
        struct LibraryView: View {
            @State private var model = LibraryModel()
            var body: some View {
                List(model.books) { Text($0.title) }
                    .onAppear { Task { await model.load() } }
            }
        }
        struct OldLibraryView: View {
            @State private var model = LibraryModel()
            var body: some View {
                List(model.books) { Text($0.title) }
                    .onAppear { Task { await model.load() } }
            }
            static func make() -> OldLibraryView { OldLibraryView() }
        }
        """

    /// Lints the sources as the files of one app target of an Xcode project (unless `inXcodeProject` is false).
    private func findingLines(_ sources: [(String, String)], inXcodeProject: Bool = true) -> [Int] {
        var configuration = Configuration()
        configuration.onlyRules = ["on_appear_task"]
        // Both tiers: `LibraryView` is the window's root, so its finding is medium; what is dead is the question here.
        configuration.confidence = .medium
        let target = XcodeTarget(name: "Books", productType: "com.apple.product-type.application", files: Set(sources.map(\.0)), entitlements: nil)
        let layout = inXcodeProject ? ProjectLayout(xcodeProjects: [XcodeProject(path: "/app/Books.xcodeproj/project.pbxproj", sourceRoot: "/app",
                                                                                 targets: [target])]) : ProjectLayout()
        return Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, layout: layout, configuration: configuration)
            .findings.map(\.line)
    }

    @Test func aViewNoCodeBuildsIsDeadInAnApp() {
        // `OldLibraryView` builds itself only in its own declaration: still never built.
        #expect(findingLines([("/app/BookApp.swift", Self.app), ("/app/Views.swift", Self.views)]) == [5])
    }

    @Test func withoutAnEntryPointEveryTypeMayBeBuilt() {
        #expect(findingLines([("/app/Views.swift", Self.views)]) == [5, 12])
        // Sources outside an Xcode project (case studies side by side) are no one program, entry point or not.
        #expect(findingLines([("/app/BookApp.swift", Self.app), ("/app/Views.swift", Self.views)], inXcodeProject: false) == [5, 12])
    }

    @Test func aTypeBuiltAnywhereElseIsAlive() {
        let builder = "struct Shelf: View { var body: some View { OldLibraryView.make() } }\nlet shelf = Shelf()"
        #expect(findingLines([("/app/BookApp.swift", Self.app), ("/app/Views.swift", Self.views), ("/app/Shelf.swift", builder)]) == [5, 12])
    }

    @Test func codeUnderIfFalseAndPoundIfFalseIsDead() {
        let view = """
            struct LibraryView: View {
                @State private var model = LibraryModel()
                var body: some View {
                    if false {
                        Text("debug").onAppear { Task { await model.load() } }
                    }
                    #if false
                    Text("old").onAppear { Task { await model.load() } }
                    #else
                    Text("new").onAppear { Task { await model.load() } }
                    #endif
                }
            }
            """
        #expect(findingLines([("/lib/LibraryView.swift", view)]) == [10])
    }
}

/// A file the Xcode project leaves out of every target, beside files a target compiles, never runs (a stale copy kept
/// next to the live one); a folder no target lists anything of (a package's, or one the project does not know) says
/// nothing, and neither does a project the run could not read.
struct FilesLeftOutOfTargetsTests {
    static let crash = """
        func makeContainer() -> ModelContainer {
            do { return try ModelContainer(for: Server.self) } catch { fatalError("no store: \\(error)") }
        }
        """

    private func crashFiles(compiled: Set<String>, xcodeProject: Bool = true) -> [String] {
        var configuration = Configuration()
        configuration.onlyRules = ["fatal_error_on_container_init"]
        let sources = [("/app/Status/Helpers/DataHelper.swift", Self.crash), ("/app/Status/Helpers/Live.swift", "let live = 1"),
                       ("/app/Kit/Sources/Kit/DataHelper.swift", Self.crash)]
        let target = XcodeTarget(name: "Status", productType: "com.apple.product-type.application", files: compiled, entitlements: nil)
        let layout = xcodeProject ? ProjectLayout(xcodeProjects: [XcodeProject(path: "/app/Status.xcodeproj/project.pbxproj", sourceRoot: "/app",
                                                                              targets: [target])]) : ProjectLayout()
        return Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, layout: layout, configuration: configuration)
            .findings.map(\.file).sorted()
    }

    @Test func aStaleCopyBesideCompiledFilesIsDead() {
        #expect(crashFiles(compiled: ["/app/Status/Helpers/Live.swift"]) == ["/app/Kit/Sources/Kit/DataHelper.swift"])
    }

    @Test func aFileTheProjectSpellsInAnotherCaseIsCompiled() {
        // macOS's file system ignores case: the project's `datahelper.swift` is the disk's `DataHelper.swift`.
        #expect(crashFiles(compiled: ["/app/Status/Helpers/Live.swift", "/app/Status/Helpers/datahelper.swift"])
            == ["/app/Kit/Sources/Kit/DataHelper.swift", "/app/Status/Helpers/DataHelper.swift"])
    }

    @Test func aCompiledFileIsAlive() {
        #expect(crashFiles(compiled: ["/app/Status/Helpers/Live.swift", "/app/Status/Helpers/DataHelper.swift"])
            == ["/app/Kit/Sources/Kit/DataHelper.swift", "/app/Status/Helpers/DataHelper.swift"])
    }

    @Test func withoutATargetBesideItOrAProjectNothingIsDead() {
        #expect(crashFiles(compiled: []) == ["/app/Kit/Sources/Kit/DataHelper.swift", "/app/Status/Helpers/DataHelper.swift"])
        #expect(crashFiles(compiled: ["/app/Status/Helpers/Live.swift"], xcodeProject: false)
            == ["/app/Kit/Sources/Kit/DataHelper.swift", "/app/Status/Helpers/DataHelper.swift"])
    }
}
