/// An `included` or `excluded` entry of a configuration, made absolute against the configuration's
/// folder. A plain path means that file or folder and everything under it; a glob may use `*` (any
/// characters within one path component), `?` (one character) and `**` (any number of components).
/// Either kind matches a path when it matches the path itself or one of the folders above it, so
/// `**/Generated` covers every file under every folder named `Generated`.
struct PathPattern: Sendable, Equatable {
    /// The absolute pattern, with `.` and `..` resolved.
    let text: String
    let isGlob: Bool
    private let components: [String]

    init(_ entry: String, in folder: String) {
        let joined = entry.hasPrefix("/") ? entry : folder + "/" + entry
        components = Self.normalized(joined)
        text = "/" + components.joined(separator: "/")
        isGlob = components.contains { $0.contains("*") || $0.contains("?") }
    }

    /// The folder a walk must start from to reach everything the pattern can match: its components
    /// before the first one with a wildcard.
    var fixedPrefix: String {
        "/" + components.prefix { !($0.contains("*") || $0.contains("?")) }.joined(separator: "/")
    }

    /// `path` is absolute and standardized, as discovery produces it.
    func matches(_ path: String) -> Bool {
        guard isGlob else {
            return text == "/" || path == text || (path.hasPrefix(text) && path.utf8.dropFirst(text.utf8.count).first == UInt8(ascii: "/"))
        }
        let names = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return match(pattern: 0, name: 0, names)
    }

    private func match(pattern: Int, name: Int, _ names: [String]) -> Bool {
        // The pattern is used up: it named this path or a folder above it.
        if pattern == components.count { return true }
        if components[pattern] == "**" {
            return (name...names.count).contains { match(pattern: pattern + 1, name: $0, names) }
        }
        guard name < names.count, Self.component(Array(components[pattern]), matches: Array(names[name])) else { return false }
        return match(pattern: pattern + 1, name: name + 1, names)
    }

    /// Wildcard match of one component: `*` any run of characters, `?` one character. Iterative,
    /// going back only to the last `*`, so a long name costs at most its length times the pattern's.
    static func component(_ pattern: [Character], matches name: [Character]) -> Bool {
        var p = 0, n = 0
        var star: Int?, resume = 0
        while n < name.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == name[n]) {
                p += 1
                n += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = n
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                n = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Components of an absolute path with `.`, empty components and `..` resolved, without touching
    /// the file system (a pattern names paths that need not exist).
    static func normalized(_ path: String) -> [String] {
        var result: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !result.isEmpty { result.removeLast() }
            default: result.append(String(part))
            }
        }
        return result
    }
}
