import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk cache of per-file results (`lint`): a file's facts, pending findings, suppression
/// comments and warning, kept from one run to the next so that a rerun parses and walks only the
/// files that changed. The project's index is always rebuilt from the cached facts and every
/// pending finding resolved again, since a finding can depend on another file.
///
/// An entry is found by the file's path and used only when all of these match:
/// - the build of SyncLint (`toolFingerprint`: version, cache format, rule set, and the executable's
///   size and modification time, so a development build with changed rules never reuses entries);
///   each build has its own folder under the root;
/// - the file's content: its `stat` stamp (size, inode, modification and change times) when the
///   stamp was taken more than two seconds after the file last changed, else its bytes'
///   `ContentHash` (a warm run reads no source whose stamp is unchanged);
/// - the rules that walk it (`RuleGroup.fingerprint`: its chain of configurations, enabled syntax
///   rules and their options).
///
/// Safe by construction: an entry is written to a temporary file and renamed into place, so a
/// reader sees a whole entry or none; each entry carries a hash of its payload, so a truncated or
/// corrupt one is noticed, ignored and rebuilt (one warning line per run); a folder that cannot be
/// created or written turns the cache off for the run, with one warning line.
public final class ResultCache: @unchecked Sendable {
    /// Bumped whenever the entry layout or what it stores changes.
    static let formatVersion = 3

    /// How entries' headers and payloads are encoded. `compact` (`CompactCoding`) is what SyncLint uses; the
    /// others stay for `Benchmarks/cache.sh`, which compares them (`SYNCLINT_CACHE_CODEC=json|plist|compact`):
    /// on 447k lines, decoding JSON entries cost as much CPU as parsing the sources (README, "The cache's speed").
    enum Codec: String, Sendable {
        case json, plist, compact

        static let current: Codec = ProcessInfo.processInfo.environment["SYNCLINT_CACHE_CODEC"].flatMap(Codec.init(rawValue:)) ?? .compact

        func encode<Value: Encodable>(_ value: Value) throws -> Data {
            switch self {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return try encoder.encode(value)
            case .plist:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                return try encoder.encode(value)
            case .compact: return try CompactCoding.encode(value)
            }
        }

