import Foundation

// The decoding errors that name a record value's kind, in Foundation's wording.

extension DecodingError {
    @inline(never)
    static func typeMismatch(_ type: Any.Type, found value: RecordValue, at path: CodingPath) -> DecodingError {
        .typeMismatch(
            type,
            Context(
                codingPath: path.keys,
                debugDescription: "Expected to decode \(type) but found \(value.kindDescription) instead."))
    }
}

extension RecordValue {
    /// The value's kind as an error message names it: "a string", "a list".
    var kindDescription: String {
        switch self {
        case .string: "a string"
        case .int64: "an integer"
        case .double: "a double"
        case .bytes: "bytes"
        case .date: "a date"
        case .asset: "an asset"
        case .reference: "a reference"
        case .location: "a location"
        case .list: "a list"
        }
    }
}
