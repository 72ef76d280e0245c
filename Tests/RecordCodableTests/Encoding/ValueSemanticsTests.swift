import Foundation
import Testing

@testable import RecordCodable

/// The coders keep their options, and a record its metadata, in shared objects that are never
/// changed: copies must still behave as independent values.
@Suite("Value semantics")
struct ValueSemanticsTests {
    @Test("Changing an option of an encoder's copy leaves the original as it was")
    func encoderCopiesAreIndependent() throws {
        let original = RecordEncoder()
        var copy = original
        copy.maximumRecordSize = 10
        copy.identifierKey = nil
        copy.keyEncodingStrategy = .convertToSnakeCase
        copy.assetDirectory = URL(fileURLWithPath: "/tmp/elsewhere", isDirectory: true)
        copy.zoneID = RecordZoneID(zoneName: "Notes")
        copy.userInfo = [CodingUserInfoKey(rawValue: "k")!: 1]

        #expect(original.maximumRecordSize == 1_000_000)
        #expect(original.identifierKey == "id")
        #expect(original.assetDirectory.lastPathComponent == "RecordCodableAssets")
        #expect(original.zoneID == nil)
        #expect(original.userInfo.isEmpty)
        guard case .useDefaultKeys = original.keyEncodingStrategy else {
            Issue.record("The original's key strategy changed")
            return
        }

        #expect(copy.maximumRecordSize == 10)
        #expect(copy.identifierKey == nil)
        #expect(copy.assetDirectory.path == "/tmp/elsewhere")
        #expect(copy.zoneID == RecordZoneID(zoneName: "Notes"))
        #expect(copy.userInfo.count == 1)

        struct Note: Codable {
            var id = "n1"
            var bodyText = "b"
        }
        let fromOriginal = try original.encode(Note())
        #expect(fromOriginal.recordName == "n1")
        #expect(fromOriginal.fields == ["bodyText": .string("b")])
        copy.maximumRecordSize = 1_000
        let fromCopy = try copy.encode(Note())
        #expect(fromCopy.recordName != "n1")
        #expect(fromCopy.fields == ["id": .string("n1"), "body_text": .string("b")])
    }

    @Test("Changing an option of a decoder's copy leaves the original as it was")
    func decoderCopiesAreIndependent() throws {
        let original = RecordDecoder()
        var copy = original
        copy.identifierKey = nil
        copy.keyDecodingStrategy = .convertFromSnakeCase
        copy.userInfo = [CodingUserInfoKey(rawValue: "k")!: 1]

        #expect(original.identifierKey == "id")
        #expect(original.userInfo.isEmpty)
        guard case .useDefaultKeys = original.keyDecodingStrategy else {
            Issue.record("The original's key strategy changed")
            return
        }

        struct Note: Codable, Equatable {
            var id: String
            var bodyText: String
        }
        let record = Record(
            recordType: "Note", recordName: "n1", fields: ["id": .string("field"), "body_text": .string("b")])
        #expect(throws: DecodingError.self) { try original.decode(Note.self, from: record) }
        #expect(try copy.decode(Note.self, from: record) == Note(id: "field", bodyText: "b"))
    }

    static let metadata = RecordMetadata(
        changeTag: "e1", modified: .init(timestamp: Date(timeIntervalSince1970: 1_700_000_000)),
        zoneID: RecordZoneID(zoneName: "Notes"))

    @Test("Changing a record copy's metadata in place leaves the original's as it was")
    func recordMetadataIsAValue() {
        let original = Record(recordType: "Note", recordName: "n1", metadata: Self.metadata)
        var copy = original
        copy.metadata?.changeTag = "e2"
        #expect(original.metadata?.changeTag == "e1")
        #expect(copy.metadata?.changeTag == "e2")
        #expect(original != copy)

        copy.metadata = nil
        #expect(copy.metadata == nil)
        #expect(original.metadata == Self.metadata)
    }

    @Test("Records are equal, and hash alike, exactly when type, name, fields and metadata are equal")
    func recordEqualityCoversEveryPart() {
        let record = Record(recordType: "Note", recordName: "n1", fields: ["a": .int64(1)], metadata: Self.metadata)
        var changedMetadata = record
        changedMetadata.metadata?.deleted = true
        var changedField = record
        changedField["a"] = .int64(2)
        let others = [
            Record(recordType: "Other", recordName: "n1", fields: ["a": .int64(1)], metadata: Self.metadata),
            Record(recordType: "Note", recordName: "n2", fields: ["a": .int64(1)], metadata: Self.metadata),
            Record(recordType: "Note", recordName: "n1", fields: ["a": .int64(1)]),
            changedMetadata, changedField,
        ]
        let same = Record(recordType: "Note", recordName: "n1", fields: ["a": .int64(1)], metadata: Self.metadata)

        #expect(record == same)
        #expect(record.hashValue == same.hashValue)
        for other in others { #expect(record != other) }
        #expect(Set(others + [record, same]).count == others.count + 1)
    }

    @Test("A record prints readably: its type and name, then a field a line, values short")
    func recordDescription() {
        var record = Record(
            recordType: "Note", recordName: "n1",
            fields: [
                "title": .string(String(repeating: "a", count: 70)), "count": .int64(3), "score": .double(0.5),
                "blob": .bytes(Data([1, 2])), "due": .date(Date(timeIntervalSince1970: 1_700_000_000.123)),
                "folder": .reference(RecordReference(recordName: "F1", action: .deleteSelf)),
                "where": .location(RecordLocation(latitude: 45, longitude: -93)),
                "photo": .asset(RecordAsset(fileChecksum: "c1", size: 10)),
                "tags": .list((1...7).map { .int64(Int64($0)) }),
            ],
            metadata: RecordMetadata(changeTag: "e1", zoneID: RecordZoneID(zoneName: "Notes")))
        record.encryptedFields = ["title"]
        record.clearedFields = ["old"]
        #expect(
            String(describing: record) == """
                Note "n1" (change tag e1, zone Notes)
                  blob: 2 bytes
                  count: 3
                  due: 2023-11-14T22:13:20.123Z
                  folder: → F1 (DELETE_SELF)
                  photo: asset c1 (10 bytes)
                  score: 0.5
                  tags: [1, 2, 3, 4, 5, … 2 more]
                  title: "\(String(repeating: "a", count: 60))…"
                  where: (45.0, -93.0)
                  encrypted: title
                  cleared: old
                """)
        #expect(String(describing: Record(recordType: "T", recordName: "")) == "T (unnamed)")
        // dump shows every part.
        var dumped = ""
        dump(record, to: &dumped)
        #expect(dumped.contains("changeTag"))
    }
}
