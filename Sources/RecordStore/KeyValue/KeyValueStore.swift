import Foundation
import RecordCodable

/// A typed key-value view of a store, per namespace: what mPaaS Data Center's per-"business"
/// storage does, kept in the store's journal.
///
/// ```swift
/// let settings = store.keyValues(namespace: "settings")
/// try settings.set(3, forKey: "launchCount")
/// try settings.set(true, forKey: "onboarded")
/// try settings.set(Profile(name: "Mei"), forKey: "profile")      // any Codable value
///
/// let launches = try settings.value(forKey: "launchCount", default: 0)
/// let profile = try settings.value(Profile.self, forKey: "profile")   // nil when absent
/// try settings.removeValues(withPrefix: "cache.")
/// ```
///
/// Each value is a record of type ``recordType`` named by its key, in the zone named by the
/// namespace; its field `value` holds it as `RecordEncoder` stores a property: a number,
/// a string, a date, bytes natively, any other `Codable` value as JSON. A `Bool` and an integer
/// are both stored as an integer, and a whole `Double` reads as one, so the record of a `Bool` or
/// a number says which it is in a second field, `valueType` (`bool`, `integer` or
/// `floatingPoint`): a view that syncs needs it in the server's schema too.
///
/// Reading a value as another type than it was written fails with a `DecodingError` — it does
/// not fall back to the default — whose coding path starts with the value's key: a
/// `typeMismatch` in Foundation's words, `Expected to decode Double but found an integer
/// instead.`, for an `Int` read as a `Double` or a `Bool` read as an `Int`. An integer may be
/// read as another integer type it fits in, and a `Double` as a `Float`.
///
/// A view that does not sync keeps its values on the device (``SyncStatus/localOnly``); one
/// that syncs makes them pending records, sent with the rest.
///
/// A key names a record, so it cannot be empty: setting a value for `""` throws
/// ``RecordStoreError/unnamedRecord(recordType:)``. In a view that syncs, a key is a name the
/// server sees, and follows CloudKit's rule for record names: at most 255 ASCII characters, not
/// starting with an underscore. Keys are told apart as Swift compares strings: `"é"` written as
/// one character or as `e` and an accent is one key.
///
/// Setting `nil` (an optional that holds none) removes the value. A linked model
/// (`LinkedRecord`) is not a value: its record is its own; park it, and keep its identifier here.
public struct KeyValueStore: Sendable {
    /// The type of the records that hold the values.
    public static let recordType = "KeyValue"

    /// The store the values are kept in.
    public let store: RecordStore

    /// The namespace: the zone of the values' records.
    public let namespace: String

    /// Whether the values are sent to the server like other records.
    public let syncs: Bool

