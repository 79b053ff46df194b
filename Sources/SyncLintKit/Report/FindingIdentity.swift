import Foundation
import SwiftParser
import SwiftSyntax

/// What makes a finding "the same finding" across edits, for baselines and for the fingerprints
/// of SARIF and GitLab code quality reports.
///
/// A line number alone would not survive a line inserted above the finding, so the identity is:
/// - the rule id;
/// - the file's path relative to the project root (so a checkout in another folder matches);
/// - the finding's line, whitespace-collapsed;
/// - the signature line of the enclosing declaration, whitespace-collapsed: for Swift, the line
///   holding the name of the innermost function, initializer, subscript, property, type or
///   extension that strictly encloses the finding (found with SwiftParser); for other files (Core
///   Data model XML), the nearest preceding line with less indentation (the parent element);
/// - an occurrence index: 0 for the first finding with the same four values in file order, 1 for
///   the next, ... so a second copy of the same mistake in the same function is a new finding.
public struct FindingIdentity: Hashable, Sendable, Codable {
    public let ruleID: String
    public let path: String
    public let lineText: String
    public let declaration: String
    public let occurrence: Int

    public init(ruleID: String, path: String, lineText: String, declaration: String, occurrence: Int) {
        self.ruleID = ruleID
        self.path = path
        self.lineText = lineText
        self.declaration = declaration
        self.occurrence = occurrence
    }

    enum CodingKeys: String, CodingKey {
        case ruleID = "rule", path, lineText = "line", declaration, occurrence
    }

    /// A stable 64-bit FNV-1a hash of the identity, as 16 hex digits. Not cryptographic: it only
    /// needs to be the same on every machine and run, which Swift's `Hasher` (seeded per process) is not.
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [ruleID, path, lineText, declaration, String(occurrence)] {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            // A separator byte no text contains, so ("ab", "c") and ("a", "bc") differ.
            hash ^= 0x1f
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Collapses every run of whitespace to one space and trims the ends.
    static func normalized(_ text: Substring) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }).joined(separator: " ")
    }
}

/// The project root that report paths are relative to: the current folder when every linted path
/// lies inside it, else the deepest folder holding all linted paths.
public enum ProjectRoot {
    public static func resolve(paths: [String], currentFolder: String) -> String {
        let current = canonical(currentFolder)
        let targets = paths.map { canonical($0.hasPrefix("/") ? $0 : current + "/" + $0) }
        if targets.allSatisfy({ $0 == current || $0.hasPrefix(current == "/" ? "/" : current + "/") }) { return current }
        var common = folderComponents(of: targets.first ?? current)
        for target in targets.dropFirst() {
            let components = folderComponents(of: target)
            var shared = 0
            while shared < min(common.count, components.count), common[shared] == components[shared] { shared += 1 }
            common = Array(common.prefix(shared))
        }
        return "/" + common.joined(separator: "/")
    }

    /// A path's folder components: a folder's own, a file's parent's.
    private static func folderComponents(of path: String) -> [String] {
        var isFolder: ObjCBool = false
        let folder = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            ? path : URL(fileURLWithPath: path).deletingLastPathComponent().path
        return folder.split(separator: "/").map(String.init)
    }

    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// `file` relative to `root`, or nil when it lies outside. Both sides are canonicalized, so a
    /// symlinked temporary folder still matches.
    public static func relative(_ file: String, to root: String) -> String? {
        let prefix = root == "/" ? "/" : root + "/"
        if file.hasPrefix(prefix) { return String(file.dropFirst(prefix.count)) }
        let resolved = canonical(file)
        let resolvedRoot = canonical(root)
        let resolvedPrefix = resolvedRoot == "/" ? "/" : resolvedRoot + "/"
        return resolved.hasPrefix(resolvedPrefix) ? String(resolved.dropFirst(resolvedPrefix.count)) : nil
    }
}

