import Dispatch
import Foundation
import SyncLintKit

/// The documents the editor has open, and their analysis, off the message loop.
///
/// The message loop writes documents (under `lock`) and schedules a run; runs happen one at a time on
/// `queue`, after `debounce` seconds without a change. A run hands the changed buffers to their
/// projects (`LiveProject`: only those files are walked again), resolves the findings of every open
/// document (an edit to a model updates the views that use it) and publishes those that changed.
/// A run that sees a newer change than the one it started from stops and publishes nothing: the
/// newer change has scheduled its own run.
final class Analysis: @unchecked Sendable {
    static let showDocumentationCommand = "synclint.showDocumentation"

    /// What was last published for a document, for code actions and hover (read on the message loop).
    struct Published {
        let version: Int
        let findings: [Finding]
        let diagnostics: [[String: Any]]
        let ruleOptions: [String: RuleOptions]
        let documentationBase: String?
    }

    unowned(unsafe) var server: LanguageServer!
    var debounce: Double
    private let configuration: String?
    private let queue = DispatchQueue(label: "synclint.analysis", qos: .userInitiated)
    private let lock = NSLock()

    // Shared with the message loop, under `lock`.
    private var documents: [String: TextDocument] = [:]
    private var generation = 0
    private var configurationChanged = false
    private var changedOnDisk: Set<String> = []
    private var published: [String: Published] = [:]
    private var pushes = true

    // Only on `queue`.
    private var workspaces: [LiveProject] = []
    /// Projects of open files outside every workspace folder, by root (or the file's path when alone).
    private var loneProjects: [String: LiveProject] = [:]
    /// The version of each document its project has: uri → (path, version).
    private var synced: [String: (path: String, version: Int)] = [:]

    init(configuration: String?, debounce: Double) {
        self.configuration = configuration
        self.debounce = debounce
    }

    // MARK: The message loop's side

    func start(roots: [String], pushes: Bool) {
        lock.withLock { self.pushes = pushes }
        queue.async { [self] in
            workspaces = roots.map { LiveProject(root: $0, explicitConfiguration: configuration) }
            for project in workspaces {
                var clock = DispatchTime.now().uptimeNanoseconds
                project.reload()
                clock = DispatchTime.now().uptimeNanoseconds - clock
                Log.line("indexed \(project.fileCount) Swift files of \(project.root ?? "") in \(clock / 1_000_000) ms")
                for warning in project.warnings { Log.line(warning) }
            }
        }
    }

    func open(_ document: TextDocument) {
        lock.withLock {
            documents[document.uri] = document
            generation += 1
        }
        schedule()
    }

    func change(uri: String, version: Int?, changes: [((start: Position, end: Position)?, String)]) {
        let known = lock.withLock { () -> Bool in
            guard var document = documents[uri] else { return false }
            for (range, text) in changes { document.apply(range: range, text: text) }
            document.version = version ?? document.version + 1
            documents[uri] = document
            generation += 1
            return true
        }
        if known { schedule() } else { Log.line("didChange for a document that is not open: \(uri)") }
    }

    func close(uri: String) {
        lock.withLock {
            documents[uri] = nil
            published[uri] = nil
            generation += 1
        }
        if pushesDiagnostics { server.sendNotification("textDocument/publishDiagnostics", ["uri": uri, "diagnostics": []]) }
        schedule()
    }

    func reloadConfiguration() {
        lock.withLock {
            configurationChanged = true
            generation += 1
        }
        schedule()
    }

    /// Files changed on disk (the client's file watchers): a configuration reloads its projects; a
    /// source that is not open is read again.
    func filesChanged(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        lock.withLock {
            for path in paths {
                if path.hasSuffix("/" + ConfigurationDiscovery.fileName) { configurationChanged = true } else { changedOnDisk.insert(path) }
            }
            generation += 1
        }
        schedule()
    }

    /// Pull diagnostics: the document's findings as of now, without waiting for the debounce.
    func pull(uri: String, completion: @escaping @Sendable ([[String: Any]]) -> Void) {
        queue.async { [self] in
            synchronize()
            publish(generation: nil)
            completion(lock.withLock { published[uri]?.diagnostics ?? [] })
        }
    }

    private var pushesDiagnostics: Bool { lock.withLock { pushes } }

    private func schedule() {
        let scheduled = lock.withLock { generation }
        queue.asyncAfter(deadline: .now() + debounce) { [self] in
            guard lock.withLock({ generation }) == scheduled else { return }
            synchronize()
            publish(generation: scheduled)
        }
    }

    // MARK: The analysis queue's side

