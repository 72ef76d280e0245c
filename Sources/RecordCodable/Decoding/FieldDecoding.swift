import Foundation

/// How one field becomes a value: the route every property takes that is not a plain `String`,
/// number or `Bool`.
///
/// 1. Types with a fixed mapping — `Date`, `Data`, `URL`, `UUID`, `Decimal`, the record's own value
///    types and the most common lists — are recognised by comparing metatypes.
/// 2. A ``LinkedRecord`` stored as a reference is decoded from the record it names; a
///    ``RecordAssetValue`` stored as an asset is read from its file.
/// 3. A field that holds a JSON object or array is decoded whole by the JSON decoder, when it is
///    the value's JSON.
/// 4. Any other type decodes itself from a ``ValueDecoder``. When it asks for a container that
///    JSON bytes hold, it reads the JSON decoder's container.
extension RecordDecodingEngine {
    /// The value of type `T` that the field `value` holds, at `path` for its errors.
    ///
    /// The path is built only when a value decodes itself or an error needs it; a value of a type
    /// with a fixed mapping reads without one.
    func decodeField<T: Decodable>(_ type: T.Type, from value: RecordValue, at path: @autoclosure () -> CodingPath)
        throws -> T
    {
        try decodeField(type, special: SpecialType(T.self), from: value, at: path())
    }

    /// ``decodeField(_:from:at:)`` for a caller that has already asked which special type `T` is
    /// (`SpecialType(T.self)`), so that the metatypes are compared once.
    @inline(__always)
    func decodeField<T: Decodable>(
        _ type: T.Type, special: SpecialType?, from value: RecordValue, at path: @autoclosure () -> CodingPath
    ) throws -> T {
        if let special, !special.isList || !value.isBytes {
            return try decodeSpecial(special, as: type, from: value, at: path())
        }
        let path = path()
        if case .reference(let reference) = value {
            if T.self is any LinkedRecord.Type { return try decodeLinked(type, from: reference, at: path) }
            // An optional linked model whose record was not given is nil.
            if LinkedRecordDecoding.isOptionalLinked(T.self), isMissingLinkedRecord(value, of: T.self) {
                noteUnreadLink(at: path)
                return try LinkedRecordDecoding.none(of: type)
            }
        }
        if case .asset(let asset) = value, T.self is any RecordAssetValue.Type {
            return try readAsset(type, from: asset, at: path)
        }
        if case .bytes(let data) = value, Self.beginsJSONContainer(data) {
            return try decodeNested(type, from: data, at: path)
        }
        return try decodeItself(type, from: value, at: path)
    }

    /// The value that decodes itself from `value` through a value decoder.
    @inline(__always)
    private func decodeItself<T: Decodable>(_ type: T.Type, from value: RecordValue, at path: CodingPath) throws -> T {
        var decoder = makeValueDecoder(for: value, at: path)
        defer { recycle(&decoder) }
        do {
            return try T(from: decoder)
        } catch DecodingError.dataCorrupted(let context) where T.self is any RawRepresentable.Type {
            throw unknownRawValue(T.self, context, from: value, at: path)
        }
    }

    /// The value in a field that holds a JSON object or array: all but always the value's JSON,
    /// which the JSON decoder reads whole, the fast way, the value running once. Bytes that are
    /// not its JSON, such as raw data that begins with a bracket, the value reads itself.
    ///
    /// Bytes that fail to decode as the value's JSON are decoded twice, once each way: the cost
    /// falls on what is rare, raw data that begins with a bracket and a value that does not read,
    /// whose error is then the value's own, from its second reading.
    ///
    /// Kept apart from the common route, which would otherwise ask the runtime for the metadata
    /// of `Optional<T>` on every call.
    @inline(never)
    private func decodeNested<T: Decodable>(_ type: T.Type, from data: Data, at path: CodingPath) throws -> T {
        if let decoded = try? decodeJSON(type, from: data, at: path) { return decoded }
        return try decodeItself(type, from: .bytes(data), at: path)
    }

    /// Whether `data` begins as the JSON of a nested value does: with an object or an array.
    private static func beginsJSONContainer(_ data: Data) -> Bool {
        data.first == UInt8(ascii: "{") || data.first == UInt8(ascii: "[")
    }

    /// The error for a raw-value type that refused `value`: when `value` is a raw value of the
    /// type's raw type that matches no case (`init(rawValue:)` gives `nil`), the error names the
    /// record and gives the advice to make the type a ``RecordEnum``, since a newer version of the app may
    /// store values that this one does not know. (A `RecordEnum` reads such a value as its
    /// fallback case, so its errors are never about one.) Any other error stands as it is.
    @inline(never)
    private func unknownRawValue<T>(
        _ type: T.Type, _ context: DecodingError.Context, from value: RecordValue, at path: CodingPath
    ) -> DecodingError {
        guard !(type is any RecordEnum.Type), let rawType = type as? any RawRepresentable.Type,
            hasNoCase(rawType, for: value, at: path)
        else {
            return .dataCorrupted(context)
        }
        return .dataCorrupted(
            DecodingError.Context(
                codingPath: context.codingPath,
                debugDescription: context.debugDescription + " in \(recordInErrors)"
                    + ". If other versions of the app may store values that \(type) does not have, make it a "
                    + "RecordEnum, whose fallbackCase reads them.",
                underlyingError: context.underlyingError))
    }

