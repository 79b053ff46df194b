import Foundation
import Testing
@testable import SyncLintKit

/// What a SwiftLint user types first: SwiftLint's subcommands, reporter names, configuration keys and
/// `--only-rule` work where they mean the same; where they do not, the error says what to run instead.
struct SwiftLintHabitTests {
    private func folderWithBadView(configuration: String? = nil) throws -> URL {
        let folder = try Repository.temporaryFolder()
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        // The bad view's rule is opt-in: the file turns it on, before whatever the test adds.
        try (Configuration.stockRulesYAML + (configuration ?? "")).write(to: folder.appendingPathComponent(".synclint.yml"),
                                                                         atomically: true, encoding: .utf8)
        return folder
    }

    @Test func versionReportersAndDocsAreCommandsNotPaths() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = try Repository.run(["version"], in: folder)
        #expect(version.status == 0 && version.stdout == RuleDocumentation.version + "\n", "\(version.stderr)")
        #expect(try Repository.run(["--version"], in: folder).stdout == version.stdout)

        let reporters = try Repository.run(["reporters"], in: folder)
        #expect(reporters.status == 0)
        let names = reporters.stdout.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        #expect(names == ReporterKind.allCases.map(\.rawValue), "\(reporters.stdout)")

        let docs = try Repository.run(["docs"], in: folder)
        #expect(docs.status == 0 && docs.stdout == RuleDocumentation.reference(RuleRegistry.allDescriptions))
        let one = try Repository.run(["docs", "task_without_id"], in: folder)
        #expect(one.stdout == RuleDocumentation.markdown(for: try #require(RuleRegistry.description(of: "task_without_id"))))
    }

    @Test func rulesWithARuleIDPrintsItsDocumentationAndNamesExplain() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Repository.run(["rules", "task_without_id"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout == RuleDocumentation.markdown(for: try #require(RuleRegistry.description(of: "task_without_id"))))
        #expect(result.stderr.contains("`synclint explain task_without_id`"), "\(result.stderr)")
    }

    @Test func unknownRuleIDsGetTheClosestOne() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["explain", "task_without_ids"], ["rules", "task_without_ids"], ["lint", "--only-rule", "task_without_ids", "."]] {
            let result = try Repository.run(arguments, in: folder)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("error: unknown rule 'task_without_ids'"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasSuffix("; did you mean 'task_without_id'?\n"), "\(arguments): \(result.stderr)")
        }
        let far = try Repository.run(["explain", "zzz"], in: folder)
        #expect(far.stderr == "error: unknown rule 'zzz'; `synclint rules` lists them\n", "\(far.stderr)")
    }

    @Test func swiftLintReporterNamesAreAcceptedOrAnswered() throws {
        let folder = try folderWithBadView()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (alias, name) in [("github-actions-logging", "github-actions"), ("gitlab", "junit")] {
            let aliased = try Repository.run(["lint", "--reporter", alias], in: folder)
            let plain = try Repository.run(["lint", "--reporter", name], in: folder)
            #expect(aliased.status == 0, "\(alias): \(aliased.stderr)")
            #expect(!aliased.stdout.isEmpty && aliased.stdout == plain.stdout, "\(alias)")
        }
        let csv = try Repository.run(["lint", "--reporter", "csv"], in: folder)
        #expect(csv.status == 2)
        #expect(csv.stderr == "error: SyncLint has no 'csv' reporter; use `json` (the same fields) or `checkstyle`\n", "\(csv.stderr)")
        let typo = try Repository.run(["lint", "--reporter", "sarf"], in: folder)
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'sarif'?"), "\(typo.stderr)")
    }

    /// SwiftLint's configuration keys `reporter` and `strict`; the command line still wins for the reporter.
    @Test func reporterAndStrictConfigurationKeys() throws {
        let folder = try folderWithBadView(configuration: "reporter: json\nstrict: true\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Repository.run(["lint"], in: folder)
        #expect(result.status == 1, "strict: a warning fails the run: \(result.stderr)")
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.first?["rule_id"] as? String == "task_without_id")
        let overridden = try Repository.run(["lint", "--reporter", "xcode"], in: folder)
        #expect(overridden.stdout.hasSuffix("(task_without_id)\n"), "\(overridden.stdout)")

        try "# reporters\nreporter: emoji\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let refused = try Repository.run(["lint"], in: folder)
        #expect(refused.status == 2)
        #expect(refused.stderr == "error: .synclint.yml:2: SyncLint has no 'emoji' reporter; use `xcode` or `summary`\n", "\(refused.stderr)")
    }

    /// `--only-rule` runs exactly the named rules, also one the configuration disables.
    @Test func onlyRuleOverridesTheConfiguration() throws {
        let folder = try folderWithBadView(configuration: "disabled_rules: [task_without_id]\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Repository.run(["lint"], in: folder).stdout.isEmpty)
        let only = try Repository.run(["lint", "--only-rule", "task_without_id"], in: folder)
        #expect(only.stdout.hasSuffix("(task_without_id)\n") && only.stdout.split(separator: "\n").count == 1, "\(only.stdout)\(only.stderr)")
        let other = try Repository.run(["lint", "--only-rule", "unregistered_model"], in: folder)
        #expect(!other.stdout.contains("task_without_id"), "\(other.stdout)")
    }

    /// Maintainers' `generate-docs` is not in a user's help; the commands a user has are.
    @Test func helpShowsUsersCommandsOnly() throws {
        let help = try Repository.run(["--help"], in: Repository.root)
        #expect(!help.stdout.contains("generate-docs"), "\(help.stdout)")
        for command in ["lint", "rules", "explain", "reporters", "docs", "version"] {
            #expect(help.stdout.contains("  \(command)"), "\(command) is listed")
        }
    }

    /// The README's CI section says how exit statuses differ from SwiftLint's.
    @Test func readmeDocumentsExitStatusesAgainstSwiftLints() throws {
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        let ci = try #require(readme.range(of: "## Use in CI")).upperBound
        let section = readme[ci...].prefix { _ in true }.split(separator: "\n## ").first.map(String.init) ?? ""
        #expect(section.contains("SwiftLint") && section.contains("exits with 2"), "\(section.prefix(400))")
    }
}
