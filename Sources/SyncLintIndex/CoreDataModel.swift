import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A Core Data model file (`*.xcdatamodel/contents`) as the CloudKit rules need it, with the line of
/// every element so findings point into the file.
public struct CoreDataModel: Sendable {
    public struct Attribute: Sendable {
        public let name: String
        public let type: String
        public let isOptional: Bool
        public let isTransient: Bool
        public let hasDefault: Bool
        public let line: Int
    }

    public struct Relationship: Sendable {
        public let name: String
        public let isOptional: Bool
        public let isOrdered: Bool
        public let deletionRule: String
        public let inverseName: String?
        public let line: Int
    }

    public struct Entity: Sendable {
        public let name: String
        public let line: Int
        public var attributes: [Attribute] = []
        public var relationships: [Relationship] = []
        /// Lines of `uniquenessConstraint` elements.
        public var uniquenessConstraintLines: [Int] = []
    }

    public let path: String
    /// `Name` for `.../Name.xcdatamodeld/Name 2.xcdatamodel/contents`: what containers load it by.
    public let modelName: String
    public let entities: [Entity]
    /// Entities in a configuration marked "Used with CloudKit" (`usedWithCloudKit="YES"`), when the model marks any.
    let entitiesUsedWithCloudKit: Set<String>?

    /// The entities CloudKit sees: when the model marks configurations "Used with CloudKit" (Xcode checks the CloudKit
    /// schema rules on those only), the members of those; a store of another configuration ("Local") stays on the
    /// device. Otherwise every entity (the Default configuration holds all of them).
    public var syncedEntities: [Entity] {
        guard let used = entitiesUsedWithCloudKit else { return entities }
        return entities.filter { used.contains($0.name) }
    }

    /// Parses the XML; returns nil (with a reason) when it is not a well-formed model.
    public static func parse(_ file: ResourceFile) -> Result<CoreDataModel, ParseFailure> {
        // Core Data never writes entity declarations; a model that has them is refused unparsed, so an
        // entity that expands to itself a billion times ("billion laughs") is never expanded.
        if file.text.contains("<!DOCTYPE"), file.text.contains("<!ENTITY") {
            return .failure(ParseFailure(description: "warning: \(file.path): Core Data model declares XML entities (<!ENTITY), which SyncLint does not expand; skipped"))
        }
        let delegate = ModelXMLDelegate()
        let parser = XMLParser(data: Data(file.text.utf8))
        // A model that names an external DTD or entity must not make SyncLint read other files or the network.
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        // On Linux, `parse()` can return true for a document it reported an error for: check both.
        guard parser.parse(), parser.parserError == nil, delegate.sawModel else {
            let line = parser.lineNumber
            return .failure(ParseFailure(description: "warning: \(file.path): malformed Core Data model near line \(line); skipped"))
        }
        let used = delegate.configurations.filter(\.usedWithCloudKit)
        return .success(CoreDataModel(path: file.path, modelName: modelName(of: file.path), entities: delegate.entities,
                                      entitiesUsedWithCloudKit: used.isEmpty ? nil : Set(used.flatMap(\.members))))
    }

    public struct ParseFailure: Error, Sendable {
        public let description: String
    }

    static func modelName(of path: String) -> String {
        let components = path.split(separator: "/")
        if let bundle = components.last(where: { $0.hasSuffix(".xcdatamodeld") }) { return String(bundle.dropLast(".xcdatamodeld".count)) }
        if let version = components.last(where: { $0.hasSuffix(".xcdatamodel") }) { return String(version.dropLast(".xcdatamodel".count)) }
        return ""
    }
}

private final class ModelXMLDelegate: NSObject, XMLParserDelegate {
    var entities: [CoreDataModel.Entity] = []
    var sawModel = false
    /// `<configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/>...`, in order.
    var configurations: [(usedWithCloudKit: Bool, members: [String])] = []
    private var inConfiguration = false

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "configuration" { inConfiguration = false }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let line = parser.lineNumber
        switch elementName {
        case "model": sawModel = true
        case "entity": entities.append(CoreDataModel.Entity(name: attributes["name"] ?? "?", line: line))
        case "attribute" where !entities.isEmpty:
            entities[entities.count - 1].attributes.append(CoreDataModel.Attribute(
                name: attributes["name"] ?? "?", type: attributes["attributeType"] ?? "Undefined",
                isOptional: attributes["optional"] == "YES", isTransient: attributes["transient"] == "YES",
                hasDefault: attributes["defaultValueString"] != nil || attributes["defaultDateTimeInterval"] != nil,
                line: line))
        case "relationship" where !entities.isEmpty:
            entities[entities.count - 1].relationships.append(CoreDataModel.Relationship(
                name: attributes["name"] ?? "?", isOptional: attributes["optional"] == "YES",
                isOrdered: attributes["ordered"] == "YES", deletionRule: attributes["deletionRule"] ?? "Nullify",
                inverseName: attributes["inverseName"], line: line))
        case "configuration":
            configurations.append((attributes["usedWithCloudKit"] == "YES", []))
            inConfiguration = true
        case "memberEntity" where inConfiguration && !configurations.isEmpty:
            if let name = attributes["name"] { configurations[configurations.count - 1].members.append(name) }
        case "uniquenessConstraint" where !entities.isEmpty:
            entities[entities.count - 1].uniquenessConstraintLines.append(line)
        default: break
        }
    }
}
