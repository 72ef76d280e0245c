import Foundation
import RecordCodable

/// A stored record that does not decode as the model asked for, and why.
///
/// ``RecordStore/retrieveEach(_:inZone:)`` reads the records of a model type one by one: a
/// record that an older or newer version of the app wrote in another shape, or that the server
/// sent with a field the model cannot read, becomes one of these, and the other models read as
/// usual.
///
/// ```swift
/// for result in try store.retrieveEach(Note.self) {
///     switch result {
///     case .success(let note): show(note)
///     case .unreadable(let unreadable): log("Skipped \(unreadable.key): \(unreadable.error)")
///     }
/// }
/// ```
public struct UnreadableModel: Error, Sendable, CustomStringConvertible {
    /// The key of the record that does not decode.
    public var key: RecordKey

    /// Why it does not decode, with the coding path of the value at fault.
    public var error: DecodingError

    /// A record that does not decode, and why.
    public init(key: RecordKey, error: DecodingError) {
        self.key = key
        self.error = error
    }

    /// The record's key and the reason it does not decode.
    public var description: String {
        "Record \(key) does not decode: \(error.pathAndDescription)"
    }

    /// ``error``, its message naming the record: what a call that reads models all or none
    /// throws, so that the record at fault can be found.
    var errorNamingTheRecord: DecodingError {
        error.withContext { context in
            DecodingError.Context(
                codingPath: context.codingPath, debugDescription: "Record \(key): \(context.debugDescription)",
                underlyingError: context.underlyingError)
        }
    }
}
