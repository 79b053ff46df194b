import Foundation
import Testing
@testable import SyncLintKit

/// The cache's whole-run entry (`ResultCache.storedRun`): a rerun whose files, resources and configurations
/// are all unchanged reports the stored result without reading a per-file entry or a source; any change
/// (a file added, removed, edited, touched; the configuration) falls back to the per-file entries, and a
/// damaged whole-run entry is ignored with one warning line. And `CompactCoding`, the entries' encoding.
@Suite(.serialized) struct WholeRunCacheTests {
    /// Stamps are trusted at once: these files were written a moment ago, and the tests change them
    /// with atomic writes (a new inode each time), which no stamp can miss.
    static var settled: ResultCache.Limits {
        var limits = ResultCache.Limits()
        limits.stampSettleTime = 0
        return limits
    }

    static let item = "import CoreData\nfinal class Item: NSManagedObject { @NSManaged var title: String? }\n"
    static let rename = "func rename(_ item: Item, to title: String) {\n    Task.detached {\n        item.title = title\n    }\n}\n"

    static func lint(_ folder: URL, root: String, configuration: Configuration = Configuration.withStockRules) -> ResultCacheTests.Run {
        ResultCacheTests.lint([folder.path], cacheRoot: root, configuration: configuration, limits: settled)
    }

    static func uncached(_ folder: URL, configuration: Configuration = Configuration.withStockRules) -> ResultCacheTests.Run {
        ResultCacheTests.lint([folder.path], cacheRoot: nil, configuration: configuration)
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Each change misses the whole-run entry, gives what a run without a cache gives, and stores the
    /// entry again for the next unchanged run, which reads nothing else.
    @Test func everyChangeMissesTheWholeRunEntryAndTheNextRunReusesIt() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path

        func expectReused(after change: String, configuration: Configuration = Configuration.withStockRules) {
            let again = Self.lint(folder, root: root, configuration: configuration)
            #expect(again.statistics.wholeRunReused, "after \(change): \(again.statistics)")
            #expect(again.statistics.stampHits + again.statistics.contentHits + again.statistics.misses == 0,
                    "after \(change), no per-file entry is read: \(again.statistics)")
            #expect(again.rendered == Self.uncached(folder, configuration: configuration).rendered, "after \(change)")
        }

        let cold = Self.lint(folder, root: root)
        #expect(cold.statistics.wholeRunStored && !cold.statistics.wholeRunReused && cold.statistics.misses == 2)
        #expect(cold.result.findings.map(\.ruleID) == ["model_mutated_off_main"])
        expectReused(after: "nothing")

        // A file added: parsed alone, the others from their entries.
        try Self.write("struct Note { var text = \"\" }\n", "Note.swift", in: folder)
        let added = Self.lint(folder, root: root)
        #expect(!added.statistics.wholeRunReused && added.statistics.misses == 1 && added.statistics.stampHits == 2, "\(added.statistics)")
        #expect(added.rendered == Self.uncached(folder).rendered && added.statistics.wholeRunStored)
        expectReused(after: "a file added")

        // A file removed: nothing parsed, yet the stored whole run (three files) is not the answer.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Note.swift"))
        let removed = Self.lint(folder, root: root)
        #expect(!removed.statistics.wholeRunReused && removed.statistics.misses == 0 && removed.statistics.stampHits == 2, "\(removed.statistics)")
        #expect(removed.result.filesLinted == 2 && removed.rendered == Self.uncached(folder).rendered)
        expectReused(after: "a file removed")

        // A file edited so that another file's finding goes away.
        try Self.write("final class Item { var title: String? }\n", "Item.swift", in: folder)
        let edited = Self.lint(folder, root: root)
        #expect(!edited.statistics.wholeRunReused && edited.statistics.misses == 1, "\(edited.statistics)")
        #expect(edited.result.findings.isEmpty && edited.rendered == Self.uncached(folder).rendered)
        expectReused(after: "a file edited")

        // A file written again with the same bytes: its stamp moved, its content did not.
        try Self.write("final class Item { var title: String? }\n", "Item.swift", in: folder)
        let touched = Self.lint(folder, root: root)
        #expect(!touched.statistics.wholeRunReused && touched.statistics.misses == 0 && touched.statistics.contentHits == 1, "\(touched.statistics)")
        #expect(touched.rendered == Self.uncached(folder).rendered)
        expectReused(after: "a file touched")

