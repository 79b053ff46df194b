import Dispatch
import Foundation
import SyncLintKit

/// `synclint lsp`: the Language Server Protocol 3.17 over standard input and output.
///
/// The message loop (the calling thread) only reads frames, keeps the documents' text and answers what
/// needs no analysis; the analysis runs on its own serial queue (`Analysis`), debounced while the user
/// types, and a run whose documents changed again before it finished publishes nothing.
public final class LanguageServer: @unchecked Sendable {
    public struct Options: Sendable {
        /// `--config`: one configuration for every file, as `lint --config` uses it.
        public var configuration: String?
        /// How long the documents must stay unchanged before an analysis starts.
        public var debounce: Double

        public init(configuration: String? = nil, debounce: Double = 0.05) {
            self.configuration = configuration
            self.debounce = debounce
        }
    }

    enum ErrorCode {
        static let parseError = -32700
        static let invalidRequest = -32600
        static let methodNotFound = -32601
        static let invalidParams = -32602
        static let serverNotInitialized = -32002
        static let requestCancelled = -32800
    }

    enum State { case starting, running, shuttingDown }

    let writer: MessageWriter
    private let reader: MessageReader
    let analysis: Analysis
    private let options: Options
    let lock = NSLock()
    private var state = State.starting
    /// Request ids the client cancelled that are not answered yet.
    private var cancelled: Set<String> = []
    var client = ClientCapabilities()
    private var nextRequestID = 1

    public init(options: Options, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.options = options
        writer = MessageWriter(descriptor: output)
        reader = MessageReader(descriptor: input)
        analysis = Analysis(configuration: options.configuration, debounce: options.debounce)
        analysis.server = self
    }

    /// Reads messages until `exit` or the end of input; returns the process's exit status (0 only
    /// after `shutdown`, as the protocol says).
    public func run() -> Int32 {
        while true {
            switch reader.next() {
            case .message(let data):
                if let status = handle(data) { return status }
            case .malformed(let problem):
                Log.line("malformed message: \(problem)")
                writer.send(["id": NSNull(), "error": ["code": ErrorCode.parseError, "message": problem]])
            case .end(let truncated):
                if truncated { Log.line("the input ended inside a message") }
                let shutDown = lock.withLock { state == .shuttingDown }
                if !shutDown { Log.line("the input ended without shutdown and exit") }
                return shutDown ? 0 : 1
            }
        }
    }

    /// Handles one message; a status when the server must exit.
    private func handle(_ data: Data) -> Int32? {
        guard let object = try? JSONSerialization.jsonObject(with: data), let message = object as? [String: Any] else {
            Log.line("a message that is not a JSON object (\(data.count) bytes)")
            writer.send(["id": NSNull(), "error": ["code": ErrorCode.parseError, "message": "not a JSON-RPC message"]])
            return nil
        }
        let method = message["method"] as? String
        let rawID = message["id"]
        let id: Any? = rawID is NSNull ? nil : rawID
        guard let method else {
            // A response to one of our requests (registerCapability, showDocument, refresh): nothing to do.
            if id == nil { Log.line("a message with neither method nor id") }
            return nil
        }
        let params = message["params"] as? [String: Any] ?? [:]
        if method == "exit" {
            return lock.withLock { state == .shuttingDown } ? 0 : 1
        }
        let current = lock.withLock { state }
        guard let id else {
            if current == .starting && method != "initialized" { return nil }
            notification(method, params)
            return nil
        }
        switch current {
        case .starting where method != "initialize":
            respond(id, error: ErrorCode.serverNotInitialized, "initialize first")
        case .shuttingDown:
            respond(id, error: ErrorCode.invalidRequest, "the server is shutting down")
        default:
            request(method, id: id, params)
        }
        return nil
    }

