import Foundation

/// Reading a wire value, with errors that carry the coding path of the value that failed.
///
/// Every wire type reads itself through this API alone (``WireDecodable``), never by looking at
/// the JSON value it wraps: so the same reading code, with the same errors at the same paths,
/// serves Foundation's JSON decoder (the `Codable` path) and ``RecordJSONDecoder`` (the fast
/// path), whatever form each gives the JSON in.
struct WireReader {
    private let value: WireJSON
    /// The path of the container that holds the value, and the value's own key or index: kept
    /// apart so that reading the elements of a long list builds no path until one is needed.
    private let containerPath: [any CodingKey]
    private let last: AnyCodingKey?

    init(_ value: WireJSON, path: [any CodingKey]) {
        self.value = value
        self.containerPath = path
        self.last = nil
    }

    private init(_ value: WireJSON, in containerPath: [any CodingKey], at last: AnyCodingKey) {
        self.value = value
        self.containerPath = containerPath
        self.last = last
    }

    /// The coding path of the value.
    var path: [any CodingKey] {
        guard let last else { return containerPath }
        return containerPath + [last]
    }

    // MARK: Kinds

    /// What a JSON value is, with its content when it is a plain value.
    enum Kind {
        case null
        case bool(Bool)
        /// A number that is integral and within `Int64`.
        case integer(Int64)
        /// Any other number.
        case double(Double)
        case string(String)
        case array
        case object
    }

    /// What the value is.
    var kind: Kind {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .int64(let number): .integer(number)
        case .double(let number): .double(number)
        case .string(let string): .string(string)
        case .array: .array
        case .object: .object
        }
    }

    /// Whether the value is `null`.
    var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// The value as it was read, to keep and write back unchanged (a record that could not be
    /// read, say).
    var json: WireJSON { value }

    private func object() throws -> [String: WireJSON] {
        guard case .object(let members) = value else { throw mismatch([String: Any].self) }
        return members
    }

    private func array() throws -> [WireJSON] {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return elements
    }

    func string() throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self) }
        return string
    }

    func bool() throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self) }
        return bool
    }

    /// An integer: a JSON number that is integral and within `Int64`, or with `acceptingText`
    /// also a string that spells one.
    func int64(acceptingText: Bool = false) throws -> Int64 {
        switch value {
        case .int64(let number):
            return number
        case .double(let number):
            // Minus zero is the one integral double that reads as one: it is the integer zero.
            guard number == 0 else { throw corrupted("Number \(number) is not an integer within Int64.") }
            return 0
        case .string(let text) where acceptingText:
            if let number = Int64(text) { return number }
            // A number in another spelling, such as `1e3`, reads as JSON's own would, when a
            // double holds it exactly.
            guard Self.isJSONNumber(text), let number = Double(text), number.magnitude < 0x1p53,
                let integer = Int64(exactly: number)
            else {
                throw corrupted("The text \"\(text)\" is not an integer within Int64.")
            }
            return integer
        default:
            throw mismatch(Int64.self)
        }
    }

    /// A number that JSON can carry, or with `acceptingText` also a string that spells one. An
    /// integer beyond 2^53 is rounded to the nearest `Double`, as any reader of JSON numbers as
    /// doubles does.
    func double(acceptingText: Bool = false) throws -> Double {
        switch value {
        case .int64(let number): return Double(number)
        case .double(let number): return number
        case .string(let text) where acceptingText:
            guard Self.isJSONNumber(text), let number = Double(text), number.isFinite else {
                throw corrupted("The text \"\(text)\" is not a number that a Double holds.")
            }
            return number
        default: throw mismatch(Double.self)
        }
    }

    /// A timestamp: whole milliseconds since 1970, as `Date(timeIntervalSince1970: ms / 1000)`,
    /// also when spelled as a string. A number that is not an integer within `Int64` is corrupt,
    /// as it is for an `INT64`.
    ///
    /// A `Date` counts seconds in a `Double`, which cannot tell every millisecond apart hundreds of
    /// thousands of years from 1970, and near `Int64`'s limits gives back a number beyond them. A
    /// timestamp that its `Date` would not write back as the same milliseconds is corrupt, rather
    /// than read as another time.
    func timestamp() throws -> Date {
        let milliseconds = try int64(acceptingText: true)
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        guard Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) == milliseconds else {
            throw corrupted("Timestamp \(milliseconds) is beyond the milliseconds a Date holds exactly.")
        }
        return date
    }

    /// Whether `text` is a number as JSON spells one: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            bytes.removeFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    // MARK: Members

    func member(_ key: String) throws -> WireReader {
        let members = try object()
        guard let member = members[key] else {
            let codingKey = AnyCodingKey(stringValue: key)
            throw DecodingError.keyNotFound(
                codingKey,
                DecodingError.Context(
                    codingPath: path,
                    debugDescription: "No value associated with key \(codingKey) (\"\(key)\")."))
        }
        return WireReader(member, in: path, at: AnyCodingKey(stringValue: key))
    }

    /// The member `key`, or `nil` when it is missing or `null`.
    func optionalMember(_ key: String) throws -> WireReader? {
        switch try object()[key] {
        case nil, .null?: return nil
        case let member?: return WireReader(member, in: path, at: AnyCodingKey(stringValue: key))
        }
    }

    /// Whether the object has a member `key` that is not `null`.
    func contains(_ key: String) throws -> Bool {
        switch try object()[key] {
        case nil, .null?: false
        default: true
        }
    }

    /// Every member of the object, with its key, in no particular order.
    func members() throws -> [(key: String, reader: WireReader)] {
        let members = try object()
        let path = self.path
        return members.map { key, member in (key, WireReader(member, in: path, at: AnyCodingKey(stringValue: key))) }
    }

    func elements() throws -> [WireReader] {
        let elements = try array()
        let path = self.path
        return elements.indices.map { index in WireReader(elements[index], in: path, at: AnyCodingKey(index: index)) }
    }

    // MARK: Errors

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: path,
                debugDescription: "Expected to decode \(type) but found \(value.kindDescription) instead."))
    }

    func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: description))
    }
}
