/// A property whose field CloudKit keeps encrypted.
///
/// In the private and shared databases, CloudKit can keep a field's value encrypted with a key
/// that only the user's devices hold: the server stores it but cannot read it. Mark a property
/// `@Encrypted` and ``RecordEncoder`` names its field in ``Record/encryptedFields``, which
/// CloudKit's JSON writes with `"isEncrypted": true`:
///
/// ```swift
/// struct Account: Codable, Hashable, Sendable {
///     var id: String
///     var holder: String
///     @Encrypted var pin: String
///     @Encrypted var note: String?
/// }
///
/// let record = try RecordEncoder().encode(account)
/// record.encryptedFields    // ["pin", "note"], or ["pin"] when the note is nil
/// ```
///
/// Any property whose field is text, a number, a `Bool`, bytes, a date, a location, or a list of
/// them can be encrypted, optional or not, ``RecordEnum``s included; so can a nested value, which
/// is stored as JSON bytes. An asset or a reference cannot: CloudKit keeps assets encrypted
/// already, and never encrypts references, which the server must read to follow them. Encoding an
/// `@Encrypted` asset, `URL` of a file, ``RecordAssetValue``, ``RecordReference`` or
/// ``LinkedRecord``, or a list of them (an empty one too), throws `EncodingError.invalidValue` at
/// the property's path.
///
/// Decoding is unchanged: the field reads as the value it holds, and a missing field as `nil` for
/// an optional. Anywhere other than a record's field — in a nested value stored as JSON, or in
/// `JSONEncoder`'s output — the wrapper is its plain value, so the model's JSON is the same as
/// without it.
///
/// An encrypted field cannot be indexed, so a query cannot filter or sort on it; and a field
/// cannot change between plain and encrypted once it is in the schema. See <doc:Encryption>.
@propertyWrapper
public struct Encrypted<Value: Codable>: Codable {
    /// The property's value.
    public var wrappedValue: Value

    /// Wraps a property's value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Encodes the value; as a record's field, the field is also named in
    /// ``Record/encryptedFields``.
    public func encode(to encoder: any Encoder) throws {
        guard let propertyEncoder = encoder as? any RecordPropertyEncoder else {
            var container = encoder.singleValueContainer()
            return try container.encode(wrappedValue)
        }
        try propertyEncoder.encodeEncrypted(wrappedValue)
    }

    /// Decodes the value, as if it were not wrapped.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }
}

extension Encrypted: Equatable where Value: Equatable {}
extension Encrypted: Hashable where Value: Hashable {}
extension Encrypted: Sendable where Value: Sendable {}

/// Marks ``Encrypted``, so that the schema and the nested containers of a record can recognise it
/// by its type.
protocol EncryptedWrapper {}
extension Encrypted: EncryptedWrapper {}

// An optional property is left out of a keyed container when it is `nil`, and reads as `nil` when
// its key is missing. A wrapper of an optional would write `null` and need its key, so that a
// model's JSON would change with the wrapper. These overloads, more specific than the generic
// methods, keep the optional's behaviour; synthesized conformances call them.

extension KeyedEncodingContainer {
    /// Encodes an encrypted optional as an optional is encoded: nothing for `nil`.
    public mutating func encode<Wrapped: Codable>(_ value: Encrypted<Wrapped?>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue == nil ? nil : value, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an encrypted optional as an optional is decoded: `nil` when its key is missing.
    public func decode<Wrapped: Codable>(_ type: Encrypted<Wrapped?>.Type, forKey key: Key) throws
        -> Encrypted<Wrapped?>
    {
        try decodeIfPresent(type, forKey: key) ?? Encrypted(wrappedValue: nil)
    }
}
