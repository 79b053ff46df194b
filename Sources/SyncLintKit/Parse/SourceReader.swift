import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file as UTF-8 text, refusing what is not a regular file, binary and non-UTF-8 content,
/// and files over `maximumFileSize`, each with a one-line reason.
public enum SourceReader {
    /// Larger files are skipped. A file's tree and walk cost about 110 bytes of memory per source byte
    /// at their peak (debug build, measured on generated functions: 2 MiB of source took 240 MB, 4 MiB
    /// took 440 MB and a minute), and each core works on one file at a time, so this bounds what one
    /// file can take to about 250 MB. Hand-written Swift files stay far below it; generated ones may not.
    public static let maximumFileSize = 2 * 1024 * 1024

    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String, String)
        case binary(String)
        case binaryPropertyList(String)
        case notUTF8(String)
        case notRegularFile(String, String)
        case vanished(String)
        case tooLarge(String, Int, limit: Int)
        case changedWhileReading(String)

        public var description: String {
            "warning: \(path): \(reason); skipped"
        }

        var path: String {
            switch self {
            case .unreadable(let path, _), .binary(let path), .binaryPropertyList(let path), .notUTF8(let path), .notRegularFile(let path, _),
                 .vanished(let path), .tooLarge(let path, _, _), .changedWhileReading(let path):
                return path
            }
        }

        /// What went wrong, without the path: "is a FIFO (named pipe), not a regular file".
        public var reason: String {
            switch self {
            case .unreadable(_, let reason): return "cannot be read (\(reason))"
            case .binary: return "binary file"
            case .binaryPropertyList: return "binary property list (SyncLint reads the XML form only)"
            case .notUTF8: return "not UTF-8 text"
            case .notRegularFile(_, let what): return "is \(what), not a regular file"
            case .vanished: return "was removed before it could be read"
            case .tooLarge(_, let size, let limit): return "\(size) bytes, over the limit of \(byteCount(limit))"
            case .changedWhileReading: return "changed size while being read"
            }
        }
    }

    /// "2 MiB" for whole mebibytes, else "N bytes".
    static func byteCount(_ bytes: Int) -> String {
        bytes >= 1_048_576 && bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MiB" : "\(bytes) bytes"
    }

    public static func read(_ path: String) -> Result<String, Failure> {
        switch readBytes(path, limit: maximumFileSize) {
        case .failure(let failure): return .failure(failure)
        case .success(let bytes): return text(of: bytes, path: path)
        }
    }

    /// A source file's bytes as text: binary and non-UTF-8 content refused.
    static func text(of bytes: [UInt8], path: String) -> Result<String, Failure> {
        // A NUL byte means binary.
        if bytes.contains(0) {
            return .failure(bytes.starts(with: "bplist".utf8) ? .binaryPropertyList(path) : .binary(path))
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else { return .failure(.notUTF8(path)) }
        return .success(text)
    }

    static func readBytes(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        readStampedBytes(path, limit: limit).map(\.bytes)
    }

    /// Opens without blocking (a FIFO would wait for a writer), checks with `fstat` on the open
    /// descriptor that it is a regular file (no race between the check and the read), then reads to
    /// the end, never more than the size `fstat` gave plus one byte. The stamp is that `fstat`'s, so
    /// a cache never pairs these bytes with a later state of the file.
    static func readStampedBytes(_ path: String, limit: Int) -> Result<(bytes: [UInt8], stamp: FileStamp), Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ENOENT ? .vanished(path) : .unreadable(path, systemReason(code)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(path, systemReason(errno))) }
        switch FileType(mode: info.st_mode) {
        case .regular: break
        case .directory: return .failure(.notRegularFile(path, "a folder"))
        case .other(let what): return .failure(.notRegularFile(path, what))
        }
        let expected = Int(info.st_size)
        if expected > limit { return .failure(.tooLarge(path, expected, limit: limit)) }

        // One byte more than `stat` said, to notice a file that grew since without reading on and on.
        var buffer = [UInt8](repeating: 0, count: expected + 1)
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return systemRead(descriptor, base + filled, raw.count - filled)
            }
            if count > 0 {
                filled += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                return .failure(.unreadable(path, systemReason(errno)))
            }
        }
        if filled != expected { return .failure(.changedWhileReading(path)) }
        buffer.removeLast()
        return .success((buffer, FileStamp(info)))
    }
}

private func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(descriptor, pointer, count)
    #elseif canImport(Musl)
    return Musl.read(descriptor, pointer, count)
    #else
    return Darwin.read(descriptor, pointer, count)
    #endif
}
