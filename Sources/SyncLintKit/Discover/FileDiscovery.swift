import Foundation

/// What discovery found: Swift files to lint and resource files for the index.
public struct DiscoveredFiles: Sendable {
    public var swiftFiles: [String] = []
    public var resourcePaths: [(path: String, kind: ResourceFile.Kind)] = []
    public var warnings: [String] = []

    /// Files the run can lint: Swift files and resources. Zero means the paths held nothing to check.
    public var lintableCount: Int { swiftFiles.count + resourcePaths.count }
}

/// Walks the given paths once, keeping `.swift` files, `.entitlements` plists, Core Data model
/// files and Xcode projects' `project.pbxproj`, and skipping build output, dependencies, hidden folders and configured exclusions.
public enum FileDiscovery {
    static let skippedFolders: Set<String> = [".build", "DerivedData", "Pods", "Carthage", "node_modules"]

    /// `excluded` holds absolute paths or globs (`PathPattern`).
    public static func discover(paths: [String], excluded: [String]) -> DiscoveredFiles {
        let patterns = excluded.map { PathPattern($0, in: FileManager.default.currentDirectoryPath) }
        return discover(paths: paths) { path, _ in patterns.contains { $0.matches(path) } }
    }

    /// Discovery with each configuration's `excluded` and `included` applied where it holds.
    static func discover(paths: [String], configurations: ConfigurationTree) -> DiscoveredFiles {
        discover(paths: paths, skipping: configurations.skips)
    }

    /// `skipping` is asked once for every folder and file met (and for a file named as a path): true
    /// leaves it out, a folder with everything under it.
    static func discover(paths: [String], skipping: (_ path: String, _ isFolder: Bool) -> Bool) -> DiscoveredFiles {
        var result = DiscoveredFiles()
        let fileManager = FileManager.default
        var seen: Set<String> = []
        for root in paths {
            let rootPath = URL(fileURLWithPath: root).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: rootPath, isDirectory: &isDirectory) else {
                result.warnings.append("warning: \(root): no such file or directory")
                continue
            }
            if !isDirectory.boolValue {
                if !skipping(rootPath, false), seen.insert(rootPath).inserted { classify(rootPath, into: &result, explicit: true) }
                continue
            }
            DirectoryWalk.walk(rootPath, folder: { path in
                // The exclusions are asked about skipped folders too, so an entry naming one is not reported as unused.
                let name = path.split(separator: "/").last.map(String.init) ?? path
                return skipping(path, true) || skippedFolders.contains(name) ? .skip : .descend
            }, file: { path, isRegular in
                if skipping(path, false) || !seen.insert(path).inserted { return }
                classify(path, into: &result, explicit: false, knownRegular: isRegular)
            })
        }
        result.swiftFiles.sort()
        result.resourcePaths.sort { $0.path < $1.path }
        return result
    }

    /// What kind of lintable file a path names, from its name alone: nil for a Swift file or for a
    /// file SyncLint does not read.
    static func resourceKind(of path: String) -> ResourceFile.Kind? {
        if path.hasSuffix(".entitlements") { return .entitlements }
        if path.hasSuffix(".xcodeproj/project.pbxproj") { return .xcodeProject }
        if path.hasSuffix("/contents") && path.contains(".xcdatamodel/") { return .coreDataModel }
        return nil
    }

    /// A versioned model (`Name.xcdatamodeld/Name 2.xcdatamodel/contents`) is loaded in the version its
    /// `.xccurrentversion` names; older versions are history and are not checked.
    static func isCurrentModelVersion(_ contentsPath: String) -> Bool {
        let version = URL(fileURLWithPath: contentsPath).deletingLastPathComponent()
        let bundle = version.deletingLastPathComponent()
        guard bundle.pathExtension == "xcdatamodeld",
              // Read like a source (no FIFO, no device, bounded size): this file comes with the repository too.
              case .success(let bytes) = SourceReader.readBytes(bundle.appendingPathComponent(".xccurrentversion").path,
                                                                limit: 64 * 1024),
              let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any],
              let current = plist["_XCCurrentVersionName"] as? String else { return true }
        return current == version.lastPathComponent
    }

    /// `knownRegular`: the walk's `readdir` said the entry is a regular file, so it is not `stat`ed again.
    private static func classify(_ path: String, into result: inout DiscoveredFiles, explicit: Bool, knownRegular: Bool = false) {
        let isSwift = path.hasSuffix(".swift")
        let resourceKind = resourceKind(of: path)
        guard isSwift || resourceKind != nil else {
            if explicit { result.warnings.append("warning: \(path): not a Swift file; skipped") }
            return
        }
        // Named like a source but a FIFO, socket or device: skipped here, before anything opens it.
        switch knownRegular ? .regular : FileType.of(path) {
        case .regular: break
        case .other(let what): return result.warnings.append("warning: \(path): is \(what), not a regular file; skipped")
        case .directory: return
        case nil: return result.warnings.append("warning: \(path): cannot be read (\(systemReason(errno))); skipped")
        }
        if isSwift {
            result.swiftFiles.append(path)
        } else if let resourceKind, resourceKind != .coreDataModel || isCurrentModelVersion(path) {
            result.resourcePaths.append((path, resourceKind))
        }
    }
}
