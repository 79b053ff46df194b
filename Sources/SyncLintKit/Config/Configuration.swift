import Foundation
import Yams

/// `.synclint.yml`, with keys shaped like SwiftLint's.
public struct Configuration: Sendable {
    public typealias CloudKitMode = SyncLintFacts.CloudKitMode

    public var disabledRules: [String] = []
    public var optInRules: [String] = []
    /// When set, exactly these rules run.
    public var onlyRules: [String]?
    public var included: [String] = []
    public var excluded: [String] = []
    /// Forces CloudKit rules on or off; `auto` decides from the project's store setup and entitlements.
    public var cloudKit: CloudKitMode = .auto
    /// When true, paths that hold nothing to lint are not an error (SwiftLint's key of the same name).
    public var allowZeroLintableFiles = false
    public var ruleOptions: [String: RuleOptions] = [:]
    public var severityOverrides: [String: Severity] = [:]
    /// `baseline:`: report only findings not recorded in this file (absolute path).
    public var baseline: String?
    /// `write_baseline:`: record this run's findings in this file (absolute path).
    public var writeBaseline: String?
    /// `cache_path:`: the folder of the results cache (absolute path; SwiftLint's key), instead of the user's cache folder.
    public var cachePath: String?
    /// `reporter:`: the output format when the command line names none (SwiftLint's key), already
    /// checked to name a reporter.
    public var reporter: String?
    /// `strict:`: exit 1 on any finding, as `--strict` (SwiftLint's key).
    public var strict = false
    /// `confidence:`: the lowest confidence shown (`high` when unset: findings decided from a name or a text,
    /// `medium`, are hidden); `--confidence` overrides it.
    public var confidence: Confidence?
    /// `documentation_url:`: where the rule reference lives, for the help links of reports; without
    /// it (and without the build's own, `RuleDocumentation.documentationURL`), reports link nowhere.
    public var documentationURL: String?
    /// Problems that do not stop the run (unknown keys, rule ids and options, option values of the
    /// wrong type), one `path:line: warning: ...` line each.
    public var warnings: [String] = []
    /// The file this configuration was read from, absolute; nil for the defaults.
    public var file: String?
    /// The file's path as given (relative for the current folder's file), which messages name.
    public internal(set) var shownPath: String?
    /// Each `excluded` entry as written, with its line, for the warning about an entry that matches nothing.
    var excludedEntries: [(entry: String, line: Int)] = []
    /// Lines of the keys that apply to a whole run (`runWideKeys`), which a nested configuration cannot set.
    var runWideKeyLines: [String: Int] = [:]
    /// The rules this configuration was read against (`parse(yaml:path:baseFolder:rules:)`): their ids are the
    /// known ones, their options the ones checked, and `all` stands for them. The configuration names no rule itself.
    public internal(set) var rules: [RuleDescription] = []

    public init() {}

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    static let topLevelKeys: Set<String> = ["disabled_rules", "opt_in_rules", "only_rules", "included", "excluded", "cloudkit",
                                                  "baseline", "write_baseline", "allow_zero_lintable_files", "reporter", "strict",
                                                  "documentation_url", "confidence", "cache_path"]
    /// Keys read only from the main configuration: one project index and one report serve the whole run.
    static let runWideKeys = ["baseline", "write_baseline", "cloudkit", "allow_zero_lintable_files", "reporter", "strict",
                              "documentation_url", "confidence", "cache_path"]
    /// In `opt_in_rules`, every opt-in rule; in `only_rules`, every rule (SwiftLint's `all`).
    public static let allRules = "all"

