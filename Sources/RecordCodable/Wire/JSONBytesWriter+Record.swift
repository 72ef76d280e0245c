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
            for (position, entry) in JSONKeyOrder.sortedIndices(of: members).enumerated() {
                let (key, member) = members[entry.index]
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
        try write(record, as: .stored, at: path)
    }

    /// Writes `record` as CloudKit Web Services has it in `form`: its members straight, in the
    /// order of their keys (``WireRecord/forEachMember(of:at:as:defersCommonFields:checksFields:_:)``),
    /// with no dictionary of them, and its common fields from their values.
    ///
    /// Most records hold fields of common kinds alone (``WireField/isCommon(_:)``), none of them
    /// encrypted or cleared: such a record is written in one pass, each field looked at as it is
    /// written. At the first field of another kind, or any error, that pass gives up, what it wrote
    /// is taken back, and the record is written again with its fields looked at first, as the
    /// `Codable` path looks at them (the order in which errors are found is theirs).
    ///
    /// - Parameter path: The coding path of the record, built only for an error.
    /// - Throws: The `EncodingError` the `Codable` path throws.
    mutating func write(
        _ record: Record, as form: WireRecord.Form, at path: @autoclosure () -> [any CodingKey]
    ) throws {
        if record.encryptedFields.isEmpty && record.clearedFields.isEmpty {
            let mark = self.mark
            if (try? writeMembers(of: record, as: form, checkingFields: false, at: path())) == true { return }
            rewind(to: mark)
        }
        _ = try writeMembers(of: record, as: form, checkingFields: true, at: path())
    }

    /// Writes the record's members; `false` when its fields were not checked and one of them is
    /// not of a common kind, having written part of the record.
    private mutating func writeMembers(
        of record: Record, as form: WireRecord.Form, checkingFields: Bool, at path: @autoclosure () -> [any CodingKey]
    ) throws -> Bool {
        beginObject()
        var count = 0
        var gaveUp = false
        try WireRecord.forEachMember(
            of: record, at: path(), as: form, defersCommonFields: true, checksFields: checkingFields
        ) { key, member in
            guard !gaveUp else { return }
            writePlainKey(key, first: count == 0)
            count += 1
            do throws(NonFiniteNumber) {
                switch member {
                case .json(let json): try write(json)
                case .reference(let reference): write(reference)
                case .uncheckedFields(let values): gaveUp = !writeCommonFields(values)
                }
            } catch {
                throw Self.encodingError(error.inside(AnyCodingKey(stringValue: key.description)), at: path())
            }
        }
        endObject(empty: count == 0)
        return !gaveUp
    }

    /// Writes a record's `fields` object when every field is of a common kind and none is
    /// encrypted; `false`, having written part of it, at the first field that is not of a common
    /// kind.
    private mutating func writeCommonFields(_ values: [String: RecordValue]) -> Bool {
        beginObject()
        var count = 0
        for entry in JSONKeyOrder.sortedIndices(of: values) {
            let (name, value) = values[entry.index]
            // Most fields are written whole, which is only ever of a common kind: asked nothing more.
            if !prettyPrinted, let start = Self.compactFieldStart(of: value),
                let valueBound = Self.wholeBound(of: value)
            {
                writeWholeField(name, start: start, value, valueBound: valueBound, first: count == 0)
                count += 1
                continue
            }
            guard WireField.isCommon(value) else { return false }
            do throws(NonFiniteNumber) {
                try writeCommonField(name, value, encrypted: false, first: count == 0)
            } catch {
                // A common value is finite: never thrown.
                return false
            }
            count += 1
        }
        endObject(empty: count == 0)
        return true
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
        for entry in JSONKeyOrder.sortedIndices(of: values) {
            let (name, value) = values[entry.index]
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
            if let valueBound = Self.wholeBound(of: value) {
                return writeWholeField(name, start: start, value, valueBound: valueBound, first: first)
            }
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

    /// Writes a field of a common kind, which ``wholeBound(of:)`` says is written whole, and
    /// which is not encrypted, as compact JSON: `,"name":{"type":"STRING","value":"text"}` in one
    /// piece, with room made once for all of it, where writing its start, its value and its end
    /// apart makes room three times.
    private mutating func writeWholeField(
        _ name: String, start: StaticString, _ value: RecordValue, valueBound: Int, first: Bool
    ) {
        let escapingSlashes = escapesSlashes
        put(upTo: JSONText.bound(of: name) + start.utf8CodeUnitCount + valueBound + 2) { output in
            if !first { output.append(UInt8(ascii: ",")) }
            JSONText.put(name, escapingSlashes: escapingSlashes, into: &output)
            JSONText.putASCII(start, into: &output)
            if case .list(let elements) = value {
                output.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    Self.putWhole(element, escapingSlashes: escapingSlashes, into: &output)
                }
                output.append(UInt8(ascii: "]"))
            } else {
                Self.putWhole(value, escapingSlashes: escapingSlashes, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The most bytes the value of a field takes when it is written whole
    /// (``writeWholeField(_:start:_:valueBound:first:)``): a string, an integer, a finite double, a
    /// date within the milliseconds an `Int64` counts, or a list of one of these kinds alone.
    /// `nil` for any other value, written piece by piece. A value it gives a bound for is of a
    /// common kind (``WireField/isCommon(_:)``).
    static func wholeBound(of value: RecordValue) -> Int? {
        guard case .list(let elements) = value else { return wholeScalarBound(of: value) }
        guard let first = elements.first else { return nil }
        var bound = 2
        for element in elements {
            guard element.hasKind(of: first), let elementBound = wholeScalarBound(of: element) else { return nil }
            bound += elementBound + 1
        }
        return bound
    }

    private static func wholeScalarBound(of value: RecordValue) -> Int? {
        switch value {
        case .string(let string): JSONText.bound(of: string)
        case .int64: JSONText.integerBound
        case .date(let date): WireField.milliseconds(of: date) == nil ? nil : JSONText.integerBound
        case .double(let number): number.isFinite ? JSONText.doubleBound : nil
        case .bytes, .reference, .asset, .location, .list: nil
        }
    }

    /// Writes a value that ``wholeScalarBound(of:)`` gives a bound for, as `WireField` builds it.
    private static func putWhole(_ value: RecordValue, escapingSlashes: Bool, into output: inout OutputSpan<UInt8>) {
        switch value {
        case .string(let string): JSONText.put(string, escapingSlashes: escapingSlashes, into: &output)
        case .int64(let number): JSONText.put(number, into: &output)
        case .double(let number): JSONText.put(finite: number, into: &output)
        case .date(let date): JSONText.put(WireField.milliseconds(of: date) ?? 0, into: &output)
        case .bytes, .reference, .asset, .location, .list:
            // Never written whole (`wholeScalarBound(of:)` is `nil`).
            break
        }
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

    /// Writes a reference as `WireField.reference(_:)` builds it, its keys in their order:
    /// `{"action":…,"recordName":…,"zoneID":{"ownerRecordName":…,"zoneName":…}}`, the zone and its
    /// owner only when there are ones.
    mutating func write(_ reference: RecordReference) {
        beginObject()
        writePlainKey("action", first: true)
        write(reference.action.rawValue)
        writePlainKey("recordName", first: false)
        write(reference.recordName)
        if let zoneID = reference.zoneID {
            writePlainKey("zoneID", first: false)
            beginObject()
            if let owner = zoneID.ownerRecordName {
                writePlainKey("ownerRecordName", first: true)
                write(owner)
            }
            writePlainKey("zoneName", first: zoneID.ownerRecordName == nil)
            write(zoneID.zoneName)
            endObject(empty: false)
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
        case .reference(let reference): write(reference)
        case .asset, .location, .list:
            // Not of a common kind: never deferred (`WireField.isCommon(_:)`).
            append("null")
        }
    }
}

extension RecordValue {
    /// Whether `other` is a string when this is one, an integer when this is one, and so on, for
    /// the kinds written whole.
    fileprivate func hasKind(of other: RecordValue) -> Bool {
        switch (self, other) {
        case (.string, .string), (.int64, .int64), (.double, .double), (.date, .date): true
        default: false
        }
    }
}
