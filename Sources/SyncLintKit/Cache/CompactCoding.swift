import Foundation

/// A compact binary form of `Codable` values for the results cache: what a keyed container holds is
/// found by a key's number in the payload's string table, not by its spelled-out name; strings (file
/// paths, type names) are stored once per payload; integers are varints. Measured against JSON and
/// binary property lists on 447k lines (README, "The cache's speed"): it is the fastest of the three
/// to decode and write, and the smallest.
///
/// Layout: the string table (count, then each string's length and UTF-8 bytes), then the root value.
/// A value is a span of bytes whose kind the decoding type knows:
/// - a keyed container: its entry count, then per entry the key's string number, the value's length, the value;
/// - an unkeyed container: its element count, then per element its length and bytes;
/// - nil: an empty span (no other value is empty: every other value has at least one byte);
/// - `Bool` one byte, integers zigzag (signed) or plain (unsigned) varints, `Double`/`Float` their bit
///   patterns, a `String` its number in the string table.
/// Not a general interchange format: the same build writes and reads it (`ResultCache.toolFingerprint`).
/// Coding paths are not tracked (every `codingPath` is empty): a cache entry that fails to decode is only
/// ever ignored, and building a path for each nested value cost more than decoding some of them.
enum CompactCoding {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let strings = StringTable()
        let root = try node(for: value, strings: strings, codingPath: [])
        var out: [UInt8] = []
        out.reserveCapacity(root.byteCount + strings.keys.byteCount + strings.values.byteCount + 16)
        for table in [strings.keys, strings.values] {
            writeVarint(UInt64(table.list.count), to: &out)
            for string in table.list {
                let utf8 = Array(string.utf8)
                writeVarint(UInt64(utf8.count), to: &out)
                out.append(contentsOf: utf8)
            }
        }
        root.write(to: &out)
        return Data(out)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        // Unkeyed containers keep their positions in 32 bits.
        guard data.count < Int(Int32.max) else { throw Failure(description: "a payload over 2 GiB") }
        let payload = Payload(bytes: [UInt8](data))
        var cursor = 0
        payload.keys = try payload.stringTable(at: &cursor)
        payload.strings = try payload.stringTable(at: &cursor)
        return try value(Value.self, payload: payload, start: cursor, end: payload.bytes.count)
    }

    static func writeVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    static func varintSize(_ value: UInt64) -> Int {
        var value = value, size = 1
        while value >= 0x80 { value >>= 7; size += 1 }
        return size
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
}

// MARK: - Encoding: a tree of nodes, written out once every length is known

extension CompactCoding {
    /// The strings of one payload, each numbered once: the keys of keyed containers (few: field names)
    /// apart from the strings stored as values, so a decoder looks keys up in a small table.
    final class StringTable {
        let keys = NumberedStrings()
        let values = NumberedStrings()

        func key(_ key: some CodingKey) -> UInt64 { keys.number(key.stringValue) }
        func number(_ string: String) -> UInt64 { values.number(string) }
    }

    final class NumberedStrings {
        var list: [String] = []
        var numbers: [String: UInt64] = [:]
        var byteCount = 0

        func number(_ string: String) -> UInt64 {
            if let known = numbers[string] { return known }
            let number = UInt64(list.count)
            list.append(string)
            numbers[string] = number
            byteCount += string.utf8.count + 5
            return number
        }
    }

    /// One value being encoded. Scalars are written straight into `bytes`; a container keeps its
    /// children, since their lengths come before them.
    final class Node {
        enum Content {
            case empty
            case bytes([UInt8])
            case varint(UInt64)
            case byte(UInt8)
            case keyed([(key: UInt64, value: Node)])
            case unkeyed([Node])
        }

        var content: Content = .empty
        /// Set by `encodeNil`: the one value stored as an empty span.
        var isNil = false
        private var size: Int?

        init() {}
        init(bytes: [UInt8]) { content = .bytes(bytes) }
        init(bytes: Content) { content = bytes }

