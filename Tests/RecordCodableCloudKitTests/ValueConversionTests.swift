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

    @Suite("Every value kind, both ways")
    struct ValueConversionTests {
        static let date = Date(timeIntervalSinceReferenceDate: 786_000_123.25)

        static let values: [(String, RecordValue)] = [
            ("string", .string("héllo")),
            ("empty string", .string("")),
            ("int64", .int64(-42)),
            ("int64 max", .int64(.max)),
            ("int64 min", .int64(.min)),
            ("double", .double(2.5)),
            ("double integral", .double(3)),
            ("bytes", .bytes(Data([0, 1, 2, 255]))),
            ("date", .date(date)),
            ("reference", .reference(RecordReference(recordName: "P1", action: .deleteSelf))),
            (
                "reference in another zone",
                .reference(RecordReference(recordName: "P1", zoneID: RecordZoneID(zoneName: "Notes")))
            ),
            (
                "reference of another owner",
                .reference(
                    RecordReference(recordName: "P1", zoneID: RecordZoneID(zoneName: "Z", ownerRecordName: "_u1")))
            ),
            ("location", .location(RecordLocation(latitude: 48.85, longitude: 2.35))),
            (
                "full location",
                .location(
                    RecordLocation(
                        latitude: -33.9, longitude: 151.2, altitude: 12.5, horizontalAccuracy: 5, verticalAccuracy: 3,
                        speed: 1.5, course: 270, timestamp: date))
            ),
            ("string list", .list([.string("a"), .string("b")])),
            ("int64 list", .list([.int64(1), .int64(2)])),
            ("double list", .list([.double(1.5)])),
            ("bytes list", .list([.bytes(Data([1]))])),
            ("date list", .list([.date(date), .date(date)])),
            (
                "reference list",
                .list([.reference(RecordReference(recordName: "A")), .reference(RecordReference(recordName: "B"))])
            ),
            ("location list", .list([.location(RecordLocation(latitude: 1, longitude: 2))])),
            ("empty list", .list([])),
        ]

        @Test("round trip", arguments: values)
        func roundTrip(name: String, value: RecordValue) throws {
            try expectRoundTrip(record("value", value))
        }

        @Test("each kind is the object CloudKit holds")
        func objects() throws {
            let url = try temporaryFile("objects")
            let ckRecord = try Record(
                recordType: "Item", recordName: "I1",
                fields: [
                    "s": .string("x"), "i": .int64(7), "d": .double(0.5), "b": .bytes(Data([9])), "t": .date(Self.date),
                    "a": .asset(RecordAsset(fileURL: url)), "r": .reference(RecordReference(recordName: "P")),
                    "l": .location(RecordLocation(latitude: 1, longitude: 2)), "list": .list([.int64(1)]),
                ]
            ).ckRecord(systemFields: nil)
            #expect((ckRecord.object(forKey: "s") as? NSString) == "x")
            #expect((ckRecord.object(forKey: "i") as? NSNumber)?.int64Value == 7)
            #expect((ckRecord.object(forKey: "d") as? NSNumber)?.doubleValue == 0.5)
            #expect((ckRecord.object(forKey: "b") as? NSData).map { $0 as Data } == Data([9]))
            #expect((ckRecord.object(forKey: "t") as? NSDate).map { $0 as Date } == Self.date)
            #expect((ckRecord.object(forKey: "a") as? CKAsset)?.fileURL == url)
            let reference = try #require(ckRecord.object(forKey: "r") as? CKRecord.Reference)
            #expect(reference.recordID.recordName == "P")
            #expect(reference.recordID.zoneID.zoneName == CKRecordZone.ID.defaultZoneName)
            #expect(reference.action == .none)
            #expect((ckRecord.object(forKey: "l") as? CLLocation)?.coordinate.latitude == 1)
            #expect((ckRecord.object(forKey: "list") as? NSArray)?.count == 1)
        }

        @Test("a reference in the record's own zone has no zone of its own")
        func referenceInHolderZone() throws {
            let zone = RecordZoneID(zoneName: "Notes")
            var item = record("owner", .reference(RecordReference(recordName: "P1")))
            item.metadata = RecordMetadata(zoneID: zone)
            let ckRecord = try expectRoundTrip(item)
            let reference = try #require(ckRecord.object(forKey: "owner") as? CKRecord.Reference)
            #expect(reference.recordID.zoneID.zoneName == "Notes")
            #expect(reference.recordID.zoneID.ownerName == CKCurrentUserDefaultName)
        }

        // MARK: Numbers by their NSNumber type

        static let numbers: [(String, NSNumber, RecordValue)] = [
            ("Bool true", NSNumber(value: true), .int64(1)),
            ("Bool false", NSNumber(value: false), .int64(0)),
            ("Int8", NSNumber(value: Int8(-8)), .int64(-8)),
            ("UInt8", NSNumber(value: UInt8(200)), .int64(200)),
            ("Int16", NSNumber(value: Int16(-300)), .int64(-300)),
            ("UInt16", NSNumber(value: UInt16(60_000)), .int64(60_000)),
            ("Int32", NSNumber(value: Int32.min), .int64(Int64(Int32.min))),
            ("UInt32", NSNumber(value: UInt32.max), .int64(Int64(UInt32.max))),
            ("Int", NSNumber(value: Int(12)), .int64(12)),
            ("Int64", NSNumber(value: Int64.max), .int64(.max)),
            ("UInt64 in range", NSNumber(value: UInt64(Int64.max)), .int64(.max)),
            ("Float", NSNumber(value: Float(1.5)), .double(1.5)),
            ("Double", NSNumber(value: -0.25), .double(-0.25)),
            ("Double integral", NSNumber(value: 4.0), .double(4)),
        ]

        @Test("an NSNumber reads by its type", arguments: numbers)
        func number(name: String, number: NSNumber, expected: RecordValue) throws {
            let ckRecord = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "I1"))
            ckRecord.setObject(number, forKey: "n")
            #expect(try Record(ckRecord)["n"] == expected)
        }

        @Test("an unsigned number above Int64.max cannot be held")
        func unsignedOverflow() {
            let ckRecord = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "I1"))
            ckRecord.setObject(NSNumber(value: UInt64.max), forKey: "n")
            expectDecodingError(at: "n", mentioning: "does not fit in Int64") { _ = try Record(ckRecord) }
        }

        // MARK: Lists

        @Test("a list that mixes kinds, or holds a list, is refused on the way out")
        func badListsOut() {
            expectEncodingError(at: "tags.Index 1", mentioning: "one kind of value") {
                _ = try record("tags", .list([.string("a"), .int64(1)])).ckRecord(systemFields: nil)
            }
            expectEncodingError(at: "tags.Index 0", mentioning: "cannot hold a list") {
                _ = try record("tags", .list([.list([.string("a")])])).ckRecord(systemFields: nil)
            }
        }

        @Test("an array that mixes kinds, or holds an array, is refused on the way in")
        func badListsIn() {
            let mixed = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "I1"))
            mixed.setObject(
                NSArray(array: [NSString(string: "a"), NSString(string: "b"), NSNumber(value: 1)]), forKey: "tags")
            expectDecodingError(at: "tags.Index 2", mentioning: "one kind of value") { _ = try Record(mixed) }

            let nested = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "I1"))
            nested.setObject(NSArray(array: [NSArray(array: [NSString(string: "a")])]), forKey: "tags")
            expectDecodingError(at: "tags.Index 0", mentioning: "cannot hold a list") { _ = try Record(nested) }

            let intsAndDoubles = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "I1"))
            intsAndDoubles.setObject(NSArray(array: [NSNumber(value: 1), NSNumber(value: 1.5)]), forKey: "n")
            expectDecodingError(at: "n.Index 1", mentioning: "this one is double where the first is int64") {
                _ = try Record(intsAndDoubles)
            }
        }

        // MARK: Assets

        @Test("an asset is a CKAsset of its local file, and comes back with it")
        func asset() throws {
            let url = try temporaryFile("asset")
            try expectRoundTrip(record("photo", .asset(RecordAsset(fileURL: url))))
            try expectRoundTrip(record("photos", .list([.asset(RecordAsset(fileURL: url))])))
        }

        @Test("an asset with no local file cannot be a CKAsset")
        func assetWithoutFile() {
            let downloaded = RecordAsset(fileChecksum: "abc", size: 3, downloadURL: "https://example.com/${f}")
            expectEncodingError(at: "photo", mentioning: "has none") {
                _ = try record("photo", .asset(downloaded)).ckRecord(systemFields: nil)
            }
            expectEncodingError(at: "photos.Index 0", mentioning: "has none") {
                _ = try record("photos", .list([.asset(downloaded)])).ckRecord(systemFields: nil)
            }
            let remote = RecordAsset(fileURL: URL(string: "https://example.com/a.png")!)
            expectEncodingError(at: "photo", mentioning: "must be a file URL") {
                _ = try record("photo", .asset(remote)).ckRecord(systemFields: nil)
            }
        }

        // MARK: References

        @Test("CloudKit has no validate action: such a reference is refused")
        func validateReference() {
            expectEncodingError(at: "owner", mentioning: "no 'validate' reference action") {
                _ = try record("owner", .reference(RecordReference(recordName: "P1", action: .validate)))
                    .ckRecord(systemFields: nil)
            }
        }

        @Test("a reference CloudKit would raise an exception for is refused")
        func badReferences() {
            expectEncodingError(at: "owner", mentioning: "cannot be empty") {
                _ = try record("owner", .reference(RecordReference(recordName: ""))).ckRecord(systemFields: nil)
            }
            expectEncodingError(at: "owners.Index 0", mentioning: "at most 255") {
                _ = try record(
                    "owners", .list([.reference(RecordReference(recordName: String(repeating: "r", count: 256)))])
                )
                .ckRecord(systemFields: nil)
            }
            expectEncodingError(at: "owner", mentioning: "zone's name cannot be empty") {
                _ = try record(
                    "owner", .reference(RecordReference(recordName: "P", zoneID: RecordZoneID(zoneName: "")))
                )
                .ckRecord(systemFields: nil)
            }
            expectEncodingError(at: "owner", mentioning: "owner cannot be empty") {
                let zone = RecordZoneID(zoneName: "Z", ownerRecordName: "")
                _ = try record("owner", .reference(RecordReference(recordName: "P", zoneID: zone))).ckRecord(
                    systemFields: nil)
            }
        }

        // MARK: Locations

        @Test("what a location lacks is Core Location's sentinels, and reads back as nil")
        func locationSentinels() throws {
            let ckRecord = try expectRoundTrip(record("place", .location(RecordLocation(latitude: 10, longitude: 20))))
            let location = try #require(ckRecord.object(forKey: "place") as? CLLocation)
            #expect(location.horizontalAccuracy < 0)
            #expect(location.verticalAccuracy < 0)
            #expect(location.course < 0)
            #expect(location.speed < 0)
            #expect(location.altitude == 0)
            #expect(location.timestamp == Date(timeIntervalSinceReferenceDate: 0))
        }

        @Test("an altitude without a vertical accuracy comes back")
        func altitudeWithoutAccuracy() throws {
            try expectRoundTrip(record("place", .location(RecordLocation(latitude: 1, longitude: 2, altitude: 30))))
        }

        @Test("a CLLocation with negative measurements reads them as nil")
        func locationFromDevice() throws {
            let ckRecord = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "I1"))
            let measured = CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: 3, longitude: 4), altitude: 100, horizontalAccuracy: -1,
                verticalAccuracy: 8, course: -1, speed: -0.5, timestamp: Self.date)
            ckRecord.setObject(measured, forKey: "place")
            let expected = RecordLocation(
                latitude: 3, longitude: 4, altitude: 100, verticalAccuracy: 8, timestamp: Self.date)
            #expect(try Record(ckRecord)["place"] == .location(expected))
        }
    }
#endif
