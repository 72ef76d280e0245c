import Foundation

/// The text `JSONEncoder` writes for each plain value, written straight into an `OutputSpan`.
///
/// A writer that appended a value's bytes to an array piece by piece would pay, for each piece,
/// the array's checks that it is unique and has room; here a value's room is made once, for the
/// most bytes it can take, and the bytes are then written one after the other. Each function
/// needs room for ``bound(of:)`` bytes, or for the bound it names.
///
/// The rules are `JSONEncoder`'s (see ``JSONBytesWriter``): `"` and `\` escaped, `/` too unless
/// `.withoutEscapingSlashes`, `\b \f \n \r \t` by name, other control characters as `\u00xx` in
/// lower-case hex, everything else as its UTF-8 bytes; integers in decimal; a double as its
/// `description` without a trailing `.0`.
enum JSONText {
    /// The most bytes a string's JSON takes: six for every byte (`\u001f`), and the quotes.
    static func bound(of string: String) -> Int {
        string.utf8.count * 6 + 2
    }

    /// The most bytes an integer's JSON takes: nineteen digits and a sign.
    static let integerBound = 20

    /// The most bytes a finite double's JSON takes (`-2.2250738585072014e-308`).
    static let doubleBound = 32

    /// Writes `string`, quoted and escaped.
    static func put(_ string: String, escapingSlashes: Bool, into output: inout OutputSpan<UInt8>) {
        output.append(UInt8(ascii: "\""))
        if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
            // Reading a string's bytes through a span costs a tenth of stepping through its
            // UTF-8 view; the bytes that need an escape, rare outside URLs and Base64, are found
            // eight at a time.
            let bytes = string.utf8.span
            var index = 0
            while index < bytes.count {
                let special = ByteScan.first(in: bytes, from: index) {
                    ByteScan.marks(below: 0x20, in: $0) | ByteScan.marks(of: UInt8(ascii: "\""), in: $0)
                        | ByteScan.marks(of: UInt8(ascii: "\\"), in: $0)
                        | (escapingSlashes ? ByteScan.marks(of: UInt8(ascii: "/"), in: $0) : 0)
                } where: {
                    needsEscape($0, escapingSlashes: escapingSlashes)
                }
                for plain in index..<special {
                    output.append(bytes[plain])
                }
                guard special < bytes.count else { break }
                putEscaped(bytes[special], into: &output)
                index = special + 1
            }
        } else {
            for byte in string.utf8 {
                if needsEscape(byte, escapingSlashes: escapingSlashes) {
                    putEscaped(byte, into: &output)
                } else {
                    output.append(byte)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8, escapingSlashes: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (byte == UInt8(ascii: "/") && escapingSlashes)
    }

    private static func putEscaped(_ byte: UInt8, into output: inout OutputSpan<UInt8>) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
            output.append(UInt8(ascii: "u"))
            output.append(UInt8(ascii: "0"))
            output.append(UInt8(ascii: "0"))
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Writes an integer in decimal.
    static func put(_ number: Int64, into output: inout OutputSpan<UInt8>) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        let magnitude = number.magnitude
        // From the highest power of ten the number reaches, a digit for each power.
        var power: UInt64 = 1
        while power <= magnitude / 10 { power *= 10 }
        while power > 0 {
            output.append(UInt8(ascii: "0") + UInt8(magnitude / power % 10))
            power /= 10
        }
    }

    /// Writes a double that is neither NaN nor infinite: its shortest `description`, without a
    /// trailing `.0`.
    static func put(finite number: Double, into output: inout OutputSpan<UInt8>) {
        // Most doubles on the wire are whole numbers or a few digits; those are written without
        // formatting a String. `description` writes integers below 2^53 in full ("100.0").
        if number.magnitude < 0x1p53, let integer = Int64(exactly: number), integer != 0 || number.sign == .plus {
            return put(integer, into: &output)
        }
        let text = number.description
        putASCII(text.hasSuffix(".0") ? String(text.dropLast(2)) : text, into: &output)
    }

    /// Writes static text that needs no escape.
    static func putASCII(_ text: StaticString, into output: inout OutputSpan<UInt8>) {
        text.withUTF8Buffer { bytes in
            for byte in bytes {
                output.append(byte)
            }
        }
    }

    /// Writes text that needs no escape, such as a number's or a literal's.
    static func putASCII(_ text: String, into output: inout OutputSpan<UInt8>) {
        if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
            let bytes = text.utf8.span
            for index in 0..<bytes.count {
                output.append(bytes[index])
            }
        } else {
            for byte in text.utf8 {
                output.append(byte)
            }
        }
    }

