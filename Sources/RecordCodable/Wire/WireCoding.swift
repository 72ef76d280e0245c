import Foundation

/// A type whose JSON form is CloudKit Web Services' own: a record, or a request or response body.
///
/// The type writes itself as a ``WireJSON`` value and reads itself through a ``WireReader``, and
/// nothing else. Its `Codable` conformance hands these to Foundation's coders through
/// ``WireCoding``; ``RecordJSONEncoder`` and ``RecordJSONDecoder`` turn the same values into bytes
/// and back without them. So both routes share one description of the type's JSON: the same
/// values, the same errors at the same coding paths.
protocol WireCodable: Codable {
    /// Reads the value from its JSON.
    init(wire reader: WireReader) throws

    /// The value's JSON.
    ///
    /// - Parameter path: The coding path of the value, for the errors it throws.
    func wireJSON(at path: [any CodingKey]) throws -> WireJSON
}

/// The `Codable` conformances of the wire types, written once.
enum WireCoding {
    /// Writes `value`'s JSON through `encoder`'s single value container. The JSON holds only
    /// string-keyed dictionaries, to which Foundation's JSON encoder applies no key strategy, and
    /// no `Date` or `Data`, so the output is CloudKit's whatever strategies the encoder has.
    static func encode(_ value: some WireCodable, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.wireJSON(at: encoder.codingPath))
    }

    /// Reads a `T` from the JSON object that `decoder` holds.
    static func decode<T: WireCodable>(_ type: T.Type, from decoder: any Decoder) throws -> T {
        try T(wire: WireReader(decoding: decoder))
    }
}

extension WireReader {
    /// A reader of the JSON object that `decoder` holds, at the decoder's coding path.
    init(decoding decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let object = try WireJSON.$documentDepth.withValue(decoder.codingPath.count) {
            try container.decode([String: WireJSON].self)
        }
        self.init(.object(object), path: decoder.codingPath)
    }
}