    /// The value for `key`, or `nil` when there is none.
    ///
    /// - Throws: `DecodingError` when the value was stored as another type: a `typeMismatch`, in
    ///   Foundation's words (`Expected to decode Double but found an integer instead.`), whose
    ///   coding path starts with `key`. An `Int` is not read as a `Double`, nor a `Bool` as an
    ///   `Int`, though the record holds each as a number.
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, forKey key: String) throws -> Value? {
        guard let record = try store.record(for: recordKey(key)) else { return nil }
        if let wanted = ScalarKind(of: Value.self), let stored = ScalarKind(of: record), stored != wanted {
            let expected = ScalarKind.unwrapped(Value.self)
            throw DecodingError.typeMismatch(
                expected,
                DecodingError.Context(
                    codingPath: [ValueKey(key)],
                    debugDescription: "Expected to decode \(expected) but found \(stored) instead."
                ))
        }
        do {
            return try Self.decoder.decode(StoredValue<Value>.self, from: record).value
        } catch let error as DecodingError {
            throw error.withContext { context in
                DecodingError.Context(
                    codingPath: Self.path(context.codingPath, forKey: key), debugDescription: context.debugDescription,
                    underlyingError: context.underlyingError)
            }
        }
    }

    /// The value for `key`, or `defaultValue` when there is none.
    ///
    /// - Throws: `DecodingError` when the value was stored as another type, as
    ///   ``value(_:forKey:)`` does.
    public func value<Value: Decodable>(forKey key: String, default defaultValue: Value) throws -> Value {
        try value(Value.self, forKey: key) ?? defaultValue
    }

    /// Keeps `value` for `key`, replacing what was there, durably; `nil` removes it.
    ///
    /// - Throws: `EncodingError`, at a path that starts with `key`, when the value cannot be
    ///   encoded (a NaN or infinite `Double` field among them), is a linked model, or, in a
    ///   view that syncs, when the key cannot name a record on the server;
    ///   `RecordEncodingError.recordTooLarge(size:limit:heaviestFields:)` past 1 MB.
    public func set<Value: Encodable>(_ value: Value, forKey key: String) throws {
        guard !key.isEmpty else { throw RecordStoreError.unnamedRecord(recordType: Self.recordType) }
        if syncs, let problem = RecordName.problem(with: key) {
            throw EncodingError.invalidValue(
                key,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription: "The key '\(key)' names a record the server sees, and \(problem)."))
        }
        let records: [Record]
        do {
            records = try Self.encoder.encodeGraph(StoredValue(value: value), named: key)
        } catch let error as EncodingError {
            throw error.withContext { context in
                EncodingError.Context(
                    codingPath: Self.path(context.codingPath, forKey: key), debugDescription: context.debugDescription,
                    underlyingError: context.underlyingError)
            }
        }
        guard records.count == 1, var record = records.first else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [ValueKey(key)],
                    debugDescription: "A linked model is a record of its own, which a value would only "
                        + "refer to: park it, and keep its identifier as the value."))
        }
        if Self.isNil(value) { return try removeValue(forKey: key) }
        record.recordType = Self.recordType
        record.recordName = key
        if let kind = ScalarKind(of: Value.self) { record[Self.kindField] = .string(kind.rawValue) }
        do {
            try store.withBatch { try $0.save(record, inZone: namespace, localOnly: !syncs) }
        } catch let error as EncodingError {
            // A number CloudKit's JSON cannot carry is refused as the record's JSON is written, at
            // the path of its field's value there: the app knows it by its key.
            throw error.withContext { context in
                EncodingError.Context(
                    codingPath: Self.path(wirePath: context.codingPath, forKey: key),
                    debugDescription: context.debugDescription, underlyingError: context.underlyingError)
            }
        }
    }

    /// Removes the value for `key`, if any.
    public func removeValue(forKey key: String) throws {
        try store.deleteRecord(for: recordKey(key))
    }

    /// Removes every value whose key starts with `prefix`, in one commit.
    public func removeValues(withPrefix prefix: String) throws {
        try store.withBatch { batch in
            for key in try batch.keys(where: { isValue($0) && $0.recordName.hasPrefix(prefix) && $1.isVisible }) {
                try batch.deleteRecord(for: key)
            }
        }
    }

    /// Removes every value of the namespace, in one commit.
    public func removeAll() throws {
        try removeValues(withPrefix: "")
    }

    /// The keys that have values, sorted.
    public func keys() throws -> [String] {
        try store.reading { batch in
            try batch.keys(where: { isValue($0) && $1.isVisible }).map(\.recordName)
        }
    }

    /// Whether `key` has a value.
    public func contains(_ key: String) throws -> Bool {
        try store.record(for: recordKey(key)) != nil
    }

    /// Whether `value` is an optional that holds nothing, perhaps inside other optionals (as
    /// `dictionary[key]` of a dictionary of optionals is).
    private static func isNil(_ value: Any) -> Bool {
        var mirror = Mirror(reflecting: value)
        while mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return true }
            mirror = Mirror(reflecting: wrapped)
        }
        return false
    }

    private func recordKey(_ key: String) -> RecordKey {
        RecordKey(zone: namespace, recordType: Self.recordType, recordName: key)
    }

    private func isValue(_ key: RecordKey) -> Bool {
        key.zone == namespace && key.recordType == Self.recordType
    }

    /// `path`, a coding path in a ``StoredValue``, starting with `key` instead of its property:
    /// the name the app knows the value by.
    private static func path(_ path: [any CodingKey], forKey key: String) -> [any CodingKey] {
        guard path.first?.stringValue == StoredValue<Never>.CodingKeys.value.stringValue else { return path }
        return [ValueKey(key)] + path.dropFirst()
    }

    /// `path`, a coding path in a value's record as CloudKit's JSON, starting with `key` instead of
    /// the keys of its field's value (`fields`, `value`, `value`).
    private static func path(wirePath path: [any CodingKey], forKey key: String) -> [any CodingKey] {
        let fieldValue = ["fields", StoredValue<Never>.CodingKeys.value.stringValue, "value"]
        guard path.prefix(fieldValue.count).map(\.stringValue) == fieldValue else { return path }
        return [ValueKey(key)] + path.dropFirst(fieldValue.count)
    }

    /// The field that says which kind of number a `Bool` or number value is.
    private static let kindField = "valueType"

    /// A value's key, as the first key of a coding path.
    private struct ValueKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ key: String) {
            stringValue = key
        }

        init(stringValue: String) {
            self.init(stringValue)
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// The kinds of value that a record holds alike, as a number: what the field alone does not
    /// tell, so the value's record says which it was (in its ``kindField``), and reading it as
    /// another is a type mismatch.
    private enum ScalarKind: String, CustomStringConvertible {
        case bool
        case integer
        case floatingPoint

        /// The kind of a value of `type`, or of the value an optional of it holds; `nil` for a
        /// type that is none of these.
        init?(of type: Any.Type) {
            let type = Self.unwrapped(type)
            if type == Bool.self {
                self = .bool
            } else if type is any BinaryInteger.Type {
                self = .integer
            } else if type is any BinaryFloatingPoint.Type {
                self = .floatingPoint
            } else {
                return nil
            }
        }

        /// The kind of the value that `record` holds, as its ``kindField`` says.
        init?(of record: Record) {
            guard case .string(let name)? = record[KeyValueStore.kindField] else { return nil }
            self.init(rawValue: name)
        }

        /// `type`, or the type an optional of it wraps, however deep.
        static func unwrapped(_ type: Any.Type) -> Any.Type {
            guard let optional = type as? any OptionalOfValue.Type else { return type }
            return unwrapped(optional.wrappedType)
        }

        /// The kind as an error message names it.
        var description: String {
            switch self {
            case .bool: "a Bool"
            case .integer: "an integer"
            case .floatingPoint: "a floating-point number"
            }
        }
    }

    /// A value as a model of one property, so that it is stored as the coders store a property.
    fileprivate struct StoredValue<Value> {
        var value: Value

        enum CodingKeys: String, CodingKey {
            case value
        }
    }

    /// The default encoder: `StoredValue` has no identifier, and its record is named by the key;
    /// linked models in a value are named by theirs, so that they can be told apart.
    private static let encoder = RecordEncoder()

    private static let decoder: RecordDecoder = {
        var decoder = RecordDecoder()
        decoder.identifierKey = nil
        // The records are of type `KeyValue`, found by key, which no `StoredValue` is named.
        decoder.checksRecordType = false
        return decoder
    }()
}

/// An optional, whose wrapped type a value's kind is found from.
private protocol OptionalOfValue {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalOfValue {
    fileprivate static var wrappedType: Any.Type { Wrapped.self }
}

extension KeyValueStore.StoredValue: Encodable where Value: Encodable {}
extension KeyValueStore.StoredValue: Decodable where Value: Decodable {}

extension RecordStore {
    /// A typed key-value view of the store, for one namespace.
    ///
    /// - Parameters:
    ///   - namespace: The namespace, which is the zone of the values' records.
    ///   - syncs: Whether the values are sent to the server with the other records; by default
    ///     they stay on the device.
    public func keyValues(namespace: String, syncs: Bool = false) -> KeyValueStore {
        KeyValueStore(store: self, namespace: namespace, syncs: syncs)
    }
}
