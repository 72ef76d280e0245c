import Foundation

/// Writing records' fields without building their ``WireJSON`` first.
///
/// A record's JSON, built as a `WireJSON` tree, costs a dictionary for every field, hashed, kept
/// and sorted again: twice the writing of its bytes. So the tree that ``RecordJSONEncoder`` writes
/// — of a record, or of a body that holds records — is built with each record's common fields left
/// as values (``WireRecord/object(for:at:as:defersCommonFields:)``), and they are written here
/// straight to bytes, exactly as ``WireField`` builds them: the type name is
/// ``RecordValue/typeName``, bytes are `base64EncodedString()`, a date is
/// `WireField.milliseconds(of:)` and a reference `WireField.reference(_:)`. Every other field
/// (encrypted, an empty list, an asset, a location, a value that CloudKit's JSON cannot carry) is
/// in the tree as `WireField` built it, errors included, in the order of `record.fields`.
///
/// The tests and the `wire` fuzz target compare the bytes with the `Codable` path's on random
/// records and bodies, so that a change to the wire types' rules cannot leave this writer behind
/// unseen.
extension JSONBytesWriter {
    /// Writes `record` as `JSONEncoder().encode(record)` does with `.sortedKeys`.
    ///
    /// - Parameter path: The coding path of the record, for errors.
    /// - Throws: The `EncodingError` the `Codable` path throws.
    mutating func write(_ record: Record, at path: [any CodingKey]) throws {
        let object = try WireRecord.object(for: record, at: path, as: .stored, defersCommonFields: true)
        try write(.object(object), at: path)
    }

    /// Writes `value`, turning a number JSON cannot carry into the error `JSONEncoder` throws.
    mutating func write(_ value: WireJSON, at path: @autoclosure () -> [any CodingKey]) throws {
        do throws(NonFiniteNumber) {
            try write(value)
        } catch {
            throw Self.encodingError(error, at: path())
        }
    }

    /// Writes a record's `fields` object (``WireJSON/recordFields(common:built:)``): the common
    /// fields from their values and the others from their JSON, all in the order of their names.
    mutating func writeFields(common: [String: RecordValue], built: [String: WireJSON]) throws(NonFiniteNumber) {
        beginObject()
        if built.isEmpty {
            for (position, field) in JSONKeyOrder.sorted(common).enumerated() {
                try writeCommonField(field.key, field.value, first: position == 0)
            }
        } else {
            let fields =
                common.map { (key: $0.key, value: FieldSource.common($0.value)) }
                + built.map { (key: $0.key, value: FieldSource.built($0.value)) }
            for (position, field) in JSONKeyOrder.sorted(fields).enumerated() {
                switch field.value {
                case .common(let value):
                    try writeCommonField(field.key, value, first: position == 0)
                case .built(let json):
                    writeKey(field.key, first: position == 0)
                    do throws(NonFiniteNumber) {
                        try write(json)
                    } catch {
                        throw error.inside(AnyCodingKey(stringValue: field.key))
                    }
                }
            }
        }
        endObject(empty: common.isEmpty && built.isEmpty)
    }

    /// Where a field's JSON comes from, when a record has fields of both kinds.
    private enum FieldSource {
        case common(RecordValue)
        case built(WireJSON)
    }

    /// Writes the member of a field of a common kind (``WireField/isCommon(_:)``).
    private mutating func writeCommonField(_ name: String, _ value: RecordValue, first: Bool) throws(NonFiniteNumber) {
        writeFieldStart(name: name, typeName: value.typeName, first: first)
        if case .list(let elements) = value {
            beginArray()
            for (index, element) in elements.enumerated() {
                nextElement(first: index == 0)
                try writeCommonScalar(element)
            }
            endArray(empty: elements.isEmpty)
        } else {
            try writeCommonScalar(value)
        }
        endObject(empty: false)
    }

    /// Writes a value of a common kind as `WireField` builds it. (Its double is finite and its date
    /// within range, so neither throws nor falls back.)
    private mutating func writeCommonScalar(_ value: RecordValue) throws(NonFiniteNumber) {
        switch value {
        case .string(let string): write(string)
        case .int64(let number): write(number)
        case .double(let number): try write(number)
        case .bytes(let data): write(data.base64EncodedString())
        case .date(let date): write(WireField.milliseconds(of: date) ?? 0)
        case .reference(let reference): try write(WireField.reference(reference))
        case .asset, .location, .list:
            // Not of a common kind: never deferred (`WireField.isCommon(_:)`).
            append("null")
        }
    }
}
