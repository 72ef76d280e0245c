import Foundation
import Testing

@testable import RecordCodable

/// Coding helpers for the Web Services body suites (`ServerBodies*Tests`).
enum ServerBodyCoding {
    /// The body's JSON as `JSONEncoder` writes it with sorted keys: the exact bytes to compare.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    /// Checks that `value` reads back equal from its JSON, and that the JSON is the same whatever
    /// key strategy the coders have; returns the JSON.
    @discardableResult
    static func roundTrip<T: Codable & Equatable>(
        _ value: T, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let json = try json(value)
        #expect(try decode(T.self, json) == value, sourceLocation: sourceLocation)
        let snakeCase = JSONEncoder()
        snakeCase.outputFormatting = [.sortedKeys]
        snakeCase.keyEncodingStrategy = .convertToSnakeCase
        #expect(String(decoding: try snakeCase.encode(value), as: UTF8.self) == json, sourceLocation: sourceLocation)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { _ in AnyCodingKey(stringValue: "renamed") }
        #expect(try decoder.decode(T.self, from: Data(json.utf8)) == value, sourceLocation: sourceLocation)
        return json
    }
}

/// Saving some models and deleting others in one `records/modify` request.
@Suite("Server bodies: saves and deletes in one request")
struct ServerBodiesModifyTests {
    struct Note: Codable, Equatable {
        var id: String
        var title: String
        var metadata: RecordMetadata?
    }

    @Test("Saves come first, then deletes that carry only the name and change tag")
    func savingAndDeleting() throws {
        let edited = Note(id: "n1", title: "Edited", metadata: RecordMetadata(changeTag: "c1"))
        let fresh = Note(id: "n2", title: "New")
        let fetched = Note(id: "n3", title: "Old", metadata: RecordMetadata(changeTag: "c3"))
        let unfetched = Note(id: "n4", title: "Never fetched")
        let request = try RecordsModifyRequest(saving: [edited, fresh], deleting: [fetched, unfetched], atomic: true)
        #expect(request.operations.map(\.operationType) == [.update, .create, .delete, .forceDelete])
        #expect(
            try ServerBodyCoding.json(request)
                == #"{"atomic":true,"operations":["#
                + #"{"operationType":"update","record":{"fields":{"title":{"type":"STRING","value":"Edited"}},"#
                + #""recordChangeTag":"c1","recordName":"n1","recordType":"Note"}},"#
                + #"{"operationType":"create","record":{"fields":{"title":{"type":"STRING","value":"New"}},"#
                + #""recordName":"n2","recordType":"Note"}},"#
                + #"{"operationType":"delete","record":{"recordChangeTag":"c3","recordName":"n3"}},"#
                + #"{"operationType":"forceDelete","record":{"recordName":"n4"}}]}"#)
        // A delete keeps the record's type, which the request does not send.
        #expect(request.operations[2].record.recordType == "Note")
    }

    @Test("A request that only deletes")
    func onlyDeleting() throws {
        let request = try RecordsModifyRequest(deleting: [Note(id: "gone", title: "", metadata: .init(changeTag: "t"))])
        #expect(
            try ServerBodyCoding.json(request)
                == #"{"operations":[{"operationType":"delete","record":{"recordChangeTag":"t","recordName":"gone"}}]}"#)
    }

    @Test("A model to delete without an identifier names no record: an error, not a delete of a made-up name")
    func deletedModelWithoutIdentifier() throws {
        struct Draft: Codable {
            var title: String
        }
        let error = expectEncodingError(at: "") { _ = try RecordsModifyRequest(deleting: [Draft(title: "x")]) }
        #expect(
            error?.context?.debugDescription.hasPrefix("A model of record type 'Draft' to delete has no identifier")
                == true)
        expectEncodingError(at: "") {
            _ = try RecordsModifyRequest(saving: [Draft(title: "kept")], deleting: [Draft(title: "x")])
        }
        // Saved, a model without an identifier is still created under a new name.
        #expect(try RecordsModifyRequest(saving: [Draft(title: "kept")]).operations.count == 1)
    }

    @Test("A deleted record's zone is the request's zone, as a saved record's is")
    func deletedRecordsZone() throws {
        let zone = RecordZoneID(zoneName: "Notes", ownerRecordName: "_o")
        let fetched = Record(
            recordType: "Note", recordName: "n1", metadata: RecordMetadata(changeTag: "c1", zoneID: zone))
        let request = RecordsModifyRequest(savingRecords: [], deletingRecords: [fetched])
        #expect(
            try ServerBodyCoding.json(request)
                == #"{"operations":[{"operationType":"delete","record":{"recordChangeTag":"c1","recordName":"n1"}}],"#
                + #""zoneID":{"ownerRecordName":"_o","zoneName":"Notes"}}"#)

        // Records of two zones cannot share a request, deleted or saved.
        let other = Record(recordType: "Note", recordName: "n2", metadata: RecordMetadata(zoneID: .init(zoneName: "B")))
        expectEncodingError(at: "operations.Index 1") {
            _ = try ServerBodyCoding.json(RecordsModifyRequest(savingRecords: [fetched], deletingRecords: [other]))
        }
    }

    @Test("A model that cannot be encoded stops the request, deleted or saved")
    func unencodableDeletedModel() throws {
        struct Bad: Codable {
            var id: String
            var value: UInt64
        }
        expectEncodingError(at: "value") {
            _ = try RecordsModifyRequest(saving: [Note(id: "a", title: "")], deleting: [Bad(id: "b", value: .max)])
        }
    }
}
