import Dispatch
import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintRules

/// Mutants of the sample apps, the test fixtures and the rules' examples (truncated, tokens deleted or
/// duplicated, unbalanced braces, random bytes, lines swapped, pieces of other files spliced in), each
/// run through the whole pipeline with every rule on: none may crash or run longer than the bound.
///
/// A crash kills the test runner, so before each run the mutant is written, with its seed and index,
/// to `$TMPDIR/synclint-fuzz-current.txt`: that file is the reproduction. Inputs that once failed are
/// kept under `Fixtures/Fuzz/` and run by `savedFailingInputsStayFixed`. `Benchmarks/fuzz.sh` runs a
/// long campaign through the environment variables read below.
struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["SYNCLINT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_123
    /// Sized for CI: in a debug build on a shared 2-core machine a mutant takes 9 to 13 ms (20,000 took
    /// 265 s), so the default run takes 25 to 35 s.
    static let mutantCount = environment["SYNCLINT_FUZZ_MUTANTS"].flatMap { Int($0) } ?? 2_500
    static let firstMutant = environment["SYNCLINT_FUZZ_FIRST"].flatMap { Int($0) } ?? 0
    /// One mutant is at most a few hundred lines; a run that takes this long is a hang.
    static let secondsPerRun = 20.0
    static let progressFile = FileManager.default.temporaryDirectory.appendingPathComponent("synclint-fuzz-current.txt")
    static let savedFolder = Repository.path("Tests/SyncLintKitTests/Fixtures/Fuzz")

    /// Swift sources: every `.swift` file of Examples/ and the fixtures, and every rule example.
    static let swiftCorpus: [String] = {
        var texts: [String] = []
        for folder in [Repository.path("Examples"), Repository.path("Tests/SyncLintKitTests/Fixtures/CloudKit")] {
            let files = FileDiscovery.discover(paths: [folder], excluded: []).swiftFiles
            texts += files.compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        }
        return texts + RobustnessTests.snippets
    }()

    /// Core Data models, linted with the Core Data app that loads one into a CloudKit container.
    static let modelCorpus: [String] = FileDiscovery.discover(paths: [Repository.path("Examples"),
                                                                      Repository.path("Tests/SyncLintKitTests/Fixtures/CloudKit")],
                                                              excluded: [])
        .resourcePaths.filter { $0.kind == .coreDataModel }
        .compactMap { try? String(contentsOfFile: $0.path, encoding: .utf8) }

    static let coreDataApp: [SourceInput] = FileDiscovery.discover(paths: [Repository.path("Examples/ListSync/Bad")], excluded: [])
        .swiftFiles.compactMap { path in (try? String(contentsOfFile: path, encoding: .utf8)).map { SourceInput(path: path, text: $0) } }

    @Test func corpusIsThere() {
        #expect(Self.swiftCorpus.count > 100)
        #expect(Self.modelCorpus.count >= 2)
        #expect(!Self.coreDataApp.isEmpty)
    }

    /// A (seed, index) pair names one mutant, and the mutants are not the corpus unchanged.
    @Test func mutantsAreReproducibleAndVaried() {
        let first = (0..<200).map { Mutator.mutant($0, seed: 7, corpus: Self.swiftCorpus) }
        let again = (0..<200).map { Mutator.mutant($0, seed: 7, corpus: Self.swiftCorpus) }
        #expect(first.map(\.text) == again.map(\.text))
        #expect(Set(first.map(\.operation)).count == Mutator.Operation.allCases.count)
        let changed = first.filter { $0.text != Self.swiftCorpus[$0.source] }.count
        #expect(changed > 180, "\(changed) of 200 mutants differ from their source")
        #expect(Mutator.mutant(3, seed: 8, corpus: Self.swiftCorpus).text != first[3].text || first[3].text.isEmpty)
    }

    @Test func mutantsNeitherCrashNorHang() throws {
        let start = Date()
        var slowest = (seconds: 0.0, index: 0)
        for index in Self.firstMutant..<(Self.firstMutant + Self.mutantCount) {
            // Every eighth mutant is of a Core Data model; the rest are Swift.
            let isModel = index % 8 == 7
            let mutant = Mutator.mutant(index, seed: Self.seed, corpus: isModel ? Self.modelCorpus : Self.swiftCorpus)
            let name = "seed \(Self.seed) mutant \(index) (\(isModel ? "model" : "swift") \(mutant.source), \(mutant.operation.rawValue))"
            try Self.recordProgress(name, text: mutant.text)
            guard let seconds = Self.lintWithinBound(mutant.text, isModel: isModel) else {
                let saved = try Self.save(mutant.text, name: "timeout-\(Self.seed)-\(index)", isModel: isModel)
                Issue.record("\(name) ran longer than \(Self.secondsPerRun) s; saved as \(saved)")
                return
            }
            if seconds > slowest.seconds { slowest = (seconds, index) }
        }
        try? FileManager.default.removeItem(at: Self.progressFile)
        let elapsed = Date().timeIntervalSince(start)
        print("fuzz: \(Self.mutantCount) mutants (seed \(Self.seed), from \(Self.firstMutant)) in \(String(format: "%.1f", elapsed)) s; "
            + "slowest \(String(format: "%.3f", slowest.seconds)) s (mutant \(slowest.index))")
    }

    @Test func savedFailingInputsStayFixed() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.savedFolder))?.sorted() ?? []
        #expect(names.contains("README.md"), "Fixtures/Fuzz/ is where failing inputs are kept")
        for name in names where name.hasSuffix(".swift") || name.hasSuffix(".contents") {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.savedFolder + "/" + name)), as: UTF8.self)
            try Self.recordProgress("saved input \(name)", text: text)
            #expect(Self.lintWithinBound(text, isModel: name.hasSuffix(".contents")) != nil, "\(name) ran too long")
        }
        // Inputs the libFuzzer harness (Benchmarks/fuzz-libfuzzer.sh) found, run through its own code.
        let scratch = FuzzPipeline.makeFolder(FileManager.default.temporaryDirectory
            .appendingPathComponent("synclint-saved-fuzz-\(ProcessInfo.processInfo.processIdentifier)").path)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        FuzzPipeline.makeDiscoveryProject(at: scratch + "/discovery")
        for name in names where name.hasSuffix(".project") || name.hasSuffix(".yml") || name.hasSuffix(".contents") {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: Self.savedFolder + "/" + name)), as: UTF8.self)
            try Self.recordProgress("saved input \(name)", text: text)
            let seconds = Self.runWithinBound {
                if name.hasSuffix(".project") {
                    FuzzPipeline.project(text, scratch: scratch)
                } else if name.hasSuffix(".yml") {
                    FuzzPipeline.configuration(text, discoveryProject: scratch + "/discovery")
                } else {
                    FuzzPipeline.model(text, app: Self.coreDataApp, modelName: "ListSync", scratch: scratch)
                }
            }
            #expect(seconds != nil, "\(name) ran too long")
        }
    }

    // What the libFuzzer harness runs (FuzzPipeline): each mode must reach the checks with the input, or
    // a campaign fuzzes nothing.

    @Test func aFuzzProjectKeepsItsFilesInsideTheProject() {
        let project = FuzzProject("let a = 1\n//>> ../../etc/Outside.swift\nlet b = 2\n//>> /Sub/.git/config\n"
            + "//>> Sub/.synclint.yml\nexcluded: [x]\n//>> \nlet c = 3")
        #expect(project.files.map(\.path) == ["App.swift", "etc/Outside.swift", "Sub/config", "Sub/.synclint.yml", "File.swift"])
        #expect(project.files.map(\.text) == ["let a = 1", "let b = 2", "", "excluded: [x]", "let c = 3"])
        // An empty input is an empty App.swift, which the parser sees too.
        #expect(FuzzProject("").files.map(\.path) == ["App.swift"])
    }

    @Test func theProjectModeLintsEveryFileOfTheInputAsOneProject() {
        let scratch = FuzzPipeline.makeFolder(FileManager.default.temporaryDirectory
            .appendingPathComponent("synclint-fuzz-project-\(ProcessInfo.processInfo.processIdentifier)").path)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // The model is checked only because the Swift file syncs it: the two files are linted together.
        let input = "let container = NSPersistentCloudKitContainer(name: \"Model\")\n"
            + "//>> Model.xcdatamodeld/Model.xcdatamodel/contents\n"
            + CoreDataModelExamples.model(#"<attribute name="title" attributeType="String"/>"#) + "\n"
            + "//>> ../../Outside.swift\nstruct Outside {}"
        let result = FuzzPipeline.project(input, scratch: scratch)
        #expect(result.findings.contains { $0.ruleID == "cloudkit_nonoptional_attribute"
            && $0.file == scratch + "/project/Model.xcdatamodeld/Model.xcdatamodel/contents" })
        #expect(result.filesLinted == 2, "the two Swift files")
        #expect(FileManager.default.fileExists(atPath: scratch + "/project/Outside.swift"))
    }

    @Test func theConfigurationModeLintsWithTheInputConfiguration() throws {
        let project = FileManager.default.temporaryDirectory
            .appendingPathComponent("synclint-fuzz-configuration-\(ProcessInfo.processInfo.processIdentifier)").path
        FuzzPipeline.makeDiscoveryProject(at: project)
        defer { try? FileManager.default.removeItem(atPath: project) }
        let only = try #require(FuzzPipeline.configuration("only_rules: [on_appear_task]", discoveryProject: project))
        #expect(!only.findings.isEmpty)
        #expect(only.findings.allSatisfy { $0.ruleID == "on_appear_task" && $0.file == project + "/App/Views/ContentView.swift" })
        let excluded = try #require(FuzzPipeline.configuration("only_rules: [on_appear_task]\nexcluded: [App/Views]",
                                                               discoveryProject: project))
        #expect(excluded.findings.isEmpty)
        #expect(FuzzPipeline.configuration("only_rules: {", discoveryProject: project) == nil)
    }

    @Test func theModelModeLintsTheModelWithTheAppThatLoadsIt() throws {
        let model = CoreDataModelExamples.model(#"<attribute name="title" attributeType="String"/>"#)
        let result = try #require(FuzzPipeline.model(model, app: Self.coreDataApp, modelName: "ListSync", scratch: "/fuzz"))
        #expect(result.findings.contains { $0.ruleID == "cloudkit_nonoptional_attribute" && $0.file.hasSuffix("ListSync.xcdatamodel/contents") })
        #expect(FuzzPipeline.model("<model>", app: Self.coreDataApp, modelName: "ListSync", scratch: "/fuzz") == nil)
    }

    /// Lints on a worker thread (where the command line lints files too) and waits at most the bound.
    /// A run that does not finish is left running: the test fails and the process ends after it.
    static func lintWithinBound(_ text: String, isModel: Bool) -> Double? {
        runWithinBound {
            if isModel {
                // The name the app's `NSPersistentCloudKitContainer(name: "ListSync")` loads, so its checks see the model.
                let model = ResourceFile(path: "/fuzz/ListSync.xcdatamodeld/ListSync.xcdatamodel/contents", kind: .coreDataModel, text: text)
                _ = Linter.lint(sources: coreDataApp, resources: [model], configuration: Configuration(), enableAllRules: true)
            } else {
                _ = Linter.lint(sources: [SourceInput(path: "/fuzz/Mutant.swift", text: text)], configuration: Configuration(),
                                enableAllRules: true)
            }
        }
    }

    /// Runs `work` on a thread of its own and waits at most the bound from when the work started: its seconds, or nil
    /// when it did not finish. Not the global queue: under a parallel test run its threads are all busy, and a work
    /// item that waited its turn there was once taken for a hang.
    static func runWithinBound(_ work: @escaping @Sendable () -> Void) -> Double? {
        let started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let thread = Thread {
            started.signal()
            work()
            done.signal()
        }
        thread.stackSize = 16 << 20  // a deeply nested mutant recurses as far as on the main thread
        thread.start()
        started.wait()
        let start = DispatchTime.now()
        guard done.wait(timeout: start + secondsPerRun) == .success else { return nil }
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    static func recordProgress(_ name: String, text: String) throws {
        try Data((name + "\n---\n" + text).utf8).write(to: progressFile)
    }

    static func save(_ text: String, name: String, isModel: Bool) throws -> String {
        let path = savedFolder + "/" + name + (isModel ? ".contents" : ".swift")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
