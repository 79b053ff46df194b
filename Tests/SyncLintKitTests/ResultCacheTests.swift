import Foundation
import Testing
@testable import SyncLintKit

/// The results cache (`ResultCache`): a warm run gives exactly what a run without it gives, reads
/// and parses nothing that did not change, re-resolves every file's findings against the rebuilt
/// index, and survives corrupt entries, unusable folders and runs at once. Temporary folders only.
@Suite(.serialized) struct ResultCacheTests {

    struct Run {
        let result: LintResult
        let statistics: ResultCache.Statistics
        let warning: String?

        /// Every reporter's rendering and the warnings: what a user sees.
        var rendered: [String] {
            ReporterKind.allCases.map { $0.render(result.findings, rules: RuleRegistry.allDescriptions) } + [result.warnings.joined(separator: "\n")]
        }
    }

    static func lint(_ paths: [String], cacheRoot: String?, configuration: Configuration = Configuration.withStockRules,
                     limits: ResultCache.Limits = .init()) -> Run {
        let cache = cacheRoot.map { ResultCache(root: $0, limits: limits) }
        let result = Linter.lintInProjects(paths: paths, configurations: .single(configuration), enableAllRules: false, cache: cache)
        return Run(result: result, statistics: cache?.statistics ?? .init(), warning: cache?.finish())
    }

    static func examplesConfiguration() throws -> Configuration {
        try Configuration.load(path: Repository.path("Examples/.synclint.yml"), rules: RuleRegistry.allDescriptions)
    }

