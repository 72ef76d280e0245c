import Foundation
import Testing

@testable import RecordCodable

/// An unreadable record keeps what reads: one field with bad Base64 no longer loses the record's
/// asset and other fields, and saving the part back never writes the field left out (issue 41).
@Suite("Unreadable records keep what reads")
struct UnreadableRecordPartTests {
    /// A query answer with one Photos master whose `filenameEnc` is not Base64, beside a good one.
    ///
    /// Made at each use rather than kept in a static: LeakSanitizer does not see the bytes of a
    /// `Data` kept in a global (its storage reference is packed), and reports them as leaked.
    static var body: Data {
        Data(
            """
            {"records": [
              {"recordName": "AR5gg657a+rfmRM8ThJ6m7rgIEWN", "recordType": "CPLMaster",
               "fields": {"filenameEnc": {"value": "c29sdmVq!!IGRrLnBuZw==", "type": "ENCRYPTED_BYTES"},
                          "itemType": {"value": "public.png", "type": "STRING"},
                          "importedByDisplayNameEnc": {"value": "UGhvdG9z", "type": "ENCRYPTED_BYTES"},
                          "resOriginalWidth": {"value": 1599, "type": "INT64"},
                          "resOriginalRes": {"value": {"fileChecksum": "AR5gg657a+rfmRM8ThJ6m7rgIEWN", "size": 93124,
                              "wrappingKey": "Kydhp1H4MbMxEftozAZ/wA==", "referenceChecksum": "ASgJo4fn2OhfdcrjsD7mVR+DV9uY",
                              "downloadURL": "https://cvws.icloud-content.com/B/AY6c/${f}?o=Ai7a"}, "type": "ASSETID"}},
               "pluginFields": {}, "recordChangeTag": "g",
               "created": {"timestamp": 1740117434635, "userRecordName": "_1", "deviceID": "1"},
               "modified": {"timestamp": 1740117434635, "userRecordName": "_1", "deviceID": "abc"},
               "deleted": false, "zoneID": {"zoneName": "PrimarySync", "zoneType": "REGULAR_CUSTOM_ZONE"}},
              {"recordName": "M2", "recordType": "CPLMaster", "fields": {"itemType": {"value": "public.jpeg", "type": "STRING"}},
               "recordChangeTag": "h"}
            ], "syncToken": "AQAAAAAAAURh"}
            """.utf8)
    }

    static func unreadable() throws -> UnreadableRecord {
        let page = try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: body)
        #expect(page.records[1].record?.recordName == "M2")
        return try #require(page.records[0].unreadable)
    }

    @Test("The record is still unreadable, and carries the fields that read and the error of the one that did not")
    func keepsWhatReads() throws {
        let unreadable = try Self.unreadable()
        #expect(unreadable.error.fullPath == "records.Index 0.fields.filenameEnc.value")
        let part = try #require(unreadable.readablePart)
        #expect(part.recordName == "AR5gg657a+rfmRM8ThJ6m7rgIEWN")
        #expect(part.recordType == "CPLMaster")
        #expect(part.metadata?.changeTag == "g")
        #expect(
            part.fields.keys.sorted() == ["importedByDisplayNameEnc", "itemType", "resOriginalRes", "resOriginalWidth"])
        #expect(part.encryptedFields == ["importedByDisplayNameEnc"])
        guard case .asset(let asset) = part["resOriginalRes"] else {
            Issue.record("The asset did not read")
            return
        }
        #expect(asset.size == 93124)
        #expect(Array(unreadable.fieldErrors.keys) == ["filenameEnc"])
        #expect(unreadable.fieldErrors["filenameEnc"]?.kind == "dataCorrupted")
        #expect(unreadable.fieldErrors["filenameEnc"]?.fullPath == unreadable.error.fullPath)
    }

    @Test("Both JSON decoders read the same part")
    func sameOnBothPaths() throws {
        let page = try JSONDecoder().decode(RecordsQueryResponse.self, from: Self.body)
        let unreadable = try #require(page.records[0].unreadable)
        #expect(unreadable.readablePart == (try Self.unreadable()).readablePart)
        #expect(unreadable.fieldErrors.keys.sorted() == ["filenameEnc"])
    }

    @Test("Saving the part back, as it is or as an update, never writes the field left out")
    func savingLeavesTheUnreadFieldOut() throws {
        var part = try #require(try Self.unreadable().readablePart)
        let asIs = RecordOperation(saving: part)
        #expect(asIs.operationType == .update)
        let asIsJSON = String(
            decoding: try RecordJSONEncoder().encode(RecordsModifyRequest(operations: [asIs])), as: UTF8.self)
        #expect(!asIsJSON.contains("filenameEnc"))

        let original = part
        part["itemType"] = .string("public.heic")
        let update = try original.update(to: part)
        #expect(update.fields == ["itemType": .string("public.heic")])
        #expect(update.clearedFields.isEmpty)
        let request = RecordsModifyRequest(savingRecords: [update])
        #expect(request.operations.map(\.operationType) == [.update])
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        #expect(!json.contains("filenameEnc"))
    }

    @Test("A replace of the part, which would clear the field left out, is refused")
    func replaceIsRefused() throws {
        let part = try #require(try Self.unreadable().readablePart)
        for type in [RecordOperation.OperationType.replace, .forceReplace] {
            let error = expectEncodingError(at: "operations.Index 0.record") {
                _ = try JSONEncoder().encode(RecordsModifyRequest(operations: [RecordOperation(type, record: part)]))
            }
            #expect(error?.context?.debugDescription.contains("filenameEnc") == true)
        }
    }

    @Test("A record whose own keys do not read has no part")
    func noPartWhenTheRecordItselfIsBad() throws {
        let body = #"{"records": [{"recordName": "X", "recordChangeTag": 7, "fields": {}}]}"#
        let page = try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: Data(body.utf8))
        let unreadable = try #require(page.records[0].unreadable)
        #expect(unreadable.readablePart == nil)
        #expect(unreadable.fieldErrors.isEmpty)
    }
}
