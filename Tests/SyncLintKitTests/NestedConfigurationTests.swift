import Foundation
import Testing
@testable import SyncLintKit

/// A `.synclint.yml` in a subfolder refines the configuration above it for the files under that
/// folder; `excluded`/`included` take globs; configuration mistakes warn with their line.
struct NestedConfigurationTests {
    static let known = Set(RuleRegistry.allDescriptions.map(\.id))

    /// A repository: the main configuration at its root, `App/` linted by it, `App/Legacy/` refined by
    /// its own file, `App/Legacy/Deep/` refined once more.
    struct Fixture {
        let root: URL

        init() throws {
            root = try Repository.temporaryFolder()
            try write(".git/HEAD", "ref: refs/heads/main\n")
            try write(".synclint.yml", """
                opt_in_rules: [model_not_main_actor, task_without_id]
                loading_state_not_reset:
                  flags: [isBusy]
                """)
            try write("App/ItemView.swift", EngineTests.bad)
            try write("App/Legacy/.synclint.yml", """
                disabled_rules: [task_without_id]
                excluded: [Generated, "**/*Mock.swift"]
                model_not_main_actor:
                  severity: error
                """)
            try write("App/Legacy/OldView.swift", EngineTests.bad.replacingOccurrences(of: "Item", with: "OldItem"))
            try write("App/Legacy/Generated/GenView.swift", EngineTests.bad.replacingOccurrences(of: "Item", with: "GenItem"))
            try write("App/Legacy/Sub/ViewMock.swift", EngineTests.bad.replacingOccurrences(of: "Item", with: "MockItem"))
            try write("App/Legacy/Deep/.synclint.yml", "opt_in_rules: [task_without_id]\n")
            try write("App/Legacy/Deep/DeepView.swift", EngineTests.bad.replacingOccurrences(of: "Item", with: "DeepItem"))
        }

        func write(_ relative: String, _ text: String) throws {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        func path(_ relative: String) -> String { root.appendingPathComponent(relative).standardizedFileURL.path }

        func tree(nested: Bool = true) throws -> ConfigurationTree {
            ConfigurationTree(main: try Configuration.load(path: path(".synclint.yml"), rules: RuleRegistry.allDescriptions),
                              nestedLookup: nested)
        }

        /// "file:rule:severity" for the rules this test looks at, sorted.
        func findings(_ result: LintResult) -> [String] {
            result.findings.filter { ["task_without_id", "model_not_main_actor"].contains($0.ruleID) }.map {
                "\(String($0.file.dropFirst(root.standardizedFileURL.path.count + 1))):\($0.ruleID):\($0.severity.rawValue)"
            }.sorted()
        }
    }

