import SwiftParser
import SwiftSyntax
import Testing
@testable import SyncLintKit
@testable import SyncLintRules

/// Fixes must never break code: every fix-carrying rule's triggering examples are either fixed exactly as
/// their `fixed:` text says or left alone, what a fix writes parses, and the identity `task_without_id`
/// writes names members the index shows, of a type that has them.
struct FixValidityTests {
    static let fixableRules = RuleRegistry.allDescriptions.filter { FixEngine.fixes[$0.id] != nil }
    static let triggeringExamples: [String] = fixableRules.flatMap { rule in
        rule.triggeringExamples.indices.map { "\(rule.id)#\($0)" }
    }

    private static func example(_ name: String) throws -> (rule: RuleDescription, example: RuleExample) {
        let parts = name.split(separator: "#")
        let rule = try #require(RuleRegistry.description(of: String(parts[0])))
        return (rule, rule.triggeringExamples[Int(parts[1])!])
    }

    private static func fixed(_ code: String, rule: String) -> String? {
        var configuration = Configuration()
        configuration.onlyRules = [rule]
        let result = FixEngine.fix(sources: [SourceInput(path: "/virtual/Example.swift", text: code)],
                                   configuration: configuration, includeUnsafe: true)
        return result.changes.first?.fixed
    }

    /// What a fix writes on every triggering example (with a `fixed:` text or not, which `FixTests` compares)
    /// parses without errors, no longer triggers the fixed finding there, and fixing it again changes nothing.
    @Test(arguments: triggeringExamples)
    func fixOfEveryExampleParsesAndConverges(name: String) throws {
        let (rule, example) = try Self.example(name)
        let source = MarkedSource(example.code)
        guard let result = Self.fixed(source.text, rule: rule.id) else { return }
        #expect(!Parser.parse(source: result).hasError, "\(name): the fixed code does not parse\n\(result)")
        #expect(Harness.findings(result, rules: [rule.id]).count < source.markers.count, "\(name): still reported after the fix")
        #expect(Self.fixed(result, rule: rule.id) == nil, "\(name): a second fix changes the code again")
    }

    /// The look-alikes whose fix would write code that does not compile, or would cancel its own work, get none.
    @Test func lookAlikesWithoutAValidFixAreLeftAlone() throws {
        for id in ["task_without_id", "on_appear_task"] {
            let rule = try #require(RuleRegistry.description(of: id))
            for (position, example) in rule.triggeringExamples.enumerated() where example.fixed == nil {
                #expect(Self.fixed(MarkedSource(example.code).text, rule: id) == nil, "\(id)#\(position) has no `fixed:` text but was fixed")
            }
        }
    }

    /// Every `.task(id: path)` the fix writes, in every example and look-alike: `path` starts at a property of
    /// the view, each further member is a stored or computed property the index knows (or the identity a
    /// SwiftData model or managed object always has), and the last is neither optional nor `Bool`.
    @Test(arguments: RuleRegistry.description(of: "task_without_id")!.triggeringExamples.indices.map { $0 })
    func taskIdentityTheFixWritesExistsInTheIndex(exampleIndex: Int) throws {
        let rule = try #require(RuleRegistry.description(of: "task_without_id"))
        let source = MarkedSource(rule.triggeringExamples[exampleIndex].code)
        let findings = Harness.findings(source.text, rules: [rule.id])
        #expect(findings.count == source.markers.count)
        guard let fixedText = Self.fixed(source.text, rule: rule.id) else {
            // No fix: the message names no code either.
            for finding in findings {
                #expect(!finding.message.contains("`.task(id: "), "\(finding.message)")
                #expect(finding.arguments[TaskWithoutIDRule.identityArgument] == nil)
            }
            return
        }
        let index = Probe.index(fixedText)
        let written = Self.taskIdentities(in: Parser.parse(source: fixedText))
        #expect(!written.isEmpty)
        for (view, path) in written {
            let members = path.split(separator: ".").map(String.init)
            let chain = index.resolveChain(from: view, members: members)
            let frameworkIdentity = ["persistentModelID", "objectID"].contains(members.last!)
            #expect(chain.count == members.count - (frameworkIdentity ? 1 : 0), "\(view): `\(path)` is not in the index")
            if frameworkIdentity, let owner = chain.last?.typeName {
                #expect(members.last == "persistentModelID" ? index.isSwiftDataModel(owner) : index.isManagedObject(owner),
                        "\(owner) has no `\(members.last!)`")
            } else if let identity = chain.last {
                #expect(!identity.isOptional && identity.typeName != "Bool", "\(view): `\(path)` is no identity")
            }
            #expect(chain.dropLast(frameworkIdentity ? 0 : 1).allSatisfy { !$0.isOptional }, "\(view): `\(path)` passes an optional")
        }
    }

    /// (view type, `id:` argument) of every `.task(id:)` in a tree.
    static func taskIdentities(in tree: SourceFileSyntax) -> [(view: String, path: String)] {
        final class Finder: SyntaxVisitor {
            var found: [(view: String, path: String)] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if node.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "task",
                   let identity = SyntaxFacts.argument("id", of: node),
                   let view = node.ancestorOrSelf(mapping: { $0.as(StructDeclSyntax.self) }) {
                    found.append((view.name.text, identity.trimmedDescription))
                }
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(tree)
        return finder.found
    }

    @Test func loadMoreMarkerThatHidesItselfGetsNoFixAndSaysWhy() throws {
        let rule = try #require(RuleRegistry.description(of: "on_appear_task"))
        #expect(rule.fixSafety == .unsafe, "`.task` is cancelled when the view disappears: the fix changes behaviour")
        let expected = [["model"], ["hasMore"]]
        let markers = rule.triggeringExamples.filter { $0.code.contains("ProgressView()↓.onAppear") }
        #expect(markers.count == expected.count)
        for (example, state) in zip(markers, expected) {
            let source = MarkedSource(example.code)
            let finding = try #require(Harness.findings(source.text, rules: [rule.id]).first)
            #expect(finding.arguments[OnAppearTaskRule.hidingStateArgument] == state.joined(separator: ", "))
            #expect(finding.message.contains("would cancel its own load"), "\(finding.message)")
            #expect(Self.fixed(source.text, rule: rule.id) == nil)
        }
    }

    /// A view shown under a condition its load calls into, through a method the index does not know: no fix.
    @Test func unknownCalleeUnderAConditionCountsAsHidingTheView() {
        let code = """
            struct Marker: View {
                let onLoadMore: () async -> Void
                let hasMore: Bool
                var body: some View {
                    if hasMore {
                        ProgressView().onAppear {
                            Task { await onLoadMore() }
                        }
                    }
                }
            }
            """
        let finding = Harness.findings(code, rules: ["on_appear_task"]).first
        #expect(finding?.arguments[OnAppearTaskRule.hidingStateArgument] == "onLoadMore()")
        #expect(Self.fixed(code, rule: "on_appear_task") == nil)
        let unconditional = code.replacingOccurrences(of: "if hasMore {", with: "Group {")
        #expect(Self.fixed(unconditional, rule: "on_appear_task") != nil, "no condition shows the view: the fix applies")
    }

    /// The identity comes from the finding's arguments: a message that names one is not enough.
    @Test func taskWithoutIDFixReadsTheArgumentNotTheMessage() throws {
        let body = "    var body: some View { Text(\"a\").task { await load(item) } }"
        let code = "struct V: View {\n    let item: Item\n" + body + "\n}\n"
        let file = FixableFile(text: code)
        let column = body.distance(from: body.startIndex, to: body.firstRange(of: ".task")!.lowerBound) + 1
        func finding(_ arguments: [String: String]) -> Finding {
            Finding(ruleID: "task_without_id", ruleName: "Task Without ID", severity: .warning,
                    message: "use `.task(id: item.id)` so it restarts", file: "/virtual/V.swift", line: 3, column: column,
                    arguments: arguments)
        }
        #expect(TaskWithoutIDFix.edits(for: finding([:]), in: file, options: RuleOptions()) == nil)
        let edits = try #require(TaskWithoutIDFix.edits(for: finding(["identity": "item.objectID"]), in: file, options: RuleOptions()))
        #expect(edits.map(\.replacement) == ["(id: item.objectID)"])
    }
}

