import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintServer

/// `synclint lsp` driven as an editor drives it: the built executable, JSON-RPC frames over pipes.
struct LanguageServerTests {
    static let badView = """
        import SwiftUI
        struct ItemView: View {
            let item: Item
            var body: some View {
                Text(item.title).task { await load(item) }
            }
        }
        @Model final class Item { var title: String = "" }
        """
    static let goodView = badView.replacingOccurrences(of: ".task {", with: ".task(id: item.id) {")

    /// A project folder (a `Package.swift` makes it one) holding the given files.
    private func project(_ files: [String: String]) throws -> URL {
        let folder = try Repository.temporaryFolder().resolvingSymlinksInPath()
        try "// swift-tools-version: 6.0\n".write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        // The bad view's rule is opt-in: the project's configuration turns it on.
        try Configuration.stockRulesYAML.write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    private func uri(_ folder: URL, _ name: String) -> String { folder.appendingPathComponent(name).absoluteString }

    private func finish(_ client: LanguageServerClient) -> Int32? {
        let id = client.request("shutdown")
        _ = client.response(to: id)
        client.notify("exit")
        return client.exitStatus()
    }

    @Test func lifecycleAnswersInOrderAndExitsZeroOnlyAfterShutdown() throws {
        let folder = try project([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        let early = client.request("textDocument/hover", ["textDocument": ["uri": uri(folder, "A.swift")], "position": ["line": 0, "character": 0]])
        #expect((client.response(to: early)?["error"] as? [String: Any])?["code"] as? Int == -32002)
        let answer = client.initialize(folder: folder)
        let capabilities = (answer?["result"] as? [String: Any])?["capabilities"] as? [String: Any]
        #expect((capabilities?["textDocumentSync"] as? [String: Any])?["change"] as? Int == 2, "incremental sync")
        #expect(capabilities?["hoverProvider"] as? Bool == true)
        #expect(capabilities?["diagnosticProvider"] == nil, "no pull diagnostics unless the client asks")
        let shutdown = client.request("shutdown")
        #expect(client.response(to: shutdown)?["result"] is NSNull)
        let after = client.request("textDocument/hover", ["textDocument": ["uri": uri(folder, "A.swift")], "position": ["line": 0, "character": 0]])
        #expect((client.response(to: after)?["error"] as? [String: Any])?["code"] as? Int == -32600)
        client.notify("exit")
        #expect(client.exitStatus() == 0)

        let abrupt = try LanguageServerClient(folder: folder)
        abrupt.initialize(folder: folder)
        abrupt.notify("exit")
        #expect(abrupt.exitStatus() == 1, "exit without shutdown")

        let closed = try LanguageServerClient(folder: folder)
        closed.initialize(folder: folder)
        closed.closeInput()
        #expect(closed.exitStatus() == 1, "the editor went away without shutdown")
    }

    @Test func diagnosticsCarryRuleSourceSeverityAndDocumentation() throws {
        let folder = try project(["ItemView.swift": Self.badView])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder)
        let file = uri(folder, "ItemView.swift")
        client.open(file, text: Self.badView)
        let diagnostics = try #require(client.diagnostics(uri: file, version: 1))
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic["code"] as? String == "task_without_id")
        #expect(diagnostic["source"] as? String == "synclint")
        #expect(diagnostic["severity"] as? Int == 2)
        let range = try #require(Position.range(diagnostic["range"]))
        // `lint` reports 5:25 (1-based, scalars); the range covers `.task`.
        #expect(range.start == Position(line: 4, character: 24))
        #expect(range.end == Position(line: 4, character: 29))
        let href = try #require((diagnostic["codeDescription"] as? [String: Any])?["href"] as? String)
        #expect(href.hasSuffix("#task_without_id-task-without-id") || href.contains("#task_without_id"), "\(href)")
        if href.hasPrefix("file://"), let url = URL(string: href) {
            let reference = try String(contentsOf: url, encoding: .utf8)
            #expect(reference.contains("## `task_without_id`"), "the link points at a reference that exists")
        }
        #expect(finish(client) == 0)
    }

    /// A finding's notes become `relatedInformation`: here the store that syncs, declared in another file.
    @Test func notesBecomeRelatedInformation() throws {
        let model = """
            import SwiftData
            @Model final class Article {
                @Attribute(.unique) var url: URL = URL(string: "about:blank")!
            }
            """
        let store = "import SwiftData\nlet configuration = ModelConfiguration(cloudKitDatabase: .private(\"iCloud.com.example.App\"))\n"
        let folder = try project(["Article.swift": model, "Store.swift": store])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder)
        let file = uri(folder, "Article.swift")
        client.open(file, text: model)
        let diagnostics = try #require(client.diagnostics(uri: file, version: 1))
        let unique = try #require(diagnostics.first { $0["code"] as? String == "cloudkit_unique_constraint" })
        let related = try #require(unique["relatedInformation"] as? [[String: Any]])
        let note = try #require(related.first)
        #expect((note["message"] as? String)?.contains("syncs with CloudKit") == true)
        let location = try #require(note["location"] as? [String: Any])
        #expect(location["uri"] as? String == uri(folder, "Store.swift"))
        let start = try #require(Position.range(location["range"])?.start)
        #expect(start.line == 1, "the store is declared on the second line")
        #expect(finish(client) == 0)
    }

