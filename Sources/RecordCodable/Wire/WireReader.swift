import Foundation

/// Reading a wire value, with errors that carry the coding path of the value that failed.
///
/// Every wire type reads itself through this API alone (``WireCodable``), never by looking at
/// the JSON it comes from: so the same reading code, with the same errors at the same paths,
/// serves Foundation's JSON decoder (the `Codable` path, whose ``WireJSON`` tree is laid out as a
/// tape) and ``RecordJSONDecoder`` (the fast path, which parses the text into a tape).
///
/// A reader is a ``JSONTape`` and the index of a value in it; its coding path is worked out from
/// the tape only for an error. An object's members read as Foundation's decoder keeps them, the
/// first of a key given twice, and ``forEachMember(_:)`` visits them in the order of their keys' UTF-8
/// bytes, so that a record with two bad fields reports the same one whichever path read it.
struct WireReader {
    private let tape: JSONTape
    /// The value's index. Changed only by the walks below, which move one reader from value to
    /// value: making a reader costs a reference count, and so does each copy of one.
    private var index: Int

    /// A reader of the value at `index` of `tape`.
    init(_ tape: JSONTape, at index: Int) {
        self.tape = tape
        self.index = index
    }

    /// A reader of `value`, whose coding path is `path`.
    init(_ value: WireJSON, path: [any CodingKey]) {
        self.init(JSONTape(value, path: path), at: 0)
    }

