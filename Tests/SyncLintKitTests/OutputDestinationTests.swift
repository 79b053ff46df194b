import Foundation
import Testing
@testable import SyncLintKit
#if canImport(Glibc)
import Glibc
#endif

/// `--output PATH` treats what is at the path as a shell's `>` would, except that a regular file is
/// replaced atomically: a symbolic link is followed, a FIFO or a device is written in place (never
/// turned into a regular file), a read-only file is refused with exit status 3, and a descriptor of
/// the process (`/dev/fd/N` from process substitution) is written where it stands. Nothing here
/// touches the machine's `/dev`: FIFOs and device nodes are made in a temporary folder.
struct OutputDestinationTests {
    private func folderWithBadView() throws -> URL {
        let folder = try Repository.temporaryFolder()
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try Configuration.stockRulesYAML.write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        return folder
    }

    private func fileType(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    @Test func aRegularFileIsReplacedKeepingItsMode() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.txt").path
        try "old report\n".write(toFile: report, atomically: false, encoding: .utf8)
        #expect(chmod(report, 0o640) == 0)
        let result = try Repository.run(["lint", "--output", "report.txt", "ItemView.swift"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: report, encoding: .utf8)
        #expect(written.hasSuffix("(task_without_id)\n") && !written.contains("old report"), "\(written)")
        let mode = (try FileManager.default.attributesOfItem(atPath: report))[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".synclint-") },
                "no temporary file is left behind")
        // A new file, in a folder that does not exist: one line, exit status 3, no summary line.
        let missing = try Repository.run(["lint", "--output", "no/such/folder/report.txt", "ItemView.swift"], in: folder)
        #expect(missing.status == 3)
        #expect(missing.stderr == "error: cannot write no/such/folder/report.txt: No such file or directory\n", "\(missing.stderr)")
    }

    @Test func aSymbolicLinkIsFollowed() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("reports/latest.txt").path
        try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("reports").path, withIntermediateDirectories: true)
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
        let link = folder.appendingPathComponent("report.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "reports/latest.txt")
        let result = try Repository.run(["lint", "--output", "report.txt", "ItemView.swift"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(link) == .typeSymbolicLink, "the link stays a link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "reports/latest.txt")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasSuffix("(task_without_id)\n"))
        // A link to nothing yet makes its target.
        try FileManager.default.removeItem(atPath: target)
        #expect(try Repository.run(["lint", "--output", "report.txt", "ItemView.swift"], in: folder).status == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasSuffix("(task_without_id)\n"))
        #expect(fileType(link) == .typeSymbolicLink)
    }

    /// Renaming over a file needs only its folder to be writable: a read-only file, or one that is
    /// someone else's, would have been replaced with exit status 0.
    @Test func aReadOnlyFileIsRefused() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.txt").path
        try "keep me\n".write(toFile: report, atomically: false, encoding: .utf8)
        #expect(chmod(report, 0o444) == 0)
        let result = try Repository.run(["lint", "--output", "report.txt", "ItemView.swift"], in: folder)
        #expect(result.status == 3)
        #expect(result.stderr == "error: cannot write report.txt: the file is read-only; nothing written\n", "\(result.stderr)")
        #expect(!result.stderr.contains("Done linting"), "no summary when the report was not written")
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "keep me\n")
        // The same through a link to it.
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.txt").path, withDestinationPath: "report.txt")
        #expect(try Repository.run(["lint", "--output", "link.txt", "ItemView.swift"], in: folder).status == 3)
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "keep me\n")
    }

    /// A FIFO is opened and written: its reader gets the report, and the FIFO stays a FIFO.
    @Test func aFIFOIsWrittenInPlace() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("report.fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(try ReportDestination.method(for: fifo) == .inPlace(path: fifo))
        let received = ReceivedText()
        let done = DispatchSemaphore(value: 0)
        // The reader's open waits for the writer, as a `cat report.fifo` would.
        Thread.detachNewThread {
            if let handle = FileHandle(forReadingAtPath: fifo) {
                received.text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            }
            done.signal()
        }
        let result = try Repository.run(["lint", "--output", "report.fifo", "ItemView.swift"], in: folder)
        #expect(done.wait(timeout: .now() + 60) == .success, "the reader got the end of the report")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(received.text.hasSuffix("(task_without_id)\n"), "\(received.text)")
        #expect(fileType(fifo) == .typeUnknown || fileType(fifo) != .typeRegular, "the FIFO was not replaced by a file")
    }

    /// A character device node, made in a temporary folder with the numbers of the null device (only
    /// root may make one; elsewhere the decision is checked on the FIFO above, which takes the same
    /// path through the code).
    @Test func aDeviceIsWrittenInPlace() throws {
        #if os(Linux)
        guard geteuid() == 0 else { return }
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let device = folder.appendingPathComponent("null-device").path
        // Linux's encoding of major 1, minor 3 (glibc's `makedev`).
        #expect(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        #expect(fileType(device) == .typeCharacterSpecial)
        #expect(try ReportDestination.method(for: device) == .inPlace(path: device))
        let result = try Repository.run(["lint", "--output", "null-device", "ItemView.swift"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(device) == .typeCharacterSpecial, "the device node is still a device node, not a text file")
        #endif
    }

    /// `--output /dev/fd/N` (what bash's `>(cmd)` passes) and `/dev/stdout` name descriptors the
    /// process already has: written where they stand, here a pipe this test made and reads.
    @Test func aDescriptorOfTheProcessIsWrittenWhereItStands() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(ReportDestination.ownDescriptor(named: "/dev/fd/63") == 63)
        #expect(ReportDestination.ownDescriptor(named: "/proc/self/fd/4") == 4)
        #expect(ReportDestination.ownDescriptor(named: "/dev/stdout") == 1)
        #expect(ReportDestination.ownDescriptor(named: "/tmp/fd/3") == nil)
        for script in [
            // Descriptor 3 is bash's copy of its standard output, the test's pipe; synclint's own
            // standard output goes to its standard error, so only --output can reach the pipe.
            "\"$0\" lint --quiet --output /dev/fd/3 ItemView.swift 3>&1 1>&2",
            "\"$0\" lint --quiet --output /dev/stdout ItemView.swift",
            // Process substitution: bash passes /dev/fd/N of a pipe to `cat`, which writes to the test's pipe.
            "\"$0\" lint --quiet --output >(cat) ItemView.swift; wait",
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", script, Repository.executable.path]
            process.currentDirectoryURL = folder
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(script): \(errors)")
            #expect(output.hasSuffix("(task_without_id)\n") && output.split(separator: "\n").count == 1, "\(script): \(output)")
        }
    }

    /// `--write-baseline` writes the same way: through a link, and never over a read-only file.
    @Test func baselinesAreWrittenTheSameWay() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("baseline.json").path,
                                                   withDestinationPath: "kept.json")
        let linked = try Repository.run(["lint", "--write-baseline", "baseline.json", "ItemView.swift"], in: folder)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(fileType(folder.appendingPathComponent("baseline.json").path) == .typeSymbolicLink)
        #expect(try String(contentsOfFile: folder.appendingPathComponent("kept.json").path, encoding: .utf8).contains("task_without_id"))
        #expect(chmod(folder.appendingPathComponent("kept.json").path, 0o444) == 0)
        let readOnly = try Repository.run(["lint", "--write-baseline", "kept.json", "ItemView.swift"], in: folder)
        #expect(readOnly.status == 2)
        #expect(readOnly.stderr == "error: cannot write baseline kept.json: the file is read-only; nothing written\n", "\(readOnly.stderr)")
    }

    @Test func aFolderIsRefused() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Repository.run(["lint", "--output", ".", "ItemView.swift"], in: folder)
        #expect(result.status == 3)
        #expect(result.stderr == "error: cannot write .: is a folder\n", "\(result.stderr)")
    }
}

/// What the FIFO's reader received, handed from its thread to the test.
private final class ReceivedText: @unchecked Sendable {
    var text = ""
}
