import Foundation
import Testing
@testable import SyncLintKit

/// What the command line says besides findings: the rule list, the closing summary, help texts, and
/// the maintainer command that must never touch a user's files.
struct CommandLineTextTests {
    /// One line per rule, columns aligned, `enabled` following the configuration found as `lint` finds it.
    @Test func rulesShowsWhetherEachRuleRunsUnderTheConfiguration() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "disabled_rules: [unstable_task_id]\nopt_in_rules: [on_appear_task]\n"
            .write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let result = try Repository.run(["rules"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == RuleRegistry.allDescriptions.count + 1)
        let header = try #require(lines.first)
        #expect(header.hasPrefix("id "))
        let columns = ["enabled", "default", "severity", "applies to", "what it finds"].map { name in
            header.distance(from: header.startIndex, to: header.range(of: name)?.lowerBound ?? header.endIndex)
        }
        func row(_ id: String) -> String? { lines.first { $0.hasPrefix(id + " ") } }
        for rule in RuleRegistry.allDescriptions {
            let line = try #require(row(rule.id), "\(rule.id) is listed")
            for column in columns {
                // Every column starts where its header does: the character before it is a space, it is not.
                let index = line.index(line.startIndex, offsetBy: column)
                #expect(line[line.index(before: index)] == " " && line[index] != " ", "\(rule.id) misaligned at \(column): \(line)")
            }
            let enabled = String(line.dropFirst(columns[0]).prefix(3)).trimmingCharacters(in: .whitespaces)
            let expected = rule.id == "unstable_task_id" ? "no" : rule.id == "on_appear_task" ? "yes" : rule.isOptIn ? "no" : "yes"
            #expect(enabled == expected, "\(rule.id): \(line)")
            #expect(line.dropFirst(columns[1]).hasPrefix(rule.isOptIn ? "opt-in" : "on"))
            #expect(line.dropFirst(columns[2]).hasPrefix(rule.severity.rawValue))
        }
        #expect(try Repository.run(["rules"], in: folder).stdout == result.stdout, "stable between runs")
        try "# nothing changed\n".write(to: folder.appendingPathComponent("plain.yml"), atomically: true, encoding: .utf8)
        let explicit = try Repository.run(["rules", "--config", "plain.yml"], in: folder)
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(explicit.stdout.split(separator: "\n").first { $0.hasPrefix("unstable_task_id ") }?.contains(" yes ") == true,
                "--config replaces the discovered file")
        let all = try Repository.run(["rules", "--enable-all-rules"], in: folder)
        #expect(!all.stdout.split(separator: "\n").dropFirst().contains { $0.contains("  no  ") })
    }

