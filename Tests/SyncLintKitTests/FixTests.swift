import Foundation
import SwiftSyntax
import Testing
@testable import SyncLintKit

/// Automatic fixes: every `fixed:` example is what the fix produces, fixing twice changes nothing,
/// and each rule's documented fix safety matches what `--fix` applies.
struct FixTests {
    static let fixedExamples: [(ruleID: String, example: Int)] = RuleRegistry.allDescriptions.flatMap { rule in
        rule.triggeringExamples.indices.filter { rule.triggeringExamples[$0].fixed != nil }.map { (rule.id, $0) }
    }

    private func fix(_ code: String, rules: [String], unsafe: Bool = true) -> FixEngine.Result {
        var configuration = Configuration()
        configuration.onlyRules = rules
        // Every finding the rule makes is fixed here, medium confidence too (shown findings are what `--fix` fixes).
        configuration.confidence = .medium
        return FixEngine.fix(sources: [SourceInput(path: "/virtual/Example.swift", text: code)], configuration: configuration,
                             includeUnsafe: unsafe)
    }

    @Test(arguments: fixedExamples.map { "\($0.ruleID)#\($0.example)" })
    func fixedExampleIsWhatTheFixProduces(name: String) throws {
        let parts = name.split(separator: "#")
        let rule = try #require(RuleRegistry.description(of: String(parts[0])))
        let example = rule.triggeringExamples[Int(parts[1])!]
        let source = MarkedSource(example.code)
        let result = fix(source.text, rules: [rule.id])
        #expect(result.changes.first?.fixed == example.fixed, "\(rule.id): got\n\(result.changes.first?.fixed ?? "(no change)")")
        #expect(result.fixed[rule.id] == source.markers.count)
        // The fixed code no longer triggers the rule, and fixing it again changes nothing.
        #expect(Harness.findings(example.fixed!, rules: [rule.id]).isEmpty)
        #expect(fix(example.fixed!, rules: [rule.id]).changes.isEmpty)
    }

    @Test func fixSafetyIsDocumentedForEveryFixAndEveryFixableRuleHasAFixedExample() {
        for rule in RuleRegistry.allDescriptions {
            let hasFix = FixEngine.fixes[rule.id] != nil
            #expect(hasFix == (rule.fixSafety == .safe || rule.fixSafety == .unsafe), "\(rule.id): fix safety \(rule.fixSafety) but fix \(hasFix)")
            if hasFix {
                #expect(rule.triggeringExamples.contains { $0.fixed != nil }, "\(rule.id) has a fix but no `fixed:` example")
            }
        }
        #expect(FixEngine.fixableRules(includeUnsafe: false).isSubset(of: FixEngine.fixableRules(includeUnsafe: true)))
    }

