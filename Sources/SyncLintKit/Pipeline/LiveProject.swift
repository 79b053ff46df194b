import Dispatch
import Foundation

/// A project kept in memory between edits, for an editor (`synclint lsp`): every file's results (facts,
/// pending findings, suppression directives) stay stored by path, so an edit re-parses and re-walks only
/// the edited file, rebuilds the project index from the stored facts and re-resolves. The findings are
/// those `synclint lint` reports for the same files on disk with the buffers in place of the files.
///
/// Files that no editor shows are walked for the index only (no syntax rule runs on them: their
/// findings would not be shown); a buffer's file is walked with its rules. Memory stays what one lint
/// run of the project holds (facts, never trees), whatever the number of edits.
///
/// Not thread-safe: one caller at a time (the server's analysis queue).
public final class LiveProject: @unchecked Sendable {
    /// The folder linted as `synclint lint ROOT` would lint it; nil for a lone file outside any project.
    public let root: String?
    /// `--config`: one configuration for every file; nil finds `.synclint.yml` files as `lint` does.
    public let explicitConfiguration: String?
    public private(set) var configurations: ConfigurationTree
    /// One line each: configuration problems, unreadable files, resources that could not be read.
    public private(set) var warnings: [String] = []

    private var results: [String: Linter.FileResult] = [:]
    /// The files whose stored result came from a walk with their rules.
    private var walkedWithRules: Set<String> = []
    private var buffers: [String: String] = [:]
    private var resources: [String: ResourceFile] = [:]
    private var xcodeProjects: [XcodeProject] = []
    private var layout = ProjectLayout()
    private var groups: [String: Linter.RuleGroup] = [:]
    /// The last index of each project, until one of its files changes.
    private var indexes: [String: ProjectIndex] = [:]

    public init(root: String?, explicitConfiguration: String? = nil) {
        self.root = root
        self.explicitConfiguration = explicitConfiguration
        configurations = .single(Configuration())
    }

    /// Swift files and resources the project holds (on disk or as a buffer).
    public func contains(_ path: String) -> Bool {
        results[path] != nil || resources[path] != nil || buffers[path] != nil
    }

    public var fileCount: Int { results.count }

