import Foundation

/// Reads JSON text into the tokens of a ``JSONTape`` — or gives up, and says why, so that the
/// document is left to Foundation's `JSONDecoder` (see ``JSONParseOutcome``).
///
/// The tape must hold exactly what ``WireJSON/init(from:)`` reads through `JSONDecoder`, or the
/// fast path would read other values, or accept what the `Codable` path refuses. So the parser
/// reads only what it can promise that for, and gives up on everything else; Foundation's decoder
/// then reads the document, with its own values and errors:
///
/// - It reads strict JSON (RFC 8259) in UTF-8, with a byte order mark or without, and the trailing
///   commas that `JSONDecoder` accepts (`[1,]`, `{"a":1,}`).
/// - A number is read as `JSONDecoder` reads it for ``WireJSON``: one that is integral within
///   `Int64` as that integer, spelled `2.0` or `1e3` too; minus zero as the double; any other as
///   the nearest double. It gives up on a number with more digits than a `UInt64` holds, beyond
///   a double's range or below its normal range, and on one that is not integral but whose double
///   is, which `JSONDecoder` reads as an integer.
/// - It gives up on anything malformed (so that the error is Foundation's, at Foundation's path),
///   and on what is beyond its fast path: a value nested deeper than `maximumDepth` (where
///   ``WireJSON`` refuses some values and not others), and text longer than its offsets count.
///
/// It reads by recursive descent, one call a level, over a `Span` of the text; as it gives up
/// below `maximumDepth`, its stack stays small whatever the input.
struct JSONTapeParser {
    /// Why reading stopped short of the end.
    private enum Stop {
        /// The text is not strict UTF-8 JSON.
        case malformed
        /// The text holds what the parser leaves to Foundation's decoder.
        case beyondFastPath
        /// The tokens filled the room they were given: reading again with more room goes on.
        case noRoom
    }

    private let maximumDepth: Int
    /// Why reading stopped, once it has: set where the parser gives up for a reason of its own,
    /// and otherwise `malformed`, which every other way of giving up is. (Positions, not this,
    /// are what each function returns, so that they stay in registers.)
    private var stop = Stop.malformed

    private init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// The tokens of the JSON document in `text`, or why Foundation's decoder must read it.
    ///
    /// - Parameter maximumDepth: The deepest a value may nest; the document's own value is at 0.
    static func tokens(of text: ContiguousArray<UInt8>, maximumDepth: Int)
        -> JSONParseOutcome<ContiguousArray<JSONToken>>
    {
        guard text.count < Int(Int32.max) / 2 else { return .beyondFastPath }
        let bytes = text.span
        // The tokens are written into room made for them at once, which costs less than growing
        // an array token by token. JSON text spends several bytes on most tokens; should it spend
        // fewer, the text is read again with room for the most it could hold: every token but the
        // first takes at least two bytes, its own and a comma or a colon.
        for capacity in [text.count / 5 + 16, text.count / 2 + 2] {
            var parser = JSONTapeParser(maximumDepth: maximumDepth)
            var parsed = false
            let tokens = ContiguousArray<JSONToken>(capacity: capacity) { tokens in
                parsed = parser.parse(bytes, into: &tokens)
            }
            if parsed { return .parsed(tokens) }
            switch parser.stop {
            case .malformed: return .malformed
            case .beyondFastPath: return .beyondFastPath
            case .noRoom: continue
            }
        }
        // The second room holds every token the text can give: never reached.
        return .beyondFastPath
    }

    // MARK: Structure

    /// Reads the whole document.
    private mutating func parse(_ bytes: Span<UInt8>, into tokens: inout OutputSpan<JSONToken>) -> Bool {
        // Foundation's decoder skips a UTF-8 byte order mark.
        let start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        guard let end = value(bytes, into: &tokens, from: start, depth: 0) else { return false }
        return Self.skipWhitespace(bytes, from: end) == bytes.count
    }

