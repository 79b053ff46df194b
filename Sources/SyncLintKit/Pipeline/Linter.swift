import Dispatch
import Foundation
import SwiftParser
import SwiftSyntax

/// A Swift source given to the linter as text (tests, editors) instead of a path.
public struct SourceInput: Sendable {
    public let path: String
    public let text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// Wall-clock seconds per stage. Reading, parsing and walking happen together per file in
/// parallel, so `read`, `parse` and `walk` are summed across worker threads.
public struct StageTimings: Sendable {
    public var discover = 0.0
    public var read = 0.0
    public var parse = 0.0
    /// The single walk per file: index facts and rule hooks together.
    public var walk = 0.0
    /// Wall time of the parallel read+parse+walk stage as a whole.
    public var filesWall = 0.0
    /// Merging per-file facts into the project index.
    public var index = 0.0
    /// Resolving index-dependent findings, project rules, suppression and sorting.
    public var rules = 0.0
    public var report = 0.0
    /// Per rule id, with `Linter.measuresListeners`: its hooks in every walk, its end-of-file checks,
    /// its questions to the index and, for a project rule, its check (summed over threads).
    public var perRule: [String: Double] = [:]
    /// Per index fact collector, with `Linter.measuresListeners`: its hooks in every walk.
    public var perCollector: [String: Double] = [:]

    /// Adds another run's times (several projects linted in one command).
    mutating func add(_ other: StageTimings) {
        discover += other.discover
        read += other.read
        parse += other.parse
        walk += other.walk
        filesWall += other.filesWall
        index += other.index
        rules += other.rules
        perRule.merge(other.perRule, uniquingKeysWith: +)
        perCollector.merge(other.perCollector, uniquingKeysWith: +)
    }
}

public struct LintResult: Sendable {
    public var findings: [Finding]
    /// One line each: skipped files, config problems, files with syntax errors.
    public var warnings: [String]
    public var filesLinted: Int
    public var timings: StageTimings
    /// Swift and resource files discovery found, readable or not (`lint(paths:)` only): zero means the
    /// paths held nothing to lint, which the command line reports as an error.
    public var lintableFiles = 0
    /// Rules that ran on some file: with nested configurations, the union of every file's rules.
    public var enabledRules: Set<String> = []
    /// Findings left out because their confidence is below the configuration's `confidence` (`high` by default).
    public var hiddenByConfidence = 0
}

/// The pipeline: discover → read and parse each file once (in parallel) → one walk per file that
/// collects index facts and runs the syntax rules → merge the project index → resolve
/// index-dependent findings and run project rules → suppress, sort.
public enum Linter {
    /// `--timings`: time every rule's and collector's hooks. Off by default, since reading the clock
    /// around each hook of each node costs more than some hooks do. Set once, before a run.
    nonisolated(unsafe) public static var measuresListeners = false

    /// Which rules run for a configuration.
    public static func enabledRules(configuration: Configuration, enableAllRules: Bool) -> Set<String> {
        let all = RuleRegistry.allDescriptions
        if enableAllRules { return Set(all.map(\.id)) }
        if let only = configuration.onlyRules {
            return only.contains(Configuration.allRules) ? Set(all.map(\.id)) : Set(only)
        }
        var enabled = Set(all.filter { !$0.isOptIn }.map(\.id))
        enabled.formUnion(configuration.optInRules)
        if configuration.optInRules.contains(Configuration.allRules) { enabled.formUnion(all.map(\.id)) }
        enabled.remove(Configuration.allRules)
        enabled.subtract(configuration.disabledRules)
        return enabled
    }

    /// Lints files and folders on disk with one configuration for every file (as `--config` does).
    public static func lint(paths: [String], configuration: Configuration, enableAllRules: Bool = false) -> LintResult {
        lint(paths: paths, configurations: .single(configuration), enableAllRules: enableAllRules)
    }

