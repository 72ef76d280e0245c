import Foundation

/// A JSON value, the common form through which every wire type is written and read.
///
/// The wire types encode themselves as a `[String: WireJSON]` dictionary through a single-value
/// container. Foundation's JSON coders apply their key strategies to the keys of keyed containers
/// but not to the keys of string-keyed dictionaries, so the JSON is exactly CloudKit's whatever
/// strategies the caller's `JSONEncoder` or `JSONDecoder` has. Dates and bytes are written as the
/// numbers and Base64 text CloudKit expects, so the coder's date and data strategies never apply
/// either.
///
/// Not `indirect`: arrays and dictionaries hold their elements by reference already, and a boxed
/// case would cost an allocation for every value.
enum WireJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number that is integral and within `Int64`: the JSON decoder reads it exactly.
    case int64(Int64)
    /// Any other number.
    case double(Double)
    case string(String)
    case array([WireJSON])
    case object([String: WireJSON])
    /// A record's `fields` object, left in part as the record's values
    /// (``WireRecord/DeferredFields``). Only a tree built for ``JSONBytesWriter`` has one
    /// (``WireRecord/object(for:at:as:defersCommonFields:)``): the writer writes common fields
    /// straight from their values, at a fraction of the cost of building each one's JSON first.
    /// Anything else that meets one takes it as the object it stands for
    /// (``WireRecord/DeferredFields/object``). Boxed, so that no other case grows.
    indirect case recordFields(WireRecord.DeferredFields)
    /// A record's `fields` object whose every field is written from its value: the common case
    /// of ``recordFields(_:)``, which needs no box.
    case commonFields([String: RecordValue])

    /// The length of the coding path where the document being read starts: a record, or a
    /// request or response body.
    @TaskLocal static var documentDepth = 0

    /// How deep a wire value nests below its document. CloudKit's own JSON nests 9 levels at
    /// most (a body's operations, an operation's record, its fields, a field, its value, a list's
    /// element, its zone, the zone's name). Deeper JSON is refused as it is reached: Foundation's
    /// JSON decoder takes longer for each kind tried the deeper a value is, so that a small body
    /// nested thousands deep would take minutes to read.
    static let maximumNesting = 16

    /// Counts the values that the generic route (`init(from:)`) reads, in debug builds only, for
    /// the tests that each value is read once and that JSON nested too deep is refused at once: a
    /// count that a busy machine cannot change, where a time limit could fail.
    final class ReadCount: @unchecked Sendable {
        // Unchecked: a count is made and read by one task, whose decoding runs on it alone.
        var values = 0
    }

    /// The count that reads in this task add to, if any; read in debug builds only.
    @TaskLocal static var readCount: ReadCount?
}

extension WireJSON {
    /// The fields that a ``recordFields(_:)`` or ``commonFields(_:)`` value holds; `nil` for any
    /// other value.
    var deferredFields: WireRecord.DeferredFields? {
        switch self {
        case .recordFields(let fields): fields
        case .commonFields(let values): WireRecord.DeferredFields(values: values)
        default: nil
        }
    }
}

extension [WireJSON] {
    /// The elements as plain values, when `read` gives one for every element; else `nil`.
    func all<Value>(_ read: (WireJSON) -> Value?) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(count)
        for element in self {
            guard let value = read(element) else { return nil }
            values.append(value)
        }
        return values
    }
}

extension Dictionary where Key == String, Value == WireJSON {
    /// Sets `key` when `value` is present.
    mutating func set(_ key: String, _ value: WireJSON?) {
        if let value { self[key] = value }
    }
}