    // Each function reads from a position and returns the position after what it read, or `nil`
    // when it cannot read on: positions passed by value stay in registers.

    /// Reads the value at `start`, after any whitespace.
    private mutating func value(
        _ bytes: Span<UInt8>, into tokens: inout OutputSpan<JSONToken>, from start: Int, depth: Int
    ) -> Int? {
        let index = Self.skipWhitespace(bytes, from: start)
        guard index < bytes.count else { return nil }
        guard depth <= maximumDepth else { return giveUp(.beyondFastPath) }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return container(bytes, into: &tokens, from: index, depth: depth, isObject: true)
        case UInt8(ascii: "["):
            return container(bytes, into: &tokens, from: index, depth: depth, isObject: false)
        case UInt8(ascii: "\""):
            return string(bytes, into: &tokens, from: index)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            switch Self.number(bytes, at: index) {
            case .number(let end, let kind, let bits):
                var token = JSONToken(kind: kind)
                token.number = bits
                return append(token, to: &tokens) ? end : nil
            case .malformed:
                return nil
            case .beyondFastPath:
                return giveUp(.beyondFastPath)
            }
        case UInt8(ascii: "t"):
            return literal(bytes, into: &tokens, from: index, "true", .true)
        case UInt8(ascii: "f"):
            return literal(bytes, into: &tokens, from: index, "false", .false)
        case UInt8(ascii: "n"):
            return literal(bytes, into: &tokens, from: index, "null", .null)
        default:
            return nil
        }
    }

    /// Reads the object or array whose bracket is at `start`: its members or elements, separated
    /// by commas, one more comma allowed before the end, as `JSONDecoder` allows it.
    private mutating func container(
        _ bytes: Span<UInt8>, into tokens: inout OutputSpan<JSONToken>, from start: Int, depth: Int,
        isObject: Bool
    ) -> Int? {
        let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let first = tokens.count
        guard append(JSONToken(kind: isObject ? .object : .array), to: &tokens) else { return nil }
        var count: Int32 = 0
        var index = Self.skipWhitespace(bytes, from: start + 1)
        while index < bytes.count, bytes[index] != closing {
            if isObject {
                guard bytes[index] == UInt8(ascii: "\""), let afterKey = string(bytes, into: &tokens, from: index)
                else {
                    return nil
                }
                index = Self.skipWhitespace(bytes, from: afterKey)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
            }
            guard let afterValue = value(bytes, into: &tokens, from: index, depth: depth + 1) else { return nil }
            count += 1
            index = Self.skipWhitespace(bytes, from: afterValue)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index = Self.skipWhitespace(bytes, from: index + 1)
            } else if bytes[index] != closing {
                return nil
            }
        }
        guard index < bytes.count else { return nil }
        tokens[first].count = count
        tokens[first].end = Int32(tokens.count)
        return index + 1
    }

    private mutating func literal(
        _ bytes: Span<UInt8>, into tokens: inout OutputSpan<JSONToken>, from start: Int, _ literal: StaticString,
        _ kind: JSONToken.Kind
    ) -> Int? {
        let count = literal.utf8CodeUnitCount
        guard start + count <= bytes.count else { return nil }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches, append(JSONToken(kind: kind), to: &tokens) else { return nil }
        return start + count
    }

    /// Appends a token, which ends where the next begins unless it is a container's; `false` when
    /// there is no room left for it.
    @inline(__always)
    private mutating func append(_ token: JSONToken, to tokens: inout OutputSpan<JSONToken>) -> Bool {
        guard !tokens.isFull else {
            stop = .noRoom
            return false
        }
        var token = token
        token.end = Int32(tokens.count + 1)
        tokens.append(token)
        return true
    }

    /// Stops reading, for `reason`.
    private mutating func giveUp(_ reason: Stop) -> Int? {
        stop = reason
        return nil
    }

    /// The position of the first byte from `start` that is not whitespace.
    @inline(__always)
    static func skipWhitespace(_ bytes: Span<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return index
            }
        }
        return index
    }

    // MARK: Strings

    /// Reads the string whose opening quote is at `start`; returns the position after its
    /// closing quote, or `nil` when it is not a valid JSON string.
    @inline(__always)
    private mutating func string(_ bytes: Span<UInt8>, into tokens: inout OutputSpan<JSONToken>, from start: Int)
        -> Int?
    {
        guard let (end, isPlain) = Self.stringEnd(bytes, from: start) else { return nil }
        var token = JSONToken(kind: .string)
        token.storage = isPlain ? .plain : .escaped
        token.start = Int32(start + 1)
        token.count = Int32(end - 1 - (start + 1))
        return append(token, to: &tokens) ? end : nil
    }

    /// The position after the closing quote of the string whose opening quote is at `start`, and
    /// whether its content is plain text (ASCII without escapes); `nil` when it is not a valid
    /// JSON string. Its content is `start + 1 ..< end - 1`.
    @inline(__always)
    static func stringEnd(_ bytes: Span<UInt8>, from start: Int) -> (end: Int, isPlain: Bool)? {
        var position = start + 1
        var isPlain = true
        while true {
            // Most of a string is plain ASCII, which is skipped eight bytes at a time.
            position = ByteScan.first(in: bytes, from: position) {
                ByteScan.marksOfNonASCII($0) | ByteScan.marks(below: 0x20, in: $0)
                    | ByteScan.marks(of: UInt8(ascii: "\""), in: $0) | ByteScan.marks(of: UInt8(ascii: "\\"), in: $0)
            } where: {
                $0 >= 0x80 || $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
            }
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                return (position + 1, isPlain)
            } else if byte == UInt8(ascii: "\\") {
                guard let length = escapeLength(bytes, at: position) else { return nil }
                isPlain = false
                position += length
            } else if byte < 0x20 {
                // JSON allows control characters only escaped.
                return nil
            } else {
                guard let length = utf8SequenceLength(bytes, at: position) else { return nil }
                isPlain = false
                position += length
            }
        }
    }

    /// The length of the escape that starts with the backslash at `index`, or `nil` when JSON does
    /// not allow it. A UTF-16 surrogate must come in a pair, as Foundation's decoder demands.
    private static func escapeLength(_ bytes: Span<UInt8>, at index: Int) -> Int? {
        guard index + 1 < bytes.count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            guard let unit = hexUnit(bytes, at: index + 2) else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"),
                    bytes[index + 7] == UInt8(ascii: "u"), let low = hexUnit(bytes, at: index + 8),
                    (0xDC00...0xDFFF).contains(low)
                else { return nil }
                return 12
            case 0xDC00...0xDFFF:
                return nil
            default:
                return 6
            }
        default:
            return nil
        }
    }

    /// The four hexadecimal digits at `index` as a UTF-16 code unit.
    private static func hexUnit(_ bytes: Span<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexDigit(bytes[index + offset]) else { return nil }
            unit = unit << 4 | digit
        }
        return unit
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index`, whose first byte is not ASCII, or
    /// `nil`: no overlong forms, no surrogates, nothing beyond U+10FFFF (Unicode's table 3-7).
    private static func utf8SequenceLength(_ bytes: Span<UInt8>, at index: Int) -> Int? {
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    /// The UTF-8 bytes that the string content at `range`, already found valid, stands for.
    static func unescaped(_ bytes: Span<UInt8>, _ range: Range<Int>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < range.upperBound else {
                result.append(byte)
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hexUnit(bytes, at: index) else { continue }
                index += 4
                if (0xD800...0xDBFF).contains(scalar), let low = hexUnit(bytes, at: index + 2),
                    (0xDC00...0xDFFF).contains(low)
                {
                    scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    index += 6
                }
                if let scalar = Unicode.Scalar(scalar) {
                    UTF8.encode(scalar) { result.append($0) }
                }
            default: result.append(escaped)
            }
        }
        return result
    }

    // MARK: Numbers

    /// The decimal exponents that a double holds exactly, 10^0 through 10^22.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// A number read, or why it was not.
    enum Number {
        /// The number, as the kind of its token and its bits, and the position after it.
        case number(end: Int, kind: JSONToken.Kind, bits: UInt64)
        case malformed
        /// A number this parser leaves to Foundation.
        case beyondFastPath
    }

    /// Reads the number at `start` as ``WireJSON`` reads it through `JSONDecoder`.
    static func number(_ bytes: Span<UInt8>, at start: Int) -> Number {
        var index = start
        let isNegative = bytes[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }
        let magnitudeStart = index
        // The number is `significand` × 10^`exponent`, read from all its digits.
        var significand: UInt64 = 0
        var exponent = 0
        var isInteger = true
        guard index < bytes.count, let first = digit(bytes[index]) else { return .malformed }
        if first == 0 {
            index += 1
            // A leading zero is an error that JSONDecoder reports at the number's path.
            if index < bytes.count, digit(bytes[index]) != nil { return .malformed }
        } else {
            while index < bytes.count, let digit = digit(bytes[index]) {
                guard accumulate(digit, into: &significand) else { return .beyondFastPath }
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, digit(bytes[index]) != nil else { return .malformed }
            while index < bytes.count, let digit = digit(bytes[index]) {
                guard accumulate(digit, into: &significand) else { return .beyondFastPath }
                exponent -= 1
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            var exponentIsNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentIsNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, digit(bytes[index]) != nil else { return .malformed }
            var written = 0
            while index < bytes.count, let digit = digit(bytes[index]) {
                // Beyond a few hundred, an exponent gives a number this parser leaves to Foundation.
                written = min(written * 10 + Int(digit), 100_000)
                index += 1
            }
            exponent += exponentIsNegative ? -written : written
        }
        let digits = magnitudeStart..<index
        let read: (kind: JSONToken.Kind, bits: UInt64)?
        if isInteger {
            read = integer(significand, isNegative: isNegative) ?? beyondInt64(significand, isNegative, bytes, digits)
        } else {
            read = decimal(significand, exponent, isNegative: isNegative, text: bytes, digits)
        }
        guard let read else { return .beyondFastPath }
        return .number(end: index, kind: read.kind, bits: read.bits)
    }

    private static func digit(_ byte: UInt8) -> UInt64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
    }

    /// Appends a decimal digit to `significand`; `false` when it no longer fits.
    private static func accumulate(_ digit: UInt64, into significand: inout UInt64) -> Bool {
        let (tenfold, overflow) = significand.multipliedReportingOverflow(by: 10)
        let (sum, carry) = tenfold.addingReportingOverflow(digit)
        guard !overflow, !carry else { return false }
        significand = sum
        return true
    }

    private static let minusZero = (JSONToken.Kind.double, (-0.0).bitPattern)

    /// A number written without a fraction or an exponent, within `Int64`; `-0` is minus zero.
    private static func integer(_ magnitude: UInt64, isNegative: Bool) -> (kind: JSONToken.Kind, bits: UInt64)? {
        guard isNegative else { return magnitude <= UInt64(Int64.max) ? (.integer, magnitude) : nil }
        if magnitude == 0 { return minusZero }
        guard magnitude <= Int64.min.magnitude else { return nil }
        return (.integer, 0 &- magnitude)
    }

    /// A number written without a fraction or an exponent, beyond `Int64`: JSONDecoder reads it
    /// as the nearest double.
    private static func beyondInt64(
        _ magnitude: UInt64, _ isNegative: Bool, _ text: Span<UInt8>, _ digits: Range<Int>
    ) -> (kind: JSONToken.Kind, bits: UInt64)? {
        guard let number = nearestDouble(magnitude, 0, text: text, digits) else { return nil }
        return (.double, (isNegative ? -number : number).bitPattern)
    }

    /// A number written with a fraction or an exponent: `significand` × 10^`exponent`, whose
    /// digits without the sign are `text[digits]`.
    ///
    /// JSONDecoder reads such a number as an `Int64` through its nearest double: an integral
    /// double below 2^53 is that integer (so `2.0` and `1e3` are integers, and so is
    /// `1.0000000000000001`, whose double is 1); an integral double from 2^53 up to 2^63 is the
    /// number's exact value without its fraction (a `Decimal`'s); any other number is the double.
    private static func decimal(
        _ significand: UInt64, _ exponent: Int, isNegative: Bool, text: Span<UInt8>, _ digits: Range<Int>
    ) -> (kind: JSONToken.Kind, bits: UInt64)? {
        if significand == 0 { return isNegative ? minusZero : (.integer, 0) }
        guard let magnitude = nearestDouble(significand, exponent, text: text, digits) else { return nil }
        let number = isNegative ? -magnitude : magnitude
        // A number below a double's normal range, which JSONDecoder reads as 0 or as its double
        // as it sees fit, and one beyond its range, which JSONDecoder refuses, are left to it.
        guard number.isNormal else { return nil }
        guard let integer = Int64(exactly: number) else { return (.double, number.bitPattern) }
        if magnitude < 0x1p53 { return (.integer, UInt64(bitPattern: integer)) }
        guard let truncated = truncatedInteger(significand, exponent), truncated <= UInt64(Int64.max) else {
            return (.double, number.bitPattern)
        }
        return (.integer, isNegative ? 0 &- truncated : truncated)
    }

    /// `significand` × 10^`exponent` without its fraction, when a `UInt64` holds it.
    private static func truncatedInteger(_ significand: UInt64, _ exponent: Int) -> UInt64? {
        var value = significand
        if exponent >= 0 {
            for _ in 0..<min(exponent, 20) {
                let (tenfold, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                value = tenfold
            }
            return exponent > 20 ? nil : value
        }
        for _ in 0..<min(-exponent, 20) { value /= 10 }
        return value
    }

    /// The double nearest to `significand` × 10^`exponent`, rounded as `JSONDecoder` rounds:
    /// correctly, to the nearest.
    private static func nearestDouble(_ significand: UInt64, _ exponent: Int, text: Span<UInt8>, _ range: Range<Int>)
        -> Double?
    {
        // Both factors exact, one operation rounds correctly (Clinger's fast path).
        if significand <= 1 << 53, exponent.magnitude < powersOfTen.count {
            let power = powersOfTen[Int(exponent.magnitude)]
            return exponent < 0 ? Double(significand) / power : Double(significand) * power
        }
        var digits: [UInt8] = []
        digits.reserveCapacity(range.count)
        for index in range { digits.append(text[index]) }
        return Double(String(decoding: digits, as: UTF8.self))
    }
}

/// What reading JSON text on the fast path gives: what was read, or why Foundation's decoder
/// must read the text instead.
enum JSONParseOutcome<Parsed> {
    /// What the text holds.
    case parsed(Parsed)
    /// Text that JSON allows but that the fast path does not promise to read as Foundation's
    /// decoder does: a value nested too deep, a number beyond what it reads exactly, text too
    /// long. Foundation's decoder reads it, or refuses it in its own words.
    case beyondFastPath
    /// Text that is not strict JSON in UTF-8: Foundation's decoder reports the error, at its own
    /// path and in its own words, or reads the text if it is JSON in UTF-16 or UTF-32.
    case malformed

    /// The outcome with what was read made into another value by `transform`.
    func map<Other>(_ transform: (Parsed) -> Other) -> JSONParseOutcome<Other> {
        switch self {
        case .parsed(let parsed): .parsed(transform(parsed))
        case .beyondFastPath: .beyondFastPath
        case .malformed: .malformed
        }
    }
}
