import Foundation

/// Paths inside this repository, found from this source file, and a scratch folder per test.
enum Repository {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The `synclint` executable built next to the test bundle. Its results cache goes to a scratch
    /// folder of this test process (`isolatedCache`), never the user's.
    static var executable: URL {
        _ = isolatedCache
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("synclint")
    }

    /// `XDG_CACHE_HOME` for every process the tests start, set once.
    static let isolatedCache: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("synclint-tests-cache-\(getpid())").path
        setenv("XDG_CACHE_HOME", folder, 1)
        return folder
    }()

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("synclint-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct RunResult {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs the built `synclint` with arguments in a folder; `input`, when given, is its standard input
    /// (`--use-stdin`).
    static func run(_ arguments: [String], in folder: URL, input: String? = nil) throws -> RunResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inPipe = Pipe()
        if input != nil { process.standardInput = inPipe }
        try process.run()
        if let input {
            // Inputs in these tests are small, well under a pipe's buffer, so writing before reading cannot block.
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs the built `synclint` with its standard output going to `standardOutput` (a file opened
    /// for reading only, `/dev/full`, a pipe nobody reads); stdout is then not captured.
    static func run(_ arguments: [String], in folder: URL, standardOutput: FileHandle) throws -> RunResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let err = Pipe()
        process.standardOutput = standardOutput
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, stdout: "", stderr: String(decoding: errData, as: UTF8.self))
    }
}
