import Foundation

/// The configurations of one run. The main configuration (`--config`, or the one
/// `ConfigurationDiscovery` finds) holds the run-wide keys. With nested lookup (no `--config`, as in
/// SwiftLint), every `.synclint.yml` in a folder between the main configuration's folder and a file
/// refines it for that file, outermost first (`Configuration.merged(with:)`). The search upward from
/// a file stops at the main configuration's folder, at the repository root (a folder with `.git`,
/// whose own file still counts) or at the file system's root.
///
/// Files with the same chain of configurations share one effective configuration, so the engine
/// makes one rule plan per chain, not per file. Lookups are memoized per folder: a run stats one
/// `.synclint.yml` per folder it walks, and reads each nested file once.
public final class ConfigurationTree: @unchecked Sendable {
    /// One chain's merged configuration, with its `excluded` and `included` entries as patterns.
    struct Effective {
        /// The chain's configuration files joined; equal keys mean equal configurations.
        let key: String
        let configuration: Configuration
        /// Each exclusion with the id of its entry (`file`, index), to tell which ones matched something.
        let exclusions: [(id: String, pattern: PathPattern)]
        /// Files must match one of these, when set: the nearest nested `included`, else the main one's
        /// when the walk started from it.
        let included: [PathPattern]?
    }

    public let main: Configuration
    /// `--only-rule`: exactly these rules run in every file, whatever each configuration says
    /// (their options still come from the configurations).
    public let forcedOnlyRules: [String]?
    let nestedLookup: Bool
    let appliesMainIncluded: Bool
    /// The rules nested configurations are read against (`Configuration.load(path:rules:)`).
    let rules: [RuleDescription]
    private let mainFolder: String?
    // Discovery and the engine's set-up ask from one thread, but the tree is shared by value-free
    // callers (fixes, editors), so its memo tables are guarded.
    private let lock = NSLock()
    private var chains: [String: [String]] = [:]
    private var nested: [String: Configuration] = [:]
    private var effective: [String: Effective] = [:]
    private var effectiveByFolder: [String: Effective] = [:]
    private var matchedExclusions: Set<String> = []
    private var loadErrors: [String] = []

    /// - Parameters:
    ///   - nestedLookup: false when the configuration was named explicitly (`--config`): it alone decides.
    ///   - appliesMainIncluded: true when the walk starts from the main configuration's `included`
    ///     (no path named): files must then match one of its entries.
    ///   - rules: the rules nested configurations are read against; nil takes the main configuration's.
    public init(main: Configuration, nestedLookup: Bool, appliesMainIncluded: Bool = false, forcedOnlyRules: [String]? = nil,
                rules: [RuleDescription]? = nil) {
        var main = main
        if let forcedOnlyRules { main.onlyRules = forcedOnlyRules }
        self.main = main
        self.forcedOnlyRules = forcedOnlyRules
        self.nestedLookup = nestedLookup
        self.appliesMainIncluded = appliesMainIncluded
        self.rules = rules ?? main.rules
        mainFolder = main.file.map { Self.parent(of: $0) }
    }

    /// One configuration for every file, as `--config` gives.
    public static func single(_ configuration: Configuration) -> ConfigurationTree {
        ConfigurationTree(main: configuration, nestedLookup: false)
    }

    /// Where a walk starts when no path is named: each `included` entry's folder (a glob's part
    /// before its first wildcard), or nothing when the main configuration has no `included`.
    public var includedRoots: [String] {
        var seen: Set<String> = []
        return main.included.map { PathPattern($0, in: "/").fixedPrefix }.filter { seen.insert($0).inserted }
    }

    /// Nested configuration files that could not be read, one `error:` line each. The command line
    /// stops with exit status 2 on them, as on a broken main configuration.
    public var errors: [String] { lock.withLock { loadErrors } }

    /// The configuration files this run has read so far, the main one first, then the nested ones
    /// discovery met, by path (SwiftLint's "Loading configuration from ..." lines).
    public var loadedFiles: [String] {
        lock.withLock { (main.shownPath.map { [$0] } ?? []) + nested.keys.sorted() }
    }

    /// Why discovery leaves out a file named on the command line: "excluded by FILE:LINE ('entry')"
    /// for the first `excluded` entry of its chain that matches it, or "not in the `included` list of
    /// FILE"; nil when it is linted.
    public func exclusionReason(forFile path: String) -> String? {
        lock.withLock {
            let chain = resolve(folder: Self.parent(of: path))
            for exclusion in chain.exclusions where exclusion.pattern.matches(path) {
                let parts = exclusion.id.split(separator: "\u{1f}", omittingEmptySubsequences: false)
                let file = String(parts.first ?? "")
                let configuration = file == main.file ? main : nested[file]
                if let configuration, let index = parts.last.flatMap({ Int($0) }), index < configuration.excludedEntries.count {
                    let entry = configuration.excludedEntries[index]
                    return "excluded by \(configuration.shownPath ?? file):\(entry.line) ('\(entry.entry)')"
                }
                return "excluded by \(file.isEmpty ? "the configuration" : file)"
            }
            if let included = chain.included, !included.contains(where: { $0.matches(path) }) {
                return "not in the configuration's `included` list"
            }
            return nil
        }
    }

