import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a report to the path `--output` names, treating what is there as a shell's `>` would, except
/// that a regular file is replaced atomically (a temporary file renamed over it), so a reader never
/// sees half a report:
/// - nothing there yet, or a regular file the user may write: replaced atomically, keeping its mode;
/// - a regular file the user may not write (read-only, someone else's): refused; a rename would have
///   replaced it, because renaming needs only the folder to be writable;
/// - a symbolic link: followed, and what it points to is judged the same way;
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` (process substitution): the
///   process's own open descriptor, written where it stands;
/// - a FIFO, a device or anything else that is not a regular file: opened and written in place, never
///   replaced by a regular file.
public enum ReportDestination {
    /// How a path will be written.
    public enum Method: Equatable, Sendable {
        /// A descriptor this process already has open.
        case descriptor(Int32)
        /// A regular file at this path (or none yet): written to a temporary file renamed over it.
        case replace(path: String)
        /// A FIFO, device or socket at this path: opened for writing, written as it is.
        case inPlace(path: String)
    }

    public struct WriteError: Error, CustomStringConvertible, Equatable {
        /// The path as the user gave it.
        public let path: String
        public let reason: String
        /// The reader of a pipe or FIFO went away: like `synclint lint | head`, not worth an error.
        public let readerWentAway: Bool

        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Most symbolic links followed in a chain, as the system's `MAXSYMLINKS`.
    static let maximumLinks = 40

    public static func write(_ text: String, to path: String,
                             currentFolder: String = FileManager.default.currentDirectoryPath) throws {
        let bytes = Array(text.utf8)
        switch try method(for: path, currentFolder: currentFolder) {
        case .descriptor(let descriptor):
            guard fcntl(descriptor, F_GETFL) != -1 else { throw failure(path, "descriptor \(descriptor) is not open") }
            if let code = writeAll(bytes, to: descriptor) { throw failure(path, code) }
        case .inPlace(let target):
            // No O_CREAT: the thing is there, and it must stay what it is. A FIFO waits here for its reader.
            let descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure(path, errno) }
            defer { close(descriptor) }
            if let code = writeAll(bytes, to: descriptor) { throw failure(path, code) }
        case .replace(let target):
            try replace(target, with: bytes, shownAs: path)
        }
    }

    /// How `path` (relative to `currentFolder`) will be written, following symbolic links; throws for a
    /// folder, a regular file the user may not write, or a loop of links.
    public static func method(for path: String, currentFolder: String = FileManager.default.currentDirectoryPath) throws -> Method {
        var current = absolute(path, in: currentFolder)
        for _ in 0..<maximumLinks {
            if let descriptor = ownDescriptor(named: current) { return .descriptor(descriptor) }
            var info = stat()
            guard lstat(current, &info) == 0 else {
                let code = errno
                if code == ENOENT { return .replace(path: current) }
                throw failure(path, code)
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                guard let target = linkTarget(current) else { throw failure(path, errno) }
                current = absolute(target, in: ConfigurationTree.parent(of: current))
            case S_IFREG:
                guard isWritable(current, mode: info.st_mode) else {
                    throw failure(path, "the file is read-only; nothing written")
                }
                return .replace(path: current)
            case S_IFDIR:
                throw failure(path, "is a folder")
            default:
                return .inPlace(path: current)
            }
        }
        throw failure(path, "too many levels of symbolic links")
    }

    /// The descriptor a path stands for when it names one of this process's own: `/dev/stdout`
    /// (`/dev/stdin` and `/dev/stderr` likewise), `/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N`.
    /// Followed as a link instead, Linux's `/proc/self/fd/1` leads to `pipe:[1234]`, no path at all.
    static func ownDescriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }

    /// Whether the user may write the file: `access(2)`, and for root, to whom `access` allows
    /// everything, a write bit in its mode, so a file made read-only on purpose stays as it is.
    static func isWritable(_ path: String, mode: mode_t) -> Bool {
        guard access(path, W_OK) == 0 else { return false }
        return geteuid() != 0 || mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0
    }

    /// Writes every byte, retrying on interruption and waiting on a non-blocking descriptor; the
    /// `errno` of the failure, or nil.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemWrite(descriptor, base + offset, buffer.count - offset)
            }
            if result > 0 {
                offset += result
                continue
            }
            if result == 0 { return EIO }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // A CI runner may hand over a non-blocking pipe: wait until it drains.
                var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, -1)
            default:
                return code
            }
        }
        return nil
    }

    /// A temporary file in the target's folder, written whole, given the target's mode (or the mode a
    /// new file gets), then renamed over the target.
    private static func replace(_ target: String, with bytes: [UInt8], shownAs path: String) throws {
        let folder = ConfigurationTree.parent(of: target)
        let name = target.split(separator: "/").last.map(String.init) ?? "report"
        var template = Array("\(folder == "/" ? "" : folder)/.\(name).synclint-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw failure(path, errno) }
        // mkstemp filled in the X's; the template is a C string (its last byte the terminating NUL).
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        var info = stat()
        let mode: mode_t
        if stat(target, &info) == 0 {
            mode = info.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        var code = writeAll(bytes, to: descriptor)
        if code == nil, fchmod(descriptor, mode) != 0 { code = errno }
        if code == nil, fsync(descriptor) != 0 { code = errno }
        if close(descriptor) != 0, code == nil { code = errno }
        if let code { throw failure(path, code) }
        guard rename(temporary, target) == 0 else { throw failure(path, errno) }
        renamed = true
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func absolute(_ path: String, in folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : (folder == "/" ? "" : folder) + "/" + path
        // `..` is left to the system: after a link to a folder it means that folder's parent.
        return joined.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
            .reduce("") { $0 + "/" + $1 }.nonEmpty ?? "/"
    }

    private static func failure(_ path: String, _ code: Int32) -> WriteError {
        WriteError(path: path, reason: systemReason(code), readerWentAway: code == EPIPE)
    }

    private static func failure(_ path: String, _ reason: String) -> WriteError {
        WriteError(path: path, reason: reason, readerWentAway: false)
    }

    private static func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(descriptor, pointer, count)
        #elseif canImport(Musl)
        return Musl.write(descriptor, pointer, count)
        #else
        return Darwin.write(descriptor, pointer, count)
        #endif
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
