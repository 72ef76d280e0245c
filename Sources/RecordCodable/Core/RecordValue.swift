import Foundation

/// The value of one field of a ``Record``.
///
/// The cases are the field types that CloudKit stores natively. ``RecordEncoder`` maps each Swift
/// property to one of them (see <doc:TypeMapping>): a `String` to ``string(_:)``, every integer and
/// `Bool` to ``int64(_:)``, a `Date` to ``date(_:)``, an array of any of these to ``list(_:)``, and
/// a value with no native form, such as a nested struct, to ``bytes(_:)`` holding its JSON.
///
/// For example:
///
/// ```swift
/// var record = Record(recordType: "Note", recordName: "N1")
/// record["title"] = .string("Hello")
/// record["tags"] = .list([.string("work"), .string("todo")])
/// ```
public enum RecordValue: Hashable, Sendable {
    /// Text.
    case string(String)
    /// A 64-bit signed integer; also every smaller integer type and `Bool` (0 or 1).
    case int64(Int64)
    /// A 64-bit floating-point number; also `Float`.
    case double(Double)
    /// Raw bytes. Also the JSON of a value that has no native field type.
    case bytes(Data)
    /// A point in time.
    case date(Date)
    // The three structured cases are stored indirectly, so that every value, and every element of
    // a long list, stays as small as a string.

    /// A file stored beside the record.
    indirect case asset(RecordAsset)
    /// A link to another record.
    indirect case reference(RecordReference)
    /// A geographic location.
    indirect case location(RecordLocation)
    /// A list of values.
    ///
    /// A list is homogeneous: every element is the same case, and never itself a list.
    /// ``RecordEncoder`` stores a collection whose elements do not fit that rule as JSON
    /// ``bytes(_:)`` instead.
    case list([RecordValue])

    /// Whether the value is a list without elements, whose field type it cannot tell.
    var isEmptyList: Bool {
        if case .list(let elements) = self { return elements.isEmpty }
        return false
    }

    /// The Swift value held by this case, which an error carries in place of the model's own value
    /// once that value is a field: a `Double` for ``double(_:)``, a `Date` for ``date(_:)``, the
    /// elements' values for a ``list(_:)``.
    var payload: Any {
        switch self {
        case .string(let string): string
        case .int64(let number): number
        case .double(let number): number
        case .bytes(let data): data
        case .date(let date): date
        case .asset(let asset): asset
        case .reference(let reference): reference
        case .location(let location): location
        case .list(let elements): elements.map(\.payload)
        }
    }

    var isBytes: Bool {
        if case .bytes = self { return true }
        return false
    }

    /// The bytes this value costs against a record's size limit.
    ///
    /// - A string costs its UTF-8 bytes, bytes their count.
    /// - An integer, a double and a date cost 8.
    /// - A reference costs the UTF-8 bytes of its record name and of its zone's names.
    /// - A location costs 8 for each number it has, its timestamp included.
    /// - A list costs the sum of its elements.
    /// - An asset costs only its reference: the UTF-8 bytes of its `fileChecksum`, else of its
    ///   file URL or download URL. The file itself is uploaded apart from the record and never
    ///   counts.
    public var encodedSize: Int {
        switch self {
        case .string(let string): string.utf8.count
        case .int64, .double, .date: 8
        case .bytes(let data): data.count
        case .asset(let asset): asset.encodedSize
        case .reference(let reference): reference.encodedSize
        case .location(let location): location.encodedSize
        case .list(let elements): elements.reduce(0) { $0 &+ $1.encodedSize }
        }
    }
}