    /// Lints files and folders on disk, each file with the configuration that applies to it. (The
    /// command line passes the main configuration's `included` folders when the user names no path.)
    /// With a `cache`, each file's result is taken from it when the file, SyncLint and the file's rules
    /// are unchanged, and stored otherwise; the index is rebuilt and every finding resolved again either way.
    public static func lint(paths: [String], configurations: ConfigurationTree, enableAllRules: Bool = false,
                            cache: ResultCache? = nil) -> LintResult {
        var clock = Stopwatch()
        let wholeRun = "lint\n" + paths.joined(separator: "\n")
        // The last state of a run over these paths is read and decoded while discovery walks the folders.
        let preload = cache?.preloadState(run: Self.latestStateKey(wholeRun: wholeRun, reportOnly: nil))
        let discovered = FileDiscovery.discover(paths: paths, configurations: configurations)
        let inputs = ProjectInputs(resourcePaths: discovered.resourcePaths.map(\.path)) {
            let (resources, xcodeProjects, warnings) = readResources(discovered, cache: cache)
            let layout = ProjectLayout.make(paths: paths, swiftFiles: discovered.swiftFiles, xcodeProjects: xcodeProjects)
            return ProjectInputs.Loaded(resources: resources, layout: layout, warnings: warnings)
        }
        let discoverTime = clock.lap()
        var result = run(files: discovered.swiftFiles.map { .path($0) }, inputs: inputs,
                         configurations: configurations, enableAllRules: enableAllRules, cache: cache,
                         wholeRun: wholeRun, preload: preload)
        result.warnings = configurations.warnings(lintedRoots: paths) + discovered.warnings + result.warnings
        result.timings.discover = discoverTime
        result.lintableFiles = discovered.lintableCount
        return result
    }

    /// Reads the resource files discovery found: Xcode projects into targets, the others as text.
    /// With a `cache`, an Xcode project unchanged since a run stored it is taken from there: parsing a large
    /// `project.pbxproj` costs about a tenth of a run whose sources all come from the cache.
    static func readResources(_ discovered: DiscoveredFiles, cache: ResultCache? = nil)
        -> (resources: [ResourceFile], xcodeProjects: [XcodeProject], warnings: [String]) {
        var warnings: [String] = []
        var resources: [ResourceFile] = []
        var xcodeProjects: [XcodeProject] = []
        for (path, kind) in discovered.resourcePaths {
            if kind == .xcodeProject, let cache {
                let read = cache.xcodeProject(at: path)
                if let project = read.project { xcodeProjects.append(project) }
                if let warning = read.warning { warnings.append(warning) }
                continue
            }
            switch SourceReader.read(path) {
            case .success(let text) where kind == .xcodeProject:
                switch XcodeProject.read(path: path, text: text) {
                case .success(let project): xcodeProjects.append(project)
                case .failure(let failure): warnings.append(failure.description)
                }
            case .success(let text): resources.append(ResourceFile(path: path, kind: kind, text: text))
            case .failure(let failure): warnings.append(failure.description)
            }
        }
        return (resources, xcodeProjects, warnings)
    }

    /// Lints sources given as text, with optional resource files. Used by tests and editors.
    public static func lint(sources: [SourceInput], resources: [ResourceFile] = [], layout: ProjectLayout = ProjectLayout(),
                            configuration: Configuration, enableAllRules: Bool = false) -> LintResult {
        run(files: sources.map { .text($0) }, inputs: .given(resources: resources, layout: layout),
            configurations: .single(configuration), enableAllRules: enableAllRules)
    }

    /// Sources given as text, each with the configuration that applies to its path.
    public static func lint(sources: [SourceInput], resources: [ResourceFile] = [], layout: ProjectLayout = ProjectLayout(),
                            configurations: ConfigurationTree, enableAllRules: Bool = false) -> LintResult {
        run(files: sources.map { .text($0) }, inputs: .given(resources: resources, layout: layout),
            configurations: configurations, enableAllRules: enableAllRules)
    }

    enum FileInput: Sendable {
        case path(String)
        case text(SourceInput)

        var path: String {
            switch self {
            case .path(let path): return path
            case .text(let input): return input.path
            }
        }
    }

    struct FileResult: Sendable {
        var facts = FileFacts()
        var pending: [PendingFinding] = []
        var suppression: SuppressionMap?
        var warning: String?
        var read = 0.0, parse = 0.0, walk = 0.0
        /// With `measuresListeners`: seconds per rule id and per collector.
        var ruleTimes: [String: Double] = [:], collectorTimes: [String: Double] = [:]
    }

    /// `parallel: false` processes the files one after another on the calling thread: a test compares
    /// both ways to prove the output does not depend on scheduling.
    /// The rules of one effective configuration: files with the same chain of configurations share it.
    struct RuleGroup {
        let configuration: Configuration
        let enabled: Set<String>
        let plan: RulePlan

