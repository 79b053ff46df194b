import Testing
@testable import SyncLintKit

/// A `for await` in a task over what a project function returns (`for await entry in LogParser.entries(lines)`) ends
/// when that function builds a stream or channel and finishes it (`FunctionSummary.returnsFinishedStream`), wherever in
/// the project the function is declared: the index answers once every file is read.
struct FinishedStreamMakerTests {
    static let parser = """
        enum LogParser {
            static func entries(_ lines: [String]) -> AsyncChannel<String> {
                let channel = AsyncChannel<String>()
                Task.detached {
                    for line in lines { await channel.send(line) }
                    channel.finish()
                }
                return channel
            }
        }
        """
    /// The same function, never finishing its channel: the loop over it waits for ever.
    static let endlessParser = """
        enum LogParser {
            static func entries(_ lines: [String]) -> AsyncChannel<String> {
                let channel = AsyncChannel<String>()
                Task.detached {
                    for line in lines { await channel.send(line) }
                }
                return channel
            }
        }
        """
    static let viewer = """
        final class LogViewer {
            var shown: [String] = []
            func show(_ lines: [String]) {
                Task {
                    for await entry in LogParser.entries(lines) { shown.append(entry) }
                }
            }
        }
        """
    /// The loop reads a local bound to the made stream, and also steps an animation with `Task.sleep`.
    static let animatedViewer = """
        final class LogViewer {
            var shown: [String] = []
            var latest = ""
            func show(_ lines: [String]) {
                Task {
                    let entries = LogParser.entries(lines)
                    for await entry in entries {
                        latest = entry
                        try? await Task.sleep(for: .milliseconds(30))
                    }
                }
            }
        }
        """

    private func findings(_ sources: [(String, String)]) -> [String] {
        var configuration = Configuration()
        configuration.onlyRules = ["uncancellable_task_loop"]
        configuration.confidence = .medium
        return Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, configuration: configuration)
            .findings.map { "\($0.file):\($0.line) \($0.messageID)" }
    }

    @Test func aStreamAnotherFileFinishesEndsTheLoop() {
        #expect(findings([("/app/LogParser.swift", Self.parser), ("/app/LogViewer.swift", Self.viewer)]) == [])
    }

    @Test func aStreamNoOneFinishesIsAnEndlessLoop() {
        #expect(findings([("/app/LogParser.swift", Self.endlessParser), ("/app/LogViewer.swift", Self.viewer)])
                == ["/app/LogViewer.swift:4 endless_loop"])
    }

    @Test func aFinishedStreamLeavesTheSteppedAnimationToReport() {
        #expect(findings([("/app/LogParser.swift", Self.parser), ("/app/LogViewer.swift", Self.animatedViewer)])
                == ["/app/LogViewer.swift:5 stepped_animation"])
        #expect(findings([("/app/LogParser.swift", Self.endlessParser), ("/app/LogViewer.swift", Self.animatedViewer)])
                == ["/app/LogViewer.swift:5 endless_loop"])
    }
}
