/// A value from the config file, kept in a form that is `Sendable` and easy to read.
public enum OptionValue: Sendable, Equatable {
    case bool(Bool)
    case int(Int)
    case string(String)
    case list([OptionValue])
    case map([String: OptionValue])

    var stringValue: String? {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .bool(let value): return String(value)
        default: return nil
        }
    }

    var stringList: [String]? {
        switch self {
        case .list(let values): return values.compactMap(\.stringValue)
        case .string(let value): return [value]
        default: return nil
        }
    }
}

/// The options configured for one rule, with typed accessors that fall back to a default.
public struct RuleOptions: Sendable {
    public let values: [String: OptionValue]

    public init(_ values: [String: OptionValue] = [:]) {
        self.values = values
    }

    public func bool(_ name: String, default defaultValue: Bool) -> Bool {
        if case .bool(let value)? = values[name] { return value }
        if let text = values[name]?.stringValue { return ["true", "yes", "on"].contains(text.lowercased()) }
        return defaultValue
    }

    public func strings(_ name: String, default defaultValue: [String]) -> [String] {
        values[name]?.stringList ?? defaultValue
    }

    public func string(_ name: String, default defaultValue: String) -> String {
        values[name]?.stringValue ?? defaultValue
    }

    /// A map of string lists, e.g. `logical_unique_keys: { Article: [url] }`.
    public func stringListMap(_ name: String) -> [String: [String]] {
        guard case .map(let map)? = values[name] else { return [:] }
        return map.compactMapValues(\.stringList)
    }
}