        /// What a cache entry of a file in this group is made with: the chain of configuration files,
        /// and the syntax rules that walk the file with their options (what `processFile` is given).
        func fingerprint(key: String) -> String {
            "chain " + key + "\n" + plan.fingerprint
        }
    }

    static func run(files: [FileInput], resources: [ResourceFile], layout: ProjectLayout, configuration: Configuration,
                    enableAllRules: Bool, parallel: Bool = true) -> LintResult {
        run(files: files, inputs: .given(resources: resources, layout: layout), configurations: .single(configuration),
            enableAllRules: enableAllRules, parallel: parallel)
    }

    ///
    /// `reportOnly`: report findings (and per-file warnings) only in these files; the other files are
    /// still read, parsed and walked for the index, but no syntax rule runs on them, since none of
    /// their findings would be reported and rules add nothing to the index.
    /// `cache`: files on disk are looked up there and their results stored (`ResultCache`).
    /// `wholeRun`: with a cache, what else decides this run's result besides its files and configurations (the
    /// paths the layout was made from); the run's result is then stored whole, and a rerun whose every file,
    /// resource and configuration is unchanged reports it without reading a per-file entry or a source.
    /// Nil for a run that has a buffer in place of a file.
    static func run(files: [FileInput], inputs: ProjectInputs, configurations: ConfigurationTree,
                    enableAllRules: Bool, parallel: Bool = true, reportOnly: Set<String>? = nil,
                    cache: ResultCache? = nil, wholeRun: String? = nil, preload: StatePreload? = nil) -> LintResult {
        let configuration = configurations.main
        // One group per distinct chain of configurations, made before the parallel stage: each file's
        // walk runs only its group's rules, with its group's options. The index does not depend on it.
        var groups: [String: RuleGroup] = [:]
        var groupKeys: [String: String] = [:]  // path → group key
        func groupKey(of path: String) -> String {
            if let key = groupKeys[path] { return key }
            let effective = configurations.configuration(forFile: path)
            if groups[effective.key] == nil { groups[effective.key] = makeGroup(effective.configuration, enableAllRules: enableAllRules) }
            groupKeys[path] = effective.key
            return effective.key
        }
        // cannot fail: `groupKey(of:)` adds the group of every key it returns.
        func group(of path: String) -> RuleGroup { groups[groupKey(of: path)]! }
        let indexOnly = RulePlan(syntaxRules: [], options: [:])
        let reported = files.map { input in reportOnly.map { $0.contains(input.path) } ?? true }
        let plans = files.indices.map { reported[$0] ? group(of: files[$0].path).plan : indexOnly }
        // A file walked for the index alone is stored as such, so a later run that reports it walks it again.
        // Made once per group, not per file.
        var groupFingerprints: [String: String] = [:]
        let fingerprints = files.indices.map { position -> String in
            guard reported[position] else { return "index only" }
            let key = groupKey(of: files[position].path)
            if let known = groupFingerprints[key] { return known }
            let fingerprint = group(of: files[position].path).fingerprint(key: key)
            groupFingerprints[key] = fingerprint
            return fingerprint
        }
        for path in inputs.resourcePaths { _ = groupKey(of: path) }
        func enabledInRun() -> Set<String> {
            groups.isEmpty ? enabledRules(configuration: configuration, enableAllRules: enableAllRules)
                : groups.values.reduce(into: Set<String>()) { $0.formUnion($1.enabled) }
        }
        var runKey: ResultCache.RunKey?
        if let cache, let wholeRun, files.allSatisfy({ if case .path = $0 { true } else { false } }) {
            let identity = [wholeRun, "reported " + (reportOnly.map { $0.sorted().joined(separator: "\n") } ?? "all"),
                            wholeRunFingerprint(configurations: configurations, groups: groups)].joined(separator: "\n--\n")
            runKey = cache.runKey(identity: identity, files: files.indices.map { (files[$0].path, fingerprints[$0]) },
                                  resources: inputs.resourcePaths)
            if let runKey, let stored = cache.storedRun(runKey) {
                preload?.cancel()
                var result = LintResult(findings: stored.findings, warnings: stored.warnings, filesLinted: files.count, timings: StageTimings())
                result.hiddenByConfidence = stored.hiddenByConfidence
                result.enabledRules = enabledInRun()
                return result
            }
        }
        // Every file's result as the previous run over the same paths and configurations left it (`RunState`).
        let stateKey = runKey
        let preloaded = stateKey.flatMap { preload?.state(for: $0.identity) }
        if preloaded == nil { preload?.cancel() }
        if let cache, let stateKey, preloaded != nil {
            // Used: kept from pruning as `loadState` keeps the states it reads.
            cache.touchIfStale(cache.statePath(stateKey))
            if let wholeRun { cache.touchIfStale(cache.latestStatePath(run: Self.latestStateKey(wholeRun: wholeRun, reportOnly: reportOnly))) }
        }
        let state = preloaded ?? stateKey.flatMap { cache?.loadState($0) }
        // Decoded results are of the preloaded state's records only.
        let decodedAhead = preloaded == nil ? nil : preload
        let records = ResultSlots<ResultCache.StateFile>(count: stateKey == nil ? 0 : files.count)
        @Sendable func process(_ position: Int) -> FileResult {
            let input = files[position], plan = plans[position]
            guard let cache, case .path(let path) = input else { return processFile(input, plan: plan) }
            let (result, record) = cache.result(forFile: path, fingerprint: fingerprints[position], indexOnly: !reported[position],
                                                state: state, stamp: stateKey?.stamps[position], preload: decodedAhead) { text in
                analyze(path: path, text: text, plan: plan)
            }
            if stateKey != nil, let record { records[position] = record }
            return result
        }

        var filesClock = Stopwatch()
        let results = ResultSlots<FileResult>(count: files.count)
        // The first iteration reads the resources (an Xcode project's property list takes tens of
        // milliseconds) while the other workers parse Swift files.
        if parallel {
            DispatchQueue.concurrentPerform(iterations: files.count + 1) { iteration in
                if iteration == 0 { return inputs.load() }
                results[iteration - 1] = process(iteration - 1)
            }
        } else {
            inputs.load()
            for index in files.indices { results[index] = process(index) }
        }
        let fileResults = results.take(orElse: FileResult())
        let (resources, layout, inputWarnings) = inputs.loaded
        // The next run state is written while the index is built and the findings resolved, unless few files
        // (`Limits.runStateSlack`) came from elsewhere than the state or are gone.
        let stateWritten = DispatchGroup()
        if let cache, let runKey {
            let recorded = records.values
            let fromState = recorded.reduce(0) { $0 + ($1?.unchangedFromState == true ? 1 : 0) }
            let elsewhere = files.count - fromState, gone = (state?.files.count ?? 0) - fromState
            if state == nil || elsewhere + gone > cache.limits.runStateSlack {
                let kept = zip(files, recorded).compactMap { input, record in record.map { (input.path, $0) } }
                let latest = wholeRun.map { Self.latestStateKey(wholeRun: $0, reportOnly: reportOnly) }
                DispatchQueue.global().async(group: stateWritten) {
                    cache.storeState(kept, key: runKey)
                    if let latest, cache.statistics.stateStored { cache.noteLatestState(runKey, run: latest) }
                }
            }
        }
        var timings = StageTimings()
        timings.filesWall = filesClock.lap()
        for result in fileResults {
            timings.read += result.read
            timings.parse += result.parse
            timings.walk += result.walk
            timings.perRule.merge(result.ruleTimes, uniquingKeysWith: +)
            timings.perCollector.merge(result.collectorTimes, uniquingKeysWith: +)
        }

        // One index per project: the facts of one project (its CloudKit evidence, its models) never decide
        // for another linted in the same run. Projects are indexed and checked in parallel.
        var projectMembers: [String: [Int]] = [:]
        for (position, input) in files.enumerated() { projectMembers[layout.project(of: input.path), default: []].append(position) }
        for resource in resources where projectMembers[layout.project(of: resource.path)] == nil {
            projectMembers[layout.project(of: resource.path)] = []
        }
        let projects = projectMembers
        let projectNames = projects.keys.sorted()
        let descriptions = Dictionary(uniqueKeysWithValues: RuleRegistry.allDescriptions.map { ($0.id, $0) })
        // Workers only read the groups: every file and resource has its group already.
        let knownGroups = groups, knownGroupKeys = groupKeys
        let sortedGroups = groups.values.sorted(by: { $0.configuration.file ?? "" < $1.configuration.file ?? "" })
        let indexAndCheck: @Sendable (String) -> ProjectOutcome = { project in
            var clock = Stopwatch()
            let members = projects[project] ?? []
            let index = ProjectIndex(files: members.map { fileResults[$0].facts },
                                     resources: resources.filter { layout.project(of: $0.path) == project },
                                     cloudKitMode: configuration.cloudKit, layout: layout.restricted(toProject: project))
            let indexTime = clock.lap()
            var ruleTimes: [String: Double] = [:]
            let findings = checkProject(index: index, members: members, fileResults: fileResults, descriptions: descriptions,
                                        groups: sortedGroups, ruleTimes: &ruleTimes, parallel: parallel) { path in
                knownGroupKeys[path].flatMap { knownGroups[$0] }
                    ?? makeGroup(configurations.configuration(forFile: path).configuration, enableAllRules: enableAllRules)
            }
            return ProjectOutcome(index: index, findings: findings, indexTime: indexTime, rulesTime: clock.lap(), ruleTimes: ruleTimes)
        }
        var rulesClock = Stopwatch()
        let outcomes = ResultSlots<ProjectOutcome>(count: projectNames.count)
        if parallel {
            DispatchQueue.concurrentPerform(iterations: projectNames.count) { outcomes[$0] = indexAndCheck(projectNames[$0]) }
        } else {
            for (position, project) in projectNames.enumerated() { outcomes[position] = indexAndCheck(project) }
        }
        // cannot fail: every slot was filled above.
        let indexes = outcomes.values.map { $0! }
        for outcome in indexes { timings.perRule.merge(outcome.ruleTimes, uniquingKeysWith: +) }
        var findings = indexes.flatMap(\.findings)
        var suppressions: [String: SuppressionMap] = [:]
        for (position, input) in files.enumerated() {
            if let suppression = fileResults[position].suppression, !suppression.isEmpty { suppressions[input.path] = suppression }
        }
        if let reportOnly {
            findings = findings.filter { reportOnly.contains($0.file) }
            suppressions = suppressions.filter { reportOnly.contains($0.key) }
        }
        for resource in resources where resource.kind == .coreDataModel && reportOnly.map({ $0.contains(resource.path) }) ?? true {
            let suppression = SuppressionMap(xml: resource.text)
            if !suppression.isEmpty { suppressions[resource.path] = suppression }
        }
        let suppression = SuppressionOutcome.apply(findings, maps: suppressions, enabled: { group(of: $0).enabled },
                                                   descriptions: descriptions, superfluousID: RuleRegistry.unusedSuppressionRuleID)
        let shown = Self.shown(suppression.findings, minimumConfidence: configuration.confidence ?? .high,
                               configuration: { group(of: $0).configuration })
        findings = shown.findings
        let hiddenByConfidence = shown.hidden
        let projectStage = rulesClock.lap()
        // The project stage's wall time, split between its two parts in proportion to their summed times.
        let indexShare = indexes.reduce(0) { $0 + $1.indexTime }, rulesShare = indexes.reduce(0) { $0 + $1.rulesTime }
        timings.index = indexShare + rulesShare > 0 ? projectStage * indexShare / (indexShare + rulesShare) : 0
        timings.rules = projectStage - timings.index
        let fileWarnings = zip(files, fileResults).compactMap { input, result in
            reportOnly.map { $0.contains(input.path) } ?? true ? result.warning : nil
        }
        var result = LintResult(findings: findings,
                                warnings: inputWarnings + fileWarnings + indexes.flatMap(\.index.warnings) + suppression.warnings,
                                filesLinted: files.count, timings: timings)
        result.hiddenByConfidence = hiddenByConfidence
        result.enabledRules = enabledInRun()
        if let cache, let runKey {
            cache.storeRun(.init(findings: result.findings, warnings: result.warnings, hiddenByConfidence: hiddenByConfidence), key: runKey)
        }
        stateWritten.wait()
        // Freeing every file's facts and the indexes took about a twentieth of a cached run's CPU, on this thread,
        // before the report could be printed; a command-line run exits right after. So the last references are
        // handed to another thread, which lets them go once this function has surely returned and dropped its own
        // (were it to go first, this thread would free them, as before: only the time moves, never a result).
        let leftovers = Leftovers(values: [fileResults, indexes, results, outcomes, records, state as Any])
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(100)) { withExtendedLifetime(leftovers) {} }
        return result
    }

