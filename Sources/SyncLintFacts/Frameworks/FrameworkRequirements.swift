/// The members the standard library, Foundation, Combine and Observation may call on a type that adopts one of their
/// protocols: the protocol's requirements, no more. A method of another name, on a type whose only supertypes
/// outside the project are these, is called by the project's own code or by nothing. Part of the reviewed framework
/// table (see `FrameworkCalls`), from each protocol's declaration:
/// https://developer.apple.com/documentation/combine/observableobject ("objectWillChange"),
/// https://developer.apple.com/documentation/observation/observable (a marker protocol: no requirements; the macro's
/// members are its own), https://developer.apple.com/documentation/swift/identifiable, /equatable, /hashable,
/// /comparable, /encodable, /decodable, /sendable, /caseiterable, /rawrepresentable, /error,
/// /customstringconvertible, /customdebugstringconvertible, and
/// https://developer.apple.com/documentation/foundation/localizederror.
public enum FrameworkRequirements {
    /// Each protocol's requirements by base name (`init` for an initializer requirement).
    public static let membersByProtocol: [String: Set<String>] = [
        "ObservableObject": ["objectWillChange"],
        "Observable": [],
        "Identifiable": ["id"],
        "Equatable": ["=="],
        "Hashable": ["hash", "hashValue", "=="],
        "Comparable": ["<", "<=", ">", ">=", "=="],
        "Encodable": ["encode"],
        "Decodable": ["init"],
        "Codable": ["encode", "init"],
        "Sendable": [],
        "CaseIterable": ["allCases"],
        "RawRepresentable": ["rawValue", "init"],
        "Error": [],
        "LocalizedError": ["errorDescription", "failureReason", "recoverySuggestion", "helpAnchor"],
        "CustomStringConvertible": ["description"],
        "CustomDebugStringConvertible": ["debugDescription"],
    ]

    /// Whether the framework may call a member of this name on a type that adopts `protocolName`: true for a
    /// protocol or superclass the table does not know, which may require (or override) anything.
    public static func mayCall(_ member: String, through protocolName: String) -> Bool {
        guard let members = membersByProtocol[protocolName] else { return true }
        return members.contains(member)
    }
}
