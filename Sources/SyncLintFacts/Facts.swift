/// An attribute as written: `@Attribute(.unique)` has name `Attribute` and arguments `.unique`.
public struct AttributeFact: Sendable, Hashable, Codable {
    public let name: String
    public let arguments: String

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(name: String, arguments: String) {
        self.name = name
        self.arguments = arguments
    }
}

/// Where something is declared.
public struct SourceLocation: Sendable, Hashable, Codable {
    public let file: String
    public let line: Int
    public let column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line)" }
}

public struct PropertyFact: Sendable, Codable {
    public let name: String
    public let isLet: Bool
    public let isStatic: Bool
    /// The declared (or simply inferred) type as written, without a trailing `?`/`!`; nil if unknown.
    public let typeName: String?
    public let isOptional: Bool
    public let defaultValue: String?
    public let attributes: [AttributeFact]
    public let isComputed: Bool
    public let location: SourceLocation
    /// Whether its setter is `private` (`private var`, `private(set) var`): only the type's own code, in its declaration
    /// and its extensions in the same file, can assign it, so the type's function summaries hold every write.
    public let isSetterPrivate: Bool

    public var hasDefault: Bool { defaultValue != nil }
    public var isStoredVar: Bool { !isLet && !isComputed && !isStatic }

    public func hasAttribute(_ name: String) -> Bool {
        attributes.contains { $0.name == name }
    }

    /// `Item` for `[Item]`, `Set<Item>`, `Item?`; the type itself otherwise.
    public var elementTypeName: String? {
        guard let typeName else { return nil }
        return TypeNames.element(of: typeName)
    }

    /// An identity: never changes for the object's lifetime (id, uuid, objectID, persistentModelID, ...ID).
    public var looksLikeIdentity: Bool {
        TypeNames.isIdentityName(name)
    }

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(name: String, isLet: Bool, isStatic: Bool, typeName: String?, isOptional: Bool, defaultValue: String?, attributes: [AttributeFact], isComputed: Bool, location: SourceLocation, isSetterPrivate: Bool = false) {
        self.name = name
        self.isLet = isLet
        self.isStatic = isStatic
        self.typeName = typeName
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.attributes = attributes
        self.isComputed = isComputed
        self.location = location
        self.isSetterPrivate = isSetterPrivate
    }
}

public struct MethodFact: Sendable, Codable {
    public let name: String
    public let isAsync: Bool
    public let isStatic: Bool
    public let location: SourceLocation

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(name: String, isAsync: Bool, isStatic: Bool, location: SourceLocation) {
        self.name = name
        self.isAsync = isAsync
        self.isStatic = isStatic
        self.location = location
    }
}

public enum TypeKind: String, Sendable, Codable {
    case `class`, `struct`, `enum`, actor, `protocol`, `extension`
}

/// One declaration of a type: the primary declaration or an extension.
public struct TypeFact: Sendable, Codable {
    public let name: String
    /// `Outer.Inner` for a nested type; for an extension, the type it extends as written. The index key.
    public let qualifiedName: String
    public let kind: TypeKind
    public let attributes: [AttributeFact]
    public let inheritedTypes: [String]
    public let properties: [PropertyFact]
    public let methods: [MethodFact]
    public let docComment: String
    public let location: SourceLocation
    /// Macros expanded among the members, such as `#Unique<Article>([\.url])`: name and place.
    public var memberMacros: [MemberMacro] = []
    /// Declared `nonisolated` (`nonisolated struct`, `nonisolated extension`): its members take no default isolation.
    public var isNonisolated = false

    public func hasAttribute(_ name: String) -> Bool {
        attributes.contains { $0.name == name }
    }

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(name: String, qualifiedName: String, kind: TypeKind, attributes: [AttributeFact], inheritedTypes: [String], properties: [PropertyFact], methods: [MethodFact], docComment: String, location: SourceLocation, memberMacros: [MemberMacro] = []) {
        self.name = name
        self.qualifiedName = qualifiedName
        self.kind = kind
        self.attributes = attributes
        self.inheritedTypes = inheritedTypes
        self.properties = properties
        self.methods = methods
        self.docComment = docComment
        self.location = location
        self.memberMacros = memberMacros
    }
}

/// A macro expanded among a type's members: its name and place.
public struct MemberMacro: Sendable, Codable {
    public let name: String
    public let location: SourceLocation

    package init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// Small pure helpers on type names as they are written in source.
public enum TypeNames {
    /// Strips optionality, collection brackets and common generic wrappers down to the element type.
    public static func element(of typeName: String) -> String {
        // Most names are plain (`Deck`): asked for every call's receiver, they skip the string work below.
        if !typeName.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: "[")
            || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
            return typeName
        }
        var name = typeName.trimmingCharacters(in: .whitespaces)
        while name.hasSuffix("?") || name.hasSuffix("!") { name.removeLast() }
        if name.hasPrefix("[") && name.hasSuffix("]") && !name.contains(":") {
            name = String(name.dropFirst().dropLast())
            return element(of: name)
        }
        for wrapper in ["Set<", "Array<", "Optional<"] where name.hasPrefix(wrapper) && name.hasSuffix(">") {
            return element(of: String(name.dropFirst(wrapper.count).dropLast()))
        }
        return name
    }

    /// True for `[X]`, `Set<X>`, `Array<X>`.
    public static func isCollection(_ typeName: String) -> Bool {
        let name = typeName.first?.isWhitespace == true || typeName.last?.isWhitespace == true ? typeName.trimmingCharacters(in: .whitespaces) : typeName
        return (name.hasPrefix("[") && !name.contains(":")) || name.hasPrefix("Set<") || name.hasPrefix("Array<")
    }

    public static func isIdentityName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["id", "uuid", "objectid", "persistentmodelid", "identifier"].contains(lowered)
            || name.hasSuffix("ID") || name.hasSuffix("Id") || name.hasSuffix("Identifier")
    }
}

import Foundation
