import Foundation

/// The fields of the types with a fixed mapping (see ``SpecialType``), made without running the
/// value's own `encode(to:)`.
extension RecordEncodingEngine {
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
            if Self.isFileURL(text) { return EncodedValue(.asset(RecordAsset(fileURL: url))) }
            return EncodedValue(.string(text), size: text.utf8.count)
        case .uuid:
            return EncodedValue(.string(try reinterpret(value, as: UUID.self).uuidString), size: 36)
        case .decimal:
            return EncodedValue(.string(try reinterpret(value, as: Decimal.self).description))
        case .reference:
            let reference = try reinterpret(value, as: RecordReference.self)
            return EncodedValue(.reference(reference), size: reference.encodedSize)
        case .asset:
            return EncodedValue(.asset(try reinterpret(value, as: RecordAsset.self)))
        case .location:
            return EncodedValue(.location(try reinterpret(value, as: RecordLocation.self)))
        case .strings:
            var size = 0
            let elements = Self.list(try reinterpret(value, as: [String].self)) { string in
                size &+= string.utf8.count
                return .string(string)
            }
            return EncodedValue(.list(elements), size: size)
        case .integers:
            let numbers = try reinterpret(value, as: [Int].self)
            return EncodedValue(.list(Self.list(numbers) { .int64(Int64($0)) }), size: 8 &* numbers.count)
        case .doubles:
            let numbers = try reinterpret(value, as: [Double].self)
            return EncodedValue(.list(Self.list(numbers, RecordValue.double)), size: 8 &* numbers.count)
        case .dates:
            let dates = try reinterpret(value, as: [Date].self)
            return EncodedValue(.list(Self.list(dates, RecordValue.date)), size: 8 &* dates.count)
        }
    }

    /// The elements of a list field, each made by `element`, in ``ListConversion``'s loop.
    @inline(__always)
    private static func list<Value>(_ values: [Value], _ element: (Value) -> RecordValue) -> [RecordValue] {
        ListConversion.converted(values) { Optional(element($0)) }
    }

    /// Whether a URL's absolute text has the `file` scheme, as `URL.isFileURL` says, but read
    /// from the text that a web URL needs anyway; `isFileURL` costs as much again on Linux.
    ///
    /// The bytes are read in place, as the text of a URL is stored contiguously (other text is made
    /// so first); walking a `String.UTF8View` by index costs as much as the rest of the field.
    static func isFileURL(_ absoluteString: String) -> Bool {
        var text = absoluteString
        return text.withUTF8 { bytes in
            bytes.count >= 5 && bytes[0] | 0x20 == 0x66 && bytes[1] | 0x20 == 0x69 && bytes[2] | 0x20 == 0x6C
                && bytes[3] | 0x20 == 0x65 && bytes[4] == 0x3A
        }
    }
}
