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

    /// The record, as it was saved.
    func decoded() throws -> Record {
        var record = try RecordWireForm.record(from: json)
        facts.restore(into: &record)
        return record
    }
}
