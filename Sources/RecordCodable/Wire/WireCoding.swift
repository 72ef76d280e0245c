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

    /// Writes the value's JSON to `writer`: the bytes and the errors of ``wireJSON(at:)``, for
    /// ``RecordJSONEncoder``. The default writes the tree that `wireJSON(at:)` builds; a body
    /// that holds many records writes them one at a time instead, without a tree of them all.
    ///
    /// - Parameter path: The coding path of the value, built only for an error.
    func write(to writer: inout JSONBytesWriter, at path: @autoclosure () -> [any CodingKey]) throws
}

extension WireCodable {
    func write(to writer: inout JSONBytesWriter, at path: @autoclosure () -> [any CodingKey]) throws {
        let path = path()
        try writer.write(try wireJSON(at: path), at: path)
    }
}

/// The `Codable` conformances of the wire types, written once.
///
/// A wire type's JSON is an object, which Foundation's coders see as a `[String: _]` dictionary:
/// they apply their key strategies to the keys of keyed containers, but not to the keys of
/// string-keyed dictionaries, so the JSON is exactly CloudKit's whatever strategies the coder
/// has. Dates and bytes are written as the numbers and Base64 text CloudKit expects, so the
/// coder's date and data strategies never apply either.
///
/// Each member of the object is a ``WireDocumentMember``: with a coder that turns such a
/// dictionary's keys into a keyed container's, unchanged (as Foundation's JSON coders do with
/// their default key strategy), the member is written and read through keyed containers, each of
/// its values read as the kind it is expected to be (``WireShape``); with any other coder, as
/// any ``WireJSON``. The JSON, the values and the errors are the same either way; the keyed
/// containers only spare a coder for every value and, in reading, a try of each kind of JSON.
enum WireCoding {
    /// Writes `value`'s JSON through `encoder`'s single value container.
    static func encode(_ value: some WireCodable, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        let json = try value.wireJSON(at: encoder.codingPath)
        guard case .object(let members) = json else { return try container.encode(json) }
        try container.encode(members.mapValues(WireDocumentMember.init))
    }

    /// Reads a `T` from the JSON object that `decoder` holds.
    static func decode<T: WireCodable>(_ type: T.Type, from decoder: any Decoder) throws -> T {
        try T(wire: WireReader(decoding: decoder))
    }
}

extension WireReader {
    /// A reader of the JSON object that `decoder` holds, at the decoder's coding path.
    init(decoding decoder: any Decoder) throws {
        let path = decoder.codingPath
        let container = try decoder.singleValueContainer()
        let members = try WireJSON.$documentDepth.withValue(path.count) {
            try container.decode([String: WireDocumentMember].self)
        }
        self.init(.object(members.mapValues(\.json)), path: path)
    }
}

/// A member of a wire document (a record, or a request or response body), as Foundation's coders
/// hand it over: written and read through keyed containers when the coder treats the document's
/// dictionary as a keyed container of its keys as they are, and as any ``WireJSON`` otherwise.
///
/// For example, a record's `fields` member is read as an object of fields, each field's `value`
/// as the kind its `type` names (``WireShape``).
struct WireDocumentMember: Codable {
    var json: WireJSON

    init(_ json: WireJSON) {
        self.json = json
    }

    init(from decoder: any Decoder) throws {
        let path = decoder.codingPath
        guard let key = path.last, DictionaryCoding.isDictionaryMember(path) else {
            json = try WireJSON(from: decoder)
            return
        }
        json = try WireJSON.read(DecoderValue(decoder: decoder), as: WireObject.document.member(key.stringValue))
    }

    func encode(to encoder: any Encoder) throws {
        switch json {
        case .object, .array:
            // Only an object or an array has keys inside it, and a coder of its own for each value.
            let path = encoder.codingPath
            guard DictionaryCoding.isDictionaryMember(path) else { fallthrough }
            try json.write(to: encoder, depth: path.count)
        default:
            try json.encode(to: encoder)
        }
    }
}