    @Test func aNestedConfigurationRefinesItsParentForTheFilesUnderItsFolder() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        let result = Linter.lint(paths: [fixture.path("App")], configurations: try fixture.tree())
        #expect(fixture.findings(result) == [
            "App/ItemView.swift:model_not_main_actor:warning",
            "App/ItemView.swift:task_without_id:warning",
            // Legacy: task_without_id off, the parent's opt-in rule still on, at the severity Legacy sets.
            "App/Legacy/Deep/DeepView.swift:model_not_main_actor:error",
            // Deep turns task_without_id back on below Legacy.
            "App/Legacy/Deep/DeepView.swift:task_without_id:warning",
            "App/Legacy/OldView.swift:model_not_main_actor:error",
        ], "Generated/ and *Mock.swift are excluded by Legacy's paths, relative to its folder")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.enabledRules.contains("task_without_id") && result.enabledRules.contains("model_not_main_actor"))
    }

    @Test func aDisableCommentIsSuperfluousOnlyWhereItsRuleRan() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        let quiet = "// synclint:disable:next task_without_id\nlet x = 1\n"
        try fixture.write("App/Quiet.swift", quiet)
        try fixture.write("App/Legacy/Quiet.swift", quiet)
        let result = Linter.lint(paths: [fixture.path("App")], configurations: try fixture.tree())
        let superfluous = result.findings.filter { $0.ruleID == "superfluous_disable_command" }
        #expect(superfluous.map(\.file) == [fixture.path("App/Quiet.swift")],
                "in Legacy task_without_id did not run, so the comment might be needed")
    }

    @Test func anExplicitConfigurationDisablesNestedLookup() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        let result = Linter.lint(paths: [fixture.path("App")], configurations: try fixture.tree(nested: false))
        #expect(fixture.findings(result).filter { $0.contains("task_without_id") }.count == 5, "every file, Legacy's exclusions unread")
        #expect(!fixture.findings(result).contains { $0.hasSuffix(":error") })

        let nested = try Repository.run(["lint", "App"], in: fixture.root)
        #expect(nested.stdout.components(separatedBy: "(task_without_id)").count - 1 == 2, "\(nested.stdout)")
        #expect(nested.stdout.split(separator: "\n").contains { $0.contains("OldView.swift:7:") && $0.contains(": error:") }, "\(nested.stdout)")
        let explicit = try Repository.run(["lint", "--config", ".synclint.yml", "App"], in: fixture.root)
        #expect(explicit.stdout.components(separatedBy: "(task_without_id)").count - 1 == 5, "\(explicit.stdout)")
    }

    @Test func lintingOnlyASubfolderStillAppliesTheConfigurationsBelowTheMainOne() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        // From outside the repository, naming only Legacy's subfolder: the main configuration is the
        // nearest above it (Legacy's), and Deep's still refines it.
        let run = try Repository.run(["lint", "--quiet", fixture.path("App/Legacy/Deep"), fixture.path("App/Legacy/OldView.swift")],
                                     in: FileManager.default.temporaryDirectory)
        #expect(run.stdout.contains("DeepView.swift:4:") && run.stdout.contains("(task_without_id)"), "\(run.stdout)")
        #expect(!run.stdout.contains("OldView.swift:4:"), "\(run.stdout)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func nestedOptionsAndRuleChoicesReachProjectRulesAndFixes() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unique = "@Model final class Thing { @Attribute(.unique) var name: String? }\n"
        try "cloudkit: on\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        for sub in ["A", "B"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            try unique.replacingOccurrences(of: "Thing", with: "Thing\(sub)")
                .write(to: folder.appendingPathComponent("\(sub)/Model.swift"), atomically: true, encoding: .utf8)
        }
        try "disabled_rules: [cloudkit_unique_constraint]\ncloudkit: off\n"
            .write(to: folder.appendingPathComponent("B/.synclint.yml"), atomically: true, encoding: .utf8)
        let main = try Configuration.load(path: folder.appendingPathComponent(".synclint.yml").path, rules: RuleRegistry.allDescriptions)
        let tree = ConfigurationTree(main: main, nestedLookup: true)
        let result = Linter.lint(paths: [folder.path], configurations: tree)
        let uniqueFindings = result.findings.filter { $0.ruleID == "cloudkit_unique_constraint" }
            .map { URL(fileURLWithPath: $0.file).pathComponents.suffix(2).joined(separator: "/") }
        #expect(uniqueFindings == ["A/Model.swift"], "a project rule's finding is kept only where its file's configuration enables it")
        let bLine = try #require(result.warnings.first { $0.contains("B/.synclint.yml") })
        #expect(bLine.hasSuffix("B/.synclint.yml:2: warning: 'cloudkit' applies to the whole run and is read only from the main configuration (\(main.file ?? "")); ignored here"))

        // Fixes use the options of the file's own configuration: Busy's flag is `isBusy` only there.
        let loading = """
            @MainActor final class Loader {
                var isBusy = false
                func load() async throws {
                    isBusy = true
                    try await fetch()
                    isBusy = false
                }
            }
            """
        try loading.write(to: folder.appendingPathComponent("A/Loader.swift"), atomically: true, encoding: .utf8)
        try loading.write(to: folder.appendingPathComponent("B/Loader.swift"), atomically: true, encoding: .utf8)
        try "opt_in_rules: [loading_state_not_reset]\nloading_state_not_reset:\n  flags: [isBusy]\n".write(to: folder.appendingPathComponent("A/.synclint.yml"), atomically: true, encoding: .utf8)
        let fixed = FixEngine.fix(paths: [folder.path], configurations: ConfigurationTree(main: main, nestedLookup: true), includeUnsafe: true)
        #expect(fixed.changes.map { URL(fileURLWithPath: $0.path).pathComponents.suffix(2).joined(separator: "/") } == ["A/Loader.swift"])
    }

    @Test func aMalformedNestedConfigurationStopsTheRunWithOneLine() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        try fixture.write("App/Legacy/Deep/.synclint.yml", "opt_in_rules: [a\n")
        let run = try Repository.run(["lint", "App"], in: fixture.root)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("error: \(fixture.path("App/Legacy/Deep/.synclint.yml")): malformed YAML at line"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test func aNestedIncludedListKeepsOnlyTheFilesItNames() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        try fixture.write("App/Legacy/.synclint.yml", "included: [\"Deep/*.swift\"]\n")
        let result = Linter.lint(paths: [fixture.path("App")], configurations: try fixture.tree())
        #expect(Set(result.findings.map { URL(fileURLWithPath: $0.file).lastPathComponent }) == ["ItemView.swift", "DeepView.swift"])
    }

    @Test func mergeFollowsSwiftLintsChildConfigurationRules() throws {
        func parse(_ yaml: String) throws -> Configuration {
            try Configuration.parse(yaml: yaml, path: "c.yml", baseFolder: "/p", rules: RuleRegistry.allDescriptions)
        }
        let parent = try parse("""
            disabled_rules: [task_without_id]
            opt_in_rules: [model_not_main_actor, on_appear_task]
            excluded: [Generated]
            loading_state_not_reset:
              flags: [isBusy]
              severity: error
            """)
        let child = try parse("""
            opt_in_rules: [task_without_id]
            disabled_rules: [on_appear_task]
            excluded: [Vendor]
            loading_state_not_reset:
              severity: warning
            """)
        let merged = parent.merged(with: child)
        let enabled = Linter.enabledRules(configuration: merged, enableAllRules: false)
        #expect(enabled.contains("task_without_id") && enabled.contains("model_not_main_actor") && !enabled.contains("on_appear_task"))
        #expect(merged.ruleOptions["loading_state_not_reset"]?.strings("flags", default: []) == ["isBusy"], "option by option")
        #expect(merged.severityOverrides["loading_state_not_reset"] == .warning)
        #expect(merged.excluded == ["/p/Generated", "/p/Vendor"])

        let only = try parse("only_rules: [task_without_id]\n")
        #expect(Linter.enabledRules(configuration: parent.merged(with: only), enableAllRules: false) == ["task_without_id"],
                "a child's only_rules replace everything above")
        let underOnly = only.merged(with: try parse("opt_in_rules: [model_not_main_actor]\ndisabled_rules: [task_without_id]\n"))
        #expect(Linter.enabledRules(configuration: underOnly, enableAllRules: false) == ["model_not_main_actor"])
        let underAll = try parse("only_rules: [all]\n").merged(with: try parse("disabled_rules: [task_without_id]\n"))
        #expect(Linter.enabledRules(configuration: underAll, enableAllRules: false) == Self.known.subtracting(["task_without_id"]))
    }

    @Test func allEnablesEveryOptInRule() throws {
        let optIn = Set(RuleRegistry.allDescriptions.filter(\.isOptIn).map(\.id))
        #expect(optIn.count > 3)
        let all = try Configuration.parse(yaml: "opt_in_rules: [all]\ndisabled_rules: [on_appear_task]\n", path: "c.yml",
                                          baseFolder: "/", rules: RuleRegistry.allDescriptions)
        #expect(all.warnings.isEmpty, "\(all.warnings)")
        let enabled = Linter.enabledRules(configuration: all, enableAllRules: false)
        #expect(enabled == Self.known.subtracting(["on_appear_task"]))
        #expect(!enabled.contains("all"))
        let only = try Configuration.parse(yaml: "only_rules: [all]\n", path: "c.yml", baseFolder: "/", rules: RuleRegistry.allDescriptions)
        #expect(Linter.enabledRules(configuration: only, enableAllRules: false) == Self.known)
        let disabled = try Configuration.parse(yaml: "disabled_rules:\n  - all\n", path: "c.yml", baseFolder: "/", rules: RuleRegistry.allDescriptions)
        #expect(disabled.warnings == ["c.yml:2: warning: 'all' is accepted in opt_in_rules and only_rules, not in disabled_rules"])
        // On code: an opt-in rule fires with `all` and not without it.
        let code = "@Model final class Item { var title: String = \"\" }\n"
        #expect(Linter.lint(sources: [SourceInput(path: "/a.swift", text: code)], configuration: all).findings.contains { $0.ruleID == "model_not_main_actor" })
        #expect(!Linter.lint(sources: [SourceInput(path: "/a.swift", text: code)], configuration: Configuration()).findings.contains { $0.ruleID == "model_not_main_actor" })
    }
}