extension FixValidityTests {
    /// A `do` that already skips `CancellationError` but awaits a URLSession transfer gets the
    /// `URLError.cancelled` clause, once: a second `CancellationError` clause changed nothing and was added
    /// again on every round.
    @Test func cancellationFixAddsTheURLErrorClauseWhenCancellationErrorIsHandled() throws {
        let rule = try #require(RuleRegistry.description(of: "cancellation_reported_as_error"))
        let example = try #require(rule.triggeringExamples.first { $0.code.contains("} catch is CancellationError {\n") })
        let fixed = try #require(Self.fixed(MarkedSource(example.code).text, rule: rule.id))
        #expect(fixed.components(separatedBy: "catch is CancellationError").count == 2, "\(fixed)")
        #expect(fixed.contains("} catch let error as URLError where error.code == .cancelled {\n"), "\(fixed)")
        #expect(Harness.findings(fixed, rules: [rule.id]).isEmpty)
    }
}

extension FixValidityTests {
    /// Found by Benchmarks/fix-apps.sh on a public app: the catch-all returned a value, so the empty
    /// `catch is CancellationError {}` the fix added fell through to the end of the function, which then
    /// did not compile ("missing return"). A catch-all that returns a value or throws gets no fix; one that
    /// ends with a bare `return` gets a clause that returns too; one that falls through, an empty clause.
    @Test func cancellationFixLeavesACatchAllThatReturnsAlone() {
        let returning = """
            @MainActor final class Feed {
                var error: Error?
                func fetch(_ url: URL) async -> [Int] {
                    do {
                        try await Task.sleep(for: .milliseconds(100))
                        let data = try await loader.data(from: url)
                        return [data.count]
                    } catch {
                        self.error = error
                        return []
                    }
                }
            }
            struct FeedView: View {
                let feed: Feed
                let url: URL
                var body: some View { Text(feed.error?.localizedDescription ?? "").task { _ = await feed.fetch(url) } }
            }
            """
        #expect(!Harness.findings(returning, rules: ["cancellation_reported_as_error"]).isEmpty, "still reported")
        #expect(Self.fixed(returning, rule: "cancellation_reported_as_error") == nil)
        let fallingThrough = returning.replacingOccurrences(of: "func fetch(_ url: URL) async -> [Int] {", with: "func fetch(_ url: URL) async {")
            .replacingOccurrences(of: "return [data.count]", with: "print(data.count)")
            .replacingOccurrences(of: "        return []\n", with: "")
        #expect(Self.fixed(fallingThrough, rule: "cancellation_reported_as_error")?.contains("} catch is CancellationError {\n") == true)
        let bareReturn = fallingThrough.replacingOccurrences(of: "        self.error = error\n", with: "        self.error = error\n            return\n")
            .replacingOccurrences(of: "        }\n    }\n}", with: "        }\n        print(\"loaded\")\n    }\n}")
        #expect(Self.fixed(bareReturn, rule: "cancellation_reported_as_error")?
            .contains("        } catch is CancellationError {\n            return\n        } catch {\n") == true,
                "\(Self.fixed(bareReturn, rule: "cancellation_reported_as_error") ?? "no fix")")
    }
}
