import Foundation
import Testing
@testable import SyncLintKit

/// The bundled sample apps, linted as the README's first command lints them: the whole `Examples/`
/// folder as one project with its own `.synclint.yml` (the default rules and the opt-in rules the seeds
/// need). Each app's `Bad/` code gives exactly the rules in its
/// `expected-rules.txt`; its fixed twin (and shared code) gives nothing.
struct ExamplesTests {
    static let examples = Repository.path("Examples")

    static var apps: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: examples)) ?? [])
            .filter { FileManager.default.fileExists(atPath: examples + "/" + $0 + "/expected-rules.txt") }
            .sorted()
    }

    static let result = Linter.lint(paths: [examples], configuration: configuration)
    static var configuration: Configuration {
        (try? Configuration.load(path: examples + "/.synclint.yml", rules: RuleRegistry.allDescriptions))
            ?? Configuration()
    }

    @Test func thereAreSampleApps() throws {
        #expect(Self.apps.count >= 1)
        _ = try Configuration.load(path: Self.examples + "/.synclint.yml", rules: RuleRegistry.allDescriptions)
        #expect(Self.result.warnings.isEmpty, "\(Self.result.warnings)")
    }

    @Test(arguments: apps)
    func badCodeGivesExactlyTheExpectedRulesAndFixedCodeNone(app: String) throws {
        let expectedText = try String(contentsOfFile: "\(Self.examples)/\(app)/expected-rules.txt", encoding: .utf8)
        let expected = Set(expectedText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
        let appFindings = Self.result.findings.filter { $0.file.hasPrefix("\(Self.examples)/\(app)/") }
        let bad = appFindings.filter { $0.file.contains("/\(app)/Bad/") }
        let elsewhere = appFindings.filter { !$0.file.contains("/\(app)/Bad/") }
        #expect(Set(bad.map(\.ruleID)) == expected, "missing: \(expected.subtracting(bad.map(\.ruleID))), unexpected: \(Set(bad.map(\.ruleID)).subtracting(expected))")
        #expect(elsewhere.isEmpty, "fixed code reported: \(elsewhere.map { "\($0.file):\($0.line) \($0.ruleID)" })")
    }
}
