import Foundation

/// How one value becomes a field: the route every property takes that is not a plain `String`,
/// number or `Bool`.
///
/// 1. Types with a fixed mapping — `Date`, `Data`, `URL`, `UUID`, `Decimal`, the record's own value
///    types and the most common lists — are recognised by comparing metatypes, which costs a
///    pointer comparison each.
/// 2. Any other value encodes itself into a ``ValueEncoder``, which tells from the containers it
///    asks for whether it has a native form: a single value, or a list of them.
/// 3. A value without one is a ``LinkedRecord`` (stored as a reference), a ``RecordAssetValue``
///    (written to a file, stored as an asset), or anything else, stored as JSON bytes.
extension RecordEncodingEngine {
    /// The field for `value`, or `nil` when the value is `nil` and stores no field.
    ///
    /// The path is built only for a value that encodes itself, which may need it; a value of a
    /// type with a fixed mapping does not.
    func encodeField<T: Encodable>(_ value: T, at path: @autoclosure () -> CodingPath) throws -> EncodedValue? {
        if let special = encodeSpecial(value) { return special }
        // The path moves into the encoder, which keeps it for what follows.
        var encoder = makeValueEncoder(at: path(), isElement: false)
        defer { recycle(&encoder) }
        var hasNativeForm = true
        do {
            try value.encode(to: encoder)
        } catch is NoNativeForm {
            // The value, or an element of it, has no native form.
            hasNativeForm = false
        } catch  where encoder.hasNoNativeForm {
            // The value caught that signal and failed on its own terms; the JSON encoder will
            // report any error that is really the value's.
        }
        if hasNativeForm, !encoder.hasNoNativeForm, !(encoder.isList && value is any DictionaryMarker) {
            return encoder.takeResult()
        }
        return try encodeKeyed(value, at: encoder.path) ?? encodeAsJSON(value, at: encoder.path)
    }

    /// The value of one element of a list: a native single value, a linked model's reference, an
    /// asset value's file, or ``NoNativeForm`` when the element is `nil`, a list, or has no native
    /// form — then the whole list is stored as JSON.
    func encodeElement<T: Encodable>(_ value: T, at path: consuming CodingPath) throws -> EncodedValue {
        if let special = encodeSpecial(value) {
            guard case .list = special.value else { return special }
            throw NoNativeForm()
        }
        var encoder = makeValueEncoder(at: path, isElement: true)
        defer { recycle(&encoder) }
        do {
            try value.encode(to: encoder)
        } catch is NoNativeForm where encoder.isKeyed {
            // A keyed element may be a linked model or an asset value, checked below.
        }
        if encoder.isKeyed, let element = try encodeKeyed(value, at: encoder.path) { return element }
        guard !encoder.hasNoNativeForm, let element = encoder.takeResult() else { throw NoNativeForm() }
        return element
    }

    /// A keyed value that is stored apart from the record: a linked model's reference, or an asset
    /// value's file; `nil` for any other value.
    ///
    /// The protocols are checked only here, for values that have no native form, so that the
    /// common fields — strings, numbers, raw-value enums — pay nothing for them.
    private func encodeKeyed<T: Encodable>(_ value: T, at path: CodingPath) throws -> EncodedValue? {
        if let linked = value as? any LinkedRecord {
            return EncodedValue(.reference(reference(to: linked)))
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

    /// The field for a value whose type has a fixed mapping, or `nil` for any other type.
    ///
    /// The value is taken as its own type by ``reinterpret(_:as:)``, which, unlike a cast, costs
    /// nothing.
    func encodeSpecial<T: Encodable>(_ value: T) -> EncodedValue? {
        guard let special = SpecialType(T.self) else { return nil }
        return try? encodeSpecial(special, value)
    }

    private func encodeSpecial<T: Encodable>(_ special: SpecialType, _ value: T) throws -> EncodedValue {
        switch special {
        case .date:
            return EncodedValue(.date(try reinterpret(value, as: Date.self)), size: 8)
        case .data:
            let data = try reinterpret(value, as: Data.self)
            return EncodedValue(.bytes(data), size: data.count)
        case .url:
            let url = try reinterpret(value, as: URL.self)
            let text = url.absoluteString
            return EncodedValue(Self.isFileURL(text) ? .asset(RecordAsset(fileURL: url)) : .string(text))
        case .uuid:
            return EncodedValue(.string(try reinterpret(value, as: UUID.self).uuidString), size: 36)
        case .decimal:
            return EncodedValue(.string(try reinterpret(value, as: Decimal.self).description))
        case .reference:
            return EncodedValue(.reference(try reinterpret(value, as: RecordReference.self)))
        case .asset:
            return EncodedValue(.asset(try reinterpret(value, as: RecordAsset.self)))
        case .location:
            return EncodedValue(.location(try reinterpret(value, as: RecordLocation.self)))
        case .strings:
            var size = 0
            let elements = try reinterpret(value, as: [String].self).map { string in
                size &+= string.utf8.count
                return RecordValue.string(string)
            }
            return EncodedValue(.list(elements), size: size)
        case .integers:
            let numbers = try reinterpret(value, as: [Int].self)
            return EncodedValue(.list(numbers.map { .int64(Int64($0)) }), size: 8 &* numbers.count)
        case .doubles:
            let numbers = try reinterpret(value, as: [Double].self)
            return EncodedValue(.list(numbers.map(RecordValue.double)), size: 8 &* numbers.count)
        case .dates:
            let dates = try reinterpret(value, as: [Date].self)
            return EncodedValue(.list(dates.map(RecordValue.date)), size: 8 &* dates.count)
        }
    }

    /// Whether a URL's absolute text has the `file` scheme, as `URL.isFileURL` says, but read
    /// from the text that a web URL needs anyway; `isFileURL` costs as much again on Linux.
    static func isFileURL(_ absoluteString: String) -> Bool {
        var prefix = absoluteString.utf8.prefix(5).makeIterator()
        for expected in "file:".utf8 {
            guard let byte = prefix.next(), byte | 0x20 == expected | 0x20 else { return false }
        }
        return true
    }

    /// Writes a ``RecordAssetValue``'s JSON to a file named by its digest, unless the file is
    /// already there, and returns an asset that points to it.
    private func writeAsset(_ value: some RecordAssetValue, at path: CodingPath) throws -> EncodedValue {
        let data = try encodeJSON(value, at: path)
        let directory = options.assetDirectory
        let file = directory.appendingPathComponent(SHA256.hexDigest(of: data) + ".json", isDirectory: false)
        do {
            if !FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try data.write(to: file, options: .atomic)
            }
        } catch {
            throw EncodingError.invalid(
                value, at: path, "Cannot write the asset file \(file.path): \(error.localizedDescription)",
                underlyingError: error)
        }
        return EncodedValue(.asset(RecordAsset(fileURL: file)))
    }
}

/// Thrown, and caught, inside the encoder when a value turns out to have no native field form.
struct NoNativeForm: Error {}

/// Marks dictionaries, which are stored as JSON whatever their keys and values.
///
/// A dictionary whose keys are neither strings nor integers encodes as a flat list of keys and
/// values, which would otherwise pass for a native list.
protocol DictionaryMarker {}
extension Dictionary: DictionaryMarker {}
