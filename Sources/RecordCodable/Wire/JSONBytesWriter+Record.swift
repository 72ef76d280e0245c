import Foundation

/// Writing records' fields without building their ``WireJSON`` first.
///
/// A record's JSON, built as a `WireJSON` tree, costs a dictionary for every field, hashed, kept
/// and sorted again: far more than writing its bytes. So the tree that ``RecordJSONEncoder`` writes
/// — of a record, or of a body that holds records — is built with each record's common fields left
/// as values (``WireRecord/object(for:at:as:defersCommonFields:)``), and they are written here
/// straight to bytes, exactly as ``WireField`` builds them: the type name is
/// ``RecordValue/typeName``, bytes are `base64EncodedString()`, a date is
/// `WireField.milliseconds(of:)` and a reference `WireField.reference(_:)`, and an encrypted field
/// has `"isEncrypted":true` first (``WireRecord/DeferredFields/writesStraight(_:named:encrypted:)``).
/// Every other field (an empty list, an asset, a location, an encrypted reference, a value that
/// CloudKit's JSON cannot carry) is in the tree as `WireField` built it, errors included, in the
/// order of `record.fields`.
///
/// The tests and the `wire` fuzz target compare the bytes with the `Codable` path's on random
/// records and bodies, so that a change to the wire types' rules cannot leave this writer behind
/// unseen.
extension JSONBytesWriter {
    /// Writes `value` and everything in it.
    ///
    /// - Throws: ``NonFiniteNumber`` for a NaN or infinite double, with the keys that lead to it
    ///   from `value`; ``JSONBytesWriter/encodingError(_:at:)`` turns it into Foundation's error.
    mutating func write(_ value: WireJSON) throws(NonFiniteNumber) {
        switch value {
        case .null: append("null")
        case .bool(let bool): append(bool ? "true" : "false")
        case .int64(let number): write(number)
        case .double(let number): try write(number)
        case .string(let string): write(string)
        case .array(let elements):
            beginArray()
            for (index, element) in elements.enumerated() {
                nextElement(first: index == 0)
                do throws(NonFiniteNumber) {
                    try write(element)
                } catch {
                    throw error.inside(AnyCodingKey(index: index))
                }
            }
            endArray(empty: elements.isEmpty)
        case .object(let members):
            beginObject()
            for (position, index) in JSONKeyOrder.sortedIndices(of: members).enumerated() {
                let (key, member) = members[index]
                writeKey(key, first: position == 0)
                do throws(NonFiniteNumber) {
                    try write(member)
                } catch {
                    throw error.inside(AnyCodingKey(stringValue: key))
                }
            }
            endObject(empty: members.isEmpty)
        case .recordFields, .commonFields:
            if let fields = value.deferredFields { try writeFields(fields) }
        }
    }

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

    /// Writes a record's `fields` object (``WireJSON/recordFields(_:)``): each field straight from
    /// its value, or from the JSON the wire types built for it, all in the order of their names.
    mutating func writeFields(_ fields: WireRecord.DeferredFields) throws(NonFiniteNumber) {
        beginObject()
        // Cleared fields, which have JSON but no value, merged in by name.
        let cleared = fields.cleared.isEmpty ? [] : JSONKeyOrder.sorted(fields.cleared)
        var nextCleared = 0
        var count = 0
        let values = fields.values
        for index in JSONKeyOrder.sortedIndices(of: values) {
            let (name, value) = values[index]
            while nextCleared < cleared.count, cleared[nextCleared].key.utf8.lexicographicallyPrecedes(name.utf8) {
                try writeBuiltField(cleared[nextCleared].key, cleared[nextCleared].value, first: count == 0)
                nextCleared += 1
                count += 1
            }
            if let json = fields.builtJSON(of: name, value) {
                try writeBuiltField(name, json, first: count == 0)
            } else {
                try writeCommonField(name, value, encrypted: fields.isEncrypted(name), first: count == 0)
            }
            count += 1
        }
        for field in cleared[nextCleared...] {
            try writeBuiltField(field.key, field.value, first: count == 0)
            count += 1
        }
        endObject(empty: count == 0)
    }

    /// Writes the member of a field whose JSON the wire types built.
    private mutating func writeBuiltField(_ name: String, _ json: WireJSON, first: Bool) throws(NonFiniteNumber) {
        writeKey(name, first: first)
        do throws(NonFiniteNumber) {
            try write(json)
        } catch {
            throw error.inside(AnyCodingKey(stringValue: name))
        }
    }

    /// Writes the member of a field of a common kind (``WireField/isCommon(_:)``).
    private mutating func writeCommonField(_ name: String, _ value: RecordValue, encrypted: Bool, first: Bool)
        throws(NonFiniteNumber)
    {
        if !prettyPrinted, !encrypted, let start = Self.compactFieldStart(of: value) {
            writeFieldStart(name: name, compactStart: start, first: first)
        } else {
            writeFieldStart(name: name, typeName: value.typeName, encrypted: encrypted, first: first)
        }
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

    /// What compact JSON has between a field's name and its value, for a field of a common kind
    /// (``WireField/isCommon(_:)``) that is not encrypted: `:{"type":"` ``RecordValue/typeName``
    /// `","value":`, as one piece of static text. `nil` for any other value.
    static func compactFieldStart(of value: RecordValue) -> StaticString? {
        var isList = false
        var scalar: RecordValue? = value
        if case .list(let elements) = value {
            isList = true
            scalar = elements.first
        }
        switch scalar {
        case .string: return isList ? #":{"type":"STRING_LIST","value":"# : #":{"type":"STRING","value":"#
        case .int64: return isList ? #":{"type":"INT64_LIST","value":"# : #":{"type":"INT64","value":"#
        case .double: return isList ? #":{"type":"DOUBLE_LIST","value":"# : #":{"type":"DOUBLE","value":"#
        case .bytes: return isList ? #":{"type":"BYTES_LIST","value":"# : #":{"type":"BYTES","value":"#
        case .date: return isList ? #":{"type":"TIMESTAMP_LIST","value":"# : #":{"type":"TIMESTAMP","value":"#
        case .reference: return isList ? #":{"type":"REFERENCE_LIST","value":"# : #":{"type":"REFERENCE","value":"#
        case .asset, .location, .list, nil: return nil
        }
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
