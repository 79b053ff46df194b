import Foundation

/// A native target of an Xcode project, read from its `project.pbxproj`: which files it compiles,
/// which folders it takes whole (Xcode 16's synchronized folders), and which entitlements it signs with.
/// Plain values only, so the layout can be cached with the rest of the index.
public struct XcodeTarget: Sendable, Hashable, Codable {
    public let name: String
    /// `com.apple.product-type.application`, `...app-extension`, `...bundle.unit-test`, ...
    public let productType: String
    /// Absolute paths of the files and bundles (`Model.xcdatamodeld`) in its build phases.
    public let files: Set<String>
    /// Absolute paths of folders whose every file belongs to the target.
    public let folders: Set<String>
    /// Files inside `folders` that the target leaves out (a synchronized folder's membership exceptions).
    public let excludedFiles: Set<String>
    /// Absolute path of the `CODE_SIGN_ENTITLEMENTS` plist, when the target names one.
    public let entitlements: String?
    /// Whether its module defaults to the main actor (`SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`, Swift 6.2): every
    /// declaration with no isolation of its own is `@MainActor`.
    public let defaultsToMainActor: Bool
    /// Whether its async functions with no isolation run on their caller's actor instead of the concurrency pool
    /// (SE-0461's `NonisolatedNonsendingByDefault`: `SWIFT_UPCOMING_FEATURE_NONISOLATED_NONSENDING_BY_DEFAULT = YES`, or
    /// Xcode 26's `SWIFT_APPROACHABLE_CONCURRENCY = YES`, which turns it on).
    public let nonisolatedAsyncRunsOnCaller: Bool
    /// Whether it compiles in the Swift 6 language mode (`SWIFT_VERSION = 6.0` in every configuration): the compiler then
    /// rejects every use of a non-`Sendable` value across isolation domains (a data race) as an error.
    public var swift6LanguageMode = false

    public init(name: String, productType: String, files: Set<String>, folders: Set<String> = [],
                excludedFiles: Set<String> = [], entitlements: String?, defaultsToMainActor: Bool = false,
                nonisolatedAsyncRunsOnCaller: Bool = false, swift6LanguageMode: Bool = false) {
        self.name = name
        self.productType = productType
        self.files = files
        self.folders = folders
        self.excludedFiles = excludedFiles
        self.entitlements = entitlements
        self.defaultsToMainActor = defaultsToMainActor
        self.nonisolatedAsyncRunsOnCaller = nonisolatedAsyncRunsOnCaller
        self.swift6LanguageMode = swift6LanguageMode
    }

    /// Unit and UI test bundles.
    public var isTest: Bool {
        productType.contains("unit-test") || productType.contains("ui-testing")
    }

    /// Whether the file (or a file inside a bundle such as `Model.xcdatamodeld`) belongs to the target.
    public func contains(_ path: String) -> Bool {
        if files.contains(path) { return true }
        if excludedFiles.contains(path) { return false }
        var ancestor = path
        while let slash = ancestor.lastIndex(of: "/"), slash > ancestor.startIndex {
            ancestor = String(ancestor[..<slash])
            if files.contains(ancestor) || folders.contains(ancestor) { return true }
        }
        return false
    }
}

/// The targets of one `.xcodeproj`, read with Foundation's `PropertyListSerialization` (a
/// `project.pbxproj` is an old-style property list; Foundation reads that format on Linux too).
public struct XcodeProject: Sendable, Hashable, Codable {
    /// The `project.pbxproj` file.
    public let path: String
    /// The folder file references are relative to (the folder holding the `.xcodeproj`).
    public let sourceRoot: String
    public let targets: [XcodeTarget]

    /// A project file SyncLint could not use, as the one line the user sees.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String

