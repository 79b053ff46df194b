import Foundation
import Testing
@testable import SyncLintKit

/// A `.synclint.yml` comes with the repository being linted, so what it may cost to read is bounded:
/// each limit gives one `error:` line naming it, quickly, and exit status 2 on the command line.
struct ConfigurationLimitTests {
    static let known = Set(RuleRegistry.allDescriptions.map(\.id))

    /// Nine levels of nine aliases feeding `disabled_rules`: 9⁹ values once expanded.
    static let aliasBomb: String = {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...8 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        return (lines + ["disabled_rules: *a8"]).joined(separator: "\n") + "\n"
    }()

    private func loadError(_ yaml: String) -> String? {
        do {
            _ = try Configuration.parse(yaml: yaml, path: "c.yml", baseFolder: "/", rules: RuleRegistry.allDescriptions)
            return nil
        } catch let error as Configuration.LoadError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func aliasBombIsRefusedQuicklyNamingTheLimit() throws {
        let start = Date()
        let error = try #require(loadError(Self.aliasBomb))
        #expect(Date().timeIntervalSince(start) < 5, "refused before expanding")
        #expect(error == "error: c.yml: configuration holds more than the limit of 100000 values, counting each use of a YAML alias as a copy")
    }

    @Test func ordinaryAliasesStillWork() throws {
        let yaml = "shared: &rules [task_without_id]\ndisabled_rules: *rules\n"
        let configuration = try Configuration.parse(yaml: yaml, path: "c.yml", baseFolder: "/", rules: RuleRegistry.allDescriptions)
        #expect(configuration.disabledRules == ["task_without_id"])
    }

    @Test func deepNestingIsRefusedBeforeTheReaderRecurses() {
        // Each of these overflowed the stack inside the YAML reader before the bound.
        for yaml in [String(repeating: "- ", count: 300_000) + "x", String(repeating: "? ", count: 300_000) + "x",
                     "disabled_rules: " + String(repeating: "[", count: 100_000)] {
            #expect(loadError(yaml) == "error: c.yml: configuration nests lists or mappings deeper than the limit of 200 levels")
        }
        let indented = (0..<300).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n")
        #expect(loadError(indented)?.contains("deeper than the limit of 200 levels") == true)
    }

    @Test func nestingAtTheLimitIsRead() {
        let flow = "opt_in_rules: " + String(repeating: "[", count: 199) + String(repeating: "]", count: 199)
        #expect(loadError(flow) == nil)
        // 150 nested lists: read to the end (the complaint is about its shape, not its depth).
        let compact = String(repeating: "- ", count: 150) + "y"
        #expect(loadError(compact) == "error: c.yml: configuration must be a mapping of keys to values")
    }

    @Test func oversizedConfigurationIsRefusedUnread() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.yml").path
        try ("# " + String(repeating: "x", count: 1_048_576)).write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try Configuration.load(path: path, rules: RuleRegistry.allDescriptions)
            Issue.record("a configuration over 1 MiB was read")
        } catch let error as Configuration.LoadError {
            #expect(error.description == "error: \(path): configuration file is 1048578 bytes, over the limit of 1 MiB")
        }
    }

    @Test func aliasBombOnTheCommandLineExitsTwoWithOneLine() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try Self.aliasBomb.write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let start = Date()
        let result = try Repository.run(["lint"], in: folder)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(result.status == 2)
        #expect(result.stderr == "error: .synclint.yml: configuration holds more than the limit of 100000 values, counting each use of a YAML alias as a copy\n")
    }
}
