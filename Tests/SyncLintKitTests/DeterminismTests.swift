import Foundation
import Testing
@testable import SyncLintKit

/// The output does not depend on how files are scheduled: the sample apps linted one file after
/// another and in parallel (several times, with every rule on) render byte-identical reports.
struct DeterminismTests {
    @Test func serialAndParallelRunsRenderIdenticalReports() throws {
        let discovered = FileDiscovery.discover(paths: [Repository.path("Examples"), Repository.path("Tests/SyncLintKitTests/Fixtures")],
                                                excluded: [])
        let files: [Linter.FileInput] = discovered.swiftFiles.map { .path($0) }
        let resources = try discovered.resourcePaths.map { entry in
            ResourceFile(path: entry.path, kind: entry.kind, text: try String(contentsOfFile: entry.path, encoding: .utf8))
        }
        #expect(files.count > 20 && !resources.isEmpty, "the samples were found")
        func render(parallel: Bool) -> [String] {
            let result = Linter.run(files: files, resources: resources, layout: ProjectLayout(), configuration: Configuration(), enableAllRules: true,
                                    parallel: parallel)
            return ReporterKind.allCases.map { $0.render(result.findings, rules: RuleRegistry.allDescriptions) } + [result.warnings.joined(separator: "\n")]
        }
        let serial = render(parallel: false)
        #expect(serial[0].split(separator: "\n").count > 30, "the samples give findings to compare")
        for attempt in 1...3 {
            let parallel = render(parallel: true)
            for (kind, (a, b)) in zip(ReporterKind.allCases.map(\.rawValue) + ["warnings"], zip(serial, parallel)) {
                #expect(a == b, "attempt \(attempt): \(kind) output differs between serial and parallel runs")
            }
        }
    }

    /// Each process hashes with its own seed, so anything taken from a `Set` in its iteration order differs from run
    /// to run. Here two nodes of the control-flow graph start at the same place (`Date()` and the call of its member),
    /// and the message names the first: eight processes must name the same one.
    @Test func findingsDoNotDependOnTheProcessHashSeed() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            import SwiftUI
            struct PulseView: View {
                @State private var elapsed: TimeInterval = 0
                let start = Date()
                var body: some View {
                    Text("\\(elapsed)").task {
                        try? await Task.sleep(for: .seconds(1))
                        let waited = Date().timeIntervalSince(start)
                        elapsed = waited
                    }
                }
            }
            """.write(to: folder.appendingPathComponent("PulseView.swift"), atomically: true, encoding: .utf8)
        let outputs = try (1...8).map { _ in
            try Repository.run(["lint", "--no-cache", "--only-rule", "cancellation_swallowed_by_try_optional", "--confidence", "medium"],
                               in: folder).stdout
        }
        #expect(outputs[0].contains("(cancellation_swallowed_by_try_optional)"), "the example fires: \(outputs[0])")
        #expect(Set(outputs).count == 1, "\(Set(outputs))")
    }
}