    /// Hands every change since the last run to the projects: buffers opened, edited and closed, files
    /// changed on disk, configurations.
    private func synchronize() {
        let (snapshot, reload, onDisk) = lock.withLock { () -> ([String: TextDocument], Bool, Set<String>) in
            defer {
                configurationChanged = false
                changedOnDisk = []
            }
            return (documents, configurationChanged, changedOnDisk)
        }
        if reload {
            for project in workspaces + loneProjects.values {
                project.reload()
                for warning in project.warnings { Log.line(warning) }
            }
        }
        let openPaths = Set(snapshot.values.map(\.path))
        for path in onDisk.sorted() where !openPaths.contains(path) { project(for: path).setBuffer(path: path, text: nil) }
        for (uri, entry) in synced where snapshot[uri] == nil {
            project(for: entry.path).setBuffer(path: entry.path, text: nil)
            synced[uri] = nil
        }
        for (uri, document) in snapshot where synced[uri]?.version != document.version || synced[uri] == nil {
            project(for: document.path).setBuffer(path: document.path, text: document.text)
            synced[uri] = (document.path, document.version)
        }
        // A lone file's project lives while one of its files is open.
        let neededLone = Set(openPaths.compactMap { path in loneKey(for: path) })
        loneProjects = loneProjects.filter { neededLone.contains($0.key) }
    }

    /// Resolves every open document's findings and publishes those that changed; nothing when a newer
    /// change arrived meanwhile (`generation`), since that change's run will publish.
    private func publish(generation expected: Int?) {
        let snapshot = lock.withLock { documents }
        var byProject: [ObjectIdentifier: (project: LiveProject, documents: [TextDocument])] = [:]
        for document in snapshot.values {
            let project = self.project(for: document.path)
            byProject[ObjectIdentifier(project), default: (project, [])].documents.append(document)
        }
        var results: [String: Published] = [:]
        for (project, documents) in byProject.values {
            if let expected, lock.withLock({ generation }) != expected { return }
            let findings = Dictionary(grouping: project.findings(in: Set(documents.map(\.path))), by: \.file)
            for document in documents {
                let configuration = project.configuration(forFile: document.path)
                let base = configuration.documentationURL ?? RuleDocumentation.documentationURL ?? referenceURL()
                let found = findings[document.path] ?? []
                results[document.uri] = Published(version: document.version, findings: found,
                                                  diagnostics: found.map { Self.diagnostic($0, in: document, documentationBase: base) },
                                                  ruleOptions: configuration.ruleOptions, documentationBase: base)
            }
        }
        var changed: [(uri: String, published: Published)] = []
        let current = lock.withLock { () -> Bool in
            if let expected, generation != expected { return false }
            for (uri, result) in results where documents[uri]?.version == result.version {
                if let before = published[uri], before.version == result.version, before.findings == result.findings {
                    // Nothing new to say about this document.
                } else {
                    changed.append((uri, result))
                }
                published[uri] = result
            }
            return true
        }
        guard current, !changed.isEmpty else { return }
        if pushesDiagnostics {
            for (uri, result) in changed.sorted(by: { $0.uri < $1.uri }) {
                server.sendNotification("textDocument/publishDiagnostics",
                                        ["uri": uri, "version": result.version, "diagnostics": result.diagnostics])
            }
        } else if expected != nil, server.client.refreshDiagnostics {
            server.sendRequest("workspace/diagnostic/refresh", [:])
        }
    }

    private func project(for path: String) -> LiveProject {
        if let workspace = workspaces.filter({ path.hasPrefix(($0.root ?? "") + "/") }).max(by: { ($0.root ?? "").count < ($1.root ?? "").count }) {
            return workspace
        }
        // cannot fail: a path outside every workspace has a lone key.
        let key = loneKey(for: path)!
        if let project = loneProjects[key] { return project }
        let project = LiveProject(root: OwningProject.folder(of: path), explicitConfiguration: configuration)
        project.reload()
        loneProjects[key] = project
        return project
    }

    /// The key of a lone project: its root, or the file itself outside any project; nil inside a workspace.
    private func loneKey(for path: String) -> String? {
        if workspaces.contains(where: { path.hasPrefix(($0.root ?? "") + "/") }) { return nil }
        return OwningProject.folder(of: path) ?? path
    }

    /// The rule reference of this build, written once to the temporary folder, for diagnostics' links when
    /// no documentation URL is configured (an address that exists rather than a guessed one).
    private func referenceURL() -> String { Self.reference }

