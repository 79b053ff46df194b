import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintSyntax
import SwiftParser

/// Which configuration applies is never a guess: `--verbose` names the files loaded, a file named on
/// the command line that `excluded` covers says which entry, and a configuration found above a project
/// outside any repository is announced.
struct VisibleConfigurationTests {
    @Test func verboseNamesTheConfigurationFilesLoaded() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        let none = try Repository.run(["lint", "--verbose"], in: folder)
        #expect(none.stderr.hasPrefix("No configuration file found; using the defaults\n"), "\(none.stderr)")
        try "opt_in_rules: [model_not_main_actor]\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let sub = folder.appendingPathComponent("Feature")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try EngineTests.bad.replacingOccurrences(of: "ItemView", with: "OtherView").replacingOccurrences(of: "class Item", with: "class Other")
            .write(to: sub.appendingPathComponent("OtherView.swift"), atomically: true, encoding: .utf8)
        try "disabled_rules: [task_without_id]\n".write(to: sub.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let result = try Repository.run(["lint", "--verbose"], in: folder)
        let nested = sub.resolvingSymlinksInPath().appendingPathComponent(".synclint.yml").path
        #expect(result.stderr.hasPrefix("Loading configuration from '.synclint.yml'\nLoading configuration from '\(nested)'\n"), "\(result.stderr)")
        let quiet = try Repository.run(["lint"], in: folder)
        #expect(!quiet.stderr.contains("Loading configuration"), "only with --verbose")
    }