        var byteCount: Int {
            if let size { return size }
            let computed: Int
            switch content {
            case .empty: computed = 0
            case .bytes(let bytes): computed = bytes.count
            case .varint(let value): computed = CompactCoding.varintSize(value)
            case .byte: computed = 1
            case .keyed(let entries):
                computed = entries.reduce(CompactCoding.varintSize(UInt64(entries.count))) { total, entry in
                    total + CompactCoding.varintSize(entry.key) + CompactCoding.varintSize(UInt64(entry.value.byteCount)) + entry.value.byteCount
                }
            case .unkeyed(let elements):
                computed = elements.reduce(CompactCoding.varintSize(UInt64(elements.count))) { total, element in
                    total + CompactCoding.varintSize(UInt64(element.byteCount)) + element.byteCount
                }
            }
            size = computed
            return computed
        }

        func write(to out: inout [UInt8]) {
            switch content {
            case .empty: break
            case .bytes(let bytes): out.append(contentsOf: bytes)
            case .varint(let value): CompactCoding.writeVarint(value, to: &out)
            case .byte(let value): out.append(value)
            case .keyed(let entries):
                CompactCoding.writeVarint(UInt64(entries.count), to: &out)
                for entry in entries {
                    CompactCoding.writeVarint(entry.key, to: &out)
                    CompactCoding.writeVarint(UInt64(entry.value.byteCount), to: &out)
                    entry.value.write(to: &out)
                }
            case .unkeyed(let elements):
                CompactCoding.writeVarint(UInt64(elements.count), to: &out)
                for element in elements {
                    CompactCoding.writeVarint(UInt64(element.byteCount), to: &out)
                    element.write(to: &out)
                }
            }
        }

        func appendEntry(key: UInt64, value: Node) {
            if case .keyed(var entries) = content {
                content = .empty  // keeps the array uniquely referenced while it grows
                entries.append((key, value))
                content = .keyed(entries)
            } else {
                content = .keyed([(key, value)])
            }
        }

        func appendElement(_ value: Node) {
            if case .unkeyed(var elements) = content {
                content = .empty
                elements.append(value)
                content = .unkeyed(elements)
            } else {
                content = .unkeyed([value])
            }
        }
    }

    // Scalars are kept as values until written: no array allocated per number.
    static func scalarBytes(_ value: some FixedWidthInteger & SignedInteger) -> Node.Content { .varint(zigzag(Int64(value))) }
    static func scalarBytes(_ value: some FixedWidthInteger & UnsignedInteger) -> Node.Content { .varint(UInt64(value)) }
    static func scalarBytes(_ value: UInt64) -> Node.Content { .varint(value) }
    static func scalarBytes(_ value: Bool) -> Node.Content { .byte(value ? 1 : 0) }