    /// What names a run before discovery (`StatePreload`): its paths and the files it reports.
    static func latestStateKey(wholeRun: String, reportOnly: Set<String>?) -> String {
        wholeRun + "\n--\nreported " + (reportOnly.map { $0.sorted().joined(separator: "\n") } ?? "all")
    }

    /// What of the configurations decides a run's result after its files are walked: each group's chain, enabled
    /// rules, every rule's options and severity overrides; the main configuration's run-wide keys (CloudKit mode,
    /// confidence); and the bytes of every configuration file read, so a key this list forgets still counts.
    static func wholeRunFingerprint(configurations: ConfigurationTree, groups: [String: RuleGroup]) -> String {
        let main = configurations.main
        var lines = ["cloudkit \(main.cloudKit)", "confidence \(main.confidence.map { "\($0)" } ?? "default")"]
        for (key, group) in groups.sorted(by: { $0.key < $1.key }) {
            lines.append("group " + key)
            lines.append("enabled " + group.enabled.sorted().joined(separator: ","))
            lines.append("options " + RulePlan.canonical(.map(group.configuration.ruleOptions.mapValues { .map($0.values) })))
            lines.append("severity " + group.configuration.severityOverrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
        }
        let files = Set(([main.file] + groups.values.map(\.configuration.file)).compactMap { $0 } + configurations.loadedFiles)
        for file in files.sorted() {
            let bytes = FileManager.default.contents(atPath: file).map { ContentHash($0).description } ?? "unreadable"
            lines.append("file \(file) \(bytes)")
        }
        return lines.joined(separator: "\n")
    }

    /// What a run shows of the findings left after suppression: those at or above the run's confidence (a
    /// run-wide key, the main configuration's), each with its own file's severity overrides, once each and in order.
    /// Confidence is applied after suppression, so a directive for a hidden finding is not reported as unused.
    /// `lint` and the language server's `LiveProject` both end with it.
    static func shown(_ findings: [Finding], minimumConfidence: Confidence,
                      configuration: (String) -> Configuration) -> (findings: [Finding], hidden: Int) {
        var shown = findings.filter { $0.confidence >= minimumConfidence }
        for index in shown.indices {
            if let severity = configuration(shown[index].file).severityOverrides[shown[index].ruleID] {
                shown[index].severity = severity
            }
        }
        return (Array(Set(shown)).sorted(by: Finding.ordered), findings.count - shown.count)
    }

    static func makeGroup(_ configuration: Configuration, enableAllRules: Bool) -> RuleGroup {
        let enabled = enabledRules(configuration: configuration, enableAllRules: enableAllRules)
        return RuleGroup(configuration: configuration, enabled: enabled,
                         plan: RulePlan(syntaxRules: RuleRegistry.syntaxRules.filter { enabled.contains($0.description.id) },
                                        options: configuration.ruleOptions))
    }

    /// One project's index and findings, and the time each took.
    struct ProjectOutcome: Sendable {
        let index: ProjectIndex
        let findings: [Finding]
        let indexTime: Double
        let rulesTime: Double
        /// With `measuresListeners`: each rule's questions to this index and its project check.
        let ruleTimes: [String: Double]
    }

    /// One project's findings: its files' pending findings resolved against its index, then the project
    /// rules, each kept where the finding's own file enables it and its kind of code is one the rule checks.
    /// `parallel`: the pending findings (in slices of files) and the project rules are answered on the workers of a
    /// parallel stage (the index is read-only and safe to share); the findings are put together in the same order as
    /// one after another, and `group` is only ever called on the caller's thread.
    static func checkProject(index: ProjectIndex, members: [Int], fileResults: [FileResult], descriptions: [String: RuleDescription],
                             groups: [RuleGroup], ruleTimes: inout [String: Double], parallel: Bool = false,
                             group: (String) -> RuleGroup) -> [Finding] {
        let measures = measuresListeners
        // A project rule runs once per distinct set of its options among the groups that enable it (once, without
        // nested configurations); each finding is kept where its own file's configuration enables the rule with those options.
        var ruleRuns: [(rule: Int, options: [String: OptionValue])] = []
        for (position, rule) in RuleRegistry.projectRules.enumerated() {
            let id = rule.description.id
            var optionSets: [[String: OptionValue]] = []
            for ruleGroup in groups where ruleGroup.enabled.contains(id) {
                let values = ruleGroup.configuration.ruleOptions[id]?.values ?? [:]
                if !optionSets.contains(values) { optionSets.append(values) }
            }
            ruleRuns += optionSets.map { (position, $0) }
        }
        // Slices of about a hundred files: a slice's findings are its files' in order.
        let sliceSize = parallel ? 100 : max(members.count, 1)
        let slices = stride(from: 0, to: members.count, by: sliceSize).map { Array(members[$0..<min($0 + sliceSize, members.count)]) }
        struct Answer: Sendable {
            var findings: [Finding] = []
            var times: [String: Double] = [:]
        }
        let jobs = slices.count + ruleRuns.count
        let answers = ResultSlots<Answer>(count: jobs)
        let runs = ruleRuns
        let answer: @Sendable (Int) -> Void = { job in
            var result = Answer()
            if job < slices.count {
                for position in slices[job] {
                    for pending in fileResults[position].pending {
                        var clock = Stopwatch()
                        let message = pending.message(in: index)
                        if measures { result.times[pending.ruleID, default: 0] += clock.lap() }
                        guard let message, let description = descriptions[pending.ruleID] else { continue }
                        result.findings.append(Finding(ruleID: pending.ruleID, ruleName: description.name,
                                                       severity: description.severity(ofMessage: message.id), message: message.text,
                                                       file: pending.location.file, line: pending.location.line, column: pending.location.column,
                                                       arguments: message.arguments, messageID: message.id, notes: message.notes,
                                                       confidence: message.confidence))
                    }
                }
            } else {
                let run = runs[job - slices.count]
                let rule = RuleRegistry.projectRules[run.rule]
                var clock = Stopwatch()
                result.findings = rule.check(index: index, options: RuleOptions(run.options))
                if measures { result.times[rule.description.id, default: 0] += clock.lap() }
            }
            answers[job] = result
        }
        if parallel && jobs > 1 {
            DispatchQueue.concurrentPerform(iterations: jobs, execute: answer)
        } else {
            for job in 0..<jobs { answer(job) }
        }
        let answered = answers.take(orElse: Answer())
        var projectFindings: [Finding] = []
        for (job, result) in answered.enumerated() {
            ruleTimes.merge(result.times, uniquingKeysWith: +)
            guard job >= slices.count else {
                projectFindings += result.findings
                continue
            }
            let run = ruleRuns[job - slices.count]
            let id = RuleRegistry.projectRules[run.rule].description.id
            projectFindings += result.findings.filter { finding in
                let owner = group(finding.file)
                return owner.enabled.contains(id) && (owner.configuration.ruleOptions[id]?.values ?? [:]) == run.options
            }
        }
        // Each rule speaks about the kinds of code it declares (app code, by default), and never about code that
        // is proven not to run.
        return projectFindings.filter { finding in
            let location = SourceLocation(file: finding.file, line: finding.line, column: finding.column)
            return !index.isProvenDead(location) && descriptions[finding.ruleID]?.appliesTo.contains(index.codeKind(of: location)) ?? true
        }
    }

    static func processFile(_ input: FileInput, plan: RulePlan) -> FileResult {
        var clock = Stopwatch()
        let text: String
        switch input {
        case .text(let source): text = source.text
        case .path(let path):
            switch SourceReader.read(path) {
            case .success(let contents): text = contents
            case .failure(let failure):
                var result = FileResult()
                result.warning = failure.description
                return result
            }
        }
        let readTime = clock.lap()
        var result = analyze(path: input.path, text: text, plan: plan)
        result.read = readTime
        return result
    }

    /// Parses a file's text and walks it once: its facts, pending findings, suppression comments and warning.
    static func analyze(path: String, text: String, plan: RulePlan) -> FileResult {
        var result = FileResult()
        var clock = Stopwatch()
        let tree = Parser.parse(source: text)
        result.parse = clock.lap()
        if tree.hasError {
            result.warning = "warning: \(path): has syntax errors; analyzed as far as the parser recovered"
        }
        let context = FileContext(path: path, text: text, tree: tree)
        let rules = plan.makeRules()
        let listenerTimes = measuresListeners ? ListenerTimes() : nil
        FileWalk.run(tree, context: context, rules: rules, listenerTimes: listenerTimes)
        for rule in rules {
            context.currentRuleID = type(of: rule).description.id
            var finishClock = Stopwatch()
            rule.finishFile(context: context)
            if let listenerTimes {
                listenerTimes.add(UInt64(finishClock.lap() * 1e9), to: listenerTimes.slot(for: context.currentRuleID, isRule: true))
            }
        }
        if let listenerTimes { (result.ruleTimes, result.collectorTimes) = listenerTimes.seconds }
        result.facts = context.facts
        result.pending = context.pendingFindings
        result.suppression = SuppressionMap(text: text, tree: tree)
        result.walk = clock.lap()
        return result
    }
}

/// What the index needs besides the Swift files: the resource files and the project layout. A run on
/// disk reads them on a worker of the parallel stage (`load`), beside the Swift files.
final class ProjectInputs: @unchecked Sendable {
    struct Loaded {
        var resources: [ResourceFile]
        var layout: ProjectLayout
        /// One line each for resources that could not be read.
        var warnings: [String]
    }

