import Foundation
import PackagePlugin

/// Runs `synclint lint` on a target's Swift files as part of its build. Findings are printed in
/// the `path:line:column: warning: ...` form, which Xcode turns into issues and `swift build`
/// shows in its log; a finding of severity `error` fails the build, as a compiler error would.
///
/// The command declares the files as inputs and no outputs: SwiftPM then runs it when a file (or
/// the configuration) changed, and not on a build where nothing did. A declared output file would
/// be copied into the target as a resource, giving it a resource bundle it never asked for.
@main
struct SyncLintBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try SyncLintBuildCommand.make(tool: context.tool(named: "synclint").url, name: target.name,
                                             files: target.sourceFiles.map(\.url), workFolder: context.pluginWorkDirectoryURL)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension SyncLintBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try SyncLintBuildCommand.make(tool: context.tool(named: "synclint").url, name: target.displayName,
                                      files: target.inputFiles.map(\.url), workFolder: context.pluginWorkDirectoryURL)
    }
}
#endif

enum SyncLintBuildCommand {
    /// One lint command over the target's Swift files, entitlements and Core Data models (the
    /// CloudKit schema rules read the last two), or none when the target has no Swift file.
    static func make(tool: URL, name: String, files: [URL], workFolder: URL) -> [Command] {
        guard let firstSwiftFile = files.first(where: { $0.pathExtension == "swift" }) else { return [] }
        let lintable = files.filter { ["swift", "entitlements", "xcdatamodeld", "xcdatamodel"].contains($0.pathExtension) }
        // synclint finds the configuration itself (the nearest `.synclint.yml` above the files);
        // it is an input too, so that editing it lints again.
        let config = nearestConfiguration(above: firstSwiftFile)
        return [.buildCommand(
            displayName: "SyncLint \(name)",
            executable: tool,
            // The results cache in the plugin's own folder: the only one a sandboxed build may write, and one per
            // target. After `--`, so a file whose name starts with `-` is still a path.
            arguments: ["lint", "--reporter", "xcode", "--quiet", "--cache-path", workFolder.appendingPathComponent("cache").path, "--"]
                + lintable.map(\.path),
            inputFiles: lintable + (config.map { [$0] } ?? []),
            outputFiles: [])]
    }

    static func nearestConfiguration(above file: URL) -> URL? {
        var folder = file.deletingLastPathComponent().standardizedFileURL
        while true {
            let candidate = folder.appendingPathComponent(".synclint.yml")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            // Stops at the repository root, where synclint's own search stops.
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) || folder.pathComponents.count <= 1 { return nil }
            folder = folder.deletingLastPathComponent()
        }
    }
}
