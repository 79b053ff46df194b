/// The `// synclint:` directives of one file, applied to findings after the rules ran
/// (SwiftLint's way), so a directive never changes what a rule sees.
///
/// - `// synclint:disable rule_id` ... `// synclint:enable rule_id`: a region
/// - `// synclint:disable:next rule_id`, `:this`, `:previous`: one line
/// - `all` stands for every rule.
struct SuppressionMap: Sendable {
    private var regions: [(ruleID: String, lines: ClosedRange<Int>)] = []

    var isEmpty: Bool { regions.isEmpty }

    init(text: String) {
        guard Self.mentionsDirective(text) else { return }
        var openRegions: [String: Int] = [:]
        var lineNumber = 0
        var lastLine = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            lastLine = lineNumber
            guard let marker = line.range(of: "synclint:"),
                  line[..<marker.lowerBound].contains("//") || line[..<marker.lowerBound].contains("/*") else { continue }
            let words = line[marker.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "*" || $0 == "/" })
            guard let command = words.first else { continue }
            let ruleIDs = words.dropFirst().map(String.init).filter { !$0.isEmpty }
            for ruleID in ruleIDs {
                switch command {
                case "disable": openRegions[ruleID] = openRegions[ruleID] ?? lineNumber
                case "enable":
                    if let start = openRegions.removeValue(forKey: ruleID) { regions.append((ruleID, start...lineNumber)) }
                case "disable:next": regions.append((ruleID, (lineNumber + 1)...(lineNumber + 1)))
                case "disable:this": regions.append((ruleID, lineNumber...lineNumber))
                case "disable:previous": regions.append((ruleID, max(1, lineNumber - 1)...max(1, lineNumber - 1)))
                default: break
                }
            }
        }
        for (ruleID, start) in openRegions { regions.append((ruleID, start...max(start, lastLine))) }
    }

    /// A byte search for `synclint:`, much cheaper than `String.contains`, which bridges to NSString on Linux.
    static func mentionsDirective(_ text: String) -> Bool {
        let needle = Array("synclint:".utf8)
        var matched = 0
        for byte in text.utf8 {
            if byte == needle[matched] {
                matched += 1
                if matched == needle.count { return true }
            } else {
                matched = byte == needle[0] ? 1 : 0
            }
        }
        return false
    }

    func suppresses(ruleID: String, line: Int) -> Bool {
        regions.contains { ($0.ruleID == ruleID || $0.ruleID == "all") && $0.lines.contains(line) }
    }
}
