import Foundation

/// Writing a record's JSON without building its ``WireJSON`` first.
///
/// A record's JSON, built as a `WireJSON` tree, costs a dictionary, boxes and a coding path for
/// every field: ten times the writing of its bytes. So ``RecordJSONEncoder`` writes the fields of
/// a record straight to bytes, and everything else as the wire types describe it:
///
/// - the record's own keys (`recordName`, `recordType`, the metadata) are the JSON that
///   ``WireRecord`` gives for the record without its fields;
/// - a field of a common kind — a string, an integer, a finite double, bytes, a date within range,
///   a reference, or a list of one of these — is written as ``WireField`` writes it: its type name
///   is ``RecordValue/typeName``, bytes are `base64EncodedString()`, a date is
///   `WireField.milliseconds(_:at:)` and a reference `WireField.reference(_:)`;
/// - any other field (encrypted, an empty list, an asset, a location, a value that CloudKit's JSON
///   cannot carry) is `WireField.object(for:typeHint:encrypted:at:)`'s JSON, errors included.
///
/// The tests and the `wire` fuzz target compare the bytes with the `Codable` path's on random
/// records, so that a change to the wire types' rules cannot leave this writer behind unseen.
extension JSONBytesWriter {
    /// Writes `record` as `JSONEncoder().encode(record)` does with `.sortedKeys`.
    ///
    /// - Parameter path: The coding path of the record, for errors.
    /// - Throws: The `EncodingError` the `Codable` path throws.
    mutating func write(_ record: Record, at path: [any CodingKey]) throws {
        do {
            try writeFields(of: record, orRecordAt: path)
        } catch {
            // Of two values that cannot be written, the wire types report the first in the
            // order of the record's dictionary, where this writer meets them in the order of
            // their names: the record's own JSON gives the error the Codable path gives.
            _ = try record.wireJSON(at: path)
            throw error
        }
    }

    private mutating func writeFields(of record: Record, orRecordAt path: [any CodingKey]) throws {
        var shell = record
        shell.fields = [:]
        // Only the fields are written here; a form of the record's JSON that does not hold them as
        // expected is written as the wire types build it.
        guard case .object(let members) = try shell.wireJSON(at: path), members["fields"] == .object([:]) else {
            return try write(try record.wireJSON(at: path), at: path)
        }
        beginObject()
        for (position, member) in JSONKeyOrder.sorted(members).enumerated() {
            writeKey(member.key, first: position == 0)
            if member.key == "fields" {
                try writeFields(of: record, at: path + [AnyCodingKey(stringValue: member.key)])
            } else {
                try write(member.value, at: path + [AnyCodingKey(stringValue: member.key)])
            }
        }
        endObject(empty: members.isEmpty)
    }

    /// Writes `value`, turning a number JSON cannot carry into the error `JSONEncoder` throws.
    mutating func write(_ value: WireJSON, at path: @autoclosure () -> [any CodingKey]) throws {
        do throws(NonFiniteNumber) {
            try write(value)
        } catch {
            throw Self.encodingError(error, at: path())
        }
    }

    /// Writes the `fields` object of `record`, its keys in order.
    private mutating func writeFields(of record: Record, at path: [any CodingKey]) throws {
        beginObject()
        let encrypted = record.encryptedFields
        for (position, field) in JSONKeyOrder.sorted(record.fields).enumerated() {
            let isEncrypted = !encrypted.isEmpty && encrypted.contains(field.key)
            // An empty list takes its type from the record's hint, which only the wire types read.
            if isEncrypted || field.value.isEmptyList || !writeCommonField(field.key, field.value, first: position == 0)
            {
                writeKey(field.key, first: position == 0)
                let fieldPath = path + [AnyCodingKey(stringValue: field.key)]
                let object = try WireField.object(
                    for: field.value, typeHint: record.fieldTypeHints[field.key], encrypted: isEncrypted, at: fieldPath)
                try write(object, at: fieldPath)
            }
        }
        endObject(empty: record.fields.isEmpty)
    }

    /// Writes the member of a field whose value is of a common kind, as `WireField` would;
    /// returns `false`, having written nothing, for any other value.
    private mutating func writeCommonField(_ name: String, _ value: RecordValue, first: Bool) -> Bool {
        // Written on the chance that the value is common, which it nearly always is, and taken
        // back otherwise: a list is common only if every element is.
        let mark = self.mark
        writeFieldStart(name: name, typeName: value.typeName, first: first)
        guard writeCommonValue(value) else {
            rollBack(to: mark)
            return false
        }
        endObject(empty: false)
        return true
    }

    private mutating func writeCommonValue(_ value: RecordValue) -> Bool {
        guard case .list(let elements) = value else { return writeCommonScalar(value) }
        // A list holds elements of its first element's type; `WireField` refuses any other.
        let type = elements.first.flatMap(WireField.FieldType.init(of:))
        beginArray()
        for (index, element) in elements.enumerated() {
            guard WireField.FieldType(of: element) == type else { return false }
            nextElement(first: index == 0)
            guard writeCommonScalar(element) else { return false }
        }
        endArray(empty: elements.isEmpty)
        return true
    }

    /// Writes `value` as `WireField` does, if it is a string, an integer, a finite double, bytes,
    /// a date within range or a reference; returns `false` for any other value.
    private mutating func writeCommonScalar(_ value: RecordValue) -> Bool {
        switch value {
        case .string(let string):
            write(string)
        case .int64(let number):
            write(number)
        case .double(let number):
            guard (try? write(number)) != nil else { return false }
        case .bytes(let data):
            write(data.base64EncodedString())
        case .date(let date):
            guard case .int64(let milliseconds)? = try? WireField.milliseconds(date, at: []) else { return false }
            write(milliseconds)
        case .reference(let reference):
            guard (try? write(WireField.reference(reference))) != nil else { return false }
        case .asset, .location, .list:
            return false
        }
        return true
    }
}
