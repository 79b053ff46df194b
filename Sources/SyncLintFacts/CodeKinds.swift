/// Where code lives. Most rules speak about app code only: a test builds throwaway containers and
/// blocks on purpose, and a preview is sample data that never ships.
public enum CodeKind: String, Sendable, Codable, CaseIterable {
    case app
    case test
    case preview
}

/// The kinds of code a rule applies to (`RuleDescription.appliesTo`).
public struct CodeKinds: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let app = CodeKinds(rawValue: 1)
    public static let tests = CodeKinds(rawValue: 2)
    public static let previews = CodeKinds(rawValue: 4)

    public func contains(_ kind: CodeKind) -> Bool {
        switch kind {
        // Spelled out: `.app` alone would mean the `CodeKind` and call this function again.
        case .app: return contains(CodeKinds.app)
        case .test: return contains(CodeKinds.tests)
        case .preview: return contains(CodeKinds.previews)
        }
    }

    /// "app code", "app and test code", as the docs and `synclint rules` print it.
    public var summary: String {
        var names: [String] = []
        if contains(CodeKinds.app) { names.append("app") }
        if contains(CodeKinds.tests) { names.append("test") }
        if contains(CodeKinds.previews) { names.append("preview") }
        return names.joined(separator: ", ") + " code"
    }
}

/// What a file says about where its code lives: a file that imports XCTest or Swift Testing is test
/// code; `#Preview` blocks and `PreviewProvider` types are preview code. (Test targets, folders named
/// like `*Tests` and `Preview Content` are known from the layout, not from the file.)
public struct FileCodePlaces: Sendable, Codable {
    public var file = ""
    public var importsTestFramework = false
    /// Line ranges of preview code in the file.
    public var previewLines: [ClosedRange<Int>] = []

    public init() {}
}
