import Foundation
import RecordCodable

/// Turns a record into the bytes the journal keeps, and back: its CloudKit Web Services JSON,
/// through the package's byte-level coders, `RecordJSONEncoder` and `RecordJSONDecoder`,
/// which write and read the same JSON as `Record`'s `Codable` conformance, several times faster.
///
/// The one place where the store meets a JSON coder. What CloudKit's JSON leaves out — a local
/// asset's file, the digits of a date beyond the millisecond — is kept beside it (``LocalFacts``).
enum RecordWireForm {
    static func bytes(of record: Record) throws -> Data {
        try RecordJSONEncoder().encode(record)
    }

    static func record(from bytes: Data) throws -> Record {
        try RecordJSONDecoder().decode(Record.self, from: bytes)
    }

    /// The record whose JSON is `text`, as ``record(from:)`` reads the same bytes.
    static func record(fromText text: ContiguousArray<UInt8>) throws -> Record {
        try RecordJSONDecoder.record(fromText: text)
    }

    /// The name, type and fields `names` of the record whose JSON is `bytes`, read without the
    /// other fields; `nil` when the record must be read whole to say (see
    /// `RecordJSONDecoder.fieldValues(_:ofRecordIn:)`).
    static func fieldValues(_ names: [String], from bytes: Data) -> RecordFieldValues? {
        RecordJSONDecoder.fieldValues(names, ofRecordIn: bytes)
    }
}
