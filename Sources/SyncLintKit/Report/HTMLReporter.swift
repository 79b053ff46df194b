/// One self-contained HTML page (inline CSS, no scripts, no external assets), to keep as a CI
/// artifact: counts at the top, then the findings grouped by rule (most findings first) and by file,
/// each rule with its explanation, so a reader sees at a glance what is wrong and why it matters.
public enum HTMLReporter {
    public static func render(_ report: LintReport) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>SyncLint report</title>
            <style>
            body { font: 15px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
            main { max-width: 1100px; margin: 0 auto; padding: 24px 32px 48px; }
            h1 { font-size: 26px; margin: 0 0 4px; }
            .meta { color: #59636e; margin: 0 0 20px; }
            .counts { display: flex; gap: 12px; margin-bottom: 24px; }
            .count { background: #fff; border: 1px solid #d1d9e0; border-radius: 8px; padding: 10px 18px; }
            .count b { display: block; font-size: 24px; }
            .count.error b { color: #cf222e; } .count.warning b { color: #9a6700; }
            nav.toc { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 6px 16px; background: #fff; border: 1px solid #d1d9e0; border-radius: 8px; padding: 12px 16px; margin-bottom: 24px; }
            nav.toc a { color: #1f2328; text-decoration: none; white-space: nowrap; }
            nav.toc a:hover code { text-decoration: underline; }
            nav.toc b { color: #59636e; font-weight: 600; margin-left: 4px; }
            .dot { display: inline-block; width: 8px; height: 8px; border-radius: 4px; margin-right: 8px; vertical-align: 1px; }
            .dot.error { background: #cf222e; } .dot.warning { background: #d4a72c; }
            section.rule { background: #fff; border: 1px solid #d1d9e0; border-radius: 8px; margin-bottom: 20px; padding: 16px 20px; }
            section.rule h2 { font-size: 18px; margin: 0 0 6px; }
            .badge { display: inline-block; font-size: 12px; font-weight: 600; border-radius: 10px; padding: 1px 9px; margin-right: 6px; vertical-align: 2px; }
            .badge.error { background: #ffebe9; color: #cf222e; } .badge.warning { background: #fff8c5; color: #9a6700; }
            .why { color: #3d444d; margin: 4px 0 10px; }
            details summary { cursor: pointer; color: #0969da; }
            h3 { font-size: 14px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; margin: 14px 0 4px; color: #1f2328; }
            ul.findings { list-style: none; margin: 0; padding: 0; }
            ul.findings li { padding: 4px 0 4px 12px; border-left: 3px solid #d1d9e0; margin: 4px 0; }
            ul.findings li.error { border-left-color: #cf222e; } ul.findings li.warning { border-left-color: #d4a72c; }
            .loc { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; color: #59636e; margin-right: 8px; }
            code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 90%; background: #eff2f5; border-radius: 4px; padding: 0 4px; }
            .empty { font-size: 18px; color: #1a7f37; }
            .confidence { font-size: 11px; font-weight: 600; border-radius: 8px; padding: 0 6px; margin-left: 4px; vertical-align: 1px; }
            .confidence.high { background: #ddf4ff; color: #0550ae; } .confidence.medium { background: #eff2f5; color: #59636e; }
            ul.notes { list-style: none; margin: 2px 0 0 16px; padding: 0; color: #3d444d; font-size: 14px; }
            </style>
            </head>
            <body>
            <main>
            <h1>SyncLint report</h1>

            """
        // The folder's name, not its absolute path: a report kept as an artifact names no one's machine.
        let folder = report.root.split(separator: "/").last.map(String.init) ?? "/"
        html += "<p class=\"meta\">\(escape(folder)) · \(report.rules.count) rules ran · SyncLint \(RuleDocumentation.version)</p>\n"
        html += "<div class=\"counts\"><div class=\"count\"><b>\(report.findings.count)</b>findings</div>"
        html += "<div class=\"count error\"><b>\(report.errorCount)</b>errors</div>"
        html += "<div class=\"count warning\"><b>\(report.warningCount)</b>warnings</div>"
        html += "<div class=\"count\"><b>\(Set(report.findings.map(\.file)).count)</b>files</div></div>\n"
        guard !report.findings.isEmpty else {
            return html + "<p class=\"empty\">No findings.</p>\n</main>\n</body>\n</html>\n"
        }
        // Errors first (they crash apps at launch), then the rules with most findings.
        let groups = report.findingsByRule.sorted { lhs, rhs in
            let left = (lhs.findings.contains { $0.severity == .error } ? 1 : 0, lhs.findings.count)
            let right = (rhs.findings.contains { $0.severity == .error } ? 1 : 0, rhs.findings.count)
            return left != right ? left > right : lhs.ruleID < rhs.ruleID
        }
        // A compact index, so the first screen shows both the shape of the problem and the first findings.
        html += "<nav class=\"toc\">\n"
        for group in groups {
            let severity = (group.findings.map(\.severity).max() ?? .warning).rawValue
            html += "<a href=\"#\(escape(group.ruleID))\"><span class=\"dot \(severity)\"></span><code>\(escape(group.ruleID))</code> <b>\(group.findings.count)</b></a>\n"
        }
        html += "</nav>\n"
        for group in groups {
            let rule = report.rule(group.ruleID)
            let severity = (group.findings.map(\.severity).max() ?? .warning).rawValue
            html += "<section class=\"rule\" id=\"\(escape(group.ruleID))\">\n"
            html += "<h2><span class=\"badge \(severity)\">\(severity)</span>\(escape(rule?.name ?? group.ruleID)) "
            html += "<code>\(escape(group.ruleID))</code> · \(group.findings.count)</h2>\n"
            if let rule {
                html += "<p class=\"why\">\(inlineCode(rule.whatItDoes))</p>\n"
                html += "<details><summary>Why is this bad?</summary><p class=\"why\">\(inlineCode(rule.whyIsThisBad))</p>"
                if let help = report.helpURL(for: rule.id) {
                    html += "<p><a href=\"\(escape(help))\">Full documentation</a></p>"
                }
                html += "</details>\n"
            }
            let byFile = Dictionary(grouping: group.findings, by: { report.path(of: $0) })
            for path in byFile.keys.sorted() {
                html += "<h3>\(escape(path))</h3>\n<ul class=\"findings\">\n"
                // cannot fail: `path` is a key of `byFile`.
                for finding in byFile[path]!.sorted(by: Finding.ordered) {
                    html += "<li class=\"\(finding.severity.rawValue)\"><span class=\"loc\">\(finding.line):\(finding.column)</span>"
                    html += inlineCode(finding.message)
                    html += " <span class=\"confidence \(finding.confidence.rawValue)\">\(finding.confidence.rawValue) confidence</span>"
                    if !finding.notes.isEmpty {
                        html += "\n<ul class=\"notes\">\n"
                        for note in finding.notes {
                            let place = ProjectRoot.relative(note.location.file, to: report.root) ?? note.location.file
                            html += "<li><span class=\"loc\">\(escape(place)):\(note.location.line):\(note.location.column)</span>note: \(inlineCode(note.text))</li>\n"
                        }
                        html += "</ul>"
                    }
                    html += "</li>\n"
                }
                html += "</ul>\n"
            }
            html += "</section>\n"
        }
        return html + "</main>\n</body>\n</html>\n"
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Escaped text with Markdown's `code` spans as `<code>`; an unpaired backtick stays a backtick.
    static func inlineCode(_ text: String) -> String {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count % 2 == 1 else { return escape(text) }
        return parts.enumerated().map { $0.offset % 2 == 1 ? "<code>\(escape(String($0.element)))</code>" : escape(String($0.element)) }.joined()
    }
}
