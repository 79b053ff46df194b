#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path is, from `stat`'s `S_IFMT` bits, so that FIFOs, sockets and devices are named and
/// skipped instead of opened: opening a FIFO blocks until a writer comes, and reading a device such
/// as `/dev/zero` never ends.
enum FileType: Equatable {
    case regular
    case directory
    case other(String)

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .other("a FIFO (named pipe)")
        case S_IFSOCK: self = .other("a socket")
        case S_IFCHR: self = .other("a character device")
        case S_IFBLK: self = .other("a block device")
        case S_IFLNK: self = .other("a symbolic link")
        default: self = .other("not a regular file")
        }
    }

    /// The type of what `path` names, following symbolic links; nil with `errno` set when it cannot be stat'ed.
    static func of(_ path: String) -> FileType? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileType(mode: info.st_mode)
    }
}

/// The system's reason for an `errno` value, such as "Permission denied".
func systemReason(_ code: Int32) -> String {
    String(cString: strerror(code))
}
