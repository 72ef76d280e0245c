import Foundation

/// The keyed container of a record: each property the model encodes becomes one field.
///
/// The identifier names the record instead, and a `RecordMetadata` property becomes the record's
/// metadata: each property's ``PropertyRole`` decides. `nil` stores no field. A key that the
/// record's learned layout expects next is a field, and is written straight into its place
/// (``RecordEncodingEngine/storeExpected(_:size:keyName:)``); any other, by the engine's rules
/// (``RecordEncodingEngine/store(_:size:forKey:named:canBeIdentifier:)``).
struct RecordFieldContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let engine: RecordEncodingEngine

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        try engine.store(nil, size: 0, forKey: key, named: key.stringValue)
    }

    // MARK: Optional values

    // A property left out as nil writes nothing, but the engine notes a nil identifier. Each
    // overload writes a present value as `encode` does.

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        guard let value else { return engine.noteAbsentValue(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        guard let value else { return engine.noteAbsentValue(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        guard let value else { return engine.noteAbsentValue(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        guard let value else { return engine.noteAbsentValue(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try optionalInteger(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try optionalInteger(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try optionalInteger(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try optionalInteger(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try optionalInteger(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try optionalInteger(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try optionalInteger(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        try optionalInteger(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        try optionalInteger(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try optionalInteger(value, forKey: key)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return engine.noteAbsentValue(forKey: key) }
        try encode(value, forKey: key)
    }

    @inline(__always)
    private mutating func optionalInteger<I: FixedWidthInteger & Encodable>(_ value: I?, forKey key: Key) throws {
        guard let value else { return engine.noteAbsentValue(forKey: key) }
        try storeInteger(value, forKey: key)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try store(.string(value), size: value.utf8.count, forKey: key)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        // A Bool is stored as an integer, but 0 or 1 would name a record by accident.
        try store(.int64(value ? 1 : 0), size: 8, forKey: key, canBeIdentifier: false)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try store(.double(value), size: 8, forKey: key)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try store(.double(Double(value)), size: 8, forKey: key)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { try storeInteger(value, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try storeInteger(value, forKey: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if PropertyRoles.isMetadata(T.self) {
            let metadata: RecordMetadata? =
                try T.self == RecordMetadata.self
                ? reinterpret(value, as: RecordMetadata.self) : reinterpret(value, as: RecordMetadata?.self)
            return engine.setMetadata(metadata)
        }
        let name = key.stringValue
        // A skipped property is not even encoded.
        if engine.roles.skips(name) { return }
        guard let field = try engine.encodeField(value, at: .field(named: name)) else {
            return try engine.store(nil, size: 0, forKey: key, named: name)
        }
        let size = field.size
        try store((consume field).value, size: size, forKey: key, named: name)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        engine.nestedValue(.keyed, forKey: key)
            .keyedContainer(at: CodingPathNode.root.appending(key), userInfo: engine.userInfo)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        engine.nestedValue(.unkeyed, forKey: key)
            .unkeyedContainer(at: CodingPathNode.root.appending(key), userInfo: engine.userInfo)
    }

    /// An encoder of the same record, so that a superclass writes its fields into it; at the
    /// path `super`, where an error is reported if the superclass writes something else.
    mutating func superEncoder() -> any Encoder {
        engine.separateSuperclassFields(writtenWith: Key.self)
        return RecordSuperEncoder(engine: engine)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(
            value: engine.nestedValue(nil, forKey: key), node: CodingPathNode.root.appending(key),
            userInfo: engine.userInfo)
    }

    // MARK: Helpers

    // Inlined into each integer overload, so that each is compiled for its own integer type.
    @inline(__always)
    private func storeInteger(_ value: some FixedWidthInteger, forKey key: Key) throws {
        let name = key.stringValue
        guard let number = Int64(exactly: value) else {
            // Too large for a field; but an identifier names the record with its digits, whatever
            // their number.
            switch engine.role(ofKeyNamed: name) {
            case .skipped: return
            case .field, .metadata, .systemFieldsArchive: throw EncodingError.integerOverflow(value, at: .field(key))
            case .identifier, .identifierAndField:
                let digits = String(value)
                return try engine.store(.string(digits), size: digits.utf8.count, forKey: key, named: name)
            }
        }
        try store(.int64(number), size: 8, forKey: key, named: name)
    }

    /// Stores a property's value: straight into its place when the record's layout expects the key
    /// next, which makes it a field; else as its role says, out of line.
    @inline(__always)
    private func store(
        _ value: __owned RecordValue, size: Int, forKey key: Key, named name: String? = nil,
        canBeIdentifier: Bool = true
    ) throws {
        let name = name ?? key.stringValue
        if engine.expects(name) { return try engine.storeExpected(value, size: size, keyName: name) }
        try engine.store(value, size: size, forKey: key, named: name, canBeIdentifier: canBeIdentifier)
    }
}

extension EncodingError {
    @inline(never)
    static func integerOverflow(_ value: some FixedWidthInteger, at path: CodingPath) -> EncodingError {
        .invalid(
            value, at: path,
            "\(type(of: value)) value \(value) does not fit in a record's 64-bit signed integer field "
                + "(at most \(Int64.max)).")
    }
}

/// The container a model gets when it asks a record for an unkeyed container: a record holds named
/// fields, so every value it is given is an error.
struct TopLevelUnkeyedContainer: UnkeyedEncodingContainer {
    let engine: RecordEncodingEngine
    /// The record's path: the root, or `super` for a superclass's encoder.
    var path = CodingPath.root

    var codingPath: [any CodingKey] { path.keys }
    var count: Int { 0 }

    private func reject(_ value: Any) -> EncodingError {
        .invalid(
            value, at: path,
            "A record holds named fields and cannot be encoded from an unkeyed container; "
                + "encode a struct or class with a keyed container.")
    }

    mutating func encodeNil() throws { throw reject(Optional<Any>.none as Any) }
    mutating func encode<T: Encodable>(_ value: T) throws { throw reject(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        TreeValue().keyedContainer(at: .root, userInfo: engine.userInfo)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeValue().unkeyedContainer(at: .root, userInfo: engine.userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(value: TreeValue(), node: .root, userInfo: engine.userInfo)
    }
}

/// The container a model gets when it asks a record for a single value.
///
/// A model that wraps another, such as a property wrapper or a generic box, may hand the wrapped
/// model on: the wrapped model is encoded into this record. A plain value — text, a number,
/// `nil` — cannot be a record and is an error.
struct TopLevelSingleValueContainer: SingleValueEncodingContainer {
    let engine: RecordEncodingEngine
    /// The record's path: the root, or `super` for a superclass's encoder.
    var path = CodingPath.root

    var codingPath: [any CodingKey] { path.keys }

    private func reject(_ value: Any, as description: String) -> EncodingError {
        engine.rejectTopLevel(description)
        return .invalid(
            value, at: path,
            "A record holds named fields and cannot be encoded from \(description); "
                + "encode a struct or class with a keyed container.")
    }

    mutating func encodeNil() throws { throw reject(Optional<Any>.none as Any, as: "nil") }

    mutating func encode(_ value: Bool) throws { throw reject(value, as: "a single Bool") }
    mutating func encode(_ value: String) throws { throw reject(value, as: "a single String") }
    mutating func encode(_ value: Double) throws { throw reject(value, as: "a single Double") }
    mutating func encode(_ value: Float) throws { throw reject(value, as: "a single Float") }
    mutating func encode(_ value: Int) throws { throw reject(value, as: "a single Int") }
    mutating func encode(_ value: Int8) throws { throw reject(value, as: "a single Int8") }
    mutating func encode(_ value: Int16) throws { throw reject(value, as: "a single Int16") }
    mutating func encode(_ value: Int32) throws { throw reject(value, as: "a single Int32") }
    mutating func encode(_ value: Int64) throws { throw reject(value, as: "a single Int64") }
    mutating func encode(_ value: UInt) throws { throw reject(value, as: "a single UInt") }
    mutating func encode(_ value: UInt8) throws { throw reject(value, as: "a single UInt8") }
    mutating func encode(_ value: UInt16) throws { throw reject(value, as: "a single UInt16") }
    mutating func encode(_ value: UInt32) throws { throw reject(value, as: "a single UInt32") }
    mutating func encode(_ value: UInt64) throws { throw reject(value, as: "a single UInt64") }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { throw reject(value, as: "a single Int128") }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { throw reject(value, as: "a single UInt128") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try engine.rejectSingleValue(value, at: path)
        try value.encode(to: engine)
    }
}

/// The encoder that `superEncoder()` gives a model: the record's own, at the path `super`.
///
/// A superclass's keyed container writes into the record, so that a class hierarchy is one
/// record. Anything else a superclass writes is an error at `super`, as Foundation's encoders
/// report it.
struct RecordSuperEncoder: Encoder {
    let engine: RecordEncodingEngine

    static var path: CodingPath { .field(AnyCodingKey(stringValue: "super")) }

    var codingPath: [any CodingKey] { Self.path.keys }
    var userInfo: [CodingUserInfoKey: Any] { engine.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        engine.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        engine.rejectTopLevel("an unkeyed container")
        return TopLevelUnkeyedContainer(engine: engine, path: Self.path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TopLevelSingleValueContainer(engine: engine, path: Self.path)
    }
}