    private func notification(_ method: String, _ params: [String: Any]) {
        switch method {
        case "initialized": registerWatchers()
        case "textDocument/didOpen":
            guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
                  let text = item["text"] as? String, let path = Self.path(ofURI: uri) else {
                return Log.line("didOpen without a file URI and text")
            }
            analysis.open(TextDocument(uri: uri, path: path, version: item["version"] as? Int ?? 0, text: text))
        case "textDocument/didChange":
            guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
                  let changes = params["contentChanges"] as? [[String: Any]] else {
                return Log.line("didChange without a document and changes")
            }
            analysis.change(uri: uri, version: item["version"] as? Int, changes: changes.compactMap { change in
                guard let text = change["text"] as? String else { return nil }
                return (Position.range(change["range"]), text)
            })
        case "textDocument/didSave":
            if let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let path = Self.path(ofURI: uri),
               path.hasSuffix("/" + ConfigurationDiscovery.fileName) {
                analysis.reloadConfiguration()
            }
        case "textDocument/didClose":
            if let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String { analysis.close(uri: uri) }
        case "workspace/didChangeWatchedFiles":
            let paths = (params["changes"] as? [[String: Any]] ?? []).compactMap { ($0["uri"] as? String).flatMap(Self.path(ofURI:)) }
            analysis.filesChanged(paths)
        case "$/cancelRequest":
            // A cancel that arrives after its answer is never taken back out: the set is bounded.
            if let id = params["id"] {
                lock.withLock {
                    if cancelled.count >= 1024 { cancelled.removeAll() }
                    cancelled.insert(Self.key(id))
                }
            }
        default:
            break  // Unknown notifications are ignored, as the protocol asks.
        }
    }

    private func request(_ method: String, id: Any, _ params: [String: Any]) {
        switch method {
        case "initialize": initialize(id: id, params)
        case "shutdown":
            lock.withLock { state = .shuttingDown }
            respond(id, result: NSNull())
        case "textDocument/diagnostic":
            guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String else {
                return respond(id, error: ErrorCode.invalidParams, "textDocument.uri is required")
            }
            let box = SendableValue(id)
            analysis.pull(uri: uri) { [self] items in
                guard !takeCancelled(box.value) else { return respond(box.value, error: ErrorCode.requestCancelled, "cancelled") }
                respond(box.value, result: ["kind": "full", "items": items])
            }
        case "textDocument/codeAction":
            guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let range = Position.range(params["range"]) else {
                return respond(id, error: ErrorCode.invalidParams, "textDocument.uri and range are required")
            }
            respond(id, result: analysis.codeActions(uri: uri, range: range))
        case "textDocument/hover":
            guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let position = Position(params["position"]) else {
                return respond(id, error: ErrorCode.invalidParams, "textDocument.uri and position are required")
            }
            respond(id, result: analysis.hover(uri: uri, position: position).map { $0 as Any } ?? NSNull())
        case "workspace/executeCommand":
            guard params["command"] as? String == Analysis.showDocumentationCommand,
                  let ruleID = (params["arguments"] as? [Any])?.first as? String, let url = analysis.documentationURL(ruleID: ruleID) else {
                return respond(id, error: ErrorCode.invalidParams, "unknown command or rule")
            }
            if client.showDocument {
                sendRequest("window/showDocument", ["uri": url, "external": !url.hasPrefix("file:")])
            } else {
                sendNotification("window/showMessage", ["type": 3, "message": "\(ruleID): \(url)"])
            }
            respond(id, result: NSNull())
        default:
            respond(id, error: ErrorCode.methodNotFound, "unknown method \(method)")
        }
    }

