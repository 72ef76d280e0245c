import Foundation
import RecordCodable
import Testing

/// Identity travels with the metadata, as it does in CloudKit's system fields: a model that keeps
/// its `RecordMetadata` is saved under the name of the record it was read from, never under a new
/// one.
@Suite("Identity in the metadata")
struct IdentityInMetadataTests {
    /// A model migrated from a store that kept no identifier: it has its metadata alone.
    struct Migrated: Codable, Equatable {
        var title: String
        var metadata: RecordMetadata?
    }

    struct Identified: Codable, Equatable {
        var id: String
        var title: String
        var metadata: RecordMetadata?
    }

    static let fetched = Record(
        recordType: "Migrated", recordName: "M1", fields: ["title": .string("a")],
        metadata: RecordMetadata(changeTag: "e1", zoneID: RecordZoneID(zoneName: "Notes")))

    @Test("Metadata's hand-written equality and hash cover every stored property but the record's name")
    func metadataEqualityCoversEveryProperty() {
        // `==` and `hash(into:)` list the properties by hand: one added later must join them (or
        // be left out on purpose, as the name is), and this list with it.
        let base = RecordMetadata(changeTag: "t", zoneID: RecordZoneID(zoneName: "Z"), recordName: "N")
        #expect(
            Mirror(reflecting: base).children.compactMap(\.label)
                == ["changeTag", "created", "modified", "zoneID", "deleted", "share", "shortGUID", "recordName"])
        let stamp = RecordMetadata.Stamp(timestamp: Date(timeIntervalSince1970: 1))
        let edits: [(String, (inout RecordMetadata) -> Void)] = [
            ("changeTag", { $0.changeTag = "u" }), ("created", { $0.created = stamp }),
            ("modified", { $0.modified = stamp }), ("zoneID", { $0.zoneID = RecordZoneID(zoneName: "Y") }),
            ("deleted", { $0.deleted = true }), ("share", { $0.share = RecordReference(recordName: "S") }),
            ("shortGUID", { $0.shortGUID = "g" }),
        ]
        for (name, edit) in edits {
            var other = base
            edit(&other)
            #expect(other != base, "\(name) is left out of ==")
            #expect(other.hashValue != base.hashValue, "\(name) is left out of hash(into:)")
        }
        var renamed = base
        renamed.recordName = "M"
        #expect(renamed == base && renamed.hashValue == base.hashValue)
    }

    @Test("The decoder puts the record's name in the metadata it reads")
    func decoderSetsTheName() throws {
        let model = try RecordDecoder().decode(Migrated.self, from: Self.fetched)
        #expect(model.metadata?.recordName == "M1")
        #expect(model.metadata?.changeTag == "e1")
    }

    @Test("A record's metadata always holds the record's own name, and a record read from JSON has it")
    func recordsMetadataHoldsItsName() throws {
        var record = Self.fetched
        #expect(record.metadata?.recordName == "M1")
        record.recordName = "M2"
        #expect(record.metadata?.recordName == "M2")
        let json = Data(#"{"recordName":"W1","recordType":"Migrated","recordChangeTag":"e2","fields":{}}"#.utf8)
        #expect(try RecordJSONDecoder().decode(Record.self, from: json).metadata?.recordName == "W1")
        #expect(try JSONDecoder().decode(Record.self, from: json).metadata?.recordName == "W1")
        // A record the server has not named yet has no name to carry.
        let unnamed = Record(recordType: "Migrated", recordName: "", metadata: RecordMetadata(changeTag: "e"))
        #expect(unnamed.metadata?.recordName == nil)
    }

    @Test("A model without an identifier is named by its metadata, at every encode")
    func namedByMetadata() throws {
        var model = try RecordDecoder().decode(Migrated.self, from: Self.fetched)
        model.title = "b"
        let first = try RecordEncoder().encode(model)
        let second = try RecordEncoder().encode(model)
        #expect(first.recordName == "M1")
        #expect(second.recordName == "M1")
        #expect(first.metadata?.changeTag == "e1")
    }

    @Test("Saving a migrated model sends an update of its own record, with exactly what changed")
    func migratedModelSavesAnUpdate() throws {
        var model = try RecordDecoder().decode(Migrated.self, from: Self.fetched)
        model.title = "b"
        let request = try RecordsModifyRequest(saving: [model])
        #expect(request.operations.map(\.operationType) == [.update])
        #expect(request.operations.first?.record.recordName == "M1")
        let update = try RecordEncoder().encode(model, updating: Self.fetched)
        #expect(update.recordName == "M1")
        #expect(update.fields == ["title": .string("b")])
    }

    @Test("Metadata with a change tag and no name to prove its record is an error, never a new UUID")
    func changeTagWithoutName() throws {
        let model = Migrated(title: "a", metadata: RecordMetadata(changeTag: "e1"))
        let error = expectEncodingError(at: "") { _ = try RecordEncoder().encode(model) }
        #expect(error?.context?.debugDescription.contains("change tag 'e1'") == true)
        expectEncodingError(at: "") { _ = try RecordsModifyRequest(saving: [model]) }
        // Metadata without a change tag is of a record the server has not seen: named anew.
        let new = try RecordEncoder().encode(Migrated(title: "a", metadata: RecordMetadata()))
        #expect(UUID(uuidString: new.recordName) != nil)
    }

    @Test("An identifier that agrees with the metadata names the record; one that differs is an error at its path")
    func identifierAndMetadata() throws {
        let agreeing = Identified(id: "N1", title: "t", metadata: RecordMetadata(changeTag: "e", recordName: "N1"))
        #expect(try RecordEncoder().encode(agreeing).recordName == "N1")
        let differing = Identified(id: "N2", title: "t", metadata: RecordMetadata(changeTag: "e", recordName: "N1"))
        let error = expectEncodingError(at: "id") { _ = try RecordEncoder().encode(differing) }
        #expect(error?.context?.debugDescription.contains("belongs to the record 'N1'") == true)
        // Metadata without a name leaves the identifier to name the record.
        let unnamed = Identified(id: "N3", title: "t", metadata: RecordMetadata(changeTag: "e"))
        #expect(try RecordEncoder().encode(unnamed).recordName == "N3")
    }

    @Test("A nil identifier with named metadata is named by the metadata")
    func nilIdentifierWithMetadata() throws {
        struct MaybeNamed: Codable {
            var id: String?
            var metadata: RecordMetadata?
        }
        let model = MaybeNamed(id: nil, metadata: RecordMetadata(changeTag: "e", recordName: "K1"))
        #expect(try RecordEncoder().encode(model).recordName == "K1")
        let unproven = MaybeNamed(id: nil, metadata: RecordMetadata(changeTag: "e"))
        expectEncodingError(at: "") { _ = try RecordEncoder().encode(unproven) }
    }

    @Test("Equality of metadata leaves its record name out; its own JSON keeps it")
    func metadataEquality() throws {
        let named = RecordMetadata(changeTag: "e", recordName: "N1")
        #expect(named == RecordMetadata(changeTag: "e"))
        #expect(named.hashValue == RecordMetadata(changeTag: "e").hashValue)
        let copy = try JSONDecoder().decode(RecordMetadata.self, from: JSONEncoder().encode(named))
        #expect(copy.recordName == "N1")
    }

    @Test("The encoder's zone is the zone of the records it writes")
    func encoderZone() throws {
        var encoder = RecordEncoder()
        let notes = RecordZoneID(zoneName: "Notes")
        encoder.zoneID = notes
        // No metadata: a metadata of the zone alone.
        let fresh = try encoder.encode(Identified(id: "N1", title: "t", metadata: nil))
        #expect(fresh.metadata?.zoneID == notes)
        #expect(fresh.metadata?.changeTag == nil)
        // Metadata without a zone gets the encoder's; metadata of the same zone is kept.
        let tagged = try encoder.encode(Identified(id: "N1", title: "t", metadata: RecordMetadata(changeTag: "e")))
        #expect(tagged.metadata == RecordMetadata(changeTag: "e", zoneID: notes))
        let fetched = try RecordDecoder().decode(Migrated.self, from: Self.fetched)
        #expect(try encoder.encode(fetched).metadata?.zoneID == notes)
        // Another zone's record cannot move.
        encoder.zoneID = RecordZoneID(zoneName: "Archive")
        let error = expectEncodingError(at: "") { _ = try encoder.encode(fetched) }
        #expect(error?.context?.debugDescription.contains("a record cannot move between zones") == true)
    }
}
