import Foundation
import SwiftParser
import SwiftSyntax

/// Applies rule fixes to files in memory, in rounds: lint, collect every fixable finding's edits,
/// apply those that do not overlap an edit already taken (the rest wait for the next round, on the
/// re-parsed result), re-lint. Stops when a round changes nothing or after `maxRounds`.
///
/// A file whose fixed text parses with more recovery than before is left as it was, with a warning.
public enum FixEngine {
    nonisolated(unsafe) static let fixes: [String: any RuleFix.Type] = {
        var byRule: [String: any RuleFix.Type] = [:]
        for fix in RuleRegistry.fixes { byRule[fix.ruleID] = fix }
        return byRule
    }()

    public static let maxRounds = 5

    /// The rule ids whose fixes may run: safe ones, and unsafe ones when asked.
    public static func fixableRules(includeUnsafe: Bool) -> Set<String> {
        Set(RuleRegistry.allDescriptions.filter { rule in
            fixes[rule.id] != nil && (rule.fixSafety == .safe || (includeUnsafe && rule.fixSafety == .unsafe))
        }.map(\.id))
    }

    public struct Result: Sendable {
        /// Files whose text changed: path, text before, text after.
        public var changes: [(path: String, original: String, fixed: String)] = []
        /// Findings fixed, per rule id.
        public var fixed: [String: Int] = [:]
        /// Fix problems: refused files.
        public var warnings: [String] = []
        /// Files that could not be read; the lint after `--fix` reports them again, so they are apart.
        public var readWarnings: [String] = []
        public var rounds = 0
    }

    /// Fixes Swift sources on disk, in memory: nothing is written (see `write`).
    public static func fix(paths: [String], configuration: Configuration, enableAllRules: Bool = false,
                           includeUnsafe: Bool) -> Result {
        fix(paths: paths, configurations: .single(configuration), enableAllRules: enableAllRules, includeUnsafe: includeUnsafe)
    }

