import Foundation

/// Writes records and CloudKit Web Services bodies as JSON, several times faster than
/// `JSONEncoder`, with the same bytes.
///
/// `JSONEncoder().encode(record)` goes through `Encoder`, which asks for a container for every
/// value of every field; this encoder writes the record's JSON straight to bytes. The bytes are
/// exactly those of `JSONEncoder` with `.sortedKeys` (and with `.prettyPrinted` and
/// `.withoutEscapingSlashes` when you ask for them), and the errors are the same, at the same coding
/// paths.
///
/// ```swift
/// let record = try RecordEncoder().encode(post)
/// let body = try RecordJSONEncoder().encode(RecordsModifyRequest(savingRecords: [record]))
/// // {"operations":[{"operationType":"create","record":{"fields":{…},…}}]}
/// ```
///
/// It writes a ``Record``, an array of records, and every request and response body of the
/// package, such as ``RecordsModifyRequest`` and ``RecordsQueryResponse``. Any other `Encodable`
/// value — your own type holding records, say — is handed to `JSONEncoder` with the same
/// formatting, so the encoder works for every type; only those gain speed.
///
/// Keys are always sorted, whether or not ``outputFormatting`` contains `.sortedKeys`: the bytes
/// of a record do not depend on the order of its fields in memory.
public struct RecordJSONEncoder: Sendable {
    /// How the JSON is laid out: `.prettyPrinted` and `.withoutEscapingSlashes` as for
    /// `JSONEncoder`. Keys are sorted whatever this holds. The default is `.sortedKeys`.
    public var outputFormatting: JSONEncoder.OutputFormatting = [.sortedKeys]

    /// Creates an encoder that writes compact JSON with sorted keys.
    public init() {}

    /// Returns the JSON of `value`.
    ///
    /// - Parameter value: A record, an array of records, a request or response body, or any other
    ///   `Encodable` value (written by `JSONEncoder`).
    /// - Returns: The JSON, as `JSONEncoder` with `.sortedKeys` writes it.
    /// - Throws: `EncodingError.invalidValue`, at the coding path of the value, for a value that
    ///   CloudKit's JSON cannot carry: a NaN or infinite `Double`, a date beyond the milliseconds an
    ///   `Int64` counts, a list that mixes kinds of values, a saved record without a record type.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        var writer = JSONBytesWriter(formatting: outputFormatting)
        if T.self == Record.self, let record = value as? Record {
            try writer.write(record, at: [])
        } else if T.self == [Record].self, let records = value as? [Record] {
            writer.beginArray()
            for (index, record) in records.enumerated() {
                writer.nextElement(first: index == 0)
                try writer.write(record, at: [AnyCodingKey(index: index)])
            }
            writer.endArray(empty: records.isEmpty)
        } else if let wireValue = value as? any WireCodable {
            // The records in a body have their common fields written straight, as a record's are.
            try WireRecord.$defersCommonFields.withValue(true) { try wireValue.write(to: &writer, at: []) }
        } else if let wireValues = value as? any WireCodableArray {
            try WireRecord.$defersCommonFields.withValue(true) { try wireValues.write(to: &writer) }
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = outputFormatting.union(.sortedKeys)
            return try encoder.encode(value)
        }
        return Data(writer.bytes)
    }
}

/// An array of wire values, which `RecordJSONEncoder` and `RecordJSONDecoder` write and read
/// element by element, as Foundation's coders do.
protocol WireCodableArray {
    /// Writes the array, each element at its index's coding path.
    func write(to writer: inout JSONBytesWriter) throws

    /// Reads the array from a JSON array, each element at its index's coding path.
    static func read(from reader: WireReader) throws -> Self
}

extension Array: WireCodableArray where Element: WireCodable {
    func write(to writer: inout JSONBytesWriter) throws {
        writer.beginArray()
        for (index, element) in enumerated() {
            writer.nextElement(first: index == 0)
            try element.write(to: &writer, at: [AnyCodingKey(index: index)])
        }
        writer.endArray(empty: isEmpty)
    }

    static func read(from reader: WireReader) throws -> [Element] {
        try reader.mapElements(Element.init(wire:))
    }
}