    @Test func anExcludedFileNamedOnTheCommandLineSaysWhichEntry() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try "struct Fine {}\n".write(to: folder.appendingPathComponent("Fine.swift"), atomically: true, encoding: .utf8)
        try "# generated views\nexcluded:\n  - \"*View.swift\"\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let alone = try Repository.run(["lint", "ItemView.swift"], in: folder)
        #expect(alone.status == 2)
        #expect(alone.stderr == "error: nothing to lint: ItemView.swift: excluded by .synclint.yml:3 ('*View.swift') "
            + "(pass --allow-zero-lintable-files if that is expected)\n", "\(alone.stderr)")
        let withOther = try Repository.run(["lint", "ItemView.swift", "Fine.swift"], in: folder)
        #expect(withOther.status == 0)
        #expect(withOther.stderr.contains("warning: ItemView.swift: excluded by .synclint.yml:3 ('*View.swift'); not linted\n"), "\(withOther.stderr)")
        // As pre-commit runs it: passes, and says why nothing was linted.
        let hook = try Repository.run(["lint", "--allow-zero-lintable-files", "ItemView.swift"], in: folder)
        #expect(hook.status == 0 && hook.stderr.contains("excluded by .synclint.yml:3"), "\(hook.stderr)")
    }

    /// A `.synclint.yml` in a workspace folder above a project that has no `.git` of its own.
    @Test func aConfigurationAboveAProjectOutsideAnyRepositoryIsAnnounced() throws {
        let workspace = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let project = workspace.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try "// swift-tools-version: 6.0\n".write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try EngineTests.bad.write(to: project.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try "disabled_rules: [task_without_id]\n".write(to: workspace.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let result = try Repository.run(["lint"], in: project)
        let configuration = workspace.resolvingSymlinksInPath().appendingPathComponent(".synclint.yml").path
        #expect(result.stderr.hasPrefix("warning: using \(configuration), found above the project at "), "\(result.stderr)")
        #expect(result.stderr.contains("outside any repository (no .git)"))
        // Inside a repository the workspace's file is the repository's own: used without a word.
        try FileManager.default.createDirectory(at: workspace.appendingPathComponent(".git"), withIntermediateDirectories: true)
        #expect(!(try Repository.run(["lint"], in: project)).stderr.contains("warning: using"))
        try FileManager.default.removeItem(at: workspace.appendingPathComponent(".git"))
        // Named with --config: chosen, not found.
        #expect(!(try Repository.run(["lint", "--config", configuration], in: project)).stderr.contains("warning: using"))
    }
}

/// Reports and messages name no absolute path of the user's machine, link only to a documented home,
/// and `--timings` accounts for every rule and collector.
struct ReportContentTests {
    @Test func cloudKitEvidenceIsRelativeToTheLintedFolder() {
        let result = Linter.lint(paths: [Repository.path("Examples")], configuration: Configuration())
        let evidence = result.findings.filter { $0.message.contains("CloudKit is on:") }
        #expect(!evidence.isEmpty)
        for finding in evidence {
            #expect(!finding.message.contains(Repository.root.path), "\(finding.message)")
        }
        #expect(evidence.contains { $0.message.contains("`cloudKitDatabase` at Bookmarks/Bad/BookmarksApp.swift:") })
    }

    @Test func htmlHeaderNamesTheFolderNotItsPath() {
        let report = LintReport(findings: [], rules: RuleRegistry.allDescriptions, root: "/home/someone/Projects/MyApp", locate: false)
        let html = HTMLReporter.render(report)
        #expect(!html.contains("/home/someone"), "the report names no path of the user's machine")
        #expect(html.contains("<p class=\"meta\">MyApp · "))
    }

    /// Without a published address (this build sets none, and the configuration may), reports carry
    /// no help links rather than a guessed repository.
    @Test func helpLinksOnlyWhereADocumentationURLIsSet() throws {
        let finding = Finding(ruleID: "task_without_id", ruleName: "Task without id", severity: .warning, message: "m",
                              file: "/p/A.swift", line: 1, column: 1)
        let bare = LintReport(findings: [finding], rules: RuleRegistry.allDescriptions, root: "/p", locate: false)
        #expect(RuleDocumentation.documentationURL == nil && bare.helpURL(for: "task_without_id") == nil)
        #expect(!SARIFReporter.render(bare).contains("helpUri") && !SARIFReporter.render(bare).contains("informationUri"))
        #expect(!MarkdownReporter.render(bare).contains("]("))
        #expect(!HTMLReporter.render(bare).contains("Full documentation"))

        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try (Configuration.stockRulesYAML + "documentation_url: https://docs.example.org/synclint/rules.md\n")
            .write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let markdown = try Repository.run(["lint", "--reporter", "markdown"], in: folder)
        #expect(markdown.stdout.contains("[`task_without_id`](https://docs.example.org/synclint/rules.md#task_without_id-"), "\(markdown.stdout)")
    }

    /// Where the team learned a rule (the case studies in `seed`) is the team's business, not the user's:
    /// the documentation says what the bug does, not who wrote about it.
    @Test func ruleDocumentationSaysNothingOfWhereARuleWasLearned() throws {
        let sources = try Regex("(?i)learned from|post-mortem|pattern guide|guide to task races|sync analysis|case study|unique-constraint guide")
        for rule in RuleRegistry.allDescriptions {
            let text = RuleDocumentation.markdown(for: rule) + rule.options.map(\.summary).joined(separator: "\n")
            let match = text.firstMatch(of: sources)
            #expect(match == nil, "\(rule.id): \(match.map { String(text[$0.range]) } ?? "")")
        }
    }

    @Test func timingsGiveTheTotalEachRuleAndEachCollector() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        let result = try Repository.run(["lint", "--timings", "--quiet"], in: folder)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "timings for 1 files:", "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("  total (wall) ") })
        let ruleHeader = try #require(lines.firstIndex(of: "per rule (summed over threads):"))
        let collectorHeader = try #require(lines.firstIndex(of: "per index fact collector (summed over threads):"))
        let ruleRows = Set(lines[(ruleHeader + 1)..<collectorHeader].compactMap { $0.split(separator: " ").first.map(String.init) })
        let enabled = Linter.enabledRules(configuration: Configuration(), enableAllRules: false)
        #expect(ruleRows == enabled, "every rule that ran has its row: \(ruleRows.symmetricDifference(enabled))")
        let collectorRows = lines[(collectorHeader + 1)...].compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Set(collectorRows) == Set(IndexCollectors.make().map { "\(type(of: $0))" }), "\(collectorRows)")
    }
}

/// Every Swift example the documentation shows (what it does, what to use instead, a fix's before and
/// after) is Swift the parser reads without an error. Type-checking them needs Apple's SDKs (SwiftUI,
/// SwiftData), which a Linux toolchain lacks; parsing is what can be checked everywhere.
struct DocumentedExampleTests {
    @Test(arguments: RuleRegistry.allDescriptions.map(\.id))
    func everyDocumentedSwiftExampleParses(ruleID: String) throws {
        let rule = try #require(RuleRegistry.description(of: ruleID))
        let examples = (rule.triggeringExamples + rule.nonTriggeringExamples).filter { $0.kind == .swift }
        var texts = examples.map { $0.code.replacingOccurrences(of: "↓", with: "") }
        texts += examples.compactMap(\.fixed)
        for text in texts {
            let tree = Parser.parse(source: text)
            #expect(!tree.hasError, "an example of \(ruleID) does not parse:\n\(text)")
        }
    }
}
