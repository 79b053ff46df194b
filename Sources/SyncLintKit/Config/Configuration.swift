import Foundation
import Yams

/// `.synclint.yml`, with keys shaped like SwiftLint's.
public struct Configuration: Sendable {
    public enum CloudKitMode: String, Sendable {
        case on, off, auto
    }

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
    /// Problems that do not stop the run (unknown keys, unknown rule ids), one line each.
    public var warnings: [String] = []

    public init() {}

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    static let topLevelKeys: Set<String> = ["disabled_rules", "opt_in_rules", "only_rules", "included", "excluded", "cloudkit",
                                                  "baseline", "write_baseline", "allow_zero_lintable_files"]

    /// Loads and validates a config file. Paths in `included`/`excluded` are relative to its folder.
    public static func load(path: String, knownRuleIDs: Set<String>) throws -> Configuration {
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
        return try parse(yaml: text, path: path, baseFolder: folder, knownRuleIDs: knownRuleIDs)
    }

    public static func parse(yaml text: String, path: String, baseFolder: String, knownRuleIDs: Set<String>) throws -> Configuration {
        if let problem = ConfigurationLimits.nestingProblem(in: text) {
            throw LoadError(description: "error: \(path): configuration \(problem)")
        }
        let loaded: Any?
        do {
            // Composed first and measured, then built: building expands every alias into a copy.
            let root = try Yams.compose(yaml: text)
            if let root, ConfigurationLimits.exceedsValueLimit(root) {
                throw LoadError(description: "error: \(path): configuration holds more than the limit of "
                    + "\(ConfigurationLimits.maximumValues) values, counting each use of a YAML alias as a copy")
            }
            loaded = root.map { Constructor.default.any(from: $0) }
        } catch let error as LoadError {
            throw error
        } catch let error as YamlError {
            throw LoadError(description: "error: \(path): malformed YAML\(Self.lineDescription(error)): \(Self.problem(error))")
        } catch {
            throw LoadError(description: "error: \(path): malformed YAML: \(error)")
        }
        var configuration = Configuration()
        guard let loaded else { return configuration }
        guard let root = loaded as? [String: Any] else {
            throw LoadError(description: "error: \(path): configuration must be a mapping of keys to values")
        }
        func list(_ key: String) throws -> [String] {
            guard let value = root[key] else { return [] }
            if let single = value as? String { return [single] }
            guard let values = value as? [Any] else {
                throw LoadError(description: "error: \(path): '\(key)' must be a list")
            }
            return values.map { "\($0)" }
        }
        configuration.disabledRules = try list("disabled_rules")
        configuration.optInRules = try list("opt_in_rules")
        if root["only_rules"] != nil { configuration.onlyRules = try list("only_rules") }
        configuration.included = try list("included").map { Self.absolute($0, in: baseFolder) }
        configuration.excluded = try list("excluded").map { Self.absolute($0, in: baseFolder) }
        for (key, target) in [("baseline", \Configuration.baseline), ("write_baseline", \Configuration.writeBaseline)] {
            guard let value = root[key] else { continue }
            guard let file = value as? String, !file.isEmpty else {
                throw LoadError(description: "error: \(path): '\(key)' must be a file path")
            }
            configuration[keyPath: target] = Self.absolute(file, in: baseFolder)
        }
        if let mode = root["cloudkit"] {
            let text = mode as? Bool == true ? "on" : (mode as? Bool == false ? "off" : "\(mode)")
            guard let parsed = CloudKitMode(rawValue: text) else {
                throw LoadError(description: "error: \(path): 'cloudkit' must be on, off or auto, not '\(mode)'")
            }
            configuration.cloudKit = parsed
        }
        if let allow = root["allow_zero_lintable_files"] {
            guard let allow = allow as? Bool else {
                throw LoadError(description: "error: \(path): 'allow_zero_lintable_files' must be true or false")
            }
            configuration.allowZeroLintableFiles = allow
        }
        for ruleID in configuration.disabledRules + configuration.optInRules + (configuration.onlyRules ?? [])
        where !knownRuleIDs.contains(ruleID) {
            configuration.warnings.append("warning: \(path): unknown rule '\(ruleID)'")
        }
        for key in root.keys.sorted() where !topLevelKeys.contains(key) {
            guard knownRuleIDs.contains(key) else {
                configuration.warnings.append("warning: \(path): unknown key '\(key)'")
                continue
            }
            guard let options = root[key] as? [String: Any] else {
                throw LoadError(description: "error: \(path): options of '\(key)' must be a mapping")
            }
            var values: [String: OptionValue] = [:]
            for (name, value) in options {
                if name == "severity" {
                    guard let severity = Severity(rawValue: "\(value)".lowercased()) else {
                        throw LoadError(description: "error: \(path): severity of '\(key)' must be warning or error")
                    }
                    configuration.severityOverrides[key] = severity
                } else {
                    values[name] = Self.optionValue(value)
                }
            }
            configuration.ruleOptions[key] = RuleOptions(values)
        }
        return configuration
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
