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

    @Suite("A record and a CKRecord")
    struct RecordConversionTests {
        @Test("type, name, zone and fields")
        func identity() throws {
            var note = Record(
                recordType: "Note", recordName: "N1", fields: ["title": .string("Hello"), "pinned": .int64(1)])
            note.metadata = RecordMetadata(zoneID: RecordZoneID(zoneName: "Notes"))
            let ckRecord = try expectRoundTrip(note)
            #expect(ckRecord.recordType == "Note")
            #expect(ckRecord.recordID.recordName == "N1")
            #expect(ckRecord.recordID.zoneID.zoneName == "Notes")
            #expect(ckRecord.recordID.zoneID.ownerName == CKCurrentUserDefaultName)
            #expect(ckRecord.allKeys().sorted() == ["pinned", "title"])
            #expect(ckRecord.sortedChangedKeys == ["pinned", "title"])
        }

        @Test("a record with no zone is in the default zone, and reads back with no metadata")
        func defaultZone() throws {
            let ckRecord = try expectRoundTrip(Record(recordType: "Note", recordName: "N1", fields: ["a": .int64(1)]))
            #expect(ckRecord.recordID.zoneID.zoneName == CKRecordZone.ID.defaultZoneName)
            #expect(try Record(ckRecord).metadata == nil)
        }

        @Test("a zone of another owner keeps its owner")
        func sharedZone() throws {
            var note = Record(recordType: "Note", recordName: "N1")
            note.metadata = RecordMetadata(zoneID: RecordZoneID(zoneName: "Shared", ownerRecordName: "_owner"))
            let ckRecord = try expectRoundTrip(note)
            #expect(ckRecord.recordID.zoneID.ownerName == "_owner")
        }

        @Test("the parent is the CKRecord's parent")
        func parent() throws {
            var page = Record(recordType: "Page", recordName: "P2")
            page.parent = RecordReference(recordName: "Book1")
            let ckRecord = try expectRoundTrip(page)
            #expect(ckRecord.parent?.recordID.recordName == "Book1")
            #expect(ckRecord.parent?.action == CKRecord.ReferenceAction.none)
        }

        @Test("a parent whose action is not none is refused: CloudKit would raise an exception")
        func parentWithAction() {
            for action in [RecordReference.Action.deleteSelf, .validate] {
                var page = Record(recordType: "Page", recordName: "P2")
                page.parent = RecordReference(recordName: "Book1", action: action)
                expectEncodingError(at: "parent", mentioning: "must be .none") {
                    _ = try page.ckRecord(systemFields: nil)
                }
            }
        }

        // MARK: Encrypted fields

        @Test("encrypted fields are encryptedValues, and come back encrypted")
        func encryptedFields() throws {
            var diary = Record(
                recordType: "Diary", recordName: "D1",
                fields: [
                    "title": .string("Day 1"), "body": .string("secret"), "mood": .int64(3),
                    "where": .location(RecordLocation(latitude: 1, longitude: 2)), "tags": .list([.string("x")]),
                ])
            diary.encryptedFields = ["body", "mood", "where", "tags"]
            let ckRecord = try expectRoundTrip(diary)
            #expect(ckRecord.allKeys() == ["title"])
            #expect(ckRecord.encryptedValues.allKeys().sorted() == ["body", "mood", "tags", "where"])
            #expect((ckRecord.encryptedValues.object(forKey: "body") as? NSString) == "secret")
            #expect(ckRecord.object(forKey: "body") == nil)
            #expect(try Record(ckRecord).encryptedFields == ["body", "mood", "tags", "where"])
        }

        @Test("an encrypted asset or reference is refused: CloudKit never encrypts them")
        func encryptedAssetOrReference() throws {
            let url = try temporaryFile("encrypted")
            let values: [RecordValue] = [
                .asset(RecordAsset(fileURL: url)), .reference(RecordReference(recordName: "R")),
                .list([.reference(RecordReference(recordName: "R"))]),
            ]
            for value in values {
                var item = record("secret", value)
                item.encryptedFields = ["secret"]
                expectEncodingError(at: "secret", mentioning: "never encrypts") {
                    _ = try item.ckRecord(systemFields: nil)
                }
            }
        }

        @Test("a field held both plain and encrypted cannot be read")
        func plainAndEncrypted() {
            let ckRecord = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "I1"))
            ckRecord.setObject(NSString(string: "a"), forKey: "twice")
            ckRecord.encryptedValues.setObject(NSString(string: "b"), forKey: "twice")
            expectDecodingError(at: "twice", mentioning: "both a plain and an encrypted value") {
                _ = try Record(ckRecord)
            }
        }

        // MARK: Cleared fields

        @Test("cleared fields are set to nil, and a key set to nil reads as cleared")
        func clearedFields() throws {
            var edit = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("New")])
            edit.clearedFields = ["subtitle", "secret"]
            edit.encryptedFields = ["secret"]
            let ckRecord = try expectRoundTrip(edit)
            #expect(ckRecord.sortedChangedKeys == ["secret", "subtitle", "title"])
            #expect(ckRecord.object(forKey: "subtitle") == nil)
            #expect(ckRecord.encryptedValues.changedKeys() == ["secret"])
            let back = try Record(ckRecord)
            #expect(back.clearedFields == ["subtitle", "secret"])
            #expect(back.encryptedFields.contains("secret"))
        }

        @Test("a field set and then removed on the device reads as cleared")
        func removedOnDevice() throws {
            let ckRecord = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "N1"))
            ckRecord.setObject(NSString(string: "x"), forKey: "draft")
            ckRecord.setObject(nil, forKey: "draft")
            let back = try Record(ckRecord)
            #expect(back["draft"] == nil)
            #expect(back.clearedFields == ["draft"])
        }

        // MARK: What CloudKit raises an exception for

        static let badKeys: [(String, String)] = [
            ("", "cannot be empty"),
            ("1st", "starts with an ASCII letter"),
            ("_private", "starts with an ASCII letter"),
            ("with space", "starts with an ASCII letter"),
            ("café", "starts with an ASCII letter"),
            (String(repeating: "k", count: 256), "at most 255 bytes"),
            ("recordID", "CKRecord property"),
            ("creationDate", "CKRecord property"),
            ("parent", "CKRecord property"),
            ("encryptedValues", "CKRecord property"),
        ]

        @Test("a field key CloudKit refuses is an EncodingError at the field", arguments: badKeys)
        func badKey(key: String, words: String) {
            expectEncodingError(at: key, mentioning: words) {
                _ = try record(key, .int64(1)).ckRecord(systemFields: nil)
            }
            var cleared = Record(recordType: "Item", recordName: "I1")
            cleared.clearedFields = [key]
            expectEncodingError(at: key, mentioning: words) { _ = try cleared.ckRecord(systemFields: nil) }
        }

        static let badNames: [(String, String)] = [
            ("", "cannot be empty"),
            ("_hidden", "cannot start with an underscore"),
            ("naïve", "ASCII characters only"),
            (String(repeating: "n", count: 256), "at most 255 characters"),
        ]

        @Test("a record name CloudKit refuses is an EncodingError", arguments: badNames)
        func badRecordName(name: String, words: String) {
            let item = Record(recordType: "Item", recordName: name)
            expectEncodingError(at: "", mentioning: words) { _ = try item.ckRecord(systemFields: nil) }
        }

        @Test("a 255-character record name is taken")
        func longestRecordName() throws {
            try expectRoundTrip(Record(recordType: "Item", recordName: String(repeating: "n", count: 255)))
        }

        @Test(
            "a record type CloudKit refuses is an EncodingError",
            arguments: ["", "2Items", "Item Type", "cloudkit.share"])
        func badRecordType(type: String) {
            expectEncodingError(at: "", mentioning: "cannot be a CloudKit record type") {
                _ = try Record(recordType: type, recordName: "I1").ckRecord(systemFields: nil)
            }
        }

        @Test("a zone with an empty name or owner is refused")
        func badZone() {
            for zone in [RecordZoneID(zoneName: ""), RecordZoneID(zoneName: "Z", ownerRecordName: "")] {
                var item = Record(recordType: "Item", recordName: "I1")
                item.metadata = RecordMetadata(zoneID: zone)
                expectEncodingError(at: "", mentioning: "cannot be empty") { _ = try item.ckRecord(systemFields: nil) }
            }
        }
    }
#endif
