import Foundation

/// Reads a file as UTF-8 text, refusing binary and non-UTF-8 content with a one-line reason.
public enum SourceReader {
    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String, String)
        case binary(String)
        case notUTF8(String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "warning: \(path): cannot be read (\(reason)); skipped"
            case .binary(let path): return "warning: \(path): binary file; skipped"
            case .notUTF8(let path): return "warning: \(path): not UTF-8 text; skipped"
            }
        }
    }

    public static func read(_ path: String) -> Result<String, Failure> {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            return .failure(.unreadable(path, reason))
        }
        // A NUL byte means binary; scanning the raw buffer avoids Data's slow per-byte iterator.
        if data.withUnsafeBytes({ $0.contains(0) }) { return .failure(.binary(path)) }
        guard let text = String(data: data, encoding: .utf8) else { return .failure(.notUTF8(path)) }
        return .success(text)
    }
}
