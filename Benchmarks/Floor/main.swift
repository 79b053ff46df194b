import Foundation
import SwiftSyntax
import SwiftParser
final class Counter: SyntaxAnyVisitor { var n = 0; override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind { n += 1; return .visitChildren } }
let root = CommandLine.arguments[1]
let e = FileManager.default.enumerator(atPath: root)!
var trees: [SourceFileSyntax] = []
var count = 0
while let p = e.nextObject() as? String { if p.hasSuffix(".swift") { let t = try! String(contentsOfFile: root + "/" + p, encoding: .utf8); let tr = Parser.parse(source: t); let c = Counter(viewMode: .sourceAccurate); c.walk(tr); count += c.n; if CommandLine.arguments.count > 2 { trees.append(tr) } } }
print(count, trees.count)
