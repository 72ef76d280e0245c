import Foundation
import Testing

@testable import RecordCodable

/// The size of a record, and the guard that stops a record the server would refuse.
@Suite("Record size")
struct SizeGuardTests {
    struct Document: Codable, Equatable {
        var id = "d"
        var title: String
        var body: String
        var attachment: Data?
        var outline: [String: String]?
    }

    @Test("encodedSize follows the documented rule for every kind of value")
    func encodedSizeRules() {
        let zone = RecordZoneID(zoneName: "zone", ownerRecordName: "owner")
        let values: [(RecordValue, Int)] = [
            (.string("héllo"), 6), (.int64(1), 8), (.double(1), 8), (.date(Date()), 8), (.bytes(Data(count: 42)), 42),
            (.reference(RecordReference(recordName: "abc")), 3),
            (.reference(RecordReference(recordName: "abc", zoneID: zone)), 12),
            (.location(RecordLocation(latitude: 1, longitude: 2)), 16),
            (.location(RecordLocation(latitude: 1, longitude: 2, altitude: 3, speed: 4, timestamp: Date())), 40),
            (.asset(RecordAsset(fileChecksum: "checksum", downloadURL: "https://x")), 8),
            (.asset(RecordAsset(fileURL: URL(fileURLWithPath: "/a/b"))), "file:///a/b".utf8.count),
            (.asset(RecordAsset(downloadURL: "https://x")), 9), (.asset(RecordAsset()), 0),
            (.list([.string("ab"), .string("c")]), 3), (.list([]), 0), (.list([.int64(1), .int64(2)]), 16),
        ]
        for (value, size) in values {
            #expect(value.encodedSize == size, "\(value)")
            let record = Record(recordType: "T", recordName: "n", fields: ["field": value])
            #expect(record.encodedSize == 5 + size)
        }
    }

    @Test("The encoder's running size equals the record's encodedSize")
    func runningSizeMatches() throws {
        let document = Document(
            title: "Title", body: "Body", attachment: Data(count: 10), outline: ["a": "b"])
        let record = try RecordEncoder().encode(document)
        let expected = record.fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.encodedSize }
        #expect(record.encodedSize == expected)
        let everything = try RecordEncoder().encode(EveryKindModel.sample)
        #expect(everything.encodedSize == everything.fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.encodedSize })
    }

    private func tooLarge(_ body: () throws -> Void) -> (size: Int, limit: Int, heaviest: [String])? {
        let error = #expect(throws: RecordEncodingError.self) { try body() }
        guard case .recordTooLarge(let size, let limit, let heaviest)? = error else { return nil }
        return (size, limit, heaviest)
    }

    @Test func stringOverTheLimit() throws {
        let document = Document(
            title: "t", body: String(repeating: "x", count: 1_000_000), attachment: nil, outline: nil)
        let failure = tooLarge { _ = try RecordEncoder().encode(document) }
        #expect(failure?.size == "title".utf8.count + 1 + "body".utf8.count + 1_000_000)
        #expect(failure?.limit == 1_000_000)
        // The title's 6 bytes do not matter beside the body's million.
        #expect(failure?.heaviest == ["body"])
    }

    @Test func dataOverTheLimit() throws {
        let document = Document(title: "t", body: "b", attachment: Data(count: 999_990), outline: nil)
        #expect(tooLarge { _ = try RecordEncoder().encode(document) }?.heaviest.first == "attachment")
    }

    @Test func nestedValueOverTheLimit() throws {
        let outline = Dictionary(
            uniqueKeysWithValues: (0..<20_000).map { ("key\($0)", String(repeating: "v", count: 50)) })
        let document = Document(title: "t", body: "b", attachment: nil, outline: outline)
        #expect(tooLarge { _ = try RecordEncoder().encode(document) }?.heaviest.first == "outline")
    }

    @Test("A record exactly at the limit is accepted; one byte over is not")
    func exactlyAtTheLimit() throws {
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = 100
        let fixed = "title".utf8.count + 1 + "body".utf8.count
        let atLimit = Document(
            title: "t", body: String(repeating: "x", count: 100 - fixed), attachment: nil, outline: nil)
        #expect(try encoder.encode(atLimit).encodedSize == 100)
        let overLimit = Document(
            title: "t", body: String(repeating: "x", count: 101 - fixed), attachment: nil, outline: nil)
        let failure = tooLarge { _ = try encoder.encode(overLimit) }
        #expect(failure?.size == 101)
        #expect(failure?.limit == 100)
    }

    @Test("The description names the heaviest fields and suggests RecordAssetValue")
    func description() {
        let error = RecordEncodingError.recordTooLarge(
            size: 2_000_000, limit: 1_000_000, heaviestFields: ["body", "image"])
        #expect(error.description.contains("2000000"))
        #expect(error.description.contains("'body', 'image'"))
        #expect(error.description.contains("RecordAssetValue"))
        #expect(error.localizedDescription == error.description)
    }

    @Test("An asset value does not count: only its reference does")
    func assetValueDoesNotCount() throws {
        struct Transcript: RecordAssetValue, Equatable {
            var text: String
        }
        struct Episode: Codable, Equatable {
            var id = "e"
            var transcript: Transcript
        }
        var encoder = RecordEncoder()
        try withTemporaryDirectory { directory in
            encoder.assetDirectory = directory
            let episode = Episode(transcript: Transcript(text: String(repeating: "words ", count: 400_000)))
            let record = try roundTrip(episode, encoder: encoder)
            #expect(record.encodedSize < 300)
        }
    }
}
