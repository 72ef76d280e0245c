// CloudKitCodable's own test cases (insidegui/CloudKitCodable, Tests/CloudKitCodableTests), ported to the
// bridge with the same meaning: 21 cases, 11 of the encoder and 10 of the decoder, in 16 tests (cases 16
// to 21 are the arguments of one). Each test below names the case it ports. CloudKitCodable's
// `cloudKitSystemFields: Data?` is a `CloudKitSystemFields?` property here, its `cloudKitIdentifier` the
// encoder's identifier key, and its `CloudKitAssetValue` a `RecordAssetValue`.
// Its binary fixture (Rambo.ckrecord, a person fetched from iCloud) is aside: case 12 builds the CKRecord
// in code instead.
//
// CloudKitRecordEncoderTests:
//   1. testComplexPersonStructEncoding      -> encodesPerson
//   2. testCustomZoneIDEncoding             -> encodesInZone
//   3. testSystemFieldsEncoding             -> encodesFromSystemFields
//   4. testCustomRecordIdentifierEncoding   -> encodesCustomIdentifier
//   5. testEnumEncoding                     -> encodesEnums
//   6. testEnumEncodingNilValue             -> encodesNilEnums
//   7. testNestedEncoding                   -> encodesNested
//   8. testNestedEncodingOptional           -> encodesOptionalNested
//   9. testNestedEncodingOptionalNil        -> encodesOptionalNestedNil
//  10. testNestedEncodingCollection         -> encodesNestedCollection
//  11. testCustomAssetEncoding              -> encodesAssetValue
// CloudKitRecordDecoderTests:
//  12. testComplexPersonStructDecoding      -> decodesFetchedPerson
//  13. testRoundTrip                        -> roundTrip
//  14. testRoundTripWithCustomZoneID        -> roundTripInZone
//  15. testCustomRecordIdentifierRoundTrip  -> roundTripCustomIdentifier
//  16. testEnumRoundtrip                    -> roundTrips(case: 16): enums
//  17. testNestedRoundtrip                  -> roundTrips(case: 17): a nested value
//  18. testNestedRoundtripOptionalChild     -> roundTrips(case: 18): an optional nested value
//  19. testNestedRoundtripOptionalChildNil  -> roundTrips(case: 19): one that is nil
//  20. testNestedRoundtripCollection        -> roundTrips(case: 20): a list of nested values
//  21. testCustomAssetRoundtrip             -> roundTrips(case: 21): an asset value
// (cases 16 to 21 are one test with an argument each).

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

    @Suite("CloudKitCodable's test cases, on the bridge")
    struct CloudKitCodablePortTests {
        // MARK: Models, as a CloudKitCodable app has them after the move

        /// A person with no identifier: named by its system fields, or afresh.
        struct Person: Codable {
            var systemFields: CloudKitSystemFields?
            var name: String
            var age: Int
            var website: URL
            var avatar: URL
            var isDeveloper: Bool

            /// The person's values, without the system fields.
            var values: [String] { [name, "\(age)", website.absoluteString, avatar.path, "\(isDeveloper)"] }
        }

        /// A person with its own record name, under CloudKitCodable's key.
        struct PersonWithCustomIdentifier: Codable {
            var systemFields: CloudKitSystemFields?
            var cloudKitIdentifier: String
            var name: String
        }

        enum Stage: String, Codable, CaseIterable { case enumCase1, enumCase2, enumCase3 }
        enum Level: Int, Codable {
            case one = 1
            case two = 2
        }

        struct WithEnums: Codable, Equatable {
            var systemFields: CloudKitSystemFields?
            var enumProperty: Stage
            var optionalEnumProperty: Stage?
            var intEnumProperty: Level
            var optionalIntEnumProperty: Level?
        }

        struct Child: Codable, Hashable {
            let name: String
            let value: String
        }

        /// CloudKitCodable's three parents in one: of a `Child`, an optional one, and a list of them.
        struct Parent<Nested: Codable & Equatable & Sendable>: Codable, Equatable, Sendable, RecordRepresentable {
            static var recordType: String { "Parent" }
            var systemFields: CloudKitSystemFields?
            var parentName: String
            var child: Nested
            var dataProperty = Data([0xFF])
        }

        /// An asset value: its JSON is the asset's file.
        struct Contents: RecordAssetValue, Hashable {
            let id: String
            let properties: [String]
        }

        struct WithAssetValue: Codable, Equatable {
            var systemFields: CloudKitSystemFields?
            var title: String
            var contents: Contents
        }

        // MARK: Fixtures

        static func rambo() throws -> Person {
            Person(
                name: "Guilherme Rambo", age: 26, website: try #require(URL(string: "https://guilhermerambo.me")),
                avatar: try temporaryFile("avatar"), isDeveloper: true)
        }

        static let enums = WithEnums(
            enumProperty: .enumCase3, optionalEnumProperty: .enumCase2, intEnumProperty: .one,
            optionalIntEnumProperty: .two)
        static let nilEnums = WithEnums(enumProperty: .enumCase3, intEnumProperty: .one)
        static let parent = Parent(
            parentName: "Hello Parent", child: Child(name: "Hello Child Name", value: "Hello Child Value"))
        static let optionalChild = Parent<Child?>(
            parentName: "Hello Parent",
            child: Child(name: "Hello Optional Child Name", value: "Hello Optional Child Value"))
        static let nilChild = Parent<Child?>(parentName: "Hello Parent", child: nil)
        static let collection = Parent(
            parentName: "Hello Parent Collection",
            child: (0..<3).map { Child(name: "\($0) - Hello Child Name", value: "\($0) - Hello Child Value") })
        static let assetValue = WithAssetValue(
            title: "Hello Title", contents: Contents(id: "MyID", properties: ["Prop1", "Prop2", "Prop3", "Prop4"]))

        static let customZone = RecordZoneID(zoneName: "ABCDE")

        static func encoder(zone: RecordZoneID? = nil, identifierKey: String = "id") -> RecordEncoder {
            var encoder = RecordEncoder()
            encoder.zoneID = zone
            encoder.identifierKey = identifierKey
            encoder.assetDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "RecordCodableCloudKitTests-assets")
            return encoder
        }

        static func decoder(identifierKey: String = "id") -> RecordDecoder {
            var decoder = RecordDecoder()
            decoder.identifierKey = identifierKey
            return decoder
        }

        /// What encoding `rambo` must give, as CloudKitCodable's `_validateRamboFields` checks it.
        static func expectRamboFields(in ckRecord: CKRecord, sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(ckRecord.recordType == "Person", sourceLocation: sourceLocation)
            #expect((ckRecord.object(forKey: "name") as? NSString) == "Guilherme Rambo", sourceLocation: sourceLocation)
            #expect((ckRecord.object(forKey: "age") as? NSNumber)?.int64Value == 26, sourceLocation: sourceLocation)
            #expect(
                (ckRecord.object(forKey: "website") as? NSString) == "https://guilhermerambo.me",
                sourceLocation: sourceLocation)
            #expect(
                (ckRecord.object(forKey: "isDeveloper") as? NSNumber)?.int64Value == 1, sourceLocation: sourceLocation)
            let asset = ckRecord.object(forKey: "avatar") as? CKAsset
            #expect(asset?.fileURL?.path == (try rambo().avatar.path), sourceLocation: sourceLocation)
            // The system fields are never a field.
            #expect(!ckRecord.allKeys().contains("systemFields"), sourceLocation: sourceLocation)
            #expect(
                ckRecord.allKeys() == ["age", "avatar", "isDeveloper", "name", "website"],
                sourceLocation: sourceLocation)
        }

        /// The JSON a field holds, read back as `T`.
        static func json<T: Decodable>(_ type: T.Type, in ckRecord: CKRecord, key: String) throws -> T? {
            guard let bytes = ckRecord.object(forKey: key) as? NSData else { return nil }
            return try JSONDecoder().decode(type, from: Data(referencing: bytes))
        }

        // MARK: The encoder's cases

        @Test("1. a person with every kind of property becomes a CKRecord of its fields")
        func encodesPerson() throws {
            try Self.expectRamboFields(in: try Self.encoder().encodeCKRecord(try Self.rambo()))
        }

        @Test("2. an encoder's zone is the record's zone")
        func encodesInZone() throws {
            let ckRecord = try Self.encoder(zone: Self.customZone).encodeCKRecord(try Self.rambo())
            try Self.expectRamboFields(in: ckRecord)
            #expect(ckRecord.recordID.zoneID.zoneName == "ABCDE")
            #expect(ckRecord.recordID.zoneID.ownerName == CKCurrentUserDefaultName)
        }

        @Test("3. a person with system fields is that record: its name and zone, with the person's fields")
        func encodesFromSystemFields() throws {
            let zone = CKRecordZone.ID(zoneName: "ZoneABCD", ownerName: "OwnerABCD")
            let saved = CKRecord(recordType: "Person", recordID: CKRecord.ID(recordName: "RecordABCD", zoneID: zone))
            var person = try Self.rambo()
            person.systemFields = CloudKitSystemFields(saved)
            let ckRecord = try Self.encoder().encodeCKRecord(person)
            #expect(ckRecord.recordID.recordName == "RecordABCD")
            #expect(ckRecord.recordID.zoneID.zoneName == "ZoneABCD")
            #expect(ckRecord.recordID.zoneID.ownerName == "OwnerABCD")
            try Self.expectRamboFields(in: ckRecord)
        }

        @Test("4. a custom identifier names the record, in the encoder's zone")
        func encodesCustomIdentifier() throws {
            _ = try Self.customIdentifierRecord()
        }

        /// `PersonWithCustomIdentifier` encoded in the custom zone, checked to be named by its identifier there.
        static func customIdentifierRecord(sourceLocation: SourceLocation = #_sourceLocation) throws -> CKRecord {
            let model = PersonWithCustomIdentifier(cloudKitIdentifier: "MY-ID", name: "Guilherme Rambo")
            let ckRecord = try encoder(zone: customZone, identifierKey: "cloudKitIdentifier").encodeCKRecord(model)
            #expect(ckRecord.recordID.zoneID.zoneName == "ABCDE", sourceLocation: sourceLocation)
            #expect(ckRecord.recordID.recordName == "MY-ID", sourceLocation: sourceLocation)
            return ckRecord
        }

        @Test("5. enums are their raw values: text and integers")
        func encodesEnums() throws {
            let ckRecord = try Self.encoder().encodeCKRecord(Self.enums)
            #expect((ckRecord.object(forKey: "enumProperty") as? NSString) == "enumCase3")
            #expect((ckRecord.object(forKey: "optionalEnumProperty") as? NSString) == "enumCase2")
            #expect((ckRecord.object(forKey: "intEnumProperty") as? NSNumber)?.int64Value == 1)
            #expect((ckRecord.object(forKey: "optionalIntEnumProperty") as? NSNumber)?.int64Value == 2)
        }

        @Test("6. an optional enum that is nil is no field")
        func encodesNilEnums() throws {
            let ckRecord = try Self.encoder().encodeCKRecord(Self.nilEnums)
            #expect((ckRecord.object(forKey: "enumProperty") as? NSString) == "enumCase3")
            #expect(ckRecord.object(forKey: "optionalEnumProperty") == nil)
            #expect((ckRecord.object(forKey: "intEnumProperty") as? NSNumber)?.int64Value == 1)
            #expect(ckRecord.object(forKey: "optionalIntEnumProperty") == nil)
        }

        @Test("7. a nested value is a field of its JSON")
        func encodesNested() throws {
            let ckRecord = try Self.encoder().encodeCKRecord(Self.parent)
            #expect((ckRecord.object(forKey: "parentName") as? NSString) == "Hello Parent")
            #expect(try Self.json(Child.self, in: ckRecord, key: "child") == Self.parent.child)
            #expect((ckRecord.object(forKey: "dataProperty") as? NSData).map { Data(referencing: $0) } == Data([0xFF]))
        }

        @Test("8. an optional nested value is a field of its JSON")
        func encodesOptionalNested() throws {
            let ckRecord = try Self.encoder().encodeCKRecord(Self.optionalChild)
            #expect((ckRecord.object(forKey: "parentName") as? NSString) == "Hello Parent")
            #expect(try Self.json(Child.self, in: ckRecord, key: "child") == Self.optionalChild.child)
        }

        @Test("9. an optional nested value that is nil is no field")
        func encodesOptionalNestedNil() throws {
            let ckRecord = try Self.encoder().encodeCKRecord(Self.nilChild)
            #expect((ckRecord.object(forKey: "parentName") as? NSString) == "Hello Parent")
            #expect(ckRecord.object(forKey: "child") == nil)
        }

        @Test("10. a list of nested values is a field of its JSON, beside a plain bytes field")
        func encodesNestedCollection() throws {
            let ckRecord = try Self.encoder().encodeCKRecord(Self.collection)
            #expect((ckRecord.object(forKey: "parentName") as? NSString) == "Hello Parent Collection")
            #expect(try Self.json([Child].self, in: ckRecord, key: "child") == Self.collection.child)
            #expect((ckRecord.object(forKey: "dataProperty") as? NSData).map { Data(referencing: $0) } == Data([0xFF]))
        }

        @Test("11. an asset value is a CKAsset whose file holds the value's JSON")
        func encodesAssetValue() throws {
            let ckRecord = try Self.encoder().encodeCKRecord(Self.assetValue)
            #expect((ckRecord.object(forKey: "title") as? NSString) == "Hello Title")
            let asset = try #require(ckRecord.object(forKey: "contents") as? CKAsset)
            let file = try #require(asset.fileURL)
            #expect(try JSONDecoder().decode(Contents.self, from: Data(contentsOf: file)) == Self.assetValue.contents)
        }

        // MARK: The decoder's cases

        /// A person as a fetch returns it: saved by the server, with a change tag, in a zone of its own.
        static func fetchedPerson() throws -> CKRecord {
            let zone = CKRecordZone.ID(zoneName: "People", ownerName: CKCurrentUserDefaultName)
            let ckRecord = CKRecord(recordType: "Person", recordID: CKRecord.ID(recordName: "Rambo", zoneID: zone))
            ckRecord.setObject("Guilherme Rambo" as NSString, forKey: "name")
            ckRecord.setObject(NSNumber(value: 26), forKey: "age")
            ckRecord.setObject("https://guilhermerambo.me" as NSString, forKey: "website")
            ckRecord.setObject(CKAsset(fileURL: try rambo().avatar), forKey: "avatar")
            ckRecord.setObject(NSNumber(value: true), forKey: "isDeveloper")
            return ckRecord
        }

        /// A decoded person: rambo's values, with system fields.
        static func expectRambo(_ person: Person, sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(person.values == (try rambo().values), sourceLocation: sourceLocation)
            #expect(person.systemFields != nil, sourceLocation: sourceLocation)
        }

        @Test("12. a fetched person decodes, with its system fields")
        func decodesFetchedPerson() throws {
            let fetched = try Self.fetchedPerson()
            let person = try Self.decoder().decode(Person.self, from: fetched)
            try Self.expectRambo(person)
            expectSystemFields(person.systemFields, of: fetched)
        }

        @Test("13. a person round-trips, and gains system fields")
        func roundTrip() throws {
            let ckRecord = try Self.encoder().encodeCKRecord(try Self.rambo())
            try Self.expectRambo(try Self.decoder().decode(Person.self, from: ckRecord))
        }

        @Test("14. a person round-trips in a zone, and encodes again into the same zone")
        func roundTripInZone() throws {
            let ckRecord = try Self.encoder(zone: Self.customZone).encodeCKRecord(try Self.rambo())
            let decoded = try Self.decoder().decode(Person.self, from: ckRecord)
            try Self.expectRambo(decoded)
            // A plain encoder: the system fields keep the zone, and the name.
            let again = try Self.encoder().encodeCKRecord(decoded)
            #expect(again.recordID.zoneID.zoneName == ckRecord.recordID.zoneID.zoneName)
            #expect(again.recordID.zoneID.ownerName == ckRecord.recordID.zoneID.ownerName)
            #expect(again.recordID.recordName == ckRecord.recordID.recordName)
        }

        @Test("15. a custom identifier round-trips as the record's name")
        func roundTripCustomIdentifier() throws {
            let ckRecord = try Self.customIdentifierRecord()
            let decoded = try Self.decoder(identifierKey: "cloudKitIdentifier")
                .decode(PersonWithCustomIdentifier.self, from: ckRecord)
            #expect(decoded.cloudKitIdentifier == "MY-ID")
        }

        /// Encodes `model` to a `CKRecord` and decodes it back, without the system fields it gained, as
        /// CloudKitCodable's round trips compare.
        static func roundTrip<Model: Codable & Equatable>(
            _ model: Model, systemFields: WritableKeyPath<Model, CloudKitSystemFields?>,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            var decoded = try decoder().decode(Model.self, from: try encoder().encodeCKRecord(model))
            #expect(decoded[keyPath: systemFields] != nil, sourceLocation: sourceLocation)
            decoded[keyPath: systemFields] = nil
            #expect(decoded == model, sourceLocation: sourceLocation)
        }

        @Test("16 to 21. each model round-trips, with system fields gained", arguments: 16...21)
        func roundTrips(case number: Int) throws {
            switch number {
            case 16: try Self.roundTrip(Self.enums, systemFields: \.systemFields)
            case 17: try Self.roundTrip(Self.parent, systemFields: \.systemFields)
            case 18: try Self.roundTrip(Self.optionalChild, systemFields: \.systemFields)
            case 19: try Self.roundTrip(Self.nilChild, systemFields: \.systemFields)
            case 20: try Self.roundTrip(Self.collection, systemFields: \.systemFields)
            default: try Self.roundTrip(Self.assetValue, systemFields: \.systemFields)
            }
        }
    }
#endif
