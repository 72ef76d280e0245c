import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// The store's typed reads only ever decode records of the model's type: a record's key holds its
/// type, and the reads look records up by the model's, so the decoder's check (issue 41) always
/// passes there. Photos keeps masters and assets as two record types, which may share a name.
@Suite("Typed reads and record types")
struct TypedReadsTests {
    struct CPLMaster: Codable, Equatable {
        var id: String
        var itemType: String
    }

    class Photo: Codable {
        var id = ""
    }

    final class CPLAsset: Photo {}

    /// A master and an asset of one name, shaped like Photos' records.
    static let records = [
        Record(
            recordType: "CPLMaster", recordName: "AR5gg657a+rfmRM8ThJ6m7rgIEWN",
            fields: ["itemType": .string("public.png"), "resOriginalWidth": .int64(1599)]),
        Record(
            recordType: "CPLAsset", recordName: "AR5gg657a+rfmRM8ThJ6m7rgIEWN",
            fields: ["isFavorite": .int64(0), "assetDate": .date(Date(timeIntervalSince1970: 1_687_281_444))]),
    ]

    @Test("retrieve, retrieveAll and retrieveEach read only the records of the model's type", arguments: [true, false])
    func onlyTheModelsType(checksRecordType: Bool) throws {
        var options = RecordStore.Options()
        options.decoder.checksRecordType = checksRecordType
        let store = try RecordStore.inMemory(options: options)
        try store.save(contentsOf: Self.records)
        let name = "AR5gg657a+rfmRM8ThJ6m7rgIEWN"
        #expect(try store.retrieve(CPLMaster.self, identifier: name) == CPLMaster(id: name, itemType: "public.png"))
        #expect(try store.retrieveAll(CPLMaster.self).map(\.id) == [name])
        let results = try store.retrieveEach(CPLMaster.self)
        #expect(results.count == 1 && results.allSatisfy { $0.model != nil })
        // A subclass asked for through its superclass's type reads its own records.
        let type: Photo.Type = CPLAsset.self
        #expect(try store.retrieve(type, identifier: name) is CPLAsset)
        #expect(try store.retrieveAll(type).count == 1)
        #expect(try store.retrieveAll(Photo.self).isEmpty)
        #expect(try store.write { try $0.retrieve(CPLMaster.self, identifier: name) }?.itemType == "public.png")
    }
}
