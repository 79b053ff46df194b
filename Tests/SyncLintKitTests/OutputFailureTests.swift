import Foundation
import Testing
@testable import SyncLintKit
#if canImport(Glibc)
import Glibc
#endif

/// The report cannot be written: a full disk and a target opened read-only end the run with one line
/// on stderr and exit status 3; a reader that went away (`| head`) ends it quietly.
struct OutputFailureTests {
    private func folderWithBadView() throws -> URL {
        let folder = try Repository.temporaryFolder()
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try Configuration.stockRulesYAML.write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func fullDiskExitsThreeWithOneLine() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try Repository.run(["lint"], in: folder, standardOutput: full)
        #expect(result.status == 3)
        #expect(result.stderr == "error: cannot write to standard output: No space left on device\n", "\(result.stderr)")
    }

    @Test func readOnlyTargetExitsThreeWithOneLine() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("report.txt")
        try Data().write(to: target)
        let readOnly = try FileHandle(forReadingFrom: target)
        let result = try Repository.run(["lint"], in: folder, standardOutput: readOnly)
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("error: cannot write to standard output: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// Help and `rules` go through the same checked writer as reports.
    @Test func otherCommandsReportAFullDiskToo() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["rules"], ["explain", "task_without_id"], ["--help"]] {
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let result = try Repository.run(arguments, in: folder, standardOutput: full)
            #expect(result.status == 3, "\(arguments)")
            #expect(result.stderr.contains("No space left on device"), "\(arguments): \(result.stderr)")
        }
    }

    /// `generate-docs` writes files atomically (a new file renamed over the target): a target that is
    /// not a regular file is refused rather than replaced. It writes only inside this repository's
    /// docs/, so the FIFO is made there, under a name no one uses, and removed afterwards.
    @Test func generateDocsReportsFilesItCannotWrite() throws {
        let name = "docs/.generate-docs-test-\(UUID().uuidString).md"
        let fifo = Repository.path(name)
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let refused = try Repository.run(["generate-docs", "--output", name], in: Repository.root)
        #expect(refused.status == 3)
        #expect(refused.stderr == "error: cannot write \(name): not a regular file\n", "\(refused.stderr)")
        let type = (try FileManager.default.attributesOfItem(atPath: fifo))[.type] as? FileAttributeType
        #expect(type != nil && type != .typeRegular, "the FIFO was left in place, not replaced by a file")
        let outside = try Repository.run(["generate-docs", "--output", "/proc/no-such/rules.md"], in: Repository.root)
        #expect(outside.status == 2)
        #expect(outside.stderr.hasPrefix("error: generate-docs writes only inside "), "\(outside.stderr)")
    }

    /// Both ends of the pipe are made here and the reading end is closed before the run starts, so the
    /// first write meets a pipe with no reader (EPIPE), as after `synclint lint | head` when head exits.
    @Test func closedPipeEndsQuietlyWithTheLintStatus() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (arguments, status) in [(["lint"], Int32(0)), (["lint", "--strict"], 1), (["rules"], 0)] {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            close(ends[0])
            let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            let result = try Repository.run(arguments, in: folder, standardOutput: writer)
            try writer.close()
            #expect(result.status == status, "\(arguments): a closed pipe keeps the status the findings give")
            #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        }
    }
}
