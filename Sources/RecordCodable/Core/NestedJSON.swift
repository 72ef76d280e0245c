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

    /// Whether `error` is the JSON decoder's own report of JSON it cannot read, such as a number
    /// too large for its type or a string with a broken escape: an internal error type of
    /// Foundation's, which only its `decode(_:from:)` turns into a `DecodingError`. A type of that
    /// name can only come from Foundation, never from a model.
    static func isReadError(_ error: any Error) -> Bool {
        let typeName = String(reflecting: type(of: error))
        return typeName == "FoundationEssentials.JSONError" || typeName == "Foundation.JSONError"
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }
}
