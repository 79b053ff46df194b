import SwiftSyntax

/// One edit of a fix as an editor applies it: a range of UTF-8 byte offsets of the text and its replacement.
public struct TextReplacement: Sendable, Hashable {
    public let utf8Range: Range<Int>
    public let replacement: String
}

extension FixEngine {
    /// Whether the rule has an automatic fix, and how safe it is (nil: none).
    public static func fixSafety(ofRule ruleID: String) -> FixSafety? {
        guard fixes[ruleID] != nil else { return nil }
        return RuleRegistry.description(of: ruleID)?.fixSafety
    }

    /// The edits of one finding's fix on the text the finding was found in (an editor's code action),
    /// or nil when its rule has no fix or the fix does not handle this shape.
    public static func edits(for finding: Finding, text: String, options: RuleOptions) -> [TextReplacement]? {
        guard let fix = fixes[finding.ruleID],
              let edits = fix.edits(for: finding, in: FixableFile(text: text), options: options), !edits.isEmpty else { return nil }
        return edits.map { edit in
            TextReplacement(utf8Range: edit.range.lowerBound.utf8Offset..<edit.range.upperBound.utf8Offset,
                            replacement: String(decoding: edit.replacementBytes, as: UTF8.self))
        }
    }
}
