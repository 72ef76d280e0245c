import Foundation

/// How one field becomes a value: the route every property takes that is not a plain `String`,
/// number or `Bool`.
///
/// 1. Types with a fixed mapping — `Date`, `Data`, `URL`, `UUID`, `Decimal`, the record's own value
///    types and the most common lists — are recognised by comparing metatypes.
/// 2. A ``RecordAssetValue`` stored as an asset is read from its file.
/// 3. Any other type decodes itself from a ``ValueDecoder``. When it asks for a container that
///    JSON bytes hold, the bytes are decoded as JSON instead.
extension RecordDecodingEngine {
    func decodeField<T: Decodable>(_ type: T.Type, from value: RecordValue, at node: CodingPathNode) throws -> T {
        if let special = try decodeSpecial(type, from: value, at: node) { return special }
        if case .asset(let asset) = value, T.self is any RecordAssetValue.Type {
            return try readAsset(type, from: asset, at: node)
        }
        let decoder = ValueDecoder(engine: self, value: value, node: node, canRestartAsJSON: true)
        do {
            return try T(from: decoder)
        } catch where decoder.needsJSON {
            // The value is stored as JSON: decode it whole with the JSON decoder.
            guard case .bytes(let data) = value else { throw DecodingError.typeMismatch(type, found: value, at: node) }
            return try decodeJSON(type, from: data, at: node)
        }
    }

    /// The value of a type with a fixed mapping, or `nil` for any other type.
    func decodeSpecial<T: Decodable>(_ type: T.Type, from value: RecordValue, at node: CodingPathNode) throws -> T? {
        if T.self == Date.self {
            guard case .date(let date) = value else { throw DecodingError.typeMismatch(type, found: value, at: node) }
            return date as? T
        }
        if T.self == [String].self, case .list(let elements) = value {
            return try elements.enumerated().map { index, element in
                try Unbox.string(element, at: node.appending(index: index))
            } as? T
        }
        if T.self == [Int].self, case .list(let elements) = value {
            return try elements.enumerated().map { index, element in
                try Unbox.integer(Int.self, from: element, at: node.appending(index: index))
            } as? T
        }
        if T.self == URL.self { return try Unbox.url(value, at: node) as? T }
        if T.self == UUID.self { return try Unbox.uuid(value, at: node) as? T }
        if T.self == Data.self {
            guard case .bytes(let data) = value else { throw DecodingError.typeMismatch(type, found: value, at: node) }
            return data as? T
        }
        if T.self == Decimal.self { return try Unbox.decimal(value, at: node) as? T }
        if T.self == RecordReference.self {
            guard case .reference(let reference) = value else {
                throw DecodingError.typeMismatch(type, found: value, at: node)
            }
            return reference as? T
        }
        if T.self == RecordAsset.self {
            guard case .asset(let asset) = value else { throw DecodingError.typeMismatch(type, found: value, at: node) }
            return asset as? T
        }
        if T.self == RecordLocation.self {
            guard case .location(let location) = value else {
                throw DecodingError.typeMismatch(type, found: value, at: node)
            }
            return location as? T
        }
        if T.self == [Double].self, case .list(let elements) = value {
            return try elements.enumerated().map { index, element in
                try Unbox.double(element, at: node.appending(index: index))
            } as? T
        }
        if T.self == [Date].self, case .list(let elements) = value {
            return try elements.enumerated().map { index, element in
                guard case .date(let date) = element else {
                    throw DecodingError.typeMismatch(Date.self, found: element, at: node.appending(index: index))
                }
                return date
            } as? T
        }
        return nil
    }

    /// Reads a ``RecordAssetValue`` from the JSON file its asset points to.
    private func readAsset<T: Decodable>(_ type: T.Type, from asset: RecordAsset, at node: CodingPathNode) throws -> T {
        guard let file = asset.fileURL else {
            throw DecodingError.corrupted(
                "The asset for \(type) has no local file: download it and set its fileURL before decoding.",
                at: node)
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw DecodingError.corrupted(
                "Cannot read the asset file \(file.path) for \(type): \(error.localizedDescription)",
                at: node, underlyingError: error)
        }
        return try decodeJSON(type, from: data, at: node)
    }
}

/// Reads plain values out of record values, with the checks that keep them lossless.
enum Unbox {
    static func string(_ value: RecordValue, at node: @autoclosure () -> CodingPathNode) throws -> String {
        guard case .string(let string) = value else {
            throw DecodingError.typeMismatch(String.self, found: value, at: node())
        }
        return string
    }

    /// A `Bool` is stored as the integer 0 or 1; any other number is corrupt, not `false`.
    static func bool(_ value: RecordValue, at node: @autoclosure () -> CodingPathNode) throws -> Bool {
        switch value {
        case .int64(0): return false
        case .int64(1): return true
        case .int64(let number):
            throw DecodingError.corrupted("Number \(number) is not a valid Bool: expected 0 or 1.", at: node())
        case .double(let number):
            throw DecodingError.corrupted("Number \(number) is not a valid Bool: expected 0 or 1.", at: node())
        default:
            throw DecodingError.typeMismatch(Bool.self, found: value, at: node())
        }
    }

