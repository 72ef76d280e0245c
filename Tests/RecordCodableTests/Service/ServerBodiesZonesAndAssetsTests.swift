import Foundation
import Testing

@testable import RecordCodable

/// The `zones/list`, `zones/modify` and `assets/upload` bodies, and the answer of an upload.
@Suite("Server bodies: zones and assets")
struct ServerBodiesZonesAndAssetsTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try ServerBodyCoding.decode(type, json)
    }

    private func json(_ value: some Encodable) throws -> String {
        try ServerBodyCoding.json(value)
    }

    // MARK: zones/list

    @Test("A zone list as the real server sends it: the zone's type inside its ID, a sync token beside the zones")
    func zonesList() throws {
        let list = try decode(
            ZonesListResponse.self,
            #"""
            {"moreComing": false, "syncToken": "AQAAAAAAAwmV",
             "zones": [
               {"zoneID": {"zoneName": "PrimarySync", "ownerRecordName": "_bfc6", "zoneType": "REGULAR_CUSTOM_ZONE"}},
               {"zoneID": {"zoneName": "_defaultZone"}, "syncToken": "z1", "atomic": false}
             ]}
            """#)
        #expect(
            list
                == ZonesListResponse(
                    zones: [
                        RecordZone(
                            zoneID: RecordZoneID(zoneName: "PrimarySync", ownerRecordName: "_bfc6"),
                            zoneType: "REGULAR_CUSTOM_ZONE"),
                        RecordZone(zoneID: RecordZoneID(zoneName: "_defaultZone"), syncToken: "z1", atomic: false),
                    ],
                    syncToken: "AQAAAAAAAwmV", moreComing: false))
        #expect(
            try ServerBodyCoding.roundTrip(list)
                == #"{"moreComing":false,"syncToken":"AQAAAAAAAwmV","zones":["#
                + #"{"zoneID":{"ownerRecordName":"_bfc6","zoneName":"PrimarySync","zoneType":"REGULAR_CUSTOM_ZONE"}},"#
                + #"{"atomic":false,"syncToken":"z1","zoneID":{"zoneName":"_defaultZone"}}]}"#)
        // Apple's reference shape: zones only.
        #expect(
            try ServerBodyCoding.roundTrip(
                ZonesListResponse(zones: [RecordZone(zoneID: .init(zoneName: "Notes"), atomic: true)]))
                == #"{"zones":[{"atomic":true,"zoneID":{"zoneName":"Notes"}}]}"#)
        #expect(try decode(ZonesListResponse.self, "{}").zones.isEmpty)
    }

    @Test("A zone's type given beside its ID reads too")
    func zoneTypeBesideZoneID() throws {
        let zone = try decode(RecordZone.self, #"{"zoneID":{"zoneName":"Z"},"zoneType":"DEFAULT_ZONE"}"#)
        #expect(zone.zoneType == "DEFAULT_ZONE")
        #expect(try json(zone) == #"{"zoneID":{"zoneName":"Z","zoneType":"DEFAULT_ZONE"}}"#)
    }

    @Test("A malformed zone list is refused at the value at fault")
    func zonesListErrors() {
        expectDecodingError("typeMismatch", at: "zones") { _ = try decode(ZonesListResponse.self, #"{"zones":{}}"#) }
        expectDecodingError("keyNotFound", at: "zones.Index 1.zoneID") {
            _ = try decode(ZonesListResponse.self, #"{"zones":[{"zoneID":{"zoneName":"a"}},{"syncToken":"t"}]}"#)
        }
        expectDecodingError("keyNotFound", at: "zones.Index 0.zoneID.zoneName") {
            _ = try decode(ZonesListResponse.self, #"{"zones":[{"zoneID":{"ownerName":"_o"}}]}"#)
        }
        expectDecodingError("typeMismatch", at: "zones.Index 0.zoneID.zoneType") {
            _ = try decode(ZonesListResponse.self, #"{"zones":[{"zoneID":{"zoneName":"a","zoneType":1}}]}"#)
        }
        expectDecodingError("typeMismatch", at: "zones.Index 0.atomic") {
            _ = try decode(ZonesListResponse.self, #"{"zones":[{"zoneID":{"zoneName":"a"},"atomic":"yes"}]}"#)
        }
        expectDecodingError("typeMismatch", at: "moreComing") {
            _ = try decode(ZonesListResponse.self, #"{"zones":[],"moreComing":0}"#)
        }
    }

    // MARK: zones/modify

    @Test("Creating and deleting zones: the request in the shape of Apple's reference")
    func zonesModifyRequest() throws {
        let request = ZonesModifyRequest(
            creating: [RecordZoneID(zoneName: "Notes")],
            deleting: [RecordZoneID(zoneName: "Old", ownerRecordName: "_o")])
        #expect(
            request.operations == [
                ZoneOperation(.create, zoneID: .init(zoneName: "Notes")),
                ZoneOperation(.delete, zoneID: .init(zoneName: "Old", ownerRecordName: "_o")),
            ])
        #expect(
            try ServerBodyCoding.roundTrip(request)
                == #"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Notes"}}},"#
                + #"{"operationType":"delete","zone":{"zoneID":{"ownerRecordName":"_o","zoneName":"Old"}}}]}"#)
        #expect(
            ZonesModifyRequest(deleting: [RecordZoneID(zoneName: "Old")]).operations
                == [ZoneOperation(.delete, zoneID: .init(zoneName: "Old"))])
        #expect(
            try ServerBodyCoding.roundTrip(ZoneOperation(.create, zoneID: .init(zoneName: "A")))
                == #"{"operationType":"create","zone":{"zoneID":{"zoneName":"A"}}}"#)
    }

    @Test("A malformed zones request is refused at the value at fault")
    func zonesModifyRequestErrors() {
        expectDecodingError("keyNotFound", at: "operations") { _ = try decode(ZonesModifyRequest.self, "{}") }
        expectDecodingError("dataCorrupted", at: "operations.Index 0.operationType") {
            _ = try decode(
                ZonesModifyRequest.self,
                #"{"operations":[{"operationType":"rename","zone":{"zoneID":{"zoneName":"a"}}}]}"#)
        }
        expectDecodingError("keyNotFound", at: "operations.Index 0.zone") {
            _ = try decode(ZonesModifyRequest.self, #"{"operations":[{"operationType":"create"}]}"#)
        }
        expectDecodingError("keyNotFound", at: "operations.Index 0.zone.zoneID") {
            _ = try decode(ZonesModifyRequest.self, #"{"operations":[{"operationType":"create","zone":{}}]}"#)
        }
    }

    @Test("The answer to a zones request: zones created, and per-zone errors")
    func zonesModifyResponse() throws {
        let response = try decode(
            ZonesModifyResponse.self,
            #"""
            {"zones": [
              {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_o"}, "syncToken": "t1", "atomic": true},
              {"zoneID": {"zoneName": "Notes"}, "serverErrorCode": "EXISTS", "reason": "zone exists"}
            ]}
            """#)
        let created = try response.zones[0].get()
        #expect(
            created
                == RecordZone(zoneID: .init(zoneName: "Notes", ownerRecordName: "_o"), syncToken: "t1", atomic: true))
        #expect(response.zones[0].zoneID == created.zoneID)
        #expect(response.zones[0].error == nil)
        let error = try #require(response.zones[1].error)
        #expect(error.serverErrorCode == .exists)
        #expect(error.zoneID == RecordZoneID(zoneName: "Notes"))
        #expect(error.description == "Zone 'Notes' failed with EXISTS: zone exists")
        #expect(response.zones[1].zone == nil)
        #expect(response.zones[1].zoneID == RecordZoneID(zoneName: "Notes"))
        #expect(throws: error) { try response.zones[1].get() }
        #expect(
            try ServerBodyCoding.roundTrip(response)
                == #"{"zones":[{"atomic":true,"syncToken":"t1","zoneID":{"ownerRecordName":"_o","zoneName":"Notes"}},"#
                + #"{"reason":"zone exists","serverErrorCode":"EXISTS","zoneID":{"zoneName":"Notes"}}]}"#)
        #expect(try decode(ZonesModifyResponse.self, "{}").zones.isEmpty)
        expectDecodingError("typeMismatch", at: "zones.Index 0.serverErrorCode") {
            _ = try decode(ZonesModifyResponse.self, #"{"zones":[{"serverErrorCode":404}]}"#)
        }
    }

    // MARK: assets/upload

    /// Apple's "Uploading Assets" example: the answer to the tokens request.
    static let appleTokensResponse = """
        {
        "tokens":[{
        "recordName":"4c016e24-c397-4c9d-81d6-dee3e3a48bb0",
        "fieldName":"image",
        "url":"ASSET_UPLOAD_URL"
        }]
        }
        """

    /// Apple's "Uploading Assets" example: the answer to the upload of the file's bytes.
    static let appleUploadAnswer = """
        {
        "singleFile" :{
        "wrappingKey" : "WRAPPING_KEY",
        "fileChecksum" : "SIGNATURE",
        "receipt" : "RECEIPT",
        "referenceChecksum" : "REFERENCE_CHECKSUM",
        "size" : 1024
        }
        }
        """

    @Test("The tokens request: a record type and field, the record's name when known, and the zone")
    func assetsUploadRequest() throws {
        let request = AssetsUploadRequest(
            tokens: [
                .init(recordType: "Artist", fieldName: "image", recordName: "4c016e24-c397-4c9d-81d6-dee3e3a48bb0"),
                .init(recordType: "Artist", fieldName: "thumbnails"),
            ],
            zoneID: RecordZoneID(zoneName: "_defaultZone"))
        #expect(
            try ServerBodyCoding.roundTrip(request)
                == #"{"tokens":[{"fieldName":"image","recordName":"4c016e24-c397-4c9d-81d6-dee3e3a48bb0","recordType":"Artist"},"#
                + #"{"fieldName":"thumbnails","recordType":"Artist"}],"zoneID":{"zoneName":"_defaultZone"}}"#)
        expectDecodingError("keyNotFound", at: "tokens") { _ = try decode(AssetsUploadRequest.self, "{}") }
        expectDecodingError("keyNotFound", at: "tokens.Index 0.fieldName") {
            _ = try decode(AssetsUploadRequest.self, #"{"tokens":[{"recordType":"Artist"}]}"#)
        }
        expectDecodingError("keyNotFound", at: "tokens.Index 0.recordType") {
            _ = try decode(AssetsUploadRequest.self, #"{"tokens":[{"fieldName":"image"}]}"#)
        }
    }

    @Test("Apple's tokens answer, and one without a record name")
    func assetsUploadResponse() throws {
        let response = try decode(AssetsUploadResponse.self, Self.appleTokensResponse)
        #expect(
            response
                == AssetsUploadResponse(tokens: [
                    .init(
                        url: "ASSET_UPLOAD_URL", recordName: "4c016e24-c397-4c9d-81d6-dee3e3a48bb0", fieldName: "image")
                ]))
        #expect(
            try ServerBodyCoding.roundTrip(response)
                == #"{"tokens":[{"fieldName":"image","recordName":"4c016e24-c397-4c9d-81d6-dee3e3a48bb0","url":"ASSET_UPLOAD_URL"}]}"#
        )
        let unnamed = try decode(AssetsUploadResponse.self, #"{"tokens":[{"url":"https://u","fieldName":"file"}]}"#)
        #expect(unnamed.tokens == [.init(url: "https://u", fieldName: "file")])
        try ServerBodyCoding.roundTrip(unnamed)
        expectDecodingError("keyNotFound", at: "tokens.Index 0.url") {
            _ = try decode(AssetsUploadResponse.self, #"{"tokens":[{"fieldName":"file"}]}"#)
        }
    }

    @Test("Apple's upload answer becomes the ASSETID value the save sends")
    func uploadAnswerBecomesAssetField() throws {
        let upload = try decode(AssetUploadResult.self, Self.appleUploadAnswer)
        #expect(
            upload
                == AssetUploadResult(
                    fileChecksum: "SIGNATURE", size: 1024, receipt: "RECEIPT", wrappingKey: "WRAPPING_KEY",
                    referenceChecksum: "REFERENCE_CHECKSUM"))
        #expect(
            try ServerBodyCoding.roundTrip(upload)
                == #"{"singleFile":{"fileChecksum":"SIGNATURE","receipt":"RECEIPT","referenceChecksum":"REFERENCE_CHECKSUM","#
                + #""size":1024,"wrappingKey":"WRAPPING_KEY"}}"#)

        // Apple's "Modify Records with Asset Fields": the field's value is the upload's keys.
        var record = Record(recordType: "Artist", recordName: "4c016e24-c397-4c9d-81d6-dee3e3a48bb0")
        record["image"] = .asset(upload.asset)
        let save = RecordsModifyRequest(savingRecords: [record])
        #expect(
            try json(save)
                == #"{"operations":[{"operationType":"create","record":{"fields":{"image":{"type":"ASSETID","value":"#
                + #"{"fileChecksum":"SIGNATURE","receipt":"RECEIPT","referenceChecksum":"REFERENCE_CHECKSUM","size":1024,"#
                + #""wrappingKey":"WRAPPING_KEY"}}},"recordName":"4c016e24-c397-4c9d-81d6-dee3e3a48bb0","recordType":"Artist"}}]}"#
        )
    }

    @Test("A malformed upload answer is refused at the value at fault")
    func uploadAnswerErrors() {
        expectDecodingError("keyNotFound", at: "singleFile") { _ = try decode(AssetUploadResult.self, #"{"file":{}}"#) }
        expectDecodingError("dataCorrupted", at: "singleFile.size") {
            _ = try decode(AssetUploadResult.self, #"{"singleFile":{"size":-1}}"#)
        }
        expectDecodingError("dataCorrupted", at: "singleFile.size") {
            _ = try decode(AssetUploadResult.self, #"{"singleFile":{"size":1.5}}"#)
        }
        expectDecodingError("typeMismatch", at: "singleFile.receipt") {
            _ = try decode(AssetUploadResult.self, #"{"singleFile":{"receipt":[]}}"#)
        }
        expectEncodingError(at: "singleFile.size") { _ = try json(AssetUploadResult(size: -1)) }
    }

    @Test("Keys the server adds never fail a read")
    func unknownKeys() throws {
        #expect(
            try decode(RecordZone.self, #"{"zoneID":{"zoneName":"a","new":1},"capabilities":[],"new":{}}"#).zoneID
                .zoneName == "a")
        #expect(
            try decode(
                ZonesModifyRequest.self,
                #"{"operations":[{"operationType":"delete","zone":{"zoneID":{"zoneName":"a"},"new":1},"new":2}]}"#
            ).operations.count == 1)
        #expect(
            try decode(AssetsUploadRequest.self, #"{"tokens":[{"recordType":"T","fieldName":"f","new":1}],"new":2}"#)
                .tokens.count == 1)
        #expect(
            try decode(AssetsUploadResponse.self, #"{"tokens":[{"url":"u","fieldName":"f","new":1}],"new":2}"#).tokens
                .count == 1)
        #expect(try decode(AssetUploadResult.self, #"{"singleFile":{"size":1,"new":1},"new":2}"#).size == 1)
    }
}