/// `excluded` and `included` entries: plain paths cover everything under them; globs use `*`, `?`, `**`.
struct PathPatternTests {
    @Test(arguments: [
        ("Generated", "/r/Generated", true),
        ("Generated", "/r/Generated/A.swift", true),
        ("Generated", "/r/GeneratedCode/A.swift", false),
        ("Sources/*.swift", "/r/Sources/A.swift", true),
        ("Sources/*.swift", "/r/Sources/Sub/A.swift", false),
        ("Sources/*", "/r/Sources/Sub/A.swift", true),
        ("**/Generated", "/r/Generated/A.swift", true),
        ("**/Generated", "/r/a/b/c/Generated/A.swift", true),
        ("**/Generated", "/r/a/GeneratedX/A.swift", false),
        ("**/*Mock.swift", "/r/Tests/Sub/ViewMock.swift", true),
        ("**/*Mock.swift", "/r/Tests/Sub/ViewMocks.swift", false),
        ("Sources/**/Model/*.swift", "/r/Sources/Model/A.swift", true),
        ("Sources/**/Model/*.swift", "/r/Sources/x/y/Model/A.swift", true),
        ("Sources/**/Model/*.swift", "/r/Other/Model/A.swift", false),
        ("File?.swift", "/r/File1.swift", true),
        ("File?.swift", "/r/File12.swift", false),
        ("a*b*c", "/r/aXXbYYc", true),
        ("a*b*c", "/r/aXXbYY", false),
        ("../Shared/*.swift", "/Shared/A.swift", true),
        ("./Sources/./*.swift", "/r/Sources/A.swift", true),
    ])
    func matching(pattern: String, path: String, expected: Bool) {
        #expect(PathPattern(pattern, in: "/r").matches(path) == expected)
    }

