import Foundation
import Testing
@testable import SyncLintKit

/// The cache's run state (`ResultCache.RunState`): one entry with every file's result of the last run over the
/// same paths and configurations. A run where some files changed takes the others from it (no per-file entry
/// read) and gives exactly what a run without a cache gives, whatever changed: a file edited, added, removed,
/// renamed, touched; a damaged state is ignored with one warning line.
@Suite(.serialized) struct RunStateCacheTests {
    /// Stamps trusted at once, and the state written again after any change (no slack).
    static var limits: ResultCache.Limits {
        var limits = WholeRunCacheTests.settled
        limits.runStateSlack = 0
        return limits
    }

    static func lint(_ folder: URL, root: String, limits: ResultCache.Limits = Self.limits) -> ResultCacheTests.Run {
        ResultCacheTests.lint([folder.path], cacheRoot: root, limits: limits)
    }

    static func uncached(_ folder: URL) -> [String] { ResultCacheTests.lint([folder.path], cacheRoot: nil).rendered }

    /// The run states under a cache root (one per run identity and build).
    static func states(root: String) throws -> [String] {
        try ResultCacheTests.buildFolders(in: root).flatMap { build -> [String] in
            let runs = root + "/" + build + "/" + ResultCache.runsFolderName
            return ((try? FileManager.default.contentsOfDirectory(atPath: runs)) ?? []).filter { $0.hasSuffix(".state") }.map { runs + "/" + $0 }
        }
    }

    /// Removes the whole-run entries but not the run states (nor the pointers to them), so an unchanged run reads the state.
    static func removeWholeRunEntriesOnly(root: String) throws {
        for build in try ResultCacheTests.buildFolders(in: root) {
            let runs = root + "/" + build + "/" + ResultCache.runsFolderName
            for name in try FileManager.default.contentsOfDirectory(atPath: runs) where !name.hasSuffix(".state") && !name.hasSuffix(".latest") {
                try FileManager.default.removeItem(atPath: runs + "/" + name)
            }
        }
    }

    static let item = WholeRunCacheTests.item
    static let rename = WholeRunCacheTests.rename

    @Test func everyKindOfChangeGivesTheUncachedOutputAndReadsOnlyTheChangedFiles() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename, "Note.swift": "struct Note { var text = \"\" }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        func write(_ text: String, _ name: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        let cold = Self.lint(folder, root: root)
        #expect(cold.statistics.misses == 3 && cold.statistics.stateHits == 0 && cold.statistics.stateStored, "\(cold.statistics)")
        #expect(cold.result.findings.map(\.ruleID) == ["model_mutated_off_main"])
        #expect(try Self.states(root: root).count == 1)

        // Nothing changed, whole-run entry gone: every file from the state, which is not written again.
        try Self.removeWholeRunEntriesOnly(root: root)
        let unchanged = Self.lint(folder, root: root)
        #expect(unchanged.statistics.stateHits == 3 && unchanged.statistics.stampHits == 3 && unchanged.statistics.misses == 0, "\(unchanged.statistics)")
        #expect(!unchanged.statistics.stateStored && unchanged.rendered == Self.uncached(folder))

        // The model edited: the other file's finding, taken from the state, is resolved against the new index.
        try write("final class Item { var title: String? }\n", "Item.swift")
        let edited = Self.lint(folder, root: root)
        #expect(edited.statistics.misses == 1 && edited.statistics.stateHits == 2 && edited.statistics.stateStored, "\(edited.statistics)")
        #expect(edited.result.findings.isEmpty && edited.rendered == Self.uncached(folder))

        // And back: the finding returns.
        try write(Self.item, "Item.swift")
        let restored = Self.lint(folder, root: root)
        #expect(restored.statistics.stateHits == 2 && restored.result.findings.map(\.ruleID) == ["model_mutated_off_main"])
        #expect(restored.rendered == Self.uncached(folder))

        // A file added.
        try write("struct Tag { let name: String }\n", "Tag.swift")
        let added = Self.lint(folder, root: root)
        #expect(added.statistics.misses == 1 && added.statistics.stateHits == 3 && added.statistics.stateStored, "\(added.statistics)")
        #expect(added.rendered == Self.uncached(folder))

        // A file removed: nothing parsed, the state written without it.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Tag.swift"))
        let removed = Self.lint(folder, root: root)
        #expect(removed.statistics.misses == 0 && removed.statistics.stateHits == 3 && removed.statistics.stateStored, "\(removed.statistics)")
        #expect(removed.result.filesLinted == 3 && removed.rendered == Self.uncached(folder))

