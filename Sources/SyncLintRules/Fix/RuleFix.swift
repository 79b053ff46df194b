import SwiftParser
import SwiftSyntax

/// A rule's automatic fix: the edits that repair one finding, computed from a fresh parse of the file.
/// Returns nil when this occurrence cannot be fixed safely (a shape the fix does not handle), so the
/// finding stays reported. Edits are `SourceEdit`s on the parsed tree's positions.
package protocol RuleFix {
    static var ruleID: String { get }
    static func edits(for finding: Finding, in file: FixableFile, options: RuleOptions) -> [SourceEdit]?
}

/// A file as a fix sees it: its tree and a way from a finding's line and column to a token.
package struct FixableFile {
    package let tree: SourceFileSyntax
    package let converter: SourceLocationConverter
    package let bytes: [UInt8]

    package init(text: String) {
        bytes = Array(text.utf8)
        tree = Parser.parse(source: text)
        converter = SourceLocationConverter(fileName: "", tree: tree)
    }

    package func token(at finding: Finding) -> TokenSyntax? {
        tree.token(at: converter.position(ofLine: finding.line, column: utf8Column(of: finding)))
    }

    /// A finding's column counts Unicode scalars; the converter counts bytes.
    private func utf8Column(of finding: Finding) -> Int {
        let start = converter.position(ofLine: finding.line, column: 1).utf8Offset
        guard start >= 0, start <= bytes.count else { return finding.column }
        let line = bytes[start...].prefix { $0 != 10 && $0 != 13 }
        return SourceColumn.utf8Column(line: Substring(String(decoding: line, as: UTF8.self)), scalarColumn: finding.column)
    }

    /// The leading whitespace of the line a node starts on.
    package func indentation(ofLineOf node: some SyntaxProtocol) -> String {
        let line = converter.location(for: node.positionAfterSkippingLeadingTrivia).line
        let start = converter.position(ofLine: line, column: 1).utf8Offset
        let indentation = bytes[min(start, bytes.count)...].prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return String(decoding: indentation, as: UTF8.self)
    }

    /// How much the parser had to recover: missing tokens plus unexpected nodes. A fix may not raise it.
    package var recoveryCount: Int {
        final class Counter: SyntaxVisitor {
            var count = 0
            override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind { count += 1; return .skipChildren }
            override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
                if token.presence == .missing { count += 1 }
                return .visitChildren
            }
        }
        let counter = Counter(viewMode: .all)
        counter.walk(tree)
        return counter.count
    }
}
