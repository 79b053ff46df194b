import SwiftSyntax

/// Moves a block of code to another indentation by rewriting the whitespace after each newline in
/// its tokens' leading trivia: a line that starts with `from` starts with `to` instead. Lines that do
/// not start with `from` (odd hand formatting) are left alone. Only trivia changes, never tokens.
final class Reindenter: SyntaxRewriter {
    private let from: String
    private let to: String

    init(from: String, to: String) {
        self.from = from
        self.to = to
        super.init(viewMode: .sourceAccurate)
    }

    /// Whether re-indenting a node would change what it means: a multi-line string's lines are its
    /// content, not trivia, so they would stay while the code around them moved.
    static func containsMultilineString(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .multilineStringQuote }
    }

    override func visit(_ token: TokenSyntax) -> TokenSyntax {
        var pieces: [TriviaPiece] = []
        var afterNewline = false
        var indentation = ""
        func flushIndentation() {
            guard !indentation.isEmpty else { return }
            let moved = indentation.hasPrefix(from) ? to + indentation.dropFirst(from.count) : indentation
            pieces.append(contentsOf: Trivia.fromWhitespace(moved).pieces)
            indentation = ""
        }
        for piece in token.leadingTrivia {
            switch piece {
            case .newlines, .carriageReturns, .carriageReturnLineFeeds:
                flushIndentation()
                pieces.append(piece)
                afterNewline = true
            case .spaces(let count) where afterNewline:
                indentation += String(repeating: " ", count: count)
            case .tabs(let count) where afterNewline:
                indentation += String(repeating: "\t", count: count)
            default:
                flushIndentation()
                afterNewline = false
                pieces.append(piece)
            }
        }
        flushIndentation()
        return token.with(\.leadingTrivia, Trivia(pieces: pieces))
    }
}

extension Trivia {
    /// Spaces and tabs, in order, as trivia pieces.
    static func fromWhitespace(_ text: String) -> Trivia {
        var pieces: [TriviaPiece] = []
        for character in text {
            switch (character, pieces.last) {
            case (" ", .spaces(let count)?): pieces[pieces.count - 1] = .spaces(count + 1)
            case ("\t", .tabs(let count)?): pieces[pieces.count - 1] = .tabs(count + 1)
            case (" ", _): pieces.append(.spaces(1))
            default: pieces.append(.tabs(1))
            }
        }
        return Trivia(pieces: pieces)
    }
}
