import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says of a file: enough to tell, without reading it, that a file is the one a cache
/// entry was made from. Any difference sends the cache to the file's bytes (`ContentHash`).
struct FileStamp: Codable, Equatable, Sendable {
    var size: Int64
    var inode: UInt64
    var device: UInt64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    /// The inode's change time: a tool that writes a file and then restores its modification time
    /// still moves it.
    var changedSeconds: Int64
    var changedNanoseconds: Int64

    init(size: Int64, inode: UInt64, device: UInt64, modifiedSeconds: Int64, modifiedNanoseconds: Int64,
         changedSeconds: Int64, changedNanoseconds: Int64) {
        self.size = size
        self.inode = inode
        self.device = device
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        changedSeconds = Int64(info.st_ctimespec.tv_sec)
        changedNanoseconds = Int64(info.st_ctimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        changedSeconds = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int64(info.st_ctim.tv_nsec)
        #endif
    }

    /// The stamp of the file at `path` (following links, as reading does), or nil.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0, FileType(mode: info.st_mode) == .regular else { return nil }
        return FileStamp(info)
    }

    /// Whether the file may still change within the same clock tick as this stamp was taken (Git's
    /// "racily clean" entries): a write that lands in the same tick and keeps the size would leave
    /// the stamp unchanged, so such a stamp is never trusted alone.
    func isRacy(now: Date = Date(), window: TimeInterval = 2) -> Bool {
        let newest = max(Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9,
                         Double(changedSeconds) + Double(changedNanoseconds) / 1e9)
        return now.timeIntervalSince1970 - newest < window
    }
}

/// A 128-bit hash of a file's bytes and their count, to notice that a file changed. Two independent
/// 64-bit lanes (xxHash64's round and a multiply-rotate-add one, each with its own avalanche) over
/// 8-byte words; not cryptographic, which change detection of one's own sources does not need.
struct ContentHash: Codable, Hashable, Sendable, CustomStringConvertible {
    let first: UInt64
    let second: UInt64
    let count: Int

    init(first: UInt64, second: UInt64, count: Int) {
        self.first = first
        self.second = second
        self.count = count
    }

    init(_ bytes: [UInt8]) {
        let lanes = bytes.withUnsafeBytes { Self.lanes($0) }
        first = lanes.0
        second = lanes.1
        count = bytes.count
    }

    init(_ data: Data) {
        let lanes = data.withUnsafeBytes { Self.lanes($0) }
        first = lanes.0
        second = lanes.1
        count = data.count
    }

    var description: String { String(first, radix: 16) + String(second, radix: 16) + "-\(count)" }

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0xFF51_AFD7_ED55_8CCD
    private static let prime5: UInt64 = 0xC4CE_B9FE_1A85_EC53

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 { (value << bits) | (value >> (64 - bits)) }

    private static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash = hash &* prime4
        hash ^= hash >> 33
        hash = hash &* prime5
        hash ^= hash >> 33
        return hash
    }

    private static func lanes(_ buffer: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var first = prime5 ^ UInt64(buffer.count)
        var second = prime3 &+ UInt64(buffer.count)
        var offset = 0
        let count = buffer.count
        while offset + 8 <= count {
            let word = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            first = rotate(first &+ word &* prime2, 31) &* prime1
            second = (rotate(second ^ (word &* prime4), 29) &* prime3) &+ prime5
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            tail |= UInt64(buffer[offset]) << shift
            shift += 8
            offset += 1
        }
        first = rotate(first &+ tail &* prime2, 31) &* prime1
        second = (rotate(second ^ (tail &* prime4), 29) &* prime3) &+ prime5
        return (avalanche(first), avalanche(second ^ first))
    }
}
