import Foundation
import Testing
@testable import SyncLintKit

/// `synclint lint FILE` lints the file inside its project, so a file's findings are the same alone as
/// in a run over the whole project; `--use-stdin --stdin-path PATH` does the same for an editor's buffer.
struct ProjectAwareLintTests {
    static let examples = Repository.path("Examples")

    /// Every Swift file and Core Data model file under each sample app's `Bad/` and `Fixed/` folders.
    static var exampleFiles: [String] {
        var files: [String] = []
        for app in ExamplesTests.apps {
            for half in ["Bad", "Fixed"] {
                let folder = "\(examples)/\(app)/\(half)"
                let enumerator = FileManager.default.enumerator(atPath: folder)
                while let relative = enumerator?.nextObject() as? String {
                    if relative.hasSuffix(".swift") || relative.hasSuffix(".entitlements")
                        || (relative.hasSuffix("/contents") && relative.contains(".xcdatamodel/")) {
                        files.append(folder + "/" + relative)
                    }
                }
            }
        }
        return files.sorted()
    }

    /// The sample apps belong to `Examples/`, the nearest folder with a `.synclint.yml`; this package's
    /// own sources to the folder with its `Package.swift`.
    @Test func theOwningProjectIsTheNearestFolderWithAMarker() {
        #expect(OwningProject.folder(of: Repository.path("Examples/Bookmarks/Bad/Bookmark.swift")) == Self.examples)
        #expect(OwningProject.folder(of: Repository.path("Sources/SyncLintKit/Pipeline/Linter.swift"))
                == Repository.root.standardizedFileURL.path)
        #expect(OwningProject.folder(of: Repository.path("Examples/Reader/Bad/NotYetSaved.swift")) == Self.examples,
                "a file that does not exist yet (an editor's buffer) still has a project")
    }

    @Test func everyExampleFileHasTheSameFindingsAloneAsInTheWholeRun() throws {
        let files = Self.exampleFiles
        #expect(files.count >= 25, "\(files.count) files found")
        #expect(files.contains { $0.hasSuffix("/contents") }, "the Core Data models are compared too")
        let whole = ExamplesTests.result.findings
        var reproduced = 0
        for file in files {
            let alone = Linter.lintInProjects(paths: [file], configuration: ExamplesTests.configuration)
            let expected = whole.filter { $0.file == file }
            #expect(alone.findings == expected,
                    "\(file): alone \(alone.findings.map { "\($0.line):\($0.column) \($0.ruleID)" }), whole run \(expected.map { "\($0.line):\($0.column) \($0.ruleID)" })")
            #expect(alone.warnings.isEmpty, "\(file): \(alone.warnings)")
            reproduced += alone.findings.count
        }
        #expect(reproduced == whole.count, "every finding of the whole run is found by linting its file alone")
        // Without its project the model file loses the findings that need the app's CloudKit setup.
        let bookmark = Repository.path("Examples/Bookmarks/Bad/Bookmark.swift")
        let withoutProject = Linter.lint(paths: [bookmark], configuration: ExamplesTests.configuration)
        #expect(withoutProject.findings.count < whole.filter { $0.file == bookmark }.count)
    }

    /// Several files of one project, and files with a folder, give the union of what each gives.
    @Test func severalFilesAndFoldersTogether() {
        let view = Repository.path("Examples/Reader/Bad/ReaderView.swift")
        let model = Repository.path("Examples/Bookmarks/Bad/Bookmark.swift")
        let folder = Repository.path("Examples/DiceRoller")
        let together = Linter.lintInProjects(paths: [view, model, folder], configuration: ExamplesTests.configuration)
        let expected = ExamplesTests.result.findings.filter {
            $0.file == view || $0.file == model || $0.file.hasPrefix(folder + "/")
        }
        #expect(Set(together.findings) == Set(expected.filter { !$0.file.hasPrefix(folder + "/") })
            .union(Linter.lint(paths: [folder], configuration: ExamplesTests.configuration).findings))
        #expect(together.findings.contains { $0.file == model } && together.findings.contains { $0.file == view })
    }

    /// A file outside any repository, with no project marker above it, is linted alone.
    @Test func aFileOutsideAnyRepositoryIsLintedAlone() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(OwningProject.folder(of: folder.appendingPathComponent("ItemView.swift").path) == nil)
        let file = folder.appendingPathComponent("ItemView.swift")
        try EngineTests.bad.write(to: file, atomically: true, encoding: .utf8)
        try "struct Unrelated {}\nstruct Broken {".write(to: folder.appendingPathComponent("Other.swift"), atomically: true, encoding: .utf8)
        let result = Linter.lintInProjects(paths: [file.path], configuration: .withStockRules)
        #expect(result.findings.map(\.ruleID) == ["task_without_id"])
        #expect(result.warnings.isEmpty, "the broken neighbour was not read: \(result.warnings)")
    }

    /// In a repository, the other files of the project are indexed but never reported on, and their
    /// warnings (syntax errors) are not shown for a run that did not ask about them.
    @Test func otherFilesOfTheProjectAreIndexedNotReported() throws {
        let folder = try Self.temporaryRepository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Self.model.write(to: app.appendingPathComponent("Model.swift"), atomically: true, encoding: .utf8)
        try Self.container.write(to: app.appendingPathComponent("Store.swift"), atomically: true, encoding: .utf8)
        try "struct Broken {".write(to: app.appendingPathComponent("Broken.swift"), atomically: true, encoding: .utf8)
        let model = app.appendingPathComponent("Model.swift").standardizedFileURL.path
        #expect(OwningProject.folder(of: model) == folder.standardizedFileURL.path, "no marker below the repository root")
        let alone = Linter.lintInProjects(paths: [model], configuration: .withStockRules)
        let whole = Linter.lint(paths: [folder.path], configuration: .withStockRules)
        #expect(alone.findings.map(\.ruleID) == ["cloudkit_unique_constraint"], "CloudKit is on in Store.swift")
        #expect(alone.findings == whole.findings.filter { $0.file == model })
        #expect(alone.warnings.isEmpty, "\(alone.warnings)")
        #expect(whole.warnings.contains { $0.contains("Broken.swift") })
    }

    // MARK: standard input

    static let model = "import SwiftData\n@Model final class Note {\n    @Attribute(.unique) var title: String = \"\"\n    init() {}\n}\n"
    static let container = """
        import SwiftData
        func makeContainer() throws -> ModelContainer {
            let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.example"))
            return try ModelContainer(for: Note.self, configurations: configuration)
        }

        """

    static func temporaryRepository() throws -> URL {
        let folder = try Repository.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        return folder
    }

    /// The buffer replaces the file on disk in the index: its own text is what is reported (here three
    /// lines lower), and the disk version is not indexed next to it (two `Bookmark` models would make
    /// the type ambiguous and lose the CloudKit findings).
    @Test func standardInputReplacesTheFileOnDisk() throws {
        let path = Repository.path("Examples/Bookmarks/Bad/Bookmark.swift")
        let onDisk = try String(contentsOfFile: path, encoding: .utf8)
        let fromDisk = Linter.lintInProjects(paths: [path], configuration: ExamplesTests.configuration)
        let buffer = Linter.lintInProjects(paths: [], standardInput: SourceInput(path: path, text: "\n\n\n" + onDisk),
                                           configuration: ExamplesTests.configuration)
        #expect(!fromDisk.findings.isEmpty)
        #expect(buffer.findings.map { "\($0.line - 3):\($0.column) \($0.ruleID)" }
                == fromDisk.findings.map { "\($0.line):\($0.column) \($0.ruleID)" })
        #expect(buffer.findings.allSatisfy { $0.file == path })
    }

    /// A buffer for a file that does not exist yet is indexed with the project it will belong to.
    @Test func standardInputForAFileNotOnDisk() throws {
        let folder = try Self.temporaryRepository()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.container.write(to: folder.appendingPathComponent("Store.swift"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("Sources/New/Model.swift").standardizedFileURL.path
        let result = Linter.lintInProjects(paths: [], standardInput: SourceInput(path: path, text: Self.model), configuration: .withStockRules)
        #expect(result.findings.map(\.ruleID) == ["cloudkit_unique_constraint"])
        #expect(result.findings.first?.file == path)
        #expect(result.lintableFiles == 1)
    }

    /// Through the command line: the same report as for the file on disk when the text is the same, the
    /// buffer's findings when it differs, and the findings named with the given path.
    @Test func commandLineStandardInput() throws {
        let folder = try Self.temporaryRepository()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Configuration.stockRulesYAML.write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        try Self.container.write(to: folder.appendingPathComponent("Store.swift"), atomically: true, encoding: .utf8)
        try "import SwiftData\n@Model final class Note {\n    var title: String = \"\"\n    init() {}\n}\n"
            .write(to: folder.appendingPathComponent("Model.swift"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("Model.swift").resolvingSymlinksInPath().path

        let disk = try Repository.run(["lint", "--quiet", "Model.swift"], in: folder)
        #expect(disk.status == 0 && disk.stdout.isEmpty, "the file on disk is fine: \(disk.stdout)\(disk.stderr)")
        let same = try Repository.run(["lint", "--quiet", "--use-stdin", "--stdin-path", "Model.swift"], in: folder,
                                      input: try String(contentsOfFile: path, encoding: .utf8))
        #expect(same.status == 0 && same.stdout.isEmpty, "\(same.stdout)\(same.stderr)")

        let edited = try Repository.run(["lint", "--use-stdin", "--stdin-path", "Model.swift"], in: folder, input: Self.model)
        #expect(edited.status == 1, "the unsaved edit adds a unique constraint: \(edited.stderr)")
        #expect(edited.stdout.hasPrefix("\(path):3:29: error: "), "\(edited.stdout)")
        // The finding's line, then a note at the store that syncs (in Store.swift, on disk).
        let lines = edited.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix("(cloudkit_unique_constraint)") == true && lines.count == 2, "\(edited.stdout)")
        #expect(lines.last?.contains("Store.swift:3:") == true && lines.last?.contains(": note: this store syncs with CloudKit") == true)
        #expect(edited.stderr == "Done linting! Found 1 violation, 1 serious in 1 file.\n", "\(edited.stderr)")

        // A new view: that `Note` is a persistent model is known only from Model.swift, on disk.
        let view = """
            import SwiftUI
            struct NoteView: View {
                let note: Note
                var body: some View {
                    Text(note.title).task { await load(note) }
                }
                func load(_ note: Note) async {}
            }

            """
        let newFile = try Repository.run(["lint", "--reporter", "json", "--use-stdin", "--stdin-path", "Sources/NoteView.swift"],
                                         in: folder, input: view)
        let objects = try JSONSerialization.jsonObject(with: Data(newFile.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.count == 1 && objects?.first?["rule_id"] as? String == "task_without_id", "\(newFile.stdout)")
        #expect((objects?.first?["file"] as? String)?.hasSuffix("/Sources/NoteView.swift") == true)
        let elsewhere = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let alone = try Repository.run(["lint", "--use-stdin", "--stdin-path", "NoteView.swift"], in: elsewhere, input: view)
        #expect(alone.stdout.isEmpty, "outside the project nothing says Note is a model: \(alone.stdout)")

        // Without --stdin-path, as SwiftLint's: a file named <stdin> in the current folder's project.
        let unnamed = try Repository.run(["lint", "--reporter", "json", "--use-stdin"], in: folder, input: view)
        let unnamedObjects = try JSONSerialization.jsonObject(with: Data(unnamed.stdout.utf8)) as? [[String: Any]]
        #expect(unnamedObjects?.count == 1 && unnamedObjects?.first?["rule_id"] as? String == "task_without_id",
                "the project's Model.swift still says Note is a model: \(unnamed.stdout)\(unnamed.stderr)")
        #expect((unnamedObjects?.first?["file"] as? String)?.hasSuffix("/<stdin>") == true)

        for (arguments, message) in [
            (["lint", "--use-stdin", "--stdin-path", ""], "error: --stdin-path needs a path: the file the text stands for\n"),
            (["lint", "--stdin-path", "Model.swift"], "error: --stdin-path is used only with --use-stdin\n"),
            (["lint", "--use-stdin", "--stdin-path", "Model.swift", "Store.swift"], "error: --use-stdin lints only the text on standard input; give no paths\n"),
        ] {
            let refused = try Repository.run(arguments, in: folder, input: Self.model)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.stderr == message, "\(arguments): \(refused.stderr)")
        }
    }
}
