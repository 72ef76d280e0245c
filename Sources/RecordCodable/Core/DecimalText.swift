import Foundation

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
