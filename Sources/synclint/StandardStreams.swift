#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SyncLintKit

/// Exit statuses, as README's "Exit status" paragraph documents them.
enum ExitStatus {
    static let clean: Int32 = 0
    /// A finding of severity `error` (or any finding with `--strict`).
    static let findings: Int32 = 1
    /// Usage, configuration or path errors: nothing was linted.
    static let usage: Int32 = 2
    /// The report could not be written (full disk, read-only target, I/O error).
    static let output: Int32 = 3
}

/// Why the report could not be written.
enum OutputFailure: Error {
    /// The reader went away (`synclint lint | head`): nobody is left to tell, so the run ends quietly.
    case closedPipe
    /// Any other write error, with the system's reason (`No space left on device`).
    case failed(reason: String)
    /// A file the command writes (`generate-docs`) could not be written.
    case file(path: String, reason: String)

    var line: String {
        switch self {
        case .closedPipe: return "error: standard output was closed"
        case .failed(let reason): return "error: cannot write to standard output: \(reason)"
        case .file(let path, let reason): return "error: cannot write \(path): \(reason)"
        }
    }
}

/// Writes to file descriptors with `write(2)` and checks every result. `FileHandle.write(_:)` traps
/// on a write error (a full disk crashed the run with a register dump), and `print` drops errors
/// silently (a full disk exited 0 with a truncated report), so neither is used for output.
enum StandardStreams {
    /// Ignores SIGPIPE so a closed pipe shows up as EPIPE from `write` instead of killing the process.
    static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    static func writeOutput(_ text: String) throws {
        try write(text, to: STDOUT_FILENO)
    }

    /// Diagnostics: if stderr itself fails there is nowhere left to report it, so errors are dropped.
    static func writeError(_ line: String) {
        try? write(line + "\n", to: STDERR_FILENO)
    }

    static func write(_ text: String, to descriptor: Int32) throws {
        guard let code = ReportDestination.writeAll(Array(text.utf8), to: descriptor) else { return }
        if code == EPIPE { throw OutputFailure.closedPipe }
        throw OutputFailure.failed(reason: String(cString: strerror(code)))
    }
}
