import Foundation
import Testing

/// A mistyped path or a folder with nothing to lint must fail a CI job, not pass it as "no findings".
struct ExitStatusTests {
    @Test func missingPathExitsTwoWithOneLine() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        let result = try Repository.run(["lint", "ItemView.swift", "/no/such/path"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "error: /no/such/path: no such file or directory\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func emptyFolderExitsTwoUnlessZeroFilesAreAllowed() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "notes".write(to: folder.appendingPathComponent("README.txt"), atomically: true, encoding: .utf8)
        let empty = try Repository.run(["lint", "."], in: folder)
        #expect(empty.status == 2)
        #expect(empty.stderr.hasPrefix("error: no lintable files found at ."), "\(empty.stderr)")
        #expect(empty.stderr.split(separator: "\n").count == 1)

        let allowedByFlag = try Repository.run(["lint", "--allow-zero-lintable-files", "."], in: folder)
        #expect(allowedByFlag.status == 0, "\(allowedByFlag.stderr)")
        #expect(allowedByFlag.stderr == "Done linting! Found 0 violations, 0 serious in 0 files.\n", "\(allowedByFlag.stderr)")

        try "allow_zero_lintable_files: true\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let allowedByConfig = try Repository.run(["lint", "."], in: folder)
        #expect(allowedByConfig.status == 0, "\(allowedByConfig.stderr)")

        try "allow_zero_lintable_files: maybe\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let malformed = try Repository.run(["lint", "."], in: folder)
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("'allow_zero_lintable_files' must be true or false"), "\(malformed.stderr)")
    }

    /// Everything excluded counts as nothing to lint, as in SwiftLint.
    @Test func folderWhoseFilesAreAllExcludedExitsTwo() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Generated"), withIntermediateDirectories: true)
        try EngineTests.bad.write(to: folder.appendingPathComponent("Generated/ItemView.swift"), atomically: true, encoding: .utf8)
        try "excluded: [Generated]\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let result = try Repository.run(["lint"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no lintable files found"), "\(result.stderr)")
    }

    @Test func swiftLintCommandsSayWhatToRunInstead() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["autocorrect"], ["analyze"], ["autocorrect", "--format"], ["analyze", "--compiler-log-path", "x.log"],
                          ["lint", "autocorrect"]] {
            let command = arguments[0] == "lint" ? arguments[1] : arguments[0]
            let result = try Repository.run(arguments, in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("error: synclint has no '\(command)'; "), "\(result.stderr)")
            #expect(result.stderr.contains("synclint lint"))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }
}
