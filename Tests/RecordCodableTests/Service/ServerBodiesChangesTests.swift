import Foundation
import Testing

@testable import RecordCodable

/// The bodies of `changes/zone` and `changes/database`, beside `records/changes`.
@Suite("Server bodies: changes/zone and changes/database")
struct ServerBodiesChangesTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try ServerBodyCoding.decode(type, json)
    }

    /// Reads `json` with `RecordJSONDecoder` too, and expects the same value.
    private func expectFastRead<T: Decodable & Equatable>(
        _ value: T, from json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try RecordJSONDecoder().decode(T.self, from: Data(json.utf8)) == value, sourceLocation: sourceLocation)
    }

    static let owner = "_9a065b60313a5937e75e03ed8e8f383d"

    // MARK: changes/zone

    @Test("A changes/zone request: a zone each, with its token, limit and fields")
    func zoneChangesRequest() throws {
        let json = #"""
            {"zones": [
              {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_9a065b60313a5937e75e03ed8e8f383d"},
               "syncToken": "AQAAAAAAAwmV", "resultsLimit": 100, "desiredKeys": ["title", "body"]},
              {"zoneID": {"zoneName": "Tags"}}
            ]}
            """#
        let request = try decode(ZoneChangesRequest.self, json)
        let expected = ZoneChangesRequest(zones: [
            RecordsChangesRequest(
                zoneID: RecordZoneID(zoneName: "Notes", ownerRecordName: Self.owner), syncToken: "AQAAAAAAAwmV",
                resultsLimit: 100, desiredKeys: ["title", "body"]),
            RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "Tags")),
        ])
        #expect(request == expected)
        try expectFastRead(expected, from: json)
        #expect(
            try ServerBodyCoding.roundTrip(expected)
                == #"{"zones":[{"desiredKeys":["title","body"],"resultsLimit":100,"syncToken":"AQAAAAAAAwmV","#
                + #""zoneID":{"ownerRecordName":"\#(Self.owner)","zoneName":"Notes"}},"#
                + #"{"zoneID":{"zoneName":"Tags"}}]}"#)
        expectSameBytes(expected)
        expectDecodingError("keyNotFound", at: "zones") { _ = try decode(ZoneChangesRequest.self, "{}") }
        expectDecodingError("keyNotFound", at: "zones.Index 0.zoneID") {
            _ = try decode(ZoneChangesRequest.self, #"{"zones":[{"syncToken":"t"}]}"#)
        }
    }

    static let zoneChangesResponse = #"""
        {"zones": [
          {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_9a065b60313a5937e75e03ed8e8f383d"},
           "syncToken": "AQAAAAAAAwmW", "moreComing": true,
           "records": [
             {"recordName": "N1", "recordType": "Note", "recordChangeTag": "e",
              "fields": {"title": {"value": "Hello", "type": "STRING"}},
              "created": {"timestamp": 1422312944104, "userRecordName": "_9a065b60313a5937e75e03ed8e8f383d",
                          "deviceID": "2"}},
             {"recordName": "N2", "deleted": true}
           ]},
          {"zoneID": {"zoneName": "Gone"}, "serverErrorCode": "ZONE_NOT_FOUND", "reason": "zone not found",
           "uuid": "6F9619FF"}
        ]}
        """#

    @Test("A changes/zone answer: a page per zone, read record by record, and a zone's own error")
    func zoneChangesResponse() throws {
        let response = try decode(ZoneChangesResponse.self, Self.zoneChangesResponse)
        try expectFastRead(response, from: Self.zoneChangesResponse)
        #expect(response.zones.count == 2)
        let page = try #require(response.zones[0].changes)
        let notes = RecordZoneID(zoneName: "Notes", ownerRecordName: Self.owner)
        #expect(response.zones[0].zoneID == notes)
        #expect(page.syncToken == "AQAAAAAAAwmW")
        #expect(page.moreComing)
        #expect(page.records.map(\.recordName) == ["N1", "N2"])
        #expect(page.records[0].record?["title"] == .string("Hello"))
        #expect(page.records[0].record?.metadata?.zoneID == notes)
        #expect(page.records[1].record?.metadata?.deleted == true)
        let error = try #require(response.zones[1].error)
        #expect(error.serverErrorCode == .zoneNotFound)
        #expect(response.zones[1].zoneID == RecordZoneID(zoneName: "Gone"))
        #expect(response.zones[1].changes == nil)
        #expect(try response.zones[0].get() == page)
        #expect(throws: error) { try response.zones[1].get() }
        try ServerBodyCoding.roundTrip(response)
        expectSameBytes(response)
        #expect(try decode(ZoneChangesResponse.self, "{}") == ZoneChangesResponse(zones: []))
        expectDecodingError("typeMismatch", at: "zones.Index 0.moreComing") {
            _ = try decode(ZoneChangesResponse.self, #"{"zones":[{"zoneID":{"zoneName":"z"},"moreComing":1}]}"#)
        }
    }

    @Test("The next changes/zone page asks again only the zones with more, each with its new token")
    func zoneChangesNextPage() throws {
        let request = ZoneChangesRequest(zones: [
            RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "Notes"), syncToken: "t0", resultsLimit: 10),
            RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "Gone")),
            RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "Done"), syncToken: "d0"),
        ])
        let response = try decode(ZoneChangesResponse.self, Self.zoneChangesResponse)
        let next = try #require(request.nextPage(after: response))
        #expect(
            next.zones == [
                RecordsChangesRequest(
                    zoneID: RecordZoneID(zoneName: "Notes", ownerRecordName: Self.owner), syncToken: "AQAAAAAAAwmW",
                    resultsLimit: 10)
            ])
        let done = ZoneChangesResponse(zones: [
            .success(RecordsChangesResponse(records: [], syncToken: "t1", zoneID: RecordZoneID(zoneName: "Notes")))
        ])
        #expect(request.nextPage(after: done) == nil)
        // A zone of another owner than the one asked for is another zone.
        let other = ZoneChangesRequest(zones: [
            RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "Notes", ownerRecordName: "_bob"), syncToken: "t0")
        ])
        #expect(other.nextPage(after: response) == nil)
    }

    // MARK: changes/database

    @Test("A changes/database request and answer: the zones that changed, deleted ones marked")
    func databaseChanges() throws {
        let requestJSON = #"{"syncToken": "AQAAAAAAAAAB", "resultsLimit": 50}"#
        let request = try decode(DatabaseChangesRequest.self, requestJSON)
        #expect(request == DatabaseChangesRequest(syncToken: "AQAAAAAAAAAB", resultsLimit: 50))
        try expectFastRead(request, from: requestJSON)
        #expect(try ServerBodyCoding.roundTrip(request) == #"{"resultsLimit":50,"syncToken":"AQAAAAAAAAAB"}"#)
        #expect(try ServerBodyCoding.roundTrip(DatabaseChangesRequest()) == "{}")
        expectSameBytes(request)

        let responseJSON = #"""
            {"syncToken": "AQAAAAAAAAAC", "moreComing": true,
             "zones": [
               {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_9a065b60313a5937e75e03ed8e8f383d",
                           "zoneType": "REGULAR_CUSTOM_ZONE"}},
               {"zoneID": {"zoneName": "Old", "ownerRecordName": "_9a065b60313a5937e75e03ed8e8f383d"},
                "deleted": true}
             ]}
            """#
        let response = try decode(DatabaseChangesResponse.self, responseJSON)
        let expected = DatabaseChangesResponse(
            zones: [
                ChangedZone(
                    zoneID: RecordZoneID(zoneName: "Notes", ownerRecordName: Self.owner),
                    zoneType: "REGULAR_CUSTOM_ZONE"),
                ChangedZone(zoneID: RecordZoneID(zoneName: "Old", ownerRecordName: Self.owner), deleted: true),
            ], syncToken: "AQAAAAAAAAAC", moreComing: true)
        #expect(response == expected)
        try expectFastRead(expected, from: responseJSON)
        #expect(
            try ServerBodyCoding.roundTrip(response)
                == #"{"moreComing":true,"syncToken":"AQAAAAAAAAAC","zones":["#
                + #"{"zoneID":{"ownerRecordName":"\#(Self.owner)","zoneName":"Notes","zoneType":"REGULAR_CUSTOM_ZONE"}},"#
                + #"{"deleted":true,"zoneID":{"ownerRecordName":"\#(Self.owner)","zoneName":"Old"}}]}"#)
        expectSameBytes(response)
        #expect(
            request.nextPage(after: response) == DatabaseChangesRequest(syncToken: "AQAAAAAAAAAC", resultsLimit: 50))
        #expect(request.nextPage(after: DatabaseChangesResponse(zones: [], syncToken: "AQAAAAAAAAAC")) == nil)
        #expect(try decode(DatabaseChangesResponse.self, "{}") == DatabaseChangesResponse(zones: []))
        expectDecodingError("keyNotFound", at: "zones.Index 0.zoneID") {
            _ = try decode(DatabaseChangesResponse.self, #"{"zones":[{"deleted":true}]}"#)
        }
    }
}
