import Foundation
import Testing

@testable import RecordCodable

/// The package hook through which a platform bridge keeps its record's system fields in a model
/// (`RecordSystemFieldsArchive`): never a field, carried on the record, filled on decoding.
@Suite("A system fields archive property")
struct SystemFieldsArchiveTests {
    /// What a bridge's type does: bytes that only the platform reads.
    struct Archive: Codable, Hashable, RecordSystemFieldsArchive {
        var bytes: Data
        var recordSystemFieldsArchive: Data? { bytes }
        var recordSystemFieldsRecordName: String? { String(decoding: bytes, as: UTF8.self) }
        static func holding(recordSystemFieldsArchive archive: Data?) -> Archive? { archive.map(Archive.init) }
    }

    struct Note: Codable, Hashable {
        var id: String
        var title: String
        var archive: Archive?
    }

    struct Kept: Codable, Hashable {
        var id: String
        var archive: Archive
    }

    /// A model whose own coding asks for the optional type itself, not through `encodeIfPresent`.
    struct Explicit: Codable, Hashable {
        var id: String
        var archive: Archive?
        enum CodingKeys: String, CodingKey { case id, archive }
        init(id: String, archive: Archive?) {
            self.id = id
            self.archive = archive
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            archive = try container.decode(Archive?.self, forKey: .archive)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(archive, forKey: .archive)
        }
    }

    static let bytes = Data([1, 2, 3])

    @Test("the property is no field: its archive is carried on the record, outside equality")
    func encodes() throws {
        let record = try RecordEncoder().encode(Note(id: "N1", title: "T", archive: Archive(bytes: Self.bytes)))
        #expect(record.fields == ["title": .string("T")])
        #expect(record.systemFieldsArchive == Self.bytes)
        #expect(record == Record(recordType: "Note", recordName: "N1", fields: ["title": .string("T")]))
        // Nor does it reach the JSON.
        let json = try JSONEncoder().encode(record)
        #expect(!String(decoding: json, as: UTF8.self).contains("archive"))
    }

    @Test("nil writes no archive; an encoder kept for the type does not carry one to the next record")
    func absent() throws {
        let encoder = RecordEncoder()
        _ = try encoder.encode(Note(id: "N1", title: "T", archive: Archive(bytes: Self.bytes)))
        let record = try encoder.encode(Note(id: "N2", title: "T", archive: nil))
        #expect(record.systemFieldsArchive == nil)
        #expect(record.fields == ["title": .string("T")])
    }

    /// A model with no identifier, as CloudKitCodable's are.
    struct Unnamed: Codable, Hashable {
        var title: String
        var archive: Archive?
    }

    @Test("a model without an identifier is named by its archive's record; an identifier wins")
    func naming() throws {
        let named = Archive(bytes: Data("R7".utf8))
        let record = try RecordEncoder().encode(Unnamed(title: "T", archive: named))
        #expect(record.recordName == "R7")
        #expect(record.fields == ["title": .string("T")])
        #expect(try RecordEncoder().encode(Note(id: "N1", title: "T", archive: named)).recordName == "N1")
        // Without an archive, a new record is named afresh.
        #expect(try RecordEncoder().encode(Unnamed(title: "T", archive: nil)).recordName != "R7")
    }

    @Test("a schema made from the model has no field for the property, optional or not")
    func schema() throws {
        #expect(try RecordSchema.RecordType(Note.self).fields.map(\.name).contains("title"))
        #expect(!(try RecordSchema.RecordType(Note.self).fields.map(\.name).contains("archive")))
        #expect(!(try RecordSchema.RecordType(Kept.self).fields.map(\.name).contains("archive")))
    }

    @Test("decoding fills the property from the record's archive, nil without one")
    func decodes() throws {
        var record = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("T")])
        #expect(try RecordDecoder().decode(Note.self, from: record).archive == nil)
        record.systemFieldsArchive = Self.bytes
        let note = try RecordDecoder().decode(Note.self, from: record)
        #expect(note == Note(id: "N1", title: "T", archive: Archive(bytes: Self.bytes)))
        record.recordType = "Kept"
        #expect(try RecordDecoder().decode(Kept.self, from: record).archive == Archive(bytes: Self.bytes))
    }

    @Test("a property that is not optional, read from a record with no archive, is valueNotFound at its key")
    func missing() throws {
        let record = Record(recordType: "Kept", recordName: "K1")
        let error = #expect(throws: DecodingError.self) { try RecordDecoder().decode(Kept.self, from: record) }
        guard case .valueNotFound(_, let context) = error else {
            Issue.record("expected valueNotFound, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["archive"])
    }

    @Test("the optional type asked for itself, in hand-written coding, is told by its type too")
    func optionalType() throws {
        let model = Explicit(id: "E1", archive: Archive(bytes: Self.bytes))
        let record = try RecordEncoder().encode(model)
        #expect(record.fields.isEmpty)
        #expect(record.systemFieldsArchive == Self.bytes)
        #expect(try RecordDecoder().decode(Explicit.self, from: record) == model)
        let none = try RecordEncoder().encode(Explicit(id: "E2", archive: nil))
        #expect(none.systemFieldsArchive == nil)
        #expect(try RecordDecoder().decode(Explicit.self, from: none).archive == nil)
    }

    @Test("an update made from the model keeps its archive and leaves the property out of the changes")
    func update() throws {
        let original = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("T")])
        let edit = Note(id: "N1", title: "Renamed", archive: Archive(bytes: Self.bytes))
        let update = try RecordEncoder().encode(edit, updating: original)
        #expect(update.fields == ["title": .string("Renamed")])
        #expect(update.clearedFields.isEmpty)
    }
}
