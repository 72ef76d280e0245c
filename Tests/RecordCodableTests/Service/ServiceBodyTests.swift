import Foundation
import Testing

@testable import RecordCodable

/// The request and response bodies of `records/modify`, `records/lookup` and `records/query`.
@Suite("Service bodies")
struct ServiceBodyTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    private func encode(_ value: some Encodable) throws -> String {
        String(decoding: try WireFormatTests.goldenEncoder().encode(value), as: UTF8.self)
    }

    // Apple's documented examples (CloudKit Web Services Reference, "Modifying Records"), with the
    // missing commas and trailing commas of the printed listings corrected.

    static let appleCreateExample = """
        {
        "operations" : [{
        "operationType" : "create",
        "record" : {
        "recordType" : "Artist",
        "fields" : {
        "firstName" : {"value" : "Mei"},
        "lastName" : {"value" : "Chen"}
        },
        "recordName" : "Mei Chen"
        }
        }]
        }
        """

    static let appleUpdateExample = """
        {
        "operations" : [{
        "operationType" : "update",
        "record" : {
        "fields" : {
        "width": {"value": 18},
        "height": {"value": 24}
        },
        "recordName" : "101",
        "recordChangeTag" : "e"
        }
        }]
        }
        """

    /// Apple's "Uploading Assets" example response: a record saved with `desiredKeys: []`.
    static let appleCreateResponse = """
        {
        "records": [{
        "recordName" : "4c016e24-c397-4c9d-81d6-dee3e3a48bb0",
        "recordChangeTag" : "1e",
        "created" : {
        "timestamp" : 1422312944104,
        "userRecordName" : "_9a065b60313a5937e75e03ed8e8f383d",
        "deviceID" : "iCloud"
        },
        "modified" : {
        "timestamp" : 1422312944104,
        "userRecordName" : "_9a065b60313a5937e75e03ed8e8f383d",
        "deviceID" : "iCloud"
        }
        }]
        }
        """

    @Test("Apple's create example")
    func appleCreate() throws {
        let request = try decode(RecordsModifyRequest.self, Self.appleCreateExample)
        #expect(request.operations.count == 1)
        let operation = try #require(request.operations.first)
        #expect(operation.operationType == .create)
        #expect(
            operation.record
                == Record(
                    recordType: "Artist", recordName: "Mei Chen",
                    fields: ["firstName": .string("Mei"), "lastName": .string("Chen")]))
        struct Artist: Codable, Equatable {
            var id: String
            var firstName: String
            var lastName: String
        }
        #expect(
            try RecordDecoder().decode(Artist.self, from: operation.record)
                == Artist(id: "Mei Chen", firstName: "Mei", lastName: "Chen"))
    }

    @Test("Apple's update example")
    func appleUpdate() throws {
        let request = try decode(RecordsModifyRequest.self, Self.appleUpdateExample)
        let operation = try #require(request.operations.first)
        #expect(operation.operationType == .update)
        #expect(operation.record.recordName == "101")
        #expect(operation.record.metadata?.changeTag == "e")
        #expect(operation.record.fields == ["width": .int64(18), "height": .int64(24)])
        struct Artwork: Codable, Equatable {
            var width: Double
            var height: Double
        }
        #expect(try RecordDecoder().decode(Artwork.self, from: operation.record) == Artwork(width: 18, height: 24))
    }

    @Test("Apple's response to a create, with created and modified")
    func appleCreateResponse() throws {
        let response = try decode(RecordsModifyResponse.self, Self.appleCreateResponse)
        let record = try #require(response.records.first?.record)
        #expect(record.recordName == "4c016e24-c397-4c9d-81d6-dee3e3a48bb0")
        let stamp = RecordMetadata.Stamp(
            timestamp: Date(timeIntervalSince1970: 1_422_312_944.104),
            userRecordName: "_9a065b60313a5937e75e03ed8e8f383d",
            deviceID: "iCloud")
        #expect(record.metadata == RecordMetadata(changeTag: "1e", created: stamp, modified: stamp))
    }

    @Test("A typed response with created and modified decodes into a model with its metadata")
    func typedResponse() throws {
        let response = try decode(
            RecordsModifyResponse.self,
            #"""
            {"records":[{"recordName":"N1","recordType":"Note","recordChangeTag":"k3",
             "fields":{"title":{"value":"Hello","type":"STRING"},"pinned":{"value":1,"type":"INT64"},
                       "tags":{"value":["a"],"type":"STRING_LIST"},"due":{"value":1699920000123,"type":"TIMESTAMP"}},
             "created":{"timestamp":1699920000000,"userRecordName":"_u","deviceID":"2"},
             "modified":{"timestamp":1699920000500,"userRecordName":"_u","deviceID":"3"}}]}
            """#)
        struct Note: Codable, Equatable {
            var id: String
            var title: String
            var pinned: Bool
            var tags: [String]
            var due: Date
            var metadata: RecordMetadata?
        }
        let note = try RecordDecoder().decode(Note.self, from: try #require(response.records.first?.record))
        #expect(note.title == "Hello")
        #expect(note.pinned)
        #expect(note.due == Date(timeIntervalSince1970: 1_699_920_000.123))
        #expect(note.metadata?.changeTag == "k3")
        #expect(note.metadata?.created?.timestamp == Date(timeIntervalSince1970: 1_699_920_000))
        #expect(note.metadata?.modified?.deviceID == "3")
        // Saving it again is an update that carries the server's change tag.
        let request = try RecordsModifyRequest(saving: [note])
        #expect(request.operations.first?.operationType == .update)
        #expect(try encode(request).contains(#""recordChangeTag":"k3""#))
    }

    @Test("Per-record errors in a response")
    func perRecordErrors() throws {
        let response = try decode(
            RecordsModifyResponse.self,
            #"""
            {"records":[
              {"recordName":"ok","recordType":"T","recordChangeTag":"1"},
              {"recordName":"late","reason":"record changed","serverErrorCode":"CONFLICT","uuid":"u-1"},
              {"recordName":"busy","serverErrorCode":"THROTTLED","retryAfter":5},
              {"serverErrorCode":"SOMETHING_NEW","reason":"a code this package has not heard of"}
            ]}
            """#)
        #expect(response.records.count == 4)
        #expect(response.records[0].record?.recordName == "ok")
        let conflict = try #require(response.records[1].error)
        #expect(conflict.serverErrorCode == .conflict)
        #expect(conflict.recordName == "late")
        #expect(conflict.reason == "record changed")
        #expect(conflict.uuid == "u-1")
        #expect(conflict.description == "Record 'late' failed with CONFLICT: record changed")
        #expect(response.records[2].error?.retryAfter == 5)
        #expect(response.records[3].error?.serverErrorCode.rawValue == "SOMETHING_NEW")
        #expect(throws: RecordServerError.self) { try response.records[1].get() }
        #expect(try decode(RecordsModifyResponse.self, encode(response)) == response)
    }

    @Test func lookupAndQueryResponses() throws {
        let lookup = try decode(
            RecordsLookupResponse.self,
            #"{"records":[{"recordName":"a","recordType":"T","fields":{}},{"recordName":"b","serverErrorCode":"NOT_FOUND"}]}"#
        )
        #expect(lookup.records.map(\.record?.recordName) == ["a", nil])
        #expect(lookup.records[1].error?.serverErrorCode == .notFound)
        #expect(try decode(RecordsLookupResponse.self, encode(lookup)) == lookup)

        let query = try decode(
            RecordsQueryResponse.self,
            #"{"records":[{"recordName":"a","recordType":"T"}],"continuationMarker":"AbC="}"#)
        #expect(query.continuationMarker == "AbC=")
        #expect(query.records.count == 1)
        let lastPage = try decode(RecordsQueryResponse.self, #"{"records":[]}"#)
        #expect(lastPage.continuationMarker == nil)
        #expect(
            try encode(query)
                == #"{"continuationMarker":"AbC=","records":[{"fields":{},"recordName":"a","recordType":"T"}]}"#)
        // A page without `records` is empty.
        #expect(try decode(RecordsQueryResponse.self, "{}").records.isEmpty)
        expectDecodingError("typeMismatch", at: "records") {
            _ = try decode(RecordsQueryResponse.self, #"{"records":5}"#)
        }
    }

    // MARK: Requests

    @Test("The exact body of a request with every option")
    func requestGolden() throws {
        let record = Record(
            recordType: "Note", recordName: "N1", fields: ["title": .string("Hi")],
            metadata: RecordMetadata(changeTag: "t1"))
        let request = RecordsModifyRequest(
            operations: [
                RecordOperation(.create, record: record),
                RecordOperation(.forceUpdate, record: record, desiredKeys: ["title"]),
                RecordOperation(.delete, record: record),
                RecordOperation(.forceDelete, record: record),
            ],
            zoneID: RecordZoneID(zoneName: "Notes"), atomic: true, desiredKeys: [])
        let body = try encode(request)
        #expect(
            body == #"{"atomic":true,"desiredKeys":[],"operations":["#
                + #"{"operationType":"create","record":{"fields":{"title":{"type":"STRING","value":"Hi"}},"recordChangeTag":"t1","recordName":"N1","recordType":"Note"}},"#
                + #"{"desiredKeys":["title"],"operationType":"forceUpdate","record":{"fields":{"title":{"type":"STRING","value":"Hi"}},"recordChangeTag":"t1","recordName":"N1","recordType":"Note"}},"#
                + #"{"operationType":"delete","record":{"recordChangeTag":"t1","recordName":"N1"}},"#
                + #"{"operationType":"forceDelete","record":{"recordName":"N1"}}],"zoneID":{"zoneName":"Notes"}}"#)
    }

    @Test("Every operation type round-trips")
    func operationTypes() throws {
        let record = Record(
            recordType: "T", recordName: "n", fields: ["a": .int64(1)], metadata: RecordMetadata(changeTag: "e"))
        for type in RecordOperation.OperationType.allCases {
            let request = RecordsModifyRequest(operations: [RecordOperation(type, record: record)])
            let decoded = try decode(RecordsModifyRequest.self, encode(request))
            #expect(decoded.operations.first?.operationType == type)
            #expect(decoded.operations.first?.record.recordName == "n")
        }
        expectDecodingError("dataCorrupted", at: "operations.Index 0.operationType") {
            _ = try decode(
                RecordsModifyRequest.self, #"{"operations":[{"operationType":"upsert","record":{"recordName":"n"}}]}"#)
        }
    }

    @Test("A save request from models: create for new records, update for fetched ones")
    func savingModels() throws {
        struct Task: Codable {
            var id: String
            var title: String
            var metadata: RecordMetadata?
        }
        let tasks = [
            Task(id: "t1", title: "New", metadata: nil),
            Task(id: "t2", title: "Fetched", metadata: RecordMetadata(changeTag: "c2")),
        ]
        let request = try RecordsModifyRequest(saving: tasks, zoneID: RecordZoneID(zoneName: "Tasks"), atomic: false)
        #expect(request.operations.map(\.operationType) == [.create, .update])
        #expect(request.operations.map(\.record.recordName) == ["t1", "t2"])
        #expect(request.zoneID == RecordZoneID(zoneName: "Tasks"))
        #expect(request.atomic == false)
        let forced = try RecordsModifyRequest(saving: tasks, operationType: .forceReplace)
        #expect(forced.operations.map(\.operationType) == [.forceReplace, .forceReplace])
        #expect(RecordOperation(saving: request.operations[1].record).operationType == .update)
    }

    @Test("A model that cannot be encoded stops the request with the encoder's error")
    func savingInvalidModel() throws {
        struct Bad: Codable {
            var id: String
            var value: UInt64
        }
        expectEncodingError(at: "value") { _ = try RecordsModifyRequest(saving: [Bad(id: "b", value: .max)]) }
    }

    @Test("A request's JSON is the same whatever the JSON encoder's strategies")
    func requestIndependentOfStrategies() throws {
        let request = try RecordsModifyRequest(
            saving: [IdentityTests.Note(id: "n", title: "t")],
            zoneID: RecordZoneID(zoneName: "Z", ownerRecordName: "_o"))
        let plain = try encode(request)
        let encoder = WireFormatTests.goldenEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(String(decoding: try encoder.encode(request), as: UTF8.self) == plain)
        #expect(plain.contains(#""zoneID":{"ownerRecordName":"_o","zoneName":"Z"}"#))
    }

    @Test func serverErrorCodable() throws {
        let error = RecordServerError(recordName: "n", reason: "r", serverErrorCode: .zoneNotFound, retryAfter: 1.5)
        #expect(try decode(RecordServerError.self, encode(error)) == error)
        #expect(
            try encode(error) == #"{"reason":"r","recordName":"n","retryAfter":1.5,"serverErrorCode":"ZONE_NOT_FOUND"}"#
        )
    }

    @Test("Responses built by a server: each body's JSON reads back equal, failures and all")
    func responsesBuiltByAServer() throws {
        let saved = Record(recordType: "T", recordName: "a", fields: ["n": .int64(1)])
        let failure = RecordServerError(recordName: "b", reason: "gone", serverErrorCode: .notFound)
        let results: [RecordResult] = [.success(saved), .failure(failure)]
        #expect(results.map(\.record) == [saved, nil])
        #expect(results.map(\.error) == [nil, failure])
        #expect(try results[0].get() == saved)
        #expect(failure.errorDescription == "Record 'b' failed with NOT_FOUND: gone")
        #expect(
            RecordServerError(serverErrorCode: .throttled).errorDescription == "The record failed with THROTTLED.")

        let modify = RecordsModifyResponse(records: results)
        #expect(try decode(RecordsModifyResponse.self, encode(modify)) == modify)
        let lookup = RecordsLookupResponse(records: results)
        #expect(try decode(RecordsLookupResponse.self, encode(lookup)) == lookup)
        let page = RecordsQueryResponse(records: [.success(saved)], continuationMarker: "next")
        #expect(try decode(RecordsQueryResponse.self, encode(page)) == page)
        #expect(RecordsQueryResponse(records: []).continuationMarker == nil)
        #expect(
            try encode(modify)
                == #"{"records":[{"fields":{"n":{"type":"INT64","value":1}},"recordName":"a","recordType":"T"},"#
                + #"{"reason":"gone","recordName":"b","serverErrorCode":"NOT_FOUND"}]}"#)
    }

    @Test("An operation encodes alone as the dictionary it is inside a request")
    func operationAlone() throws {
        let record = Record(recordType: "T", recordName: "n", fields: ["a": .int64(1)])
        let operation = RecordOperation(.forceUpdate, record: record, desiredKeys: ["a"])
        let alone = try encode(operation)
        #expect(try encode(RecordsModifyRequest(operations: [operation])) == #"{"operations":[\#(alone)]}"#)
        let decoded = try decode(RecordOperation.self, alone)
        #expect(decoded.operationType == .forceUpdate)
        #expect(decoded.record == record)
        #expect(decoded.desiredKeys == ["a"])
        expectDecodingError("keyNotFound", at: "record") {
            _ = try decode(RecordOperation.self, #"{"operationType":"create"}"#)
        }
    }
}
