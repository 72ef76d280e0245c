import Foundation
import Testing

@testable import RecordCodable

/// Record names, record types and server metadata.
@Suite("Identity and metadata")
struct IdentityTests {
    struct Note: Codable, Equatable {
        var id: String
        var title: String
    }

    @Test("The identifier names the record and is not a field")
    func stringIdentifier() throws {
        let record = try roundTrip(Note(id: "N1", title: "Hello"))
        #expect(record.recordName == "N1")
        #expect(record.fields == ["title": .string("Hello")])
    }

    @Test func uuidIdentifier() throws {
        struct Item: Codable, Equatable {
            var id: UUID
        }
        let item = Item(id: UUID())
        let record = try roundTrip(item)
        #expect(record.recordName == item.id.uuidString)
        #expect(record.fields.isEmpty)
    }

    @Test("An integer identifier becomes its decimal text", arguments: [Int.min, -1, 0, 42, Int.max])
    func integerIdentifier(_ id: Int) throws {
        struct Item: Codable, Equatable {
            var id: Int
        }
        #expect(try roundTrip(Item(id: id)).recordName == String(id))
    }

    @Test func otherIntegerIdentifiers() throws {
        struct Small: Codable, Equatable {
            var id: UInt8
        }
        struct Large: Codable, Equatable {
            var id: UInt64
        }
        #expect(try roundTrip(Small(id: 255)).recordName == "255")
        #expect(try roundTrip(Large(id: UInt64(Int64.max))).recordName == "9223372036854775807")
        // Too large for a field, but an identifier is not a field: its digits name the record.
        #expect(try roundTrip(Large(id: UInt64(Int64.max) + 1)).recordName == "9223372036854775808")
        #expect(try roundTrip(Large(id: .max)).recordName == "18446744073709551615")
        struct Counted: Codable, Equatable {
            var id: UInt
            var count: UInt64
        }
        expectEncodingError(at: "count") { _ = try RecordEncoder().encode(Counted(id: .max, count: .max)) }
    }

    @Test("A record name that does not convert to the identifier's type is corrupt")
    func identifierThatDoesNotConvert() throws {
        struct Numbered: Codable, Equatable {
            var id: Int8
        }
        struct Identified: Codable, Equatable {
            var id: UUID
        }
        let record = Record(recordType: "Numbered", recordName: "abc")
        let error = expectDecodingError("dataCorrupted", at: "id") {
            _ = try anyTypeDecoder.decode(Numbered.self, from: record)
        }
        #expect(error?.context?.debugDescription == "The record name 'abc' is not a valid Int8.")
        expectDecodingError("dataCorrupted", at: "id") {
            _ = try anyTypeDecoder.decode(Numbered.self, from: Record(recordType: "N", recordName: "300"))
        }
        expectDecodingError("dataCorrupted", at: "id") {
            _ = try anyTypeDecoder.decode(Identified.self, from: Record(recordType: "I", recordName: "abc"))
        }
    }