    @Test func fullAndIncrementalChangesSaveAndCloseUpdateDiagnostics() throws {
        let folder = try project(["ItemView.swift": Self.badView])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder)
        let file = uri(folder, "ItemView.swift")
        client.open(file, text: Self.badView)
        #expect(client.diagnostics(uri: file, version: 1)?.count == 1)
        // Incremental: insert `(id: item.id)` after `.task` on line 5 (0-based 4), after an emoji that
        // takes two UTF-16 units, so a wrong unit would land the insertion elsewhere.
        client.notify("textDocument/didChange", ["textDocument": ["uri": file, "version": 2], "contentChanges": [
            ["range": ["start": ["line": 4, "character": 8], "end": ["line": 4, "character": 8]], "text": "let _ = \"😀\"; "],
        ]])
        #expect(client.diagnostics(uri: file, version: 2).map { $0.compactMap { Position.range($0["range"])?.start } }
                == [Position(line: 4, character: 24 + 14)])
        client.notify("textDocument/didChange", ["textDocument": ["uri": file, "version": 3], "contentChanges": [
            ["range": ["start": ["line": 4, "character": 43], "end": ["line": 4, "character": 43]], "text": "(id: item.id)"],
        ]])
        #expect(client.diagnostics(uri: file, version: 3)?.isEmpty == true, "\(client.messages.suffix(2))")
        // Full sync: the whole text again.
        client.notify("textDocument/didChange", ["textDocument": ["uri": file, "version": 4], "contentChanges": [["text": Self.badView]]])
        #expect(client.diagnostics(uri: file, version: 4)?.count == 1)
        client.notify("textDocument/didSave", ["textDocument": ["uri": file]])
        client.clear()
        client.notify("textDocument/didClose", ["textDocument": ["uri": file]])
        #expect(client.diagnostics(uri: file)?.isEmpty == true, "closing clears the file's diagnostics")
        #expect(finish(client) == 0)
    }

    @Test func anEditToOneFileUpdatesTheOpenFilesItAffects() throws {
        let models = """
            import SwiftData
            @Model final class DiceGroup { var name: String = "" }
            @Model final class Die { var value: Int = 1 }
            """
        // The app inserts `Die`, so its missing registration is a proven crash (a model nothing names is medium, hidden).
        let app = "let app = WindowGroup { ContentView() }.modelContainer(for: DiceGroup.self)\nfunc roll(_ context: ModelContext) { context.insert(Die()) }\n"
        let folder = try project(["Models.swift": models, "App.swift": app])
        defer { try? FileManager.default.removeItem(at: folder) }
        // `unregistered_model` is opt-in (its figure on unseen apps): the project turns it on.
        try "opt_in_rules:\n  - unregistered_model\n".write(to: folder.appendingPathComponent(".synclint.yml"), atomically: true, encoding: .utf8)
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder)
        let modelsURI = uri(folder, "Models.swift"), appURI = uri(folder, "App.swift")
        client.open(modelsURI, text: models)
        #expect(client.diagnostics(uri: modelsURI, version: 1)?.compactMap { $0["code"] as? String } == ["unregistered_model"])
        client.open(appURI, text: app)
        client.clear()
        // The unsaved buffer registers `Die`: the model file's finding goes, though the file on disk still lacks it.
        client.notify("textDocument/didChange", ["textDocument": ["uri": appURI, "version": 2], "contentChanges": [
            ["text": app.replacingOccurrences(of: "DiceGroup.self", with: "[DiceGroup.self, Die.self]")],
        ]])
        #expect(client.diagnostics(uri: modelsURI)?.isEmpty == true)
        #expect(finish(client) == 0)
    }

    @Test func codeActionsOfferTheFixASuppressionAndTheDocumentation() throws {
        let folder = try project(["ItemView.swift": Self.badView])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder)
        let file = uri(folder, "ItemView.swift")
        client.open(file, text: Self.badView)
        let diagnostic = try #require(client.diagnostics(uri: file, version: 1)?.first)
        let id = client.request("textDocument/codeAction", ["textDocument": ["uri": file], "range": diagnostic["range"] as Any,
                                                            "context": ["diagnostics": [diagnostic]]])
        let actions = try #require(client.response(to: id)?["result"] as? [[String: Any]])
        let titles = actions.compactMap { $0["title"] as? String }
        #expect(titles.contains { $0.hasPrefix("Fix ") && $0.contains("changes behaviour") }, "\(titles)")
        #expect(titles.contains("Suppress task_without_id on this line"))
        #expect(titles.contains("Show documentation for task_without_id"))
        let suppression = try #require(actions.first { $0["title"] as? String == "Suppress task_without_id on this line" })
        let edits = try #require(((suppression["edit"] as? [String: Any])?["changes"] as? [String: Any])?[file] as? [[String: Any]])
        #expect(edits.first?["newText"] as? String == "        // synclint:disable:next task_without_id\n")
        // Applying the suppression, as the editor would, silences the finding.
        client.notify("textDocument/didChange", ["textDocument": ["uri": file, "version": 2], "contentChanges": [
            ["range": edits[0]["range"] as Any, "text": edits[0]["newText"] as Any],
        ]])
        #expect(client.diagnostics(uri: file, version: 2)?.isEmpty == true)
        // The fix's edit, applied to the original text, gives the rule's fixed form.
        client.notify("textDocument/didChange", ["textDocument": ["uri": file, "version": 3], "contentChanges": [["text": Self.badView]]])
        _ = client.diagnostics(uri: file, version: 3)
        let again = client.request("textDocument/codeAction", ["textDocument": ["uri": file], "range": diagnostic["range"] as Any,
                                                               "context": ["diagnostics": [diagnostic]]])
        let fix = try #require((client.response(to: again)?["result"] as? [[String: Any]])?.first { ($0["title"] as? String)?.hasPrefix("Fix ") == true })
        let fixEdits = try #require(((fix["edit"] as? [String: Any])?["changes"] as? [String: Any])?[file] as? [[String: Any]])
        var document = TextDocument(uri: file, path: folder.appendingPathComponent("ItemView.swift").path, version: 3, text: Self.badView)
        for edit in fixEdits.reversed() {
            document.apply(range: Position.range(edit["range"]), text: edit["newText"] as? String ?? "")
        }
        #expect(document.text.contains(".task(id:"), "\(document.text)")
        let command = client.request("workspace/executeCommand", ["command": "synclint.showDocumentation", "arguments": ["task_without_id"]])
        #expect(client.response(to: command)?["error"] == nil)
        #expect(finish(client) == 0)
    }

    @Test func hoverExplainsTheFinding() throws {
        let folder = try project(["ItemView.swift": Self.badView])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder)
        let file = uri(folder, "ItemView.swift")
        client.open(file, text: Self.badView)
        _ = client.diagnostics(uri: file, version: 1)
        let on = client.request("textDocument/hover", ["textDocument": ["uri": file], "position": ["line": 4, "character": 27]])
        let value = ((client.response(to: on)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(value.contains("### What it does") && value.contains("### Example") && value.contains("### Use instead"), "\(value)")
        let off = client.request("textDocument/hover", ["textDocument": ["uri": file], "position": ["line": 1, "character": 3]])
        #expect(client.response(to: off)?["result"] is NSNull, "no finding there, no hover")
        #expect(finish(client) == 0)
    }

    @Test func aChangedConfigurationIsReloaded() throws {
        let folder = try project(["ItemView.swift": Self.badView])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder, capabilities: ["workspace": ["didChangeWatchedFiles": ["dynamicRegistration": true]]])
        let registration = client.wait { $0["method"] as? String == "client/registerCapability" }
        #expect(((registration?["params"] as? [String: Any])?["registrations"] as? [[String: Any]])?.first?["method"] as? String
                == "workspace/didChangeWatchedFiles")
        let file = uri(folder, "ItemView.swift")
        client.open(file, text: Self.badView)
        #expect(client.diagnostics(uri: file, version: 1)?.count == 1)
        let configuration = folder.appendingPathComponent(".synclint.yml")
        try "disabled_rules:\n  - task_without_id\n".write(to: configuration, atomically: true, encoding: .utf8)
        client.clear()
        client.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": configuration.absoluteString, "type": 1]]])
        #expect(client.diagnostics(uri: file)?.isEmpty == true)
        #expect(finish(client) == 0)
    }

    @Test func pullDiagnosticsAndCancellation() throws {
        let folder = try project(["ItemView.swift": Self.badView])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        let answer = client.initialize(folder: folder, capabilities: ["textDocument": ["diagnostic": ["dynamicRegistration": false]]])
        #expect(((answer?["result"] as? [String: Any])?["capabilities"] as? [String: Any])?["diagnosticProvider"] != nil)
        let file = uri(folder, "ItemView.swift")
        client.open(file, text: Self.badView)
        let pull = client.request("textDocument/diagnostic", ["textDocument": ["uri": file]])
        let report = client.response(to: pull)?["result"] as? [String: Any]
        #expect(report?["kind"] as? String == "full")
        #expect((report?["items"] as? [[String: Any]])?.first?["code"] as? String == "task_without_id")
        #expect(!client.messages.contains { $0["method"] as? String == "textDocument/publishDiagnostics" }, "a pulling client gets no pushes")
        // A request cancelled before the server answers it is answered with RequestCancelled. The cancel is
        // read first (the message loop reads in order), so the answer always finds it: sent after the request,
        // it raced the analysis queue, which may answer an unchanged document before the loop reads the cancel.
        let cancelledID = 900
        client.sendRaw(LanguageServerClient.frame(["method": "$/cancelRequest", "params": ["id": cancelledID]])
                       + LanguageServerClient.frame(["id": cancelledID, "method": "textDocument/diagnostic", "params": ["textDocument": ["uri": file]]]))
        let cancelled = client.response(to: cancelledID)
        #expect((cancelled?["error"] as? [String: Any])?["code"] as? Int == -32800, "\(String(describing: cancelled))")
        #expect(finish(client) == 0)
    }

    @Test func unknownMethodsMalformedAndTruncatedInputNeverCrash() throws {
        let folder = try project([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder)
        let unknown = client.request("synclint/noSuchMethod")
        #expect((client.response(to: unknown)?["error"] as? [String: Any])?["code"] as? Int == -32601)
        client.notify("$/noSuchNotification")
        client.sendRaw(Data("Content-Length: 9\r\n\r\n{not json".utf8))
        client.sendRaw(Data("X-Header: no length\r\n\r\n".utf8))
        client.sendRaw(Data("Content-Length: 2\r\n\r\n[]".utf8))
        let parseErrors = client.count(atLeast: 3) { ($0["error"] as? [String: Any])?["code"] as? Int == -32700 }
        #expect(parseErrors == 3, "\(client.messages)")
        let alive = client.request("synclint/stillThere")
        #expect(client.response(to: alive) != nil, "the server reads on after bad frames")
        // A frame cut short by the end of input: the server logs it and exits 1, without a crash.
        client.sendRaw(Data("Content-Length: 100\r\n\r\n{\"jsonrpc\":".utf8))
        client.closeInput()
        #expect(client.exitStatus() == 1)
        #expect(client.stderr.contains("ended inside a message"), "\(client.stderr)")
    }

    @Test func nonParsingHugeAndBurstyBuffersAreAnalysedWithoutACrash() throws {
        let folder = try project(["ItemView.swift": Self.badView])
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try LanguageServerClient(folder: folder)
        client.initialize(folder: folder)
        let broken = uri(folder, "Broken.swift")
        client.open(broken, text: "struct {{{ func ( let = \n")
        #expect(client.diagnostics(uri: broken, version: 1) != nil)

        // A 10 MB buffer: the finding after it is still placed exactly.
        let file = uri(folder, "ItemView.swift")
        let filler = String(repeating: "// " + String(repeating: "x", count: 97) + "\n", count: 100_000)
        client.open(file, text: filler + Self.badView)
        let huge = client.diagnostics(uri: file, version: 1, timeout: 300)
        #expect(huge?.compactMap { Position.range($0["range"])?.start } == [Position(line: 100_004, character: 24)])

        // A thousand edits in one burst: stale work is dropped and the last version's diagnostics arrive.
        let small = uri(folder, "Small.swift")
        client.open(small, text: Self.badView)
        _ = client.diagnostics(uri: small, version: 1)
        var burst = Data()
        for version in 2...1001 {
            burst += LanguageServerClient.frame(["method": "textDocument/didChange", "params": [
                "textDocument": ["uri": small, "version": version],
                "contentChanges": [["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "text": " "]],
            ]])
        }
        client.sendRaw(burst)
        let last = client.diagnostics(uri: small, version: 1001)
        #expect(last?.count == 1)
        let published = client.messages.filter {
            $0["method"] as? String == "textDocument/publishDiagnostics" && ($0["params"] as? [String: Any])?["uri"] as? String == small
        }.count
        #expect(published < 100, "debounced: \(published) publications for 1,000 edits")
        #expect(finish(client) == 0)
    }

    @Test func positionsCountUTF16UnitsAndClampAtLineEnds() {
        var document = TextDocument(uri: "file:///a.swift", path: "/a.swift", version: 1, text: "a😀b\nsecond\r\nthird")
        #expect(document.offset(of: Position(line: 0, character: 3)) == 5, "the emoji is two UTF-16 units and four bytes")
        #expect(document.offset(of: Position(line: 0, character: 99)) == 6, "past the end of the line: its end")
        #expect(document.offset(of: Position(line: 1, character: 99)) == 13, "a CRLF line ends before its CR")
        #expect(document.offset(of: Position(line: 9, character: 0)) == document.text.utf8.count)
        #expect(document.position(ofOffset: 5) == Position(line: 0, character: 3))
        let range = document.range(line: 1, scalarColumn: 2)
        #expect(range.start == Position(line: 0, character: 1) && range.end == Position(line: 0, character: 4))
        document.apply(range: (Position(line: 0, character: 1), Position(line: 1, character: 3)), text: "Z")
        #expect(document.text == "aZond\r\nthird")
    }
}
