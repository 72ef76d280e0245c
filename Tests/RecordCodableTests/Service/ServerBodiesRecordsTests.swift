import Foundation
import Testing

@testable import RecordCodable

/// The `records/query`, `records/lookup` and `records/changes` bodies.
@Suite("Server bodies: query, lookup and changes")
struct ServerBodiesRecordsTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try ServerBodyCoding.decode(type, json)
    }

    private func json(_ value: some Encodable) throws -> String {
        try ServerBodyCoding.json(value)
    }

    // MARK: records/query

    /// A query in the shape of Apple's reference (Query, Filter and Sort Descriptor dictionaries),
    /// with every key of the request.
    static let fullQuery = #"""
        {"zoneID": {"zoneName": "_defaultZone"},
         "resultsLimit": 20,
         "query": {
           "recordType": "Artwork",
           "filterBy": [
             {"comparator": "EQUALS", "fieldName": "artist", "fieldValue": {"value": "Mei Chen", "type": "STRING"}},
             {"comparator": "NEAR", "fieldName": "location", "distance": 10.5,
              "fieldValue": {"value": {"latitude": 37.33, "longitude": -122.03}, "type": "LOCATION"}}
           ],
           "sortBy": [
             {"fieldName": "title", "ascending": false},
             {"fieldName": "location", "relativeLocation": {"latitude": 37.33, "longitude": -122.03}}
           ]
         },
         "continuationMarker": "AbCd",
         "desiredKeys": ["title", "image"],
         "zoneWide": false,
         "numbersAsStrings": true}
        """#

    @Test("A query with every key reads into its values and writes back the exact body")
    func fullQueryRequest() throws {
        let request = try decode(RecordsQueryRequest.self, Self.fullQuery)
        let here = RecordLocation(latitude: 37.33, longitude: -122.03)
        #expect(
            request
                == RecordsQueryRequest(
                    query: RecordQuery(
                        recordType: "Artwork",
                        filterBy: [
                            .init(fieldName: "artist", comparator: .equals, fieldValue: .string("Mei Chen")),
                            .near("location", here, distance: 10.5),
                        ],
                        sortBy: [
                            .init(fieldName: "title", ascending: false),
                            .init(fieldName: "location", relativeLocation: here),
                        ]),
                    zoneID: RecordZoneID(zoneName: "_defaultZone"),
                    resultsLimit: 20,
                    desiredKeys: ["title", "image"],
                    zoneWide: false,
                    numbersAsStrings: true,
                    continuationMarker: "AbCd"))
        #expect(
            try ServerBodyCoding.roundTrip(request)
                == #"{"continuationMarker":"AbCd","desiredKeys":["title","image"],"numbersAsStrings":true,"#
                + #""query":{"filterBy":[{"comparator":"EQUALS","fieldName":"artist","#
                + #""fieldValue":{"type":"STRING","value":"Mei Chen"}},{"comparator":"NEAR","distance":10.5,"#
                + #""fieldName":"location","fieldValue":{"type":"LOCATION","value":{"latitude":37.33,"longitude":-122.03}}}],"#
                + #""recordType":"Artwork","sortBy":[{"ascending":false,"fieldName":"title"},"#
                + #"{"ascending":true,"fieldName":"location","relativeLocation":{"latitude":37.33,"longitude":-122.03}}]},"#
                + #""resultsLimit":20,"zoneID":{"zoneName":"_defaultZone"},"zoneWide":false}"#)
    }

    @Test("The smallest query: a record type, nothing else")
    func smallestQuery() throws {
        let request = RecordsQueryRequest(query: RecordQuery(recordType: "Artist"))
        #expect(try ServerBodyCoding.roundTrip(request) == #"{"query":{"recordType":"Artist"}}"#)
    }

    /// Every comparator of CloudKit Web Services, as CloudKit JS's `QueryFilterComparator` lists
    /// them (the Web Services reference's filter dictionary takes the same names).
    static let documentedComparators = [
        "EQUALS", "NOT_EQUALS", "LESS_THAN", "LESS_THAN_OR_EQUALS", "GREATER_THAN", "GREATER_THAN_OR_EQUALS", "NEAR",
        "CONTAINS_ALL_TOKENS", "IN", "NOT_IN", "CONTAINS_ANY_TOKENS", "LIST_CONTAINS", "LIST_CONTAINS_ANY",
        "NOT_LIST_CONTAINS", "NOT_LIST_CONTAINS_ANY", "BEGINS_WITH", "NOT_BEGINS_WITH", "LIST_MEMBER_BEGINS_WITH",
        "NOT_LIST_MEMBER_BEGINS_WITH", "LIST_CONTAINS_ALL", "NOT_LIST_CONTAINS_ALL",
    ]

    @Test("Every documented comparator has a constant")
    func comparatorConstants() {
        #expect(Set(RecordQuery.Comparator.known.map(\.rawValue)) == Set(Self.documentedComparators))
        #expect(RecordQuery.Comparator.known.count == Self.documentedComparators.count)
    }

    @Test("Each comparator is written by its name and read back", arguments: documentedComparators)
    func comparatorRoundTrip(name: String) throws {
        let value: RecordValue =
            name.contains("IN") || name.contains("ANY") || name.contains("ALL")
            ? .list([.string("a"), .string("b")]) : .string("a")
        let filter = RecordQuery.Filter(fieldName: "f", comparator: .init(rawValue: name), fieldValue: value)
        let request = RecordsQueryRequest(query: RecordQuery(recordType: "T", filterBy: [filter]))
        let json = try ServerBodyCoding.roundTrip(request)
        #expect(json.contains(#"{"comparator":"\#(name)","fieldName":"f","fieldValue":{"type":"#))
    }

    @Test("A comparator this package does not know reads as it is")
    func futureComparator() throws {
        let request = try decode(
            RecordsQueryRequest.self,
            #"{"query":{"recordType":"T","filterBy":[{"comparator":"SOUNDS_LIKE","fieldName":"f","fieldValue":{"value":"x"}}]}}"#
        )
        #expect(request.query.filterBy.first?.comparator.rawValue == "SOUNDS_LIKE")
        #expect(request.query.filterBy.first?.comparator.description == "SOUNDS_LIKE")
        #expect(request.query.filterBy.first?.fieldValue == .string("x"))
    }

    @Test("A filter's value reads as a field's: typed, inferred, encrypted or as text")
    func filterValues() throws {
        func value(_ fieldValue: String) throws -> RecordValue? {
            let body =
                #"{"query":{"recordType":"T","filterBy":[{"comparator":"EQUALS","fieldName":"f","fieldValue":"#
                + fieldValue + "}]}}"
            return try decode(RecordsQueryRequest.self, body).query.filterBy.first?.fieldValue
        }
        #expect(try value(#"{"value":42}"#) == .int64(42))
        #expect(try value(#"{"value":"42","type":"INT64"}"#) == .int64(42))
        #expect(
            try value(#"{"value":1422312944104,"type":"TIMESTAMP"}"#)
                == .date(Date(timeIntervalSince1970: 1_422_312_944.104)))
        #expect(try value(#"{"value":"aGk=","type":"ENCRYPTED_BYTES"}"#) == .bytes(Data("hi".utf8)))
        #expect(
            try value(#"{"value":{"recordName":"r1"},"type":"REFERENCE"}"#)
                == .reference(RecordReference(recordName: "r1")))
        #expect(try value(#"{"value":[1,2],"type":"INT64_LIST"}"#) == .list([.int64(1), .int64(2)]))
    }

    @Test("A single filter given as a dictionary, as iCloud's web clients send it, reads as a list of one")
    func singleFilterDictionary() throws {
        let request = try decode(
            RecordsQueryRequest.self,
            #"""
            {"resultsLimit": 1, "zoneWide": true, "zoneID": {"zoneName": "PrimarySync"},
             "query": {"recordType": "HyperionIndexCountLookup",
                       "filterBy": {"fieldName": "indexCountID", "comparator": "IN",
                                    "fieldValue": {"type": "STRING_LIST", "value": ["CPLAssetByAddedDate"]}}}}
            """#)
        #expect(
            request.query.filterBy == [
                .init(fieldName: "indexCountID", comparator: .in, fieldValue: .list([.string("CPLAssetByAddedDate")]))
            ])
        #expect(request.zoneWide == true)
        try ServerBodyCoding.roundTrip(request)
    }

    @Test("The next page is the same query with the response's marker, and there is none after the last")
    func nextPage() {
        let first = RecordsQueryRequest(query: RecordQuery(recordType: "T"), resultsLimit: 2)
        let middle = RecordsQueryResponse(records: [], continuationMarker: "m1")
        let next = first.nextPage(after: middle)
        #expect(
            next == RecordsQueryRequest(query: RecordQuery(recordType: "T"), resultsLimit: 2, continuationMarker: "m1"))
        #expect(next?.nextPage(after: RecordsQueryResponse(records: [])) == nil)
    }

    @Test("A malformed query request is refused at the value at fault")
    func queryErrors() {
        let filter = #"{"comparator":"EQUALS","fieldName":"f","fieldValue":{"value":"x"}}"#
        let cases: [(kind: String, path: String, body: String)] = [
            ("keyNotFound", "query", #"{"resultsLimit":1}"#),
            ("keyNotFound", "query.recordType", #"{"query":{}}"#),
            ("typeMismatch", "query.recordType", #"{"query":{"recordType":7}}"#),
            ("typeMismatch", "query.filterBy", #"{"query":{"recordType":"T","filterBy":"f"}}"#),
            (
                "keyNotFound", "query.filterBy.Index 0.comparator",
                #"{"query":{"recordType":"T","filterBy":[{"fieldName":"f","fieldValue":{"value":1}}]}}"#
            ),
            (
                "typeMismatch", "query.filterBy.Index 1.fieldName",
                #"{"query":{"recordType":"T","filterBy":[\#(filter),{"comparator":"IN","fieldName":[],"fieldValue":{"value":1}}]}}"#
            ),
            (
                "keyNotFound", "query.filterBy.Index 0.fieldValue",
                #"{"query":{"recordType":"T","filterBy":[{"comparator":"IN","fieldName":"f"}]}}"#
            ),
            (
                "keyNotFound", "query.filterBy.Index 0.fieldValue.value",
                #"{"query":{"recordType":"T","filterBy":[{"comparator":"IN","fieldName":"f","fieldValue":{"type":"STRING"}}]}}"#
            ),
            (
                "valueNotFound", "query.filterBy.Index 0.fieldValue.value",
                #"{"query":{"recordType":"T","filterBy":[{"comparator":"IN","fieldName":"f","fieldValue":{"value":null}}]}}"#
            ),
            (
                "dataCorrupted", "query.filterBy.Index 0.fieldValue.type",
                #"{"query":{"recordType":"T","filterBy":[{"comparator":"IN","fieldName":"f","fieldValue":{"type":"COLOR","value":1}}]}}"#
            ),
            (
                "dataCorrupted", "query.filterBy.Index 0.fieldValue.value",
                #"{"query":{"recordType":"T","filterBy":[{"comparator":"IN","fieldName":"f","fieldValue":{"type":"INT64","value":1.5}}]}}"#
            ),
            (
                "typeMismatch", "query.filterBy.Index 0.distance",
                #"{"query":{"recordType":"T","filterBy":[{"comparator":"NEAR","fieldName":"f","fieldValue":{"value":1},"distance":"far"}]}}"#
            ),
            (
                "keyNotFound", "query.sortBy.Index 0.fieldName",
                #"{"query":{"recordType":"T","sortBy":[{"ascending":true}]}}"#
            ),
            (
                "typeMismatch", "query.sortBy.Index 0.ascending",
                #"{"query":{"recordType":"T","sortBy":[{"fieldName":"f","ascending":"yes"}]}}"#
            ),
            (
                "keyNotFound", "query.sortBy.Index 0.relativeLocation.longitude",
                #"{"query":{"recordType":"T","sortBy":[{"fieldName":"f","relativeLocation":{"latitude":1}}]}}"#
            ),
            (
                "dataCorrupted", "query.sortBy.Index 0.relativeLocation.timestamp",
                #"{"query":{"recordType":"T","sortBy":[{"fieldName":"f","relativeLocation":{"latitude":1,"longitude":2,"timestamp":0.5}}]}}"#
            ),
            ("dataCorrupted", "resultsLimit", #"{"query":{"recordType":"T"},"resultsLimit":1.5}"#),
            ("typeMismatch", "resultsLimit", #"{"query":{"recordType":"T"},"resultsLimit":"10"}"#),
            ("typeMismatch", "desiredKeys.Index 1", #"{"query":{"recordType":"T"},"desiredKeys":["a",2]}"#),
            ("keyNotFound", "zoneID.zoneName", #"{"query":{"recordType":"T"},"zoneID":{}}"#),
            ("typeMismatch", "zoneWide", #"{"query":{"recordType":"T"},"zoneWide":1}"#),
            ("typeMismatch", "numbersAsStrings", #"{"query":{"recordType":"T"},"numbersAsStrings":"true"}"#),
            ("typeMismatch", "continuationMarker", #"{"query":{"recordType":"T"},"continuationMarker":7}"#),
        ]
        for (kind, path, body) in cases {
            expectDecodingError(kind, at: path) { _ = try decode(RecordsQueryRequest.self, body) }
        }
    }

    @Test("A query that JSON cannot carry is refused at the value at fault")
    func queryEncodingErrors() {
        func request(_ filter: RecordQuery.Filter? = nil, sortedBy sort: RecordQuery.SortDescriptor? = nil)
            -> RecordsQueryRequest
        {
            RecordsQueryRequest(
                query: RecordQuery(
                    recordType: "T", filterBy: filter.map { [$0] } ?? [], sortBy: sort.map { [$0] } ?? []))
        }
        let here = RecordLocation(latitude: 1, longitude: 2)
        expectEncodingError(at: "query.filterBy.Index 0.distance") {
            _ = try json(request(.near("f", here, distance: .nan)))
        }
        expectEncodingError(at: "query.filterBy.Index 0.fieldValue.value") {
            _ = try json(request(.init(fieldName: "f", comparator: .equals, fieldValue: .double(.infinity))))
        }
        expectEncodingError(at: "query.sortBy.Index 0.relativeLocation.latitude") {
            _ = try json(
                request(sortedBy: .init(fieldName: "f", relativeLocation: RecordLocation(latitude: .nan, longitude: 0)))
            )
        }
        // RecordJSONEncoder refuses each at the same path, with the same words.
        expectSameBytes(request(.near("f", here, distance: .nan)))
        expectSameBytes(request(.init(fieldName: "f", comparator: .equals, fieldValue: .double(.infinity))))
        expectSameBytes(
            request(sortedBy: .init(fieldName: "f", relativeLocation: RecordLocation(latitude: .nan, longitude: 0))))
        expectSameBytes(request(.near("f", here, distance: -.infinity)))
    }

    // MARK: records/lookup

    @Test("A lookup by name, with every key")
    func lookupRequest() throws {
        let request = RecordsLookupRequest(
            recordNames: ["N1", "N2"], zoneID: RecordZoneID(zoneName: "Notes"), desiredKeys: ["title"],
            numbersAsStrings: true)
        #expect(request.recordNames == ["N1", "N2"])
        #expect(
            try ServerBodyCoding.roundTrip(request)
                == #"{"desiredKeys":["title"],"numbersAsStrings":true,"#
                + #""records":[{"recordName":"N1"},{"recordName":"N2"}],"zoneID":{"zoneName":"Notes"}}"#)
        let perRecord = RecordsLookupRequest(records: [.init(recordName: "N1", desiredKeys: ["body"])])
        #expect(
            try ServerBodyCoding.roundTrip(perRecord) == #"{"records":[{"desiredKeys":["body"],"recordName":"N1"}]}"#)
    }

    @Test("A malformed lookup request is refused at the value at fault")
    func lookupErrors() {
        expectDecodingError("keyNotFound", at: "records") { _ = try decode(RecordsLookupRequest.self, "{}") }
        expectDecodingError("keyNotFound", at: "records.Index 1.recordName") {
            _ = try decode(RecordsLookupRequest.self, #"{"records":[{"recordName":"a"},{"name":"b"}]}"#)
        }
        expectDecodingError("typeMismatch", at: "records.Index 0.desiredKeys") {
            _ = try decode(RecordsLookupRequest.self, #"{"records":[{"recordName":"a","desiredKeys":"all"}]}"#)
        }
    }

    // MARK: records/changes

    @Test("A changes request with every key, and the first sync without a token")
    func changesRequest() throws {
        let zone = RecordZoneID(zoneName: "Notes", ownerRecordName: "_o")
        let request = RecordsChangesRequest(zoneID: zone, syncToken: "tok", resultsLimit: 100, desiredKeys: ["title"])
        #expect(
            try ServerBodyCoding.roundTrip(request)
                == #"{"desiredKeys":["title"],"resultsLimit":100,"syncToken":"tok","#
                + #""zoneID":{"ownerRecordName":"_o","zoneName":"Notes"}}"#)
        #expect(
            try ServerBodyCoding.roundTrip(RecordsChangesRequest(zoneID: zone))
                == #"{"zoneID":{"ownerRecordName":"_o","zoneName":"Notes"}}"#)
        expectDecodingError("keyNotFound", at: "zoneID") { _ = try decode(RecordsChangesRequest.self, "{}") }
        expectDecodingError("typeMismatch", at: "syncToken") {
            _ = try decode(RecordsChangesRequest.self, #"{"zoneID":{"zoneName":"z"},"syncToken":1}"#)
        }
    }

    @Test("A changes response: deletions, the new token, and a record that cannot be read beside the others")
    func changesResponse() throws {
        let response = try decode(
            RecordsChangesResponse.self,
            #"""
            {"zoneID": {"zoneName": "Notes"},
             "records": [
               {"recordName": "gone", "recordType": "Note", "recordChangeTag": "t0", "deleted": true, "fields": {}},
               {"recordName": "kept", "recordType": "Note", "recordChangeTag": "t1",
                "fields": {"title": {"value": "Hi", "type": "STRING"}}},
               {"recordName": "future", "recordType": "Note", "fields": {"x": {"value": 1, "type": "QUANTUM"}}}
             ],
             "syncToken": "next-token", "moreComing": true}
            """#)
        #expect(response.records.count == 3)
        #expect(response.records[0].record?.metadata?.deleted == true)
        #expect(response.records[1].record?.fields == ["title": .string("Hi")])
        let unreadable = try #require(response.records[2].unreadable)
        #expect(unreadable.recordName == "future")
        #expect(unreadable.error.fullPath == "records.Index 2.fields.x.type")
        #expect(response.syncToken == "next-token")
        #expect(response.moreComing)
        #expect(response.zoneID == RecordZoneID(zoneName: "Notes"))
        // Each record keeps the page's zone, so that a save sends it back there.
        #expect(response.records[1].record?.metadata?.zoneID == RecordZoneID(zoneName: "Notes"))
        #expect(try RecordsModifyRequest(savingRecords: [#require(response.records[1].record)]).zoneID == nil)
        #expect(
            try json(RecordsModifyRequest(savingRecords: [#require(response.records[1].record)]))
                .contains(#""zoneID":{"zoneName":"Notes"}"#))
        try ServerBodyCoding.roundTrip(response)
        // A response made by hand gives its records the page's zone too, and so reads back equal.
        let made = RecordsChangesResponse(
            records: [.success(Record(recordType: "Note", recordName: "n"))], syncToken: "s",
            zoneID: RecordZoneID(zoneName: "Notes"))
        #expect(made.records[0].record?.metadata?.zoneID == RecordZoneID(zoneName: "Notes"))
        try ServerBodyCoding.roundTrip(made)

        // A body without moreComing has no more; without records, no records.
        let empty = try decode(RecordsChangesResponse.self, #"{"syncToken":"t"}"#)
        #expect(empty == RecordsChangesResponse(records: [], syncToken: "t"))
        #expect(try json(empty) == #"{"moreComing":false,"records":[],"syncToken":"t"}"#)
        expectDecodingError("typeMismatch", at: "moreComing") {
            _ = try decode(RecordsChangesResponse.self, #"{"moreComing":"no"}"#)
        }
        expectDecodingError("typeMismatch", at: "records") {
            _ = try decode(RecordsChangesResponse.self, #"{"records":{}}"#)
        }
    }

    @Test("The next page of changes carries the response's token, until the server has no more")
    func changesNextPage() {
        let zone = RecordZoneID(zoneName: "Notes")
        let request = RecordsChangesRequest(zoneID: zone, syncToken: "t0", resultsLimit: 10)
        let more = RecordsChangesResponse(records: [], syncToken: "t1", moreComing: true)
        #expect(request.nextPage(after: more) == RecordsChangesRequest(zoneID: zone, syncToken: "t1", resultsLimit: 10))
        #expect(request.nextPage(after: RecordsChangesResponse(records: [], syncToken: "t2")) == nil)
        // No new token to ask with: the same page would come again, so there is no next page.
        #expect(request.nextPage(after: RecordsChangesResponse(records: [], moreComing: true)) == nil)
        #expect(request.nextPage(after: RecordsChangesResponse(records: [], syncToken: "t0", moreComing: true)) == nil)
    }

    @Test("Keys the server or a newer client adds never fail a read")
    func unknownKeys() throws {
        let query = try decode(
            RecordsQueryRequest.self,
            #"{"new":1,"query":{"recordType":"T","new":[],"filterBy":[{"comparator":"EQUALS","fieldName":"f","fieldValue":{"value":1,"new":{}},"new":null}],"sortBy":[{"fieldName":"f","new":true}]}}"#
        )
        #expect(query.query.filterBy.count == 1)
        #expect(
            try decode(RecordsLookupRequest.self, #"{"records":[{"recordName":"a","new":1}],"new":2}"#).recordNames == [
                "a"
            ])
        #expect(
            try decode(
                RecordsChangesRequest.self, #"{"zoneID":{"zoneName":"z","zoneType":"REGULAR_CUSTOM_ZONE"},"new":1}"#
            ).zoneID.zoneName == "z")
        #expect(try decode(RecordsChangesResponse.self, #"{"records":[],"pluginFields":{},"new":1}"#).records.isEmpty)
    }
}