    @Test(
        "A record name that reads as an identifier the model writes otherwise is corrupt, not saved under a new name",
        arguments: ["007", "+7", "-0", "0x7"])
    func identifierWrittenOtherwise(_ name: String) throws {
        struct Numbered: Codable, Equatable {
            var id: Int
        }
        let error = expectDecodingError("dataCorrupted", at: "id") {
            _ = try anyTypeDecoder.decode(Numbered.self, from: Record(recordType: "N", recordName: name))
        }
        if let number = Int(name, radix: 10) {
            #expect(
                error?.context?.debugDescription
                    == "The record name '\(name)' reads as an identifier that encodes as '\(number)': saved again, "
                    + "the model would make a new record. Make the identifier a String to keep such names.")
        }
    }

    @Test("A generic model's integer identifier names the record and reads back", arguments: [0, 7, Int.min, Int.max])
    func genericIntegerIdentifier(_ id: Int) throws {
        struct Identified<ID: Codable & Equatable>: Codable, Equatable {
            var id: ID
            var name = "n"
        }
        #expect(try roundTrip(Identified(id: id)).recordName == String(id))
        #expect(try roundTrip(Identified(id: UInt8(7))).recordName == "7")
        expectDecodingError("dataCorrupted", at: "id") {
            _ = try anyTypeDecoder.decode(Identified<Int>.self, from: Record(recordType: "I", recordName: "007"))
        }
    }

    @Test("A UUID identifier reads only from the text it writes: upper case")
    func uuidIdentifierCase() throws {
        struct Identified: Codable, Equatable {
            var id: UUID
        }
        let id = UUID()
        let upper = Record(recordType: "I", recordName: id.uuidString)
        #expect(try anyTypeDecoder.decode(Identified.self, from: upper).id == id)
        expectDecodingError("dataCorrupted", at: "id") {
            _ = try anyTypeDecoder.decode(
                Identified.self, from: Record(recordType: "I", recordName: id.uuidString.lowercased()))
        }
    }

    /// An identifier type that encodes as the one value it wraps.
    struct WrappedID<Raw: Codable & Equatable>: Codable, Equatable {
        var rawValue: Raw
        init(_ rawValue: Raw) { self.rawValue = rawValue }
        init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Raw.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    @Test("A wrapper that encodes as a string can be the identifier")
    func wrappedIdentifier() throws {
        struct Note: Codable, Equatable {
            var id: WrappedID<String>
            var text: String
        }
        let record = try roundTrip(Note(id: WrappedID("wrapped"), text: "t"))
        #expect(record.recordName == "wrapped")
        #expect(record.fields.keys.sorted() == ["text"])
    }

    @Test("A type that encodes as an integer can be the identifier: an Int-backed enum, a wrapper")
    func integerLikeIdentifiers() throws {
        enum Slot: Int, Codable, Equatable {
            case first = 1
            case second = 2
        }
        struct User: Codable, Equatable {
            var id: WrappedID<Int>
            var name: String
        }
        struct Booking: Codable, Equatable {
            var id: Slot
            var name: String
        }
        #expect(try roundTrip(User(id: WrappedID(-42), name: "n")).recordName == "-42")
        #expect(try roundTrip(Booking(id: .second, name: "n")).recordName == "2")
        // A name that is not the integer's own text would be saved under another name: refused.
        for name in ["007", "+2", "2.0"] {
            expectDecodingError("dataCorrupted", at: "id") {
                _ = try RecordDecoder().decode(Booking.self, from: Record(recordType: "Booking", recordName: name))
            }
        }
    }

    @Test("An identifier that cannot name a record is an error")
    func invalidIdentifiers() throws {
        struct Flagged: Codable {
            var id: Bool
        }
        struct Dated: Codable {
            var id: Date
        }
        struct Measured: Codable {
            var id: Double
        }
        struct Listed: Codable {
            var id: [Int]
        }
        // Each error carries the model's value, as Foundation's coders do, not the field it made.
        let flag = expectEncodingError(at: "id") { _ = try RecordEncoder().encode(Flagged(id: true)) }
        #expect(flag?.context?.debugDescription.hasSuffix("but it is a Bool.") == true)
        #expect(flag?.value as? Bool == true)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let dated = expectEncodingError(at: "id") { _ = try RecordEncoder().encode(Dated(id: date)) }
        #expect(dated?.value as? Date == date)
        let measure = expectEncodingError(at: "id") { _ = try RecordEncoder().encode(Measured(id: 1.5)) }
        #expect(measure?.context?.debugDescription.hasSuffix("but it encodes as a double.") == true)
        #expect(measure?.value as? Double == 1.5)
        let listed = expectEncodingError(at: "id") { _ = try RecordEncoder().encode(Listed(id: [7, 8])) }
        #expect(listed?.value as? [Int64] == [7, 8])
        let error = expectEncodingError(at: "id") { _ = try RecordEncoder().encode(Note(id: "", title: "")) }
        #expect(error?.context?.debugDescription.contains("empty") == true)

        // Decoding refuses them too, whatever the record's name: a name is never a Bool or a Double.
        for name in ["true", "1", "1.5"] {
            let record = Record(recordType: "Flagged", recordName: name)
            let flagError = expectDecodingError("dataCorrupted", at: "id") {
                _ = try anyTypeDecoder.decode(Flagged.self, from: record)
            }
            #expect(flagError?.context?.debugDescription == "The record name '\(name)' cannot be read as Bool.")
            expectDecodingError("dataCorrupted", at: "id") {
                _ = try anyTypeDecoder.decode(Measured.self, from: record)
            }
        }
    }

    @Test func customIdentifierKey() throws {
        struct Person: Codable, Equatable {
            var email: String
            var id: Int
        }
        var encoder = RecordEncoder()
        encoder.identifierKey = "email"
        var decoder = RecordDecoder()
        decoder.identifierKey = "email"
        let record = try roundTrip(Person(email: "a@example.com", id: 7), encoder: encoder, decoder: decoder)
        #expect(record.recordName == "a@example.com")
        #expect(record.fields == ["id": .int64(7)])
    }

    @Test("Without an identifier key every property is a field and the name is a new UUID")
    func noIdentifierKey() throws {
        var encoder = RecordEncoder()
        encoder.identifierKey = nil
        var decoder = RecordDecoder()
        decoder.identifierKey = nil
        let note = Note(id: "N1", title: "t")
        let first = try roundTrip(note, encoder: encoder, decoder: decoder)
        let second = try encoder.encode(note)
        #expect(first.fields["id"] == .string("N1"))
        #expect(UUID(uuidString: first.recordName) != nil)
        #expect(first.recordName != second.recordName)
    }

    @Test("A model without an identifier gets a new UUID as its name")
    func modelWithoutIdentifier() throws {
        struct Anonymous: Codable, Equatable {
            var text: String
        }
        let record = try roundTrip(Anonymous(text: "x"))
        #expect(UUID(uuidString: record.recordName) != nil)
    }

    @Test("The identifier is matched before the key strategy")
    func identifierBeforeKeyStrategy() throws {
        struct Item: Codable, Equatable {
            var itemID: String
            var displayName: String
        }
        var encoder = RecordEncoder()
        encoder.identifierKey = "itemID"
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var decoder = RecordDecoder()
        decoder.identifierKey = "itemID"
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let record = try roundTrip(Item(itemID: "I1", displayName: "x"), encoder: encoder, decoder: decoder)
        #expect(record.recordName == "I1")
        #expect(record.fields == ["display_name": .string("x")])
    }

    @Test("An optional identifier: present names the record; nil leaves the name to the server, and reads back nil")
    func optionalIdentifier() throws {
        struct Draft: Codable, Equatable {
            var id: String?
            var text: String
        }
        struct Numbered: Codable, Equatable {
            var id: Int?
            var text: String
        }
        struct Tagged: Codable, Equatable {
            var id: UUID?
            var text: String
        }
        #expect(try roundTrip(Draft(id: "D1", text: "t")).recordName == "D1")
        #expect(try roundTrip(Draft(id: nil, text: "t")).recordName == "")
        #expect(try roundTrip(Numbered(id: nil, text: "t")).recordName == "")
        #expect(try roundTrip(Numbered(id: 7, text: "t")).recordName == "7")
        #expect(try roundTrip(Tagged(id: nil, text: "t")).recordName == "")
        // Saved, the record goes without a name, for the server to give it one.
        let request = try RecordsModifyRequest(saving: [Draft(id: nil, text: "t")])
        let body = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        #expect(!body.contains("recordName"))
    }

    @Test("A key other than the default, set by hand and never encoded, is an error listing what was written")
    func mistypedIdentifierKey() throws {
        var encoder = RecordEncoder()
        encoder.identifierKey = "ID"
        let error = expectEncodingError(at: "") { _ = try encoder.encode(Note(id: "n", title: "t")) }
        #expect(
            error?.context?.debugDescription
                == "The identifier key 'ID' was set, but Note does not encode it; it wrote 'id', 'title'. Set "
                + "identifierKey to the key of the model's identifier, or to nil to name each record with a new UUID.")
        // The default key, absent, still names the record with a new UUID.
        struct Anonymous: Codable { var text: String }
        #expect(UUID(uuidString: try RecordEncoder().encode(Anonymous(text: "t")).recordName) != nil)
        // Set by hand to the default, it is the default.
        encoder.identifierKey = "id"
        #expect(UUID(uuidString: try encoder.encode(Anonymous(text: "t")).recordName) != nil)
        encoder.identifierKey = nil
        #expect(UUID(uuidString: try encoder.encode(Note(id: "n", title: "t")).recordName) != nil)
    }

    @Test("The identifier can be kept as a field as well, for queries")
    func identifierAsField() throws {
        var encoder = RecordEncoder()
        encoder.storesIdentifierAsField = true
        let record = try roundTrip(Note(id: "n1", title: "t"), encoder: encoder)
        #expect(record.recordName == "n1")
        #expect(record.fields == ["id": .string("n1"), "title": .string("t")])
    }

    @Test("A record read into a dictionary or a model without the identifier gains no identifier entry")
    func noIdentifierEntry() throws {
        let record = Record(recordType: "T", recordName: "R1", fields: ["a": .int64(1), "b": .int64(2)])
        #expect(try anyTypeDecoder.decode([String: Int].self, from: record) == ["a": 1, "b": 2])
        struct Keys: Decodable {
            var keys: [String]
            var hasID: Bool
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                keys = container.allKeys.map(\.stringValue).sorted()
                hasID = container.contains(AnyCodingKey(stringValue: "id"))
            }
        }
        let keys = try anyTypeDecoder.decode(Keys.self, from: record)
        #expect(keys.keys == ["a", "b"])
        #expect(keys.hasID)
        let unnamed = try anyTypeDecoder.decode(Keys.self, from: Record(recordType: "T", recordName: ""))
        #expect(!unnamed.hasID)
    }

    // MARK: Record types

    @Test func recordTypeIsTheTypeName() throws {
        #expect(try RecordEncoder().encode(Note(id: "n", title: "")).recordType == "Note")
    }

    @Test("An optional model is stored as the model it holds, with its record type")
    func optionalModel() throws {
        let note: Note? = Note(id: "n", title: "t")
        let record = try RecordEncoder().encode(note)
        #expect(record.recordType == "Note")
        #expect(record == (try RecordEncoder().encode(Note(id: "n", title: "t"))))
        #expect(try RecordDecoder().decode(Note?.self, from: record) == note)
        expectEncodingError(at: "") { _ = try RecordEncoder().encode(Note?.none) }
    }

    @Test("A generic type's record type has no generic arguments")
    func genericRecordType() throws {
        #expect(try RecordEncoder().encode(Box(value: 1)).recordType == "Box")
        #expect(try RecordEncoder().encode(Box(value: "s")).recordType == "Box")
    }

    @Test func recordRepresentable() throws {
        struct Article: Codable, Equatable, RecordRepresentable {
            static var recordType: String { "Post" }
            var id: String
        }
        #expect(try roundTrip(Article(id: "a")).recordType == "Post")
    }

    @Test("With checksRecordType off, the decoder reads any record with the fields the model needs, whatever its type")
    func decoderIgnoresRecordType() throws {
        let record = Record(recordType: "Other", recordName: "n", fields: ["title": .string("t")])
        #expect(try anyTypeDecoder.decode(Note.self, from: record) == Note(id: "n", title: "t"))
        expectDecodingError("typeMismatch", at: "") { _ = try RecordDecoder().decode(Note.self, from: record) }
    }

    // MARK: Metadata

    struct Synced: Codable, Equatable {
        var id: String
        var title: String
        var metadata: RecordMetadata?
    }

    static let metadata = RecordMetadata(
        changeTag: "e1",
        created: .init(timestamp: Date(timeIntervalSince1970: 1_699_920_000), userRecordName: "_u", deviceID: "2"),
        modified: .init(timestamp: Date(timeIntervalSince1970: 1_699_920_100)),
        zoneID: RecordZoneID(zoneName: "Notes", ownerRecordName: "_u"),
        deleted: false)

    @Test("Metadata travels in the record's metadata and is never a field")
    func metadataIsNotAField() throws {
        let record = try roundTrip(Synced(id: "s", title: "t", metadata: Self.metadata))
        #expect(record.metadata == Self.metadata)
        #expect(record.fields == ["title": .string("t")])
        let fresh = try roundTrip(Synced(id: "s", title: "t", metadata: nil))
        #expect(fresh.metadata == nil)
    }

    @Test("A fetched record decodes with its metadata and encodes again as an update")
    func updateFetchedRecord() throws {
        let fetched = Record(
            recordType: "Synced", recordName: "s", fields: ["title": .string("old")], metadata: Self.metadata)
        var model = try RecordDecoder().decode(Synced.self, from: fetched)
        #expect(model.metadata?.changeTag == "e1")
        model.title = "new"
        let update = try RecordEncoder().encode(model)
        #expect(update.recordName == "s")
        #expect(update.metadata == Self.metadata)
        #expect(update["title"] == .string("new"))
    }

    @Test("A non-optional metadata property reads empty metadata from a record the server has not seen")
    func nonOptionalMetadata() throws {
        struct Tracked: Codable, Equatable {
            var id: String
            var metadata: RecordMetadata
        }
        let record = try roundTrip(Tracked(id: "t", metadata: Self.metadata))
        #expect(record.fields.isEmpty)
        let fresh = try RecordDecoder().decode(Tracked.self, from: Record(recordType: "Tracked", recordName: "t"))
        #expect(fresh.metadata == RecordMetadata())
    }

    @Test("Metadata under any property name")
    func metadataUnderAnyName() throws {
        struct Named: Codable, Equatable {
            var id: String
            var systemFields: RecordMetadata?
        }
        let record = try roundTrip(Named(id: "n", systemFields: Self.metadata))
        #expect(record.metadata == Self.metadata)
        #expect(record.fields.isEmpty)
    }

    @Test("Metadata that a hand-written encode(to:) passes as an optional is the record's metadata")
    func optionalMetadataThroughEncode() throws {
        struct Custom: Codable, Equatable {
            var id: String
            var metadata: RecordMetadata?

            enum CodingKeys: String, CodingKey { case id, metadata }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                // encode, not encodeIfPresent: the value is a RecordMetadata? itself.
                try container.encode(metadata, forKey: .metadata)
            }
        }
        let record = try roundTrip(Custom(id: "c", metadata: Self.metadata))
        #expect(record.metadata == Self.metadata)
        #expect(record.fields.isEmpty)
        #expect(try roundTrip(Custom(id: "c", metadata: nil)).metadata == nil)
    }

    @Test("Metadata keeps every property in JSON: a model cached as JSON, and a value nested in a record")
    func metadataInJSON() throws {
        struct Cached: Codable, Equatable {
            var note: Synced
        }
        let cached = Cached(note: Synced(id: "s", title: "t", metadata: Self.metadata))
        let json = try JSONEncoder().encode(cached)
        #expect(try JSONDecoder().decode(Cached.self, from: json) == cached)

        struct Holder: Codable, Equatable {
            var id: String
            var copy: Synced
        }
        let record = try roundTrip(Holder(id: "h", copy: cached.note))
        #expect(record.metadata == nil)
        guard case .bytes(let nested)? = record["copy"] else {
            Issue.record("a nested model is JSON")
            return
        }
        #expect(String(decoding: nested, as: UTF8.self).contains(#""changeTag":"e1""#))

        let withoutDeleted = Data(#"{"changeTag":"e2"}"#.utf8)
        #expect(try JSONDecoder().decode(RecordMetadata.self, from: withoutDeleted) == RecordMetadata(changeTag: "e2"))
    }
}
