import Foundation
import RecordCodable

// The least a reader of a record's CloudKit JSON can do through `JSONDecoder`, for the
// benchmark's "Codable floor" of the server path: what any `Decodable` record must ask of
// Foundation's decoder, and nothing more. It asks for a keyed container for each JSON object (the
// record, its `fields`, each field, a reference), lists the keys of `fields` (the one object whose
// keys it cannot know), and reads each field's `value` as its `type` says.
//
// Everything a real reader needs besides is left out: no other member is looked at (no metadata,
// no `isEncrypted`, no unknown keys), no value is checked, no error names its place, numbers sent
// as strings and `null` values are not read, and only the flat model's field types are known:
// `STRING`, `INT64`, `DOUBLE`, `TIMESTAMP`, `STRING_LIST`, `INT64_LIST` and `REFERENCE`. Anything
// else throws `Unsupported`. A measuring stick, not a reader for data.

/// A record read from its CloudKit JSON by the least a `Decodable` type can ask of the decoder.
public struct MinimalRecordJSON: Decodable {
    /// The record read.
    public let record: Record

    /// Reads the record dictionary `decoder` holds, by the least it can ask.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: RecordKey.self)
        let fieldsObject = try object.nestedContainer(keyedBy: NameKey.self, forKey: .fields)
        var fields: [String: RecordValue] = [:]
        let names = fieldsObject.allKeys
        fields.reserveCapacity(names.count)
        for name in names {
            let field = try fieldsObject.nestedContainer(keyedBy: FieldKey.self, forKey: name)
            fields[name.stringValue] = try Self.value(of: field)
        }
        record = Record(
            recordType: try object.decode(String.self, forKey: .recordType),
            recordName: try object.decode(String.self, forKey: .recordName), fields: fields)
    }

    private static func value(of field: KeyedDecodingContainer<FieldKey>) throws -> RecordValue {
        switch try field.decode(String.self, forKey: .type) {
        case "STRING":
            return .string(try field.decode(String.self, forKey: .value))
        case "INT64":
            return .int64(try field.decode(Int64.self, forKey: .value))
        case "DOUBLE":
            return .double(try field.decode(Double.self, forKey: .value))
        case "TIMESTAMP":
            let milliseconds = try field.decode(Int64.self, forKey: .value)
            return .date(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        case "STRING_LIST":
            return .list(try field.decode([String].self, forKey: .value).map(RecordValue.string))
        case "INT64_LIST":
            return .list(try field.decode([Int64].self, forKey: .value).map(RecordValue.int64))
        case "REFERENCE":
            let reference = try field.nestedContainer(keyedBy: ReferenceKey.self, forKey: .value)
            return .reference(RecordReference(recordName: try reference.decode(String.self, forKey: .recordName)))
        default:
            throw Unsupported()
        }
    }

    private enum RecordKey: String, CodingKey {
        case recordName, recordType, fields
    }

    private enum FieldKey: String, CodingKey {
        case type, value
    }

    private enum ReferenceKey: String, CodingKey {
        case recordName
    }

    /// A field's name: any string.
    private struct NameKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) { nil }
    }
}
