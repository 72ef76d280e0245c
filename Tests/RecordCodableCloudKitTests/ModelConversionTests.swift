#if canImport(CloudKit)
    import CloudKit
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable
    import RecordCodableCloudKit
    import Testing

    /// `RecordEncoder.encodeCKRecord(_:systemFields:)` and `RecordDecoder.decode(_:from: CKRecord)`, and a
    /// model's `CloudKitSystemFields` property: a fetched record edited and saved as an update of itself.
    @Suite("Models to CKRecord and back")
    struct ModelConversionTests {
        struct Note: Codable, Hashable {
            var id: String
            var title: String
            var pinned = false
            var subtitle: String? = nil
            var systemFields: CloudKitSystemFields?
        }

        /// A note the server has: its `CKRecord` as a fetch returns it.
        static func fetched() throws -> CKRecord {
            var encoder = RecordEncoder()
            encoder.zoneID = RecordZoneID(zoneName: "Notes")
            return try encoder.encodeCKRecord(Note(id: "N1", title: "Hello", pinned: true, subtitle: "S"))
        }

        @Test("a model becomes a new CKRecord: named by its identifier, in the encoder's zone, every field changed")
        func encodesNew() throws {
            let ckRecord = try Self.fetched()
            #expect(ckRecord.recordType == "Note")
            #expect(ckRecord.recordID.recordName == "N1")
            #expect(ckRecord.recordID.zoneID.zoneName == "Notes")
            #expect(ckRecord.allKeys() == ["pinned", "subtitle", "title"])
            #expect(ckRecord.sortedChangedKeys == ["pinned", "subtitle", "title"])
            #expect((ckRecord.object(forKey: "title") as? NSString) == "Hello")
            #expect((ckRecord.object(forKey: "pinned") as? NSNumber)?.int64Value == 1)
        }

        @Test("decoding fills the system fields property, which is never a field")
        func decodesSystemFields() throws {
            let ckRecord = try Self.fetched()
            let note = try RecordDecoder().decode(Note.self, from: ckRecord)
            #expect(note.title == "Hello")
            #expect(note.subtitle == "S")
            expectSystemFields(note.systemFields, of: ckRecord)
            #expect(!ckRecord.allKeys().contains("systemFields"))
        }

        @Test("an edit saved from the model updates the fetched record: its identity, and only the model's fields")
        func savesUpdate() throws {
            let fetched = try Self.fetched()
            var note = try RecordDecoder().decode(Note.self, from: fetched)
            note.title = "Renamed"
            // A plain encoder: the zone comes from the system fields.
            let update = try RecordEncoder().encodeCKRecord(note)
            #expect(update.recordID.recordName == "N1")
            #expect(update.recordID.zoneID.zoneName == "Notes")
            #expect(update.sortedChangedKeys == ["pinned", "subtitle", "title"])
            #expect(!update.sortedChangedKeys.contains("systemFields"))
            #expect((update.object(forKey: "title") as? NSString) == "Renamed")
            // Read back, the model is the edit.
            let back = try RecordDecoder().decode(Note.self, from: update)
            #expect(back.title == "Renamed")
            #expect(back.systemFields != nil)
        }

        @Test("a property set to nil writes nothing: the update leaves that field as the server has it")
        func nilWritesNothing() throws {
            var note = try RecordDecoder().decode(Note.self, from: try Self.fetched())
            note.subtitle = nil
            let update = try RecordEncoder().encodeCKRecord(note)
            #expect(update.sortedChangedKeys == ["pinned", "title"])
        }

        @Test("an edit made with encode(_:updating:) sends only what changed, and clears a field set to nil")
        func onlyChanges() throws {
            let fetched = try Self.fetched()
            let original = try Record(fetched)
            var note = try RecordDecoder().decode(Note.self, from: fetched)
            note.title = "Renamed"
            note.subtitle = nil
            let record = try RecordEncoder().encode(note, updating: original)
            let update = try record.ckRecord(systemFields: note.systemFields)
            #expect(update.sortedChangedKeys == ["subtitle", "title"])
            #expect(update.object(forKey: "subtitle") == nil)
            #expect(update.recordID.zoneID.zoneName == "Notes")
        }

        @Test("the systemFields argument wins over the property's, which must be of the same record")
        func argumentWins() throws {
            let fetched = try Self.fetched()
            let note = try RecordDecoder().decode(Note.self, from: fetched)
            let newer = CloudKitSystemFields(try RecordEncoder().encodeCKRecord(note))
            let update = try RecordEncoder().encodeCKRecord(note, systemFields: newer)
            #expect(update.recordID.recordName == "N1")
            #expect(update.recordID.zoneID.zoneName == "Notes")

            // The argument alone, for a model without the property's value.
            var bare = note
            bare.systemFields = nil
            #expect(try RecordEncoder().encodeCKRecord(bare, systemFields: newer).recordID.zoneID.zoneName == "Notes")

            // The property's system fields of another record are an error, even when the argument is right.
            var other = note
            other.systemFields = CloudKitSystemFields(
                CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "N2")))
            expectEncodingError(at: "", mentioning: "the record named 'N2', not of 'N1'") {
                _ = try RecordEncoder().encodeCKRecord(other, systemFields: newer)
            }
        }

        static let mismatches: [(String, String, String)] = [
            ("Task", "N1", "those of a 'Task' record, not of a 'Note' record"),
            ("Note", "N9", "the record named 'N9', not of 'N1'"),
        ]

        @Test("a property's system fields of another type or name are an error, not a trap", arguments: mismatches)
        func mismatch(type: String, name: String, words: String) throws {
            var note = Note(id: "N1", title: "T", pinned: false)
            note.systemFields = CloudKitSystemFields(
                CKRecord(recordType: type, recordID: CKRecord.ID(recordName: name)))
            expectEncodingError(at: "", mentioning: words) { _ = try RecordEncoder().encodeCKRecord(note) }
        }

        @Test("bytes that are no archive, in the property, are an error")
        func notAnArchive() throws {
            var note = Note(id: "N1", title: "T", pinned: false)
            note.systemFields = CloudKitSystemFields(data: Data("not an archive".utf8))
            expectEncodingError(at: "", mentioning: "not an archive of a CKRecord's system fields") {
                _ = try RecordEncoder().encodeCKRecord(note)
            }
        }

        @Test("a model that is no record is the encoder's error, and a CKRecord the model cannot read the decoder's")
        func errors() throws {
            struct Wrong: Codable {
                var id: String
                var title: Int
            }
            #expect(throws: DecodingError.self) { _ = try RecordDecoder().decode(Wrong.self, from: try Self.fetched()) }
            struct Reserved: Codable {
                var id: String
                var modificationDate: Date
            }
            expectEncodingError(at: "modificationDate", mentioning: "the name of a CKRecord property") {
                _ = try RecordEncoder().encodeCKRecord(Reserved(id: "R1", modificationDate: Date()))
            }
        }

        @Test("the system fields survive the model's own JSON, and still make the save an update")
        func storedModel() throws {
            let note = try RecordDecoder().decode(Note.self, from: try Self.fetched())
            let stored = try JSONDecoder().decode(Note.self, from: try JSONEncoder().encode(note))
            #expect(stored == note)
            #expect(try RecordEncoder().encodeCKRecord(stored).recordID.zoneID.zoneName == "Notes")
        }
    }
#endif
