/// What one file shows of code that never runs: the bodies of `if false { }` and the clauses of `#if false` (and
/// `#if 0`), by line; and the types it declares that run only if some code builds them, with the type names the file
/// refers to. `ProjectIndex.isProvenDead(_:)` puts the files together: in a project with an entry point (`@main`, a
/// `main.swift`), a candidate type whose name no file refers to outside the type itself is never built.
public struct DeadCodeFacts: Sendable, Codable {
    public var file = ""
    /// Lines of `if false { ... }` bodies and `#if false` clauses.
    public var unreachableLines: [ClosedRange<Int>] = []
    /// Types that nothing but Swift code can build: non-public structs and enums without attributes whose
    /// conformances, if any, are only `View` (the system builds no such type by itself, as it does an `AppIntent`).
    public var unbuiltCandidates: [TypeExtent] = []
    /// Simple type names the file refers to (`Foo(...)`, `Foo.shared`, `let x: Foo`, `Outer.Foo`), outside a
    /// declaration or extension of a type of that name.
    public var referencedTypeNames: Set<String> = []
    /// Whether the file holds the program's entry point: a type marked `@main` (`@UIApplicationMain`,
    /// `@NSApplicationMain`), or it is a `main.swift`.
    public var hasEntryPoint = false

    public init() {}
}

/// A type declaration's simple name and lines.
public struct TypeExtent: Sendable, Codable, Hashable {
    public let name: String
    public let lines: ClosedRange<Int>

    public init(name: String, lines: ClosedRange<Int>) {
        self.name = name
        self.lines = lines
    }
}
