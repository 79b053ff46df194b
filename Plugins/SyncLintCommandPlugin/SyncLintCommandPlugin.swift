import Foundation
import PackagePlugin

/// `swift package synclint [--target NAME ...] [PATH ...] [synclint lint options]`
///
/// Lints the package's Swift targets (their files as the manifest lists them, so a target's
/// `exclude:` is honoured) or the paths given, with the package's `.synclint.yml` when there is
/// one, and ends with synclint's exit status. Options other than `--target` go to `synclint lint`
/// unchanged (`--reporter json`, `--strict`, `--fix` ...).
@main
struct SyncLintCommandPlugin: CommandPlugin {
    /// `synclint lint` options that take a value: the word after them is that value, not a path.
    /// CommandPluginTests checks this list against the options `synclint lint` declares.
    static let optionsWithValue: Set<String> = ["--reporter", "--output", "--baseline", "--write-baseline", "--config", "--stdin-path", "--only-rule",
                                                    "--confidence", "--cache-path"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let passed = extractor.remainingArguments
        if passed.contains("--use-stdin") {
            throw Failure(description: "--use-stdin needs synclint run directly: a plugin gets no standard input from `swift package`")
        }
        var lintArguments = ["lint"] + passed
        if !Self.namesPaths(passed) {
            let targets = targetNames.isEmpty ? context.package.targets : try context.package.targets(named: targetNames)
            let files = targets.compactMap { $0 as? SourceModuleTarget }.flatMap { target in
                target.sourceFiles.map(\.url).filter(Self.isLintable)
            }
            guard !files.isEmpty else {
                throw Failure(description: "no Swift files in the targets \(targets.map(\.name).joined(separator: ", "))")
            }
            // After `--`, so a file whose name starts with `-` is still a path.
            if !passed.contains("--") { lintArguments.append("--") }
            lintArguments += files.map(\.path)
        }
        // The results cache in the plugin's own folder, which a sandboxed plugin may write (the user's cache folder it
        // may not), unless the options say where or whether.
        if !passed.contains(where: { ["--no-cache", "--cache"].contains($0) || $0 == "--cache-path" || $0.hasPrefix("--cache-path=") }) {
            lintArguments.insert(contentsOf: ["--cache-path", context.pluginWorkDirectoryURL.appendingPathComponent("cache").path], at: 1)
        }
        let config = context.package.directoryURL.appendingPathComponent(".synclint.yml")
        if !passed.contains(where: { $0 == "--config" || $0.hasPrefix("--config=") }),
           FileManager.default.fileExists(atPath: config.path) {
            lintArguments.insert(contentsOf: ["--config", config.path], at: 1)
        }

        let process = Process()
        process.executableURL = try context.tool(named: "synclint").url
        process.arguments = lintArguments
        // Report paths and a relative `--output` are then relative to the package, as the user sees it.
        process.currentDirectoryURL = context.package.directoryURL
        // The plugin's own standard input belongs to SwiftPM, which talks to the plugin through it.
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit else {
            throw Failure(description: "synclint was ended by signal \(process.terminationStatus)")
        }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "synclint exited with status \(process.terminationStatus)")
        }
    }

    /// Whether the arguments name a file or folder to lint: a word that is neither an option
    /// nor the value of one, or anything after `--`.
    static func namesPaths(_ arguments: [String]) -> Bool {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { return index + 1 < arguments.endIndex }
            if optionsWithValue.contains(argument) {
                index += 2
                continue
            }
            if !argument.hasPrefix("-") { return true }
            index += 1
        }
        return false
    }

    /// The files `synclint lint` reads: Swift sources, entitlements and Core Data models.
    static func isLintable(_ url: URL) -> Bool {
        ["swift", "entitlements", "xcdatamodeld", "xcdatamodel"].contains(url.pathExtension)
    }
}

/// Fails the plugin: `swift package` prints the description and exits with status 1 (it does
/// not pass a plugin's own status on).
struct Failure: Error, CustomStringConvertible {
    let description: String
}
