import Foundation
import RecordCodable

/// A record in the form the journal keeps it: its CloudKit JSON, and beside it what the JSON
/// leaves out. It is decoded only when someone reads the record.
struct EncodedRecord: Hashable {
    var json: Data
    var facts: LocalFacts

    init(_ record: Record) throws {
        json = try RecordWireForm.bytes(of: record)
        facts = LocalFacts(of: record)
    }

    init(json: Data, facts: LocalFacts) {
        self.json = json
        self.facts = facts
    }

    /// The record, as it was saved under `key`.
    ///
    /// A record is kept under the key of its own type and a name equal to its own (as `String`
    /// compares them: a name in another Unicode normalisation is the same key). JSON that names
    /// another record can only be damage that its frame's checksum did not catch: it is an error,
    /// rather than a record that a save or a request would put in another's place. The one record
    /// without a type is a server's deletion marker, kept as the server sends it, without one: it
    /// is read under its key's type.
    func decoded(as key: RecordKey) throws -> Record {
        try Self.checked(try RecordWireForm.record(from: json), as: key, facts: facts)
    }

    /// A record's JSON as the array of bytes the decoder reads, and its facts: what a reader that
    /// decodes the record at once takes from the journal, rather than the `Data` that
    /// ``EncodedRecord`` keeps, which the decoder would copy again.
    struct Text {
        var json: ContiguousArray<UInt8>
        var facts: LocalFacts

        /// The record, as ``EncodedRecord/decoded(as:)`` reads it from the same bytes.
        func decoded(as key: RecordKey) throws -> Record {
            try EncodedRecord.checked(try RecordWireForm.record(fromText: json), as: key, facts: facts)
        }
    }

    /// `read`, the record read from the JSON kept under `key`, checked to be that key's record,
    /// with `facts` put back; see ``decoded(as:)``.
    private static func checked(_ read: Record, as key: RecordKey, facts: LocalFacts) throws -> Record {
        var record = read
        if record.recordType.isEmpty, record.metadata?.deleted == true { record.recordType = key.recordType }
        guard record.recordName == key.recordName, record.recordType == key.recordType else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [],
                    debugDescription:
                        "The store keeps record '\(key.recordName)' of type '\(key.recordType)' with the JSON of "
                        + "record '\(record.recordName)' of type '\(record.recordType)': the journal is damaged."))
        }
        facts.restore(into: &record)
        return record
    }

    /// The values of the fields `names` that the record has, as ``decoded(as:)`` gives them, read
    /// without building the record's other fields when its JSON allows: what an index of a few
    /// fields reads of every record.
    func fieldValues(_ names: [String], as key: RecordKey) throws -> [String: RecordValue] {
        guard let read = RecordWireForm.fieldValues(names, from: json), read.recordName == key.recordName,
            read.recordType == key.recordType
        else {
            // Read whole: the record's own values, or its error.
            let fields = try decoded(as: key).fields
            return fields.filter { names.contains($0.key) }
        }
        var values = read.values
        facts.restore(into: &values)
        return values
    }

    /// Whether this is the server's record of a deletion, read as ``decoded(as:)`` reads it.
    func isDeletionMarker(as key: RecordKey) throws -> Bool {
        try decoded(as: key).metadata?.deleted == true
    }
}
