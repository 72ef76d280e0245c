import Foundation

/// How one value becomes a field: the route every property takes that is not a plain `String`,
/// number or `Bool`.
///
/// 1. Types with a fixed mapping — `Date`, `Data`, `URL`, `UUID`, `Decimal`, the record's own value
///    types and the most common lists — are recognised by comparing metatypes, which costs a
///    pointer comparison each.
/// 2. A ``RecordAssetValue`` is written to a file and stored as an asset.
/// 3. Any other value encodes itself into a ``ValueEncoder``, which tells from the containers it
///    asks for whether it has a native form. If it has not, it is stored as JSON bytes.
extension RecordEncodingEngine {
    /// The field for `value`, or `nil` when the value is `nil` and stores no field.
    func encodeField<T: Encodable>(_ value: T, at node: CodingPathNode) throws -> EncodedValue? {
        if let special = encodeSpecial(value) { return special }
        if let assetValue = value as? any RecordAssetValue {
            return try writeAsset(assetValue, at: node)
        }
        let encoder = ValueEncoder(engine: self, node: node, isElement: false)
        var hasNativeForm = true
        do {
            try value.encode(to: encoder)
        } catch is NoNativeForm {
            // The value, or an element of it, has no native form: store it as JSON below.
            hasNativeForm = false
        } catch where encoder.hasNoNativeForm {
            // The value caught that signal and failed on its own terms; the JSON encoder will
            // report any error that is really the value's.
        }
        if !hasNativeForm || encoder.hasNoNativeForm || (encoder.isList && value is any DictionaryMarker) {
            let data = try encodeJSON(value, at: node)
            return EncodedValue(.bytes(data), size: data.count)
        }
        return try encoder.result()
    }

    /// The value of one element of a list: a native single value, or ``NoNativeForm`` when the
    /// element is `nil`, a list, or has no native form — then the whole list is stored as JSON.
    func encodeElement<T: Encodable>(_ value: T, at node: CodingPathNode) throws -> EncodedValue {
        if let special = encodeSpecial(value) {
            guard case .list = special.value else { return special }
            throw NoNativeForm()
        }
        if value is any RecordAssetValue { throw NoNativeForm() }
        let encoder = ValueEncoder(engine: self, node: node, isElement: true)
        try value.encode(to: encoder)
        guard !encoder.hasNoNativeForm, let element = try encoder.result() else { throw NoNativeForm() }
        return element
    }

    /// The field for a value whose type has a fixed mapping, or `nil` for any other type.
    func encodeSpecial<T: Encodable>(_ value: T) -> EncodedValue? {
        if T.self == Date.self, let date = value as? Date {
            return EncodedValue(.date(date), size: 8)
        }
        if T.self == [String].self, let strings = value as? [String] {
            var size = 0
            let elements = strings.map { string in
                size &+= string.utf8.count
                return RecordValue.string(string)
            }
            return EncodedValue(.list(elements), size: size)
        }
        if T.self == [Int].self, let numbers = value as? [Int] {
            return EncodedValue(.list(numbers.map { .int64(Int64($0)) }), size: 8 &* numbers.count)
        }
        if T.self == URL.self, let url = value as? URL {
            return EncodedValue(url.isFileURL ? .asset(RecordAsset(fileURL: url)) : .string(url.absoluteString))
        }
        if T.self == UUID.self, let uuid = value as? UUID {
            return EncodedValue(.string(uuid.uuidString), size: 36)
        }
        if T.self == Data.self, let data = value as? Data {
            return EncodedValue(.bytes(data), size: data.count)
        }
        if T.self == Decimal.self, let decimal = value as? Decimal {
            return EncodedValue(.string(decimal.description))
        }
        if T.self == RecordReference.self, let reference = value as? RecordReference {
            return EncodedValue(.reference(reference))
        }
        if T.self == RecordAsset.self, let asset = value as? RecordAsset {
            return EncodedValue(.asset(asset))
        }
        if T.self == RecordLocation.self, let location = value as? RecordLocation {
            return EncodedValue(.location(location))
        }
        if T.self == [Double].self, let numbers = value as? [Double] {
            return EncodedValue(.list(numbers.map(RecordValue.double)), size: 8 &* numbers.count)
        }
        if T.self == [Date].self, let dates = value as? [Date] {
            return EncodedValue(.list(dates.map(RecordValue.date)), size: 8 &* dates.count)
        }
        return nil
    }

    /// Writes a ``RecordAssetValue``'s JSON to a file named by its digest, unless the file is
    /// already there, and returns an asset that points to it.
    private func writeAsset(_ value: some RecordAssetValue, at node: CodingPathNode) throws -> EncodedValue {
        let data = try encodeJSON(value, at: node)
        let directory = options.assetDirectory
        let file = directory.appendingPathComponent(SHA256.hexDigest(of: data) + ".json", isDirectory: false)
        do {
            if !FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try data.write(to: file, options: .atomic)
            }
        } catch {
            throw EncodingError.invalid(
                value, at: node, "Cannot write the asset file \(file.path): \(error.localizedDescription)",
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
