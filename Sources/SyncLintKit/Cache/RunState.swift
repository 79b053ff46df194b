import Foundation

/// The run state: every file's cached result of one run, kept as ONE entry beside the whole-run entry and
/// keyed the same way (the run's paths, the files it reports, its configurations), so that a run where only
/// some files changed reads one file instead of an entry per source file.
///
/// Measured on 447k lines (README, "The cache's speed"): with one file edited, opening, reading and checking
/// 3,660 per-file entries (a `stat`, an `open`, a header decoded, a payload hashed each) cost about a quarter of
/// the time spent taking results from the cache. The state holds, per file, what the per-file entry's header
/// holds (the rules' fingerprint, the file's stamp and content hash) and the same payload bytes, so:
/// - a file whose trusted stamp is unchanged is decoded from the state (no entry read, no source read);
/// - a file whose stamp moved but whose bytes did not (a touch, a checkout) is decoded from it after its bytes
///   are hashed;
/// - any other file goes the per-file way (`ResultCache.result`: its entry, else parsed and walked).
/// After such a run the state is written again, the unchanged files' payload bytes copied as they were.
///
/// Safe as the other entries are: written to a temporary file and renamed into place, so a reader sees a whole
/// state or none; a hash of everything after the magic is checked before anything is used, so a truncated or
/// corrupt state is ignored (one warning line, with the per-file entries' count); the tool fingerprint and the
/// run's identity are stored and compared. It lives in the whole-run folder and is pruned like any entry.
extension ResultCache {
    /// One file's result as the state holds it.
    struct StateFile: Sendable {
        var fingerprint: String
        var stamp: FileStamp
        var stampTrusted: Bool
        var content: ContentHash
        /// A `StoredResult` encoded as per-file entries' payloads are.
        var payload: Data
        /// Not stored: whether this is the loaded state's own record, unchanged (then the state need not be written again).
        var unchangedFromState = false
    }

    /// A loaded state: each file's record by path.
    final class RunState: @unchecked Sendable {
        let files: [String: StateFile]
        /// The run identity it was stored under.
        let identity: String
        /// The files' paths in the order stored (the run's order): `StatePreload` decodes them so.
        let order: [String]

        init(files: [String: StateFile], identity: String = "", order: [String] = []) {
            self.files = files
            self.identity = identity
            self.order = order
        }
    }

    static let stateMagic = Array("SYNCLINT-STATE-\(formatVersion)\n".utf8)

    func statePath(_ key: RunKey) -> String { folder + "/" + Self.runsFolderName + "/" + key.entryName + ".state" }

