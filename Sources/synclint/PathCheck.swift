import Foundation

/// Checks the paths given on the command line before anything is linted: a mistyped path in CI must
/// fail the job, not pass it as "no findings".
enum PathCheck {
    /// SwiftLint's subcommands that SyncLint lacks. `synclint autocorrect` would otherwise be read as
    /// `synclint lint autocorrect` (lint is the default command) and fail as a missing folder.
    static let swiftLintCommands: [String: String] = [
        "autocorrect": "synclint has no 'autocorrect'; run `synclint lint --fix` (safe fixes; add --unsafe-fixes for the rest, --diff to see them first)",
        "analyze": "synclint has no 'analyze'; `synclint lint` already analyzes the whole project and needs no compiler log",
    ]

    /// The error for the first given path that does not exist, or nil when all exist.
    static func firstProblem(in paths: [String]) -> String? {
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            return swiftLintCommands[path] ?? "\(path): no such file or directory"
        }
        return nil
    }
}