    /// The resource files' paths, known from discovery before anything is read.
    let resourcePaths: [String]
    private let read: () -> Loaded
    private var stored: Loaded?

    init(resourcePaths: [String], read: @escaping () -> Loaded) {
        self.resourcePaths = resourcePaths
        self.read = read
    }

    /// Inputs already in memory (tests, editors).
    static func given(resources: [ResourceFile], layout: ProjectLayout) -> ProjectInputs {
        ProjectInputs(resourcePaths: resources.map(\.path)) { Loaded(resources: resources, layout: layout, warnings: []) }
    }

    /// Called once, before `loaded` is read; the parallel stage's end orders the two.
    func load() { stored = read() }

    var loaded: (resources: [ResourceFile], layout: ProjectLayout, warnings: [String]) {
        // cannot fail: `run` calls `load()` before its parallel stage ends, and reads this after.
        let value = stored!
        return (value.resources, value.layout, value.warnings)
    }
}

/// The enabled syntax rules with their options, able to make fresh instances for each file.
struct RulePlan: @unchecked Sendable {
    // Metatypes of rule classes are immutable; making instances from them on any thread is safe.
    let syntaxRules: [any SyntaxRule.Type]
    let options: [String: RuleOptions]

    /// Rules whose node kinds the walker cannot dispatch; a test keeps this empty.
    static func unsupportedRules(_ rules: [any SyntaxRule.Type]) -> [String] {
        rules.filter { !$0.nodeKinds.isSubset(of: FileWalk.supportedKinds) }.map { $0.description.id }
    }

