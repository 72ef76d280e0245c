import Foundation
import RecordCodable

/// Turns a record into the bytes the journal keeps, and back: its CloudKit Web Services JSON,
/// through `Record`'s `Codable` conformance.
///
/// The one place where the store meets a JSON coder, so that switching to a faster one is one
/// line here (the package's `RecordJSONEncoder` and `RecordJSONDecoder`, once they exist, write
/// the same bytes). What CloudKit's JSON leaves out — a local asset's file, the digits of a date
/// beyond the millisecond — is kept beside it (``LocalFacts``).
enum RecordWireForm {
    static func bytes(of record: Record) throws -> Data {
        try JSONEncoder().encode(record)
    }

    static func record(from bytes: Data) throws -> Record {
        try JSONDecoder().decode(Record.self, from: bytes)
    }
}
