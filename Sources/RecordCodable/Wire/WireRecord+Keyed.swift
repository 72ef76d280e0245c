import Foundation

/// Writing a record through Foundation's coders without building its fields as ``WireJSON``
/// first.
///
/// The generic route (``WireCoding/encode(_:to:)``) builds the record's whole JSON as a tree and
/// then writes the tree: for each field a dictionary of two members, hashed, kept, and taken apart
/// again, which costs about as much as `JSONEncoder` spends on a plain model of the same fields.
/// Here the record's own keys are the JSON ``WireRecord`` gives for the record without its
/// fields, and each field is written straight into the coder's keyed containers:
///
/// - a field of a common kind — a string, an integer, a finite double, bytes, a date within range,
///   a reference, or a non-empty list of one of these — is written as ``WireField`` writes it: its
///   type name is ``RecordValue/typeName``, bytes are `base64EncodedString()`, a date is
///   `WireField.milliseconds(of:)` and a reference `WireField.reference(_:)`;
/// - any other field (encrypted, an empty list, an asset, a location, a value that CloudKit's JSON
///   cannot carry) is `WireField.object(for:typeHint:encrypted:at:)`'s JSON, errors included;
/// - a record whose own keys cannot be written, or that clears fields, and any record with a coder
///   that does not hand string-keyed dictionaries to keyed containers (``DictionaryCoding``), takes
///   the generic route.
///
/// The JSON is the generic route's: `WireCodablePathTests` and the property tests compare the bytes
/// with `.sortedKeys`. An error is too: a field that cannot be written is found in the order of
/// `record.fields`, as the generic route finds it, and the record's own keys, which the generic
/// route reads after the fields, are known to be writable before the first field is written.
extension WireRecord {
    /// Writes `record` as its `Codable` conformance does.
    static func encode(_ record: Record, to encoder: any Encoder) throws {
        var shell = record
        shell.fields = [:]
        guard record.fieldStorage.count > 0,
            let members = try? object(for: shell, at: encoder.codingPath, as: .stored),
            members["fields"] == .object([:])
        else {
            return try WireCoding.encode(record, to: encoder)
        }
        var document = members.mapValues(RecordMember.json)
        document["fields"] = .fields(record)
        var container = encoder.singleValueContainer()
        try container.encode(document)
    }

    /// A member of a record's dictionary: JSON, or the record's fields to be written from the
    /// record.
    private enum RecordMember: Encodable {
        case json(WireJSON)
        case fields(Record)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .json(let json):
                try WireDocumentMember(json).encode(to: encoder)
            case .fields(let record):
                guard DictionaryCoding.isDictionaryMember(encoder.codingPath) else {
                    let fields = try WireRecord.object(
                        for: record, at: Array(encoder.codingPath.dropLast()), as: .stored)
                    return try WireDocumentMember(fields["fields"] ?? .object([:])).encode(to: encoder)
                }
                try FieldsWriter(record: record, path: encoder.codingPath).write(to: encoder)
            }
        }
    }

    /// Writes a record's `fields` into the keyed container of an encoder.
    private struct FieldsWriter {
        let record: Record
        /// The coding path of the `fields` member, for errors.
        let path: [any CodingKey]

        private static let typeKey = DictionaryKey("type")
        private static let valueKey = DictionaryKey("value")

        func write(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DictionaryKey.self)
            let encrypted = record.encryptedFields
            for (name, value) in record.fields {
                let key = DictionaryKey(name)
                let isEncrypted = !encrypted.isEmpty && encrypted.contains(name)
                if !isEncrypted, WireField.isCommon(value) {
                    var field = container.nestedContainer(keyedBy: DictionaryKey.self, forKey: key)
                    try field.encode(value.typeName, forKey: Self.typeKey)
                    try Self.write(value, forKey: Self.valueKey, into: &field, depth: path.count + 2)
                } else {
                    let object = try WireField.object(
                        for: value, typeHint: record.fieldTypeHints[name], encrypted: isEncrypted,
                        at: path + [AnyCodingKey(stringValue: name)])
                    try Self.write(object, forKey: key, into: &container, depth: path.count + 1)
                }
            }
        }

        /// Writes a common value (``WireField/isCommon(_:)``) as ``WireField`` gives it.
        private static func write(
            _ value: RecordValue, forKey key: DictionaryKey,
            into container: inout KeyedEncodingContainer<DictionaryKey>,
            depth: Int
        ) throws {
            switch value {
            case .string(let string): try container.encode(string, forKey: key)
            case .int64(let number): try container.encode(number, forKey: key)
            case .double(let number): try container.encode(number, forKey: key)
            case .bytes(let data): try container.encode(data.base64EncodedString(), forKey: key)
            case .date(let date): try container.encode(WireField.milliseconds(of: date) ?? 0, forKey: key)
            case .reference(let reference):
                try write(WireField.reference(reference), forKey: key, into: &container, depth: depth)
            case .list(let elements):
                var list = container.nestedUnkeyedContainer(forKey: key)
                for element in elements {
                    try write(element, into: &list)
                }
            case .asset, .location:
                // Not common: never written here (``WireField/isCommon(_:)``).
                break
            }
        }

        /// Writes JSON as the member `key`, an object through keyed containers as the generic
        /// route's keyed form writes it.
        private static func write(
            _ json: WireJSON, forKey key: DictionaryKey, into container: inout KeyedEncodingContainer<DictionaryKey>,
            depth: Int
        ) throws {
            guard case .object(let members) = json else { return try container.encode(json, forKey: key) }
            var nested = container.nestedContainer(keyedBy: DictionaryKey.self, forKey: key)
            try WireJSON.write(members, to: &nested, depth: depth)
        }

        private static func write(_ value: RecordValue, into list: inout any UnkeyedEncodingContainer) throws {
            switch value {
            case .string(let string): try list.encode(string)
            case .int64(let number): try list.encode(number)
            case .double(let number): try list.encode(number)
            case .bytes(let data): try list.encode(data.base64EncodedString())
            case .date(let date): try list.encode(WireField.milliseconds(of: date) ?? 0)
            case .reference(let reference): try list.encode(WireField.reference(reference))
            case .asset, .location, .list: break
            }
        }
    }
}