    /// The default reporter and the others print a closing line on stderr; stdout stays the report.
    @Test func summaryLineOnStandardErrorUnlessQuiet() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "struct Fine {}\n".write(to: folder.appendingPathComponent("Fine.swift"), atomically: true, encoding: .utf8)
        let clean = try Repository.run(["lint"], in: folder)
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty)
        #expect(clean.stderr == "Done linting! Found 0 violations, 0 serious in 1 file.\n", "\(clean.stderr)")

        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try (Configuration.stockRulesYAML + "task_without_id:\n  severity: error\n").write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let json = try Repository.run(["lint", "--reporter", "json"], in: folder)
        #expect(json.status == 1)
        #expect(json.stderr == "Done linting! Found 1 violation, 1 serious in 2 files.\n", "\(json.stderr)")
        let objects = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.count == 1, "stdout is the JSON alone")

        let quiet = try Repository.run(["lint", "--quiet"], in: folder)
        #expect(quiet.status == 1)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout.hasSuffix("(task_without_id)\n"))
    }

    @Test func cacheOptionsSayWhatTheyDo() throws {
        let help = try Repository.run(["lint", "--help"], in: Repository.root)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--no-cache Neither read nor write the results cache: parse and walk every file."), "\(help.stdout)")
        #expect(!text.contains("(the default)."), "the cache is on by default, so --no-cache is not: \(help.stdout)")
        #expect(text.contains("--cache Use the results cache in its default folder, as without this flag"), "\(help.stdout)")
        #expect(text.contains("--cache-path <cache-path> Use the results cache in this folder"), "\(help.stdout)")
    }

    /// `generate-docs` writes SyncLint's own docs; in a user's project it changes nothing.
    @Test func generateDocsRefusesOutsideThisRepository() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("docs"), withIntermediateDirectories: true)
        let rules = folder.appendingPathComponent("docs/rules.md")
        let readme = folder.appendingPathComponent("README.md")
        try "# Our own rules\n".write(to: rules, atomically: true, encoding: .utf8)
        try "# App\n<!-- rules:begin -->\n<!-- rules:end -->\n".write(to: readme, atomically: true, encoding: .utf8)
        for arguments in [["generate-docs"], ["generate-docs", "--output", rules.path, "--readme-path", readme.path]] {
            let result = try Repository.run(arguments, in: folder)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("error: generate-docs rewrites SyncLint's own docs; run it in "), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stdout.isEmpty)
        }
        #expect(try String(contentsOf: rules, encoding: .utf8) == "# Our own rules\n")
        #expect(try String(contentsOf: readme, encoding: .utf8) == "# App\n<!-- rules:begin -->\n<!-- rules:end -->\n")
        // From the repository itself, a target outside docs/ or another README is refused as well.
        for arguments in [["generate-docs", "--output", rules.path], ["generate-docs", "--readme-path", readme.path],
                          ["generate-docs", "--output", "docs/../Package.swift"]] {
            let result = try Repository.run(arguments, in: Repository.root)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try String(contentsOf: rules, encoding: .utf8) == "# Our own rules\n")
    }

    /// Users never saw the case studies' internal labels ("seed 003"): every text they read names the
    /// case in words.
    @Test func userFacingTextNeverCitesSeedLabels() throws {
        let label = try Regex("(?i)seeds? \\d")
        var texts: [(String, String)] = []
        for rule in RuleRegistry.allDescriptions {
            texts.append((rule.id + " documentation", RuleDocumentation.markdown(for: rule)))
            texts.append((rule.id + " description", [rule.name, rule.whatItDoes, rule.whyIsThisBad, rule.knownLimitations].joined(separator: "\n")
                + rule.options.map(\.summary).joined(separator: "\n")
                + (rule.triggeringExamples + rule.nonTriggeringExamples).map(\.code).joined(separator: "\n")))
        }
        // Messages: every finding on the sample apps, the rule examples and the fixtures, with every rule on.
        for path in [Repository.path("Examples"), Repository.path("Tests/SyncLintKitTests/Fixtures")] {
            for finding in Linter.lint(paths: [path], configuration: Configuration(), enableAllRules: true).findings {
                texts.append(("message of \(finding.ruleID)", finding.message))
            }
        }
        for rule in RuleRegistry.allDescriptions {
            let sources = rule.triggeringExamples.filter { $0.kind == .swift }.map { SourceInput(path: "/e/\(rule.id).swift", text: $0.code.replacingOccurrences(of: "↓", with: "")) }
            for finding in Linter.lint(sources: sources, configuration: Configuration(), enableAllRules: true).findings {
                texts.append(("message of \(finding.ruleID)", finding.message))
            }
        }
        texts.append(("README.md", try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)))
        texts.append(("docs/rules.md", try String(contentsOfFile: Repository.path("docs/rules.md"), encoding: .utf8)))
        let rulesOutput = try Repository.run(["rules"], in: Repository.root)
        texts.append(("synclint rules", rulesOutput.stdout))
        #expect(texts.count > 200)
        for (name, text) in texts {
            let match = text.firstMatch(of: label)
            #expect(match == nil, "\(name) cites a seed label: \(match.map { String(text[..<$0.range.upperBound].suffix(60)) } ?? "")")
        }
    }
}
