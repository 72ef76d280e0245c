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
/// namespace; its one field, `value`, holds it as `RecordEncoder` stores a property: a number,
/// a string, a date, bytes natively, any other `Codable` value as JSON. Reading a value as
/// another type than it was written fails with the `DecodingError` that decoding a property
/// would — it does not fall back to the default.
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
    /// - Throws: `DecodingError` when the value was stored as another type.
    public func value<Value: Decodable>(_ type: Value.Type = Value.self, forKey key: String) throws -> Value? {
        guard let record = try store.record(for: recordKey(key)) else { return nil }
        return try Self.decoder.decode(StoredValue<Value>.self, from: record).value
    }

    /// The value for `key`, or `defaultValue` when there is none.
    ///
    /// - Throws: `DecodingError` when the value was stored as another type.
    public func value<Value: Decodable>(forKey key: String, default defaultValue: Value) throws -> Value {
        try value(Value.self, forKey: key) ?? defaultValue
    }

    /// Keeps `value` for `key`, replacing what was there, durably; `nil` removes it.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded, is a linked model, or, in a
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
        let records = try Self.encoder.encodeGraph(StoredValue(value: value))
        guard records.count == 1, var record = records.first else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [StoredValue<Value>.CodingKeys.value],
                    debugDescription: "A linked model is a record of its own, which a value would only "
                        + "refer to: park it, and keep its identifier as the value."))
        }
        if Self.isNil(value) { return try removeValue(forKey: key) }
        record.recordType = Self.recordType
        record.recordName = key
        try store.withBatch { try $0.save(record, inZone: namespace, localOnly: !syncs) }
    }

    /// Removes the value for `key`, if any.
    public func removeValue(forKey key: String) throws {
        try store.deleteRecord(for: recordKey(key))
    }

    /// Removes every value whose key starts with `prefix`, in one commit.
    public func removeValues(withPrefix prefix: String) throws {
        try store.withBatch { batch in
            for key in batch.keys(where: { isValue($0) && $0.recordName.hasPrefix(prefix) && $1.isVisible }) {
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
            batch.keys(where: { isValue($0) && $1.isVisible }).map(\.recordName)
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
        return decoder
    }()
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