    @Test func onAppearTaskIsLeftAloneWhenTheTaskIsNotTheWholeClosure() {
        let shapes = [
            "Text(\"a\").onAppear {\n    log()\n    Task { await load() }\n}",
            "Text(\"a\").onAppear {\n    Task(priority: .low) { await load() }\n}",
            "Text(\"a\").onAppear {\n    Task { [weak model] in await model?.load() }\n}",
            // A task with no `await` is not reported at all (it never suspends), so this one awaits.
            "Text(\"a\").onAppear {\n    Task {\n        print(\"\"\"\n            x\n            \"\"\")\n        await load()\n    }\n}",
        ]
        for shape in shapes {
            let code = "struct V: View {\n    var body: some View {\n" + shape + "\n    }\n}\n"
            #expect(!Harness.findings(code, rules: ["on_appear_task"]).isEmpty, "the rule reports \(shape)")
            #expect(fix(code, rules: ["on_appear_task"]).changes.isEmpty, "no fix for \(shape)")
        }
        let oneLine = "struct V: View {\n    var body: some View { Text(\"a\").onAppear { Task { await load() } } }\n}\n"
        #expect(fix(oneLine, rules: ["on_appear_task"]).changes.first?.fixed
            == "struct V: View {\n    var body: some View { Text(\"a\").task { await load() } }\n}\n")
    }

    @Test func unsafeFixesRunOnlyWhenAskedAndOnlyInShapesTheyHandle() throws {
        let rule = try #require(RuleRegistry.description(of: "loading_state_not_reset"))
        let code = MarkedSource(rule.triggeringExamples[0].code).text
        #expect(fix(code, rules: [rule.id], unsafe: false).changes.isEmpty, "an unsafe fix needs --unsafe-fixes")
        #expect(!fix(code, rules: [rule.id], unsafe: true).changes.isEmpty)
        // A flag set inside an `if`: a defer there would run at the end of the `if`, so no fix.
        let nested = """
            func load(force: Bool) async {
                if force {
                    isLoading = true
                }
                guard let account else { return }
                await fetch(account)
                isLoading = false
            }
            """
        #expect(!Harness.findings(nested, rules: [rule.id]).isEmpty)
        #expect(fix(nested, rules: [rule.id]).changes.isEmpty)
        // A catch on its own line keeps that layout.
        let ownLine = """
            @MainActor final class M {
                var errorMessage: String?
                func load() async {
                    do {
                        try await fetch()
                    }
                    catch {
                        errorMessage = error.localizedDescription
                    }
                }
            }
            struct V: View { let m: M; var body: some View { Text(m.errorMessage ?? "") } }
            """
        #expect(fix(ownLine, rules: ["cancellation_reported_as_error"]).changes.first?.fixed
            == ownLine.replacingOccurrences(of: "        catch {", with: "        catch is CancellationError {\n        }\n        catch {"))
    }

    @Test func overlappingFixesAreAppliedInRoundsAndBothLand() {
        // An `.onAppear { Task { } }` nested inside another: the outer rewrite replaces the inner one's
        // text, so the inner waits for the next round, on the re-parsed result.
        let code = """
            struct V: View {
                var body: some View {
                    Text("a").onAppear {
                        Task {
                            await sheet { Text("b").onAppear { Task { await load() } } }
                        }
                    }
                }
            }
            """
        let result = fix(code, rules: ["on_appear_task"])
        #expect(result.rounds == 2)
        #expect(result.fixed["on_appear_task"] == 2)
        #expect(result.changes.first?.fixed == """
            struct V: View {
                var body: some View {
                    Text("a").task {
                        await sheet { Text("b").task { await load() } }
                    }
                }
            }
            """)
    }

    /// A fix that deletes the file's last closing brace.
    enum BraceEatingFix: RuleFix {
        static let ruleID = "on_appear_task"
        static func edits(for finding: Finding, in file: FixableFile, options: RuleOptions) -> [SourceEdit]? {
            guard let brace = Array(file.tree.tokens(viewMode: .sourceAccurate)).last(where: { $0.tokenKind == .rightBrace }) else { return nil }
            return [SourceEdit(range: brace.positionAfterSkippingLeadingTrivia..<brace.endPositionBeforeTrailingTrivia, replacement: "")]
        }
    }

    @Test func aFixThatWouldBreakTheSyntaxIsRefused() {
        let code = "struct V: View {\n    var body: some View { Text(\"a\").onAppear { Task { await load() } } }\n}\n"
        var configuration = Configuration()
        configuration.onlyRules = ["on_appear_task"]
        let result = FixEngine.fix(sources: [SourceInput(path: "/virtual/V.swift", text: code)], resources: [], configuration: configuration,
                                   enableAllRules: false, includeUnsafe: true, using: ["on_appear_task": BraceEatingFix.self])
        #expect(result.changes.isEmpty)
        #expect(result.warnings == ["warning: /virtual/V.swift: fixing would introduce syntax errors; left unchanged"])
        let text = "func f() {\n    g()\n}\n"
        let file = FixableFile(text: text)
        let broken = FixableFile(text: FixEngine.apply([SourceEdit(range: AbsolutePosition(utf8Offset: text.utf8.count - 2)..<AbsolutePosition(utf8Offset: text.utf8.count - 1), replacement: "")], to: text))
        #expect(broken.recoveryCount > file.recoveryCount)
        #expect(FixEngine.overlaps(SourceEdit(range: AbsolutePosition(utf8Offset: 2)..<AbsolutePosition(utf8Offset: 5), replacement: ""),
                                   SourceEdit(range: AbsolutePosition(utf8Offset: 4)..<AbsolutePosition(utf8Offset: 4), replacement: "x")))
        #expect(!FixEngine.overlaps(SourceEdit(range: AbsolutePosition(utf8Offset: 2)..<AbsolutePosition(utf8Offset: 5), replacement: ""),
                                    SourceEdit(range: AbsolutePosition(utf8Offset: 5)..<AbsolutePosition(utf8Offset: 5), replacement: "x")))
    }

    /// `--fix FILE` sees what `lint FILE` sees: the file's project is indexed (here the model type is in
    /// another file), and only the named file changes.
    @Test func fixingOneFileIndexesItsProject() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = folder.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try "// swift-tools-version: 6.0\n".write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "final class Item: NSManagedObject { @NSManaged var name: String? }\n"
            .write(to: sources.appendingPathComponent("Item.swift"), atomically: true, encoding: .utf8)
        let view = """
            struct ItemView: View {
                let item: Item
                var body: some View {
                    Text("").task { await load(self.item) }
                }
            }

            """
        let other = view.replacingOccurrences(of: "ItemView", with: "OtherView")
        try view.write(to: sources.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        try other.write(to: sources.appendingPathComponent("OtherView.swift"), atomically: true, encoding: .utf8)
        var configuration = Configuration()
        configuration.onlyRules = ["task_without_id"]
        let viewPath = sources.appendingPathComponent("ItemView.swift").standardizedFileURL.path
        let result = FixEngine.fix(paths: [viewPath], configurations: .single(configuration), includeUnsafe: true)
        #expect(result.changes.map(\.path) == [viewPath], "the model is in Item.swift; OtherView.swift is not named")
        #expect(result.changes.first?.fixed.contains(".task(id: item.objectID)") == true)
        // The whole folder fixes both views.
        let whole = FixEngine.fix(paths: [folder.path], configurations: .single(configuration), includeUnsafe: true)
        #expect(whole.changes.count == 2)
    }

    /// No fix is safe today, so `--fix` alone changes nothing; `--unsafe-fixes --diff` writes nothing and prints
    /// a patch that applies; `--unsafe-fixes` writes atomically with the file's permissions kept; a second run
    /// changes nothing.
    @Test func commandLineFixDiffAndFixTwice() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("Examples")
        try FileManager.default.copyItem(atPath: Repository.path("Examples"), toPath: copy.path)
        let views = copy.appendingPathComponent("DiceRoller/Bad/DiceViews.swift")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: views.path)
        let before = try String(contentsOf: views, encoding: .utf8)

        let safeOnly = try Repository.run(["lint", "--fix", "--diff"], in: copy)
        #expect(safeOnly.status == 0 && safeOnly.stdout.isEmpty, "no safe fix: \(safeOnly.stdout)")
        let preview = try Repository.run(["lint", "--unsafe-fixes", "--diff"], in: copy)
        #expect(preview.status == 1)
        #expect(preview.stdout.hasPrefix("--- a/DiceRoller/Bad/DiceViews.swift\n+++ b/DiceRoller/Bad/DiceViews.swift\n@@ "), "\(preview.stdout)")
        #expect(preview.stdout.contains("-        .onAppear {\n") && preview.stdout.contains("+        .task {\n"))
        #expect(preview.stdout.contains("+    @ObservationIgnored private var loadingTask: Task<Void, Never>?\n"))
        #expect(try String(contentsOf: views, encoding: .utf8) == before, "--diff writes nothing")
        if (try? SARIFReporterTests.run(["git", "--version"]).status) == 0 {
            let patch = folder.appendingPathComponent("fix.patch")
            try preview.stdout.write(to: patch, atomically: true, encoding: .utf8)
            let check = try SARIFReporterTests.run(["git", "-C", copy.path, "apply", "--check", patch.path])
            #expect(check.status == 0, "the diff applies: \(check.output)")
        }

        let fixed = try Repository.run(["lint", "--unsafe-fixes"], in: copy)
        #expect(fixed.stderr.contains("fixed 5 findings in 3 files (cancellation_reported_as_error: 1, loading_state_not_reset: 1, "
            + "observed_task_handle: 1, on_appear_task: 1, task_without_id: 1)"), "\(fixed.stderr)")
        #expect(!fixed.stdout.contains("(on_appear_task)") && !fixed.stdout.contains("(observed_task_handle)"))
        #expect(fixed.stdout.contains("(missing_cancellation_check)"), "what has no fix is still reported")
        let after = try String(contentsOf: views, encoding: .utf8)
        #expect(after != before && after.contains(".task {"))
        let permissions = try FileManager.default.attributesOfItem(atPath: views.path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: views.deletingLastPathComponent().path).filter { $0.contains("synclint-") }
        #expect(leftovers.isEmpty, "no temporary files left: \(leftovers)")

        let again = try Repository.run(["lint", "--unsafe-fixes"], in: copy)
        #expect(!again.stderr.contains("fixed"), "\(again.stderr)")
        #expect(try String(contentsOf: views, encoding: .utf8) == after)
        let quiet = try Repository.run(["lint", "--unsafe-fixes", "--diff"], in: copy)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
    }

    @Test func unifiedDiffMatchesDiffU() throws {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
        let new = "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn"
        let text = UnifiedDiff.render(old: old, new: new, oldName: "a/x", newName: "b/x")
        #expect(text == """
            --- a/x
            +++ b/x
            @@ -1,5 +1,5 @@
             a
            -b
            +B
             c
             d
             e
            @@ -11,3 +11,4 @@
             k
             l
             m
            +n
            \\ No newline at end of file

            """)
        #expect(UnifiedDiff.render(old: old, new: old, oldName: "a", newName: "b").isEmpty)
        // The same hunks as diff -u prints, where diff exists.
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try old.write(to: folder.appendingPathComponent("old"), atomically: true, encoding: .utf8)
        try new.write(to: folder.appendingPathComponent("new"), atomically: true, encoding: .utf8)
        if let system = try? SARIFReporterTests.run(["diff", "-u", folder.appendingPathComponent("old").path, folder.appendingPathComponent("new").path]),
           system.status == 1 {
            let hunks = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("@@") }.joined(separator: "\n") }
            #expect(hunks(text) == hunks(system.output))
        }
    }
}
