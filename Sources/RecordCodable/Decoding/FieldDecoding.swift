import Foundation

/// How one field becomes a value: the route every property takes that is not a plain `String`,
/// number or `Bool`.
///
/// 1. Types with a fixed mapping — `Date`, `Data`, `URL`, `UUID`, `Decimal`, the record's own value
///    types and the most common lists — are recognised by comparing metatypes.
/// 2. A ``LinkedRecord`` stored as a reference is decoded from the record it names; a
///    ``RecordAssetValue`` stored as an asset is read from its file.
/// 3. Any other type decodes itself from a ``ValueDecoder``. When it asks for a container that
///    JSON bytes hold, the bytes are decoded as JSON instead.
extension RecordDecodingEngine {
    ///
    /// The path is built only when a value decodes itself or an error needs it; a value of a type
    /// with a fixed mapping reads without one.
    func decodeField<T: Decodable>(_ type: T.Type, from value: RecordValue, at path: @autoclosure () -> CodingPath)
        throws -> T
    {
        if let special = SpecialType(T.self), !special.isList || !value.isBytes {
            return try decodeSpecial(special, as: type, from: value, at: path())
        }
        let path = path()
        if case .reference(let reference) = value {
            if T.self is any LinkedRecord.Type { return try decodeLinked(type, from: reference, at: path) }
            // An optional linked model whose record was not given is nil.
            if isMissingLinkedRecord(value), LinkedRecordDecoding.isOptionalLinked(T.self) {
                return try LinkedRecordDecoding.none(of: type)
            }
        }
        if case .asset(let asset) = value, T.self is any RecordAssetValue.Type {
            return try readAsset(type, from: asset, at: path)
        }
        var decoder = makeValueDecoder(for: value, at: path, canRestartAsJSON: true)
        defer { recycle(&decoder) }
        do {
            let decoded = try T(from: decoder)
            guard decoder.needsJSON else { return decoded }
            return jsonOrOwn(decoded, from: value, at: path)
        } catch  where decoder.needsJSON {
            // The value is stored as JSON.
        } catch DecodingError.dataCorrupted(let context) where T.self is any RawRepresentable.Type {
            throw Self.unknownRawValue(T.self, context)
        }
        // Decode the value whole with the JSON decoder.
        guard case .bytes(let data) = value else { throw DecodingError.typeMismatch(type, found: value, at: path) }
        return try decodeJSON(type, from: data, at: path)
    }

    /// The standard library's error for a raw value that no case of an enum has, with the advice
    /// to make the enum a ``RecordEnum``: a newer version of the app may store values that this
    /// one does not know.
    @inline(never)
    private static func unknownRawValue<T>(_ type: T.Type, _ context: DecodingError.Context) -> DecodingError {
        guard context.debugDescription.hasPrefix("Cannot initialize "), !(type is any RecordEnum.Type) else {
            return .dataCorrupted(context)
        }
        return .dataCorrupted(
            DecodingError.Context(
                codingPath: context.codingPath,
                debugDescription: context.debugDescription
                    + ". If other versions of the app may store values that \(type) does not have, make it a "
                    + "RecordEnum, whose fallbackCase reads them.",
                underlyingError: context.underlyingError))
    }

