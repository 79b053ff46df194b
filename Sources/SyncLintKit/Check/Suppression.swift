import SwiftSyntax

/// The `synclint:` directives of one file, applied to findings after the rules ran
/// (SwiftLint's way), so a directive never changes what a rule sees.
///
/// - `// synclint:disable rule_id` ... `// synclint:enable rule_id`: a region
/// - `// synclint:disable:next rule_id`, `:this`, `:previous`: one line
/// - `all` stands for every rule; several ids are separated by spaces or commas; a ` - ` ends the
///   list, so a reason may follow (`// synclint:disable:next task_without_id - runs once per app`).
/// - In Core Data model XML: `<!-- synclint:disable:next rule_id -->` and the other forms.
///
/// A directive is a comment whose text starts with `synclint:` (after `//`, `///`, `/*` or `<!--`
/// and spaces). In Swift only real comments count, taken from the syntax tree's trivia, so
/// `// synclint:` inside a string literal or behind another `//` is not a directive.
struct SuppressionMap: Sendable, Codable {
    struct Directive: Sendable, Codable, Equatable {
        let command: String
        let ruleIDs: [String]
        let line: Int
        let column: Int
    }

    static let commands = ["disable", "enable", "disable:next", "disable:this", "disable:previous"]

    private(set) var directives: [Directive] = []
    /// The file's last line, where a `disable` that is never re-enabled ends.
    private var lastLine = 0
    private var regions: [(ruleID: String, lines: ClosedRange<Int>, directive: Int)] = []

    /// A cache stores the directives; the regions follow from them.
    private enum CodingKeys: String, CodingKey { case directives, lastLine }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(directives: try container.decode([Directive].self, forKey: .directives),
                  lastLine: try container.decode(Int.self, forKey: .lastLine))
    }

    var isEmpty: Bool { directives.isEmpty }

    /// Directives from a Swift file's comments.
    init(text: String, tree: SourceFileSyntax) {
        guard Self.mentionsDirective(text) else {
            self.init(directives: [], lastLine: 0)
            return
        }
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        var comments: [(text: String, position: AbsolutePosition)] = []
        for token in tree.tokens(viewMode: .sourceAccurate) {
            for (trivia, start) in [(token.leadingTrivia, token.position), (token.trailingTrivia, token.endPositionBeforeTrailingTrivia)] {
                var offset = start
                for piece in trivia {
                    switch piece {
                    case .lineComment(let text), .blockComment(let text), .docLineComment(let text), .docBlockComment(let text):
                        comments.append((text, offset))
                    default: break
                    }
                    offset += piece.sourceLength
                }
            }
        }
        var parsed: [Directive] = []
        for comment in comments {
            let body = comment.text.drop(while: { $0 == "/" || $0 == "*" })
            guard let directive = Self.directive(body, terminator: "*/") else { continue }
            let location = converter.location(for: comment.position)
            let lineStart = comment.position.utf8Offset - (location.column - 1)
            let column = SourceColumn.scalarColumn(bytesBefore: text.utf8.dropFirst(lineStart).prefix(location.column - 1))
            parsed.append(Directive(command: directive.command, ruleIDs: directive.ruleIDs, line: location.line, column: column))
        }
        self.init(directives: parsed, lastLine: text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
    }

    /// Directives from an XML file's `<!-- ... -->` comments (Core Data model files).
    init(xml text: String) {
        guard Self.mentionsDirective(text) else {
            self.init(directives: [], lastLine: 0)
            return
        }
        var parsed: [Directive] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var rest = line[...]
            while let open = rest.range(of: "<!--") {
                let column = SourceColumn.scalarColumn(bytesBefore: line[..<open.lowerBound].utf8)
                let body = rest[open.upperBound...]
                if let directive = Self.directive(body, terminator: "-->") {
                    parsed.append(Directive(command: directive.command, ruleIDs: directive.ruleIDs, line: lineNumber, column: column))
                }
                rest = rest[open.upperBound...]
            }
        }
        self.init(directives: parsed, lastLine: lineNumber)
    }

    private init(directives: [Directive], lastLine: Int) {
        self.directives = directives
        self.lastLine = lastLine
        var openRegions: [String: (line: Int, directive: Int)] = [:]
        for (index, directive) in directives.enumerated() {
            let line = directive.line
            for ruleID in directive.ruleIDs {
                switch directive.command {
                case "disable": openRegions[ruleID] = openRegions[ruleID] ?? (line, index)
                case "enable":
                    if let start = openRegions.removeValue(forKey: ruleID) { regions.append((ruleID, start.line...line, start.directive)) }
                case "disable:next": regions.append((ruleID, (line + 1)...(line + 1), index))
                case "disable:this": regions.append((ruleID, line...line, index))
                case "disable:previous": regions.append((ruleID, max(1, line - 1)...max(1, line - 1), index))
                default: break
                }
            }
        }
        for (ruleID, start) in openRegions { regions.append((ruleID, start.line...max(start.line, lastLine), start.directive)) }
    }

    /// The command and rule ids of a comment body, or nil when it is not a directive.
    static func directive(_ body: Substring, terminator: String) -> (command: String, ruleIDs: [String])? {
        var text = body.drop(while: { $0 == " " || $0 == "\t" })
        guard text.hasPrefix("synclint:") else { return nil }
        text = text.dropFirst("synclint:".count)
        if let end = text.range(of: terminator) { text = text[..<end.lowerBound] }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" || $0 == "\n" })
        guard let command = words.first else { return nil }
        var ruleIDs: [String] = []
        for word in words.dropFirst() {
            // A dash ends the list: what follows is the reason, not rule ids.
            if word.allSatisfy({ $0 == "-" || $0 == "—" }) { break }
            ruleIDs.append(String(word))
        }
        return (String(command), ruleIDs)
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
        !suppressingDirectives(ruleID: ruleID, line: line).isEmpty
    }

    /// The (directive, rule id) pairs that suppress a finding; `all` counts unless `explicitOnly`.
    func suppressingDirectives(ruleID: String, line: Int, explicitOnly: Bool = false) -> [(directive: Int, ruleID: String)] {
        regions.filter { ($0.ruleID == ruleID || (!explicitOnly && $0.ruleID == "all")) && $0.lines.contains(line) }
            .map { ($0.directive, $0.ruleID) }
    }
}

