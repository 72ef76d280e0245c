import Foundation

/// Reads records and CloudKit Web Services bodies from JSON, several times faster than
/// `JSONDecoder`, with the same values and the same errors.
///
/// `JSONDecoder().decode(Record.self, from: body)` reads every JSON value through `Decoder`, which
/// cannot say what kind a value is, so each kind is tried in turn. This decoder reads the bytes
/// into a flat list of tokens instead, and the record reads itself from them through the same code
/// as on the `Codable` path: the values are equal, and an error is the same `DecodingError`, of the
/// same kind, at the same coding path. A record alone of the usual shape, and a page of such records
/// (a query, lookup, modify, records-changes or zone-changes response), is read straight from its bytes, in one
/// pass without the tokens; any other is read from the tokens, with the same result.
///
/// ```swift
/// let (body, _) = try await URLSession.shared.data(for: queryRequest)
/// let page = try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: body)
/// let posts = try page.records.compactMap(\.record).map { try RecordDecoder().decode(Post.self, from: $0) }
/// ```
///
/// It reads a ``Record``, an array of records, and every request and response body of the
/// package. Any other `Decodable` type is handed to `JSONDecoder`, so the decoder works for every
/// type; only those gain speed.
///
/// It accepts what `JSONDecoder` accepts: UTF-8 with or without a byte order mark, trailing commas
/// in objects and arrays, and of a key given twice the first. The rare document it does not read
/// as `JSONDecoder` would, word for word — JSON that is not valid, UTF-16 or UTF-32 text, numbers
/// beyond a `Double`'s range, values nested deeper than CloudKit's bodies nest — it hands to
/// `JSONDecoder`, so that the result, or the error, is `JSONDecoder`'s own.
public struct RecordJSONDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Returns a value of `type` read from `data`.
    ///
    /// - Parameters:
    ///   - type: A record, an array of records, a request or response body, or any other
    ///     `Decodable` type (read by `JSONDecoder`).
    ///   - data: JSON.
    /// - Throws: The `DecodingError` that `JSONDecoder().decode(type, from: data)` throws: for
    ///   JSON that is not valid, `DecodingError.dataCorrupted` at the empty path; for a value that
    ///   is malformed, an error at its coding path, such as `fields.title.value`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        // A record, the most common document, is handed over as `T` by `reinterpret` rather than
        // cast, in a function of its own: a cast to a `T` known only at run time asks the runtime
        // for the metadata of `Optional<T>` and for the cast, about 600 instructions a record.
        if T.self == Record.self { return try reinterpret(Self.record(from: data), as: type) }
        return try decodeOther(type, from: data)
    }

    /// A record read from `data`: straight from its bytes when it has the usual shape, else from
    /// the start, the general way, or by `JSONDecoder` for a document the general way leaves to it.
    private static func record(from data: Data) throws -> Record {
        if let record = RecordBytesReader.record(from: data) { return record }
        if let record = try read(Record.self, from: data) { return record }
        return try JSONDecoder().decode(Record.self, from: data)
    }

    /// ``decode(_:from:)`` for any type but a record. (Not inlined, so that a record's read does
    /// not ask for the metadata its casts need.)
    @inline(never)
    private func decodeOther<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let straightType = T.self as? any StraightReadable.Type,
            let value = straightType.straight(from: data) as? T
        {
            // A page of records of the usual shape reads straight from its bytes; any other is
            // read from the start below.
            return value
        } else if let wireType = T.self as? any WireCodable.Type, let value = try Self.read(wireType, from: data) as? T
        {
            return value
        } else if let arrayType = T.self as? any WireCodableArray.Type,
            let value = try Self.readArray(arrayType, from: data) as? T
        {
            return value
        }
        return try JSONDecoder().decode(T.self, from: data)
    }

    /// A record read from the JSON text `text`: what ``decode(_:from:)`` returns, or throws, for a
    /// `Record` and the same bytes, for a reader that holds them as an array already (the store,
    /// from its own buffers), which `Data` would copy once more.
    package static func record(fromText text: ContiguousArray<UInt8>) throws -> Record {
        if let record = RecordBytesReader.document(text.span) { return record }
        if let record = try read(Record.self, from: JSONTape.parsing(text: text, maximumDepth: WireJSON.maximumNesting))
        {
            return record
        }
        return try JSONDecoder().decode(Record.self, from: Data(text))
    }

    /// Reads a wire value from the object that `data` holds, or returns `nil` when Foundation's
    /// decoder must read the document.
    private static func read<Value: WireCodable>(_ type: Value.Type, from data: Data) throws -> Value? {
        // The document is the value, so its depth is counted from it.
        try read(type, from: JSONTape.parsing(data, maximumDepth: WireJSON.maximumNesting))
    }

    /// Reads a wire value from the object a parsed document holds, or returns `nil` when
    /// Foundation's decoder must read the document.
    private static func read<Value: WireCodable>(
        _ type: Value.Type, from parsing: JSONParseOutcome<JSONTape>
    ) throws -> Value? {
        switch parsing {
        case .parsed(let tape) where tape.kind(at: 0) == .object:
            return try Value(wire: WireReader(tape, at: 0))
        case .parsed, .beyondFastPath, .malformed:
            // Foundation's decoder refuses what is not an object, and reports malformed text, in
            // its own words.
            return nil
        }
    }

    /// Reads an array of wire values from the array of objects that `data` holds, or returns `nil`
    /// when Foundation's decoder must read the document.
    private static func readArray<Values: WireCodableArray>(_ type: Values.Type, from data: Data) throws -> Values? {
        // Each element is a document of its own, one level below the array, as it is for
        // Foundation's decoder.
        switch JSONTape.parsing(data, maximumDepth: WireJSON.maximumNesting + 1) {
        case .parsed(let tape)
        where tape.kind(at: 0) == .array
            && tape.elements(ofArrayAt: 0, { tape.kind(at: $0) }).allSatisfy({ $0 == .object }):
            return try Values.read(from: WireReader(tape, at: 0))
        case .parsed, .beyondFastPath, .malformed:
            // Foundation's decoder refuses what is not an array of objects, and reports malformed
            // text, in its own words.
            return nil
        }
    }
}

/// A wire value that may be read straight from its bytes, in one pass, before the general way
/// (``JSONTape`` and ``WireReader``) reads it from the start.
protocol StraightReadable: WireCodable {
    /// The value that `data` holds, when it is of the shape read straight; `nil` for the general
    /// way to read the document, with its values and its errors. It reads no document the general
    /// way refuses, and reads every document it takes to the value the general way reads.
    static func straight(from data: Data) -> Self?
}
