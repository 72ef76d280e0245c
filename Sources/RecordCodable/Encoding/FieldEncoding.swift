import Foundation

/// How one value becomes a field: the route every property takes that is not a plain `String`,
/// number or `Bool`.
///
/// 1. Types with a fixed mapping — `Date`, `Data`, `URL`, `UUID`, `Decimal`, the record's own value
///    types and the most common lists — are recognised by comparing metatypes, which costs a
///    pointer comparison each (see `encodeSpecial(_:)`).
/// 2. Any other value encodes itself into a ``ValueEncoder``, which finds its ``ValueForm``.
/// 3. One `switch` on that form stores the value: natively, as a list, or — for a value with no
///    native form — as a linked model's reference, an asset value's file, or JSON bytes.
extension RecordEncodingEngine {
    /// The field for `value`, or `nil` when the value is `nil` and stores no field.
    ///
    /// The path is built only for a value that encodes itself, which may need it; a value of a
    /// type with a fixed mapping does not.
    func encodeField<T: Encodable>(_ value: T, at path: @autoclosure () -> CodingPath) throws -> EncodedValue? {
        if let special = encodeSpecial(value) { return special }
        let form = try findForm(of: value, at: path(), isElement: false)
        // The path is built again, only for the routes that may report an error.
        switch form {
        case .null:
            return nil
        case .nothing:
            return EncodedValue(.bytes(Data("{}".utf8)), size: 2)
        case .single(let field):
            // An archive of system fields is kept beside the fields, not in one. Only a value that
            // encoded itself as bytes (as the bridge's does) or as JSON is asked whether it is
            // one, so that no other property pays for the question: a conformance lookup costs
            // more than most properties' whole encoding.
            if case .bytes = field.value, keptAsSystemFields(value) { return nil }
            return field
        case .list(let list):
            // A dictionary whose keys are neither strings nor integers encodes as a flat list of
            // keys and values, which is not a list of the record's.
            guard value is any DictionaryMarker else { return list }
            return try encodeApart(value, at: path()) ?? encodeAsJSON(value, at: path())
        case .keyed, .json:
            if keptAsSystemFields(value) { return nil }
            return try encodeApart(value, at: path()) ?? encodeAsJSON(value, at: path())
        }
    }

    /// Keeps `value` as the record's system fields when it is a ``RecordSystemFieldsArchive``,
    /// and says whether it was; asked only of values whose form such an archive can have.
    @inline(never)
    private func keptAsSystemFields<T>(_ value: T) -> Bool {
        guard let archive = value as? any RecordSystemFieldsArchive else { return false }
        setSystemFields(archive)
        return true
    }

    /// The value of one element of a list: a native single value, a linked model's reference, an
    /// asset value's file; or `nil` when the element has no native form — a `nil`, a list, a
    /// nested value — and the whole list is then stored as JSON.
    func encodeElement<T: Encodable>(_ value: T, at path: consuming CodingPath) throws -> EncodedValue? {
        if let special = encodeSpecial(value) {
            guard case .list = special.value else { return special }
            return nil
        }
        let form = try findForm(of: value, at: copy path, isElement: true)
        switch form {
        case .nothing:
            return EncodedValue(.bytes(Data("{}".utf8)), size: 2)
        case .single(let element):
            return element
        case .keyed:
            return try encodeApart(value, at: path)
        case .null, .list, .json:
            return nil
        }
    }

    /// Runs `value`'s `encode(to:)` into a value encoder to find its form.
    ///
    /// An error the value throws after it showed that it has no native form is dropped: the route
    /// that stores it encodes it again and reports the error then (see ``ValueEncoder``).
    private func findForm<T: Encodable>(of value: T, at path: consuming CodingPath, isElement: Bool) throws
        -> ValueForm
    {
        guard valueNesting < Self.maximumValueNesting else { throw Self.nestedTooDeep(value, at: path) }
        valueNesting &+= 1
        defer { valueNesting &-= 1 }
        var encoder = makeValueEncoder(at: path, isElement: isElement)
        defer { recycle(&encoder) }
        do {
            try value.encode(to: encoder)
        } catch  where encoder.isSettled {}
        return encoder.finish()
    }

    @inline(never)
    private static func nestedTooDeep(_ value: Any, at path: CodingPath) -> EncodingError {
        .invalid(
            value, at: path,
            "Values nested too deep: a field's value may hold values inside it, through single-value and "
                + "unkeyed containers, at most \(maximumValueNesting) levels deep. Store a deeper value as Data that "
                + "you encode yourself.")
    }

    /// A value that is stored apart from the record: a linked model's reference, or an asset
    /// value's file; `nil` for any other value.
    ///
    /// The protocols are checked only here, for values that have no native form, so that the
    /// common fields — strings, numbers, raw-value enums — pay nothing for them.
    private func encodeApart<T: Encodable>(_ value: T, at path: CodingPath) throws -> EncodedValue? {
        if let linked = value as? any LinkedRecord {
            return EncodedValue(.reference(try reference(to: linked, at: path)))
        }
        if let assetValue = value as? any RecordAssetValue {
            return try writeAsset(assetValue, at: path)
        }
        return nil
    }

    private func encodeAsJSON<T: Encodable>(_ value: T, at path: CodingPath) throws -> EncodedValue {
        let data = try encodeJSON(value, at: path)
        return EncodedValue(.bytes(data), size: data.count)
    }
}

/// Marks dictionaries, which are stored as JSON whatever their keys and values.
///
/// A dictionary whose keys are neither strings nor integers encodes as a flat list of keys and
/// values, which would otherwise pass for a native list.
protocol DictionaryMarker {}
extension Dictionary: DictionaryMarker {}
