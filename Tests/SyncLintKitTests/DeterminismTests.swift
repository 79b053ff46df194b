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
}