    /// Each file is fixed by the rules, and with the options, of the configuration that applies to it.
    /// The findings are those `synclint lint` reports for the same paths: a folder is indexed with its Xcode
    /// projects' targets, and a named file inside its project (`OwningProject`), of which only the named
    /// file is changed.
    public static func fix(paths: [String], configurations: ConfigurationTree, enableAllRules: Bool = false,
                           includeUnsafe: Bool, currentFolder: String = FileManager.default.currentDirectoryPath) -> Result {
        let base = URL(fileURLWithPath: currentFolder)
        var roots: [String] = []
        // The layout sees a named file's project folder, not the file, exactly as `lint FILE` does.
        var layoutPaths: [String] = []
        var folders: [String] = []  // named folders, absolute: their files may all change
        var files: Set<String> = []  // named files, absolute
        var projectOfAFile = false
        for path in paths {
            let absolute = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder)
            if exists && isFolder.boolValue {
                roots.append(path)
                layoutPaths.append(path)
                folders.append(absolute)
                continue
            }
            files.insert(absolute)
            roots.append(path)
            if path.hasSuffix(".swift"), exists, let project = OwningProject.folder(of: absolute) {
                if !roots.contains(project) { roots.append(project) }
                if !layoutPaths.contains(project) { layoutPaths.append(project) }
                projectOfAFile = true
            } else {
                layoutPaths.append(path)
            }
        }
        let discovered = FileDiscovery.discover(paths: roots, configurations: configurations)
        var warnings = discovered.warnings
        var sources: [SourceInput] = []
        for path in discovered.swiftFiles {
            switch SourceReader.read(path) {
            case .success(let text): sources.append(SourceInput(path: path, text: text))
            case .failure(let failure): warnings.append(failure.description)
            }
        }
        let (resources, xcodeProjects, resourceWarnings) = Linter.readResources(discovered)
        let layout = ProjectLayout.make(paths: layoutPaths, swiftFiles: discovered.swiftFiles, xcodeProjects: xcodeProjects)
        // Only what the command line names may change: its files, and every file of its folders.
        let changeable: Set<String>? = projectOfAFile ? Set(sources.map(\.path).filter { source in
            files.contains(source) || folders.contains { source.hasPrefix($0 + "/") }
        }) : nil
        var result = fix(sources: sources, resources: resources, layout: layout, configurations: configurations,
                         enableAllRules: enableAllRules, includeUnsafe: includeUnsafe, changeable: changeable, using: fixes)
        result.readWarnings = warnings + resourceWarnings
        return result
    }

    public static func fix(sources: [SourceInput], resources: [ResourceFile] = [], configuration: Configuration,
                           enableAllRules: Bool = false, includeUnsafe: Bool) -> Result {
        fix(sources: sources, resources: resources, configuration: configuration, enableAllRules: enableAllRules,
            includeUnsafe: includeUnsafe, using: fixes)
    }

    /// `using` lets tests substitute a fix (one that breaks the syntax, to prove the guard).
    static func fix(sources: [SourceInput], resources: [ResourceFile], configuration: Configuration,
                    enableAllRules: Bool, includeUnsafe: Bool, using fixes: [String: any RuleFix.Type]) -> Result {
        fix(sources: sources, resources: resources, configurations: .single(configuration), enableAllRules: enableAllRules,
            includeUnsafe: includeUnsafe, using: fixes)
    }

    /// `changeable`: the files fixes may change (nil: all of `sources`); the others are linted for the index only.
    static func fix(sources: [SourceInput], resources: [ResourceFile], layout: ProjectLayout = ProjectLayout(),
                    configurations: ConfigurationTree, enableAllRules: Bool, includeUnsafe: Bool,
                    changeable: Set<String>? = nil, using fixes: [String: any RuleFix.Type]) -> Result {
        let allowed = fixableRules(includeUnsafe: includeUnsafe)
        let originals = Dictionary(sources.map { ($0.path, $0.text) }, uniquingKeysWith: { first, _ in first })
        var texts = originals
        var result = Result()
        var refused: Set<String> = []
        for round in 1...maxRounds {
            // cannot fail: the keys come from `texts` itself.
            let inputs = texts.keys.sorted().map { SourceInput(path: $0, text: texts[$0]!) }
            let findings = Linter.lint(sources: inputs, resources: resources, layout: layout, configurations: configurations,
                                       enableAllRules: enableAllRules).findings
                .filter { finding in
                    allowed.contains(finding.ruleID) && texts[finding.file] != nil && !refused.contains(finding.file)
                        && changeable.map { $0.contains(finding.file) } ?? true
                }
            guard !findings.isEmpty else { break }
            result.rounds = round
            var changed = false
            for (path, fileFindings) in Dictionary(grouping: findings, by: \.file).sorted(by: { $0.key < $1.key }) {
                // cannot fail: findings come only from the texts linted this round, keyed by path.
                let file = FixableFile(text: texts[path]!)
                var taken: [SourceEdit] = []
                var fixedHere: [String: Int] = [:]
                for finding in fileFindings.sorted(by: Finding.ordered) {
                    let options = configurations.configuration(forFile: finding.file).configuration.ruleOptions[finding.ruleID] ?? RuleOptions()
                    guard let fix = fixes[finding.ruleID], let edits = fix.edits(for: finding, in: file, options: options),
                          !edits.isEmpty else { continue }
                    // Two findings may ask for the same edit (one attribute for a declaration): take it once.
                    let new = edits.filter { !taken.contains($0) }
                    guard !new.contains(where: { edit in taken.contains { overlaps(edit, $0) } }) else { continue }
                    taken += new
                    fixedHere[finding.ruleID, default: 0] += 1
                }
                guard !taken.isEmpty else { continue }
                // cannot fail: `path` is a key of `texts`, as above.
                let fixedText = apply(taken, to: texts[path]!)
                let fixedFile = FixableFile(text: fixedText)
                if fixedFile.recoveryCount > file.recoveryCount {
                    result.warnings.append("warning: \(path): fixing would introduce syntax errors; left unchanged")
                    refused.insert(path)
                    continue
                }
                texts[path] = fixedText
                changed = true
                for (rule, count) in fixedHere { result.fixed[rule, default: 0] += count }
            }
            if !changed { break }
        }
        result.changes = texts.keys.sorted().compactMap { path in
            // cannot fail: `originals` and `texts` have the same keys, from the same paths.
            texts[path] == originals[path] ? nil : (path, originals[path]!, texts[path]!)
        }
        return result
    }

    /// Whether two edits touch the same text. Insertions at the same point conflict too: their order
    /// would be arbitrary.
    static func overlaps(_ a: SourceEdit, _ b: SourceEdit) -> Bool {
        if a.range.isEmpty && b.range.isEmpty { return a.range.lowerBound == b.range.lowerBound }
        if a.range.isEmpty { return b.range.lowerBound < a.range.lowerBound && a.range.lowerBound < b.range.upperBound }
        if b.range.isEmpty { return a.range.lowerBound < b.range.lowerBound && b.range.lowerBound < a.range.upperBound }
        return a.range.lowerBound < b.range.upperBound && b.range.lowerBound < a.range.upperBound
    }

    /// Applies non-overlapping edits to UTF-8 text, last first, so earlier offsets stay valid.
    static func apply(_ edits: [SourceEdit], to text: String) -> String {
        var bytes = Array(text.utf8)
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(edit.range.lowerBound.utf8Offset..<edit.range.upperBound.utf8Offset, with: edit.replacementBytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes each changed file atomically: a temporary file in the same folder, given the original's
    /// permissions, renamed over it. A file that changed on disk since it was read is skipped.
    public static func write(_ result: Result) throws -> [String] {
        var warnings: [String] = []
        for change in result.changes {
            // A symlinked source is fixed where it lives; the link stays a link.
            let url = URL(fileURLWithPath: change.path).resolvingSymlinksInPath()
            guard let current = try? String(contentsOf: url, encoding: .utf8), current == change.original else {
                warnings.append("warning: \(change.path): changed while fixing; left as it is")
                continue
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).synclint-\(UUID().uuidString)")
            do {
                try Data(change.fixed.utf8).write(to: temporary)
                if let permissions = attributes?[.posixPermissions] {
                    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary.path)
                }
                guard rename(temporary.path, url.path) == 0 else {
                    throw WriteError(description: "error: \(change.path): cannot replace the file (\(String(cString: strerror(errno))))")
                }
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw error as? WriteError ?? WriteError(description: "error: \(change.path): cannot write the fixed file: \(error.localizedDescription)")
            }
        }
        return warnings
    }
}
