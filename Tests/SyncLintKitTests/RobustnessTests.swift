import Testing
@testable import SyncLintKit

/// Strange input never crashes a run: every rule example cut off at many points (the parser recovers
/// into odd trees), empty and comment-only files, deep nesting, all with every rule on.
struct RobustnessTests {
    static let snippets: [String] = RuleRegistry.allDescriptions.flatMap { rule in
        (rule.triggeringExamples + rule.nonTriggeringExamples).map { MarkedSource($0.code).text }
    }

    @Test func truncatedExamplesDoNotCrashAnyRule() {
        var sources: [SourceInput] = []
        for (index, snippet) in Self.snippets.enumerated() {
            let characters = Array(snippet)
            for cut in stride(from: 1, to: characters.count, by: max(1, characters.count / 12)) {
                sources.append(SourceInput(path: "/cut/\(index)_\(cut).swift", text: String(characters[..<cut])))
            }
        }
        sources += [
            SourceInput(path: "/odd/empty.swift", text: ""),
            SourceInput(path: "/odd/comment.swift", text: "// synclint:disable\n/* unterminated"),
            SourceInput(path: "/odd/nested.swift", text: String(repeating: "Task { ", count: 300) + String(repeating: "}", count: 300)),
            SourceInput(path: "/odd/garbage.swift", text: "}}}) @@@ .task(id: ) { = = } class { var : Task< }"),
        ]
        let result = Linter.lint(sources: sources, configuration: Configuration(), enableAllRules: true)
        #expect(result.filesLinted == sources.count)
    }
}
