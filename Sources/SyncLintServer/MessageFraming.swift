import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// JSON-RPC 2.0 messages over a byte stream, framed as LSP frames them: `Content-Length: N` headers,
/// an empty line, N bytes of JSON.
final class MessageReader {
    enum Next {
        case message(Data)
        /// A frame that could not be read (no or bad `Content-Length`, oversized headers); the bytes
        /// were dropped, and reading goes on with what follows.
        case malformed(String)
        /// The stream ended; `truncated` when it ended inside a frame.
        case end(truncated: Bool)
    }

    /// A frame larger than this is refused (a 10 MB buffer sent as JSON stays well below).
    static let maximumLength = 256 << 20
    static let maximumHeaderLength = 64 << 10

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func next() -> Next {
        while true {
            guard let headerEnd = find([13, 10, 13, 10]) else {
                if buffer.count - start > Self.maximumHeaderLength {
                    discardAll()
                    return .malformed("headers longer than \(Self.maximumHeaderLength) bytes without an empty line")
                }
                if !readMore() {
                    let rest = buffer[start...].filter { ![9, 10, 13, 32].contains($0) }
                    discardAll()
                    return .end(truncated: !rest.isEmpty)
                }
                continue
            }
            let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
            var length: Int?
            for line in header.split(separator: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                    length = Int(parts[1].trimmingCharacters(in: .whitespaces))
                }
            }
            let bodyStart = headerEnd + 4
            guard let length, length >= 0, length <= Self.maximumLength else {
                start = bodyStart
                return .malformed("a message without a valid Content-Length header: \(header.prefix(200).debugDescription)")
            }
            while buffer.count - bodyStart < length {
                if !readMore() {
                    discardAll()
                    return .end(truncated: true)
                }
            }
            let body = Data(buffer[bodyStart..<(bodyStart + length)])
            start = bodyStart + length
            compact()
            return .message(body)
        }
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count - start >= pattern.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            var position = start
            let last = bytes.count - pattern.count
            while position <= last {
                guard let offset = firstIndex(of: pattern[0], in: bytes, from: position, to: last + 1) else { return nil }
                if (0..<pattern.count).allSatisfy({ bytes[offset + $0] == pattern[$0] }) { return offset }
                position = offset + 1
            }
            return nil
        }
    }

    /// Reads what the stream has (at least a byte); false at its end or on an error.
    private func readMore() -> Bool {
        if ended { return false }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            ended = true
            return false
        }
    }

    private func discardAll() {
        buffer = []
        start = 0
    }

    private func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.count < (1 << 20))
            start = 0
        } else if start > (1 << 20) {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

/// Writes framed messages; one at a time, from any thread.
final class MessageWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    /// Set when the stream is gone (the editor closed it): nothing more is written.
    private var broken = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func send(_ message: [String: Any]) {
        var object = message
        object["jsonrpc"] = "2.0"
        guard let body = try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]) else {
            Log.line("cannot encode a message to the client: \(message.keys.sorted())")
            return
        }
        var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        frame.append(contentsOf: body)
        lock.withLock {
            guard !broken else { return }
            var offset = 0
            while offset < frame.count {
                // cannot fail: the frame holds at least its header, so its bytes have an address.
                let written = frame.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, frame.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    broken = true
                    Log.line("cannot write to the client: \(String(cString: strerror(errno)))")
                    return
                }
                offset += written
            }
        }
    }
}

/// The server's log: standard error only (standard output carries the protocol).
enum Log {
    static func line(_ text: String) {
        let bytes = Array(("synclint lsp: " + text + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
