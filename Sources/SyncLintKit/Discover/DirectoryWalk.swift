#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lists a folder tree with `opendir`/`readdir`, depth first, names sorted in each folder. The kind of
/// each entry comes from `readdir` itself (`d_type`), so the walk costs one system call per folder
/// instead of one `stat` per entry: on ten real apps (9,000 entries) Foundation's enumerator with
/// `isDirectory` resource values took about 0.3 s of a 2.2 s run; this walk takes a few milliseconds.
///
/// Hidden entries (names starting with `.`) are left out, as Finder and Xcode hide them. A symbolic link
/// is reported as a file, never followed as a folder, so a link cycle cannot make the walk loop.
enum DirectoryWalk {
    enum Visit {
        /// Walk into the folder.
        case descend
        /// Leave the folder and everything under it out.
        case skip
    }

    /// Calls `folder` for every folder under `root` (not `root` itself) and `file` for every other entry,
    /// with paths built as `root/child/...`.
    static func walk(_ root: String, folder: (String) -> Visit, file: (String) -> Void) {
        walk(root, folder: folder) { path, _ in file(path) }
    }

    /// The same walk, telling `file` whether `readdir` already knows the entry is a regular file (`DT_REG`), so a
    /// caller that must refuse FIFOs and devices needs no `stat` for it: one system call less per source file.
    static func walk(_ root: String, folder: (String) -> Visit, file: (String, _ isRegular: Bool) -> Void) {
        var pending = [root]
        while let current = pending.popLast() {
            guard let handle = opendir(current) else { continue }
            let prefix = current.hasSuffix("/") ? current : current + "/"
            var children: [(name: String, isFolder: Bool, isRegular: Bool)] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard !name.hasPrefix(".") else { continue }
                let type = entry.pointee.d_type
                children.append((name, isFolder(type: type, path: prefix + name), type == UInt8(DT_REG)))
            }
            closedir(handle)
            // Folders are pushed in reverse so the walk meets them in name order.
            var folders: [String] = []
            for child in children.sorted(by: { $0.name < $1.name }) {
                let path = prefix + child.name
                if child.isFolder {
                    if folder(path) == .descend { folders.append(path) }
                } else {
                    file(path, child.isRegular)
                }
            }
            pending += folders.reversed()
        }
    }

    /// `d_type` says; some file systems leave it unknown, and then `lstat` does.
    private static func isFolder(type: UInt8, path: String) -> Bool {
        if type == UInt8(DT_DIR) { return true }
        guard type == UInt8(DT_UNKNOWN) else { return false }
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
