import Foundation

/// Which `.synclint.yml` applies to a run without `--config`: the nearest one upward from the linted
/// paths (stopping at the repository root, a folder with `.git`), so a project's own configuration is
/// used wherever SyncLint is started from; else the current folder's.
///
/// Paths whose nearest configurations differ are not merged yet (nested configurations that refine
/// their parent, as SwiftLint's do, are still to come): the current folder's file is used then, or the
/// first path's, and a warning says so.
public enum ConfigurationDiscovery {
    public static let fileName = ".synclint.yml"

    public struct Choice: Equatable, Sendable {
        public let path: String?
        public let warning: String?
    }

    /// With no paths, the current folder is the linted path. The current folder's own file is named
    /// relatively (`.synclint.yml`), as the user would write it.
    public static func choose(paths: [String], currentFolder: String) -> Choice {
        let choice = chooseAbsolute(paths: paths.isEmpty ? [currentFolder] : paths, currentFolder: currentFolder)
        let own = URL(fileURLWithPath: currentFolder).appendingPathComponent(fileName).standardizedFileURL.path
        return choice.path == own ? Choice(path: fileName, warning: choice.warning) : choice
    }

    static func chooseAbsolute(paths: [String], currentFolder: String) -> Choice {
        let inCurrentFolder = existing(URL(fileURLWithPath: currentFolder).appendingPathComponent(fileName).standardizedFileURL.path)
        let nearest = paths.map { nearestConfiguration(from: $0, currentFolder: currentFolder) }
        let found = Array(Set(nearest.compactMap { $0 })).sorted()
        switch found.count {
        case 0: return Choice(path: inCurrentFolder, warning: nil)
        case 1 where !nearest.contains(nil): return Choice(path: found[0], warning: nil)
        default:
            let chosen = inCurrentFolder ?? nearest.compactMap { $0 }.first
            return Choice(path: chosen, warning: "warning: the linted paths have different configurations (\(found.joined(separator: ", "))); "
                + "using \(chosen ?? "the defaults") for all of them; pass --config to choose")
        }
    }

    /// The nearest `.synclint.yml` in the path's folder or above it, up to the repository root.
    static func nearestConfiguration(from path: String, currentFolder: String) -> String? {
        var folder = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: currentFolder)).standardizedFileURL
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            folder = folder.deletingLastPathComponent()
        }
        for _ in 0..<64 {
            if let found = existing(folder.appendingPathComponent(fileName).path) { return found }
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) { return nil }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
        return nil
    }

    private static func existing(_ path: String) -> String? {
        FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
