import Foundation

/// A record's `Codable` form is the record dictionary of CloudKit Web Services.
///
/// ```json
/// { "recordName": "N1", "recordType": "Note", "recordChangeTag": "e",
///   "fields": {
///     "title": {"type": "STRING", "value": "Hello"},
///     "tags":  {"type": "STRING_LIST", "value": ["a", "b"]} },
///   "created": {"timestamp": 1699920000000, "userRecordName": "_3f", "deviceID": "2"} }
/// ```
///
/// Every field is written with its `type`. Dates are whole milliseconds since 1970, rounded to
/// the nearest; bytes are Base64; an asset's local `fileURL` is not part of CloudKit's format and
/// is left out. The JSON is the same whatever key, date and data strategies the `JSONEncoder` has.
///
/// Reading accepts what CloudKit returns and what people write by hand: a record without
/// `recordType` (the server leaves it out of some answers) has an empty type, a field without `type`
/// takes the type its value implies (see <doc:TheWireFormat>), `ASSET` reads like `ASSETID`, and
/// unknown keys are ignored. Anything malformed is a `DecodingError` with its coding path.
extension Record: Codable {
    /// Writes the record as a CloudKit Web Services record dictionary.
    ///
    /// - Throws: `EncodingError.invalidValue` for a value that CloudKit's JSON cannot carry: a
    ///   `Double` that is NaN or infinite, a date beyond the milliseconds an `Int64` counts, or a
    ///   list that mixes kinds of values or holds lists.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(WireRecord.object(for: self, at: encoder.codingPath))
    }

    /// Reads a record from a CloudKit Web Services record dictionary.
    ///
    /// - Throws: `DecodingError`, with the coding path of the value that failed, for a missing
    ///   `recordName`, a field of an unknown type, a value of the wrong kind for its type, bad
    ///   Base64, an `INT64` that is fractional or beyond `Int64`, a list whose elements differ, and
    ///   every other malformed input.
    public init(from decoder: any Decoder) throws {
        self = try WireRecord.record(from: WireReader(decoding: decoder))
    }
}

/// The record dictionary of CloudKit Web Services, written and read.
enum WireRecord {
    // MARK: Writing

    static func object(for record: Record, at path: [any CodingKey]) throws -> [String: WireJSON] {
        var object: [String: WireJSON] = [
            "recordName": .string(record.recordName),
            "recordType": .string(record.recordType),
        ]
        var fields: [String: WireJSON] = [:]
        for (name, value) in record.fields {
            let fieldPath = path + [AnyCodingKey(stringValue: "fields"), AnyCodingKey(stringValue: name)]
            fields[name] = try WireField.object(for: value, at: fieldPath)
        }
        object["fields"] = .object(fields)
        if let metadata = record.metadata {
            object.set("recordChangeTag", metadata.changeTag.map(WireJSON.string))
            object.set("created", try metadata.created.map { try stamp($0, at: path, key: "created") })
            object.set("modified", try metadata.modified.map { try stamp($0, at: path, key: "modified") })
            object.set("zoneID", metadata.zoneID.map { WireField.zoneID($0) })
            if metadata.deleted { object["deleted"] = .bool(true) }
        }
        return object
    }

    private static func stamp(_ stamp: RecordMetadata.Stamp, at path: [any CodingKey], key: String) throws
        -> WireJSON
    {
        let timestampPath = path + [AnyCodingKey(stringValue: key), AnyCodingKey(stringValue: "timestamp")]
        var object: [String: WireJSON] = ["timestamp": try WireField.milliseconds(stamp.timestamp, at: timestampPath)]
        object.set("userRecordName", stamp.userRecordName.map(WireJSON.string))
        object.set("deviceID", stamp.deviceID.map(WireJSON.string))
        return .object(object)
    }

    // MARK: Reading

    static func record(from reader: WireReader) throws -> Record {
        let recordName = try reader.member("recordName").string()
        let metadata = try self.metadata(from: reader)
        // The server leaves the type out of some answers: a deleted record, or a save whose
        // request asked for no fields back.
        let recordType = try reader.optionalMember("recordType")?.string() ?? ""
        var fields: [String: RecordValue] = [:]
        if let fieldsReader = try reader.optionalMember("fields") {
            for (name, field) in try fieldsReader.object() {
                let fieldReader = WireReader(field, path: fieldsReader.path + [AnyCodingKey(stringValue: name)])
                fields[name] = try WireField.value(from: fieldReader)
            }
        }
        return Record(recordType: recordType, recordName: recordName, fields: fields, metadata: metadata)
    }

    private static func metadata(from reader: WireReader) throws -> RecordMetadata? {
        let changeTag = try reader.optionalMember("recordChangeTag")?.string()
        let created = try reader.optionalMember("created").map { try stamp(from: $0) }
        let modified = try reader.optionalMember("modified").map { try stamp(from: $0) }
        let zoneID = try reader.optionalMember("zoneID").map { try WireField.zoneID(from: $0) }
        let deleted = try reader.optionalMember("deleted")?.bool()
        guard changeTag != nil || created != nil || modified != nil || zoneID != nil || deleted != nil else {
            return nil
        }
        return RecordMetadata(
            changeTag: changeTag, created: created, modified: modified, zoneID: zoneID, deleted: deleted ?? false)
    }

    private static func stamp(from reader: WireReader) throws -> RecordMetadata.Stamp {
        RecordMetadata.Stamp(
            timestamp: try reader.member("timestamp").timestamp(),
            userRecordName: try reader.optionalMember("userRecordName")?.string(),
            deviceID: try reader.optionalMember("deviceID")?.string())
    }
}
