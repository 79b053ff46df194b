import Foundation

/// The projects of one run and the targets inside them, as discovery found them.
///
/// Each path given on the command line that holds its own Xcode project or `Package.swift` is its own
/// project: its facts (CloudKit evidence, registered models, containers) never decide for another.
/// Paths that hold neither are linted together as one project. Inside an Xcode project, files belong
/// to the targets whose build phases or synchronized folders list them.
public struct ProjectLayout: Sendable {
    /// A path from the command line, standardized.
    public struct Root: Sendable, Hashable {
        public let path: String
        public let isOwnProject: Bool
    }

    public var roots: [Root] = []
    public var xcodeProjects: [XcodeProject] = []

    public init(roots: [Root] = [], xcodeProjects: [XcodeProject] = []) {
        self.roots = roots
        self.xcodeProjects = xcodeProjects
    }

    /// Builds the layout from the command line's paths and what discovery found under them.
    package static func make(paths: [String], swiftFiles: [String], xcodeProjects: [XcodeProject]) -> ProjectLayout {
        var roots: [Root] = []
        for path in paths {
            let root = URL(fileURLWithPath: path).standardizedFileURL.path
            let prefix = root.hasSuffix("/") ? root : root + "/"
            let holdsProject = swiftFiles.contains { $0.hasPrefix(prefix) && $0.hasSuffix("/Package.swift") }
                || xcodeProjects.contains { $0.path.hasPrefix(prefix) }
            roots.append(Root(path: root, isOwnProject: holdsProject))
        }
        return ProjectLayout(roots: roots, xcodeProjects: xcodeProjects)
    }

    /// The root a path was found under: the deepest command-line path that contains it.
    func root(of path: String) -> Root? {
        roots.filter { path == $0.path || path.hasPrefix($0.path.hasSuffix("/") ? $0.path : $0.path + "/") }
            .max { $0.path.count < $1.path.count }
    }

    /// A path as a message shows it: relative to the folder it was linted from (the deepest
    /// command-line path holding it; for a file named alone, its folder), as reporters show their file
    /// fields, so a message never names the user's machine. Absolute when no root holds it.
    public func shown(_ path: String) -> String {
        guard let root = root(of: path) else { return path }
        // A file named alone is its own root: its folder is where it was linted from.
        let folder = root.path == path ? String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) : root.path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// A location as a message shows it: `Sources/App.swift:12`, relative as `shown(_:)` makes it.
    public func shown(_ location: SourceLocation) -> String {
        "\(shown(location.file)):\(location.line)"
    }

    /// The project a file belongs to: its root's path when that root holds its own project, else ""
    /// (every path that holds no project of its own is linted as one project).
    public func project(of path: String) -> String {
        guard let root = root(of: path), root.isOwnProject else { return "" }
        return root.path
    }

    /// This layout seen from one project: its roots and the Xcode projects inside them.
    package func restricted(toProject project: String) -> ProjectLayout {
        ProjectLayout(roots: roots.filter { ($0.isOwnProject ? $0.path : "") == project },
                      xcodeProjects: xcodeProjects.filter { self.project(of: $0.path) == project })
    }

    /// The targets, in every Xcode project of the layout, that compile the file.
    public func targets(containing path: String) -> [XcodeTarget] {
        xcodeProjects.flatMap { project in project.targets.filter { $0.contains(path) } }
    }

    /// What the file's place says about its code, before its contents are read: a file of a test target
    /// only, or under a folder named like `*Tests` (below the path it was linted from), is test code; a
    /// file under `Preview Content` is preview code. Nil when the place says nothing.
    public func kind(ofFile path: String) -> CodeKind? {
        let targets = targets(containing: path)
        if !targets.isEmpty, targets.allSatisfy(\.isTest) { return .test }
        var relative = path
        if let root = root(of: path) { relative = String(path.dropFirst(root.path.count)) }
        let folders = relative.split(separator: "/").dropLast()
        if folders.contains(where: { $0.hasSuffix("Tests") }) { return .test }
        if folders.contains("Preview Content") { return .preview }
        return nil
    }
}
