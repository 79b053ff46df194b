import Foundation

/// Which `.synclint.yml` is the main configuration of a run without `--config`: the nearest one
/// upward from the linted paths (stopping at the repository root, a folder with `.git`), so a
/// project's own configuration is used wherever SyncLint is started from; else the current folder's.
///
/// Linted paths whose nearest files differ share the nearest file above all of them (else the current
/// folder's); each path's own file then refines it as a nested configuration (`ConfigurationTree`).
public enum ConfigurationDiscovery {
    public static let fileName = ".synclint.yml"

    /// With no paths, the current folder is the linted path. The current folder's own file is named
    /// relatively (`.synclint.yml`), as the user would write it.
    public static func choose(paths: [String], currentFolder: String) -> String? {
        let choice = chooseAbsolute(paths: paths.isEmpty ? [currentFolder] : paths, currentFolder: currentFolder)
        let own = URL(fileURLWithPath: currentFolder).appendingPathComponent(fileName).standardizedFileURL.path
        return choice == own ? fileName : choice
    }

    static func chooseAbsolute(paths: [String], currentFolder: String) -> String? {
        let inCurrentFolder = existing(URL(fileURLWithPath: currentFolder).appendingPathComponent(fileName).standardizedFileURL.path)
        let nearest = paths.map { nearestConfiguration(from: $0, currentFolder: currentFolder) }
        let found = Set(nearest.compactMap { $0 })
        if found.isEmpty { return inCurrentFolder }
        if found.count == 1, !nearest.contains(nil) { return found.first }
        let absolute = paths.map { PathPattern($0, in: currentFolder).text }
        return nearestConfiguration(from: commonFolder(of: absolute), currentFolder: currentFolder) ?? inCurrentFolder
    }

    /// A warning when the chosen configuration sits above the project of a linted path, outside any
    /// repository: without a `.git` to stop the search, a `.synclint.yml` left in a
    /// home or workspace folder would otherwise decide for every project below it, unseen. Nil when
    /// the configuration is in the project, is inside a repository (`.git` in its folder or above), or was
    /// named with `--config`.
    public static func outsideProjectWarning(configuration file: String, paths: [String], currentFolder: String) -> String? {
        let configurationFolder = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: currentFolder)).standardizedFileURL
            .deletingLastPathComponent().path
        var above = configurationFolder
        while true {
            if FileManager.default.fileExists(atPath: (above == "/" ? "" : above) + "/.git") { return nil }
            if above == "/" { break }
            above = ConfigurationTree.parent(of: above)
        }
        for path in paths.isEmpty ? [currentFolder] : paths {
            let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: currentFolder)).standardizedFileURL.path
            guard absolute.hasPrefix(configurationFolder == "/" ? "/" : configurationFolder + "/") else { continue }
            var isDirectory: ObjCBool = false
            var folder = absolute
            if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) || !isDirectory.boolValue {
                folder = ConfigurationTree.parent(of: folder)
            }
            // Each folder from the path up to (not including) the configuration's: does one hold a project?
            while folder.count > configurationFolder.count {
                if holdsProject(folder) {
                    return "warning: using \(file), found above the project at \(folder), outside any repository (no .git); "
                        + "pass --config to choose a configuration, or put a .synclint.yml in the project"
                }
                folder = ConfigurationTree.parent(of: folder)
            }
        }
        return nil
    }

    /// A folder with a `Package.swift` or an `*.xcodeproj`.
    static func holdsProject(_ folder: String) -> Bool {
        if FileManager.default.fileExists(atPath: folder + "/Package.swift") { return true }
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasSuffix(".xcodeproj") }
    }

    /// The deepest folder holding every path (absolute, normalized).
    static func commonFolder(of paths: [String]) -> String {
        let split = paths.map { $0.split(separator: "/", omittingEmptySubsequences: true) }
        guard var common = split.first else { return "/" }
        for components in split.dropFirst() {
            common = Array(zip(common, components).prefix { $0.0 == $0.1 }.map(\.0))
        }
        return "/" + common.joined(separator: "/")
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