    /// Writes bytes that need no escape.
    static func putASCII(_ bytes: [UInt8], into output: inout OutputSpan<UInt8>) {
        for byte in bytes {
            output.append(byte)
        }
    }

    /// What comes between a field's quoted name and its quoted type name: `:{"type":`.
    static let fieldTypeStart = Array(#":{"type":"#.utf8)

    /// The same for an encrypted field: `:{"isEncrypted":true,"type":`, its keys in order.
    static let encryptedFieldTypeStart = Array(#":{"isEncrypted":true,"type":"#.utf8)

    /// What comes between a field's quoted type name and its value: `,"value":`.
    static let fieldValueStart = Array(#","value":"#.utf8)
}

/// The order in which `JSONEncoder` writes an object's keys: by their UTF-8 bytes.
enum JSONKeyOrder {
    /// A member of an object, with what sorts it.
    struct Member<Value> {
        let key: String
        let value: Value
        /// The first eight UTF-8 bytes of the key as a big-endian number, shorter keys padded
        /// with zeros: numbers in the order of the keys, except that keys equal in them may
        /// differ later.
        fileprivate let prefix: UInt64
    }

    /// `members` in the order of their keys' UTF-8 bytes.
    ///
    /// Keys are compared by their first eight bytes as one number, and only keys that share
    /// those by all their bytes: comparing two `String`s costs far more than comparing two
    /// integers, and most keys differ early.
    static func sorted<Value>(_ members: some Sequence<(key: String, value: Value)>) -> [Member<Value>] {
        var sorted = members.map { Member(key: $0.key, value: $0.value, prefix: prefix(of: $0.key)) }
        sorted.sort { first, second in
            if first.prefix != second.prefix { return first.prefix < second.prefix }
            return first.key.utf8.lexicographicallyPrecedes(second.key.utf8)
        }
        return sorted
    }

    /// The positions of `dictionary`'s entries in the order of their keys' UTF-8 bytes, as
    /// ``sorted(_:)`` orders them, each with the number it was sorted by.
    ///
    /// What is sorted is a number and a position for each entry, made in one walk over the keys
    /// alone: sorting the entries themselves, or reading each entry whole, would copy each key and
    /// value, a retain and a release each. A record's few keys are sorted by insertion, which for
    /// a dozen keys costs a fraction of the general sort's calls through its comparison.
    static func sortedIndices<Value>(
        of dictionary: [String: Value]
    ) -> [(prefix: UInt64, index: Dictionary<String, Value>.Index)] {
        var order: [(prefix: UInt64, index: Dictionary<String, Value>.Index)] = []
        order.reserveCapacity(dictionary.count)
        var index = dictionary.startIndex
        for key in dictionary.keys {
            order.append((prefix(of: key), index))
            dictionary.formIndex(after: &index)
        }
        func precedes(
            _ first: (prefix: UInt64, index: Dictionary<String, Value>.Index),
            _ second: (prefix: UInt64, index: Dictionary<String, Value>.Index)
        ) -> Bool {
            if first.prefix != second.prefix { return first.prefix < second.prefix }
            return dictionary.keys[first.index].utf8.lexicographicallyPrecedes(dictionary.keys[second.index].utf8)
        }
        if order.count > insertionSortLimit {
            order.sort(by: precedes)
        } else {
            for next in order.indices.dropFirst() {
                let entry = order[next]
                var place = next
                while place > 0, precedes(entry, order[place - 1]) {
                    order[place] = order[place - 1]
                    place -= 1
                }
                order[place] = entry
            }
        }
        return order
    }

    /// The most keys sorted by insertion, whose cost grows with the square of their count.
    private static let insertionSortLimit = 24

    private static func prefix(of key: String) -> UInt64 {
        if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
            // Reading a string's bytes through a span costs a tenth of stepping through its
            // UTF-8 view.
            let bytes = key.utf8.span
            if bytes.count >= 8 { return ByteScan.word(bytes, at: 0).byteSwapped }
            var prefix: UInt64 = 0
            for index in 0..<bytes.count {
                prefix |= UInt64(bytes[index]) << (56 - 8 * UInt64(index))
            }
            return prefix
        }
        var prefix: UInt64 = 0
        for (index, byte) in key.utf8.prefix(8).enumerated() {
            prefix |= UInt64(byte) << (56 - 8 * UInt64(index))
        }
        return prefix
    }
}
