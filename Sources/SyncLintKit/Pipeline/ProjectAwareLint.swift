import Foundation

extension Linter {
    /// Lints what the command line names. Folders are linted as `lint(paths:)` lints them. A file is
    /// linted inside its project (`OwningProject.folder(of:)`): the whole project is discovered, parsed
    /// and indexed as a folder run would, and only the named files' findings are reported, so a file's
    /// findings are the same alone as in a run over its project. A file outside any repository is
    /// linted alone.
    ///
    /// `standardInput` is an editor's buffer: its text stands for the file at its path, which need not
    /// exist, in the index of that path's project, and its findings carry that path.
    public static func lintInProjects(paths: [String], standardInput: SourceInput? = nil, configurations: ConfigurationTree,
                            enableAllRules: Bool = false, cache: ResultCache? = nil,
                            currentFolder: String = FileManager.default.currentDirectoryPath) -> LintResult {
        let base = URL(fileURLWithPath: currentFolder)
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path }
        let input = standardInput.map { SourceInput(path: absolute($0.path), text: $0.text) }
        var folders: [String] = []
        var alone: [String] = []
        var byProject: [String: [String]] = [:]
        var stdinProject: String?
        for path in paths {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: absolute(path), isDirectory: &isFolder), isFolder.boolValue {
                folders.append(path)
            } else if !path.hasSuffix(".swift") && FileDiscovery.resourceKind(of: absolute(path)) == nil {
                // Not a file SyncLint reads: no project to index for the warning that says so.
                alone.append(path)
            } else if let project = OwningProject.folder(of: absolute(path)) {
                byProject[project, default: []].append(absolute(path))
            } else {
                alone.append(path)
            }
        }
        if let input {
            if let project = OwningProject.folder(of: input.path) {
                byProject[project, default: []].append(input.path)
                stdinProject = project
            } else {
                byProject["", default: []].append(input.path)
                stdinProject = ""
            }
        }
        if byProject.isEmpty && input == nil {
            return lint(paths: paths, configurations: configurations, enableAllRules: enableAllRules, cache: cache)
        }

        var results: [LintResult] = []
        if !folders.isEmpty { results.append(lint(paths: folders, configurations: configurations, enableAllRules: enableAllRules, cache: cache)) }
        if !alone.isEmpty { results.append(lint(paths: alone, configurations: configurations, enableAllRules: enableAllRules, cache: cache)) }
        for project in byProject.keys.sorted() {
            // "" holds only an editor's buffer outside any repository: it is linted alone, like a file there.
            results.append(lintInProject(root: project.isEmpty ? nil : project, files: byProject[project] ?? [],
                                         standardInput: stdinProject == project ? input : nil,
                                         configurations: configurations, enableAllRules: enableAllRules, cache: cache))
        }
        return merged(results)
    }

    /// With one configuration for every file (as `--config` gives).
    public static func lintInProjects(paths: [String], standardInput: SourceInput? = nil, configuration: Configuration,
                                      enableAllRules: Bool = false, cache: ResultCache? = nil) -> LintResult {
        lintInProjects(paths: paths, standardInput: standardInput, configurations: .single(configuration), enableAllRules: enableAllRules,
                       cache: cache)
    }

    /// One project's files: the project is indexed whole, only `files` are reported.
    static func lintInProject(root: String?, files: [String], standardInput: SourceInput?, configurations: ConfigurationTree,
                              enableAllRules: Bool, cache: ResultCache? = nil) -> LintResult {
        var clock = Stopwatch()
        // Named files go to discovery too: one in a hidden or skipped folder is still linted, as
        // before; an excluded one is not. An editor's buffer need not exist on disk.
        let onDisk = files.filter { $0 != standardInput?.path || FileManager.default.fileExists(atPath: $0) }
        let discovered = FileDiscovery.discover(paths: (root.map { [$0] } ?? []) + onDisk, configurations: configurations)
        var swiftFiles: [Linter.FileInput] = discovered.swiftFiles.map { .path($0) }
        var lintable = Set(discovered.swiftFiles + discovered.resourcePaths.map(\.path)).intersection(files)
        // A buffer from standard input stands in for the file on disk of the same path.
        var bufferResource: ResourceFile?
        var inputWarnings: [String] = []
        var resourcePaths = discovered.resourcePaths.map(\.path)
        if let input = standardInput, !configurations.skips(input.path, isFolder: false) {
            lintable.insert(input.path)
            if let kind = FileDiscovery.resourceKind(of: input.path) {
                if kind == .xcodeProject {
                    inputWarnings.append("warning: \(input.path): an Xcode project read from standard input is not linted")
                    lintable.remove(input.path)
                } else {
                    bufferResource = ResourceFile(path: input.path, kind: kind, text: input.text)
                    if !resourcePaths.contains(input.path) { resourcePaths.append(input.path) }
                }
            } else {
                swiftFiles.removeAll { $0.path == input.path }
                swiftFiles.append(.text(input))
            }
        }
        // The layout sees only the project folder as a command-line path, exactly as `lint ROOT` would.
        let layoutPaths = root.map { [$0] } ?? files
        let inputs = ProjectInputs(resourcePaths: resourcePaths) { [bufferResource, inputWarnings] in
            var loaded = readResources(discovered, cache: cache)
            if let bufferResource {
                loaded.resources.removeAll { $0.path == bufferResource.path }
                loaded.resources.append(bufferResource)
            }
            let layout = ProjectLayout.make(paths: layoutPaths, swiftFiles: discovered.swiftFiles, xcodeProjects: loaded.xcodeProjects)
            return ProjectInputs.Loaded(resources: loaded.resources, layout: layout, warnings: loaded.warnings + inputWarnings)
        }
        let discoverTime = clock.lap()
        // A buffer stands for a file: its run is never stored whole (its text has no stamp).
        var result = run(files: swiftFiles, inputs: inputs, configurations: configurations,
                         enableAllRules: enableAllRules, reportOnly: lintable, cache: cache,
                         wholeRun: standardInput == nil ? "project\n" + layoutPaths.joined(separator: "\n") : nil)
        // Warnings about the project's other files (their syntax errors, an unreadable one) are not
        // about what was asked for.
        let others = Set(discovered.swiftFiles + discovered.resourcePaths.map(\.path)).subtracting(lintable)
        result.warnings = (configurations.warnings(lintedRoots: layoutPaths) + discovered.warnings + result.warnings).filter { warning in
            !others.contains { warning.contains($0 + ":") }
        }
        result.timings.discover = discoverTime
        result.filesLinted = lintable.count
        result.lintableFiles = lintable.count
        return result
    }

    /// Several runs' results as one: findings deduplicated and sorted, warnings once each, in order.
    static func merged(_ results: [LintResult]) -> LintResult {
        var seen = Set<String>()
        var warnings: [String] = []
        for warning in results.flatMap(\.warnings) where seen.insert(warning).inserted {
            warnings.append(warning)
        }
        var timings = StageTimings()
        for result in results { timings.add(result.timings) }
        var result = LintResult(findings: Array(Set(results.flatMap(\.findings))).sorted(by: Finding.ordered), warnings: warnings,
                                filesLinted: results.map(\.filesLinted).reduce(0, +), timings: timings)
        result.lintableFiles = results.map(\.lintableFiles).reduce(0, +)
        result.enabledRules = results.reduce(into: Set<String>()) { $0.formUnion($1.enabledRules) }
        return result
    }
}
