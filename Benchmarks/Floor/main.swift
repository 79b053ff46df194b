// The floor: the least work any swift-syntax based analyzer does on a folder. It finds the same
// `.swift` files SyncLint lints, reads and parses each once, visits every node once, in parallel
// across cores, and prints counts. SyncLint's benchmark compares its own time and memory to this.
import Dispatch
import Foundation
import SwiftParser
import SwiftSyntax

final class NodeCounter: SyntaxAnyVisitor {
    var nodes = 0

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        nodes += 1
        return .visitChildren
    }
}

final class Totals: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var files = 0
    private(set) var lines = 0
    private(set) var nodes = 0
    private(set) var parseSeconds = 0.0
    private(set) var visitSeconds = 0.0

    func add(lines: Int, nodes: Int, parse: Double, visit: Double) {
        lock.lock()
        files += 1
        self.lines += lines
        self.nodes += nodes
        parseSeconds += parse
        visitSeconds += visit
        lock.unlock()
    }
}

let skipped: Set<String> = [".build", "DerivedData", "Pods", "Carthage", "node_modules"]

func swiftFiles(under root: String) -> [String] {
    var files: [String] = []
    guard let enumerator = FileManager.default.enumerator(
        at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]) else { return [] }
    while let url = enumerator.nextObject() as? URL {
        if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
            if skipped.contains(url.lastPathComponent) { enumerator.skipDescendants() }
        } else if url.pathExtension == "swift" {
            files.append(url.path)
        }
    }
    return files.sorted()
}

/// What the parser had to recover from: unexpected nodes plus missing tokens (0 for a file that parses).
final class RecoveryCounter: SyntaxVisitor {
    var count = 0
    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind { count += 1; return .skipChildren }
    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if token.presence == .missing { count += 1 }
        return .visitChildren
    }
}

let usage = "usage: synclint-floor DIR [DIR ...]\n       synclint-floor --parse-errors FILE [FILE ...]\n"
var roots = Array(CommandLine.arguments.dropFirst())
guard !roots.isEmpty else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
// `--parse-errors FILE...`: for Benchmarks/fix-apps.sh, which checks that fixed files still parse. Prints
// `PATH: N` for each file the parser had to recover in N places (or could not read), nothing for the rest;
// exits 1 when it printed anything.
if roots.first == "--parse-errors" {
    roots.removeFirst()
    var failed = false
    for path in roots {
        guard let data = FileManager.default.contents(atPath: path) else {
            print("\(path): unreadable")
            failed = true
            continue
        }
        let counter = RecoveryCounter(viewMode: .all)
        counter.walk(Parser.parse(source: String(decoding: data, as: UTF8.self)))
        if counter.count > 0 {
            print("\(path): \(counter.count)")
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}
let files = roots.flatMap(swiftFiles(under:))
let totals = Totals()
DispatchQueue.concurrentPerform(iterations: files.count) { index in
    guard let data = FileManager.default.contents(atPath: files[index]),
          let text = String(data: data, encoding: .utf8) else { return }
    let start = DispatchTime.now().uptimeNanoseconds
    let tree = Parser.parse(source: text)
    let parsed = DispatchTime.now().uptimeNanoseconds
    let counter = NodeCounter(viewMode: .sourceAccurate)
    counter.walk(tree)
    let visited = DispatchTime.now().uptimeNanoseconds
    totals.add(lines: text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }, nodes: counter.nodes,
               parse: Double(parsed - start) / 1e9, visit: Double(visited - parsed) / 1e9)
}
print("files: \(totals.files)  lines: \(totals.lines)  nodes: \(totals.nodes)")
print(String(format: "summed over threads: parse %.3f s, visit %.3f s", totals.parseSeconds, totals.visitSeconds))