    /// Loads and validates a config file against the given rules (the command line passes every registered
    /// rule's description). Paths in `included`/`excluded` are relative to its folder.
    public static func load(path: String, rules: [RuleDescription]) throws -> Configuration {
        let data: [UInt8]
        switch SourceReader.readBytes(path, limit: ConfigurationLimits.maximumFileSize) {
        case .success(let bytes): data = bytes
        case .failure(.tooLarge(_, let size, _)):
            throw LoadError(description: "error: \(path): configuration file is \(size) bytes, over the limit of "
                + SourceReader.byteCount(ConfigurationLimits.maximumFileSize))
        case .failure(let failure):
            throw LoadError(description: "error: \(path): cannot read configuration file: \(failure.reason)")
        }
        guard let text = String(bytes: data, encoding: .utf8) else {
            throw LoadError(description: "error: \(path): configuration is not UTF-8 text")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var configuration = try parse(yaml: text, path: path, baseFolder: folder, rules: rules)
        configuration.file = URL(fileURLWithPath: path).standardizedFileURL.path
        return configuration
    }

    public static func parse(yaml text: String, path: String, baseFolder: String, rules: [RuleDescription]) throws -> Configuration {
        let knownRuleIDs = Set(rules.map(\.id))
        if let problem = ConfigurationLimits.nestingProblem(in: text) {
            throw LoadError(description: "error: \(path): configuration \(problem)")
        }
        let composed: Node?
        do {
            // Composed first and measured, then built: building expands every alias into a copy.
            composed = try Yams.compose(yaml: text)
            if let composed, ConfigurationLimits.exceedsValueLimit(composed) {
                throw LoadError(description: "error: \(path): configuration holds more than the limit of "
                    + "\(ConfigurationLimits.maximumValues) values, counting each use of a YAML alias as a copy")
            }
        } catch let error as LoadError {
            throw error
        } catch let error as YamlError {
            throw LoadError(description: "error: \(path): malformed YAML\(Self.lineDescription(error)): \(Self.problem(error))")
        } catch {
            throw LoadError(description: "error: \(path): malformed YAML: \(error)")
        }
        var configuration = Configuration()
        configuration.shownPath = path
        configuration.rules = rules
        guard let composed else { return configuration }
        guard case .mapping(let mapping) = composed else {
            throw LoadError(description: "error: \(path): configuration must be a mapping of keys to values")
        }
        // The nodes are kept next to their values: their marks give each warning its line.
        var entries: [String: (key: Node, value: Node)] = [:]
        var order: [String] = []
        for (key, value) in mapping {
            let name = key.string ?? "\(Constructor.default.any(from: key))"
            if entries[name] == nil { order.append(name) }
            entries[name] = (key, value)
        }
        func warn(_ node: Node?, _ message: String) {
            configuration.warnings.append("\(path):\(node?.mark?.line ?? 1): warning: \(message)")
        }
        func list(_ key: String) throws -> [(text: String, node: Node)] {
            guard let (_, node) = entries[key] else { return [] }
            let value = Constructor.default.any(from: node)
            if let single = value as? String { return [(single, node)] }
            guard let values = value as? [Any], case .sequence(let items) = node else {
                throw LoadError(description: "error: \(path): '\(key)' must be a list")
            }
            return zip(values, items).map { ("\($0)", $1) }
        }
        let disabled = try list("disabled_rules"), optIn = try list("opt_in_rules")
        let only: [(text: String, node: Node)]? = entries["only_rules"] == nil ? nil : try list("only_rules")
        configuration.disabledRules = disabled.map(\.text)
        configuration.optInRules = optIn.map(\.text)
        configuration.onlyRules = only?.map(\.text)
        let included = try list("included"), excluded = try list("excluded")
        configuration.included = included.map { PathPattern($0.text, in: baseFolder).text }
        configuration.excluded = excluded.map { PathPattern($0.text, in: baseFolder).text }
        configuration.excludedEntries = excluded.map { (entry: $0.text, line: $0.node.mark?.line ?? 1) }
        for (key, target) in [("baseline", \Configuration.baseline), ("write_baseline", \Configuration.writeBaseline)] {
            guard let (_, node) = entries[key] else { continue }
            guard let file = Constructor.default.any(from: node) as? String, !file.isEmpty else {
                throw LoadError(description: "error: \(path): '\(key)' must be a file path")
            }
            configuration[keyPath: target] = Self.absolute(file, in: baseFolder)
        }
        if let (_, node) = entries["cache_path"] {
            guard let folder = Constructor.default.any(from: node) as? String, !folder.isEmpty else {
                throw LoadError(description: "error: \(path): 'cache_path' must be a folder path")
            }
            configuration.cachePath = Self.absolute(folder, in: baseFolder)
        }
        if let (_, node) = entries["cloudkit"] {
            let mode = Constructor.default.any(from: node)
            let text = mode as? Bool == true ? "on" : (mode as? Bool == false ? "off" : "\(mode)")
            guard let parsed = CloudKitMode(rawValue: text) else {
                throw LoadError(description: "error: \(path): 'cloudkit' must be on, off or auto, not '\(mode)'")
            }
            configuration.cloudKit = parsed
        }
        for (key, target) in [("allow_zero_lintable_files", \Configuration.allowZeroLintableFiles), ("strict", \Configuration.strict)] {
            guard let (_, node) = entries[key] else { continue }
            guard let value = Constructor.default.any(from: node) as? Bool else {
                throw LoadError(description: "error: \(path): '\(key)' must be true or false")
            }
            configuration[keyPath: target] = value
        }
        if let (_, node) = entries["reporter"] {
            let name = "\(Constructor.default.any(from: node))"
            if case .failure(let problem) = ReporterKind.named(name) {
                throw LoadError(description: "error: \(path):\(node.mark?.line ?? 1): \(problem.description)")
            }
            configuration.reporter = name
        }
        if let (_, node) = entries["confidence"] {
            let value = "\(Constructor.default.any(from: node))"
            guard let confidence = Confidence(rawValue: value) else {
                throw LoadError(description: "error: \(path):\(node.mark?.line ?? 1): 'confidence' must be high or medium, not '\(value)'")
            }
            configuration.confidence = confidence
        }
        if let (_, node) = entries["documentation_url"] {
            guard let url = Constructor.default.any(from: node) as? String, !url.isEmpty else {
                throw LoadError(description: "error: \(path): 'documentation_url' must be a URL")
            }
            configuration.documentationURL = url
        }
        configuration.runWideKeyLines = Dictionary(uniqueKeysWithValues: Self.runWideKeys.compactMap { key in
            entries[key].map { (key, $0.key.mark?.line ?? 1) }
        })
        for (list, key) in [(disabled, "disabled_rules"), (optIn, "opt_in_rules"), (only ?? [], "only_rules")] {
            for item in list where !knownRuleIDs.contains(item.text) {
                if item.text == Self.allRules {
                    if key == "disabled_rules" { warn(item.node, "'all' is accepted in opt_in_rules and only_rules, not in disabled_rules") }
                    continue
                }
                warn(item.node, "unknown rule '\(item.text)' in \(key)" + Self.suggestion(for: item.text, among: knownRuleIDs))
            }
        }
        for key in order where !topLevelKeys.contains(key) {
            // cannot fail: `order` holds exactly the keys of `entries`.
            let (keyNode, valueNode) = entries[key]!
            guard knownRuleIDs.contains(key) else {
                warn(keyNode, "unknown key '\(key)'" + Self.suggestion(for: key, among: knownRuleIDs.union(topLevelKeys)))
                continue
            }
            guard case .mapping(let options) = valueNode else {
                warn(valueNode, "options of '\(key)' must be a mapping of option names to values, not \(Self.shape(of: valueNode)); ignored")
                continue
            }
            let declared = rules.first { $0.id == key }?.options ?? []
            var values: [String: OptionValue] = [:]
            for (nameNode, optionNode) in options {
                let name = nameNode.string ?? "\(Constructor.default.any(from: nameNode))"
                let value = Constructor.default.any(from: optionNode)
                if name == "severity" {
                    guard let text = value as? String, let severity = Severity(rawValue: text.lowercased()) else {
                        warn(optionNode, "severity of '\(key)' must be warning or error, not \(Self.shape(of: optionNode)); ignored")
                        continue
                    }
                    configuration.severityOverrides[key] = severity
                    continue
                }
                guard let option = declared.first(where: { $0.name == name }) else {
                    let known = ["severity"] + declared.map(\.name)
                    warn(nameNode, "unknown option '\(name)' for rule '\(key)'; its options are \(known.joined(separator: ", "))")
                    continue
                }
                let kind = OptionKind(defaultValue: option.defaultValue)
                guard kind.accepts(value) else {
                    warn(optionNode, "option '\(name)' of '\(key)' must be \(kind.expected), not \(Self.shape(of: optionNode)); ignored")
                    continue
                }
                values[name] = Self.optionValue(value)
            }
            configuration.ruleOptions[key] = RuleOptions(values)
        }
        return configuration
    }

    /// How a value reads in a warning: a scalar quoted as written, a collection by its kind.
    private static func shape(of node: Node) -> String {
        switch node {
        case .scalar(let scalar): return "'\(scalar.string)'"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// "; did you mean 'x'?" for a name a few edits from a known one, else nothing.
    public static func suggestion(for name: String, among known: Set<String>) -> String {
        guard let closest = known.min(by: { (SuppressionOutcome.editDistance($0, name), $0) < (SuppressionOutcome.editDistance($1, name), $1) }),
              SuppressionOutcome.editDistance(closest, name) <= max(2, name.count / 4) else { return "" }
        return "; did you mean '\(closest)'?"
    }

    /// This configuration refined by a nested one (`child`, in a folder below this one's), modelled on
    /// SwiftLint's merge of a child configuration:
    /// - the child's `only_rules` replace everything above; else a parent's `only_rules` gain the
    ///   child's `opt_in_rules` and lose its `disabled_rules`; else the child's `opt_in_rules` undo the
    ///   parent's `disabled_rules` for those rules, and its `disabled_rules` undo the parent's `opt_in_rules`;
    /// - rule options merge option by option (the child's value wins), as do severities;
    /// - `excluded` adds up; the child's `included`, when it has one, replaces the parent's;
    /// - the run-wide keys (`runWideKeys`) stay the parent's.
    public func merged(with child: Configuration) -> Configuration {
        var result = self
        let childDisabled = Set(child.disabledRules), childOptIn = Set(child.optInRules)
        if let childOnly = child.onlyRules {
            result.onlyRules = childOnly
            result.disabledRules = child.disabledRules
            result.optInRules = child.optInRules
        } else if let parentOnly = onlyRules {
            let everything = parentOnly.contains(Self.allRules) ? rules.map(\.id) : parentOnly
            result.onlyRules = (everything + child.optInRules.filter { !everything.contains($0) }).filter { !childDisabled.contains($0) }
        } else {
            result.disabledRules = disabledRules.filter { !childOptIn.contains($0) } + child.disabledRules.filter { !disabledRules.contains($0) }
            result.optInRules = optInRules.filter { !childDisabled.contains($0) } + child.optInRules.filter { !optInRules.contains($0) }
        }
        for (rule, options) in child.ruleOptions {
            result.ruleOptions[rule] = RuleOptions((ruleOptions[rule]?.values ?? [:]).merging(options.values) { _, new in new })
        }
        result.severityOverrides.merge(child.severityOverrides) { _, new in new }
        result.excluded += child.excluded
        if !child.included.isEmpty { result.included = child.included }
        result.warnings = []
        result.file = child.file
        result.shownPath = child.shownPath
        result.excludedEntries = []
        result.runWideKeyLines = [:]
        return result
    }

    static func optionValue(_ value: Any) -> OptionValue {
        switch value {
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .int(int)
        case let list as [Any]: return .list(list.map(optionValue))
        case let map as [String: Any]: return .map(map.mapValues(optionValue))
        default: return .string("\(value)")
        }
    }

    static func absolute(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL.path
    }

    private static func lineDescription(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return " at line \(mark.line)"
        default:
            return ""
        }
    }

    private static func problem(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return problem
        default:
            return "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        }
    }
}

/// What a rule option's value must be, read from its documented default (`false`, `[a, b]`, `{}`, `3`).
enum OptionKind {
    case bool, int, list, map, string

    init(defaultValue: String) {
        switch defaultValue {
        case "true", "false": self = .bool
        case _ where defaultValue.hasPrefix("["): self = .list
        case _ where defaultValue.hasPrefix("{"): self = .map
        case _ where Int(defaultValue) != nil: self = .int
        default: self = .string
        }
    }

    var expected: String {
        switch self {
        case .bool: return "true or false"
        case .int: return "a whole number"
        case .list: return "a list of names"
        case .map: return "a mapping"
        case .string: return "text"
        }
    }

    /// Values as Yams builds them. A single name stands for a list of one, as in `disabled_rules`.
    func accepts(_ value: Any) -> Bool {
        func isScalar(_ item: Any) -> Bool { item is String || item is Int || item is Bool || item is Double }
        switch self {
        case .bool: return value is Bool
        case .int: return value is Int && !(value is Bool)
        case .list: return value is String || ((value as? [Any])?.allSatisfy(isScalar) ?? false)
        case .map: return value is [String: Any] || value is [AnyHashable: Any]
        case .string: return isScalar(value)
        }
    }
}
