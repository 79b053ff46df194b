import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SyncLintKit

/// Files that are not what their names say: FIFOs, sockets and devices are named and skipped without
/// being opened, a file that vanishes gives one line, files over the size limit are skipped unread,
/// and every other file's findings are still reported.
struct UnusualFileTests {
    private func folderWithBadView() throws -> URL {
        let folder = try Repository.temporaryFolder()
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func fifoNamedLikeASourceIsSkippedWithoutOpening() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("x.swift").path
        #expect(mkfifo(fifo, 0o644) == 0)
        // Opening a FIFO for reading blocks until a writer comes: a hang here means it was opened.
        for paths in [[folder.path], [fifo, folder.appendingPathComponent("ItemView.swift").path]] {
            let result = Linter.lint(paths: paths, configuration: .withStockRules)
            #expect(result.warnings == ["warning: \(fifo): is a FIFO (named pipe), not a regular file; skipped"], "\(paths)")
            #expect(result.findings.map(\.ruleID) == ["task_without_id"], "the other file's findings are kept")
        }
        let run = try Repository.run(["lint", "--quiet"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr.hasSuffix("x.swift: is a FIFO (named pipe), not a regular file; skipped\n"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    /// A model bundle's `.xccurrentversion` is read with the same care: as a FIFO it must not hang discovery.
    @Test func fifoAsModelVersionFileDoesNotHang() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = folder.appendingPathComponent("Lists.xcdatamodeld/Lists.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try ResourceFileTests.modelBody.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        #expect(mkfifo(folder.appendingPathComponent("Lists.xcdatamodeld/.xccurrentversion").path, 0o644) == 0)
        let found = FileDiscovery.discover(paths: [folder.path], excluded: [])
        #expect(found.resourcePaths.map(\.path) == [version.appendingPathComponent("contents").path],
                "an unreadable version file leaves the only version current")
    }

    /// Discovery lists folders with `readdir`: hidden and dependency folders are left out, a link to a
    /// Swift file is linted, and a link to a folder (here one that loops back) is never walked into.
    @Test func discoveryFollowsNoFolderLinkAndSkipsHiddenFolders() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for sub in ["Sources/App", ".git", "node_modules/lib", "Sources/.hidden"] {
            try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for file in ["Sources/App/B.swift", "Sources/App/A.swift", ".git/X.swift", "node_modules/lib/Y.swift",
                     "Sources/.hidden/Z.swift", "Sources/.Dot.swift", "Sources/App/App.entitlements"] {
            try "struct S {}".write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("Sources/Linked.swift").path,
                                       withDestinationPath: folder.appendingPathComponent("Sources/App/A.swift").path)
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("Sources/App/Loop").path, withDestinationPath: folder.path)
        let found = FileDiscovery.discover(paths: [folder.path + "/./Sources/../"], excluded: [])
        let root = folder.standardizedFileURL.path
        #expect(found.swiftFiles == ["\(root)/Sources/App/A.swift", "\(root)/Sources/App/B.swift", "\(root)/Sources/Linked.swift"])
        #expect(found.resourcePaths.map(\.path) == ["\(root)/Sources/App/App.entitlements"])
        #expect(found.warnings.isEmpty, "\(found.warnings)")
    }

    /// Discovery saw a regular file, then something else took its name: the reader checks again on
    /// the descriptor it opened without blocking.
    @Test func readerRefusesWhatIsNotARegularFile() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("late.swift").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(SourceReader.read(fifo).failureDescription == "warning: \(fifo): is a FIFO (named pipe), not a regular file; skipped")
        #expect(SourceReader.read("/dev/null").failureDescription == "warning: /dev/null: is a character device, not a regular file; skipped")
        #expect(SourceReader.read(folder.path).failureDescription == "warning: \(folder.path): is a folder, not a regular file; skipped")
    }

    @Test func fileTypesAreNamed() {
        #expect(FileType(mode: S_IFSOCK) == .other("a socket"))
        #expect(FileType(mode: S_IFBLK | 0o600) == .other("a block device"))
        #expect(FileType(mode: S_IFREG | 0o644) == .regular)
    }

    @Test func fileThatVanishedGivesOneLine() {
        let path = "/tmp/synclint-no-such-\(UUID().uuidString).swift"
        #expect(SourceReader.read(path).failureDescription == "warning: \(path): was removed before it could be read; skipped")
    }

    @Test func fileOverTheSizeLimitIsSkippedUnread() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 50 MB, sparse: the size comes from fstat, so nothing is read or allocated.
        let huge = folder.appendingPathComponent("Huge.swift")
        FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 50_000_000)
        try handle.close()
        let result = Linter.lint(paths: [folder.path], configuration: .withStockRules)
        #expect(result.warnings == ["warning: \(huge.path): 50000000 bytes, over the limit of \(SourceReader.byteCount(SourceReader.maximumFileSize)); skipped"])
        #expect(result.findings.map(\.ruleID) == ["task_without_id"])
    }

    /// A 1 MB line (a generated table, an inlined blob) is analysed like any other. How long it takes is the
    /// benchmark's to say, not a test's: a time limit here failed on a loaded machine and proves nothing idle.
    @Test func megabyteLineIsAnalysed() throws {
        let line = "let blob = \"" + String(repeating: "a", count: 1_048_576) + "\"\n"
        let result = Linter.lint(sources: [SourceInput(path: "/p/Blob.swift", text: line + EngineTests.bad)],
                                 configuration: .withStockRules)
        #expect(result.findings.map(\.ruleID) == ["task_without_id"])
        #expect(result.findings.first?.line == 5, "lines after the long one are counted right")
        #expect(result.warnings.isEmpty)
    }
}

private extension Result where Failure == SourceReader.Failure {
    var failureDescription: String? {
        if case .failure(let failure) = self { return failure.description }
        return nil
    }
}
