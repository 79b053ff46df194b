import ArgumentParser
import Foundation
import SyncLintKit

@main
enum Main {
    static func main() {
        StandardStreams.ignoreBrokenPipeSignal()
        // `synclint autocorrect --format` would fail on the unknown option before `lint` could say
        // what to run instead, so SwiftLint's command names are answered before parsing.
        if let first = CommandLine.arguments.dropFirst().first, let problem = PathCheck.firstProblem(in: [first]),
           PathCheck.swiftLintCommands[first] != nil {
            StandardStreams.writeError("error: " + problem)
            Foundation.exit(ExitStatus.usage)
        }
        do {
            var command = try SyncLintCommand.parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch OutputFailure.closedPipe {
            // `synclint rules | head`: the reader has what it wanted.
            Foundation.exit(ExitStatus.clean)
        } catch let failure as OutputFailure {
            StandardStreams.writeError(failure.line)
            Foundation.exit(ExitStatus.output)
        } catch {
            let code = SyncLintCommand.exitCode(for: error)
            if code == .success {
                do {
                    try StandardStreams.writeOutput(SyncLintCommand.fullMessage(for: error) + "\n")
                } catch OutputFailure.closedPipe {
                    Foundation.exit(ExitStatus.clean)
                } catch let failure as OutputFailure {
                    StandardStreams.writeError(failure.line)
                    Foundation.exit(ExitStatus.output)
                } catch {
                    Foundation.exit(ExitStatus.output)
                }
                Foundation.exit(ExitStatus.clean)
            }
            // Usage and configuration errors: one clear message on stderr, exit status 2.
            let message = SyncLintCommand.message(for: error)
            StandardStreams.writeError((message.hasPrefix("error:") ? "" : "error: ") + message)
            Foundation.exit(ExitStatus.usage)
        }
    }
}

struct SyncLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synclint",
        abstract: "Finds the task races, stale model writes, CloudKit schema crashes and lost sync updates of SwiftUI, SwiftData and Core Data apps.",
        version: RuleDocumentation.version,
        subcommands: [Lint.self, Rules.self, Explain.self, GenerateDocs.self],
        defaultSubcommand: Lint.self)
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lint Swift sources, Core Data models and entitlements.")

    @Argument(help: "Files or folders to lint (default: the current folder).")
    var paths: [String] = []

    @Option(help: "Output format: xcode, json or sarif.")
    var reporter: String = "xcode"

    @Option(help: "Configuration file (default: .synclint.yml in the current folder, if any).")
    var config: String?

    @Flag(help: "Turn on every rule, opt-in ones included.")
    var enableAllRules = false

    @Flag(help: "Read and write no cached results.")
    var noCache = false

    @Flag(help: "Exit with status 1 on any finding, not only on errors.")
    var strict = false

    @Flag(help: "Print wall time per stage on stderr.")
    var timings = false

    @Flag(help: "Exit 0 when the paths hold no Swift file, entitlements or Core Data model (default: an error).")
    var allowZeroLintableFiles = false

    func run() throws {
        guard let reporterKind = ReporterKind(rawValue: reporter) else {
            throw ValidationError("unknown reporter '\(reporter)'; use \(ReporterKind.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        if let problem = PathCheck.firstProblem(in: paths) { throw ValidationError(problem) }
        let configuration = try loadConfiguration()
        let currentFolder = FileManager.default.currentDirectoryPath
        let targets = paths.isEmpty ? (configuration.included.isEmpty ? [currentFolder] : configuration.included) : paths
        let result = Linter.lint(paths: targets, configuration: configuration, enableAllRules: enableAllRules)
        for warning in result.warnings { standardError(warning) }
        if result.lintableFiles == 0, !(allowZeroLintableFiles || configuration.allowZeroLintableFiles) {
            throw ValidationError("no lintable files found at \(targets.joined(separator: ", ")) (pass --allow-zero-lintable-files if that is expected)")
        }
        let reportStart = DispatchTime.now().uptimeNanoseconds
        let status = result.findings.contains(where: { $0.severity == .error }) || (strict && !result.findings.isEmpty)
            ? ExitStatus.findings : ExitStatus.clean
        do {
            try StandardStreams.writeOutput(reporterKind.render(result.findings))
        } catch OutputFailure.closedPipe {
            // `synclint lint | head`: quiet, and the status still says whether errors were found.
            throw ExitCode(status)
        }
        if timings {
            let report = Double(DispatchTime.now().uptimeNanoseconds - reportStart) / 1e9
            let t = result.timings
            let rows: [(String, Double)] = [
                ("discover", t.discover), ("read (summed over threads)", t.read), ("parse (summed over threads)", t.parse),
                ("walk: index facts + rules (summed over threads)", t.walk), ("read+parse+walk wall", t.filesWall),
                ("index merge", t.index), ("rules: resolve + project rules", t.rules), ("report", report),
            ]
            standardError("timings for \(result.filesLinted) files:")
            for (stage, seconds) in rows {
                standardError("  " + stage.padding(toLength: 48, withPad: " ", startingAt: 0) + String(format: "%8.3f s", seconds))
            }
        }
        if status != ExitStatus.clean { throw ExitCode(status) }
    }

    private func loadConfiguration() throws -> Configuration {
        let known = Set(RuleRegistry.allDescriptions.map(\.id))
        let path: String
        if let config {
            path = config
        } else {
            path = ".synclint.yml"
            guard FileManager.default.fileExists(atPath: path) else { return Configuration() }
        }
        do {
            return try Configuration.load(path: path, knownRuleIDs: known)
        } catch let error as Configuration.LoadError {
            throw ValidationError(error.description)
        }
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every rule: id, default, severity, seed.")

    func run() throws {
        let rules = RuleRegistry.allDescriptions
        let width = rules.map(\.id.count).max() ?? 0
        var lines = ["id".padding(toLength: width, withPad: " ", startingAt: 0) + "  default  severity  seed"]
        for rule in rules {
            lines.append(rule.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + (rule.isOptIn ? "opt-in " : "on     ") + "  " + rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                + "  " + rule.seed)
        }
        try StandardStreams.writeOutput(lines.joined(separator: "\n") + "\n")
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a rule's documentation.")

    @Argument(help: "The rule id, as `synclint rules` lists it.")
    var ruleID: String

    func run() throws {
        guard let rule = RuleRegistry.description(of: ruleID) else {
            throw ValidationError("unknown rule '\(ruleID)'; `synclint rules` lists them")
        }
        try StandardStreams.writeOutput(RuleDocumentation.markdown(for: rule))
    }
}

struct GenerateDocs: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate-docs", abstract: "Write docs/rules.md from the rules' metadata.")

    @Option(help: "Where to write the reference.")
    var output = "docs/rules.md"

    @Option(help: "README whose rule table (between `<!-- rules:begin -->` and `<!-- rules:end -->`) is rewritten.")
    var readmePath = "README.md"

    func run() throws {
        let url = URL(fileURLWithPath: output)
        try Self.writing(output) {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try RuleDocumentation.reference(RuleRegistry.allDescriptions).write(to: url, atomically: true, encoding: .utf8)
        }
        try StandardStreams.writeOutput("wrote \(output)\n")
        if let readme = try? String(contentsOfFile: readmePath, encoding: .utf8),
           let updated = RuleDocumentation.replacingRuleTable(in: readme, with: RuleRegistry.allDescriptions) {
            try Self.writing(readmePath) { try updated.write(toFile: readmePath, atomically: true, encoding: .utf8) }
            try StandardStreams.writeOutput("updated the rule table in \(readmePath)\n")
        }
    }

    /// A file that cannot be written is an output error (exit status 3), not a usage error. An atomic
    /// write renames a new file over the target, so a device such as /dev/full would be replaced by a
    /// regular file (when run as root): only regular files are written.
    private static func writing(_ path: String, _ body: () throws -> Void) throws {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        if let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType,
           type != .typeRegular {
            throw OutputFailure.file(path: path, reason: "not a regular file")
        }
        do {
            try body()
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw OutputFailure.file(path: path, reason: reason)
        }
    }
}

func standardError(_ line: String) {
    StandardStreams.writeError(line)
}
