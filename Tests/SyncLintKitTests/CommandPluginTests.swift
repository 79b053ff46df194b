import Foundation
import Testing

/// The command plugin (`swift package synclint`) cannot be imported by a test; `.ci/plugin-check`
/// runs it through SwiftPM. What can drift silently is checked here: the plugin tells paths from
/// option values with its own list of `synclint lint` options that take a value.
struct CommandPluginTests {
    @Test func pluginKnowsEveryLintOptionThatTakesAValue() throws {
        let source = try String(contentsOfFile: Repository.path("Plugins/SyncLintCommandPlugin/SyncLintCommandPlugin.swift"), encoding: .utf8)
        let declaration = try #require(source.firstMatch(of: /optionsWithValue: Set<String> = \[([^\]]*)\]/))
        let pluginList = Set(declaration.1.matches(of: /"([^"]+)"/).map { String($0.1) })

        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let help = try Repository.run(["lint", "--experimental-dump-help"], in: folder)
        #expect(help.status == 0, "\(help.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(help.stdout.utf8)) as? [String: Any])
        let command = try #require(json["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        var declared: Set<String> = []
        for argument in arguments where argument["kind"] as? String == "option" {
            for name in argument["names"] as? [[String: String]] ?? [] {
                declared.insert((name["kind"] == "long" ? "--" : "-") + (name["name"] ?? ""))
            }
        }
        #expect(declared.contains("--reporter"), "the help dump lists lint's options: \(declared)")
        #expect(pluginList == declared, "update SyncLintCommandPlugin.optionsWithValue to: \(declared.sorted())")
    }
}