public enum FindingIdentities {
    /// The identity of each finding, in the order given. `text` returns a file's contents (from disk by
    /// default); a file it cannot give gets empty line and declaration texts, so its findings are
    /// still told apart by rule, path and occurrence.
    public static func compute(_ findings: [Finding], root: String,
                               text: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }) -> [FindingIdentity] {
        var byFile: [String: [Int]] = [:]
        for (index, finding) in findings.enumerated() { byFile[finding.file, default: []].append(index) }
        var identities = [FindingIdentity?](repeating: nil, count: findings.count)
        for (file, indices) in byFile {
            let path = ProjectRoot.relative(file, to: root) ?? file
            let source = text(file).map(SourceLines.init)
            // Occurrences count in file order, whatever order the findings came in.
            let ordered = indices.sorted { Finding.ordered(findings[$0], findings[$1]) }
            var seen: [String: Int] = [:]
            for index in ordered {
                let finding = findings[index]
                let lineText = source.map { FindingIdentity.normalized($0.line(finding.line)) } ?? ""
                let declaration = source?.declarationLine(enclosing: finding.line, column: finding.column) ?? ""
                let key = [finding.ruleID, lineText, declaration].joined(separator: "\u{1f}")
                let occurrence = seen[key, default: 0]
                seen[key] = occurrence + 1
                let identity = FindingIdentity(ruleID: finding.ruleID, path: path, lineText: lineText,
                                               declaration: declaration, occurrence: occurrence)
                identities[index] = identity
            }
        }
        // cannot fail: every slot was filled by the loop above, one per finding.
        return identities.map { $0! }
    }
}

/// A file's lines, and the declaration enclosing a position.
struct SourceLines {
    let text: String
    let lines: [Substring]
    let isSwift: Bool
    private var tree: SourceFileSyntax?

    init(_ text: String) {
        self.text = text
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // Model files are XML; everything else SyncLint reports on is Swift.
        self.isSwift = !text.drop(while: { $0.isWhitespace }).hasPrefix("<")
        self.tree = isSwift ? Parser.parse(source: text) : nil
    }

    func line(_ number: Int) -> Substring {
        number >= 1 && number <= lines.count ? lines[number - 1] : ""
    }

    func declarationLine(enclosing lineNumber: Int, column: Int) -> String {
        if let tree { return swiftDeclarationLine(in: tree, line: lineNumber, column: column) }
        return parentLine(of: lineNumber)
    }

    /// The nearest preceding non-empty line indented less than this one.
    private func parentLine(of lineNumber: Int) -> String {
        let indentation = { (line: Substring) in line.prefix(while: { $0 == " " || $0 == "\t" }).count }
        let own = indentation(line(lineNumber))
        var number = lineNumber - 1
        while number >= 1 {
            let candidate = line(number)
            if !candidate.allSatisfy(\.isWhitespace), indentation(candidate) < own { return FindingIdentity.normalized(candidate) }
            number -= 1
        }
        return ""
    }

    private func swiftDeclarationLine(in tree: SourceFileSyntax, line lineNumber: Int, column: Int) -> String {
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        let offset = converter.position(ofLine: lineNumber, column: SourceColumn.utf8Column(line: line(lineNumber), scalarColumn: column))
        guard let token = tree.token(at: offset) else { return "" }
        var node: Syntax? = Syntax(token)
        while let current = node {
            if let nameToken = Self.nameToken(of: current) {
                let nameLine = converter.location(for: nameToken.positionAfterSkippingLeadingTrivia).line
                // The declaration on the finding's own line adds nothing to the line's text: look further out.
                if nameLine != lineNumber { return FindingIdentity.normalized(line(nameLine)) }
            }
            node = current.parent
        }
        return ""
    }

    /// The token that names a declaration of the kinds that scope code.
    private static func nameToken(of node: Syntax) -> TokenSyntax? {
        if let decl = node.as(FunctionDeclSyntax.self) { return decl.name }
        if let decl = node.as(InitializerDeclSyntax.self) { return decl.initKeyword }
        if let decl = node.as(DeinitializerDeclSyntax.self) { return decl.deinitKeyword }
        if let decl = node.as(SubscriptDeclSyntax.self) { return decl.subscriptKeyword }
        if let decl = node.as(VariableDeclSyntax.self) { return decl.bindings.first?.pattern.firstToken(viewMode: .sourceAccurate) }
        if let decl = node.as(ClassDeclSyntax.self) { return decl.name }
        if let decl = node.as(StructDeclSyntax.self) { return decl.name }
        if let decl = node.as(EnumDeclSyntax.self) { return decl.name }
        if let decl = node.as(ActorDeclSyntax.self) { return decl.name }
        if let decl = node.as(ProtocolDeclSyntax.self) { return decl.name }
        if let decl = node.as(ExtensionDeclSyntax.self) { return decl.extendedType.firstToken(viewMode: .sourceAccurate) }
        return nil
    }
}
