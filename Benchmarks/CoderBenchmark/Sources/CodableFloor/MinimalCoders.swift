import Foundation
import RecordCodable

// The least a Codable record coder can do, for the benchmark's "Codable floor": the hand mapping's
// work reached through `Encoder` and `Decoder`, and nothing more. It checks no names, builds no
// coding paths, has no options and no size guard, and knows only the flat model's types: `String`,
// `Int`, `Int32`, `Double`, `Bool`, `Date`, `URL`, `[String]`, `[Int]`, `RecordReference`, and
// types that encode as one string, such as a `String` enum. Anything else throws `Unsupported`.
//
// It lives in a module of its own, as RecordCodable does, so that the compiler sees it from the
// model's code no better than it sees the package. It is a measuring stick, not a coder for data.

/// What the minimal coders throw for anything outside the flat model.
public struct Unsupported: Error {}

/// Encodes a model into a record, doing only what the hand mapping does.
public struct MinimalRecordEncoder {
    /// Creates the encoder; it has no options.
    public init() {}

    /// The record of `value`, whose `id` key names the record. The caller tells what a hand
    /// mapping knows: the record type, and how many fields to make room for.
    public func encode<T: Encodable>(_ value: T, recordType: String, fieldCount: Int) throws -> Record {
        let encoder = MinimalEncoder(fieldCount: fieldCount)
        try value.encode(to: encoder)
        guard !encoder.failed else { throw Unsupported() }
        return Record(recordType: recordType, recordName: encoder.recordName, fields: encoder.fields)
    }
}

/// Decodes a model from a record, doing only what the hand mapping does.
public struct MinimalRecordDecoder {
    /// Creates the decoder; it has no options.
    public init() {}

    /// The model in `record`, whose name is the model's `id`.
    public func decode<T: Decodable>(_ type: T.Type, from record: Record) throws -> T {
        try T(from: MinimalDecoder(record: record))
    }
}

// MARK: Encoding

final class MinimalEncoder: Encoder {
    // Without the run-time exclusivity checks, as RecordCodable's own encoder state: they would
    // cost this encoder about 180 ns a record.
    @exclusivity(unchecked) var fields: [String: RecordValue]
    @exclusivity(unchecked) var recordName = ""
    /// Set when the model asked for a container the minimal coder does not have.
    var failed = false

    init(fieldCount: Int = 0) {
        fields = Dictionary(minimumCapacity: fieldCount)
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(MinimalKeyedEncoding(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        failed = true
        return RejectingUnkeyedEncoding()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        failed = true
        return StringValueEncoder()
    }
}

struct MinimalKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: MinimalEncoder

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode(_ value: String, forKey key: Key) throws {
        let name = key.stringValue
        if name == "id" {
            encoder.recordName = value
        } else {
            encoder.fields[name] = .string(value)
        }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        encoder.fields[key.stringValue] = .int64(Int64(value))
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        encoder.fields[key.stringValue] = .int64(Int64(value))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoder.fields[key.stringValue] = .double(value) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        encoder.fields[key.stringValue] = .int64(value ? 1 : 0)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let field: RecordValue
        if T.self == Date.self {
            field = .date(try exactly(value, as: Date.self))
        } else if T.self == URL.self {
            field = .string(try exactly(value, as: URL.self).absoluteString)
        } else if T.self == RecordReference.self {
            field = .reference(try exactly(value, as: RecordReference.self))
        } else if T.self == [String].self {
            field = .list(try exactly(value, as: [String].self).map(RecordValue.string))
        } else if T.self == [Int].self {
            field = .list(try exactly(value, as: [Int].self).map { .int64(Int64($0)) })
        } else {
            let single = StringValueEncoder()
            try value.encode(to: single)
            guard let string = single.string else { throw Unsupported() }
            field = .string(string)
        }
        encoder.fields[key.stringValue] = field
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.failed = true
        return KeyedEncodingContainer(MinimalKeyedEncoding<NestedKey>(encoder: MinimalEncoder()))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.failed = true
        return RejectingUnkeyedEncoding()
    }

    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

/// Encodes a value that is one string, such as a `String` enum; anything else is unsupported.
final class StringValueEncoder: Encoder, SingleValueEncodingContainer {
    var string: String?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let encoder = MinimalEncoder()
        encoder.failed = true
        return encoder.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { RejectingUnkeyedEncoding() }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { throw Unsupported() }
    func encode(_ value: String) throws { string = value }
    func encode<T: Encodable>(_ value: T) throws { throw Unsupported() }
}

struct RejectingUnkeyedEncoding: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    mutating func encodeNil() throws { throw Unsupported() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw Unsupported() }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        StringValueEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { StringValueEncoder() }
}

/// `value` as `T`, which the caller has found to be `Value`'s type: a pointer comparison first,
/// where `as?` would ask the runtime to cast.
func exactly<Value, T>(_ value: Value, as type: T.Type) throws -> T {
    guard Value.self == T.self else { throw Unsupported() }
    return unsafeBitCast(value, to: T.self)
}

// MARK: Decoding

final class MinimalDecoder: Decoder {
    let record: Record

    init(record: Record) {
        self.record = record
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(MinimalKeyedDecoding(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Unsupported() }
}

struct MinimalKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: MinimalDecoder

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { decoder.record.fields.keys.compactMap(Key.init(stringValue:)) }

    private func field(_ key: Key) -> RecordValue? { decoder.record.fields[key.stringValue] }

    func contains(_ key: Key) -> Bool { field(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { field(key) == nil }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let name = key.stringValue
        if name == "id" { return decoder.record.recordName }
        guard case .string(let string)? = decoder.record.fields[name] else { throw Unsupported() }
        return string
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        guard case .int64(let number)? = field(key), let int = Int(exactly: number) else { throw Unsupported() }
        return int
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        guard case .int64(let number)? = field(key), let int = Int32(exactly: number) else { throw Unsupported() }
        return int
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        guard case .double(let number)? = field(key) else { throw Unsupported() }
        return number
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        guard case .int64(let number)? = field(key), number == 0 || number == 1 else { throw Unsupported() }
        return number == 1
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        switch field(key) {
        case .date(let date)? where T.self == Date.self:
            return try exactly(date, as: T.self)
        case .string(let string)? where T.self == URL.self:
            guard let url = URL(string: string) else { throw Unsupported() }
            return try exactly(url, as: T.self)
        case .reference(let reference)? where T.self == RecordReference.self:
            return try exactly(reference, as: T.self)
        case .list(let list)? where T.self == [String].self:
            let strings = try list.map { element -> String in
                guard case .string(let string) = element else { throw Unsupported() }
                return string
            }
            return try exactly(strings, as: T.self)
        case .list(let list)? where T.self == [Int].self:
            let integers = try list.map { element -> Int in
                guard case .int64(let number) = element, let int = Int(exactly: number) else { throw Unsupported() }
                return int
            }
            return try exactly(integers, as: T.self)
        case .string(let string)?:
            return try T(from: StringValueDecoder(string: string))
        default:
            throw Unsupported()
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw Unsupported()
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Unsupported() }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }
}

/// Decodes a value that is one string, such as a `String` enum; anything else is unsupported.
final class StringValueDecoder: Decoder, SingleValueDecodingContainer {
    let string: String

    init(string: String) {
        self.string = string
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw Unsupported()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: String.Type) throws -> String { string }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { throw Unsupported() }
}