    struct NodeEncoder: Encoder {
        let node: Node
        let strings: StringTable
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .keyed = node.content {} else { node.content = .keyed([]) }
            return KeyedEncodingContainer(KeyedEncoding<Key>(node: node, strings: strings, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
            return UnkeyedEncoding(node: node, strings: strings, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueEncoding(node: node, strings: strings, codingPath: codingPath)
        }
    }

    /// Encodes one value into a fresh node: scalars directly, anything else through its `encode(to:)`.
    static func node<Value: Encodable>(for value: Value, strings: StringTable, codingPath: [any CodingKey]) throws -> Node {
        // Exact types, not casts: a cast would also unwrap an optional, and decoding must see what encoding saw.
        // Each `unsafeBitCast` is between a type and itself (a cast would cost a runtime call per value).
        if Value.self == String.self { return Node(bytes: scalarBytes(strings.number(unsafeBitCast(value, to: String.self)))) }
        if Value.self == Int.self { return Node(bytes: scalarBytes(unsafeBitCast(value, to: Int.self))) }
        if Value.self == Bool.self { return Node(bytes: scalarBytes(unsafeBitCast(value, to: Bool.self))) }
        // Collections of strings as `encode(to:)` writes them (an unkeyed container of string numbers), without its detour.
        if Value.self == Set<String>.self { return stringsNode(unsafeBitCast(value, to: Set<String>.self), strings: strings) }
        if Value.self == [String].self { return stringsNode(unsafeBitCast(value, to: [String].self), strings: strings) }
        if let laidOut = try CompactLayouts.node(for: value, strings: strings) { return laidOut }
        let node = Node()
        try value.encode(to: NodeEncoder(node: node, strings: strings, codingPath: codingPath))
        // A value that asked for no container (a struct without stored properties) must not read back as nil.
        if case .empty = node.content, !node.isNil { node.content = .keyed([]) }
        return node
    }

    static func stringsNode(_ values: some Collection<String>, strings: StringTable) -> Node {
        let node = Node()
        node.content = .unkeyed(values.map { Node(bytes: scalarBytes(strings.number($0))) })
        return node
    }

    struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let strings: StringTable
        let codingPath: [any CodingKey]

        private func add(_ key: Key, _ bytes: [UInt8]) { node.appendEntry(key: strings.key(key), value: Node(bytes: bytes)) }
        private func add(_ key: Key, _ content: Node.Content) { node.appendEntry(key: strings.key(key), value: Node(bytes: content)) }

        mutating func encodeNil(forKey key: Key) throws {
            let nothing = Node()
            nothing.isNil = true
            node.appendEntry(key: strings.key(key), value: nothing)
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(strings.number(value))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { add(key, withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }) }
        mutating func encode(_ value: Float, forKey key: Key) throws { add(key, withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { add(key, CompactCoding.scalarBytes(value)) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.appendEntry(key: strings.key(key),
                             value: try CompactCoding.node(for: value, strings: strings, codingPath: codingPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = Node()
            child.content = .keyed([])
            node.appendEntry(key: strings.key(key), value: child)
            return KeyedEncodingContainer(KeyedEncoding<NestedKey>(node: child, strings: strings, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node()
            child.content = .unkeyed([])
            node.appendEntry(key: strings.key(key), value: child)
            return UnkeyedEncoding(node: child, strings: strings, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            // Stored under the key "super" whether or not `Key` has such a case, as JSONEncoder does.
            let child = Node()
            node.appendEntry(key: strings.keys.number("super"), value: child)
            return NodeEncoder(node: child, strings: strings, codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = Node()
            node.appendEntry(key: strings.key(key), value: child)
            return NodeEncoder(node: child, strings: strings, codingPath: codingPath)
        }
    }

    struct UnkeyedEncoding: UnkeyedEncodingContainer {
        let node: Node
        let strings: StringTable
        let codingPath: [any CodingKey]
        var count: Int {
            if case .unkeyed(let elements) = node.content { return elements.count }
            return 0
        }

        mutating func encodeNil() throws {
            let nothing = Node()
            nothing.isNil = true
            node.appendElement(nothing)
        }
        mutating func encode(_ value: Bool) throws { node.appendElement(Node(bytes: CompactCoding.scalarBytes(value))) }
        mutating func encode(_ value: String) throws { node.appendElement(Node(bytes: CompactCoding.scalarBytes(strings.number(value)))) }
        mutating func encode(_ value: Int) throws { node.appendElement(Node(bytes: CompactCoding.scalarBytes(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            node.appendElement(try CompactCoding.node(for: value, strings: strings, codingPath: codingPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Node()
            child.content = .keyed([])
            node.appendElement(child)
            return KeyedEncodingContainer(KeyedEncoding<NestedKey>(node: child, strings: strings, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Node()
            child.content = .unkeyed([])
            node.appendElement(child)
            return UnkeyedEncoding(node: child, strings: strings, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            let child = Node()
            node.appendElement(child)
            return NodeEncoder(node: child, strings: strings, codingPath: codingPath)
        }
    }

    struct SingleValueEncoding: SingleValueEncodingContainer {
        let node: Node
        let strings: StringTable
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws {
            node.content = .empty
            node.isNil = true
        }
        mutating func encode(_ value: Bool) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: String) throws { node.content = CompactCoding.scalarBytes(strings.number(value)) }
        mutating func encode(_ value: Double) throws { node.content = .bytes(withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }) }
        mutating func encode(_ value: Float) throws { node.content = .bytes(withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }) }
        mutating func encode(_ value: Int) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: Int8) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: Int16) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: Int32) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: Int64) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: UInt) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: UInt8) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: UInt16) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: UInt32) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode(_ value: UInt64) throws { node.content = CompactCoding.scalarBytes(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let encoded = try CompactCoding.node(for: value, strings: strings, codingPath: codingPath)
            node.content = encoded.content
            node.isNil = encoded.isNil
        }
    }
}

// MARK: - Decoding: straight from the bytes, no tree

extension CompactCoding {
    /// The payload's bytes and string table, shared by every decoder of one payload.
    final class Payload {
        let bytes: [UInt8]
        var keys: [String] = []
        var strings: [String] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        func stringTable(at cursor: inout Int) throws -> [String] {
            let count = try varint(at: &cursor, limit: bytes.count)
            guard count <= UInt64(bytes.count - cursor) else { throw Failure(description: "string table longer than the payload") }
            var strings: [String] = []
            strings.reserveCapacity(Int(count))
            for _ in 0..<count {
                let length = try varint(at: &cursor, limit: bytes.count)
                guard length <= UInt64(bytes.count - cursor) else { throw Failure(description: "string past the payload's end") }
                let start = cursor
                cursor += Int(length)
                strings.append(bytes.withUnsafeBufferPointer {
                    String(decoding: UnsafeBufferPointer(rebasing: $0[start..<cursor]), as: UTF8.self)
                })
            }
            return strings
        }

        func varint(at cursor: inout Int, limit: Int) throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard cursor < limit, shift < 64 else { throw Failure(description: "varint past its value's end") }
                let byte = bytes[cursor]
                cursor += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }

        /// A span's whole content as one varint.
        func scalar(_ start: Int, _ end: Int) throws -> UInt64 {
            var cursor = start
            let value = try varint(at: &cursor, limit: end)
            guard cursor == end else { throw Failure(description: "a scalar with bytes left over") }
            return value
        }

        func string(_ start: Int, _ end: Int) throws -> String {
            let number = try scalar(start, end)
            guard number < UInt64(strings.count) else { throw Failure(description: "string number \(number) out of range") }
            return strings[Int(number)]
        }

        /// An unkeyed container of strings (a `[String]` or `Set<String>`), read without a container.
        func strings(_ start: Int, _ end: Int) throws -> [String] {
            try unkeyed(start, end, element: string)
        }

        /// An unkeyed container (`Array.encode(to:)`, a set's elements), each element read by `element` from its span.
        func unkeyed<Element>(_ start: Int, _ end: Int, element: (Int, Int) throws -> Element) throws -> [Element] {
            var cursor = start
            let count = try varint(at: &cursor, limit: end)
            guard count <= UInt64(end - start) else { throw Failure(description: "unkeyed container longer than its span") }
            var result: [Element] = []
            result.reserveCapacity(Int(count))
            for _ in 0..<count {
                let length = try varint(at: &cursor, limit: end)
                guard length <= UInt64(end - cursor) else { throw Failure(description: "element past its container's end") }
                result.append(try element(cursor, cursor + Int(length)))
                cursor += Int(length)
            }
            guard cursor == end else { throw Failure(description: "unkeyed container with bytes left over") }
            return result
        }

        /// A `[String: Value]` as `Dictionary.encode(to:)` writes it: a keyed container whose keys are the
        /// dictionary's, each value read by `value` from its span. A key met twice keeps its last value, as
        /// `Dictionary.init(from:)` does.
        func stringKeyed<Value>(_ start: Int, _ end: Int, value: (Int, Int) throws -> Value) throws -> [String: Value] {
            var cursor = start
            let count = try varint(at: &cursor, limit: end)
            guard count <= UInt64(end - start) else { throw Failure(description: "keyed container longer than its span") }
            var result: [String: Value] = [:]
            result.reserveCapacity(Int(count))
            for _ in 0..<count {
                let key = try varint(at: &cursor, limit: end)
                let length = try varint(at: &cursor, limit: end)
                guard key < UInt64(keys.count), length <= UInt64(end - cursor) else { throw Failure(description: "keyed entry past its container's end") }
                result[keys[Int(key)]] = try value(cursor, cursor + Int(length))
                cursor += Int(length)
            }
            guard cursor == end else { throw Failure(description: "keyed container with bytes left over") }
            return result
        }

        /// An array as `Array.encode(to:)` writes it (an unkeyed container), each element read by `CompactCoding.value`.
        func array<Element: Decodable>(_ type: Element.Type, _ start: Int, _ end: Int) throws -> [Element] {
            try unkeyed(start, end) { try CompactCoding.value(Element.self, payload: self, start: $0, end: $1) }
        }

        func bool(_ start: Int, _ end: Int) throws -> Bool {
            guard end == start + 1, bytes[start] <= 1 else { throw Failure(description: "not a Bool") }
            return bytes[start] == 1
        }

        func signed<T: FixedWidthInteger & SignedInteger>(_ type: T.Type, _ start: Int, _ end: Int) throws -> T {
            guard let value = T(exactly: CompactCoding.unzigzag(try scalar(start, end))) else { throw Failure(description: "\(T.self) out of range") }
            return value
        }

        func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type, _ start: Int, _ end: Int) throws -> T {
            guard let value = T(exactly: try scalar(start, end)) else { throw Failure(description: "\(T.self) out of range") }
            return value
        }

        func bitPattern64(_ start: Int, _ end: Int) throws -> UInt64 {
            guard end == start + 8 else { throw Failure(description: "not 8 bytes") }
            var value: UInt64 = 0
            for offset in (0..<8).reversed() { value = value << 8 | UInt64(bytes[start + offset]) }
            return value
        }

        func bitPattern32(_ start: Int, _ end: Int) throws -> UInt32 {
            guard end == start + 4 else { throw Failure(description: "not 4 bytes") }
            var value: UInt32 = 0
            for offset in (0..<4).reversed() { value = value << 8 | UInt32(bytes[start + offset]) }
            return value
        }
    }

    /// Decodes a value held in `bytes[start..<end]`. Three words, so that as `any Decoder` it is stored
    /// inline in the existential, not boxed on the heap (the same holds for the single-value and unkeyed
    /// containers): one allocation less for each of the hundreds of thousands of values a large run decodes.
    struct SpanDecoder: Decoder {
        let payload: Payload
        let start: Int
        let end: Int
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(try KeyedDecoding<Key>(payload: payload, start: start, end: end))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try UnkeyedDecoding(payload: payload, start: start, end: end)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleValueDecoding(payload: payload, start: start, end: end)
        }
    }

    static func value<T: Decodable>(_ type: T.Type, payload: Payload, start: Int, end: Int) throws -> T {
        // The common scalars and collections of strings without a decoder between.
        // Each `unsafeBitCast` is between a type and itself (a cast would cost a runtime call per value).
        if T.self == String.self { return unsafeBitCast(try payload.string(start, end), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try payload.signed(Int.self, start, end), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try payload.bool(start, end), to: T.self) }
        if T.self == Set<String>.self { return unsafeBitCast(Set(try payload.strings(start, end)), to: T.self) }
        if T.self == [String].self { return unsafeBitCast(try payload.strings(start, end), to: T.self) }
        // A function summary's calls left to resolve, by callee: through `Dictionary.init(from:)` (a keyed container,
        // `allKeys`, then `Array.init(from:)` per entry) they cost about a quarter of decoding a summary.
        if T.self == [String: [Cancellability]].self {
            let calls: [String: [Cancellability]] = try payload.stringKeyed(start, end) { try payload.array(Cancellability.self, $0, $1) }
            return unsafeBitCast(calls, to: T.self)
        }
        if let laidOut = try CompactLayouts.value(T.self, payload: payload, start: start, end: end) { return laidOut }
        // An empty array, set or dictionary (one zero byte: no elements) without a container. Most of a
        // function summary's collections are empty.
        if end == start + 1, payload.bytes[start] == 0, let empty = T.self as? any CompactEmptyCollection.Type {
            // cannot fail: `empty` is T's own type.
            return empty.emptyCollection as! T
        }
        return try T(from: SpanDecoder(payload: payload, start: start, end: end))
    }

    /// A keyed container's entries (key number and value span), in the order written, with the position
    /// where the next lookup starts: synthesized `init(from:)`s ask for keys in the order `encode(to:)`
    /// wrote them, so a lookup usually compares one key. One allocation holds it all.
    final class EntryTable: ManagedBuffer<EntryTable.Cursor, EntryTable.Entry> {
        struct Cursor {
            var count: Int
            var next: Int
        }

        struct Entry {
            var key: Int
            var start: Int
            var end: Int
        }

        static func make(capacity: Int) -> EntryTable {
            // cannot fail: `create` on a subclass makes an instance of that subclass.
            create(minimumCapacity: capacity) { _ in Cursor(count: 0, next: 0) } as! EntryTable
        }

        func append(_ entry: Entry) {
            withUnsafeMutablePointers { cursor, entries in
                (entries + cursor.pointee.count).initialize(to: entry)
                cursor.pointee.count += 1
            }
        }

        var count: Int { header.count }

        /// The span of the entry whose key is `name`, looked for from the entry after the last one found.
        func span(named name: String, keys: [String]) -> (start: Int, end: Int)? {
            withUnsafeMutablePointers { cursor, entries in
                let count = cursor.pointee.count
                guard count > 0 else { return nil }
                var index = cursor.pointee.next
                for _ in 0..<count {
                    if index >= count { index = 0 }
                    let entry = entries[index]
                    if keys[entry.key] == name {
                        cursor.pointee.next = index + 1
                        return (entry.start, entry.end)
                    }
                    index += 1
                }
                return nil
            }
        }

        func key(at index: Int) -> Int { withUnsafeMutablePointerToElements { $0[index].key } }
    }

    struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let payload: Payload
        let entries: EntryTable
        var codingPath: [any CodingKey] { [] }

        init(payload: Payload, start: Int, end: Int) throws {
            self.payload = payload
            var cursor = start
            let count = try payload.varint(at: &cursor, limit: end)
            guard count <= UInt64(end - start) else { throw Failure(description: "keyed container longer than its span") }
            let entries = EntryTable.make(capacity: Int(count))
            for _ in 0..<count {
                let key = try payload.varint(at: &cursor, limit: end)
                let length = try payload.varint(at: &cursor, limit: end)
                guard key < UInt64(payload.keys.count), length <= UInt64(end - cursor) else {
                    throw Failure(description: "keyed entry past its container's end")
                }
                entries.append(.init(key: Int(key), start: cursor, end: cursor + Int(length)))
                cursor += Int(length)
            }
            guard cursor == end else { throw Failure(description: "keyed container with bytes left over") }
            self.entries = entries
        }

        var allKeys: [Key] { (0..<entries.count).compactMap { Key(stringValue: payload.keys[entries.key(at: $0)]) } }

        private func span(_ key: Key) -> (start: Int, end: Int)? { entries.span(named: key.stringValue, keys: payload.keys) }

        private func required(_ key: Key) throws -> (start: Int, end: Int) {
            guard let span = span(key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no entry"))
            }
            return span
        }

        func contains(_ key: Key) -> Bool { span(key) != nil }
        func decodeNil(forKey key: Key) throws -> Bool { let span = try required(key); return span.start == span.end }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { let s = try required(key); return try payload.bool(s.start, s.end) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { let s = try required(key); return try payload.string(s.start, s.end) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            let s = try required(key)
            return Double(bitPattern: try payload.bitPattern64(s.start, s.end))
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            let s = try required(key)
            return Float(bitPattern: try payload.bitPattern32(s.start, s.end))
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { let s = try required(key); return try payload.signed(type, s.start, s.end) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { let s = try required(key); return try payload.signed(type, s.start, s.end) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { let s = try required(key); return try payload.signed(type, s.start, s.end) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { let s = try required(key); return try payload.signed(type, s.start, s.end) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { let s = try required(key); return try payload.signed(type, s.start, s.end) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { let s = try required(key); return try payload.unsigned(type, s.start, s.end) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { let s = try required(key); return try payload.unsigned(type, s.start, s.end) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { let s = try required(key); return try payload.unsigned(type, s.start, s.end) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { let s = try required(key); return try payload.unsigned(type, s.start, s.end) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { let s = try required(key); return try payload.unsigned(type, s.start, s.end) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let s = try required(key)
            return try CompactCoding.value(type, payload: payload, start: s.start, end: s.end)
        }

        // One lookup each, where the protocol's defaults look the key up three times (contains, decodeNil, decode).
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            guard let s = span(key), s.start != s.end else { return nil }
            return try payload.string(s.start, s.end)
        }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            guard let s = span(key), s.start != s.end else { return nil }
            return try payload.bool(s.start, s.end)
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            guard let s = span(key), s.start != s.end else { return nil }
            return try payload.signed(type, s.start, s.end)
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let s = span(key), s.start != s.end else { return nil }
            return try CompactCoding.value(type, payload: payload, start: s.start, end: s.end)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            let s = try required(key)
            return KeyedDecodingContainer(try KeyedDecoding<NestedKey>(payload: payload, start: s.start, end: s.end))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            let s = try required(key)
            return try UnkeyedDecoding(payload: payload, start: s.start, end: s.end)
        }

        func superDecoder() throws -> any Decoder {
            guard let s = entries.span(named: "super", keys: payload.keys) else { throw Failure(description: "no super entry") }
            return SpanDecoder(payload: payload, start: s.start, end: s.end)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            let s = try required(key)
            return SpanDecoder(payload: payload, start: s.start, end: s.end)
        }
    }

    /// Positions as 32-bit numbers (a payload is at most 2 GiB: `decode` refuses larger), so the container
    /// is three words and stored inline in its existential.
    struct UnkeyedDecoding: UnkeyedDecodingContainer {
        let payload: Payload
        private var cursor: Int32
        private let end: Int32
        private let elementCount: Int32
        private var index: Int32 = 0
        var codingPath: [any CodingKey] { [] }
        var count: Int? { Int(elementCount) }
        var currentIndex: Int { Int(index) }

        init(payload: Payload, start: Int, end: Int) throws {
            self.payload = payload
            var cursor = start
            let count = try payload.varint(at: &cursor, limit: end)
            guard count <= UInt64(end - start) else { throw Failure(description: "unkeyed container longer than its span") }
            elementCount = Int32(count)
            self.cursor = Int32(cursor)
            self.end = Int32(end)
        }

        var isAtEnd: Bool { index >= elementCount }

        private mutating func next() throws -> (start: Int, end: Int) {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "past the last element"))
            }
            var position = Int(cursor)
            let length = try payload.varint(at: &position, limit: Int(end))
            guard length <= UInt64(Int(end) - position) else { throw Failure(description: "element past its container's end") }
            let span = (position, position + Int(length))
            cursor = Int32(span.1)
            index += 1
            return span
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { return false }
            var probe = Int(cursor)
            let length = try payload.varint(at: &probe, limit: Int(end))
            if length == 0 {
                cursor = Int32(probe)
                index += 1
                return true
            }
            return false
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { let s = try next(); return try payload.bool(s.start, s.end) }
        mutating func decode(_ type: String.Type) throws -> String { let s = try next(); return try payload.string(s.start, s.end) }
        mutating func decode(_ type: Int.Type) throws -> Int { let s = try next(); return try payload.signed(type, s.start, s.end) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let s = try next()
            return try CompactCoding.value(type, payload: payload, start: s.start, end: s.end)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let s = try next()
            return KeyedDecodingContainer(try KeyedDecoding<NestedKey>(payload: payload, start: s.start, end: s.end))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let s = try next()
            return try UnkeyedDecoding(payload: payload, start: s.start, end: s.end)
        }

        mutating func superDecoder() throws -> any Decoder {
            let s = try next()
            return SpanDecoder(payload: payload, start: s.start, end: s.end)
        }
    }

    struct SingleValueDecoding: SingleValueDecodingContainer {
        let payload: Payload
        let start: Int
        let end: Int
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { start == end }
        func decode(_ type: Bool.Type) throws -> Bool { try payload.bool(start, end) }
        func decode(_ type: String.Type) throws -> String { try payload.string(start, end) }
        func decode(_ type: Double.Type) throws -> Double { Double(bitPattern: try payload.bitPattern64(start, end)) }
        func decode(_ type: Float.Type) throws -> Float { Float(bitPattern: try payload.bitPattern32(start, end)) }
        func decode(_ type: Int.Type) throws -> Int { try payload.signed(type, start, end) }
        func decode(_ type: Int8.Type) throws -> Int8 { try payload.signed(type, start, end) }
        func decode(_ type: Int16.Type) throws -> Int16 { try payload.signed(type, start, end) }
        func decode(_ type: Int32.Type) throws -> Int32 { try payload.signed(type, start, end) }
        func decode(_ type: Int64.Type) throws -> Int64 { try payload.signed(type, start, end) }
        func decode(_ type: UInt.Type) throws -> UInt { try payload.unsigned(type, start, end) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try payload.unsigned(type, start, end) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try payload.unsigned(type, start, end) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try payload.unsigned(type, start, end) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try payload.unsigned(type, start, end) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try CompactCoding.value(type, payload: payload, start: start, end: end)
        }
    }
}

/// Collections whose empty value `CompactCoding` makes without a decoder: what `init(from:)` gives for a
/// container with no elements.
protocol CompactEmptyCollection {
    static var emptyCollection: Self { get }
}

extension Array: CompactEmptyCollection where Element: Decodable {
    static var emptyCollection: Self { [] }
}

extension Set: CompactEmptyCollection where Element: Decodable {
    static var emptyCollection: Self { [] }
}

extension Dictionary: CompactEmptyCollection where Key: Decodable, Value: Decodable {
    static var emptyCollection: Self { [:] }
}
