import Foundation
import Testing

@testable import RecordCodable
@testable import RecordStoreKit

@Suite("Engine: a record read from the journal keeps its fields as read")
struct EncodedRecordFieldsTests {
    @Test("A record without local facts reads back with its fields as read, not as a dictionary")
    func decodedKeepsFieldsAsRead() throws {
        let record = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("Hello"), "n": .int64(3)])
        let encoded = try EncodedRecord(record)
        #expect(encoded.facts.isEmpty)
        let read = try encoded.decoded(as: RecordKey(recordType: "Note", recordName: "N1"))
        #expect(read == record)
        let keepsFieldsAsRead = if case .read = read.fieldStorage { true } else { false }
        #expect(keepsFieldsAsRead, "LocalFacts.restore(into:) took the record's fields inout, building the dictionary")
    }
}