    @Test func fixedPrefixIsWhereAWalkStarts() {
        #expect(PathPattern("Sources/**/Model", in: "/r").fixedPrefix == "/r/Sources")
        #expect(PathPattern("Sources/App", in: "/r").fixedPrefix == "/r/Sources/App")
        #expect(!PathPattern("Sources/App", in: "/r").isGlob && PathPattern("*.swift", in: "/r").isGlob)
    }

    @Test func globsInTheMainConfigurationExcludeOnDisk() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in ["Sources/App/View.swift", "Sources/App/Generated/Api.swift", "Sources/Kit/Generated/Db.swift",
                     "Sources/Kit/ThingMock.swift", "Sources/Kit/Thing.swift"] {
            let url = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "let x = 1\n".write(to: url, atomically: true, encoding: .utf8)
        }
        let configuration = try Configuration.parse(yaml: "excluded: [\"**/Generated\", \"Sources/*/*Mock.swift\"]\n",
                                                    path: "c.yml", baseFolder: folder.path, rules: [])
        let found = FileDiscovery.discover(paths: [folder.path], excluded: configuration.excluded).swiftFiles
        #expect(found.map { String($0.dropFirst(folder.standardizedFileURL.path.count + 1)) } == ["Sources/App/View.swift", "Sources/Kit/Thing.swift"])

        // With no path named, a glob in `included` is where the walk starts and what it keeps.
        try (Configuration.stockRulesYAML + "included: [\"Sources/*/Thing*.swift\"]\n").write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        try EngineTests.bad.write(to: folder.appendingPathComponent("Sources/Kit/ThingView.swift"), atomically: true, encoding: .utf8)
        try EngineTests.bad.write(to: folder.appendingPathComponent("Sources/App/ItemView.swift"), atomically: true, encoding: .utf8)
        let run = try Repository.run(["lint"], in: folder)
        #expect(run.stdout.contains("ThingView.swift:4:") && !run.stdout.contains("ItemView.swift"), "\(run.stdout)\(run.stderr)")
    }
}