        // The model file renamed: a new path, so parsed (its old entry is another path's); the finding stays.
        try FileManager.default.moveItem(at: folder.appendingPathComponent("Item.swift"), to: folder.appendingPathComponent("Model.swift"))
        let renamed = Self.lint(folder, root: root)
        #expect(renamed.statistics.misses == 1 && renamed.statistics.stateHits == 2, "\(renamed.statistics)")
        #expect(renamed.result.findings.map(\.ruleID) == ["model_mutated_off_main"] && renamed.rendered == Self.uncached(folder))

        // Written again with the same bytes: the stamp moved, the content did not; taken from the state by content.
        try write("struct Note { var text = \"\" }\n", "Note.swift")
        let touched = Self.lint(folder, root: root)
        #expect(touched.statistics.misses == 0 && touched.statistics.contentHits == 1 && touched.statistics.stateHits == 3, "\(touched.statistics)")
        #expect(touched.statistics.stateStored && touched.rendered == Self.uncached(folder))

        // The edited model where the finding's file is renamed too: both at once.
        try write("final class Item { var title: String? }\n", "Model.swift")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("Rename.swift"), to: folder.appendingPathComponent("Renaming.swift"))
        let both = Self.lint(folder, root: root)
        #expect(both.statistics.misses == 2 && both.statistics.stateHits == 1, "\(both.statistics)")
        #expect(both.result.findings.isEmpty && both.rendered == Self.uncached(folder))
        #expect(both.warning == nil && cold.warning == nil)
        // One state for the one identity, rewritten in place.
        #expect(try Self.states(root: root).count == 1)
    }

    /// A changed configuration never takes a file's result from a state made with another.
    @Test func anotherConfigurationsStateIsNotUsed() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        _ = Self.lint(folder, root: root)
        var off = Configuration.withStockRules
        off.disabledRules = ["model_mutated_off_main"]
        let disabled = ResultCacheTests.lint([folder.path], cacheRoot: root, configuration: off, limits: Self.limits)
        #expect(disabled.statistics.stateHits == 0 && disabled.statistics.misses == 2 && disabled.result.findings.isEmpty, "\(disabled.statistics)")
        // Each configuration has its own state: going back (without the whole-run entries) takes the first one's results.
        try Self.removeWholeRunEntriesOnly(root: root)
        let back = Self.lint(folder, root: root)
        #expect(back.statistics.stateHits == 2 && back.statistics.misses == 0 && back.result.findings.map(\.ruleID) == ["model_mutated_off_main"],
                "\(back.statistics)")
        #expect(try Self.states(root: root).count == 2)
    }

    /// With the default slack, a run that took one or two files from elsewhere leaves the state as it was; the next
    /// runs find those files in their own entries and give the uncached output, and the state is written again once
    /// more files than the slack changed.
    @Test func aFewChangedFilesLeaveTheStateAsItWas() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename, "Note.swift": "struct Note {}\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        var slack = WholeRunCacheTests.settled
        slack.runStateSlack = 2
        func write(_ text: String, _ name: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        #expect(Self.lint(folder, root: root, limits: slack).statistics.stateStored)
        try write("final class Item { var title: String? }\n", "Item.swift")
        let edited = Self.lint(folder, root: root, limits: slack)
        #expect(edited.statistics.misses == 1 && edited.statistics.stateHits == 2 && !edited.statistics.stateStored, "\(edited.statistics)")
        #expect(edited.result.findings.isEmpty && edited.rendered == Self.uncached(folder))
        // Nothing changed since: the edited file from its own entry (by stamp), the others from the state.
        try Self.removeWholeRunEntriesOnly(root: root)
        let again = Self.lint(folder, root: root, limits: slack)
        #expect(again.statistics.misses == 0 && again.statistics.stampHits == 3 && again.statistics.stateHits == 2, "\(again.statistics)")
        #expect(!again.statistics.stateStored && again.rendered == Self.uncached(folder))
        // Back to the first version: taken from the state by its content, and the file's own entry brought up to date,
        // so a run with another key (a severity changed: the same walk, another result) parses nothing either.
        try write(Self.item, "Item.swift")
        let back = Self.lint(folder, root: root, limits: slack)
        #expect(back.statistics.misses == 0 && back.statistics.contentHits == 1 && back.statistics.stateHits == 3, "\(back.statistics)")
        #expect(back.rendered == Self.uncached(folder))
        var severe = Configuration.withStockRules
        severe.severityOverrides["model_mutated_off_main"] = .error
        let other = ResultCacheTests.lint([folder.path], cacheRoot: root, configuration: severe, limits: slack)
        #expect(other.statistics.misses == 0 && other.statistics.stateHits == 0, "\(other.statistics)")
        #expect(other.rendered == ResultCacheTests.lint([folder.path], cacheRoot: nil, configuration: severe).rendered)
        // A file removed and another added: with the edited one, three files are not the state's; it is written again.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Note.swift"))
        try write("struct Tag {}\n", "Tag.swift")
        let moved = Self.lint(folder, root: root, limits: slack)
        #expect(moved.statistics.misses == 1 && moved.statistics.stateStored && moved.rendered == Self.uncached(folder), "\(moved.statistics)")
        try Self.removeWholeRunEntriesOnly(root: root)
        let settled = Self.lint(folder, root: root, limits: slack)
        #expect(settled.statistics.stateHits == 3 && !settled.statistics.stateStored && settled.rendered == Self.uncached(folder), "\(settled.statistics)")
    }

    /// A truncated, corrupt, foreign or unreadable state is ignored with one warning line; the files then come
    /// from their own entries, the output is the uncached one, and a good state is written again.
    @Test func aDamagedStateIsIgnored() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        _ = Self.lint(folder, root: root)
        let state = try #require(try Self.states(root: root).first)
        let good = try Data(contentsOf: URL(fileURLWithPath: state))
        let damage: [(String, (Data) -> Data)] = [
            ("truncated", { $0.prefix($0.count - 5) }),
            ("flipped byte", { var data = $0; data[data.count - 3] ^= 0x40; return data }),
            ("older format", { Data("SYNCLINT-STATE-0\n".utf8) + $0.dropFirst(ResultCache.stateMagic.count) }),
            ("empty", { _ in Data() }),
            ("garbage", { _ in Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31) }) }),
        ]
        for (name, change) in damage {
            try change(good).write(to: URL(fileURLWithPath: state))
            try Self.removeWholeRunEntriesOnly(root: root)
            let run = Self.lint(folder, root: root)
            #expect(run.rendered == Self.uncached(folder), "\(name)")
            #expect(run.statistics.stateHits == 0 && run.statistics.stampHits == 2 && run.statistics.stateStored, "\(name): \(run.statistics)")
            let warning = try #require(run.warning, "\(name)")
            #expect(warning.hasPrefix("warning: cache: ignored 1 unusable entry") && warning.contains("the run state") && !warning.contains("\n"), "\(name): \(warning)")
            // Written again whole: the next run uses it without a warning.
            try Self.removeWholeRunEntriesOnly(root: root)
            let next = Self.lint(folder, root: root)
            #expect(next.statistics.stateHits == 2 && next.warning == nil, "\(name): \(next.statistics)")
        }
        // A folder where the state should be: unreadable, ignored, and the run still right.
        try FileManager.default.removeItem(atPath: state)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        try Self.removeWholeRunEntriesOnly(root: root)
        let blocked = Self.lint(folder, root: root)
        #expect(blocked.rendered == Self.uncached(folder) && blocked.statistics.stateHits == 0 && blocked.warning != nil)
    }

    /// The last state stored for a run over the same paths is read, and its files decoded, while discovery walks the
    /// folders (`StatePreload`): each file's result is the one the run would decode itself, given once; a run of
    /// another identity (another configuration) gets nothing from it, and every run gives the uncached output.
    @Test func theLastStateIsDecodedAheadOnlyForItsOwnRun() throws {
        let folder = try ResultCacheTests.project(["Item.swift": Self.item, "Rename.swift": Self.rename, "Note.swift": "struct Note {}\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.appendingPathComponent(".cache").path
        _ = Self.lint(folder, root: root)
        let cache = ResultCache(root: root, limits: Self.limits)
        let runs = cache.folder + "/" + ResultCache.runsFolderName
        let pointers = try FileManager.default.contentsOfDirectory(atPath: runs).filter { $0.hasSuffix(".latest") }
        #expect(pointers.count == 1)
        let statePath = try #require(try Self.states(root: root).first)
        let stored = try #require(ResultCache.decodeState(try Data(contentsOf: URL(fileURLWithPath: statePath)), tool: cache.tool, identity: nil))
        #expect(stored.order.count == 3 && stored.order == stored.order.sorted())

        let preload = StatePreload(cache: cache, pointerPath: runs + "/" + pointers[0])
        preload.waitUntilDone()
        #expect(preload.state(for: stored.identity)?.order == stored.order)
        for path in stored.order {
            let ahead = try #require(preload.take(path), "\(path)")
            let record = try #require(stored.files[path])
            let own = try #require(cache.decodedStored(record.payload, shownAs: path))
            // What orders the same in both (sets are encoded in their iteration order, which differs between equal sets).
            let shape = { (result: Linter.FileResult) in
                "\(result.facts.types.map(\.qualifiedName)) \(result.facts.functionSummaries.map(\.key)) \(result.facts.functionSummaries.map(\.calls.count)) "
                    + "\(result.pending.map(\.ruleID)) \(result.pending.map(\.location)) \(result.suppression == nil) \(result.warning ?? "")"
            }
            #expect(shape(ahead) == shape(own) && !ahead.facts.functionSummaries.isEmpty == (path.hasSuffix("Rename.swift")), "\(path)")
            #expect(preload.take(path) == nil, "given once: \(path)")
        }
        // Another identity: nothing, and nothing more decoded.
        let other = StatePreload(cache: cache, pointerPath: runs + "/" + pointers[0])
        #expect(other.state(for: stored.identity + "x") == nil)
        other.waitUntilDone()
        #expect(stored.order.allSatisfy { other.take($0) == nil })

        // Through runs: an edit, then another configuration, each the uncached output.
        try "final class Item { var title: String? }\n".write(to: folder.appendingPathComponent("Item.swift"), atomically: true, encoding: .utf8)
        let edited = Self.lint(folder, root: root)
        #expect(edited.statistics.misses == 1 && edited.statistics.stateHits == 2 && edited.statistics.stateDecodedAhead <= 2, "\(edited.statistics)")
        #expect(edited.result.findings.isEmpty && edited.rendered == Self.uncached(folder) && edited.warning == nil)
        var off = Configuration.withStockRules
        off.disabledRules = ["model_mutated_off_main"]
        let disabled = ResultCacheTests.lint([folder.path], cacheRoot: root, configuration: off, limits: Self.limits)
        #expect(disabled.statistics.stateHits == 0 && disabled.statistics.stateDecodedAhead == 0, "\(disabled.statistics)")
        #expect(disabled.rendered == ResultCacheTests.lint([folder.path], cacheRoot: nil, configuration: off).rendered)
    }

    /// Every strict prefix of a state, and a state of another identity or build, is refused; the whole one reads back.
    @Test func theStateLayoutRoundTripsAndRefusesEveryTruncation() throws {
        let stamp = FileStamp(size: 12, inode: 7, device: 3, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 5,
                              changedSeconds: -2, changedNanoseconds: 999_999_999)
        let records: [(path: String, file: ResultCache.StateFile)] = [
            ("/p/A.swift", .init(fingerprint: "chain a", stamp: stamp, stampTrusted: true, content: ContentHash(Array("a".utf8)), payload: Data([1, 2, 3]))),
            ("/p/B é.swift", .init(fingerprint: "index only", stamp: stamp, stampTrusted: false, content: ContentHash(Array("b".utf8)), payload: Data())),
            ("/p/C.swift", .init(fingerprint: "chain a", stamp: stamp, stampTrusted: true, content: ContentHash(Array("c".utf8)), payload: Data(repeating: 9, count: 300))),
        ]
        let data = ResultCache.encodeState(records, tool: "tool", identity: "identity")
        let state = try #require(ResultCache.decodeState(data, tool: "tool", identity: "identity"))
        #expect(state.files.count == 3)
        for (path, file) in records {
            let read = try #require(state.files[path])
            #expect(read.fingerprint == file.fingerprint && read.stamp == file.stamp && read.stampTrusted == file.stampTrusted)
            #expect(read.content == file.content && read.payload == file.payload && !read.unchangedFromState)
        }
        for length in 0..<data.count {
            #expect(ResultCache.decodeState(data.prefix(length), tool: "tool", identity: "identity") == nil, "prefix of \(length) bytes")
        }
        #expect(ResultCache.decodeState(data, tool: "tool", identity: "other") == nil)
        #expect(ResultCache.decodeState(data, tool: "other", identity: "identity") == nil)
        #expect(ResultCache.decodeState(data + Data([0]), tool: "tool", identity: "identity") == nil)
    }
}
