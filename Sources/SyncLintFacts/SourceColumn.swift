/// Columns as people see them: the one place a finding's column is computed.
///
/// A finding's column counts Unicode scalars from the start of its line, 1-based, as Xcode's issue
/// navigator shows it and SARIF's `unicodeCodePoints` asks; swift-syntax positions count UTF-8 bytes,
/// so `let é = 1; ↓x` would otherwise be one column off, and a line with an emoji three. Every reporter
/// prints `Finding.column` as it is. Code that goes back from a finding to the syntax tree (fixes,
/// baseline identities) converts with `utf8Column(line:scalarColumn:)`.
public enum SourceColumn {
    /// The 1-based scalar column of a position, given the UTF-8 bytes of its line before it.
    public static func scalarColumn(bytesBefore bytes: some Sequence<UInt8>) -> Int {
        // A scalar starts at every byte that is not a continuation byte (10xxxxxx).
        var count = 1
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// The 1-based UTF-8 column of a 1-based scalar column on a line (its text without the newline).
    /// A column past the line's end keeps counting one byte per column.
    public static func utf8Column(line: Substring, scalarColumn: Int) -> Int {
        var scalars = line.unicodeScalars.makeIterator()
        var bytes = 0
        var column = 1
        while column < scalarColumn {
            guard let scalar = scalars.next() else { return bytes + (scalarColumn - column) + 1 }
            bytes += UTF8.width(scalar)
            column += 1
        }
        return bytes + 1
    }
}
