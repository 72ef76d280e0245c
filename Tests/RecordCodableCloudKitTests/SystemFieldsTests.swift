#if canImport(CloudKit)
    import CloudKit
    import CoreLocation
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable
    import RecordCodableCloudKit
    import Testing

    @Suite("System fields: an edit saved as an update")
    struct SystemFieldsTests {
        /// A record as this device made it, with the system fields a save would keep.
        static func saved() throws -> (record: Record, systemFields: CloudKitSystemFields) {
            var note = Record(
                recordType: "Note", recordName: "N1", fields: ["title": .string("Hello"), "body": .string("B")])
            note.metadata = RecordMetadata(zoneID: RecordZoneID(zoneName: "Notes"))
            let ckRecord = try note.ckRecord(systemFields: nil)
            return (note, CloudKitSystemFields(ckRecord))
        }

        @Test("the archive rebuilds the record: same identity, no fields, and only what this record writes changed")
        func update() throws {
            let (_, systemFields) = try Self.saved()
            var edit = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("Renamed")])
            edit.clearedFields = ["body"]
            let ckRecord = try edit.ckRecord(systemFields: systemFields)
            #expect(ckRecord.recordType == "Note")
            #expect(ckRecord.recordID.recordName == "N1")
            #expect(ckRecord.recordID.zoneID.zoneName == "Notes")
            #expect(ckRecord.sortedChangedKeys == ["body", "title"])
            #expect(ckRecord.allKeys() == ["title"])
            // The metadata may leave the zone out: the archive's is taken.
            #expect(try Record(ckRecord).metadata?.zoneID == RecordZoneID(zoneName: "Notes"))
        }

        @Test("system fields round trip: archived again from the rebuilt record, they are the same record's")
        func archiveAgain() throws {
            let (note, systemFields) = try Self.saved()
            let rebuilt = try note.ckRecord(systemFields: systemFields)
            let again = CloudKitSystemFields(rebuilt)
            let twice = try note.ckRecord(systemFields: again)
            #expect(twice.recordID.recordName == "N1")
            #expect(twice.recordID.zoneID.zoneName == "Notes")
            #expect(twice.sortedChangedKeys == ["body", "title"])
        }

        static let mismatches: [(String, String, RecordZoneID?, String)] = [
            ("Task", "N1", nil, "those of a 'Note' record, not of a 'Task' record"),
            ("Note", "N2", nil, "the record named 'N1', not of 'N2'"),
            ("Note", "N1", RecordZoneID(zoneName: "Archive"), "in zone 'Notes'"),
        ]

        @Test(
            "a record type, name or zone that differs from the archive's is an error, not a trap", arguments: mismatches
        )
        func mismatch(type: String, name: String, zone: RecordZoneID?, words: String) throws {
            let (_, systemFields) = try Self.saved()
            var other = Record(recordType: type, recordName: name)
            other.metadata = zone.map { RecordMetadata(zoneID: $0) }
            expectEncodingError(at: "", mentioning: words) { _ = try other.ckRecord(systemFields: systemFields) }
        }

        @Test("bytes that are not an archive are an error")
        func notAnArchive() {
            let note = Record(recordType: "Note", recordName: "N1")
            for data in [Data(), Data("not an archive".utf8)] {
                expectEncodingError(at: "", mentioning: "not an archive") {
                    _ = try note.ckRecord(systemFields: CloudKitSystemFields(data: data))
                }
            }
        }

        @Test("a change tag without system fields is an error: the save would be refused as a create")
        func changeTagWithoutSystemFields() {
            var note = Record(recordType: "Note", recordName: "N1")
            note.metadata = RecordMetadata(changeTag: "e1")
            expectEncodingError(at: "", mentioning: "no system fields") { _ = try note.ckRecord(systemFields: nil) }
        }

        @Test("CloudKitSystemFields is Codable as its bytes, Hashable and Sendable")
        func codable() throws {
            let (_, systemFields) = try Self.saved()
            let json = try JSONEncoder().encode(systemFields)
            #expect(try JSONDecoder().decode(String.self, from: json) == systemFields.data.base64EncodedString())
            #expect(try JSONDecoder().decode(CloudKitSystemFields.self, from: json) == systemFields)
            let sendable: any Sendable & Hashable = systemFields
            #expect(Set([systemFields, systemFields]).count == 1)
            _ = sendable
        }

        #if !canImport(CloudKit)
            // The server's part can only be played with the shim: CloudKit assigns these on a real save.

            /// A record as a fetch returns it: saved by the server, with its system fields.
            static func fetched() -> CKRecord {
                let zone = CKRecordZone.ID(zoneName: "Notes", ownerName: CKCurrentUserDefaultName)
                let ckRecord = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "N1", zoneID: zone))
                ckRecord.setObject(NSString(string: "Hello"), forKey: "title")
                ckRecord.setObject(NSString(string: "Body"), forKey: "body")
                ckRecord.shimServerSave(
                    changeTag: "e7", created: Date(timeIntervalSinceReferenceDate: 100),
                    creator: CKRecord.ID(recordName: "_alice"),
                    modified: Date(timeIntervalSinceReferenceDate: 200), modifier: CKRecord.ID(recordName: "_bob"),
                    share: CKRecord.Reference(recordID: CKRecord.ID(recordName: "Share1", zoneID: zone), action: .none))
                return ckRecord
            }

            @Test("the server's system fields are the record's metadata")
            func metadata() throws {
                let record = try Record(Self.fetched())
                #expect(record.fields == ["title": .string("Hello"), "body": .string("Body")])
                #expect(record.clearedFields.isEmpty)
                let metadata = try #require(record.metadata)
                #expect(metadata.changeTag == "e7")
                #expect(
                    metadata.created
                        == RecordMetadata.Stamp(
                            timestamp: Date(timeIntervalSinceReferenceDate: 100), userRecordName: "_alice"))
                #expect(
                    metadata.modified
                        == RecordMetadata.Stamp(
                            timestamp: Date(timeIntervalSinceReferenceDate: 200), userRecordName: "_bob"))
                #expect(metadata.zoneID == RecordZoneID(zoneName: "Notes"))
                #expect(metadata.share == RecordReference(recordName: "Share1"))
            }

            @Test("fetch, edit, save: the update carries the change tag and changes only the edited field")
            func fetchEditSave() throws {
                let fetched = Self.fetched()
                let systemFields = CloudKitSystemFields(fetched)
                var edit = try Record(fetched)
                // What RecordEncoder.encode(_:updating:) makes of an edit: only the changed field.
                edit.fields = ["title": .string("Renamed")]
                let update = try edit.ckRecord(systemFields: systemFields)
                #expect(update.recordChangeTag == "e7")
                #expect(update.modificationDate == Date(timeIntervalSinceReferenceDate: 200))
                #expect(update.sortedChangedKeys == ["title"])
                let read = try Record(update)
                #expect(read.metadata?.changeTag == "e7")
                #expect(read.fields == ["title": .string("Renamed")])
            }

            @Test("a record with its change tag converts with the system fields it came with")
            func changeTagWithSystemFields() throws {
                let fetched = Self.fetched()
                let record = try Record(fetched)
                let again = try record.ckRecord(systemFields: CloudKitSystemFields(fetched))
                #expect(again.recordChangeTag == "e7")
                #expect(again.sortedChangedKeys == ["body", "title"])
            }

            @Test("an asset with no local file, as a conflict's server record holds, reads as an asset with no keys")
            func assetWithoutLocalFile() throws {
                let ckRecord = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "I1"))
                ckRecord.setObject(CKAsset.shimWithoutLocalFile(), forKey: "photo")
                #expect(try Record(ckRecord)["photo"] == .asset(RecordAsset()))
            }
        #endif
    }
#endif
