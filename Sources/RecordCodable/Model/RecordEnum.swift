/// An enumeration stored as its raw value that decodes values it does not know to a fallback case.
///
/// Records outlive app versions: a newer version may store a case that an older one has never
/// heard of. A plain raw-value enum fails to decode such a record with `DecodingError.dataCorrupted`;
/// a `RecordEnum` decodes it to its ``fallbackCase`` instead, in a single property, inside lists,
/// in optional properties, and inside nested values stored as JSON.
///
/// ```swift
/// enum Status: String, RecordEnum {
///     case draft, published, unknown
///     static var fallbackCase: Status { .unknown }
/// }
/// ```
///
/// A raw value of the wrong type, such as text where the raw type is `Int`, is still an error:
/// only values of the right type that match no case fall back.
public protocol RecordEnum: RawRepresentable, Codable where RawValue: Codable {
    /// The case to decode when the stored raw value matches no case.
    static var fallbackCase: Self { get }
}

// The conformance supplies `init(from:)`, so the fallback works wherever the enum is decoded, by
// any decoder. The standard library gives raw-value enums an `init(from:)` per raw type; the
// extensions below are more specific than each of those, so they are the ones chosen.

extension RecordEnum {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeFallingBack(from: decoder)
    }

    static func decodeFallingBack(from decoder: any Decoder) throws -> Self {
        let rawValue = try decoder.singleValueContainer().decode(RawValue.self)
        return Self(rawValue: rawValue) ?? fallbackCase
    }
}

// One extension per raw type for which the standard library has one.

extension RecordEnum where RawValue == String {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == Int {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == Int8 {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == Int16 {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == Int32 {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == Int64 {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == UInt {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == UInt8 {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == UInt16 {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == UInt32 {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == UInt64 {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == Double {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == Float {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
extension RecordEnum where RawValue == Bool {
    /// Decodes the raw value, and the fallback case when no case has it.
    public init(from decoder: any Decoder) throws { self = try Self.decodeFallingBack(from: decoder) }
}