    func configuration(forFile path: String) -> Effective {
        lock.withLock { resolve(folder: Self.parent(of: path)) }
    }

    /// Whether discovery leaves `path` out: an `excluded` entry of its chain matches it, or (for a
    /// file) an `included` list applies and none of its entries matches. A folder is judged by its
    /// parent's chain, so an excluded folder's own `.synclint.yml` is never read.
    func skips(_ path: String, isFolder: Bool) -> Bool {
        lock.withLock {
            let chain = resolve(folder: Self.parent(of: path))
            var excluded = false
            // Every entry is tried, not only the first that matches, so none is reported as unused.
            for exclusion in chain.exclusions where exclusion.pattern.matches(path) {
                excluded = true
                matchedExclusions.insert(exclusion.id)
            }
            if excluded { return true }
            if !isFolder, let included = chain.included, !included.contains(where: { $0.matches(path) }) { return true }
            return false
        }
    }

    /// The run's configuration warnings, after discovery: the main and nested files' own, nested files
    /// setting run-wide keys, and `excluded` entries that matched nothing. A plain entry matches nothing
    /// when no such path exists; a glob, when the walk covered its configuration's folder (a linted path
    /// is that folder or above it) and met nothing it matches.
    func warnings(lintedRoots: [String]) -> [String] {
        lock.withLock {
            var lines = main.warnings
            let nestedFiles = nested.keys.sorted()
            for file in nestedFiles {
                // cannot fail: the keys come from `nested` itself.
                let configuration = nested[file]!
                lines += configuration.warnings
                for (key, line) in configuration.runWideKeyLines.sorted(by: { $0.value < $1.value }) {
                    lines.append("\(file):\(line): warning: '\(key)' applies to the whole run and is read only from the main "
                        + "configuration (\(main.file ?? "none")); ignored here")
                }
            }
            let roots = lintedRoots.map { PathPattern($0, in: FileManager.default.currentDirectoryPath).text }
            for configuration in [main] + nestedFiles.compactMap({ nested[$0] }) {
                guard let file = configuration.file else { continue }
                let folder = Self.parent(of: file)
                let covered = roots.contains { $0 == folder || $0 == "/" || folder.hasPrefix($0 + "/") }
                for (index, entry) in configuration.excludedEntries.enumerated() where !matchedExclusions.contains("\(file)\u{1f}\(index)") {
                    let pattern = PathPattern(entry.entry, in: folder)
                    let unmatched = pattern.isGlob ? covered : !FileManager.default.fileExists(atPath: pattern.text)
                    if unmatched {
                        lines.append("\(configuration.shownPath ?? file):\(entry.line): warning: excluded entry '\(entry.entry)' matches no file or folder")
                    }
                }
            }
            return lines
        }
    }

    // MARK: - Resolution (called with the lock held)

    private func resolve(folder: String) -> Effective {
        if let known = effectiveByFolder[folder] { return known }
        let files = chain(folder: folder)
        let key = files.joined(separator: "\n")
        if let known = effective[key] {
            effectiveByFolder[folder] = known
            return known
        }
        var configuration = main
        var exclusions = Self.exclusions(of: main)
        var included: [PathPattern]? = appliesMainIncluded && !main.included.isEmpty
            ? main.included.map { PathPattern($0, in: "/") } : nil
        for file in files {
            guard let child = nested[file] else { continue }
            configuration = configuration.merged(with: child)
            exclusions += Self.exclusions(of: child)
            if !child.included.isEmpty { included = child.included.map { PathPattern($0, in: "/") } }
        }
        if let forcedOnlyRules { configuration.onlyRules = forcedOnlyRules }
        let result = Effective(key: key, configuration: configuration, exclusions: exclusions, included: included)
        effective[key] = result
        effectiveByFolder[folder] = result
        return result
    }

    /// The nested configuration files that apply in `folder`, outermost first; each is read (once)
    /// when first met.
    private func chain(folder: String) -> [String] {
        guard nestedLookup, folder != mainFolder else { return [] }
        if let known = chains[folder] { return known }
        let fileManager = FileManager.default
        var result: [String] = []
        let isTop = folder == "/" || fileManager.fileExists(atPath: folder + "/.git")
        if !isTop { result = chain(folder: Self.parent(of: folder)) }
        let candidate = (folder == "/" ? "" : folder) + "/" + ConfigurationDiscovery.fileName
        if candidate != main.file, fileManager.fileExists(atPath: candidate) {
            do {
                nested[candidate] = try Configuration.load(path: candidate, rules: rules)
                result.append(candidate)
            } catch let error as Configuration.LoadError {
                loadErrors.append(error.description)
            } catch {
                loadErrors.append("error: \(candidate): \(error)")
            }
        }
        chains[folder] = result
        return result
    }

    private static func exclusions(of configuration: Configuration) -> [(id: String, pattern: PathPattern)] {
        configuration.excluded.enumerated().map { ("\(configuration.file ?? "")\u{1f}\($0.offset)", PathPattern($0.element, in: "/")) }
    }

    /// The folder holding `path` (absolute), by string: this runs once per file discovery meets.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