    /// Whether `value` reads as a raw value of `type` that no case of `type` has.
    private func hasNoCase<Raw: RawRepresentable>(_ type: Raw.Type, for value: RecordValue, at path: CodingPath)
        -> Bool
    {
        guard let rawValueType = Raw.RawValue.self as? any Decodable.Type,
            let rawValue = (try? decodeField(rawValueType, from: value, at: path)) as? Raw.RawValue
        else {
            return false
        }
        return Raw(rawValue: rawValue) == nil
    }

    /// The value of a type with a fixed mapping. (A list type whose field holds JSON bytes takes
    /// the general route instead.)
    ///
    /// The result is built as its own type and handed over as `T` by ``reinterpret(_:as:)``, which,
    /// unlike a cast, costs nothing.
    private func decodeSpecial<T>(
        _ special: SpecialType, as type: T.Type, from value: RecordValue, at path: @autoclosure () -> CodingPath
    ) throws -> T {
        switch special {
        case .date:
            guard case .date(let date) = value else { throw DecodingError.typeMismatch(type, found: value, at: path()) }
            return try reinterpret(date, as: type)
        case .data:
            guard case .bytes(let data) = value else {
                throw DecodingError.typeMismatch(type, found: value, at: path())
            }
            return try reinterpret(data, as: type)
        case .url:
            return try reinterpret(Unbox.url(value, fileName: options.assetFileName, at: path()), as: type)
        case .uuid:
            return try reinterpret(Unbox.uuid(value, at: path()), as: type)
        case .decimal:
            return try reinterpret(Unbox.decimal(value, at: path()), as: type)
        case .reference:
            guard case .reference(let reference) = value else {
                throw DecodingError.typeMismatch(type, found: value, at: path())
            }
            return try reinterpret(reference, as: type)
        case .asset:
            guard case .asset(let asset) = value else {
                throw DecodingError.typeMismatch(type, found: value, at: path())
            }
            return try reinterpret(asset, as: type)
        case .location:
            guard case .location(let location) = value else {
                throw DecodingError.typeMismatch(type, found: value, at: path())
            }
            return try reinterpret(location, as: type)
        case .strings:
            guard case .list(let list) = value else { throw DecodingError.typeMismatch(type, found: value, at: path()) }
            let strings = try elements(of: list, at: path()) {
                if case .string(let string) = $0 { string } else { nil }
            } orThrow: {
                try Unbox.string($0, readingBytes: options.readsStringsFromUTF8Bytes, at: $1)
            }
            return try reinterpret(strings, as: type)
        case .integers:
            guard case .list(let list) = value else { throw DecodingError.typeMismatch(type, found: value, at: path()) }
            let integers = try elements(of: list, at: path()) {
                if case .int64(let number) = $0 { Int(exactly: number) } else { nil }
            } orThrow: {
                try Unbox.integer(Int.self, from: $0, at: $1)
            }
            return try reinterpret(integers, as: type)
        case .doubles:
            guard case .list(let list) = value else { throw DecodingError.typeMismatch(type, found: value, at: path()) }
            let doubles = try elements(of: list, at: path()) {
                if case .double(let number) = $0 { number } else { nil }
            } orThrow: {
                try Unbox.double($0, at: $1)
            }
            return try reinterpret(doubles, as: type)
        case .dates:
            guard case .list(let list) = value else { throw DecodingError.typeMismatch(type, found: value, at: path()) }
            let dates = try elements(of: list, at: path()) {
                if case .date(let date) = $0 { date } else { nil }
            } orThrow: {
                element, elementPath -> Date in
                throw DecodingError.typeMismatch(Date.self, found: element, at: elementPath)
            }
            return try reinterpret(dates, as: type)
        }
    }

    /// A list's elements read by `read`, a check that costs next to nothing when it passes. From
    /// the first element it refuses on, each element `read` refuses goes to `unbox`, with its
    /// path, to be converted the slow way or to throw.
    ///
    /// The loop that most lists take does nothing else: ``ListConversion``'s.
    @inline(__always)
    private func elements<Element>(
        of list: [RecordValue], at path: @autoclosure () -> CodingPath, _ read: (RecordValue) -> Element?,
        orThrow unbox: (RecordValue, CodingPath) throws -> Element
    ) throws -> [Element] {
        let result = ListConversion.converted(list, read)
        guard result.count == list.count else {
            return try Self.elements(of: list, after: result, at: path(), read, orThrow: unbox)
        }
        return result
    }

    /// The rest of ``elements(of:at:_:orThrow:)`` from the first element `read` refused, which
    /// `read` gives the first elements of.
    @inline(never)
    private static func elements<Element>(
        of list: [RecordValue], after first: [Element], at path: CodingPath, _ read: (RecordValue) -> Element?,
        orThrow unbox: (RecordValue, CodingPath) throws -> Element
    ) throws -> [Element] {
        var result = first
        for index in list.indices.dropFirst(first.count) {
            if let element = read(list[index]) {
                result.append(element)
            } else {
                result.append(try unbox(list[index], CodingPath(parent: path.node, last: .index(index))))
            }
        }
        return result
    }

    /// Reads a ``RecordAssetValue`` from the JSON file its asset points to.
    private func readAsset<T: Decodable>(_ type: T.Type, from asset: RecordAsset, at path: CodingPath) throws -> T {
        guard let file = asset.fileURL else {
            throw DecodingError.corrupted(
                "The asset for \(type) has no local file: download it and set its fileURL before decoding.",
                at: path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw DecodingError.corrupted(
                "Cannot read the asset file \(file.path) for \(type): \(error.localizedDescription)",
                at: path, underlyingError: error)
        }
        return try decodeJSON(type, from: data, at: path)
    }
}
