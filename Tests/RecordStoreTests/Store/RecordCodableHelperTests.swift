import Foundation
import RecordCodable
import Testing

/// The two helpers RecordStore added to RecordCodable.
@Suite("RecordCodable helpers for stores")
struct RecordCodableHelperTests {
    struct Box<Value: Codable>: Codable { var id: String }
    struct Named: Codable, RecordRepresentable {
        static let recordType = "Custom"
        var id: String
    }

    @Test("A model type's record type is the one its records get")
    func recordType() throws {
        #expect(RecordEncoder.recordType(of: Note.self) == "Note")
        #expect(RecordEncoder.recordType(of: Box<Int>.self) == "Box")
        #expect(RecordEncoder.recordType(of: Named.self) == "Custom")
        #expect(try RecordEncoder().encode(Named(id: "a")).recordType == RecordEncoder.recordType(of: Named.self))
    }

    @Test("The update between two records holds what changed, clears what went, keeps the change tag")
    func update() throws {
        var server = noteRecord("N1", title: "Old")
        server["due"] = .date(Date(timeIntervalSince1970: 1_700_000_000))
        server["count"] = .int64(1)
        server.metadata = RecordMetadata(changeTag: "t1")
        var edited = server
        edited["title"] = .string("New")
        edited["due"] = nil
        edited["count"] = .int64(1)
        // The server keeps milliseconds: a date that differs below them is no change.
        edited["when"] = .date(Date(timeIntervalSince1970: 5))
        server["when"] = .date(Date(timeIntervalSince1970: 5.000_000_1))
        let update = try server.update(to: edited)
        #expect(update.fields == ["title": .string("New")])
        #expect(update.clearedFields == ["due"])
        #expect(update.metadata?.changeTag == "t1")
        #expect(try server.update(to: server).fields.isEmpty)

        var renamed = edited
        renamed.recordName = "N2"
        #expect(throws: EncodingError.self) { try server.update(to: renamed) }
    }
}