    /// An integer from an `int64` in range, or from a `double` that is integral and in range.
    static func integer<I: FixedWidthInteger>(
        _ type: I.Type, from value: RecordValue, at node: @autoclosure () -> CodingPathNode
    ) throws -> I {
        switch value {
        case .int64(let number):
            guard let integer = I(exactly: number) else { throw DecodingError.numberDoesNotFit(number, in: type, at: node()) }
            return integer
        case .double(let number):
            guard let integer = I(exactly: number) else { throw DecodingError.numberDoesNotFit(number, in: type, at: node()) }
            return integer
        default:
            throw DecodingError.typeMismatch(type, found: value, at: node())
        }
    }

    /// A `Double` from a `double`, or from an `int64` that a `Double` represents exactly.
    static func double(_ value: RecordValue, at node: @autoclosure () -> CodingPathNode) throws -> Double {
        switch value {
        case .double(let number):
            return number
        case .int64(let number):
            guard let double = Double(exactly: number) else {
                throw DecodingError.numberDoesNotFit(number, in: Double.self, at: node())
            }
            return double
        default:
            throw DecodingError.typeMismatch(Double.self, found: value, at: node())
        }
    }

    /// A `Float` from a `double`, rounded to the nearest `Float`, or from an `int64` that a `Float`
    /// represents exactly. A finite number beyond `Float`'s range is corrupt, not infinity.
    static func float(_ value: RecordValue, at node: @autoclosure () -> CodingPathNode) throws -> Float {
        switch value {
        case .double(let number):
            let float = Float(number)
            guard float.isFinite || !number.isFinite else {
                throw DecodingError.numberDoesNotFit(number, in: Float.self, at: node())
            }
            return float
        case .int64(let number):
            guard let float = Float(exactly: number) else {
                throw DecodingError.numberDoesNotFit(number, in: Float.self, at: node())
            }
            return float
        default:
            throw DecodingError.typeMismatch(Float.self, found: value, at: node())
        }
    }

    /// A web URL from its text, or a file's URL from an asset (its local file, else its download
    /// address).
    static func url(_ value: RecordValue, at node: CodingPathNode) throws -> URL {
        switch value {
        case .string(let string):
            guard let url = URL(string: string) else {
                throw DecodingError.corrupted("Invalid URL string '\(string)'.", at: node)
            }
            return url
        case .asset(let asset):
            if let fileURL = asset.fileURL { return fileURL }
            if let address = asset.downloadURL, let url = URL(string: address) { return url }
            throw DecodingError.corrupted("The asset has neither a file URL nor a valid download URL.", at: node)
        default:
            throw DecodingError.typeMismatch(URL.self, found: value, at: node)
        }
    }

    static func uuid(_ value: RecordValue, at node: CodingPathNode) throws -> UUID {
        guard case .string(let string) = value else { throw DecodingError.typeMismatch(UUID.self, found: value, at: node) }
        guard let uuid = UUID(uuidString: string) else {
            throw DecodingError.corrupted("Attempted to decode UUID from invalid UUID string '\(string)'.", at: node)
        }
        return uuid
    }

    /// A `Decimal` from its exact text, from an integer, or from a double's shortest text.
    static func decimal(_ value: RecordValue, at node: CodingPathNode) throws -> Decimal {
        switch value {
        case .string(let string):
            guard let decimal = DecimalText.parse(string) else {
                throw DecodingError.corrupted("'\(string)' is not a number that fits in Decimal.", at: node)
            }
            return decimal
        case .int64(let number):
            return Decimal(number)
        case .double(let number):
            guard number.isFinite, let decimal = DecimalText.parse(number.description) else {
                throw DecodingError.numberDoesNotFit(number, in: Decimal.self, at: node)
            }
            return decimal
        default:
            throw DecodingError.typeMismatch(Decimal.self, found: value, at: node)
        }
    }
}

/// Exact parsing of decimal text.
///
/// Foundation's `Decimal(string:)` reads as much of the text as it can and rounds digits it cannot
/// hold; a record decoder must refuse both, so the text is checked first.
enum DecimalText {
    /// The most significant digits a `Decimal` holds exactly.
    static let maximumDigits = 38

    static func parse(_ text: String) -> Decimal? {
        if text == "NaN" { return Decimal.nan }
        guard let digits = significantDigits(in: text), digits <= maximumDigits else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// How many significant digits `text` has, or `nil` if it is not a plain decimal number:
    /// an optional `-`, digits with at most one `.`, and an optional exponent.
    private static func significantDigits(in text: String) -> Int? {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let mantissa = bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        let exponent = bytes.dropFirst(mantissa.count)
        if !exponent.isEmpty {
            var exponentDigits = exponent.dropFirst()
            if exponentDigits.first == UInt8(ascii: "-") || exponentDigits.first == UInt8(ascii: "+") {
                exponentDigits = exponentDigits.dropFirst()
            }
            guard !exponentDigits.isEmpty, exponentDigits.allSatisfy(isDigit) else { return nil }
        }
        let points = mantissa.filter { $0 == UInt8(ascii: ".") }.count
        let digits = mantissa.filter { $0 != UInt8(ascii: ".") }
        guard points <= 1, !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }.reversed().drop { $0 == UInt8(ascii: "0") }
        return significant.count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
}
