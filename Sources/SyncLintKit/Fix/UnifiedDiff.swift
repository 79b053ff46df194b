/// A unified diff (`diff -u` shape, three lines of context) between two texts, for `--fix --diff`.
///
/// Lines common to both ends are trimmed first; the middle is compared with a longest-common-
/// subsequence table, which is small for the local edits fixes make. A middle too large for the table
/// is shown as one replaced block, which is still a correct diff.
public enum UnifiedDiff {
    static let context = 3
    static let tableLimit = 4_000_000

    public static func render(old: String, new: String, oldName: String, newName: String) -> String {
        guard old != new else { return "" }
        let a = lines(old), b = lines(new)
        let operations = diff(a, b)
        var text = "--- \(oldName)\n+++ \(newName)\n"
        // Group operations into hunks: changes with up to `context` unchanged lines around them,
        // hunks closer than twice that merged.
        var index = 0
        while index < operations.count {
            guard let firstChange = operations[index...].firstIndex(where: { $0.kind != .same }) else { break }
            let start = max(index, firstChange - context)
            var end = firstChange
            var lastChange = firstChange
            while end < operations.count {
                if operations[end].kind != .same { lastChange = end }
                if end - lastChange > 2 * context { break }
                end += 1
            }
            let stop = min(operations.count, lastChange + context + 1)
            let hunk = operations[start..<stop]
            // cannot fail: a hunk spans at least one operation (start < stop).
            let oldStart = hunk.first!.oldLine, newStart = hunk.first!.newLine
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            text += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for operation in hunk {
                let prefix = operation.kind == .same ? " " : (operation.kind == .delete ? "-" : "+")
                text += prefix + operation.text + "\n"
                if operation.missingNewline { text += "\\ No newline at end of file\n" }
            }
            index = stop
        }
        return text
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        // `diff -u` numbers an empty range by the line before it.
        count == 0 ? "\(start - 1),0" : (count == 1 ? "\(start)" : "\(start),\(count)")
    }

    struct Line: Equatable {
        let text: Substring
        let missingNewline: Bool
    }

    static func lines(_ text: String) -> [Line] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        let endsWithNewline = parts.last == ""
        if endsWithNewline { parts.removeLast() }
        return parts.enumerated().map { Line(text: $0.element, missingNewline: !endsWithNewline && $0.offset == parts.count - 1) }
    }

    enum Kind { case same, delete, insert }

    struct Operation {
        let kind: Kind
        let text: Substring
        let missingNewline: Bool
        /// 1-based line in the old text (for deletions and context) or where the insertion lands.
        let oldLine: Int
        let newLine: Int
    }

    static func diff(_ a: [Line], _ b: [Line]) -> [Operation] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let middleA = Array(a[prefix..<(a.count - suffix)]), middleB = Array(b[prefix..<(b.count - suffix)])
        var kinds: [(Kind, Line)] = a[..<prefix].map { (.same, $0) }
        if middleA.count * middleB.count <= tableLimit {
            // lcs[i][j]: length of the longest common subsequence of middleA[i...] and middleB[j...].
            var lcs = Array(repeating: Array(repeating: 0, count: middleB.count + 1), count: middleA.count + 1)
            for i in stride(from: middleA.count - 1, through: 0, by: -1) {
                for j in stride(from: middleB.count - 1, through: 0, by: -1) {
                    lcs[i][j] = middleA[i] == middleB[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
                }
            }
            var i = 0, j = 0
            while i < middleA.count || j < middleB.count {
                if i < middleA.count, j < middleB.count, middleA[i] == middleB[j] {
                    kinds.append((.same, middleA[i])); i += 1; j += 1
                } else if j < middleB.count, i == middleA.count || lcs[i][j + 1] >= lcs[i + 1][j] {
                    kinds.append((.insert, middleB[j])); j += 1
                } else {
                    kinds.append((.delete, middleA[i])); i += 1
                }
            }
        } else {
            kinds += middleA.map { (.delete, $0) } + middleB.map { (.insert, $0) }
        }
        kinds += a[(a.count - suffix)...].map { (.same, $0) }
        // Deletions before insertions inside each changed run, as `diff -u` prints them.
        var ordered: [(Kind, Line)] = []
        var run: [(Kind, Line)] = []
        for item in kinds + [(.same, Line(text: "", missingNewline: false))] {
            if item.0 == .same {
                ordered += run.filter { $0.0 == .delete } + run.filter { $0.0 == .insert }
                run = []
                ordered.append(item)
            } else {
                run.append(item)
            }
        }
        ordered.removeLast()
        var oldLine = 1, newLine = 1
        return ordered.map { kind, line in
            let operation = Operation(kind: kind, text: line.text, missingNewline: line.missingNewline, oldLine: oldLine, newLine: newLine)
            if kind != .insert { oldLine += 1 }
            if kind != .delete { newLine += 1 }
            return operation
        }
    }
}