/// Configuration mistakes never stop the run: one `path:line: warning:` line each.
struct ConfigurationWarningTests {
    static let yaml = """
        disabled_rules:
          - task_without_id
          - task_without_idd
        reportr: json
        task_self_capture:
          severity: 3
          strict: yes
          strictt: true
        loading_state_not_reset:
          flags: 3
        insert_without_duplicate_check:
          logical_unique_keys: [Article]
        unregistered_model:
          strict: "sure"
        on_appear_task: true
        """

    @Test func eachMistakeWarnsWithItsLine() throws {
        let configuration = try Configuration.parse(yaml: Self.yaml, path: "/p/.synclint.yml", baseFolder: "/p",
                                                    rules: RuleRegistry.allDescriptions)
        #expect(configuration.warnings == [
            "/p/.synclint.yml:3: warning: unknown rule 'task_without_idd' in disabled_rules; did you mean 'task_without_id'?",
            "/p/.synclint.yml:4: warning: unknown key 'reportr'; did you mean 'reporter'?",
            "/p/.synclint.yml:6: warning: severity of 'task_self_capture' must be warning or error, not '3'; ignored",
            "/p/.synclint.yml:8: warning: unknown option 'strictt' for rule 'task_self_capture'; its options are severity, strict",
            "/p/.synclint.yml:10: warning: option 'flags' of 'loading_state_not_reset' must be a list of names, not '3'; ignored",
            "/p/.synclint.yml:12: warning: option 'logical_unique_keys' of 'insert_without_duplicate_check' must be a mapping, not a list; ignored",
            "/p/.synclint.yml:14: warning: option 'strict' of 'unregistered_model' must be true or false, not 'sure'; ignored",
            "/p/.synclint.yml:15: warning: options of 'on_appear_task' must be a mapping of option names to values, not 'true'; ignored",
        ])
        #expect(configuration.severityOverrides["task_self_capture"] == nil)
        #expect(configuration.ruleOptions["task_self_capture"]?.bool("strict", default: false) == true, "`yes` is a YAML boolean")
        #expect(configuration.ruleOptions["loading_state_not_reset"]?.values["flags"] == nil)
    }

    @Test func anExcludedEntryThatMatchesNothingWarnsOnItsLine() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources/Generated"), withIntermediateDirectories: true)
        try EngineTests.bad.write(to: folder.appendingPathComponent("Sources/View.swift"), atomically: true, encoding: .utf8)
        try "let x = 1\n".write(to: folder.appendingPathComponent("Sources/Generated/G.swift"), atomically: true, encoding: .utf8)
        try """
            excluded:
              - Sources/Generated
              - Sources/Generatd
              - "**/*.pb.swift"
              - .build
            opt_in_rules: [task_without_id]
            """.write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".build"), withIntermediateDirectories: true)
        let run = try Repository.run(["lint", "--quiet"], in: folder)
        let config = ".synclint.yml"
        #expect(run.stderr.split(separator: "\n").map(String.init) == [
            "\(config):3: warning: excluded entry 'Sources/Generatd' matches no file or folder",
            "\(config):4: warning: excluded entry '**/*.pb.swift' matches no file or folder",
        ], "\(run.stderr)")
        #expect(run.stdout.contains("View.swift:4:"), "the run goes on")

        // Linting only a subfolder cannot judge a glob for the whole project: no warning about it.
        let partial = try Repository.run(["lint", "--quiet", "Sources"], in: folder)
        #expect(partial.stderr.split(separator: "\n").map(String.init) == [
            "\(config):3: warning: excluded entry 'Sources/Generatd' matches no file or folder",
        ], "\(partial.stderr)")
        // One file is linted inside its whole project (the folder of the `.synclint.yml`), so the glob is judged.
        let oneFile = try Repository.run(["lint", "--quiet", "Sources/View.swift"], in: folder)
        #expect(oneFile.stderr == run.stderr, "\(oneFile.stderr)")
    }
}
