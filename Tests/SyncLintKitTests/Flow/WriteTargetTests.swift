import SwiftParser
import SwiftSyntax
import Testing
@testable import SyncLintSyntax

/// What a statement writes (`SyntaxFacts.writeTarget`): the element before a leading `=` or compound assignment of the
/// unfolded sequence, whatever operators the value has; a comparison writes nothing.
struct WriteTargetTests {
    private func target(_ statement: String) -> String? {
        let file = Parser.parse(source: statement)
        guard let sequence = file.statements.first?.item.as(SequenceExprSyntax.self) else { return nil }
        return SyntaxFacts.writeTarget(sequence)?.trimmedDescription
    }

    @Test func anAssignmentWritesItsTargetWhateverTheValue() {
        #expect(target("count = 1") == "count")
        #expect(target("count = await load() ?? 0") == "count")
        #expect(target("self.total += a * b") == "self.total")
    }

    @Test func aComparisonWritesNothing() {
        // The sequences are read (an assignment of the same shape has a target), and a comparison has none.
        #expect(target("a += b") == "a")
        #expect(target("a == b") == nil)
        #expect(target("a !== b") == nil)
        #expect(target("a <= b") == nil)
    }
}
