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

    @Option(help: "Output format: \(ReporterKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var reporter: String = "xcode"

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: "Report only findings not recorded in this baseline file.")
    var baseline: String?

    @Option(help: "Record this run's findings in this baseline file.")
    var writeBaseline: String?

    @Option(help: "Configuration file (default: the nearest .synclint.yml in or above the linted paths, up to the repository root, else the current folder's).")
    var config: String?

    @Flag(help: "Apply safe automatic fixes, then report the findings that are left.")
    var fix = false

    @Flag(help: "Also apply fixes that may change behaviour (implies --fix).")
    var unsafeFixes = false

    @Flag(help: "With --fix: print the fixes as a unified diff and write nothing; exit 1 when there is something to fix.")
    var diff = false

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
            throw ValidationError("unknown reporter '\(reporter)'; use one of \(ReporterKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let problem = PathCheck.firstProblem(in: paths) { throw ValidationError(problem) }
        let configuration = try loadConfiguration()
        // An explicit --config decides alone, as in SwiftLint; else nested .synclint.yml files refine it.
        let configurations = ConfigurationTree(main: configuration, nestedLookup: config == nil, appliesMainIncluded: paths.isEmpty)
        let currentFolder = FileManager.default.currentDirectoryPath
        let targets = paths.isEmpty ? (configuration.included.isEmpty ? [currentFolder] : configurations.includedRoots) : paths
        // Read the baseline before linting, so a bad path fails fast with exit status 2.
        let baselineIn = try (baseline ?? configuration.baseline).map { path in
            do { return try Baseline.load(path: path) } catch let error as Baseline.LoadError { throw ValidationError(error.description) }
        }
        if fix || unsafeFixes || diff {
            let done = try applyFixes(targets: targets, configurations: configurations, root: ProjectRoot.resolve(paths: targets, currentFolder: currentFolder))
            if done { return }
        }
        let result = Linter.lint(paths: targets, configurations: configurations, enableAllRules: enableAllRules)
        if let error = configurations.errors.first { throw ValidationError(error) }
        for warning in result.warnings { standardError(warning) }
        if result.lintableFiles == 0, !(allowZeroLintableFiles || configuration.allowZeroLintableFiles) {
            throw ValidationError("no lintable files found at \(targets.joined(separator: ", ")) (pass --allow-zero-lintable-files if that is expected)")
        }
        let reportStart = DispatchTime.now().uptimeNanoseconds
        let enabled = result.enabledRules
        let writeBaselinePath = writeBaseline ?? configuration.writeBaseline
        let fullReport = LintReport(findings: result.findings, rules: RuleRegistry.allDescriptions.filter { enabled.contains($0.id) },
                                    root: ProjectRoot.resolve(paths: targets, currentFolder: currentFolder),
                                    locate: reporterKind.usesIdentities || baselineIn != nil || writeBaselinePath != nil)
        if let path = writeBaselinePath {
            do { try fullReport.baseline.write(to: path) } catch {
                throw ValidationError("cannot write baseline \(path): \(error.localizedDescription)")
            }
        }
        let report = baselineIn.map { fullReport.removing($0) } ?? fullReport
        let status = report.findings.contains(where: { $0.severity == .error }) || (strict && !report.findings.isEmpty)
            ? ExitStatus.findings : ExitStatus.clean
        let rendered = reporterKind.render(report)
        if let output {
            do { try Data(rendered.utf8).write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
                standardError("error: cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(ExitStatus.output)
            }
        } else {
            do {
                try StandardStreams.writeOutput(rendered)
            } catch OutputFailure.closedPipe {
                // `synclint lint | head`: quiet, and the status still says whether errors were found.
                throw ExitCode(status)
            }
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

    /// Fixes in memory; with `--diff` prints the diff and is done (true), else writes the files and
    /// lets the lint that follows report what is left (false).
    private func applyFixes(targets: [String], configurations: ConfigurationTree, root: String) throws -> Bool {
        let result = FixEngine.fix(paths: targets, configurations: configurations, enableAllRules: enableAllRules, includeUnsafe: unsafeFixes)
        if let error = configurations.errors.first { throw ValidationError(error) }
        for warning in (diff ? result.readWarnings : []) + result.warnings { standardError(warning) }
        if diff {
            let text = result.changes.map { change in
                let name = ProjectRoot.relative(change.path, to: root) ?? change.path
                return UnifiedDiff.render(old: change.original, new: change.fixed, oldName: "a/" + name, newName: "b/" + name)
            }.joined()
            if let output {
                do { try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
                    throw ValidationError("cannot write \(output): \(error.localizedDescription)")
                }
            } else {
                do { try StandardStreams.writeOutput(text) } catch OutputFailure.closedPipe {}
            }
            if !result.changes.isEmpty { throw ExitCode(1) }
            return true
        }
        do {
            for warning in try FixEngine.write(result) { standardError(warning) }
        } catch let error as FixEngine.WriteError {
            throw ValidationError(error.description)
        }
        let count = result.fixed.values.reduce(0, +)
        if count > 0 {
            let perRule = result.fixed.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            standardError("fixed \(count) finding\(count == 1 ? "" : "s") in \(result.changes.count) file\(result.changes.count == 1 ? "" : "s") (\(perRule))")
        }
        return false
    }

    private func loadConfiguration() throws -> Configuration {
        let known = Set(RuleRegistry.allDescriptions.map(\.id))
        let path: String
        if let config {
            path = config
        } else {
            guard let found = ConfigurationDiscovery.choose(paths: paths, currentFolder: FileManager.default.currentDirectoryPath)
            else { return Configuration() }
            path = found
        }
        do {
            return try Configuration.load(path: path, knownRuleIDs: known)
        } catch let error as Configuration.LoadError {
            throw ValidationError(error.description)
        }
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every rule: id, default, severity, where it applies, seed.")

    func run() throws {
        let rules = RuleRegistry.allDescriptions
        let width = rules.map(\.id.count).max() ?? 0
        var lines = ["id".padding(toLength: width, withPad: " ", startingAt: 0) + "  default  severity  applies to          seed"]
        for rule in rules {
            lines.append(rule.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + (rule.isOptIn ? "opt-in " : "on     ") + "  " + rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                + "  " + rule.appliesTo.summary.padding(toLength: 18, withPad: " ", startingAt: 0) + "  " + rule.seed)
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
