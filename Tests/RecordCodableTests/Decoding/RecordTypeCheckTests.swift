import Foundation
import Testing

@testable import RecordCodable

/// The record type is checked: a record of Photos' `CPLAsset` type does not decode into a model of
/// its `CPLMaster` records, as it did before (issue 41).
@Suite("Record type check")
struct RecordTypeCheckTests {
    /// A model of Photos' master records, named as the record type.
    struct CPLMaster: Codable, Equatable {
        var id: String
        var itemType: String?
        var resOriginalWidth: Int?
    }

    /// The same model, named otherwise, that gives its record type.
    struct PhotoMaster: Codable, Equatable, RecordRepresentable {
        static let recordType = "CPLMaster"
        var id: String
        var itemType: String?
    }

    class Photo: Codable {
        var id = ""
    }

    final class CPLAsset: Photo {}

    /// The master and the asset of one recorded Photos query answer.
    static func photosPage() throws -> (master: Record, asset: Record) {
        let url = RecordedBodies.directory.appendingPathComponent("icloudpd/queryResponse-listing_photos-10.json")
        let page = try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: Data(contentsOf: url))
        let records = page.records.compactMap(\.record)
        guard let master = records.first(where: { $0.recordType == "CPLMaster" }),
            let asset = records.first(where: { $0.recordType == "CPLAsset" })
        else { throw RecordedBodies.Missing() }
        return (master, asset)
    }

    @Test("A CPLAsset record does not decode as a CPLMaster; the message names both types")
    func otherTypeIsRefused() throws {
        let (master, asset) = try Self.photosPage()
        let decoded = try RecordDecoder().decode(CPLMaster.self, from: master)
        #expect(decoded.itemType == "public.png")
        let error = expectDecodingError("typeMismatch", at: "") {
            _ = try RecordDecoder().decode(CPLMaster.self, from: asset)
        }
        let message = error?.context?.debugDescription ?? ""
        #expect(message.contains("'CPLMaster'") && message.contains("'CPLAsset'"), "\(message)")
        #expect(message.contains(asset.recordName))
    }

    @Test("checksRecordType = false reads a record of any type")
    func checkTurnedOff() throws {
        let (_, asset) = try Self.photosPage()
        var decoder = RecordDecoder()
        #expect(decoder.checksRecordType)
        decoder.checksRecordType = false
        let decoded = try decoder.decode(CPLMaster.self, from: asset)
        #expect(decoded.id == asset.recordName)
    }

    @Test("A RecordRepresentable model is checked against its recordType, not its name")
    func recordRepresentable() throws {
        let (master, asset) = try Self.photosPage()
        #expect(try RecordDecoder().decode(PhotoMaster.self, from: master).itemType == "public.png")
        expectDecodingError("typeMismatch", at: "") { _ = try RecordDecoder().decode(PhotoMaster.self, from: asset) }
    }

    @Test("A subclass passed through its superclass's type is checked against the subclass's name")
    func subclassThroughSuperclass() throws {
        let type: Photo.Type = CPLAsset.self
        let (master, asset) = try Self.photosPage()
        let decoded = try RecordDecoder().decode(type, from: asset)
        #expect(decoded is CPLAsset)
        let error = expectDecodingError("typeMismatch", at: "") { _ = try RecordDecoder().decode(type, from: master) }
        #expect(error?.context?.debugDescription.contains("'CPLAsset'") == true)
        var photo = asset
        photo.recordType = "Photo"
        expectDecodingError("typeMismatch", at: "") { _ = try RecordDecoder().decode(type, from: photo) }
    }

    @Test("A record without a type, as some answers leave it out, is not checked")
    func emptyTypeIsNotChecked() throws {
        var (master, _) = try Self.photosPage()
        master.recordType = ""
        #expect(try RecordDecoder().decode(CPLMaster.self, from: master).id == master.recordName)
    }

    @Test("Decoding with linked records checks the model's own record too")
    func linkedRecordsAreChecked() throws {
        let (master, asset) = try Self.photosPage()
        expectDecodingError("typeMismatch", at: "") {
            _ = try RecordDecoder().decode(CPLMaster.self, from: asset, linkedRecords: [master, asset])
        }
        expectDecodingError("typeMismatch", at: "") {
            _ = try RecordDecoder().decode(CPLMaster.self, from: asset, linkedRecords: LinkedRecordSet([master]))
        }
    }

    @Test("An update of an original of another type is refused, not sent over that record")
    func updateOfAnotherType() throws {
        let (master, asset) = try Self.photosPage()
        let model = CPLMaster(id: asset.recordName, itemType: "public.jpeg")
        let error = #expect(throws: EncodingError.self) { _ = try RecordEncoder().encode(model, updating: asset) }
        #expect(String(describing: error).contains("CPLAsset"))
        #expect(throws: EncodingError.self) {
            _ = try RecordsModifyRequest(saving: [model], updating: [asset])
        }
        var edited = try RecordDecoder().decode(CPLMaster.self, from: master)
        edited.itemType = "public.jpeg"
        let update = try RecordEncoder().encode(edited, updating: master)
        #expect(update.fields == ["itemType": .string("public.jpeg")])
    }
}
