import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintIndex

/// Projects, targets, where code lives and store facts: one project's or target's facts never decide
/// for another, and tests, previews and in-memory stores never decide whether the app syncs.
struct ProjectLayoutTests {
    static let projects = Repository.path("Tests/SyncLintKitTests/Fixtures/Projects")
    static let cloudKitRules: Set<String> = CloudKitSituationTests.schemaRules.union(["fatal_error_on_container_init"])

    private func cloudKitFindings(_ result: LintResult) -> [String] {
        result.findings.filter { Self.cloudKitRules.contains($0.ruleID) }
            .map { "\($0.file.replacingOccurrences(of: Self.projects + "/", with: "")):\($0.line) \($0.ruleID)" }
    }

    // MARK: Xcode projects

    @Test func targetsAreReadFromTheProjectFile() throws {
        let path = "\(Self.projects)/AppAndWidget/Notes.xcodeproj/project.pbxproj"
        let project = try XcodeProject.read(path: path, text: String(contentsOfFile: path, encoding: .utf8)).get()
        let root = "\(Self.projects)/AppAndWidget"
        #expect(project.targets.map(\.name) == ["Notes", "NotesWidget", "NotesTests"])
        let app = project.targets[0], widget = project.targets[1], tests = project.targets[2]
        #expect(app.contains("\(root)/Notes/NotesApp.swift") && app.contains("\(root)/Notes/Note.swift"))
        #expect(!app.contains("\(root)/NotesWidget/Snapshot.swift"))
        #expect(app.entitlements == "\(root)/Notes/Notes.entitlements")
        // The shared model file is in both; the widget's synchronized folder gives it every file but its exceptions.
        #expect(widget.contains("\(root)/Notes/Note.swift") && widget.contains("\(root)/NotesWidget/Snapshot.swift"))
        #expect(!widget.contains("\(root)/NotesWidget/Unused.swift"))
        #expect(!widget.contains("\(root)/Notes/NotesApp.swift"))
        #expect(widget.entitlements == "\(root)/NotesWidget/NotesWidget.entitlements", "$(SRCROOT) and $(TARGET_NAME) expand")
        #expect(tests.isTest && !app.isTest && !widget.isTest)
        #expect(tests.entitlements == nil)
    }

    @Test func aProjectFileThatIsNotAPropertyListIsOneWarning() {
        let result = XcodeProject.read(path: "/p/App.xcodeproj/project.pbxproj", text: "{ objects = ( ; }")
        guard case .failure(let failure) = result else {
            Issue.record("a broken project file was read")
            return
        }
        #expect(failure.description == "warning: /p/App.xcodeproj/project.pbxproj: is not a readable Xcode project; its targets are ignored")
    }

