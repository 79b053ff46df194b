import Foundation
import Testing
@testable import SyncLintKit

/// The nearest `.synclint.yml` upward from the linted paths is the run's configuration, wherever
/// SyncLint is started from; the search stops at the repository root.
struct ConfigurationDiscoveryTests {
    @Test func theNearestConfigurationUpwardWinsOverTheCurrentFolders() throws {
        let root = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let repository = root.appendingPathComponent("repo"), app = repository.appendingPathComponent("App/Sources")
        let other = root.appendingPathComponent("other")
        for folder in [app, repository.appendingPathComponent(".git"), other] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let projectConfig = repository.appendingPathComponent("App/.synclint.yml").path
        try "disabled_rules: [task_without_id]\n".write(toFile: projectConfig, atomically: true, encoding: .utf8)
        try "opt_in_rules: [model_not_main_actor]\n".write(toFile: other.appendingPathComponent(".synclint.yml").path, atomically: true, encoding: .utf8)
        try "x".write(toFile: root.appendingPathComponent(".synclint.yml").path, atomically: true, encoding: .utf8)

        #expect(ConfigurationDiscovery.choose(paths: [app.path], currentFolder: other.path)
                == projectConfig, "the project's own file, not the current folder's")
        #expect(ConfigurationDiscovery.choose(paths: [app.appendingPathComponent("A.swift").path], currentFolder: other.path)
                == projectConfig, "a file's folder is searched too")
        let outside = repository.appendingPathComponent("Tools")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        #expect(ConfigurationDiscovery.choose(paths: [outside.path], currentFolder: other.path)
                == ".synclint.yml", "the search stops at the repository root (.git); then the current folder's file")
        #expect(ConfigurationDiscovery.choose(paths: [], currentFolder: app.path) == projectConfig,
                "with no path, the search starts in the current folder")
        // Paths with different nearest files: the main one is the nearest above all of them (each
        // path's own then refines it as a nested configuration, see NestedConfigurationTests).
        #expect(ConfigurationDiscovery.choose(paths: [app.path, outside.path], currentFolder: outside.path) == nil,
                "nothing above both inside the repository, and none in the current folder")
        #expect(ConfigurationDiscovery.choose(paths: [app.path, outside.path], currentFolder: root.path) == ".synclint.yml",
                "else the current folder's")
        #expect(ConfigurationDiscovery.choose(paths: [app.path, other.path], currentFolder: outside.path)
                == root.appendingPathComponent(".synclint.yml").path, "the nearest above both")
        #expect(ConfigurationDiscovery.commonFolder(of: ["/a/b/c", "/a/b/d/e", "/a/bx"]) == "/a")
    }

    @Test func theExamplesUseTheirOwnConfigurationFromAnywhere() throws {
        let examples = Repository.path("Examples")
        let result = try Repository.run(["lint", examples], in: FileManager.default.temporaryDirectory)
        #expect(result.stdout.contains("(task_handle_overwritten)"), "an opt-in rule the Examples' .synclint.yml turns on")
    }
}