    /// The value in `value`'s JSON, for a value that caught the signal to restart as JSON and went
    /// on, as a value does that reads leniently, and gave `own`. When the field is the value's
    /// JSON, that is the value; when it is not, the value read the bytes some other way, as raw
    /// data, and its own result stands.
    ///
    /// Kept apart from the common route, which would otherwise ask the runtime for the metadata
    /// of `Optional<T>` on every call.
    @inline(never)
    private func jsonOrOwn<T: Decodable>(_ own: T, from value: RecordValue, at path: CodingPath) -> T {
        guard case .bytes(let data) = value, let decoded = try? decodeJSON(T.self, from: data, at: path) else {
            return own
        }
        return decoded
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
            return try reinterpret(Unbox.url(value, at: path()), as: type)
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
                try Unbox.string($0, at: $1)
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

    /// A list's elements read by `read`, a check that costs next to nothing when it passes. An
    /// element it refuses goes to `unbox`, with its path, to be converted the slow way or to throw.
    @inline(__always)
    private func elements<Element>(
        of list: [RecordValue], at path: @autoclosure () -> CodingPath, _ read: (RecordValue) -> Element?,
        orThrow unbox: (RecordValue, CodingPath) throws -> Element
    ) throws -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(list.count)
        for index in list.indices {
            if let element = read(list[index]) {
                result.append(element)
            } else {
                result.append(try unbox(list[index], CodingPath(parent: path().node, last: .index(index))))
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

/// Reads plain values out of record values, with the checks that keep them lossless.
enum Unbox {
    static func string(_ value: RecordValue, at path: @autoclosure () -> CodingPath) throws -> String {
        guard case .string(let string) = value else {
            throw DecodingError.typeMismatch(String.self, found: value, at: path())
        }
        return string
    }

    /// A `Bool` is stored as the integer 0 or 1; any other number is corrupt, not `false`.
    static func bool(_ value: RecordValue, at path: @autoclosure () -> CodingPath) throws -> Bool {
        switch value {
        case .int64(0): return false
        case .int64(1): return true
        case .int64(let number):
            throw DecodingError.corrupted("Number \(number) is not a valid Bool: expected 0 or 1.", at: path())
        case .double(let number):
            throw DecodingError.corrupted("Number \(number) is not a valid Bool: expected 0 or 1.", at: path())
        default:
            throw DecodingError.typeMismatch(Bool.self, found: value, at: path())
        }
    }

    /// An integer from an `int64` in range, or from a `double` that is integral and in range.
    @inline(__always)
    static func integer<I: FixedWidthInteger>(
        _ type: I.Type, from value: RecordValue, at path: @autoclosure () -> CodingPath
    ) throws -> I {
        // The common case compares and converts without an optional, which generic code would
        // have to make the metadata of at run time.
        if case .int64(let number) = value, number >= I.min, number <= I.max {
            return I(truncatingIfNeeded: number)
        }
        return try otherInteger(type, from: value, at: path())
    }

    @inline(never)
    private static func otherInteger<I: FixedWidthInteger>(_ type: I.Type, from value: RecordValue, at path: CodingPath)
        throws -> I
    {
        switch value {
        case .int64(let number):
            throw DecodingError.numberDoesNotFit(number, in: type, at: path)
        case .double(let number):
            guard let integer = I(exactly: number) else {
                throw DecodingError.numberDoesNotFit(number, in: type, at: path)
            }
            return integer
        default:
            throw DecodingError.typeMismatch(type, found: value, at: path)
        }
    }

    /// A `Double` from a `double`, or from an `int64` that a `Double` represents exactly.
    static func double(_ value: RecordValue, at path: @autoclosure () -> CodingPath) throws -> Double {
        switch value {
        case .double(let number):
            return number
        case .int64(let number):
            guard let double = Double(exactly: number) else {
                throw DecodingError.numberDoesNotFit(number, in: Double.self, at: path())
            }
            return double
        default:
            throw DecodingError.typeMismatch(Double.self, found: value, at: path())
        }
    }

    /// A `Float` from a `double`, rounded to the nearest `Float`, or from an `int64` that a `Float`
    /// represents exactly. A finite number beyond `Float`'s range is corrupt, not infinity.
    static func float(_ value: RecordValue, at path: @autoclosure () -> CodingPath) throws -> Float {
        switch value {
        case .double(let number):
            let float = Float(number)
            guard float.isFinite || !number.isFinite else {
                throw DecodingError.numberDoesNotFit(number, in: Float.self, at: path())
            }
            return float
        case .int64(let number):
            guard let float = Float(exactly: number) else {
                throw DecodingError.numberDoesNotFit(number, in: Float.self, at: path())
            }
            return float
        default:
            throw DecodingError.typeMismatch(Float.self, found: value, at: path())
        }
    }

    /// A web URL from its text, or a file's URL from an asset: its local file, else its download
    /// address, in which CloudKit's `${f}` placeholder for the file name to download as is filled
    /// in with the property's name (left as it is, `URL` would percent-encode it into an address
    /// the server does not know).
    static func url(_ value: RecordValue, at path: @autoclosure () -> CodingPath) throws -> URL {
        switch value {
        case .string(let string):
            guard let url = URL(string: string) else {
                throw DecodingError.corrupted("Invalid URL string '\(string)'.", at: path())
            }
            return url
        case .asset(let asset):
            if let fileURL = asset.fileURL { return fileURL }
            if let address = asset.downloadURL {
                let fileName = path().keys.last(where: { $0.intValue == nil })?.stringValue ?? "file"
                let filled = address.replacingOccurrences(
                    of: "${f}", with: fileName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "file")
                if let url = URL(string: filled) { return url }
            }
            throw DecodingError.corrupted("The asset has neither a file URL nor a valid download URL.", at: path())
        default:
            throw DecodingError.typeMismatch(URL.self, found: value, at: path())
        }
    }

    static func uuid(_ value: RecordValue, at path: @autoclosure () -> CodingPath) throws -> UUID {
        guard case .string(let string) = value else {
            throw DecodingError.typeMismatch(UUID.self, found: value, at: path())
        }
        guard let uuid = UUID(uuidString: string) else {
            throw DecodingError.corrupted("Attempted to decode UUID from invalid UUID string '\(string)'.", at: path())
        }
        return uuid
    }

    /// A `Decimal` from its exact text, from an integer, or from a double's shortest text.
    static func decimal(_ value: RecordValue, at path: @autoclosure () -> CodingPath) throws -> Decimal {
        switch value {
        case .string(let string):
            guard let decimal = DecimalText.parse(string) else {
                throw DecodingError.corrupted("'\(string)' is not a number that fits in Decimal.", at: path())
            }
            return decimal
        case .int64(let number):
            return Decimal(number)
        case .double(let number):
            guard number.isFinite, let decimal = DecimalText.parse(number.description) else {
                throw DecodingError.numberDoesNotFit(number, in: Decimal.self, at: path())
            }
            return decimal
        default:
            throw DecodingError.typeMismatch(Decimal.self, found: value, at: path())
        }
    }
}

/// Exact parsing of decimal text.
///
/// Foundation's `Decimal(string:)` reads as much of the text as it can and rounds digits it cannot
/// hold; a record decoder must refuse both. So the text must be a plain decimal number, and the
/// `Decimal` read from it must write back the same number.
enum DecimalText {
    /// The most significant digits any `Decimal` holds: its significand reaches 2^128 − 1, which
    /// has 39. Longer text is refused before it is parsed.
    static let maximumDigits = 39

    static func parse(_ text: String) -> Decimal? {
        if text == "NaN" { return Decimal.nan }
        guard let number = PlainNumber(text), number.digits.count <= maximumDigits,
            let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
            PlainNumber(decimal.description) == number
        else { return nil }
        return decimal
    }

    /// A plain decimal number — an optional `-`, digits with at most one `.`, an optional
    /// exponent — reduced to its sign, its significant digits and the power of ten of the last
    /// one, so that two texts of one number compare equal.
    private struct PlainNumber: Equatable {
        var isNegative: Bool
        var digits: [UInt8]
        var exponent: Int

        init?(_ text: String) {
            var bytes = Substring(text).utf8[...]
            isNegative = bytes.first == UInt8(ascii: "-")
            if isNegative { bytes = bytes.dropFirst() }
            let mantissa = bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            var exponentText = bytes.dropFirst(mantissa.count)
            exponent = 0
            if !exponentText.isEmpty {
                exponentText = exponentText.dropFirst()
                if exponentText.first == UInt8(ascii: "+") { exponentText = exponentText.dropFirst() }
                // Beyond any Decimal's exponent, and far from overflowing the arithmetic below.
                guard let written = Int(String(decoding: exponentText, as: UTF8.self)),
                    (-100_000...100_000).contains(written)
                else { return nil }
                exponent = written
            }
            let parts = mantissa.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard parts.count <= 2, mantissa.count > parts.count - 1, mantissa.count <= 100_000,
                parts.allSatisfy({ $0.allSatisfy(Self.isDigit) })
            else { return nil }
            let fraction = parts.count == 2 ? Array(parts[1]) : []
            exponent -= fraction.count
            var all = Array(parts[0]) + fraction
            while all.last == UInt8(ascii: "0") {
                all.removeLast()
                exponent += 1
            }
            digits = Array(all.drop { $0 == UInt8(ascii: "0") })
            if digits.isEmpty {
                // Zero has no sign and no exponent.
                isNegative = false
                exponent = 0
            }
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
    }
}