    /// Cold, warm and uncached runs over the sample apps and each fixture render the same reports; the
    /// warm run takes every file from the cache, so it parses nothing.
    @Test(arguments: ["Examples", "Tests/SyncLintKitTests/Fixtures/Projects/AppAndWidget",
                      "Tests/SyncLintKitTests/Fixtures/Projects/TwoApps", "Tests/SyncLintKitTests/Fixtures/CloudKit"])
    func coldAndWarmRunsAreIdentical(folder: String) throws {
        let root = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let configuration = folder == "Examples" ? try Self.examplesConfiguration() : Configuration.withStockRules
        let paths = [Repository.path(folder)]
        let uncached = Self.lint(paths, cacheRoot: nil, configuration: configuration)
        let cold = Self.lint(paths, cacheRoot: root.path, configuration: configuration)
        // Nothing changed: the whole run's result is reused, no per-file entry read.
        let whole = Self.lint(paths, cacheRoot: root.path, configuration: configuration)
        #expect(whole.rendered == uncached.rendered)
        #expect(whole.statistics.wholeRunReused && whole.statistics.stampHits + whole.statistics.contentHits + whole.statistics.misses == 0,
                "\(whole.statistics)")
        // Without the whole-run entry, every file's entry is read instead.
        try Self.removeWholeRunEntries(root: root.path)
        let warm = Self.lint(paths, cacheRoot: root.path, configuration: configuration)
        #expect(uncached.result.filesLinted > 0)
        #expect(cold.rendered == uncached.rendered)
        #expect(warm.rendered == uncached.rendered)
        #expect(cold.statistics.wholeRunStored && !warm.statistics.wholeRunReused)
        if folder == "Examples" { #expect(warm.result.findings.count == 39) }
        #expect(cold.statistics.misses == cold.result.filesLinted && cold.statistics.writes == cold.result.filesLinted)
        #expect(warm.statistics.misses == 0 && warm.statistics.stampHits + warm.statistics.contentHits == warm.result.filesLinted,
                "\(warm.statistics)")
        #expect(warm.result.timings.parse == 0 && warm.result.timings.walk == 0)
        #expect(cold.warning == nil && warm.warning == nil)
    }

    /// The command line's output is byte-identical cold and warm, and `--no-cache` writes nothing.
    @Test func commandLineOutputIsByteIdenticalColdAndWarm() throws {
        let scratch = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cacheFolder = scratch.appendingPathComponent("cache").path
        let examples = Repository.path("Examples")
        let uncached = try Self.run(["lint", "--quiet", "--no-cache", examples], cacheHome: scratch.appendingPathComponent("home").path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [], "--no-cache wrote nothing")
        // The cache is on by default: a plain run uses the default folder, and `--cache` the same one.
        let plain = try Self.run(["lint", "--quiet", "--timings", examples], cacheHome: scratch.appendingPathComponent("home").path)
        #expect(plain.stdout == uncached.stdout)
        #expect(plain.stderr.contains("cache \(scratch.path)/home/synclint/"), "\(plain.stderr)")
        #expect(try Self.buildFolders(in: scratch.path + "/home/synclint").count == 1)
        let defaulted = try Self.run(["lint", "--quiet", "--timings", "--cache", examples], cacheHome: scratch.appendingPathComponent("home").path)
        #expect(defaulted.stdout == uncached.stdout)
        #expect(defaulted.stderr.contains("whole run reused"), "the plain run's cache serves `--cache`: \(defaulted.stderr)")
        #expect(try Self.buildFolders(in: scratch.path + "/home/synclint").count == 1)
        let cold = try Repository.run(["lint", "--quiet", "--cache-path", cacheFolder, examples], in: scratch)
        let warm = try Repository.run(["lint", "--quiet", "--cache-path", cacheFolder, "--timings", examples], in: scratch)
        #expect(uncached.status == 1 && cold.status == 1 && warm.status == 1)
        #expect(uncached.stdout.split(separator: "\n").filter { !$0.contains(": note: ") }.count == 39)
        #expect(cold.stdout == uncached.stdout && warm.stdout == uncached.stdout)
        #expect(cold.stderr == uncached.stderr)
        #expect(warm.stderr.contains(" 0 parsed, 0 written, 0 unusable; whole run reused"), "\(warm.stderr)")
        #expect(try Self.buildFolders(in: cacheFolder).count == 1)
        let both = try Repository.run(["lint", "--no-cache", "--cache-path", cacheFolder, examples], in: scratch)
        #expect(both.status == 2 && both.stderr.contains("--cache-path cannot be used with --no-cache"))
        let contradictory = try Repository.run(["lint", "--no-cache", "--cache", examples], in: scratch)
        #expect(contradictory.status == 2 && contradictory.stderr.contains("--cache cannot be used with --no-cache"))
    }

    /// Without `--cache-path`, `cache_path:` in the configuration decides, relative to its folder; else
    /// `$XDG_CACHE_HOME/synclint`.
    @Test func theConfigurationAndTheEnvironmentPlaceTheCache() throws {
        let folder = try Self.project(["Item.swift": "struct Item { var title = \"\" }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try "cache_path: .lint-cache\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let configured = try Repository.run(["lint", "--quiet", "Item.swift"], in: folder)
        #expect(configured.status == 0, "\(configured.stderr)")
        #expect(try Self.buildFolders(in: folder.path + "/.lint-cache").count == 1)
        #expect(ResultCache.defaultRoot(environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "/x/cache"]) == "/x/cache/synclint")
        #expect(ResultCache.defaultRoot(environment: ["HOME": "/home/u"]) == "/home/u/.cache/synclint")
        #expect(ResultCache.defaultRoot(environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "relative"]) == "/home/u/.cache/synclint")
    }

    /// A finding in one file depends on a model declared in another: editing only the model file
    /// re-walks only it, and the other file's cached pending finding is resolved against the new index.
    @Test func editingAModelFileChangesAnotherFilesFinding() throws {
        let folder = try Self.project([
            "Item.swift": "import CoreData\nfinal class Item: NSManagedObject { @NSManaged var title: String? }\n",
            "Rename.swift": "func rename(_ item: Item, to title: String) {\n    Task.detached {\n        item.title = title\n    }\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        let cold = Self.lint([folder.path], cacheRoot: root)
        #expect(cold.result.findings.map(\.ruleID) == ["model_mutated_off_main"], "\(cold.result.findings)")
        try "final class Item { var title: String? }\n".write(to: folder.appendingPathComponent("Item.swift"), atomically: true, encoding: .utf8)
        let edited = Self.lint([folder.path], cacheRoot: root)
        #expect(edited.statistics.misses == 1 && edited.statistics.stampHits + edited.statistics.contentHits == 1, "\(edited.statistics)")
        #expect(edited.result.findings.isEmpty, "the plain class is no managed object: \(edited.result.findings)")
        #expect(edited.rendered == Self.lint([folder.path], cacheRoot: nil).rendered)
        // And back: the rename file still comes from the cache, its finding returns. The model's first version is
        // still in the run state (a one-file edit leaves it as it was: `Limits.runStateSlack`), so it is taken from
        // there by its content, not parsed.
        try "import CoreData\nfinal class Item: NSManagedObject { @NSManaged var title: String? }\n"
            .write(to: folder.appendingPathComponent("Item.swift"), atomically: true, encoding: .utf8)
        let restored = Self.lint([folder.path], cacheRoot: root)
        #expect(restored.statistics.misses == 0 && restored.statistics.stateHits == 2, "\(restored.statistics)")
        #expect(restored.result.findings.map(\.ruleID) == ["model_mutated_off_main"])
    }

    /// A changed configuration (a rule turned off, an option changed) never reuses entries made with
    /// the old one; going back reuses the first ones.
    @Test func aChangedConfigurationInvalidatesEntries() throws {
        let folder = try Self.project([
            "Item.swift": "import CoreData\nfinal class Item: NSManagedObject { @NSManaged var title: String? }\n",
            "Rename.swift": "func rename(_ item: Item, to title: String) {\n    Task.detached {\n        item.title = title\n    }\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        let first = Self.lint([folder.path], cacheRoot: root)
        #expect(first.result.findings.count == 1)
        var off = Configuration.withStockRules
        off.disabledRules = ["model_mutated_off_main"]
        let disabled = Self.lint([folder.path], cacheRoot: root, configuration: off)
        #expect(disabled.statistics.misses == 2 && disabled.result.findings.isEmpty)
        var optioned = Configuration.withStockRules
        optioned.ruleOptions["model_mutated_off_main"] = RuleOptions(["severity_note": .string("x")])
        let withOptions = Self.lint([folder.path], cacheRoot: root, configuration: optioned)
        #expect(withOptions.statistics.misses == 2)
        // One entry per file: the last configuration's. (Each configuration's run state keeps its own results, so
        // going back would take them from there: `RunStateCacheTests`; removed here with the whole-run entries.)
        try Self.removeWholeRunEntries(root: root)
        let back = Self.lint([folder.path], cacheRoot: root, configuration: off)
        #expect(back.statistics.misses == 2 && back.result.findings.isEmpty)
        let again = Self.lint([folder.path], cacheRoot: root, configuration: off)
        #expect(again.statistics.misses == 0 && again.result.findings.isEmpty)
        #expect(RulePlan(syntaxRules: [], options: [:]).fingerprint != Linter.makeGroup(Configuration.withStockRules, enableAllRules: false).plan.fingerprint)
    }

    /// Corrupt, truncated, foreign and unreadable entries are ignored and rebuilt, with one warning
    /// line for the run; the findings are those of a run without a cache; the next run is clean.
    @Test func damagedEntriesAreIgnoredAndRebuilt() throws {
        let root = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let configuration = try Self.examplesConfiguration()
        let paths = [Repository.path("Examples")]
        let uncached = Self.lint(paths, cacheRoot: nil, configuration: configuration)
        _ = Self.lint(paths, cacheRoot: root.path, configuration: configuration)
        let cache = ResultCache(root: root.path)
        var entries = try Self.entries(in: cache.folder)
        #expect(entries.count == uncached.result.filesLinted)
        entries.shuffle()
        // Truncated in the payload, in the header, to nothing; a flipped byte in the payload; an old format; garbage.
        let damage: [(String, (Data) -> Data)] = [
            ("truncated payload", { $0.prefix($0.count - 7) }),
            ("truncated header", { $0.prefix(30) }),
            ("empty", { _ in Data() }),
            ("flipped payload byte", { var data = $0; data[data.count - 20] ^= 0x01; return data }),
            ("older format", { Data("SYNCLINT-CACHE-0\n".utf8) + $0.dropFirst(ResultCache.magic.count) }),
            ("garbage", { _ in Data((0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) }) }),
        ]
        for ((_, change), entry) in zip(damage, entries) {
            let data = try Data(contentsOf: URL(fileURLWithPath: entry))
            try change(data).write(to: URL(fileURLWithPath: entry))
        }
        // An entry that is a folder cannot be read at all.
        try FileManager.default.removeItem(atPath: entries[damage.count])
        try FileManager.default.createDirectory(atPath: entries[damage.count], withIntermediateDirectories: false)
        // Else the unchanged run would be answered whole, without reading a per-file entry.
        try Self.removeWholeRunEntries(root: root.path)
        let damaged = Self.lint(paths, cacheRoot: root.path, configuration: configuration)
        #expect(damaged.rendered == uncached.rendered)
        #expect(damaged.statistics.misses == damage.count + 1, "\(damaged.statistics)")
        let warning = try #require(damaged.warning)
        #expect(!warning.contains("\n") && warning.hasPrefix("warning: cache: ignored \(damage.count + 1) unusable entries"), "\(warning) \(damaged.statistics)")
        try FileManager.default.removeItem(atPath: entries[damage.count])
        try Self.removeWholeRunEntries(root: root.path)
        let again = Self.lint(paths, cacheRoot: root.path, configuration: configuration)
        #expect(again.rendered == uncached.rendered)
        #expect(again.statistics.misses == 1 && again.warning == nil, "only the removed folder is rebuilt: \(again.statistics)")
    }

    /// An entry of the same path made by another build (another tool fingerprint in its header) is
    /// never used, even when copied into this build's folder.
    @Test func anotherBuildsEntryIsNeverUsed() throws {
        let folder = try Self.project(["Item.swift": "import CoreData\nfinal class Item: NSManagedObject { @NSManaged var title: String? }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        _ = Self.lint([folder.path], cacheRoot: root)
        let cache = ResultCache(root: root)
        let entry = try #require(try Self.entries(in: cache.folder).first)
        // The same length, so only the build in the header differs.
        let tool = ResultCache.toolFingerprint
        let other = String(tool.dropLast()) + (tool.last == "0" ? "1" : "0")
        var data = try Data(contentsOf: URL(fileURLWithPath: entry))
        let range = try #require(data.range(of: Data(tool.utf8)))
        data.replaceSubrange(range, with: Data(other.utf8))
        try data.write(to: URL(fileURLWithPath: entry))
        // The run state holds the file's result too (with this build's fingerprint): this is about the per-file entry.
        try Self.removeWholeRunEntries(root: root)
        let run = Self.lint([folder.path], cacheRoot: root)
        #expect(run.statistics.misses == 1 && run.statistics.unreadable == 1 && run.warning != nil)
    }

    /// A cache root that cannot be a folder (a regular file) or cannot be written turns the cache off
    /// for the run with one warning line; the findings are unchanged.
    @Test func anUnusableFolderIsIgnored() throws {
        let scratch = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("not-a-folder")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let configuration = try Self.examplesConfiguration()
        let paths = [Repository.path("Examples")]
        let uncached = Self.lint(paths, cacheRoot: nil, configuration: configuration)
        let run = Self.lint(paths, cacheRoot: file.path, configuration: configuration)
        #expect(run.rendered == uncached.rendered)
        let warning = try #require(run.warning)
        #expect(warning.hasPrefix("warning: cache: cannot use \(file.path)") && !warning.contains("\n"), "\(warning)")
        #expect(run.statistics == ResultCache.Statistics())
        let viaCommandLine = try Repository.run(["lint", "--quiet", "--cache-path", file.path, Repository.path("Examples")], in: scratch)
        #expect(viaCommandLine.status == 1 && viaCommandLine.stdout.split(separator: "\n").filter { !$0.contains(": note: ") }.count == 39)
        #expect(viaCommandLine.stderr.split(separator: "\n").filter { $0.contains("cache") }.count == 1, "\(viaCommandLine.stderr)")
        // The default folder, which nobody asked for, that cannot be used (a read-only home, a sandbox): the run goes on
        // without the cache and without a word; asked for with `--cache`, it is reported.
        let quiet = try Self.run(["lint", "--quiet", Repository.path("Examples")], cacheHome: file.path)
        #expect(quiet.status == 1 && quiet.stdout == viaCommandLine.stdout)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        let asked = try Self.run(["lint", "--quiet", "--cache", Repository.path("Examples")], cacheHome: file.path)
        #expect(asked.stdout == viaCommandLine.stdout)
        #expect(asked.stderr.split(separator: "\n").filter { $0.contains("warning: cache: cannot use \(file.path)/synclint") }.count == 1, "\(asked.stderr)")
    }

    /// Runs at once on one cache, in this process and as separate `synclint` processes: each gives
    /// the uncached findings, and what they leave behind serves a clean warm run.
    @Test func runsAtOnceShareTheCache() throws {
        let root = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let configuration = try Self.examplesConfiguration()
        let paths = [Repository.path("Examples")]
        let uncached = Self.lint(paths, cacheRoot: nil, configuration: configuration).rendered
        let outcomes = ResultSlots<[String]>(count: 3)
        DispatchQueue.concurrentPerform(iterations: 3) { outcomes[$0] = Self.lint(paths, cacheRoot: root.path, configuration: configuration).rendered }
        for outcome in outcomes.values { #expect(outcome == uncached) }

        let shared = root.appendingPathComponent("shared").path
        let processes = (0..<3).map { _ in Process() }
        let outputs = (0..<3).map { _ in Pipe() }
        for (process, output) in zip(processes, outputs) {
            process.executableURL = Repository.executable
            process.arguments = ["lint", "--quiet", "--cache-path", shared, Repository.path("Examples")]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }
        let texts = outputs.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        for process in processes { process.waitUntilExit() }
        let reference = try Repository.run(["lint", "--quiet", "--no-cache", Repository.path("Examples")], in: root)
        for (process, text) in zip(processes, texts) {
            #expect(process.terminationStatus == 1 && text == reference.stdout)
        }
        let warm = try Repository.run(["lint", "--quiet", "--timings", "--cache-path", shared, Repository.path("Examples")], in: root)
        #expect(warm.stdout == reference.stdout && warm.stderr.contains(" 0 parsed, 0 written, 0 unusable"), "\(warm.stderr)")
        let builds = try Self.buildFolders(in: shared)
        #expect(builds.count == 1)
        for build in builds { #expect(try Self.entries(in: shared + "/" + build).allSatisfy { !$0.contains(".tmp-") }) }
    }

    /// A file named alone is linted inside its project: the project's other files are walked for the
    /// index only, stored as such, and never stand in for a full walk when a later run reports them.
    @Test func filesWalkedForTheIndexAloneAreNotReusedForFindings() throws {
        let folder = try Self.project([
            "Item.swift": "import CoreData\nfinal class Item: NSManagedObject { @NSManaged var title: String? }\n",
            "Rename.swift": "func rename(_ item: Item, to title: String) {\n    Task.detached {\n        item.title = title\n    }\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let root = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let one = Self.lint([folder.appendingPathComponent("Item.swift").path], cacheRoot: root.path)
        #expect(one.result.findings.isEmpty && one.statistics.misses == 2)
        let whole = Self.lint([folder.path], cacheRoot: root.path)
        #expect(whole.result.findings.map(\.ruleID) == ["model_mutated_off_main"])
        #expect(whole.statistics.misses == 1, "Rename.swift was walked for the index alone: \(whole.statistics)")
        let other = Self.lint([folder.appendingPathComponent("Rename.swift").path], cacheRoot: root.path)
        #expect(other.statistics.misses == 0 && other.result.findings.map(\.ruleID) == ["model_mutated_off_main"])
    }

    /// Pruning keeps the folder under its bound (least recently used first), removes other builds'
    /// folders beyond the kept number and leftover temporary files, and never a folder it did not name.
    @Test func pruningBoundsTheCache() throws {
        let root = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let configuration = try Self.examplesConfiguration()
        _ = Self.lint([Repository.path("Examples")], cacheRoot: root.path, configuration: configuration)
        // Only per-file entries, whose sizes are summed below (the whole-run entry and run state are pruned alike).
        try Self.removeWholeRunEntries(root: root.path)
        let fileManager = FileManager.default
        for (age, name) in [(10.0, "0.0.1-aaaa"), (20, "0.0.1-bbbb"), (30, "0.0.1-cccc"), (40, "notes")] {
            try fileManager.createDirectory(atPath: root.path + "/" + name, withIntermediateDirectories: true)
            _ = fileManager.createFile(atPath: root.path + "/" + name + "/last-pruned", contents: Data())
            try fileManager.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: root.path + "/" + name + "/last-pruned")
        }
        var limits = ResultCache.Limits()
        let cache = ResultCache(root: root.path, limits: limits)
        let entries = try Self.entries(in: cache.folder)
        let sizes = try entries.map { try (fileManager.attributesOfItem(atPath: $0)[.size] as? NSNumber)?.intValue ?? 0 }
        let total = sizes.reduce(0, +)
        // The oldest third unused for long, one entry past the age bound, a temporary file left by a dead run.
        for (position, entry) in entries.enumerated() {
            let age: TimeInterval = position == 0 ? 40 * 24 * 3600 : position < entries.count / 3 ? 5 * 24 * 3600 : 60
            try fileManager.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: entry)
        }
        let leftover = entries[1] + ".tmp-1-2"
        _ = fileManager.createFile(atPath: leftover, contents: Data("x".utf8))
        try fileManager.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: leftover)
        limits.maximumBytes = total * 3 / 4
        ResultCache(root: root.path, limits: limits).prune(force: true)
        let kept = try Self.entries(in: cache.folder)
        let keptSize = try kept.map { try (fileManager.attributesOfItem(atPath: $0)[.size] as? NSNumber)?.intValue ?? 0 }.reduce(0, +)
        #expect(keptSize <= limits.maximumBytes * 4 / 5 && !kept.isEmpty)
        #expect(!kept.contains(entries[0]) && !kept.contains(entries[1]) && !fileManager.fileExists(atPath: leftover))
        #expect(kept.contains(entries[entries.count - 1]), "recently used entries stay")
        let builds = try fileManager.contentsOfDirectory(atPath: root.path).sorted()
        #expect(builds == ["0.0.1-aaaa", "0.0.1-bbbb", ResultCache.toolFingerprint, "notes"].sorted(), "\(builds)")
        // Within the interval, a run does not look over the folder again.
        let before = try fileManager.contentsOfDirectory(atPath: root.path)
        _ = fileManager.createFile(atPath: leftover, contents: Data("x".utf8))
        try fileManager.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: leftover)
        ResultCache(root: root.path, limits: limits).prune()
        let after = try fileManager.contentsOfDirectory(atPath: root.path)
        #expect(fileManager.fileExists(atPath: leftover) && after == before)
    }

    /// The content hash tells apart texts that differ in one byte, in length only, or in word order.
    @Test func contentHashesDifferForNearTexts() {
        let base = Array("struct Item { var title = \"\" }\n".utf8)
        var flipped = base
        flipped[5] ^= 1
        let variants: [[UInt8]] = [base, flipped, base + [0], Array(base.dropLast()), Array(base[8...] + base[..<8]), []]
        #expect(Set(variants.map(ContentHash.init)).count == variants.count)
        #expect(ContentHash(base) == ContentHash(Data(base)))
    }

    // MARK: - Helpers

    /// Runs the built `synclint` with `XDG_CACHE_HOME` set to `cacheHome`; returns its status and output.
    static func run(_ arguments: [String], cacheHome: String) throws -> Repository.RunResult {
        let process = Process()
        process.executableURL = Repository.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cacheHome
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Repository.RunResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                    stderr: String(decoding: errData, as: UTF8.self))
    }

    static func project(_ files: [String: String]) throws -> URL {
        let folder = try Repository.temporaryFolder()
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// The build folders under a cache root (the executable's build differs from this test process's).
    static func buildFolders(in root: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root).filter(ResultCache.isBuildFolderName)
    }

    /// Removes the whole-run entries of every build under a cache root, so the next run reads per-file entries.
    static func removeWholeRunEntries(root: String) throws {
        for build in try buildFolders(in: root) {
            try? FileManager.default.removeItem(atPath: root + "/" + build + "/" + ResultCache.runsFolderName)
        }
    }

    /// The entry files of a build's folder, sorted.
    static func entries(in folder: String) throws -> [String] {
        let fileManager = FileManager.default
        return try fileManager.contentsOfDirectory(atPath: folder).filter { $0.count == 2 }.flatMap { shard in
            try fileManager.contentsOfDirectory(atPath: folder + "/" + shard).map { folder + "/" + shard + "/" + $0 }
        }.sorted()
    }
}
