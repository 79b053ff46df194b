import Foundation

/// The project a single file belongs to, found from the file alone, for `synclint lint FILE` and
/// editors: many findings need the rest of the project (which models are registered, whether the
/// store syncs with CloudKit, who calls a function), so a file is linted inside its project.
public enum OwningProject {
    /// The nearest folder at or above the file's folder that holds a `Package.swift`, an `*.xcodeproj`
    /// or a `.synclint.yml`, without going above the repository root (a folder with `.git`, a folder
    /// or a worktree's file). Without such a folder, the repository root; outside any repository, nil
    /// (the file is linted alone). The file itself need not exist (an editor's unsaved buffer).
    public static func folder(of file: String, currentFolder: String = FileManager.default.currentDirectoryPath) -> String? {
        var folder = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: currentFolder))
            .standardizedFileURL.deletingLastPathComponent()
        let fileManager = FileManager.default
        // A path has at most a few hundred components; the bound only guards against a loop.
        for _ in 0..<256 {
            let path = folder.path
            if holdsProjectMarker(path) { return path }
            if fileManager.fileExists(atPath: folder.appendingPathComponent(".git").path) { return path }
            let parent = folder.deletingLastPathComponent()
            if parent.path == path { return nil }
            folder = parent
        }
        return nil
    }

    private static func holdsProjectMarker(_ folder: String) -> Bool {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: folder + "/Package.swift")
            || fileManager.fileExists(atPath: folder + "/" + ConfigurationDiscovery.fileName) {
            return true
        }
        let entries = (try? fileManager.contentsOfDirectory(atPath: folder)) ?? []
        return entries.contains { $0.hasSuffix(".xcodeproj") }
    }
}