    private func initialize(id: Any, _ params: [String: Any]) {
        let capabilities = params["capabilities"] as? [String: Any] ?? [:]
        client = ClientCapabilities(capabilities)
        var roots: [String] = []
        if let folders = params["workspaceFolders"] as? [[String: Any]] {
            roots = folders.compactMap { ($0["uri"] as? String).flatMap(Self.path(ofURI:)) }
        }
        if roots.isEmpty, let uri = params["rootUri"] as? String, let path = Self.path(ofURI: uri) { roots = [path] }
        if roots.isEmpty, let path = params["rootPath"] as? String { roots = [path] }
        if let debounce = (params["initializationOptions"] as? [String: Any])?["debounceMilliseconds"] as? Double {
            analysis.debounce = max(0, debounce) / 1000
        }
        analysis.start(roots: roots, pushes: !client.pullDiagnostics)
        var serverCapabilities: [String: Any] = [
            "positionEncoding": "utf-16",
            "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
            "codeActionProvider": ["codeActionKinds": ["quickfix"]],
            "hoverProvider": true,
            "executeCommandProvider": ["commands": [Analysis.showDocumentationCommand]],
            "workspace": ["workspaceFolders": ["supported": true, "changeNotifications": false]],
        ]
        if client.pullDiagnostics {
            serverCapabilities["diagnosticProvider"] = ["identifier": "synclint", "interFileDependencies": true, "workspaceDiagnostics": false]
        }
        lock.withLock { state = .running }
        respond(id, result: ["capabilities": serverCapabilities, "serverInfo": ["name": "synclint", "version": RuleDocumentation.version]])
    }

    /// Watches configuration files, and the files the index reads, when the client lets a server register
    /// watchers; without it, a `.synclint.yml` saved in the editor still reloads (`didSave`).
    private func registerWatchers() {
        guard client.dynamicWatchers else { return }
        let globs = ["**/" + ConfigurationDiscovery.fileName, "**/*.swift", "**/*.entitlements", "**/*.xcdatamodel/contents"]
        sendRequest("client/registerCapability", ["registrations": [[
            "id": "synclint-watched-files", "method": "workspace/didChangeWatchedFiles",
            "registerOptions": ["watchers": globs.map { ["globPattern": $0] }],
        ]]])
    }

    func respond(_ id: Any, result: Any) {
        _ = takeCancelled(id)
        writer.send(["id": id, "result": result])
    }

    func respond(_ id: Any, error code: Int, _ message: String) {
        _ = takeCancelled(id)
        writer.send(["id": id, "error": ["code": code, "message": message]])
    }

    func sendNotification(_ method: String, _ params: [String: Any]) {
        writer.send(["method": method, "params": params])
    }

    func sendRequest(_ method: String, _ params: [String: Any]) {
        let id = lock.withLock { () -> Int in
            defer { nextRequestID += 1 }
            return nextRequestID
        }
        writer.send(["id": "synclint-\(id)", "method": method, "params": params])
    }

    /// Whether the client cancelled this request; forgets it either way.
    private func takeCancelled(_ id: Any) -> Bool {
        lock.withLock { cancelled.remove(Self.key(id)) != nil }
    }

    private static func key(_ id: Any) -> String { "\(id)" }

    static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.standardizedFileURL.path
    }
}

/// What the client said it can do, in `initialize`.
struct ClientCapabilities {
    var pullDiagnostics = false
    var refreshDiagnostics = false
    var dynamicWatchers = false
    var showDocument = false
    var relatedInformation = false

    init() {}

    init(_ capabilities: [String: Any]) {
        let text = capabilities["textDocument"] as? [String: Any] ?? [:]
        let workspace = capabilities["workspace"] as? [String: Any] ?? [:]
        pullDiagnostics = text["diagnostic"] != nil
        refreshDiagnostics = (workspace["diagnostics"] as? [String: Any])?["refreshSupport"] as? Bool ?? false
        dynamicWatchers = (workspace["didChangeWatchedFiles"] as? [String: Any])?["dynamicRegistration"] as? Bool ?? false
        showDocument = ((capabilities["window"] as? [String: Any])?["showDocument"] as? [String: Any])?["support"] as? Bool ?? false
        relatedInformation = (text["publishDiagnostics"] as? [String: Any])?["relatedInformation"] as? Bool ?? false
    }
}

/// A JSON value handed to the analysis queue and back: JSON objects are never mutated once parsed.
struct SendableValue: @unchecked Sendable {
    let value: Any
    init(_ value: Any) { self.value = value }
}
