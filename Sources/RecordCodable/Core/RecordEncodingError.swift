import Foundation

/// An error that only a record has: everything else ``RecordEncoder`` reports as Foundation's
/// `EncodingError`.
public enum RecordEncodingError: Error, Hashable, Sendable {
    /// The record's ``Record/encodedSize`` exceeds the encoder's
    /// ``RecordEncoder/maximumRecordSize``.
    ///
    /// - Parameters:
    ///   - size: The record's size in bytes.
    ///   - limit: The largest size the encoder accepts.
    ///   - heaviestFields: The names of the largest fields, largest first (at most three).
    ///
    /// Move large content out of the record: a property whose type conforms to
    /// ``RecordAssetValue`` is stored as an asset, a file beside the record that does not count
    /// against the limit.
    case recordTooLarge(size: Int, limit: Int, heaviestFields: [String])
}

extension RecordEncodingError: LocalizedError, CustomStringConvertible {
    /// The error's description, for people.
    public var errorDescription: String? { description }

    /// What went wrong: the record's size, the limit, and the largest fields.
    public var description: String {
        switch self {
        case .recordTooLarge(let size, let limit, let heaviestFields):
            let fields = heaviestFields.map { "'\($0)'" }.joined(separator: ", ")
            return "The record is \(size) bytes, over the limit of \(limit) bytes. "
                + "Its largest fields are \(fields). Store large values as assets: "
                + "make their types conform to RecordAssetValue."
        }
    }

    /// How to make the record fit.
    public var recoverySuggestion: String? {
        "Make the largest values' types conform to RecordAssetValue, so that they are stored as "
            + "assets beside the record, or raise RecordEncoder.maximumRecordSize if the store allows it."
    }
}