    /// The rule ids and their options, in a stable order: equal for equal plans, across runs.
    var fingerprint: String {
        let ids = syntaxRules.map { $0.description.id }.sorted()
        return ids.map { id in id + " " + (options[id].map { Self.canonical(.map($0.values)) } ?? "{}") }.joined(separator: "\n")
    }

    static func canonical(_ value: OptionValue) -> String {
        switch value {
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return "\(value)"
        case .string(let value): return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .list(let values): return "[" + values.map(canonical).joined(separator: ",") + "]"
        case .map(let map):
            return "{" + map.sorted { $0.key < $1.key }.map { canonical(.string($0.key)) + ":" + canonical($0.value) }.joined(separator: ",") + "}"
        }
    }

    func makeRules() -> [any SyntaxRule] {
        syntaxRules.map { $0.init(options: options[$0.description.id] ?? RuleOptions()) }
    }
}

/// A fixed number of slots written from concurrent iterations, each slot by exactly one.
final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    subscript(index: Int) -> Value? {
        get { lock.withLock { storage[index] } }
        set { lock.withLock { storage[index] = newValue } }
    }

    var values: [Value?] { lock.withLock { storage } }

    /// Every value, `fallback` for an empty slot, moved out (not copied: a file's result holds dozens of
    /// references, each retained by a copy); the slots are empty afterwards.
    func take(orElse fallback: Value) -> [Value] {
        var taken: [Value?] = lock.withLock {
            defer { storage = [] }
            return storage
        }
        var values: [Value] = []
        values.reserveCapacity(taken.count)
        while let last = taken.popLast() { values.append(last ?? fallback) }
        values.reverse()
        return values
    }
}

/// What a run holds until it returns, released off the caller's thread.
private struct Leftovers: @unchecked Sendable {
    let values: [Any]
}

/// Measures elapsed wall time between laps.
struct Stopwatch {
    private var last = DispatchTime.now().uptimeNanoseconds

    mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1_000_000_000
    }
}
