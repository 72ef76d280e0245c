import Foundation

/// Reads plain values out of record values, with the checks that keep them lossless.
enum Unbox {
    /// A `String` from a `string`; also from `bytes` of UTF-8 text when `readingBytes` says so
    /// (``RecordDecoder/readsStringsFromUTF8Bytes``), which is asked only for a value that is not a
    /// string.
    static func string(
        _ value: RecordValue, readingBytes: @autoclosure () -> Bool = false, at path: @autoclosure () -> CodingPath
    ) throws -> String {
        guard case .string(let string) = value else {
            return try otherString(value, readingBytes: readingBytes(), at: path())
        }
        return string
    }

    @inline(never)
    private static func otherString(_ value: RecordValue, readingBytes: Bool, at path: CodingPath) throws -> String {
        guard readingBytes, case .bytes(let bytes) = value else {
            throw DecodingError.typeMismatch(String.self, found: value, at: path)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DecodingError.corrupted(
                "Expected to decode String from bytes of UTF-8 text, but the \(bytes.count) bytes are not valid UTF-8.",
                at: path)
        }
        return text
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
    /// in as `fileName` says (left as it is, `URL` would percent-encode it into an address the
    /// server does not know).
    static func url(
        _ value: RecordValue, fileName: AssetFileName = .fieldName, at path: @autoclosure () -> CodingPath
    ) throws -> URL {
        switch value {
        case .string(let string):
            guard let url = URL(string: string) else {
                throw DecodingError.corrupted("Invalid URL string '\(string)'.", at: path())
            }
            return url
        case .asset(let asset):
            if let fileURL = asset.fileURL { return fileURL }
            if asset.downloadURL != nil {
                let keys = path().keys
                let name: String
                switch fileName {
                case .fieldName: name = keys.last(where: { $0.intValue == nil })?.stringValue ?? "file"
                case .custom(let choose): name = choose(keys, asset)
                }
                if let url = asset.downloadURL(fileName: name) { return url }
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