        public var description: String { "warning: \(path): \(reason)" }
    }

    public init(path: String, sourceRoot: String, targets: [XcodeTarget]) {
        self.path = path
        self.sourceRoot = sourceRoot
        self.targets = targets
    }

    /// Reads a `project.pbxproj`; a file that is not a property list, or has no `objects`, is a one-line warning.
    public static func read(path: String, text: String) -> Result<XcodeProject, Failure> {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
        } catch {
            return .failure(Failure(path: path, reason: "is not a readable Xcode project; its targets are ignored"))
        }
        guard let root = plist as? [String: Any], let objects = root["objects"] as? [String: Any],
              let rootID = root["rootObject"] as? String else {
            return .failure(Failure(path: path, reason: "has no objects or root object; its targets are ignored"))
        }
        let projectFolder = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent()
        var graph = ObjectGraph(objects: objects, sourceRoot: projectFolder.path)
        let project = graph.object(rootID)
        if let projectDir = project["projectDirPath"] as? String, !projectDir.isEmpty {
            graph.sourceRoot = Self.join(graph.sourceRoot, projectDir)
        }
        let projectSettings = graph.settingsByConfiguration(of: project)
        let targets = (project["targets"] as? [String] ?? []).compactMap { graph.target($0, projectSettings: projectSettings) }
        return .success(XcodeProject(path: path, sourceRoot: graph.sourceRoot, targets: targets))
    }

    static func join(_ base: String, _ relative: String) -> String {
        lexicallyStandardized(relative.hasPrefix("/") ? relative : base + "/" + relative)
    }

    /// An absolute path with `.` and `..` components resolved and `//` collapsed, as
    /// `URL.standardizedFileURL.path` gives it, without Foundation's URL machinery: a big project lists
    /// thousands of files, and on Linux building a URL for each cost more than reading the project.
    static func lexicallyStandardized(_ path: String) -> String {
        guard path.hasPrefix("/") else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        var components: [Substring] = []
        for component in path.split(separator: "/") {
            if component == "." { continue }
            if component == ".." { if !components.isEmpty { components.removeLast() }; continue }
            components.append(component)
        }
        return "/" + components.joined(separator: "/")
    }

    /// The pbxproj's objects by id, with the group tree inverted so that a file reference's path can be
    /// resolved through its parent groups.
    struct ObjectGraph {
        let objects: [String: Any]
        var sourceRoot: String
        private var parents: [String: String] = [:]
        /// Resolved paths by object id: every file of a group asks for the group's path again.
        private var resolvedPaths: [String: String?] = [:]

        init(objects: [String: Any], sourceRoot: String) {
            self.objects = objects
            self.sourceRoot = sourceRoot
            for (id, value) in objects {
                for child in (value as? [String: Any])?["children"] as? [String] ?? [] { parents[child] = id }
            }
        }

        func object(_ id: String) -> [String: Any] {
            objects[id] as? [String: Any] ?? [:]
        }

        /// The absolute path of a file reference or group; nil for SDK and build-product references.
        mutating func path(of id: String, depth: Int = 0) -> String? {
            guard depth < 64 else { return nil }  // a malformed file with a group cycle
            if let known = resolvedPaths[id] { return known }
            let resolved = unresolvedPath(of: id, depth: depth)
            resolvedPaths[id] = resolved
            return resolved
        }

        private mutating func unresolvedPath(of id: String, depth: Int) -> String? {
            let entry = object(id)
            let own = entry["path"] as? String
            switch entry["sourceTree"] as? String ?? "<group>" {
            case "<absolute>":
                return own.map { Self.standardized($0) }
            case "SOURCE_ROOT":
                return own.map { XcodeProject.join(sourceRoot, $0) } ?? sourceRoot
            case "<group>":
                let base = parents[id].flatMap { parent in path(of: parent, depth: depth + 1) } ?? sourceRoot
                return own.map { XcodeProject.join(base, $0) } ?? base
            default:
                return nil
            }
        }

        static func standardized(_ path: String) -> String {
            XcodeProject.lexicallyStandardized(path)
        }

        mutating func target(_ id: String, projectSettings: [String: [String: Any]] = [:]) -> XcodeTarget? {
            let entry = object(id)
            guard entry["isa"] as? String == "PBXNativeTarget", let name = entry["name"] as? String else { return nil }
            var files: Set<String> = []
            for phaseID in entry["buildPhases"] as? [String] ?? [] {
                for buildFileID in object(phaseID)["files"] as? [String] ?? [] {
                    if let reference = object(buildFileID)["fileRef"] as? String, let path = path(of: reference) {
                        files.insert(path)
                    }
                }
            }
            var folders: Set<String> = []
            var excluded: Set<String> = []
            for groupID in entry["fileSystemSynchronizedGroups"] as? [String] ?? [] {
                guard let folder = path(of: groupID) else { continue }
                folders.insert(folder)
                for exceptionID in object(groupID)["exceptions"] as? [String] ?? [] {
                    let exception = object(exceptionID)
                    guard exception["target"] as? String == id else { continue }
                    for relative in exception["membershipExceptions"] as? [String] ?? [] {
                        excluded.insert(XcodeProject.join(folder, relative))
                    }
                }
            }
            return XcodeTarget(name: name, productType: entry["productType"] as? String ?? "", files: files,
                               folders: folders, excludedFiles: excluded, entitlements: entitlements(of: entry, targetName: name),
                               defaultsToMainActor: defaultsToMainActor(entry, projectSettings: projectSettings),
                               nonisolatedAsyncRunsOnCaller: nonisolatedAsyncRunsOnCaller(entry, projectSettings: projectSettings),
                               swift6LanguageMode: swift6LanguageMode(entry, projectSettings: projectSettings))
        }

        /// The build settings of each configuration of a project or target, by configuration name (`Debug`, `Release`).
        func settingsByConfiguration(of entry: [String: Any]) -> [String: [String: Any]] {
            guard let listID = entry["buildConfigurationList"] as? String else { return [:] }
            var result: [String: [String: Any]] = [:]
            for configurationID in object(listID)["buildConfigurations"] as? [String] ?? [] {
                let configuration = object(configurationID)
                result[configuration["name"] as? String ?? configurationID] = configuration["buildSettings"] as? [String: Any] ?? [:]
            }
            return result
        }

        /// `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor` in every configuration that sets it: the target's own setting,
        /// else the project's configuration of the same name. Configurations that disagree (Debug `MainActor`, Release
        /// `nonisolated`) decide nothing. A setting in an `.xcconfig` file is not read.
        func defaultsToMainActor(_ target: [String: Any], projectSettings: [String: [String: Any]]) -> Bool {
            let values = effectiveSettings(of: target, projectSettings: projectSettings).compactMap { $0["SWIFT_DEFAULT_ACTOR_ISOLATION"] as? String }
            return Set(values) == ["MainActor"]
        }

        /// `NonisolatedNonsendingByDefault` in every configuration: its own setting, or Approachable Concurrency, which
        /// enables it with other upcoming features ("Approachable Concurrency", Xcode 26 build settings reference).
        func nonisolatedAsyncRunsOnCaller(_ target: [String: Any], projectSettings: [String: [String: Any]]) -> Bool {
            let configurations = effectiveSettings(of: target, projectSettings: projectSettings)
            return !configurations.isEmpty && configurations.allSatisfy { settings in
                ["SWIFT_UPCOMING_FEATURE_NONISOLATED_NONSENDING_BY_DEFAULT", "SWIFT_APPROACHABLE_CONCURRENCY"].contains {
                    settings[$0] as? String == "YES"
                }
            }
        }

        /// `SWIFT_VERSION` 6 or later in every configuration (a setting in an `.xcconfig` file is not read).
        func swift6LanguageMode(_ target: [String: Any], projectSettings: [String: [String: Any]]) -> Bool {
            let configurations = effectiveSettings(of: target, projectSettings: projectSettings)
            return !configurations.isEmpty && configurations.allSatisfy { settings in
                guard let version = settings["SWIFT_VERSION"] as? String, let major = Int(version.prefix { $0.isNumber }) else { return false }
                return major >= 6
            }
        }

        /// The settings of each of the target's configurations: its own, over the project's configuration of the same name.
        func effectiveSettings(of target: [String: Any], projectSettings: [String: [String: Any]]) -> [[String: Any]] {
            let own = settingsByConfiguration(of: target)
            let names = own.isEmpty ? Set(projectSettings.keys) : Set(own.keys)
            return names.map { name in (projectSettings[name] ?? [:]).merging(own[name] ?? [:]) { _, targets in targets } }
        }

        /// `CODE_SIGN_ENTITLEMENTS` of the target's first configuration that sets it (Debug and Release
        /// name the same file in practice), with `$(SRCROOT)`, `$(PROJECT_DIR)` and `$(TARGET_NAME)` expanded.
        func entitlements(of target: [String: Any], targetName: String) -> String? {
            guard let listID = target["buildConfigurationList"] as? String else { return nil }
            for configurationID in object(listID)["buildConfigurations"] as? [String] ?? [] {
                let settings = object(configurationID)["buildSettings"] as? [String: Any] ?? [:]
                guard var value = settings["CODE_SIGN_ENTITLEMENTS"] as? String, !value.isEmpty else { continue }
                for variable in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/"] where value.hasPrefix(variable) {
                    value.removeFirst(variable.count)
                }
                value = value.replacingOccurrences(of: "$(TARGET_NAME)", with: targetName)
                    .replacingOccurrences(of: "${TARGET_NAME}", with: targetName)
                return XcodeProject.join(sourceRoot, value)
            }
            return nil
        }
    }
}
