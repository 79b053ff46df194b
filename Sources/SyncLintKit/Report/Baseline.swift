import Foundation

/// The findings a project already had when it adopted SyncLint, so only new ones are reported.
///
/// A baseline is a list of `FindingIdentity` values (rule, path relative to the project root,
/// whitespace-collapsed line text, enclosing declaration's signature line, occurrence index), never
/// line numbers, so inserting or removing lines elsewhere keeps old findings baselined. Written as
/// JSON with sorted keys and entries, so rewriting an unchanged baseline changes no byte and a diff
/// of it reads well in review:
///
/// ```json
/// {
///   "findings" : [
///     {
///       "declaration" : "func load() async {",
///       "line" : "isLoading = true",
///       "occurrence" : 0,
///       "path" : "Sources/Feed/FeedModel.swift",
///       "rule" : "loading_state_not_reset"
///     }
///   ],
///   "version" : 1
/// }
/// ```
///
/// Occurrences count in file order among findings with the same rule, line text and declaration:
/// when a second copy of a baselined mistake appears in the same declaration, one of the two is
/// reported (the later one in the file gets the new index).
public struct Baseline: Sendable, Equatable {
    public static let formatVersion = 1
    public let identities: Set<FindingIdentity>

    public init(identities: some Sequence<FindingIdentity>) {
        self.identities = Set(identities)
    }

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    private struct File: Codable {
        let version: Int
        let findings: [FindingIdentity]
    }

    public static func load(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "error: \(path): cannot read baseline")
        }
        return try parse(data, path: path)
    }

    public static func parse(_ data: Data, path: String) throws -> Baseline {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw LoadError(description: "error: \(path): not a SyncLint baseline (expected JSON with \"version\" and \"findings\")")
        }
        guard file.version == formatVersion else {
            throw LoadError(description: "error: \(path): baseline version \(file.version) is not supported (this SyncLint writes version \(formatVersion))")
        }
        return Baseline(identities: file.findings)
    }

    /// The JSON text: entries sorted by path, rule, declaration, line, occurrence; keys sorted.
    public func serialized() -> String {
        let sorted = identities.sorted {
            ($0.path, $0.ruleID, $0.declaration, $0.lineText, $0.occurrence) < ($1.path, $1.ruleID, $1.declaration, $1.lineText, $1.occurrence)
        }
        let entries = sorted.map { identity in
            """
                {
                  "declaration" : \(JSONReporter.quoted(identity.declaration)),
                  "line" : \(JSONReporter.quoted(identity.lineText)),
                  "occurrence" : \(identity.occurrence),
                  "path" : \(JSONReporter.quoted(identity.path)),
                  "rule" : \(JSONReporter.quoted(identity.ruleID))
                }
            """
        }
        let list = entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: ",\n") + "\n  ]"
        return "{\n  \"findings\" : \(list),\n  \"version\" : \(Self.formatVersion)\n}\n"
    }

    /// Writes the baseline atomically (a temporary file renamed over the old one).
    /// Written as `--output` writes a report (`ReportDestination`): a regular file atomically, a link
    /// followed, a read-only file refused.
    public func write(to path: String) throws {
        try ReportDestination.write(serialized(), to: path)
    }

    public func contains(_ identity: FindingIdentity) -> Bool { identities.contains(identity) }
}

extension LintReport {
    /// The report without the findings the baseline holds. Identities are kept from the full report,
    /// so fingerprints do not change when a baseline is applied.
    public func removing(_ baseline: Baseline) -> LintReport {
        keeping { !baseline.contains(identities[$0]) }
    }

    /// The report with only the findings at the indices `keep` accepts.
    func keeping(_ keep: (Int) -> Bool) -> LintReport {
        let kept = findings.indices.filter(keep)
        return LintReport(findings: kept.map { findings[$0] }, rules: rules, root: root, identities: kept.map { identities[$0] },
                          documentationURL: documentationURL)
    }

    /// Every finding's identity, as a baseline.
    public var baseline: Baseline { Baseline(identities: identities) }
}