    @Test func theAppTargetSyncsAndTheWidgetTargetDoesNot() throws {
        let result = Linter.lint(paths: ["\(Self.projects)/AppAndWidget"], configuration: Configuration())
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(cloudKitFindings(result) == [
            "AppAndWidget/Notes/Note.swift:5 cloudkit_nonoptional_attribute",
            "AppAndWidget/Notes/Note.swift:5 cloudkit_unique_constraint",
        ], "the widget's local Snapshot model is quiet; the test's and the preview's containers are not app code")
        let message = try #require(result.findings.first { $0.ruleID == "cloudkit_unique_constraint" }?.message)
        #expect(message.contains("the default configuration at Notes/NotesApp.swift:7 with CloudKit in Notes/Notes.entitlements (target `Notes`)"),
                "\(message)")
        #expect(!result.findings.contains { $0.file.contains("NotesTests") || $0.file.contains("Preview Content") })
    }

    /// An `NSPersistentCloudKitContainer` mirrors to the CloudKit container its app's entitlements name: in a known
    /// target whose entitlements list none, it loads as a local store and CloudKit's schema rules do not apply. With no
    /// Xcode project to say which target runs it, the same container still counts as syncing.
    @Test func aCloudKitContainerInATargetWithoutCloudKitEntitlementsIsLocal() throws {
        let folder = try Repository.temporaryFolder().appendingPathComponent("AppAndWidget")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.copyItem(atPath: "\(Self.projects)/AppAndWidget", toPath: folder.path)
        let model = "\(Repository.path("Tests/SyncLintKitTests/Fixtures/CloudKit/CoreDataCloudKit"))/Lists.xcdatamodeld"
        let widget = folder.appendingPathComponent("NotesWidget")
        try FileManager.default.copyItem(atPath: model, toPath: widget.appendingPathComponent("Lists.xcdatamodeld").path)
        try "import CoreData\nlet cache = NSPersistentCloudKitContainer(name: \"Lists\")\n"
            .write(to: widget.appendingPathComponent("CacheStore.swift"), atomically: true, encoding: .utf8)
        func listsFindings() -> [String] {
            Linter.lint(paths: [folder.path], configuration: Configuration()).findings
                .filter { $0.file.contains("Lists.xcdatamodel") && CloudKitSituationTests.schemaRules.contains($0.ruleID) }.map(\.ruleID)
        }
        #expect(listsFindings().isEmpty, "the widget target's entitlements list no CloudKit")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Notes.xcodeproj"))
        #expect(listsFindings().contains("cloudkit_unique_constraint"), "no project: the container is taken to sync")
    }

    // MARK: Projects

    @Test func twoAppsInOneRunKeepTheirOwnEvidence() {
        let syncing = "\(Self.projects)/TwoApps/Syncing", local = "\(Self.projects)/TwoApps/Local"
        let together = Linter.lint(paths: [syncing, local], configuration: Configuration())
        #expect(cloudKitFindings(together) == [
            "TwoApps/Syncing/Sources/Book.swift:5 cloudkit_nonoptional_attribute",
            "TwoApps/Syncing/Sources/Book.swift:5 cloudkit_unique_constraint",
        ], "the local app's default configuration is not synced by the other app's entitlements")
        let alone = Linter.lint(paths: [syncing], configuration: Configuration()).findings
            + Linter.lint(paths: [local], configuration: Configuration()).findings
        #expect(together.findings == alone.sorted(by: Finding.ordered))
    }

    @Test func pathsWithoutAProjectOfTheirOwnAreOneProject() {
        let layout = ProjectLayout.make(paths: ["/repo/App", "/repo/Models", "/other"],
                                        swiftFiles: ["/repo/App/A.swift", "/repo/Models/M.swift", "/other/Package.swift"], xcodeProjects: [])
        #expect(layout.project(of: "/repo/App/A.swift") == layout.project(of: "/repo/Models/M.swift"))
        #expect(layout.project(of: "/other/Sources/O.swift") == "/other")
    }

    // MARK: Where code lives

    static let syncedModel = SourceInput(path: "/app/Sources/Item.swift", text: """
        import SwiftData
        @Model final class Item {
            @Attribute(.unique) var name: String = ""
        }
        """)
    static let cloudKitEntitlements = ResourceFile(path: "/app/App.entitlements", kind: .entitlements, text: """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>com.apple.developer.icloud-container-identifiers</key><array><string>iCloud.app</string></array>
        <key>com.apple.developer.icloud-services</key><array><string>CloudKit</string></array>
        </dict></plist>
        """)

    private func uniqueFindings(_ sources: [SourceInput]) -> [String] {
        Harness.findings(sources: [Self.syncedModel] + sources, rules: ["cloudkit_unique_constraint", "fatal_error_on_container_init"],
                         resources: [Self.cloudKitEntitlements]).map { "\($0.file):\($0.line) \($0.ruleID)" }
    }

    @Test func inMemoryStoresNeverSync() {
        let onDisk = SourceInput(path: "/app/Sources/App.swift", text: "let view = ContentView().modelContainer(for: Item.self)")
        #expect(uniqueFindings([onDisk]) == ["/app/Sources/Item.swift:3 cloudkit_unique_constraint"])
        for store in [
            "let view = ContentView().modelContainer(for: Item.self, inMemory: true)",
            "let c = try ModelContainer(for: Item.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))",
            "let c = ModelConfiguration(url: URL(fileURLWithPath: \"/dev/null\"))",
        ] {
            #expect(uniqueFindings([SourceInput(path: "/app/Sources/App.swift", text: store)]).isEmpty, "\(store)")
        }
    }

    @Test func aContainerBuiltOnlyInTestsOrPreviewsNeverDecides() {
        let local = SourceInput(path: "/app/Sources/App.swift", text: "let c = ModelConfiguration(cloudKitDatabase: .none)")
        let test = SourceInput(path: "/app/Sources/StoreTests.swift", text: """
            import XCTest
            let c = try! ModelContainer(for: Item.self, configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.app")))
            """)
        let preview = SourceInput(path: "/app/Sources/Previews.swift", text: """
            #Preview {
                ContentView().modelContainer(try! ModelContainer(for: Item.self, configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.app"))))
            }
            """)
        #expect(uniqueFindings([local, test, preview]).isEmpty)
        let synced = SourceInput(path: "/app/Sources/App.swift", text: "let c = ModelConfiguration(cloudKitDatabase: .private(\"iCloud.app\"))")
        #expect(uniqueFindings([synced, test, preview]) == ["/app/Sources/Item.swift:3 cloudkit_unique_constraint"],
                "the app's own store syncs; the test's and the preview's `try!` are not app code")
    }

    @Test func codeKindsFromPlaceAndContents() {
        let index = Probe.index([
            "/r/App/View.swift": """
                import SwiftUI
                struct V: View { var body: some View { Text("") } }
                #Preview {
                    V()
                }
                struct V_Previews: PreviewProvider {
                    static var previews: some View { V() }
                }
                """,
            "/r/App/Checks.swift": "import Testing\n@Test func t() {}",
        ])
        #expect(index.codeKind(of: SourceLocation(file: "/r/App/View.swift", line: 2, column: 1)) == .app)
        #expect(index.codeKind(of: SourceLocation(file: "/r/App/View.swift", line: 4, column: 5)) == .preview)
        #expect(index.codeKind(of: SourceLocation(file: "/r/App/View.swift", line: 7, column: 5)) == .preview)
        #expect(index.codeKind(of: SourceLocation(file: "/r/App/Checks.swift", line: 2, column: 1)) == .test)
        let layout = ProjectLayout(roots: [ProjectLayout.Root(path: "/work/AppTests", isOwnProject: false)])
        #expect(layout.kind(ofFile: "/work/AppTests/Sources/AppTests/A.swift") == .test, "a `*Tests` folder below the linted path")
        #expect(layout.kind(ofFile: "/work/AppTests/Sources/App/A.swift") == nil, "the linted path's own name does not count")
        #expect(layout.kind(ofFile: "/work/AppTests/App/Preview Content/Sample.swift") == .preview)
    }

    @Test func rulesSpeakAboutTheCodeTheyDeclare() {
        let wait = """
            func load() async {
                let semaphore = DispatchSemaphore(value: 0)
                semaphore.wait()
            }
            """
        let inTest = Harness.findings("import XCTest\n" + wait, rules: ["blocking_wait_in_async"])
        #expect(inTest.count == 1, "blocking_wait_in_async applies to tests too")
        let stale = """
            import XCTest
            @Model final class Article { var title: String = "" }
            struct ArticleView: View {
                let article: Article
                var body: some View {
                    Text(article.title).task { await load() }
                }
                func load() async {}
            }
            """
        #expect(Harness.findings(stale, rules: ["task_without_id"]).isEmpty, "UI rules apply to app code only")
        #expect(RuleRegistry.allDescriptions.filter { $0.appliesTo.contains(CodeKind.test) }.map(\.id).sorted()
                == ["blocking_wait_in_async", "unsynchronized_capture_mutation"])
    }
}