    /// The coding path of the value.
    var path: [any CodingKey] { tape.path(of: index) }

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
        switch tape.kind(at: index) {
        case .null: .null
        case .true: .bool(true)
        case .false: .bool(false)
        case .integer: .integer(tape.integer(at: index))
        case .double: .double(tape.double(at: index))
        case .string: .string(tape.string(at: index))
        case .array: .array
        case .object: .object
        }
    }

    /// Whether the value is `null`.
    var isNull: Bool { tape.kind(at: index) == .null }

    /// The value as it was read, to keep and write back unchanged (a record that could not be
    /// read, say).
    var json: WireJSON { tape.json(at: index) }

    /// The kind of value, as an error message names it.
    private var kindDescription: String {
        switch tape.kind(at: index) {
        case .null: "null"
        case .true, .false: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    // MARK: Plain values

    func string() throws -> String {
        guard tape.kind(at: index) == .string else { throw mismatch(String.self) }
        return tape.string(at: index)
    }

    func bool() throws -> Bool {
        switch tape.kind(at: index) {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self)
        }
    }

    /// An integer: a JSON number that is integral and within `Int64`, or with `acceptingText`
    /// also a string that spells one.
    func int64(acceptingText: Bool = false) throws -> Int64 {
        switch tape.kind(at: index) {
        case .integer:
            return tape.integer(at: index)
        case .double:
            // Minus zero is the one integral double that reads as one: it is the integer zero.
            let number = tape.double(at: index)
            guard number == 0 else { throw corrupted("Number \(number) is not an integer within Int64.") }
            return 0
        case .string where acceptingText:
            break
        default:
            throw mismatch(Int64.self)
        }
        let text = tape.string(at: index)
        if let number = Int64(text) { return number }
        // A number in another spelling, such as `1e3`, reads as JSON's own would, when a double
        // holds it exactly.
        guard Self.isJSONNumber(text), let number = Double(text), number.magnitude < 0x1p53,
            let integer = Int64(exactly: number)
        else {
            throw corrupted("The text \"\(text)\" is not an integer within Int64.")
        }
        return integer
    }

    /// A number that JSON can carry, or with `acceptingText` also a string that spells one. An
    /// integer beyond 2^53 is rounded to the nearest `Double`, as any reader of JSON numbers as
    /// doubles does.
    func double(acceptingText: Bool = false) throws -> Double {
        switch tape.kind(at: index) {
        case .integer: return Double(tape.integer(at: index))
        case .double: return tape.double(at: index)
        case .string where acceptingText: break
        default: throw mismatch(Double.self)
        }
        let text = tape.string(at: index)
        guard Self.isJSONNumber(text), let number = Double(text), number.isFinite else {
            throw corrupted("The text \"\(text)\" is not a number that a Double holds.")
        }
        return number
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
        guard let date = Self.date(milliseconds: milliseconds) else {
            throw corrupted("Timestamp \(milliseconds) is beyond the milliseconds a Date holds exactly.")
        }
        return date
    }

    /// The date `milliseconds` after 1970, or `nil` when that `Date` would not write back as the
    /// same milliseconds (see ``timestamp()``).
    static func date(milliseconds: Int64) -> Date? {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        guard Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) == milliseconds else { return nil }
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

    /// The reader of the member `key`, or `nil` when the object has none; a mismatch when the
    /// value is not an object. `key` is ASCII, as every key of CloudKit's JSON is.
    private func lookUp(_ key: String) throws -> WireReader? {
        guard tape.kind(at: index) == .object else { throw mismatch([String: Any].self) }
        return tape.member(key, ofObjectAt: index).map { WireReader(tape, at: $0) }
    }

    func member(_ key: String) throws -> WireReader {
        guard let member = try lookUp(key) else {
            let codingKey = AnyCodingKey(stringValue: key)
            throw DecodingError.keyNotFound(
                codingKey,
                DecodingError.Context(
                    codingPath: path,
                    debugDescription: "No value associated with key \(codingKey) (\"\(key)\")."))
        }
        return member
    }

    /// The member `key`, or `nil` when it is missing or `null`.
    func optionalMember(_ key: String) throws -> WireReader? {
        guard let member = try lookUp(key), !member.isNull else { return nil }
        return member
    }

    /// Whether the object has a member `key` that is not `null`.
    func contains(_ key: String) throws -> Bool {
        try optionalMember(key) != nil
    }

    /// How many members the object has, a key given twice counted twice; 0 for any other value.
    var memberCount: Int {
        tape.kind(at: index) == .object ? tape.count(ofContainerAt: index) : 0
    }

    /// Calls `visit` with every member of the object and its key, in the order of the keys' UTF-8
    /// bytes: the first of a key given twice, as `String`s compare.
    ///
    /// The reader `visit` gets is valid only during the call: one reader moves from member to
    /// member.
    func forEachMember(_ visit: (String, WireReader) throws -> Void) throws {
        guard tape.kind(at: index) == .object else { throw mismatch([String: Any].self) }
        var member = self
        try tape.forEachMember(ofObjectAt: index) { key, value in
            member.index = value
            try visit(key, member)
        }
    }

    /// A member that ``forEachPlainMember(_:)`` found: its place in the tape, made into a reader
    /// only when it is read.
    struct Member {
        fileprivate let index: Int
    }

    /// Calls `visit` with the bytes of each member's key and the member, in document order, and
    /// returns `true`, when the value is an object whose keys are all plain text; otherwise
    /// returns `false`, having visited some members or none. For a shortcut that recognises the
    /// usual shape of an object in one pass, and leaves any other to the readers above.
    func forEachPlainMember(_ visit: (Span<UInt8>, Member) -> Void) -> Bool {
        guard tape.kind(at: index) == .object else { return false }
        return tape.forEachPlainMember(ofObjectAt: index) { key, value in visit(key, Member(index: value)) }
    }

    /// The reader of a member that ``forEachPlainMember(_:)`` found.
    func reader(of member: Member) -> WireReader {
        WireReader(tape, at: member.index)
    }

    /// Whether a member that ``forEachPlainMember(_:)`` found is `null`.
    func isNull(_ member: Member) -> Bool {
        tape.kind(at: member.index) == .null
    }

    /// Reads the bytes of a member that ``forEachPlainMember(_:)`` found when it is a string of
    /// plain text (see ``JSONTape/plainText(ofStringAt:_:)``); `nil` for any other value.
    func plainText<Result>(of member: Member, _ read: (Span<UInt8>) -> Result) -> Result? {
        tape.plainText(ofStringAt: member.index, read)
    }

    func elements() throws -> [WireReader] {
        guard tape.kind(at: index) == .array else { throw mismatch([Any].self) }
        return tape.elements(ofArrayAt: index) { [tape] in WireReader(tape, at: $0) }
    }

    /// The array's elements, each read by `transform`, which gets one reader moved from element to
    /// element: ``elements()`` without a reader for each.
    func mapElements<Element>(_ transform: (WireReader) throws -> Element) throws -> [Element] {
        guard tape.kind(at: index) == .array else { throw mismatch([Any].self) }
        var element = self
        return try tape.elements(ofArrayAt: index) { position in
            element.index = position
            return try transform(element)
        }
    }

    // MARK: Errors

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: path,
                debugDescription: "Expected to decode \(type) but found \(kindDescription) instead."))
    }

    func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: description))
    }
}