    /// Reads the configuration and every file of the project again, buffers in place of their files:
    /// the first load, and after a `.synclint.yml` changed.
    public func reload() {
        warnings = []
        configurations = makeConfigurations()
        groups = [:]
        indexes = [:]
        let discovered = FileDiscovery.discover(paths: root.map { [$0] } ?? [], configurations: configurations)
        var (resourceFiles, projects, resourceWarnings) = Linter.readResources(discovered)
        xcodeProjects = projects
        resources = Dictionary(resourceFiles.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        resourceFiles = []
        var swiftPaths = discovered.swiftFiles
        for path in buffers.keys.sorted() where path.hasSuffix(".swift") && !swiftPaths.contains(path) && !skips(path) {
            swiftPaths.append(path)
        }
        for (path, text) in buffers { applyResourceBuffer(path: path, text: text) }
        layout = ProjectLayout.make(paths: root.map { [$0] } ?? swiftPaths, swiftFiles: swiftPaths, xcodeProjects: xcodeProjects)
        let inputs: [Linter.FileInput] = swiftPaths.map { path in buffers[path].map { .text(SourceInput(path: path, text: $0)) } ?? .path(path) }
        let plans = inputs.map { plan(for: $0.path, withRules: buffers[$0.path] != nil) }
        let slots = ResultSlots<Linter.FileResult>(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { slots[$0] = Linter.processFile(inputs[$0], plan: plans[$0]) }
        results = [:]
        for (position, value) in slots.values.enumerated() { results[inputs[position].path] = value ?? Linter.FileResult() }
        walkedWithRules = Set(buffers.keys).intersection(results.keys)
        warnings += configurations.warnings(lintedRoots: root.map { [$0] } ?? []) + configurations.errors + discovered.warnings
            + resourceWarnings
    }

    /// An editor's buffer for a file (text), or the file on disk again (nil: the buffer was closed).
    /// Only that file is read and walked again.
    public func setBuffer(path: String, text: String?) {
        if let text { buffers[path] = text } else { buffers[path] = nil }
        indexes[layout.project(of: path)] = nil
        if let kind = FileDiscovery.resourceKind(of: path) {
            if let text { applyResourceBuffer(path: path, text: text) } else if kind != .xcodeProject {
                switch SourceReader.read(path) {
                case .success(let contents): resources[path] = ResourceFile(path: path, kind: kind, text: contents)
                case .failure: resources[path] = nil
                }
            }
            return
        }
        guard path.hasSuffix(".swift"), !skips(path) else { return }
        if let text {
            results[path] = Linter.processFile(.text(SourceInput(path: path, text: text)), plan: plan(for: path, withRules: true))
            walkedWithRules.insert(path)
        } else if FileManager.default.fileExists(atPath: path) {
            results[path] = Linter.processFile(.path(path), plan: plan(for: path, withRules: false))
            walkedWithRules.remove(path)
        } else {
            // A buffer for a file never saved: closing it takes it out of the project.
            results[path] = nil
            walkedWithRules.remove(path)
        }
    }

    /// The findings of these files (Swift files and resources), with the whole project's facts: as
    /// `synclint lint` reports them, suppression directives and severity overrides applied. A file
    /// outside the project or excluded by its configuration has none.
    public func findings(in paths: Set<String>) -> [Finding] {
        var reported = Set(paths.filter { results[$0] != nil || resources[$0] != nil })
        // A file walked for the index only gets its rules now (it was not open when the project loaded).
        for path in reported where results[path] != nil && !walkedWithRules.contains(path) {
            results[path] = Linter.processFile(buffers[path].map { .text(SourceInput(path: path, text: $0)) } ?? .path(path),
                                               plan: plan(for: path, withRules: true))
            walkedWithRules.insert(path)
        }
        reported = reported.filter { !skips($0) }
        guard !reported.isEmpty else { return [] }
        let descriptions = Dictionary(uniqueKeysWithValues: RuleRegistry.allDescriptions.map { ($0.id, $0) })
        let projects = Set(reported.map { layout.project(of: $0) })
        let sortedGroups = groups.values.sorted(by: { $0.configuration.file ?? "" < $1.configuration.file ?? "" })
        var findings: [Finding] = []
        for project in projects.sorted() {
            let index = self.index(of: project)
            let shown = reported.filter { layout.project(of: $0) == project }.sorted()
            let fileResults = shown.compactMap { results[$0] }
            var ruleTimes: [String: Double] = [:]
            // Project rules run with every group's options, as in a lint run: make the groups of every
            // file so each finding is judged by its own file's configuration.
            findings += Linter.checkProject(index: index, members: Array(fileResults.indices), fileResults: fileResults,
                                            descriptions: descriptions, groups: sortedGroups, ruleTimes: &ruleTimes,
                                            group: group(of:))
                .filter { reported.contains($0.file) }
        }
        var maps: [String: SuppressionMap] = [:]
        for path in reported {
            if let suppression = results[path]?.suppression, !suppression.isEmpty { maps[path] = suppression }
            if let resource = resources[path], resource.kind == .coreDataModel {
                let suppression = SuppressionMap(xml: resource.text)
                if !suppression.isEmpty { maps[path] = suppression }
            }
        }
        let outcome = SuppressionOutcome.apply(findings, maps: maps, enabled: { self.group(of: $0).enabled },
                                               descriptions: descriptions, superfluousID: RuleRegistry.unusedSuppressionRuleID)
        return Linter.shown(outcome.findings, minimumConfidence: configurations.main.confidence ?? .high,
                            configuration: { self.group(of: $0).configuration }).findings
    }

    /// The per-file warning of a file (a syntax error, an unreadable file), if any.
    public func warning(for path: String) -> String? { results[path]?.warning }

    /// The configuration that applies to a file (rule options for fixes, the documentation URL).
    public func configuration(forFile path: String) -> Configuration { group(of: path).configuration }

    private func index(of project: String) -> ProjectIndex {
        if let index = indexes[project] { return index }
        let members = results.filter { layout.project(of: $0.key) == project }.sorted { $0.key < $1.key }.map(\.value.facts)
        let index = ProjectIndex(files: members, resources: resources.values.filter { layout.project(of: $0.path) == project }
                                     .sorted { $0.path < $1.path },
                                 cloudKitMode: configurations.main.cloudKit, layout: layout.restricted(toProject: project))
        indexes[project] = index
        return index
    }

    private func applyResourceBuffer(path: String, text: String) {
        guard let kind = FileDiscovery.resourceKind(of: path), kind != .xcodeProject, !skips(path) else { return }
        resources[path] = ResourceFile(path: path, kind: kind, text: text)
    }

    private func skips(_ path: String) -> Bool { configurations.skips(path, isFolder: false) }

    private func group(of path: String) -> Linter.RuleGroup {
        let effective = configurations.configuration(forFile: path)
        if let group = groups[effective.key] { return group }
        let group = Linter.makeGroup(effective.configuration, enableAllRules: false)
        groups[effective.key] = group
        return group
    }

    private func plan(for path: String, withRules: Bool) -> RulePlan {
        let group = group(of: path)
        return withRules ? group.plan : RulePlan(syntaxRules: [], options: [:])
    }

    private func makeConfigurations() -> ConfigurationTree {
        let folder = root ?? FileManager.default.currentDirectoryPath
        let path = explicitConfiguration ?? ConfigurationDiscovery.choose(paths: [folder], currentFolder: folder)
        var main = Configuration()
        if let path {
            do {
                main = try Configuration.load(path: URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: folder)).standardizedFileURL.path,
                                              rules: RuleRegistry.allDescriptions)
            } catch let error as Configuration.LoadError {
                warnings.append(error.description)
            } catch {
                warnings.append("warning: \(path): \(error)")
            }
        }
        return ConfigurationTree(main: main, nestedLookup: explicitConfiguration == nil)
    }
}
