import ArgumentParser
import Foundation
import SyncLintKit
import SyncLintServer

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
        subcommands: [Lint.self, LanguageServerCommand.self, Rules.self, Explain.self, Reporters.self, Docs.self, Version.self, GenerateDocs.self],
        defaultSubcommand: Lint.self)
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lint Swift sources, Core Data models and entitlements.")

    @Argument(help: "Files or folders to lint (default: the current folder).")
    var paths: [String] = []

    @Option(help: "Output format (default: the configuration's `reporter`, else xcode): \(ReporterKind.allCases.map(\.rawValue).joined(separator: ", ")); SwiftLint's github-actions-logging and gitlab are accepted.")
    var reporter: String?

    @Option(help: "Write the report here instead of standard output: a regular file is replaced atomically (a read-only one is refused), a link followed, a FIFO, device or /dev/fd/N written in place.")
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

    @Option(name: .customLong("only-rule"), help: "Run only this rule (repeat for several), whatever the configuration enables.")
    var onlyRules: [String] = []

    @Flag(help: "Say which configuration files were loaded, on stderr.")
    var verbose = false

    @Flag(help: "Neither read nor write the results cache: parse and walk every file.")
    var noCache = false

    @Flag(help: "Use the results cache in its default folder, as without this flag ($XDG_CACHE_HOME/synclint, else ~/.cache/synclint, or ~/Library/Caches/synclint on macOS); kept for scripts written when the cache was opt-in, it also reports a default folder that cannot be used.")
    var cache = false

    @Option(help: "Use the results cache in this folder (default: the configuration's `cache_path`, else the default folder of --cache).")
    var cachePath: String?

    @Flag(help: "Lint the Swift text on standard input as the file at --stdin-path (for editors), inside that file's project; without --stdin-path, as a file named <stdin> in the current folder.")
    var useStdin = false

    @Option(help: "With --use-stdin: the file the text stands for (it need not exist, or may differ on disk); findings name it.")
    var stdinPath: String?

    @Flag(help: "Do not print the summary line (\"Done linting! ...\") on stderr.")
    var quiet = false

    @Flag(help: "Exit with status 1 on any finding, not only on errors (also the configuration's `strict: true`).")
    var strict = false

    @Flag(help: "Print the total time, each stage's, and each rule's and index fact collector's, on stderr.")
    var timings = false

    @Flag(help: "Exit 0 when the paths hold no Swift file, entitlements or Core Data model (default: an error).")
    var allowZeroLintableFiles = false

    @Option(help: "The lowest confidence shown: high (the default, also the configuration's `confidence`), or medium to add findings a rule decided from a name or a text.")
    var confidence: String?

    func run() throws {
        let runStart = DispatchTime.now().uptimeNanoseconds
        if let reporter, case .failure(let problem) = ReporterKind.named(reporter) { throw ValidationError(problem.description) }
        if let problem = PathCheck.firstProblem(in: paths) { throw ValidationError(problem) }
        if noCache && cachePath != nil { throw ValidationError("--cache-path cannot be used with --no-cache") }
        if noCache && cache { throw ValidationError("--cache cannot be used with --no-cache") }
        if cachePath?.isEmpty == true { throw ValidationError("--cache-path needs a folder") }
        let known = Set(RuleRegistry.allDescriptions.map(\.id))
        for rule in onlyRules where !known.contains(rule) {
            throw ValidationError(Explain.unknownRule(rule, in: " in --only-rule"))
        }
        let shownConfidence = try confidence.map { name in
            guard let value = Confidence(rawValue: name) else {
                throw ValidationError("--confidence must be high or medium, not '\(name)'")
            }
            return value
        }
        let standardInput = try readStandardInput()
        var configuration = try loadConfiguration()
        if let shownConfidence { configuration.confidence = shownConfidence }
        // cannot fail: both names were checked, the configuration's when it was read.
        let reporterKind = try ReporterKind.named(reporter ?? configuration.reporter ?? ReporterKind.xcode.rawValue).get()
        let strict = strict || configuration.strict
        let currentFolder = FileManager.default.currentDirectoryPath
        if config == nil, let file = configuration.shownPath ?? configuration.file,
           let warning = ConfigurationDiscovery.outsideProjectWarning(configuration: file, paths: standardInput.map { [$0.path] } ?? paths,
                                                                      currentFolder: currentFolder) {
            standardError(warning)
        }
        // An explicit --config decides alone, as in SwiftLint; else nested .synclint.yml files refine it.
        let configurations = ConfigurationTree(main: configuration, nestedLookup: config == nil, appliesMainIncluded: paths.isEmpty && !useStdin,
                                               forcedOnlyRules: onlyRules.isEmpty ? nil : onlyRules, rules: RuleRegistry.allDescriptions)
        Linter.measuresListeners = timings
        let targets = standardInput != nil ? [] : paths.isEmpty ? (configuration.included.isEmpty ? [currentFolder] : configurations.includedRoots) : paths
        // Where report paths and baseline identities are relative to: the buffer's path stands for the buffer.
        let reportedPaths = standardInput.map { [$0.path] } ?? targets
        // Read the baseline before linting, so a bad path fails fast with exit status 2.
        let baselineIn = try (baseline ?? configuration.baseline).map { path in
            do { return try Baseline.load(path: path) } catch let error as Baseline.LoadError { throw ValidationError(error.description) }
        }
        if fix || unsafeFixes || diff {
            let done = try applyFixes(targets: targets, configurations: configurations, root: ProjectRoot.resolve(paths: targets, currentFolder: currentFolder))
            if done { return }
        }
        // The cache is on by default, as SwiftLint's: measured in release on 447k lines (README, "The cache's speed"),
        // an unchanged rerun costs about 5% of a run without it and a one-file edit about 13%; the price is the cold
        // run (every file's entry and the run state encoded and written), about 1.4 times one without it.
        let askedRoot = cachePath ?? configuration.cachePath ?? (cache ? ResultCache.defaultRoot() : nil)
        var cache = noCache ? nil : ResultCache(root: askedRoot ?? ResultCache.defaultRoot())
        // A default folder nobody asked for that cannot be used (a read-only home, a sandboxed plugin) turns the cache
        // off without a word: the run is the same, only not faster. A folder the user named is reported.
        if askedRoot == nil, cache?.isUnusable == true { cache = nil }
        let result = Linter.lintInProjects(paths: targets, standardInput: standardInput, configurations: configurations,
                                           enableAllRules: enableAllRules, cache: cache)
        if let warning = cache?.finish() { standardError(warning) }
        if verbose {
            let files = configurations.loadedFiles
            for file in files { standardError("Loading configuration from '\(file)'") }
            if files.isEmpty { standardError("No configuration file found; using the defaults") }
        }
        if let error = configurations.errors.first { throw ValidationError(error) }
        for warning in result.warnings { standardError(warning) }
        // A file named on the command line that the configuration excludes is said to be, with the entry.
        let excludedNames = (standardInput.map { [$0.path] } ?? paths).compactMap { path -> String? in
            let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: currentFolder)).standardizedFileURL.path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), isFolder.boolValue { return nil }
            return configurations.exclusionReason(forFile: absolute).map { "\(path): \($0)" }
        }
        if result.lintableFiles == 0, !(allowZeroLintableFiles || configuration.allowZeroLintableFiles) {
            if !excludedNames.isEmpty {
                throw ValidationError("nothing to lint: \(excludedNames.joined(separator: "; ")) (pass --allow-zero-lintable-files if that is expected)")
            }
            throw ValidationError("no lintable files found at \(reportedPaths.joined(separator: ", ")) (pass --allow-zero-lintable-files if that is expected)")
        }
        for line in excludedNames { standardError("warning: \(line); not linted") }
        let reportStart = DispatchTime.now().uptimeNanoseconds
        let enabled = result.enabledRules
        let writeBaselinePath = writeBaseline ?? configuration.writeBaseline
        let bufferPath = standardInput.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path }
        let fullReport = LintReport(findings: result.findings, rules: RuleRegistry.allDescriptions.filter { enabled.contains($0.id) },
                                    root: ProjectRoot.resolve(paths: reportedPaths, currentFolder: currentFolder),
                                    documentationURL: configuration.documentationURL ?? RuleDocumentation.documentationURL,
                                    locate: reporterKind.usesIdentities || baselineIn != nil || writeBaselinePath != nil,
                                    text: { path in
                                        // Identities read the line's text: the buffer's, not the file on disk.
                                        if path == bufferPath, let standardInput { return standardInput.text }
                                        return try? String(contentsOfFile: path, encoding: .utf8)
                                    })
        if let path = writeBaselinePath {
            do { try fullReport.baseline.write(to: path) } catch let error as ReportDestination.WriteError {
                throw ValidationError("cannot write baseline \(path): \(error.reason)")
            } catch {
                throw ValidationError("cannot write baseline \(path): \(error.localizedDescription)")
            }
        }
        let report = baselineIn.map { fullReport.removing($0) } ?? fullReport
        let status = report.findings.contains(where: { $0.severity == .error }) || (strict && !report.findings.isEmpty)
            ? ExitStatus.findings : ExitStatus.clean
        let rendered = reporterKind.render(report)
        if let output {
            do { try ReportDestination.write(rendered, to: output) } catch let error as ReportDestination.WriteError {
                // `--output /dev/stdout | head`, a FIFO whose reader left: quiet, as for standard output.
                if error.readerWentAway { throw ExitCode(status) }
                // No summary line: the run did not deliver its report.
                standardError("error: \(error.description)")
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
        if !quiet {
            if result.hiddenByConfidence > 0 {
                let count = result.hiddenByConfidence
                standardError("\(count) medium-confidence finding\(count == 1 ? "" : "s") not shown; --confidence medium shows them")
            }
            standardError(Self.summary(findings: report.findings, files: result.lintableFiles))
        }
        if timings {
            let now = DispatchTime.now().uptimeNanoseconds
            for line in Self.timingLines(result.timings, files: result.filesLinted, report: Double(now - reportStart) / 1e9,
                                         total: Double(now - runStart) / 1e9, cache: cache.map(Self.cacheLine)) {
                standardError(line)
            }
        }
        if status != ExitStatus.clean { throw ExitCode(status) }
    }

    /// `--timings`: the whole run, each stage, then each rule and each index fact collector, slowest
    /// first. Work done in parallel is summed over threads, so those rows can add up to more than the total.
    /// How the run used the results cache, for `--timings`.
    static func cacheLine(_ cache: ResultCache) -> String {
        let used = cache.statistics
        return "  cache \(cache.folder): \(used.stampHits) unchanged by stat, \(used.contentHits) by content, "
            + "\(used.misses) parsed, \(used.writes) written, \(used.unreadable) unusable; whole run "
            + (used.wholeRunReused ? "reused" : used.wholeRunStored ? "stored" : "not stored")
            + "; run state: \(used.stateHits) files from it (\(used.stateDecodedAhead) decoded during discovery), "
            + (used.stateStored ? "stored" : "not stored")
    }

    static func timingLines(_ t: StageTimings, files: Int, report: Double, total: Double, cache: String? = nil) -> [String] {
        func row(_ name: String, _ seconds: Double) -> String {
            "  " + name.padding(toLength: 48, withPad: " ", startingAt: 0) + String(format: "%8.3f s", seconds)
        }
        var lines = ["timings for \(files) files:", row("total (wall)", total)]
        let stages: [(String, Double)] = [
            ("discover", t.discover), ("read (summed over threads)", t.read), ("parse (summed over threads)", t.parse),
            ("walk: index facts + rules (summed over threads)", t.walk), ("read+parse+walk wall", t.filesWall),
            ("index merge", t.index), ("rules: resolve + project rules", t.rules), ("report", report),
        ]
        lines += stages.map { row($0.0, $0.1) }
        if let cache { lines.append(cache) }
        for (title, times) in [("per rule (summed over threads):", t.perRule), ("per index fact collector (summed over threads):", t.perCollector)] {
            lines.append(title)
            lines += times.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { row($0.key, $0.value) }
        }
        return lines
    }

    /// The closing line on stderr, worded like SwiftLint's so people and scripts that know it read it.
    static func summary(findings: [Finding], files: Int) -> String {
        let serious = findings.filter { $0.severity == .error }.count
        return "Done linting! Found \(findings.count) violation\(findings.count == 1 ? "" : "s"), \(serious) serious "
            + "in \(files) file\(files == 1 ? "" : "s")."
    }

    /// The name findings carry for a buffer given without `--stdin-path`: no file has it, so the
    /// buffer replaces nothing on disk.
    static let unnamedStandardInput = "<stdin>"

    /// `--use-stdin`: the text on standard input, standing for the file at `--stdin-path`.
    private func readStandardInput() throws -> SourceInput? {
        guard useStdin else {
            if stdinPath != nil { throw ValidationError("--stdin-path is used only with --use-stdin") }
            return nil
        }
        if stdinPath?.isEmpty == true { throw ValidationError("--stdin-path needs a path: the file the text stands for") }
        // As SwiftLint's: without a path the buffer is a file of the current folder's project.
        let stdinPath = stdinPath ?? Self.unnamedStandardInput
        if !paths.isEmpty { throw ValidationError("--use-stdin lints only the text on standard input; give no paths") }
        if fix || unsafeFixes || diff { throw ValidationError("--fix cannot be used with --use-stdin") }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        if data.count > SourceReader.maximumFileSize {
            throw ValidationError("standard input is larger than \(SourceReader.maximumFileSize / (1024 * 1024)) MiB, the limit for a source file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("standard input is not UTF-8 text")
        }
        let absolute = URL(fileURLWithPath: stdinPath, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return SourceInput(path: absolute.standardizedFileURL.path, text: text)
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
                do { try ReportDestination.write(text, to: output) } catch let error as ReportDestination.WriteError {
                    if !error.readerWentAway {
                        standardError("error: \(error.description)")
                        throw ExitCode(ExitStatus.output)
                    }
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
        try loadLintConfiguration(explicit: config, paths: useStdin ? [stdinPath ?? Self.unnamedStandardInput] : paths)
    }
}

/// `--config FILE`, else the nearest `.synclint.yml` for the paths (`ConfigurationDiscovery`), else the defaults.
func loadLintConfiguration(explicit: String?, paths: [String]) throws -> Configuration {
    let path: String
    if let explicit {
        path = explicit
    } else {
        guard let found = ConfigurationDiscovery.choose(paths: paths, currentFolder: FileManager.default.currentDirectoryPath)
        else { return Configuration() }
        path = found
    }
    do {
        return try Configuration.load(path: path, rules: RuleRegistry.allDescriptions)
    } catch let error as Configuration.LoadError {
        throw ValidationError(error.description)
    }
}

/// `synclint lsp`: findings in the editor while you type (docs/editors.md).
struct LanguageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server (LSP 3.17 over standard input and output) for editors.",
        discussion: "Each workspace folder is a project, as `lint FOLDER` decides projects. Logs go to standard error.")

    @Option(help: "Configuration file for every file (default: the nearest .synclint.yml, as `lint` finds them).")
    var config: String?

    @Option(help: "Milliseconds without an edit before an open file is analysed again.")
    var debounce: Double = 50

    func run() throws {
        let server = LanguageServer(options: .init(configuration: config, debounce: max(0, debounce) / 1000))
        Foundation.exit(server.run())
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every rule: whether it runs under the configuration, its default, severity, where it applies, and what it finds.")

    @Option(help: "Configuration file (default: the nearest .synclint.yml in or above the current folder, up to the repository root).")
    var config: String?

    @Flag(help: "Show the rules as `lint --enable-all-rules` runs them: every one on.")
    var enableAllRules = false

    @Argument(help: "A rule id: print that rule's documentation, as `synclint explain RULE` does (SwiftLint's `rules RULE`).")
    var ruleID: String?

    func run() throws {
        if let ruleID {
            // SwiftLint users ask `rules RULE`; the answer is `explain`'s, and the hint names it.
            try StandardStreams.writeOutput(try Explain.documentation(of: ruleID))
            standardError("note: `synclint explain \(ruleID)` prints one rule's documentation; `synclint rules` lists every rule")
            return
        }
        let configuration = try loadLintConfiguration(explicit: config, paths: [])
        let enabled = Linter.enabledRules(configuration: configuration, enableAllRules: enableAllRules)
        try StandardStreams.writeOutput(Self.table(RuleRegistry.allDescriptions, enabled: enabled))
    }

    /// Longest summary shown; `synclint explain RULE` prints the whole text.
    static let summaryWidth = 100

    /// One line per rule in fixed-width columns (the summary last), so the output lines up and is the
    /// same on every run for the same configuration.
    static func table(_ rules: [RuleDescription], enabled: Set<String>) -> String {
        let header = ["id", "enabled", "default", "severity", "applies to", "what it finds"]
        var rows = [header]
        for rule in rules {
            rows.append([rule.id, enabled.contains(rule.id) ? "yes" : "no", rule.isOptIn ? "opt-in" : "on", rule.severity.rawValue,
                         rule.appliesTo.summary, summary(rule)])
        }
        let widths = (0..<header.count - 1).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            (0..<header.count - 1).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                + "  " + row[header.count - 1]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first sentence of what the rule finds, cut at a word before `summaryWidth` characters.
    static func summary(_ rule: RuleDescription) -> String {
        let sentence = RuleDocumentation.firstSentence(of: rule.whatItDoes.trimmingCharacters(in: .whitespaces))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard sentence.count > summaryWidth else { return sentence }
        let cut = sentence.prefix(summaryWidth - 1)
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a rule's documentation.")

    @Argument(help: "The rule id, as `synclint rules` lists it.")
    var ruleID: String

    func run() throws {
        try StandardStreams.writeOutput(try Self.documentation(of: ruleID))
    }

    /// A rule's documentation, or a usage error with the closest rule id.
    static func documentation(of ruleID: String) throws -> String {
        guard let rule = RuleRegistry.description(of: ruleID) else { throw ValidationError(unknownRule(ruleID)) }
        return RuleDocumentation.markdown(for: rule)
    }

    /// "unknown rule 'x'; did you mean 'y'?" with the closest id (the configuration's own helper), or
    /// where the ids are listed.
    static func unknownRule(_ ruleID: String, in place: String = "") -> String {
        let suggestion = Configuration.suggestion(for: ruleID, among: Set(RuleRegistry.allDescriptions.map(\.id)))
        return "unknown rule '\(ruleID)'\(place)" + (suggestion.isEmpty ? "; `synclint rules` lists them" : suggestion)
    }
}

/// SwiftLint's `reporters`: every output format and what it is for.
struct Reporters: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the output formats `lint --reporter` accepts.")

    func run() throws {
        let width = ReporterKind.allCases.map(\.rawValue.count).max() ?? 0
        let lines = ReporterKind.allCases.map { $0.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.purpose }
        try StandardStreams.writeOutput(lines.joined(separator: "\n") + "\n")
    }
}

/// SwiftLint's `docs` opens its rule directory; SyncLint's rule reference is this build's own text.
struct Docs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the rule reference (every rule's documentation, as docs/rules.md), or one rule's.")

    @Argument(help: "A rule id: only that rule's documentation.")
    var ruleID: String?

    func run() throws {
        if let ruleID { return try StandardStreams.writeOutput(try Explain.documentation(of: ruleID)) }
        try StandardStreams.writeOutput(RuleDocumentation.reference(RuleRegistry.allDescriptions))
    }
}

/// SwiftLint's `version`, as `synclint --version`.
struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print SyncLint's version.")

    func run() throws {
        try StandardStreams.writeOutput(RuleDocumentation.version + "\n")
    }
}

struct GenerateDocs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-docs",
        abstract: "For SyncLint's maintainers: rewrite SyncLint's own docs/rules.md and README rule table from the rules' metadata.",
        discussion: "Run it in the SyncLint repository this synclint was built from; anywhere else it refuses and writes nothing.",
        // A maintainer's command: kept out of users' `--help`.
        shouldDisplay: false)

    @Option(help: "Where to write the reference, inside the repository's docs/ folder.")
    var output = "docs/rules.md"

    @Option(help: "The repository's README, whose rule table (between `<!-- rules:begin -->` and `<!-- rules:end -->`) is rewritten.")
    var readmePath = "README.md"

    /// The root of the package this executable was built from: this file is
    /// `<root>/Sources/synclint/SyncLintCommand.swift` when it is compiled.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().resolvingSymlinksInPath()

    func run() throws {
        let root = Self.packageRoot
        // The command writes over files by name: in a user's project, `docs/rules.md` is theirs.
        guard Self.isSyncLintPackage(root) else {
            throw ValidationError("generate-docs rewrites SyncLint's own docs, and the SyncLint source this synclint was built from (\(root.path)) is not there; nothing written")
        }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath()
        guard current.path == root.path else {
            throw ValidationError("generate-docs rewrites SyncLint's own docs; run it in \(root.path), not in \(current.path); nothing written")
        }
        let docs = root.appendingPathComponent("docs").path + "/"
        let outputTarget = Self.resolved(output, from: current)
        guard outputTarget.hasPrefix(docs) else {
            throw ValidationError("generate-docs writes only inside \(docs), not \(output); nothing written")
        }
        let readmeTarget = Self.resolved(readmePath, from: current)
        guard readmeTarget == root.appendingPathComponent("README.md").path else {
            throw ValidationError("generate-docs rewrites only \(root.path)/README.md, not \(readmePath); nothing written")
        }
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

    /// SyncLint's own package: a manifest that names the package SyncLint, next to this command's source.
    static func isSyncLintPackage(_ folder: URL) -> Bool {
        guard let manifest = try? String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8) else { return false }
        return manifest.contains("name: \"SyncLint\"")
            && FileManager.default.fileExists(atPath: folder.appendingPathComponent("Sources/synclint/SyncLintCommand.swift").path)
    }

    /// A path as it will be written: absolute, with `..` and symbolic links (of the file, or of the
    /// folders above it that exist) resolved, so a link cannot lead a write out of the repository.
    static func resolved(_ path: String, from folder: URL) -> String {
        var url = URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            missing.insert(url.lastPathComponent, at: 0)
            url = url.deletingLastPathComponent()
        }
        var result = url.resolvingSymlinksInPath()
        for component in missing { result.appendPathComponent(component) }
        return result.standardizedFileURL.path
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