        func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
            switch self {
            case .json: return try JSONDecoder().decode(type, from: data)
            case .plist: return try PropertyListDecoder().decode(type, from: data)
            case .compact: return try CompactCoding.decode(type, from: data)
            }
        }
    }
    /// Entries start with this, then the header's length (4 bytes, little-endian), the header and the payload.
    static let magic = Array("SYNCLINT-CACHE-\(formatVersion)\n".utf8)

    /// Bounds (documented in the README): at most `maximumBytes` of entries in a build's folder, the
    /// least recently used removed first; entries unused for `maximumAge` removed; the folders of at
    /// most `keptBuilds` builds kept.
    public struct Limits: Sendable {
        public var maximumBytes: Int = 512 * 1024 * 1024
        public var maximumAge: TimeInterval = 30 * 24 * 3600
        public var keptBuilds = 3
        /// How often a run looks over the folder to prune it.
        public var pruneInterval: TimeInterval = 3600
        /// How long after a file last changed its stamp is trusted alone (`FileStamp.isRacy`); tests shorten it.
        public var stampSettleTime: TimeInterval = 2
        /// How many files a run may take from elsewhere than its run state (edited, added, touched, removed ones)
        /// before it writes the state again. Below it the state is left as it was: the next run finds those few
        /// files in their own entries (written when they were parsed), and a one-file edit does not rewrite the
        /// state, which is about as large as all the entries together. Tests set 0.
        public var runStateSlack = 16

        public init() {}
    }

    /// How a run used the cache, for `--timings` and tests.
    public struct Statistics: Sendable, Equatable {
        /// Entries used because the file's stamp was unchanged: the source was not read.
        public var stampHits = 0
        /// Entries used after reading the file and finding its bytes unchanged.
        public var contentHits = 0
        /// Files parsed and walked (no entry, or an entry that no longer matched).
        public var misses = 0
        public var writes = 0
        /// Entries that could not be read or decoded (corrupt, truncated, another format).
        public var unreadable = 0
        /// Xcode projects taken from their entries instead of parsing their `project.pbxproj`.
        public var projectHits = 0
        /// Whether the run's result came whole from its whole-run entry (no per-file entry read, no source read).
        public var wholeRunReused = false
        /// Whether the run stored its result as a whole-run entry.
        public var wholeRunStored = false
        /// Files whose result came from the run state (`RunState`), counted in `stampHits` or `contentHits` too.
        public var stateHits = 0
        /// Whether the run wrote its run state.
        public var stateStored = false
        /// Files of `stateHits` whose result was decoded while discovery ran (`StatePreload`).
        public var stateDecodedAhead = 0
    }

    /// The cache's root (`--cache-path`, `cache_path:` or the user's cache folder).
    public let root: String
    /// This build's folder under the root.
    public let folder: String
    let tool: String
    let limits: Limits
    let lock = NSLock()
    private var stats = Statistics()
    private var problem: String?
    var disabled = false
    private var firstUnreadable: String?

    /// The cache under `root`; nothing is touched on disk until the first entry is looked up.
    public init(root: String, limits: Limits = Limits()) {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.path
        self.limits = limits
        tool = Self.toolFingerprint
        folder = self.root + "/" + tool
        prepareFolder()
    }

    /// `$XDG_CACHE_HOME/synclint` when it is set to an absolute path (on macOS too, so a CI job or a test can move
    /// it), else `~/Library/Caches/synclint` on macOS and `~/.cache/synclint` elsewhere.
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/synclint" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        #if os(macOS)
        return home + "/Library/Caches/synclint"
        #else
        return home + "/.cache/synclint"
        #endif
    }

    /// Whether the cache's folder could not be made or written: the run goes on without the cache.
    public var isUnusable: Bool { lock.withLock { disabled } }

    public var statistics: Statistics { lock.withLock { stats } }

    // MARK: - Fingerprints

    /// This build of SyncLint: changes whenever anything that makes an entry could have changed.
    static let toolFingerprint: String = {
        var parts = ["\(RuleDocumentation.version)", "format \(formatVersion)", "codec \(Codec.current.rawValue)"]
        // The rule set and what each rule declares, in case the executable cannot be found.
        for description in RuleRegistry.allDescriptions {
            parts.append(description.id + " " + description.options.map { "\($0)" }.joined(separator: ","))
        }
        if let executable = executablePath, let stamp = FileStamp.of(executable) {
            parts.append("\(executable) \(stamp.size) \(stamp.modifiedSeconds).\(stamp.modifiedNanoseconds)")
        }
        let hash = ContentHash(Array(parts.joined(separator: "\n").utf8))
        return "\(RuleDocumentation.version)-" + String(hash.first, radix: 16) + String(hash.second, radix: 16)
    }()

    private static var executablePath: String? {
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        #endif
        return Bundle.main.executablePath
    }

    // MARK: - Lookup and store

    /// A file's result: from the run `state` or its entry when either matches, else made by `analyze` (given the
    /// file's text) and stored; with the record the next run state keeps of it (nil when the file could not be read).
    /// `indexOnly` asks for the facts alone (a file outside what is reported): any entry of the file's content
    /// serves, without its findings.
    /// `stamp`: the file's stamp when the caller has just taken it (`RunKey.stamps`).
    /// `preload`: results of `state`'s records decoded ahead (`StatePreload`), used in place of decoding the same record here.
    func result(forFile path: String, fingerprint: String, indexOnly: Bool, state: RunState? = nil, stamp knownStamp: FileStamp? = nil,
                preload: StatePreload? = nil,
                analyze: (String) -> Linter.FileResult) -> (result: Linter.FileResult, record: StateFile?) {
        guard !lock.withLock({ disabled }) else { return (uncached(path: path, analyze: analyze), nil) }
        var clock = Stopwatch()
        let accepts = { (entryFingerprint: String) in entryFingerprint == fingerprint || indexOnly }
        let currentStamp = knownStamp ?? FileStamp.of(path)
        func finish(_ result: Linter.FileResult, _ record: StateFile?, hit: (inout Statistics) -> Void) -> (Linter.FileResult, StateFile?) {
            count(hit)
            var result = result
            if indexOnly { result.pending = [] }
            result.read = clock.lap()
            return (result, record)
        }
        let known = state?.files[path].flatMap { accepts($0.fingerprint) ? $0 : nil }
        if var known, known.stampTrusted, currentStamp == known.stamp {
            let ahead = preload?.take(path)
            if let result = ahead ?? decodedStored(known.payload, shownAs: path) {
                known.unchangedFromState = true
                return finish(result, known) { $0.stampHits += 1; $0.stateHits += 1; $0.stateDecodedAhead += ahead == nil ? 0 : 1 }
            }
        }
        let entryPath = self.entryPath(for: path)
        var entry = readEntry(at: entryPath, for: path)
        if let found = entry, accepts(found.header.fingerprint), found.header.stampTrusted, currentStamp == found.header.stamp {
            if let result = found.decodedResult(self) {
                return finish(result, found.record) { $0.stampHits += 1 }
            }
            entry = nil  // damaged (counted once): rebuilt below
        }
        let bytes: [UInt8]
        let stamp: FileStamp
        switch SourceReader.readStampedBytes(path, limit: SourceReader.maximumFileSize) {
        case .success(let read): (bytes, stamp) = read
        case .failure(let failure):
            var result = Linter.FileResult()
            result.warning = failure.description
            return (result, nil)
        }
        let content = ContentHash(bytes)
        let trusted = !stamp.isRacy(window: limits.stampSettleTime)
        // The stamp moved (a touch, a checkout) but not the bytes: the new stamp is recorded.
        let ahead = known?.content == content ? preload?.take(path) : nil
        if var known, known.content == content, let result = ahead ?? decodedStored(known.payload, shownAs: path) {
            known.stamp = stamp
            known.stampTrusted = trusted
            // The file's own entry may hold other bytes (a state left as it was after an edit, `Limits.runStateSlack`):
            // brought up to date, so a run over other paths or with another configuration finds it too.
            if entry.map({ $0.header.content != content || $0.header.fingerprint != known.fingerprint || $0.header.stamp != stamp }) ?? true {
                write(header: Header(tool: tool, path: path, fingerprint: known.fingerprint, content: content, stamp: stamp,
                                     stampTrusted: trusted, payload: ContentHash(known.payload)),
                      payload: known.payload, to: entryPath, countsAsFileEntry: false)
            }
            return finish(result, known) { $0.contentHits += 1; $0.stateHits += 1; $0.stateDecodedAhead += ahead == nil ? 0 : 1 }
        }
        if let entry, accepts(entry.header.fingerprint), entry.header.content == content, let result = entry.decodedResult(self) {
            var header = entry.header
            if header.stamp != stamp || !header.stampTrusted {
                header.stamp = stamp
                header.stampTrusted = trusted
                write(header: header, payload: entry.payload, to: entryPath)
            }
            return finish(result, Entry(header: header, payload: entry.payload).record) { $0.contentHits += 1 }
        }
        let text: String
        switch SourceReader.text(of: bytes, path: path) {
        case .success(let decoded): text = decoded
        case .failure(let failure):
            var result = Linter.FileResult()
            result.warning = failure.description
            return (result, nil)
        }
        let readTime = clock.lap()
        count { $0.misses += 1 }
        var result = analyze(text)
        result.read += readTime
        let stored = StoredResult(facts: result.facts, pending: result.pending, suppression: result.suppression, warning: result.warning)
        guard let payload = try? Codec.current.encode(stored) else { return (result, nil) }
        let header = Header(tool: tool, path: path, fingerprint: fingerprint, content: content,
                            stamp: stamp, stampTrusted: trusted, payload: ContentHash(payload))
        write(header: header, payload: payload, to: entryPath)
        return (result, Entry(header: header, payload: payload).record)
    }

    /// A payload decoded into a file's result, or nil (counted as unusable) when it cannot be.
    func decodedStored(_ payload: Data, shownAs path: String) -> Linter.FileResult? {
        guard let result = Self.decodedQuietly(payload) else {
            noteUnreadable(path)
            return nil
        }
        return result
    }

    private func uncached(path: String, analyze: (String) -> Linter.FileResult) -> Linter.FileResult {
        var clock = Stopwatch()
        switch SourceReader.read(path) {
        case .success(let text):
            let readTime = clock.lap()
            var result = analyze(text)
            result.read += readTime
            return result
        case .failure(let failure):
            var result = Linter.FileResult()
            result.warning = failure.description
            return result
        }
    }

    func count(_ change: (inout Statistics) -> Void) { lock.withLock { change(&stats) } }

    /// What an entry stores of a `FileResult`: everything but timings. Whole structs, so fields added
    /// to facts and findings are stored without a change here (the tool fingerprint changes with them).
    struct StoredResult: Codable {
        var facts: FileFacts
        var pending: [PendingFinding]
        var suppression: SuppressionMap?
        var warning: String?
    }

    /// Everything an entry is checked against before its payload is decoded.
    struct Header: Codable {
        var tool: String
        var path: String
        var fingerprint: String
        var content: ContentHash
        var stamp: FileStamp
        /// False when the stamp was taken too soon after the file changed (`FileStamp.isRacy`).
        var stampTrusted: Bool
        /// The payload's hash: a corrupt entry is never decoded into wrong results.
        var payload: ContentHash
    }

    struct Entry {
        let header: Header
        let payload: Data

        func decodedResult(_ cache: ResultCache) -> Linter.FileResult? {
            guard ContentHash(payload) == header.payload else {
                cache.noteUnreadable(header.path)
                return nil
            }
            return cache.decodedStored(payload, shownAs: header.path)
        }

        /// What the run state keeps of this entry.
        var record: StateFile {
            StateFile(fingerprint: header.fingerprint, stamp: header.stamp, stampTrusted: header.stampTrusted, content: header.content, payload: payload)
        }
    }

    /// Entries are spread over 256 subfolders by the hash of the file's path.
    func entryPath(for path: String) -> String {
        let hash = ContentHash(Array(path.utf8))
        let name = String(hash.first, radix: 16) + String(hash.second, radix: 16)
        return folder + "/" + String(format: "%02x", Int(hash.first & 0xFF)) + "/" + name
    }

    /// The entry for `path`, or nil when there is none or it cannot be used (counted as unreadable
    /// unless it is simply absent).
    private func readEntry(at entryPath: String, for path: String) -> Entry? {
        guard let data = FileManager.default.contents(atPath: entryPath) else {
            if FileManager.default.fileExists(atPath: entryPath) { noteUnreadable(path) }
            return nil
        }
        guard let entry = decodeEntry(data, expectedPath: path) else { return nil }
        touchIfStale(entryPath)
        return entry
    }

    /// An entry's header and payload, when its magic, header and build are right (else counted as unreadable).
    private func decodeEntry(_ data: Data, expectedPath path: String, shownAs shown: String? = nil) -> Entry? {
        let magic = Self.magic
        guard data.count >= magic.count + 4, data.prefix(magic.count).elementsEqual(magic) else {
            noteUnreadable(shown ?? path)
            return nil
        }
        let lengthBytes = data.dropFirst(magic.count).prefix(4)
        let length = lengthBytes.reversed().reduce(0) { $0 << 8 | Int($1) }
        let headerStart = data.startIndex + magic.count + 4
        guard length > 0, headerStart + length <= data.endIndex,
              let header = try? Codec.current.decode(Header.self, from: data[headerStart..<headerStart + length]),
              header.tool == tool, header.path == path else {
            noteUnreadable(shown ?? path)
            return nil
        }
        return Entry(header: header, payload: data[(headerStart + length)...])
    }

    func noteUnreadable(_ path: String) {
        lock.withLock {
            stats.unreadable += 1
            if firstUnreadable == nil { firstUnreadable = path }
        }
    }

    /// Writes to a temporary file in the same folder, then renames it over the entry: readers see
    /// the old entry or the new one, never a part.
    @discardableResult
    private func write(header: Header, payload: Data, to entryPath: String, countsAsFileEntry: Bool = true) -> Bool {
        guard let headerData = try? Codec.current.encode(header) else { return false }
        var data = Data(Self.magic)
        let length = UInt32(headerData.count)
        data.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24)])
        data.append(headerData)
        data.append(payload)
        return writeAtomically(data, to: entryPath, countsAsFileEntry: countsAsFileEntry)
    }

    /// Writes `data` to a temporary file beside `entryPath` and renames it into place; says once per run when it cannot.
    @discardableResult
    func writeAtomically(_ data: Data, to entryPath: String, countsAsFileEntry: Bool = false) -> Bool {
        let subfolder = (entryPath as NSString).deletingLastPathComponent
        let temporary = entryPath + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        do {
            // The shard folder usually exists: it is made only when the first write into it fails.
            if writeNewFile(data, at: temporary) != 0 {
                try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
                let failure = writeNewFile(data, at: temporary)
                guard failure == 0 else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(failure))])
                }
            }
            guard rename(temporary, entryPath) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
            }
            if countsAsFileEntry { count { $0.writes += 1 } }
            return true
        } catch {
            unlink(temporary)
            // One entry that cannot be written (a full disk, something else at its path) costs that
            // entry only; the run goes on, and says so once.
            lock.withLock {
                if problem == nil { problem = "cannot write an entry in \(folder) (\(Self.reason(error))); not stored" }
            }
            return false
        }
    }

    // MARK: - Xcode projects

    /// The key an Xcode project's entry is stored under: apart from any source file's.
    static func projectKey(_ path: String) -> String { "xcodeproj:" + path }

    /// The targets of the `project.pbxproj` at `path`: from its entry when the file's stamp (trusted) or, failing
    /// that, its bytes are unchanged, else parsed and stored; or the one warning line about the file.
    func xcodeProject(at path: String) -> (project: XcodeProject?, warning: String?) {
        let disabled = lock.withLock { self.disabled }
        let key = Self.projectKey(path), entryPath = entryPath(for: key)
        let entry = disabled ? nil : readEntry(at: entryPath, for: key)
        if let entry, entry.header.stampTrusted, FileStamp.of(path) == entry.header.stamp, let project = decodedProject(entry) {
            return (project, nil)
        }
        // The stamp comes from the same `fstat` as the bytes, so the two stored together always belong together.
        let bytes: [UInt8], stamp: FileStamp
        switch SourceReader.readStampedBytes(path, limit: SourceReader.maximumFileSize) {
        case .success(let read): (bytes, stamp) = read
        case .failure(let failure): return (nil, failure.description)
        }
        let content = ContentHash(bytes)
        if let entry, entry.header.content == content, let project = decodedProject(entry) { return (project, nil) }
        let text: String
        switch SourceReader.text(of: bytes, path: path) {
        case .success(let decoded): text = decoded
        case .failure(let failure): return (nil, failure.description)
        }
        switch XcodeProject.read(path: path, text: text) {
        case .failure(let failure): return (nil, failure.description)
        case .success(let project):
            if !disabled, let payload = try? Codec.current.encode(project) {
                let header = Header(tool: tool, path: key, fingerprint: "xcodeproj", content: content, stamp: stamp,
                                    stampTrusted: !stamp.isRacy(window: limits.stampSettleTime), payload: ContentHash(payload))
                write(header: header, payload: payload, to: entryPath, countsAsFileEntry: false)
            }
            return (project, nil)
        }
    }

    private func decodedProject(_ entry: Entry) -> XcodeProject? {
        guard ContentHash(entry.payload) == entry.header.payload,
              let project = try? Codec.current.decode(XcodeProject.self, from: entry.payload) else {
            noteUnreadable(entry.header.path)
            return nil
        }
        count { $0.projectHits += 1 }
        return project
    }

    // MARK: - The whole-run entry

    /// The folder of whole-run entries, beside the 256 shards of per-file entries.
    static let runsFolderName = "runs"

    /// Which whole-run entry a run may use, and the state of its inputs it must find there.
    struct RunKey {
        /// Everything but the files' stamps: the caller's paths, the files reported, the configuration's
        /// fingerprint. One entry per identity (a run over other paths has its own).
        let identity: String
        /// Every input file's path, the fingerprint of the rules that walk it, and its stamp.
        let state: ContentHash
        /// False when a stamp was taken too soon after its file changed (`FileStamp.isRacy`): then the run's
        /// result is not stored whole, since an edit within the same tick would leave the stamps unchanged.
        let trusted: Bool
        /// Each file's stamp, in the order of the files given: the run looks its files up by them, without a second `stat`.
        var stamps: [FileStamp] = []

        var entryName: String {
            let hash = ContentHash(Array(identity.utf8))
            return String(hash.first, radix: 16) + String(hash.second, radix: 16)
        }
    }

    /// What a whole-run entry stores: the run's result after suppression and confidence, ready to report.
    struct StoredRun: Codable, Equatable {
        var findings: [Finding]
        var warnings: [String]
        var hiddenByConfidence: Int
    }

    /// The key of a run over `files` (each with its rules' fingerprint) and `resources`, or nil when a
    /// file cannot be stamped (gone, not a regular file).
    func runKey(identity: String, files: [(path: String, fingerprint: String)], resources: [String]) -> RunKey? {
        guard !lock.withLock({ disabled }) else { return nil }
        var state: [UInt8] = []
        state.reserveCapacity(files.count * 160)
        var trusted = true
        var stamps: [FileStamp] = []
        stamps.reserveCapacity(files.count)
        // Files share a few fingerprints (one per group of rules): each is hashed once.
        var fingerprintHashes: [String: ContentHash] = [:]
        func add(_ path: String, _ fingerprint: String) -> FileStamp? {
            guard let stamp = FileStamp.of(path) else { return nil }
            if stamp.isRacy(window: limits.stampSettleTime) { trusted = false }
            state.append(contentsOf: path.utf8)
            state.append(0)
            let fingerprintHash = fingerprintHashes[fingerprint] ?? ContentHash(Array(fingerprint.utf8))
            fingerprintHashes[fingerprint] = fingerprintHash
            // The numbers' bytes, not their digits: this runs for every file of every run.
            for value in [fingerprintHash.first, fingerprintHash.second, UInt64(fingerprintHash.count), UInt64(bitPattern: stamp.size), stamp.inode,
                          stamp.device, UInt64(bitPattern: stamp.modifiedSeconds), UInt64(bitPattern: stamp.modifiedNanoseconds),
                          UInt64(bitPattern: stamp.changedSeconds), UInt64(bitPattern: stamp.changedNanoseconds)] {
                withUnsafeBytes(of: value.littleEndian) { state.append(contentsOf: $0) }
            }
            return stamp
        }
        for file in files {
            guard let stamp = add(file.path, file.fingerprint) else { return nil }
            stamps.append(stamp)
        }
        state.append(contentsOf: "resources\n".utf8)
        for resource in resources { guard add(resource, "") != nil else { return nil } }
        return RunKey(identity: tool + "\n" + identity, state: ContentHash(state), trusted: trusted, stamps: stamps)
    }

    /// The stored result of a run with exactly this key, if its entry is whole and its inputs unchanged.
    func storedRun(_ key: RunKey) -> StoredRun? {
        let entryPath = folder + "/" + Self.runsFolderName + "/" + key.entryName
        guard let data = FileManager.default.contents(atPath: entryPath) else {
            if FileManager.default.fileExists(atPath: entryPath) { noteUnreadable("the whole run") }
            return nil
        }
        guard let entry = decodeEntry(data, expectedPath: key.identity, shownAs: "the whole run"), entry.header.content == key.state else {
            // An entry of other inputs is simply stale; a damaged one is said once.
            return nil
        }
        guard ContentHash(entry.payload) == entry.header.payload, let run = try? Codec.current.decode(StoredRun.self, from: entry.payload) else {
            noteUnreadable("the whole run")
            return nil
        }
        touchIfStale(entryPath)
        count { $0.wholeRunReused = true }
        return run
    }

    /// Stores a run's result under its key, when every stamp of the key can be trusted.
    func storeRun(_ run: StoredRun, key: RunKey) {
        guard key.trusted, !lock.withLock({ disabled }), let payload = try? Codec.current.encode(run) else { return }
        // The header's fields for a file entry serve: `path` holds the identity, `content` the inputs' state.
        let stamp = FileStamp(stat())
        let header = Header(tool: tool, path: key.identity, fingerprint: "whole run", content: key.state,
                            stamp: stamp, stampTrusted: true, payload: ContentHash(payload))
        if write(header: header, payload: payload, to: folder + "/" + Self.runsFolderName + "/" + key.entryName,
                 countsAsFileEntry: false) {
            count { $0.wholeRunStored = true }
        }
    }

    // MARK: - Folder, warnings and pruning

    private func prepareFolder() {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard access(folder, W_OK | X_OK) == 0 else { throw CocoaError(.fileWriteNoPermission) }
        } catch {
            problem = "cannot use \(root) (\(Self.reason(error))); linting without a cache"
            disabled = true
        }
    }

    private static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        if let cocoa = error as? CocoaError, cocoa.code == .fileWriteNoPermission { return "permission denied" }
        return error.localizedDescription
    }

    /// The run's one warning line about the cache, if anything went wrong; prunes old entries and
    /// the folders of other builds when it is time to. Call once, after the run.
    public func finish(now: Date = Date()) -> String? {
        let (problem, unreadable, first, disabled) = lock.withLock { (self.problem, stats.unreadable, firstUnreadable, self.disabled) }
        if !disabled { prune(now: now) }
        var parts: [String] = []
        if unreadable > 0, let first {
            parts.append("ignored \(unreadable) unusable entr\(unreadable == 1 ? "y" : "ies") in \(folder) "
                + "(corrupt, truncated or from another version; first for \(first)); rebuilt")
        }
        if let problem { parts.append(problem) }
        return parts.isEmpty ? nil : "warning: cache: " + parts.joined(separator: "; ")
    }

    /// Entries used in a run get a fresh modification time when theirs is over a day old, so the
    /// time says roughly when an entry was last used, at one system call per entry per day.
    func touchIfStale(_ entryPath: String) {
        var info = stat()
        guard stat(entryPath, &info) == 0 else { return }
        #if canImport(Darwin)
        let modified = Double(info.st_mtimespec.tv_sec)
        #else
        let modified = Double(info.st_mtim.tv_sec)
        #endif
        if Date().timeIntervalSince1970 - modified > 24 * 3600 { utimes(entryPath, nil) }
    }

    /// At most once per `pruneInterval` (a marker file's time says when it last ran): removes other
    /// builds' folders beyond `keptBuilds` (least recently used first), temporary files left by
    /// runs that died, entries unused for `maximumAge`, then the least recently used entries until
    /// the folder holds at most `maximumBytes`.
    func prune(now: Date = Date(), force: Bool = false) {
        let fileManager = FileManager.default
        let marker = folder + "/last-pruned"
        if !force, let attributes = try? fileManager.attributesOfItem(atPath: marker),
           let last = attributes[.modificationDate] as? Date, now.timeIntervalSince(last) < limits.pruneInterval {
            return
        }
        fileManager.createFile(atPath: marker, contents: Data())
        // Other builds' folders, kept by when they were last pruned (that is, last used).
        if let builds = try? fileManager.contentsOfDirectory(atPath: root) {
            let dated = builds.filter { root + "/" + $0 != folder }.map { name -> (String, Date) in
                let used = (try? fileManager.attributesOfItem(atPath: root + "/" + name + "/last-pruned"))?[.modificationDate] as? Date
                return (name, used ?? .distantPast)
            }.sorted { $0.1 > $1.1 }
            for (name, _) in dated.dropFirst(max(0, limits.keptBuilds - 1)) where Self.isBuildFolderName(name) {
                try? fileManager.removeItem(atPath: root + "/" + name)
            }
        }
        var entries: [(path: String, size: Int, used: Date)] = []
        for shard in (try? fileManager.contentsOfDirectory(atPath: folder)) ?? [] where shard.count == 2 || shard == Self.runsFolderName {
            let shardPath = folder + "/" + shard
            for name in (try? fileManager.contentsOfDirectory(atPath: shardPath)) ?? [] {
                let path = shardPath + "/" + name
                guard let attributes = try? fileManager.attributesOfItem(atPath: path) else { continue }
                let used = attributes[.modificationDate] as? Date ?? .distantPast
                if name.contains(".tmp-") {
                    if now.timeIntervalSince(used) > 3600 { unlink(path) }
                    continue
                }
                if now.timeIntervalSince(used) > limits.maximumAge {
                    unlink(path)
                    continue
                }
                entries.append((path, (attributes[.size] as? NSNumber)?.intValue ?? 0, used))
            }
        }
        var total = entries.reduce(0) { $0 + $1.size }
        guard total > limits.maximumBytes else { return }
        // Down to 80% of the bound, so the next runs do not prune again at once.
        for entry in entries.sorted(by: { $0.used < $1.used }) where total > limits.maximumBytes * 4 / 5 {
            unlink(entry.path)
            total -= entry.size
        }
    }

    /// Only folders named as `toolFingerprint` names them are removed: a cache path pointed at the
    /// wrong folder by mistake loses nothing else.
    static func isBuildFolderName(_ name: String) -> Bool {
        guard let dash = name.lastIndex(of: "-") else { return false }
        let hash = name[name.index(after: dash)...]
        return !hash.isEmpty && hash.count <= 32 && hash.allSatisfy(\.isHexDigit)
    }
}

/// Writes `data` to a new file at `path`: 0 when done, else the error number (the file may then be partly
/// written; the caller removes it). Not `Data.write(to:)`, which calls `fsync` on every file: a cold run of
/// 3,661 files waited on the disk for each. An entry needs no durability, only atomicity (the rename after
/// this) and integrity (its payload hash): one torn by a power loss is ignored and rebuilt like any damaged one.
private func writeNewFile(_ data: Data, at path: String) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { return errno }
    var failure: Int32 = 0
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            offset += written
        }
    }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    return failure
}
