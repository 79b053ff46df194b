import Foundation
import SyncLintKit

// What the libFuzzer harness runs for each input, in one file that both build: the tests (here) and the
// harness (Fuzz/LibFuzzer/FuzzPipeline.swift is a link to this file). So a saved input is replayed by
// `swift test` through exactly the code the fuzzer ran, without a sanitizer build. Only crashes, hangs
// and sanitizer reports count: every run that returns passes.

/// One fuzz input read as a small project: lines `//>> RELATIVE/PATH` start a new file, and the text
/// before the first such line is `App.swift`. So one input can hold Swift files, an entitlements plist,
/// a Core Data model, an Xcode project and `.synclint.yml` files, and libFuzzer's mutations (which
/// splice inputs together) move whole files between projects.
struct FuzzProject {
    static let fileMarker = "//>> "
    static let firstFile = "App.swift"
    /// Deeper paths add nothing a fuzzer can find and cost a folder each.
    static let maximumDepth = 6

    var files: [(path: String, text: String)] = []

    init(_ text: String) {
        var path = Self.firstFile
        var lines: [Substring] = []
        func close() {
            if !lines.isEmpty || path != Self.firstFile { files.append((path, lines.joined(separator: "\n"))) }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(Self.fileMarker) {
                close()
                path = Self.relativePath(line.dropFirst(Self.fileMarker.count))
                lines = []
            } else {
                lines.append(line)
            }
        }
        close()
    }

    /// A path inside the project whatever the input says: no `..`, no absolute path, no empty or hidden
    /// component except `.synclint.yml` (a `.git` of the input's would end the project there).
    static func relativePath(_ raw: Substring) -> String {
        let components = raw.split(separator: "/").map(String.init).filter { component in
            !component.isEmpty && component != "." && component != ".."
                && (!component.hasPrefix(".") || component == ".synclint.yml")
        }
        let kept = components.suffix(maximumDepth).map { String($0.prefix(60)) }
        return kept.isEmpty ? "File.swift" : kept.joined(separator: "/")
    }

    /// Writes the files under `root`, which must exist. A path named twice keeps the last text; a path
    /// that is both a folder and a file keeps whichever came first.
    func write(under root: String) {
        for (path, text) in files {
            let url = URL(fileURLWithPath: root).appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: url)
        }
    }
}

enum FuzzPipeline {
    static let knownRuleIDs = Set(RuleRegistry.allDescriptions.map(\.id))

    /// Makes an empty folder at `path` (removing what was there) and returns it.
    @discardableResult
    static func makeFolder(_ path: String) -> String {
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The project mode: the input as a project in `scratch/project` (a repository, so its own
    /// `.synclint.yml` applies), linted as `synclint lint` lints it with every rule on, reported in every
    /// format, and fixed with the unsafe fixes too when a fixable rule fired.
    @discardableResult
    static func project(_ text: String, scratch: String) -> LintResult {
        let root = makeFolder(scratch + "/project")
        try? FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        FuzzProject(text).write(under: root)
        let configuration = (try? Configuration.load(path: root + "/.synclint.yml", rules: RuleRegistry.allDescriptions)) ?? Configuration()
        let configurations = ConfigurationTree(main: configuration, nestedLookup: true, rules: RuleRegistry.allDescriptions)
        let result = Linter.lintInProjects(paths: [root], configurations: configurations, enableAllRules: true, currentFolder: root)
        // Only the rules that fired: the reporters' part for rules without findings (SARIF's rule
        // metadata: nine tenths of a run on a small file) is the same for every input.
        let fired = Set(result.findings.map(\.ruleID))
        let report = LintReport(findings: result.findings, rules: RuleRegistry.allDescriptions.filter { fired.contains($0.id) }, root: root)
        for kind in ReporterKind.allCases { _ = kind.render(report) }
        let fixable = FixEngine.fixableRules(includeUnsafe: true)
        if result.findings.contains(where: { fixable.contains($0.ruleID) }) {
            _ = FixEngine.fix(paths: [root], configurations: configurations, enableAllRules: true, includeUnsafe: true,
                              currentFolder: root)
        }
        return result
    }

    /// A project for the configuration mode: folders and files that `included` and `excluded` can match,
    /// and a view most rules look at.
    static func makeDiscoveryProject(at path: String) {
        FuzzProject("""
            //>> App/App.swift
            import SwiftUI
            //>> App/Views/ContentView.swift
            import SwiftUI
            struct ContentView: View {
                @State private var items: [String] = []
                var body: some View {
                    List(items, id: \\.self) { Text($0) }
                        .onAppear { Task { items = await load() } }
                }
                // A load that suspends: a task that only awaits a function with no `await` of its own outlives nothing.
                func load() async -> [String] { await api.items() }
            }
            //>> Tests/AppTests.swift
            import XCTest
            //>> Generated/Model.generated.swift
            struct Model {}
            //>> App/App.entitlements
            <plist></plist>
            """).write(under: makeFolder(path))
    }

    /// The configuration mode: the input as `.synclint.yml` of the discovery project, parsed, merged
    /// with itself (as a nested configuration is), then used to discover and lint that project, whose
    /// rules read their options from it.
    /// Returns the lint's result, or nil when the configuration was refused.
    @discardableResult
    static func configuration(_ text: String, discoveryProject: String) -> LintResult? {
        let path = discoveryProject + "/.synclint.yml"
        guard var configuration = try? Configuration.parse(yaml: text, path: path, baseFolder: discoveryProject,
                                                            rules: RuleRegistry.allDescriptions) else { return nil }
        configuration.file = path
        _ = configuration.merged(with: configuration)
        return Linter.lint(paths: [discoveryProject], configurations: ConfigurationTree(main: configuration, nestedLookup: false))
    }

    /// The model mode: the input as the model the Core Data app `app` loads by `modelName`, parsed, then
    /// indexed with that app, every rule on.
    /// Returns the lint's result, or nil when the model was refused.
    @discardableResult
    static func model(_ text: String, app: [SourceInput], modelName: String, scratch: String) -> LintResult? {
        let model = ResourceFile(path: scratch + "/\(modelName).xcdatamodeld/\(modelName).xcdatamodel/contents",
                                 kind: .coreDataModel, text: text)
        guard case .success = CoreDataModel.parse(model) else { return nil }
        return Linter.lint(sources: app, resources: [model], configuration: Configuration(), enableAllRules: true)
    }
}