/// Suppression applied to a run's findings: what stays, which directives suppressed nothing
/// (`superfluous_disable_command`) and which name rules that do not exist.
struct SuppressionOutcome {
    var findings: [Finding]
    var warnings: [String]

    /// - Parameters:
    ///   - enabled: the rules that ran on a file (nested configurations may differ per file). A directive
    ///     is superfluous only for rules that ran (or `all`): a rule that did not run might have fired.
    ///   - superfluousID: the rule whose findings are directives that suppressed nothing (the registry's
    ///     `unusedSuppressionRuleID`); the engine names no rule itself.
    static func apply(_ findings: [Finding], maps: [String: SuppressionMap], enabled: (String) -> Set<String>,
                      descriptions: [String: RuleDescription], superfluousID: String) -> SuppressionOutcome {
        var used: Set<String> = []  // "path\u{1f}directive\u{1f}ruleID"
        var kept: [Finding] = []
        for finding in findings {
            let suppressing = maps[finding.file]?.suppressingDirectives(ruleID: finding.ruleID, line: finding.line) ?? []
            for pair in suppressing { used.insert("\(finding.file)\u{1f}\(pair.directive)\u{1f}\(pair.ruleID)") }
            if suppressing.isEmpty { kept.append(finding) }
        }
        var warnings: [String] = []
        var superfluous: [Finding] = []
        let known = Set(descriptions.keys)
        for path in maps.keys.sorted() {
            // cannot fail: the key comes from `maps` itself.
            let map = maps[path]!
            let enabled = enabled(path)
            for (index, directive) in map.directives.enumerated() {
                guard SuppressionMap.commands.contains(directive.command) else {
                    warnings.append("warning: \(path):\(directive.line): unknown directive 'synclint:\(directive.command)'; use one of \(SuppressionMap.commands.map { "synclint:" + $0 }.joined(separator: ", "))")
                    continue
                }
                for ruleID in directive.ruleIDs {
                    if ruleID != "all" && !known.contains(ruleID) {
                        let closest = known.min { (editDistance($0, ruleID), $0) < (editDistance($1, ruleID), $1) } ?? ""
                        warnings.append("warning: \(path):\(directive.line): unknown rule '\(ruleID)' in synclint:\(directive.command); did you mean '\(closest)'?")
                        continue
                    }
                    // A directive about this rule itself is never reported: it could only report itself.
                    guard ruleID != superfluousID, ruleID == "all" || enabled.contains(ruleID),
                          enabled.contains(superfluousID), directive.command.hasPrefix("disable"),
                          !used.contains("\(path)\u{1f}\(index)\u{1f}\(ruleID)"),
                          let description = descriptions[superfluousID] else { continue }
                    let what = ruleID == "all" ? "no finding" : "no \(ruleID) finding"
                    // The rule declares its one message; the engine fills its blanks.
                    let arguments = ["command": directive.command, "rule": ruleID, "what": what, "scope": scope(of: directive)]
                    let message = description.messages.first
                        ?? RuleMessage(RuleMessage.defaultID, "`synclint:{command} {rule}` suppresses nothing ({what} {scope}); remove it")
                    superfluous.append(Finding(
                        ruleID: superfluousID, ruleName: description.name, severity: description.severity,
                        message: message.text(arguments), file: path, line: directive.line, column: directive.column,
                        arguments: arguments, messageID: message.id))
                }
            }
        }
        // Superfluous findings are silenced only by directives that name the rule: an `all` region
        // would otherwise hide the report about itself.
        kept += superfluous.filter { finding in
            (maps[finding.file]?.suppressingDirectives(ruleID: superfluousID, line: finding.line, explicitOnly: true) ?? []).isEmpty
        }
        return SuppressionOutcome(findings: kept, warnings: warnings)
    }

    private static func scope(of directive: SuppressionMap.Directive) -> String {
        switch directive.command {
        case "disable:next": return "on the next line"
        case "disable:this": return "on this line"
        case "disable:previous": return "on the previous line"
        default: return "in its region"
        }
    }

    /// Levenshtein distance, for "did you mean".
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