    private static let reference: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("synclint-\(RuleDocumentation.version)")
        let file = folder.appendingPathComponent("rules.md")
        let text = RuleDocumentation.reference(RuleRegistry.allDescriptions)
        if (try? String(contentsOf: file, encoding: .utf8)) != text {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: file, options: .atomic)
        }
        return file.absoluteString
    }()

    // MARK: Diagnostics, code actions, hover

    static func diagnostic(_ finding: Finding, in document: TextDocument, documentationBase: String) -> [String: Any] {
        var diagnostic: [String: Any] = [
            "range": Position.json(document.range(line: finding.line, scalarColumn: finding.column)),
            "severity": finding.severity == .error ? 1 : 2,
            "code": finding.ruleID,
            "codeDescription": ["href": href(ruleID: finding.ruleID, base: documentationBase)],
            "source": "synclint",
            "message": finding.message,
        ]
        let related = relatedInformation(finding)
        if !related.isEmpty { diagnostic["relatedInformation"] = related }
        return diagnostic
    }

    /// The finding's notes ("registered here", "the flag is set here") as related locations. A note's file
    /// need not be open, so its range is the zero-width point the note names (LSP lines and columns count
    /// from zero; a note's column counts from one).
    static func relatedInformation(_ finding: Finding) -> [[String: Any]] {
        finding.notes.map { note in
            let point: [String: Any] = ["line": max(note.location.line - 1, 0), "character": max(note.location.column - 1, 0)]
            return ["location": ["uri": URL(fileURLWithPath: note.location.file).absoluteString,
                                 "range": ["start": point, "end": point]],
                    "message": note.text]
        }
    }

    static func href(ruleID: String, base: String) -> String {
        base + "#" + (RuleRegistry.description(of: ruleID).map(RuleDocumentation.anchor(for:)) ?? ruleID)
    }

    func documentationURL(ruleID: String) -> String? {
        guard RuleRegistry.description(of: ruleID) != nil else { return nil }
        let base = lock.withLock { published.values.first?.documentationBase }
        return Self.href(ruleID: ruleID, base: base ?? RuleDocumentation.documentationURL ?? referenceURL())
    }

    /// The published findings of a document that touch the given lines, with their diagnostics.
    private func findings(uri: String, where touches: ((start: Position, end: Position)) -> Bool)
        -> (document: TextDocument, published: Published, found: [(Finding, [String: Any])])? {
        lock.withLock {
            guard let document = documents[uri], let published = published[uri] else { return nil }
            let found = zip(published.findings, published.diagnostics).filter { _, diagnostic in
                Position.range(diagnostic["range"]).map(touches) ?? false
            }
            return (document, published, found)
        }
    }

    func codeActions(uri: String, range: (start: Position, end: Position)) -> [[String: Any]] {
        guard let touching = findings(uri: uri, where: { diagnostic in
            diagnostic.start.line <= range.end.line && diagnostic.end.line >= range.start.line
        }) else { return [] }
        let (document, published, found) = touching
        var actions: [[String: Any]] = []
        for (finding, diagnostic) in found {
            guard let rule = RuleRegistry.description(of: finding.ruleID) else { continue }
            // A fix is computed on the text the finding was found in; after a newer edit it waits for the next run.
            if published.version == document.version, let safety = FixEngine.fixSafety(ofRule: finding.ruleID),
               let replacements = FixEngine.edits(for: finding, text: document.text,
                                                  options: published.ruleOptions[finding.ruleID] ?? RuleOptions()) {
                let edits = replacements.map { replacement -> [String: Any] in
                    ["range": Position.json((document.position(ofOffset: replacement.utf8Range.lowerBound),
                                             document.position(ofOffset: replacement.utf8Range.upperBound))),
                     "newText": replacement.replacement]
                }
                let note = safety == .safe ? "safe" : "changes behaviour, review it"
                actions.append(["title": "Fix \(rule.name) (\(note))", "kind": "quickfix", "diagnostics": [diagnostic],
                                "isPreferred": safety == .safe, "edit": ["changes": [uri: edits]]])
            }
            let line = max(0, finding.line - 1)
            let comment = document.path.hasSuffix(".swift") ? "// synclint:disable:next \(finding.ruleID)"
                : "<!-- synclint:disable:next \(finding.ruleID) -->"
            let insertion = Position(line: line, character: 0)
            actions.append(["title": "Suppress \(finding.ruleID) on this line", "kind": "quickfix", "diagnostics": [diagnostic],
                            "edit": ["changes": [uri: [["range": Position.json((insertion, insertion)),
                                                        "newText": document.indentation(ofLine: line) + comment + "\n"]]]]])
            actions.append(["title": "Show documentation for \(finding.ruleID)", "kind": "quickfix", "diagnostics": [diagnostic],
                            "command": ["title": "Show documentation for \(finding.ruleID)", "command": Self.showDocumentationCommand,
                                        "arguments": [finding.ruleID]]])
        }
        return actions
    }

    func hover(uri: String, position: Position) -> [String: Any]? {
        guard let found = findings(uri: uri, where: { diagnostic in
            diagnostic.start.line == position.line && diagnostic.start.character <= position.character
                && position.character <= diagnostic.end.character
        })?.found, !found.isEmpty else { return nil }
        var text = ""
        for (finding, diagnostic) in found {
            guard let rule = RuleRegistry.description(of: finding.ruleID) else { continue }
            if !text.isEmpty { text += "\n---\n\n" }
            text += "**\(finding.message)**\n\n" + RuleDocumentation.markdown(for: rule)
            if let href = (diagnostic["codeDescription"] as? [String: Any])?["href"] as? String { text += "[Documentation](\(href))\n" }
        }
        return ["contents": ["kind": "markdown", "value": text], "range": found[0].1["range"] as Any]
    }
}
