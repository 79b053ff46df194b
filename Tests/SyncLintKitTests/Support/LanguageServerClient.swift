import Foundation

/// An editor's side of `synclint lsp`: the built `synclint` started with pipes, JSON-RPC frames written
/// to its standard input and read from its standard output on a background thread.
final class LanguageServerClient: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let condition = NSCondition()
    private var received: [[String: Any]] = []
    private var nextID = 1
    private var errorText = Data()

    init(arguments: [String] = ["lsp", "--debounce", "20"], folder: URL) throws {
        process.executableURL = Repository.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let reading = output.fileHandleForReading
        Thread.detachNewThread { [self] in readFrames(reading) }
        let errorReading = errors.fileHandleForReading
        Thread.detachNewThread { [self] in
            let data = errorReading.readDataToEndOfFile()
            condition.withLock { errorText = data }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// What the server logged (complete once it exited).
    var stderr: String { condition.withLock { String(decoding: errorText, as: UTF8.self) } }

    func sendRaw(_ bytes: Data) {
        input.fileHandleForWriting.write(bytes)
    }

    static func frame(_ message: [String: Any]) -> Data {
        var object = message
        object["jsonrpc"] = "2.0"
        // cannot fail: tests build messages from JSON types only.
        let body = try! JSONSerialization.data(withJSONObject: object)
        return Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    @discardableResult
    func request(_ method: String, _ params: [String: Any] = [:]) -> Int {
        let id = condition.withLock { () -> Int in
            defer { nextID += 1 }
            return nextID
        }
        sendRaw(Self.frame(["id": id, "method": method, "params": params]))
        return id
    }

    func notify(_ method: String, _ params: [String: Any] = [:]) {
        sendRaw(Self.frame(["method": method, "params": params]))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// The first message received that matches, waiting up to `timeout` seconds; nil after it.
    func wait(timeout: Double = 60, for matches: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = received.first(where: matches) { return found }
            if !condition.wait(until: deadline) { return received.first(where: matches) }
        }
    }

    /// How many received messages match, once at least `count` do or after `timeout` seconds.
    func count(atLeast count: Int, timeout: Double = 60, where matches: ([String: Any]) -> Bool) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let found = received.filter(matches).count
            if found >= count || !condition.wait(until: deadline) { return received.filter(matches).count }
        }
    }

    func response(to id: Int, timeout: Double = 60) -> [String: Any]? {
        wait(timeout: timeout) { ($0["id"] as? Int) == id && $0["method"] == nil }
    }

    /// The latest diagnostics published for a document at a version (any version when nil), waiting for them.
    func diagnostics(uri: String, version: Int? = nil, timeout: Double = 60) -> [[String: Any]]? {
        let found = wait(timeout: timeout) { message in
            guard message["method"] as? String == "textDocument/publishDiagnostics",
                  let params = message["params"] as? [String: Any], params["uri"] as? String == uri else { return false }
            return version == nil || params["version"] as? Int == version
        }
        return (found?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]
    }

    /// Every message received so far.
    var messages: [[String: Any]] { condition.withLock { received } }

    /// Forgets the messages received so far (so a later wait sees only new ones).
    func clear() { condition.withLock { received = [] } }

    /// Starts the session: `initialize` with the folder as the workspace, then `initialized`.
    @discardableResult
    func initialize(folder: URL, capabilities: [String: Any] = [:], options: [String: Any] = [:]) -> [String: Any]? {
        let id = request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": capabilities,
                                        "initializationOptions": options,
                                        "workspaceFolders": [["uri": folder.absoluteString, "name": "test"]]])
        let answer = response(to: id)
        notify("initialized")
        return answer
    }

    func open(_ uri: String, text: String, version: Int = 1) {
        notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "swift", "version": version, "text": text]])
    }

    /// Waits for the server to exit; its status, or nil if it is still running after `timeout`.
    func exitStatus(timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { return nil }
        return process.terminationStatus
    }

    private func readFrames(_ handle: FileHandle) {
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let headerEnd = buffer.range(of: Data("\r\n\r\n".utf8)) {
                let header = String(decoding: buffer[buffer.startIndex..<headerEnd.lowerBound], as: UTF8.self)
                guard let lengthLine = header.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
                      let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else {
                    buffer = Data()
                    break
                }
                let bodyStart = headerEnd.upperBound
                guard buffer.distance(from: bodyStart, to: buffer.endIndex) >= length else { break }
                let bodyEnd = buffer.index(bodyStart, offsetBy: length)
                if let message = try? JSONSerialization.jsonObject(with: buffer[bodyStart..<bodyEnd]) as? [String: Any] {
                    condition.withLock {
                        received.append(message)
                        condition.broadcast()
                    }
                }
                buffer = Data(buffer[bodyEnd...])
            }
        }
        condition.withLock { condition.broadcast() }
    }
}
