import SwiftParser
import SwiftSyntax

/// SplitMix64: a tiny generator whose sequence is fixed by its seed on every platform and toolchain,
/// so a mutant is named by (seed, index) alone. (The standard library's `random(in:using:)` may change
/// how it maps bits to ranges between releases; `below` does not.)
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }
}

/// Deterministic mutations of a source text: what an editor mid-keystroke, a bad merge or a corrupted
/// checkout hands a linter.
enum Mutator {
    enum Operation: String, CaseIterable {
        case truncate, deleteToken, duplicateToken, unbalancedBrace, randomBytes, swapLines, spliceFromOther
    }

    /// The mutant with the given index: its own generator is seeded from (seed, index), so any mutant
    /// can be rebuilt without replaying the ones before it.
    static func mutant(_ index: Int, seed: UInt64, corpus: [String]) -> (text: String, source: Int, operation: Operation) {
        var random = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        let source = random.below(corpus.count)
        let operation = Operation.allCases[random.below(Operation.allCases.count)]
        // One to three mutations stacked: the first names the mutant, the rest make odder trees.
        var text = apply(operation, to: corpus[source], random: &random, corpus: corpus)
        for _ in 0..<random.below(3) {
            text = apply(Operation.allCases[random.below(Operation.allCases.count)], to: text, random: &random, corpus: corpus)
        }
        return (text, source, operation)
    }

    static func apply(_ operation: Operation, to text: String, random: inout SplitMix64, corpus: [String]) -> String {
        var bytes = Array(text.utf8)
        switch operation {
        case .truncate:
            bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
        case .deleteToken, .duplicateToken:
            let tokens = tokenRanges(of: text)
            guard !tokens.isEmpty else { break }
            let range = tokens[random.below(tokens.count)]
            if operation == .deleteToken {
                bytes.removeSubrange(range)
            } else {
                bytes.insert(contentsOf: bytes[range], at: range.upperBound)
            }
        case .unbalancedBrace:
            let braces: [String] = ["{", "}", "(", ")", "[", "]", "#if X\n", "#endif\n", "\"", "\"\"\"\n", "/*", "<", ">"]
            let insertion = Array(braces[random.below(braces.count)].utf8)
            bytes.insert(contentsOf: insertion, at: random.below(bytes.count + 1))
        case .randomBytes:
            // Raw bytes, then decoded with replacement as a file read from disk would not be: the
            // pipeline takes text, so invalid UTF-8 becomes U+FFFD and NULs stay.
            let count = 1 + random.below(8)
            let noise = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes.insert(contentsOf: noise, at: random.below(bytes.count + 1))
        case .swapLines:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count > 1 else { break }
            lines.swapAt(random.below(lines.count), random.below(lines.count))
            return lines.joined(separator: "\n")
        case .spliceFromOther:
            let other = Array(corpus[random.below(corpus.count)].utf8)
            guard !other.isEmpty else { break }
            let start = random.below(other.count)
            let piece = other[start..<min(other.count, start + 1 + random.below(200))]
            bytes.insert(contentsOf: piece, at: random.below(bytes.count + 1))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Byte ranges of the text's tokens (without trivia), from the parser itself.
    static func tokenRanges(of text: String) -> [Range<Int>] {
        Parser.parse(source: text).tokens(viewMode: .sourceAccurate).compactMap { token in
            let start = token.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = token.endPositionBeforeTrailingTrivia.utf8Offset
            return start < end ? start..<end : nil
        }
    }
}