    /// The state stored under the run's key, when there is one that is whole and of this build and identity.
    func loadState(_ key: RunKey) -> RunState? {
        guard !lock.withLock({ disabled }) else { return nil }
        let path = statePath(key)
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { noteUnreadable("the run state") }
            return nil
        }
        guard let state = Self.decodeState(data, tool: tool, identity: key.identity) else {
            noteUnreadable("the run state")
            return nil
        }
        touchIfStale(path)
        return state
    }

    /// Writes the state of a run (each file's record; files without one are left out and go the per-file way next time).
    func storeState(_ records: [(path: String, file: StateFile)], key: RunKey) {
        guard !lock.withLock({ disabled }) else { return }
        let data = Self.encodeState(records, tool: tool, identity: key.identity)
        if writeAtomically(data, to: statePath(key)) { count { $0.stateStored = true } }
    }

    // MARK: - Layout

    // magic, the hash of the rest (first, second: 8 bytes each, little-endian; the count is the rest's length),
    // then: tool, identity, the distinct fingerprints, the file count, per file its path, fingerprint number,
    // stamp (seven numbers), trusted flag, content hash (first, second, count) and payload length; then the
    // payloads in the files' order. Numbers are varints (signed ones zigzagged); strings a length and UTF-8.

    static func encodeState(_ records: [(path: String, file: StateFile)], tool: String, identity: String) -> Data {
        var out = StateWriter()
        out.string(tool)
        out.string(identity)
        var fingerprintNumbers: [String: Int] = [:]
        var fingerprints: [String] = []
        for record in records where fingerprintNumbers[record.file.fingerprint] == nil {
            fingerprintNumbers[record.file.fingerprint] = fingerprints.count
            fingerprints.append(record.file.fingerprint)
        }
        out.number(UInt64(fingerprints.count))
        for fingerprint in fingerprints { out.string(fingerprint) }
        out.number(UInt64(records.count))
        var payloadBytes = 0
        for (path, file) in records {
            out.string(path)
            // cannot fail: every record's fingerprint was numbered above.
            out.number(UInt64(fingerprintNumbers[file.fingerprint]!))
            let stamp = file.stamp
            for value in [stamp.size, stamp.modifiedSeconds, stamp.modifiedNanoseconds, stamp.changedSeconds, stamp.changedNanoseconds] {
                out.signed(value)
            }
            out.number(stamp.inode)
            out.number(stamp.device)
            out.bytes.append(file.stampTrusted ? 1 : 0)
            out.fixed(file.content.first)
            out.fixed(file.content.second)
            out.number(UInt64(file.content.count))
            out.number(UInt64(file.payload.count))
            payloadBytes += file.payload.count
        }
        out.bytes.reserveCapacity(out.bytes.count + payloadBytes)
        for record in records { out.bytes.append(contentsOf: record.file.payload) }
        let hash = ContentHash(out.bytes)
        var data = Data(capacity: stateMagic.count + 16 + out.bytes.count)
        data.append(contentsOf: stateMagic)
        var header = StateWriter()
        header.fixed(hash.first)
        header.fixed(hash.second)
        data.append(contentsOf: header.bytes)
        data.append(contentsOf: out.bytes)
        return data
    }

    /// The state in `data`, or nil when it is damaged or another build's or run's (`identity` nil: of any run).
    static func decodeState(_ data: Data, tool: String, identity: String?) -> RunState? {
        let magic = stateMagic
        guard data.count >= magic.count + 16, data.prefix(magic.count).elementsEqual(magic) else { return nil }
        let bodyStart = data.startIndex + magic.count + 16
        let body = data[bodyStart...]
        var hashReader = StateReader(data: data, cursor: data.startIndex + magic.count, end: bodyStart)
        guard let first = hashReader.fixed(), let second = hashReader.fixed() else { return nil }
        let hash = ContentHash(body)
        guard hash.first == first, hash.second == second else { return nil }
        var reader = StateReader(data: data, cursor: bodyStart, end: data.endIndex)
        guard reader.string() == tool, let storedIdentity = reader.string(), identity.map({ $0 == storedIdentity }) ?? true,
              let fingerprintCount = reader.count() else { return nil }
        var fingerprints: [String] = []
        for _ in 0..<fingerprintCount {
            guard let fingerprint = reader.string() else { return nil }
            fingerprints.append(fingerprint)
        }
        guard let fileCount = reader.count() else { return nil }
        var table: [(path: String, file: StateFile, length: Int)] = []
        table.reserveCapacity(fileCount)
        for _ in 0..<fileCount {
            guard let path = reader.string(), let fingerprintNumber = reader.count(), fingerprintNumber < fingerprints.count,
                  let size = reader.signed(), let modifiedSeconds = reader.signed(), let modifiedNanoseconds = reader.signed(),
                  let changedSeconds = reader.signed(), let changedNanoseconds = reader.signed(),
                  let inode = reader.number(), let device = reader.number(), let trusted = reader.byte(), trusted <= 1,
                  let contentFirst = reader.fixed(), let contentSecond = reader.fixed(), let contentCount = reader.count(),
                  let length = reader.count() else { return nil }
            let stamp = FileStamp(size: size, inode: inode, device: device, modifiedSeconds: modifiedSeconds, modifiedNanoseconds: modifiedNanoseconds,
                                  changedSeconds: changedSeconds, changedNanoseconds: changedNanoseconds)
            let content = ContentHash(first: contentFirst, second: contentSecond, count: contentCount)
            table.append((path, StateFile(fingerprint: fingerprints[fingerprintNumber], stamp: stamp, stampTrusted: trusted == 1,
                                          content: content, payload: Data()), length))
        }
        var files: [String: StateFile] = [:]
        files.reserveCapacity(table.count)
        var order: [String] = []
        order.reserveCapacity(table.count)
        var cursor = reader.cursor
        for var entry in table {
            guard entry.length <= data.endIndex - cursor else { return nil }
            // A slice: the payloads share the state's one buffer.
            entry.file.payload = data[cursor..<cursor + entry.length]
            cursor += entry.length
            files[entry.path] = entry.file
            order.append(entry.path)
        }
        guard cursor == data.endIndex else { return nil }
        return RunState(files: files, identity: storedIdentity, order: order)
    }
}

private struct StateWriter {
    var bytes: [UInt8] = []

    mutating func number(_ value: UInt64) { CompactCoding.writeVarint(value, to: &bytes) }
    mutating func signed(_ value: Int64) { number(CompactCoding.zigzag(value)) }
    mutating func fixed(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        number(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

/// Reads what `StateWriter` wrote; every read is bounded by `end`, and nil says the bytes ran out or are malformed.
private struct StateReader {
    let data: Data
    var cursor: Int
    let end: Int

    mutating func byte() -> UInt8? {
        guard cursor < end else { return nil }
        defer { cursor += 1 }
        return data[cursor]
    }

    mutating func number() -> UInt64? {
        var value: UInt64 = 0, shift: UInt64 = 0
        while shift < 64, let byte = byte() {
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// A number that counts or measures something in the state: at most the state's size.
    mutating func count() -> Int? {
        guard let value = number(), value <= UInt64(data.count) else { return nil }
        return Int(value)
    }

    mutating func signed() -> Int64? { number().map(CompactCoding.unzigzag) }

    mutating func fixed() -> UInt64? {
        guard end - cursor >= 8 else { return nil }
        var value: UInt64 = 0
        for offset in (0..<8).reversed() { value = value << 8 | UInt64(data[cursor + offset]) }
        cursor += 8
        return value
    }

    mutating func string() -> String? {
        guard let length = count(), length <= end - cursor else { return nil }
        defer { cursor += length }
        return String(decoding: data[cursor..<cursor + length], as: UTF8.self)
    }
}
