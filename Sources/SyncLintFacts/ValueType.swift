/// The type of a value as far as the syntax of one file tells, written as a question for the project
/// index: "the type of property `cards` of a `Deck`", "the element of that". Plain data, so a pending
/// finding can carry it and a future cache can store it; `ProjectIndex.resolve` answers it.
public indirect enum ValueType: Sendable, Hashable, Codable {
    /// A type as written in the source: `Deck`, `[Card]`, `Outer.Inner`, `FetchDescriptor<Card>`.
    /// `scope` is the qualified type the name was written in, for resolving nested type names.
    case named(String, scope: String?)
    /// The type of the property (or static property) `member` of a value of the base type.
    case member(ValueType, String)
    /// The element of a collection: the loop variable of `for x in base`, `base.first`, `base[i]`.
    case element(ValueType)
    /// What the syntax cannot tell without a compiler. Nothing is ever guessed from a name.
    case unknown

    public var isKnown: Bool { self != .unknown }

    /// How deep one question may go (`let a = b; let b = c; ...`) before it is given up as unknown; the walk
    /// (`ValueTypes`) and the index (`ProjectIndex.resolve`) stop at the same depth.
    package static let depthLimit = 12
}

/// A `ValueType` resolved against the project index: the element type (qualified when the project
/// declares it, as written otherwise) and whether the value is a collection of it.
public struct ResolvedType: Sendable, Hashable {
    public let name: String
    public let isCollection: Bool

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(name: String, isCollection: Bool) {
        self.name = name
        self.isCollection = isCollection
    }
}