        // The configuration changed: a rule's severity (no walk depends on it, the result does), then a rule off.
        try Self.write(Self.item, "Item.swift", in: folder)
        _ = Self.lint(folder, root: root)
        var severe = Configuration.withStockRules
        severe.severityOverrides["model_mutated_off_main"] = .error
        let reseverity = Self.lint(folder, root: root, configuration: severe)
        #expect(!reseverity.statistics.wholeRunReused && reseverity.statistics.misses == 0, "\(reseverity.statistics)")
        #expect(reseverity.result.findings.map(\.severity) == [.error] && reseverity.rendered == Self.uncached(folder, configuration: severe).rendered)
        expectReused(after: "a severity changed", configuration: severe)
        var off = Configuration.withStockRules
        off.disabledRules = ["model_mutated_off_main"]
        let disabled = Self.lint(folder, root: root, configuration: off)
        #expect(!disabled.statistics.wholeRunReused && disabled.result.findings.isEmpty, "\(disabled.statistics)")
        expectReused(after: "a rule turned off", configuration: off)
    }

    /// A configuration file whose bytes change misses the whole-run entry, even when the change (a
    /// comment) changes nothing the run reads: every key counts, including one this check forgot.
    @Test func aConfigurationFileEditedMissesTheWholeRunEntry() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        let file = folder.appendingPathComponent(".synclint.yml")
        func run() throws -> ResultCacheTests.Run {
            let configuration = try Configuration.load(path: file.path, rules: RuleRegistry.allDescriptions)
            let tree = ConfigurationTree(main: configuration, nestedLookup: true, rules: RuleRegistry.allDescriptions)
            let cache = ResultCache(root: root, limits: Self.settled)
            let result = Linter.lintInProjects(paths: [folder.path], configurations: tree, cache: cache)
            return ResultCacheTests.Run(result: result, statistics: cache.statistics, warning: cache.finish())
        }
        try "opt_in_rules: [model_mutated_off_main]\n".write(to: file, atomically: true, encoding: .utf8)
        let first = try run()
        #expect(first.statistics.wholeRunStored && first.result.findings.count == 1)
        #expect(try run().statistics.wholeRunReused)
        try "opt_in_rules: [model_mutated_off_main]  # reviewed\n".write(to: file, atomically: true, encoding: .utf8)
        let commented = try run()
        #expect(!commented.statistics.wholeRunReused && commented.statistics.misses == 0 && commented.result.findings.count == 1,
                "\(commented.statistics)")
        // A nested configuration added in a subfolder changes the chain of the files below it.
        let sub = folder.appendingPathComponent("Sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Self.write(Self.rename, "Rename.swift", in: sub)
        _ = try run()
        #expect(try run().statistics.wholeRunReused)
        try "disabled_rules: [model_mutated_off_main]\n".write(to: sub.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let nested = try run()
        #expect(!nested.statistics.wholeRunReused && nested.result.findings.count == 1, "only the top-level Rename.swift reports: \(nested.result.findings)")
    }

    /// A truncated, flipped or foreign whole-run entry is ignored with one warning line; the run's
    /// findings are those of a run without a cache, and the entry is written again.
    @Test func aDamagedWholeRunEntryIsIgnored() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        let uncached = Self.uncached(folder)
        _ = Self.lint(folder, root: root)
        let runs = ResultCache(root: root).folder + "/" + ResultCache.runsFolderName
        let damage: [(String, (Data) -> Data)] = [
            ("truncated payload", { $0.prefix($0.count - 5) }),
            ("truncated header", { $0.prefix(25) }),
            ("empty", { _ in Data() }),
            ("flipped payload byte", { var data = $0; data[data.count - 3] ^= 0x40; return data }),
            ("garbage", { _ in Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 91) }) }),
        ]
        for (name, change) in damage {
            // The run state (`RunStateCacheTests`) and its pointer (`StatePreload`) lie beside the whole-run entry.
            let entries = try FileManager.default.contentsOfDirectory(atPath: runs).filter { !$0.hasSuffix(".state") && !$0.hasSuffix(".latest") }
            #expect(entries.count == 1, "\(name): \(entries)")
            let entry = runs + "/" + (entries.first ?? "")
            try change(try Data(contentsOf: URL(fileURLWithPath: entry))).write(to: URL(fileURLWithPath: entry))
            let damaged = Self.lint(folder, root: root)
            #expect(!damaged.statistics.wholeRunReused && damaged.rendered == uncached.rendered, "\(name)")
            #expect(damaged.statistics.stampHits == 2 && damaged.statistics.wholeRunStored, "\(name): \(damaged.statistics)")
            let warning = try #require(damaged.warning, "\(name)")
            #expect(warning.hasPrefix("warning: cache: ignored 1 unusable entry") && !warning.contains("\n"), "\(name): \(warning)")
            let next = Self.lint(folder, root: root)
            #expect(next.statistics.wholeRunReused && next.warning == nil && next.rendered == uncached.rendered, "\(name)")
        }
    }

    /// A file walked for a buffer from standard input is never answered from, or stored as, a whole run.
    @Test func aBufferIsNeverAnsweredByTheWholeRunEntry() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let root = folder.appendingPathComponent(".cache").path
        _ = Self.lint(folder, root: root)
        let buffer = SourceInput(path: folder.appendingPathComponent("Rename.swift").path, text: "func rename() {}\n")
        for _ in 0..<2 {
            let cache = ResultCache(root: root, limits: Self.settled)
            let result = Linter.lintInProjects(paths: [], standardInput: buffer, configurations: .single(Configuration.withStockRules), cache: cache)
            #expect(result.findings.isEmpty && !cache.statistics.wholeRunReused && !cache.statistics.wholeRunStored)
        }
    }

    // MARK: - CompactCoding

    /// Every Examples file's result, encoded compactly and decoded, is what it was (compared through JSON, which
    /// spells out every field), and the payload is smaller than JSON's.
    @Test func compactCodingRoundTripsEveryExampleFile() throws {
        let folder = Repository.path("Examples")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        let plan = Linter.makeGroup(try ResultCacheTests.examplesConfiguration(), enableAllRules: true).plan
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys]
        var compactBytes = 0, jsonBytes = 0
        for file in files {
            let path = folder + "/" + file
            let result = Linter.analyze(path: path, text: try String(contentsOfFile: path, encoding: .utf8), plan: plan)
            let stored = ResultCache.StoredResult(facts: result.facts, pending: result.pending, suppression: result.suppression, warning: result.warning)
            let compact = try CompactCoding.encode(stored)
            let decoded = try CompactCoding.decode(ResultCache.StoredResult.self, from: compact)
            let expected = try json.encode(stored)
            #expect(try Self.canonical(json.encode(decoded)) == Self.canonical(expected), "\(file)")
            compactBytes += compact.count
            jsonBytes += expected.count
        }
        #expect(compactBytes * 2 < jsonBytes, "compact \(compactBytes) bytes, JSON \(jsonBytes)")
    }

    /// JSON text with every array's elements sorted: a `Set` is stored in its iteration order, which two equal
    /// sets need not share.
    static func canonical(_ json: Data) throws -> String {
        func render(_ value: Any) -> String {
            if let array = value as? [Any] { return "[" + array.map(render).sorted().joined(separator: ",") + "]" }
            if let object = value as? [String: Any] {
                return "{" + object.keys.sorted().map { "\($0):" + render(object[$0]!) }.joined(separator: ",") + "}"
            }
            return "\(value)"
        }
        return render(try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]))
    }

    struct Sample: Codable, Equatable {
        enum Shape: Codable, Equatable { case dot, line(length: Int, label: String?), named(String) }
        var empty = Empty()
        var optionalEmpty: Empty? = Empty()
        var missing: Int?
        var present: Int? = -7
        var big = Int64.min
        var unsigned = UInt64.max
        var ratio = -0.125
        var small: Float = 1.5
        var flag = true
        var text = "déjà vu 🎈"
        var texts = ["", "a", "a"]
        var optionals: [String?] = [nil, "x", nil]
        var nested: [[Int]] = [[], [1, -1], [Int.max]]
        var byName = ["b": 2, "a": 1]
        var byNumber = [3: "three", -1: "minus one"]
        var shapes: [Shape] = [.dot, .line(length: 3, label: nil), .line(length: 0, label: "x"), .named("n")]
        var set: Set<String> = ["p", "q"]
        struct Empty: Codable, Equatable {}
    }

    /// Every kind of value Codable offers survives a round trip; damaged payloads throw, never crash.
    @Test func compactCodingKeepsEveryKindOfValueAndRefusesDamage() throws {
        let sample = Sample()
        let encoded = try CompactCoding.encode(sample)
        #expect(try CompactCoding.decode(Sample.self, from: encoded) == sample)
        #expect(try CompactCoding.decode([Int?].self, from: try CompactCoding.encode([1, nil, 3] as [Int?])) == [1, nil, 3])
        #expect(try CompactCoding.decode(String.self, from: try CompactCoding.encode("top")) == "top")
        for cut in 0..<encoded.count {
            _ = try? CompactCoding.decode(Sample.self, from: encoded.prefix(cut))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var damaged = encoded
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? CompactCoding.decode(Sample.self, from: damaged)
        }
        #expect(throws: (any Error).self) { try CompactCoding.decode(Sample.self, from: encoded.prefix(encoded.count / 2)) }
    }
}
