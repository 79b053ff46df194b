import Yams

/// Bounds on what a configuration file may cost to read. A `.synclint.yml` comes with the repository
/// being linted, so one pull request could otherwise hang or exhaust a CI runner: nine levels of nine
/// YAML aliases name 9⁹ (387 million) values in a few hundred bytes.
enum ConfigurationLimits {
    /// Larger configuration files are refused unread.
    static let maximumFileSize = 1_048_576
    /// Values (scalars, lists, mappings) the configuration may hold once every alias is expanded.
    static let maximumValues = 100_000
    /// Nesting of lists and mappings. The YAML reader recurses once per level (about 2 KB of stack in a
    /// debug build), so `- - - - x` repeated 300,000 times overflowed the stack before this bound.
    static let maximumNesting = 200

    /// The nesting bound, checked on the text before it is parsed, as a reason, or nil.
    ///
    /// Flow collections (`[`, `{`) are counted directly. A block collection must start further right
    /// than the one it is in (an indentless list under a key being the one exception, at most doubling
    /// the count), so block nesting at a line is bounded by its indentation plus the `- `, `? ` and
    /// `: ` indicators on it, which is what is counted. Both counts over-estimate (brackets or
    /// indicators inside quoted text count too); that only matters for a line hundreds of them long.
    static func nestingProblem(in text: String) -> String? {
        let problem = "nests lists or mappings deeper than the limit of \(maximumNesting) levels"
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        let indicators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":")]
        var flowDepth = 0
        for line in text.utf8.split(separator: newline, omittingEmptySubsequences: true) {
            let bytes = Array(line)
            var blockDepth = bytes.prefix(while: { $0 == space }).count
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                    flowDepth += 1
                    if flowDepth > maximumNesting { return problem }
                } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                    flowDepth = max(0, flowDepth - 1)
                } else if indicators.contains(byte), index + 1 == bytes.count || bytes[index + 1] == space || bytes[index + 1] == tab {
                    blockDepth += 1
                }
            }
            if blockDepth > maximumNesting { return problem }
        }
        return nil
    }

    /// Whether the composed document, with each alias counted as the copy a reader gets, holds more
    /// than `maximumValues` values. Composing shares an aliased node instead of copying it, so the
    /// bomb is cheap until something walks it; this walk stops as soon as the bound is passed.
    static func exceedsValueLimit(_ root: Node) -> Bool {
        var remaining = maximumValues
        func visit(_ node: Node) -> Bool {
            remaining -= 1
            guard remaining >= 0 else { return false }
            switch node {
            case .scalar:
                return true
            case .sequence(let sequence):
                return sequence.allSatisfy(visit)
            case .mapping(let mapping):
                return mapping.allSatisfy { visit($0.key) && visit($0.value) }
            }
        }
        return !visit(root)
    }
}
