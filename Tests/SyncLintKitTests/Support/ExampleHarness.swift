import Foundation
@testable import SyncLintKit

/// Runs sources through the production pipeline with chosen rules, as the CLI would.
enum Harness {
    static func findings(_ code: String, rules: [String], options: [String: [String: OptionValue]] = [:],
                         path: String = "/virtual/Example.swift", resources: [ResourceFile] = []) -> [Finding] {
        findings(sources: [SourceInput(path: path, text: code)], rules: rules, options: options, resources: resources)
    }

    static func findings(sources: [SourceInput], rules: [String], options: [String: [String: OptionValue]] = [:],
                         resources: [ResourceFile] = [], cloudKit: Configuration.CloudKitMode = .auto) -> [Finding] {
        var configuration = Configuration()
        configuration.onlyRules = rules
        configuration.cloudKit = cloudKit
        // Detection is what these tests check: findings of every confidence are shown (`ConfidenceTests` checks the filter).
        configuration.confidence = .medium
        for (rule, values) in options { configuration.ruleOptions[rule] = RuleOptions(values) }
        return Linter.lint(sources: sources, resources: resources, configuration: configuration).findings
    }
}

/// A source with `↓` markers removed, and where each marker stood (line, column in Unicode scalars, both 1-based).
struct MarkedSource {
    let text: String
    let markers: [Position]

    struct Position: Hashable, CustomStringConvertible {
        let line: Int
        let column: Int
        var description: String { "\(line):\(column)" }
    }

    init(_ marked: String) {
        var lines: [String] = []
        var markers: [Position] = []
        for (lineIndex, line) in marked.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var clean = ""
            for character in line {
                if character == "↓" {
                    markers.append(Position(line: lineIndex + 1, column: clean.unicodeScalars.count + 1))
                } else {
                    clean.append(character)
                }
            }
            lines.append(clean)
        }
        self.text = lines.joined(separator: "\n")
        self.markers = markers
    }
}

extension Configuration {
    /// The default configuration with the two rules that pipeline, reporter, cache and server tests use as
    /// "a file with one finding" turned on: `task_without_id` (`EngineTests.bad`) and `model_mutated_off_main`.
    /// Both became opt-in in round 4 of issue 21 on their figures on unseen apps; what those tests check (paths,
    /// caches, reporters, exit codes) does not depend on which rule fires.
    static var withStockRules: Configuration {
        var configuration = Configuration()
        configuration.optInRules = ["task_without_id", "model_mutated_off_main"]
        return configuration
    }
}

extension Configuration {
    /// `withStockRules` as a `.synclint.yml` line, for tests that run the executable or the server on a folder.
    static let stockRulesYAML = "opt_in_rules: [\(withStockRules.optInRules.joined(separator: ", "))]\n"
}
