import Foundation

/// The JSON form of values that have no native field type: nested structs, dictionaries, lists of
/// lists and lists with `nil` elements.
///
/// The form is Foundation's `JSONEncoder` output with sorted keys, so equal values give equal
/// bytes, and it is lossless:
/// - a `Date` is Foundation's own form, seconds since 2001-01-01 00:00:00 UTC as a JSON number
///   written with every digit needed to read back the same `Date`, sub-millisecond precision
///   included;
/// - `Data` is Base64 text;
/// - a `Double` or `Float` that JSON cannot carry is the string `"NaN"`, `"Infinity"` or
///   `"-Infinity"`.
///
/// Key strategies never apply inside this JSON.
enum NestedJSON {
    /// The shared encoder, never changed after it is made, so safe to use from many threads.
    static let encoder = makeEncoder()

    /// The shared decoder, never changed after it is made.
    static let decoder = makeDecoder()

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }
}
