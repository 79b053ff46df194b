import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open document as the editor sees it: UTF-8 bytes, positions given as LSP gives them (a zero-based
/// line and a count of UTF-16 code units in it).
struct TextDocument {
    let uri: String
    let path: String
    var version: Int
    private(set) var bytes: [UInt8]

    init(uri: String, path: String, version: Int, text: String) {
        self.uri = uri
        self.path = path
        self.version = version
        bytes = Array(text.utf8)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A change from `didChange`: the whole text (no range), or a range replaced.
    mutating func apply(range: (start: Position, end: Position)?, text: String) {
        guard let range else {
            bytes = Array(text.utf8)
            return
        }
        let lower = offset(of: range.start), upper = max(lower, offset(of: range.end))
        bytes.replaceSubrange(lower..<upper, with: Array(text.utf8))
    }

    /// The UTF-8 offset of a position; a line past the end is the end, a character past its line's end
    /// is the line's end (as the protocol asks).
    func offset(of position: Position) -> Int {
        guard let lineStart = lineStart(position.line) else { return bytes.count }
        let lineEnd = self.lineEnd(from: lineStart)
        var units = 0, offset = lineStart
        while offset < lineEnd && units < position.character {
            let (width, utf16) = Self.scalarWidth(bytes[offset])
            offset += width
            units += utf16
        }
        return min(offset, lineEnd)
    }

    /// The position of a UTF-8 offset.
    func position(ofOffset target: Int) -> Position {
        let target = min(max(0, target), bytes.count)
        var line = 0, lineStart = 0
        bytes.withUnsafeBufferPointer { buffer in
            var position = 0
            while position < target, let offset = firstIndex(of: 10, in: buffer, from: position, to: target) {
                line += 1
                lineStart = offset + 1
                position = offset + 1
            }
        }
        var units = 0, offset = lineStart
        while offset < target {
            let (width, utf16) = Self.scalarWidth(bytes[offset])
            offset += width
            units += utf16
        }
        return Position(line: line, character: units)
    }

    /// A finding's place (1-based line, 1-based column in Unicode scalars) as a range: from the column
    /// to the end of the word there (at least one character, a leading dot included), so editors underline
    /// the name it is about.
    func range(line: Int, scalarColumn: Int) -> (start: Position, end: Position) {
        let zeroLine = max(0, line - 1)
        guard let lineStart = lineStart(zeroLine) else {
            let end = position(ofOffset: bytes.count)
            return (end, end)
        }
        let lineEnd = self.lineEnd(from: lineStart)
        var offset = lineStart, units = 0, column = 1
        while offset < lineEnd && column < scalarColumn {
            let (width, utf16) = Self.scalarWidth(bytes[offset])
            offset += width
            units += utf16
            column += 1
        }
        let start = Position(line: zeroLine, character: units)
        var endUnits = units
        // A finding on a member access (`.task`) covers the dot and the name.
        if offset < lineEnd, bytes[offset] == 46 {
            offset += 1
            endUnits += 1
        }
        while offset < lineEnd, Self.isWordByte(bytes[offset]) {
            let (width, utf16) = Self.scalarWidth(bytes[offset])
            offset += width
            endUnits += utf16
        }
        if endUnits == units && offset < lineEnd { endUnits += Self.scalarWidth(bytes[offset]).utf16 }
        return (start, Position(line: zeroLine, character: endUnits))
    }

    /// The leading spaces and tabs of a 0-based line.
    func indentation(ofLine line: Int) -> String {
        guard let start = lineStart(line) else { return "" }
        var end = start
        while end < bytes.count, bytes[end] == 32 || bytes[end] == 9 { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private func lineStart(_ line: Int) -> Int? {
        if line <= 0 { return 0 }
        var remaining = line, position = 0
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            while remaining > 0 {
                guard let found = firstIndex(of: 10, in: buffer, from: position, to: buffer.count) else { return nil }
                position = found + 1
                remaining -= 1
            }
            return position
        }
    }

    private func lineEnd(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard var end = firstIndex(of: 10, in: buffer, from: start, to: buffer.count) else { return buffer.count }
            if end > start, buffer[end - 1] == 13 { end -= 1 }
            return end
        }
    }

    /// A scalar's UTF-8 length from its first byte, and its UTF-16 length.
    private static func scalarWidth(_ first: UInt8) -> (utf8: Int, utf16: Int) {
        switch first {
        case 0xF0...: return (4, 2)
        case 0xE0...: return (3, 1)
        case 0xC0...: return (2, 1)
        default: return (1, 1)
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == 95 || (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }
}

/// A zero-based line and UTF-16 character offset.
struct Position: Equatable {
    var line: Int
    var character: Int

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    init?(_ json: Any?) {
        guard let object = json as? [String: Any], let line = object["line"] as? Int, let character = object["character"] as? Int,
              line >= 0, character >= 0 else { return nil }
        self.init(line: line, character: character)
    }

    var json: [String: Any] { ["line": line, "character": character] }

    static func range(_ json: Any?) -> (start: Position, end: Position)? {
        guard let object = json as? [String: Any], let start = Position(object["start"]), let end = Position(object["end"]) else { return nil }
        return (start, end)
    }

    static func json(_ range: (start: Position, end: Position)) -> [String: Any] {
        ["start": range.start.json, "end": range.end.json]
    }
}

/// The first index of a byte in `buffer[from..<to]` (memchr: a 10 MB buffer is scanned at memory speed).
func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
    guard let base = buffer.baseAddress, start < end, end <= buffer.count,
          let found = memchr(base + start, Int32(byte), end - start) else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
}
