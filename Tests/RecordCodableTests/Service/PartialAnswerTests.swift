import Foundation
import Testing

@testable import RecordCodable

/// A records/modify answer to an update echoes only the fields it changed: merged into the record
/// held, it gives the record as the server now has it (issue 41). The request and answer are
/// icloudpd's recording of Photos moving an asset to the trash.
@Suite("Partial answers")
struct PartialAnswerTests {
    struct CPLAsset: Codable {
        var id: String
        var isDeleted: Int?
        var isFavorite: Int
        var assetDate: Date
        var masterRef: RecordReference
        var metadata: RecordMetadata?
    }

    static let name = "A5A7C0F1-BE37-46D8-9A99-400AD6DC2351"

    static func body(_ file: String) throws -> Data {
        try Data(contentsOf: RecordedBodies.directory.appendingPathComponent("icloudpd/\(file)"))
    }

    /// The asset as fetched before the update: a recorded CPLAsset, under the updated name and change tag.
    static func original() throws -> Record {
        let (_, asset) = try RecordTypeCheckTests.photosPage()
        var original = asset
        original.recordName = name
        var metadata = original.metadata ?? RecordMetadata()
        metadata.changeTag = "1s2g"
        original.metadata = metadata
        return original
    }

    static func exchange() throws -> (RecordsModifyRequest, RecordsModifyResponse) {
        let decoder = RecordJSONDecoder()
        return (
            try decoder.decode(
                RecordsModifyRequest.self, from: body("modifyRequest-download_autodelete_photos_part1-7.json")),
            try decoder.decode(
                RecordsModifyResponse.self, from: body("modifyResponse-download_autodelete_photos_part1-7.json"))
        )
    }

    @Test("The answer alone does not decode; merged into the original it does, with the new change tag")
    func mergedIntoOriginal() throws {
        let original = try Self.original()
        let (_, response) = try Self.exchange()
        let answer = try response.records[0].get()
        #expect(answer.fields.keys.sorted() == ["isDeleted"])
        expectDecodingError("keyNotFound", at: "isFavorite") {
            _ = try RecordDecoder().decode(CPLAsset.self, from: answer)
        }

        let current = original.merging(answer: answer)
        let asset = try RecordDecoder().decode(CPLAsset.self, from: current)
        #expect(asset.isDeleted == 1)
        #expect(asset.isFavorite == 0)
        #expect(asset.masterRef.recordName == "AR5gg657a+rfmRM8ThJ6m7rgIEWN")
        #expect(asset.metadata?.changeTag == "1s2k")
        #expect(asset.metadata?.modified?.timestamp == Date(timeIntervalSince1970: 1_686_106_458.410))
        #expect(asset.metadata?.created?.timestamp == Date(timeIntervalSince1970: 1_686_106_171.024))
        // The zone the answer leaves out stays the original's.
        #expect(current.metadata?.zoneID == original.metadata?.zoneID)
        #expect(current.fields.count == original.fields.count + 1)
    }

    @Test("records(savedBy:originals:) merges each answer into its original and the update sent")
    func responseGivenTheRequest() throws {
        let original = try Self.original()
        let (request, response) = try Self.exchange()
        let merged = response.records(savedBy: request, originals: [original])
        let current = try merged[0].get()
        #expect(current == original.merging(answer: try response.records[0].get()))
        #expect(current.metadata?.zoneID == original.metadata?.zoneID)
        // Without the original, only what was sent is known; the zone is the request's.
        let sentOnly = try response.records(savedBy: request)[0].get()
        #expect(sentOnly.fields == ["isDeleted": .int64(1)])
        #expect(sentOnly.metadata?.changeTag == "1s2k")
        #expect(sentOnly.metadata?.zoneID == RecordZoneID(zoneName: "PrimarySync"))
    }

    @Test("An update that clears a field: the merge leaves it out, and keeps the rest")
    func clearedFieldsAreGone() throws {
        let original = try Self.original()
        var edited = original
        edited["isDeleted"] = .int64(1)
        edited["timeZoneNameEnc"] = nil
        let update = try original.update(to: edited)
        #expect(update.clearedFields == ["timeZoneNameEnc"])
        var request = RecordsModifyRequest(savingRecords: [update])
        request.desiredKeys = ["isDeleted"]
        let (_, response) = try Self.exchange()
        let current = try response.records(savedBy: request, originals: [original])[0].get()
        #expect(current["timeZoneNameEnc"] == nil)
        #expect(current["isDeleted"] == .int64(1))
        #expect(current.clearedFields.isEmpty)
        #expect(current.fields.count == original.fields.count)
        #expect(RecordOperation(saving: current).operationType == .update)
    }

    @Test("A record the server named is matched by position; deletes and failures come back as they are")
    func createdAndDeleted() throws {
        let created = Record(recordType: "CPLAsset", recordName: "", fields: ["isFavorite": .int64(1)])
        let request = RecordsModifyRequest(operations: [
            RecordOperation(.create, record: created), RecordOperation(deleting: "gone", changeTag: "9"),
        ])
        let body = """
            {"records": [{"recordName": "S1", "recordType": "CPLAsset", "fields": {}, "recordChangeTag": "a",
                          "created": {"timestamp": 1686106171024}, "modified": {"timestamp": 1686106171024}},
                         {"recordName": "gone", "deleted": true}]}
            """
        let response = try RecordJSONDecoder().decode(RecordsModifyResponse.self, from: Data(body.utf8))
        let merged = response.records(savedBy: request)
        let saved = try merged[0].get()
        #expect(saved.recordName == "S1")
        #expect(saved.fields == ["isFavorite": .int64(1)])
        #expect(saved.metadata?.changeTag == "a")
        #expect(merged[1] == response.records[1])
    }
}
