// Runs on Apple platforms only, with no network and no iCloud account: it checks, against Apple's own
// CloudKit, each behaviour that the Linux shim (Tests/CloudKitShim) assumes and cannot prove. The article
// "CloudKit on Apple Platforms" lists the same assumptions; a failure here means the shim, and perhaps the
// bridge, must change.
#if canImport(CloudKit)
    import CloudKit
    import CoreLocation
    import Foundation
    import Testing

    @Suite("What the shim assumes of Apple's CloudKit")
    struct AppleCloudKitAssumptionTests {
        static func archived(_ record: CKRecord) throws -> CKRecord {
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            record.encodeSystemFields(with: archiver)
            archiver.finishEncoding()
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            unarchiver.requiresSecureCoding = true
            defer { unarchiver.finishDecoding() }
            return try #require(CKRecord(coder: unarchiver))
        }

        static func fresh() -> CKRecord {
            let zone = CKRecordZone.ID(zoneName: "Notes", ownerName: CKCurrentUserDefaultName)
            return CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "N1", zoneID: zone))
        }

        @Test("1. allKeys() leaves out encrypted keys, which encryptedValues.allKeys() lists")
        func allKeysLeavesOutEncrypted() {
            let record = Self.fresh()
            record.setObject(NSString(string: "plain"), forKey: "title")
            record.encryptedValues.setObject(NSString(string: "secret"), forKey: "body")
            #expect(record.allKeys() == ["title"])
            #expect(record.encryptedValues.allKeys() == ["body"])
            #expect(record.object(forKey: "body") == nil)
        }

        @Test("2. setting an encrypted value lists its key in the record's changedKeys() and in encryptedValues'")
        func encryptedKeysAreChanged() {
            let record = Self.fresh()
            record.encryptedValues.setObject(NSString(string: "secret"), forKey: "body")
            #expect(record.changedKeys().contains("body"))
            #expect(record.encryptedValues.changedKeys() == ["body"])
        }

        @Test("3. a record rebuilt from its system fields has no fields and no changed keys, and keeps its identity")
        func rebuiltRecord() throws {
            let record = Self.fresh()
            record.setObject(NSString(string: "plain"), forKey: "title")
            let rebuilt = try Self.archived(record)
            #expect(rebuilt.allKeys().isEmpty)
            #expect(rebuilt.changedKeys().isEmpty)
            #expect(rebuilt.recordType == "Note")
            #expect(rebuilt.recordID.recordName == "N1")
            #expect(rebuilt.recordID.zoneID.zoneName == "Notes")
            #expect(rebuilt.recordID.zoneID.ownerName == CKCurrentUserDefaultName)
        }

        @Test("4. setObject(nil) on a key with no value lists it in changedKeys(), plain and encrypted")
        func clearingMarksChanged() throws {
            let rebuilt = try Self.archived(Self.fresh())
            rebuilt.setObject(nil, forKey: "subtitle")
            rebuilt.encryptedValues.setObject(nil, forKey: "secret")
            #expect(rebuilt.changedKeys().contains("subtitle"))
            #expect(rebuilt.changedKeys().contains("secret"))
            #expect(rebuilt.allKeys().isEmpty)
        }

        @Test("5. setting a value on a rebuilt record lists only that key")
        func onlySetKeysChange() throws {
            let rebuilt = try Self.archived(Self.fresh())
            rebuilt.setObject(NSString(string: "x"), forKey: "title")
            #expect(rebuilt.changedKeys() == ["title"])
        }

        @Test("6. numbers keep their NSNumber type through a record")
        func numberTypes() throws {
            let record = Self.fresh()
            record.setObject(NSNumber(value: Int64(5)), forKey: "integer")
            record.setObject(NSNumber(value: 2.5), forKey: "double")
            record.setObject(NSNumber(value: true), forKey: "bool")
            func type(_ key: String) throws -> UInt8 {
                UInt8(truncatingIfNeeded: try #require(record.object(forKey: key) as? NSNumber).objCType.pointee)
            }
            #expect(try [UInt8(ascii: "q"), UInt8(ascii: "l")].contains(type("integer")))
            #expect(try type("double") == UInt8(ascii: "d"))
            #expect(try type("bool") == UInt8(ascii: "c"))
        }

        @Test("7. a local asset keeps its file URL")
        func assetFileURL() throws {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("assumption-asset.txt")
            try Data("asset".utf8).write(to: url)
            let record = Self.fresh()
            record.setObject(CKAsset(fileURL: url), forKey: "file")
            #expect((record.object(forKey: "file") as? CKAsset)?.fileURL == url)
        }

        @Test("8. a CLLocation's negative sentinels survive a record")
        func locationSentinels() throws {
            let record = Self.fresh()
            let location = CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: 1, longitude: 2), altitude: 0, horizontalAccuracy: -1,
                verticalAccuracy: -1, course: -1, speed: -1, timestamp: Date(timeIntervalSinceReferenceDate: 0))
            record.setObject(location, forKey: "place")
            let stored = try #require(record.object(forKey: "place") as? CLLocation)
            #expect(stored.horizontalAccuracy < 0 && stored.verticalAccuracy < 0)
            #expect(stored.course < 0 && stored.speed < 0)
            #expect(stored.timestamp == Date(timeIntervalSinceReferenceDate: 0))
        }

        @Test("9. a parent with action none is kept, and a reference's zone is the one it was made with")
        func parentAndReferenceZone() {
            let record = Self.fresh()
            let zone = record.recordID.zoneID
            record.parent = CKRecord.Reference(recordID: CKRecord.ID(recordName: "Book", zoneID: zone), action: .none)
            #expect(record.parent?.recordID.zoneID.zoneName == "Notes")
            #expect(record.parent?.action == CKRecord.ReferenceAction.none)
        }
    }
#endif
