import Foundation
import Testing

@testable import RecordCodable

/// What an outside review of the record types and the decoder found, each kept as it is fixed.
@Suite("Record API and decoder corners")
struct RecordCornerTests {
    @Test("A custom key strategy that gives one key for two fields reads the first in sorted order, every time")
    func customStrategyCollision() throws {
        struct Named: Decodable { var name: String }
        var decoder = RecordDecoder()
        decoder.keyDecodingStrategy = .custom { AnyCodingKey(stringValue: $0.last?.stringValue.lowercased() ?? "") }
        var seen: Set<String> = []
        for index in 0..<50 {
            // Dictionaries of other sizes and insertion orders lay the two names out differently.
            var fields = [String: RecordValue](minimumCapacity: index % 17)
            if index.isMultiple(of: 2) {
                fields["Name"] = .string("upper")
                fields["name"] = .string("lower")
            } else {
                fields["name"] = .string("lower")
                fields["Name"] = .string("upper")
            }
            let record = Record(recordType: "Named", recordName: "n\(index)", fields: fields)
            seen.insert(try decoder.decode(Named.self, from: record).name)
        }
        #expect(seen == ["upper"])
    }

    enum Keys: String, CodingKey { case id, title, missing }

    @Test("The identifier reads through superDecoder(forKey:) as through decode(_:forKey:), as in JSON")
    func identifierThroughSuperDecoder() throws {
        struct Reader: Decodable {
            var id: String
            init(from decoder: any Decoder) throws {
                id = try decoder.container(keyedBy: Keys.self).superDecoder(forKey: .id).singleValueContainer()
                    .decode(String.self)
            }
        }
        let record = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("Hello")])
        #expect(try anyTypeDecoder.decode(Reader.self, from: record).id == "N1")
        #expect(try JSONDecoder().decode(Reader.self, from: Data(#"{"id":"N1"}"#.utf8)).id == "N1")
    }

    @Test("A nested container asked for under the identifier is a typeMismatch at it, as in JSON")
    func nestedContainerUnderIdentifier() throws {
        struct Keyed: Decodable {
            init(from decoder: any Decoder) throws {
                _ = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: Keys.self, forKey: .id)
            }
        }
        struct Unkeyed: Decodable {
            init(from decoder: any Decoder) throws {
                _ = try decoder.container(keyedBy: Keys.self).nestedUnkeyedContainer(forKey: .id)
            }
        }
        let record = Record(recordType: "Note", recordName: "N1", fields: [:])
        expectDecodingError("typeMismatch", at: "id") { _ = try anyTypeDecoder.decode(Keyed.self, from: record) }
        expectDecodingError("typeMismatch", at: "id") { _ = try anyTypeDecoder.decode(Unkeyed.self, from: record) }
        let unnamed = Record(recordType: "Note", recordName: "", fields: [:])
        expectDecodingError("keyNotFound", at: "id") { _ = try anyTypeDecoder.decode(Keyed.self, from: unnamed) }
    }

    /// A wrapper that reads what it cannot decode as nil: `nil` encodes as no field.
    @propertyWrapper
    struct Lossy<Value: Codable & Equatable>: Codable, Equatable {
        var wrappedValue: Value?
        init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
        init(from decoder: any Decoder) throws {
            wrappedValue = try? decoder.singleValueContainer().decode(Value.self)
        }
        func encode(to encoder: any Encoder) throws { try wrappedValue.encode(to: encoder) }
    }

    @Test("A type that decodes from a missing value reads a missing field, as the encoder writes none for its nil")
    func typeThatDecodesFromNothing() throws {
        struct Counted: Codable, Equatable {
            var id: String
            @Lossy var count: Int?
        }
        let model = Counted(id: "c", count: nil)
        let record = try RecordEncoder().encode(model)
        #expect(record.fields.isEmpty)
        #expect(try anyTypeDecoder.decode(Counted.self, from: record) == model)
        // A wrapper of an optional reads a missing field as nil too.
        struct Wrapped: Decodable {
            var id: String
            @Encrypted var note: String?
        }
        #expect(try anyTypeDecoder.decode(Wrapped.self, from: record).note == nil)
    }

    @Test("A nested container of a missing value says so in Foundation's words")
    func containerOfMissingValue() throws {
        struct Reads: Decodable {
            init(from decoder: any Decoder) throws {
                _ = try decoder.container(keyedBy: Keys.self).superDecoder(forKey: .missing).container(
                    keyedBy: Keys.self)
            }
        }
        let record = Record(recordType: "Note", recordName: "N1", fields: [:])
        let error = expectDecodingError("valueNotFound", at: "missing") {
            _ = try anyTypeDecoder.decode(Reads.self, from: record)
        }
        #expect(error?.context?.debugDescription == "Cannot get keyed decoding container -- found null value instead")
    }

    @Test("An update leaves out a location that CloudKit writes alike: its timestamp to the millisecond")
    func locationUpdatedWithinAMillisecond() throws {
        let time = Date(timeIntervalSince1970: 1_700_000_000.123)
        var fetched = Record(
            recordType: "Place", recordName: "p",
            fields: ["where": .location(RecordLocation(latitude: 1, longitude: 2, timestamp: time))])
        fetched.metadata = RecordMetadata(changeTag: "t1")
        var edited = fetched
        edited["where"] = .location(
            RecordLocation(latitude: 1, longitude: 2, timestamp: time.addingTimeInterval(0.0001)))
        #expect(try fetched.update(to: edited).fields.isEmpty)
        // A latitude of -0.0 is written with its sign, as a double field is.
        edited["where"] = .location(RecordLocation(latitude: 1, longitude: -0.0, timestamp: time))
        fetched["where"] = .location(RecordLocation(latitude: 1, longitude: 0.0, timestamp: time))
        #expect(try fetched.update(to: edited).fields.keys.sorted() == ["where"])
    }

    @Test("An encrypted name without a field writes nothing and equality leaves it out; it stays for the field")
    func encryptedNameWithoutField() throws {
        var record = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("Hello")])
        record.encryptedFields = ["ghost"]
        #expect(record == Record(recordType: "Note", recordName: "N1", fields: ["title": .string("Hello")]))
        #expect(
            record.hashValue
                == Record(recordType: "Note", recordName: "N1", fields: ["title": .string("Hello")]).hashValue)
        #expect(try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(record)) == record)
        // A field may be marked before it has a value, one name at a time.
        var account = Record(recordType: "Account", recordName: "a1")
        account.encryptedFields.insert("pin")
        account.encryptedFields.insert("note")
        account["pin"] = .string("1234")
        account["note"] = .string("hi")
        #expect(account.encryptedFields == ["pin", "note"])
        account.encryptedFields.remove("note")
        #expect(account.encryptedFields == ["pin"])
        #expect(account != Record(recordType: "Account", recordName: "a1", fields: account.fields))
    }

    @Test(
        "Dates show in ISO 8601 with the Gregorian calendar throughout, rounded to the millisecond",
        arguments: [
            (-30_610_224_000, "1000-01-01T00:00:00.000Z"),
            (-62_135_596_799, "0001-01-01T00:00:01.000Z"),
            (-12_219_292_800, "1582-10-15T00:00:00.000Z"),
            (-12_219_292_801, "1582-10-14T23:59:59.000Z"),
            (0, "1970-01-01T00:00:00.000Z"),
            (-0.0005, "1970-01-01T00:00:00.000Z"),
            (-0.001, "1969-12-31T23:59:59.999Z"),
            (951_782_400.123, "2000-02-29T00:00:00.123Z"),
            (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
            (253_402_300_799.9996, "date 253402300799.9996 s from 1970"),
        ] as [(Double, String)])
    func dateDescription(seconds: Double, shown: String) {
        #expect(RecordValue.date(Date(timeIntervalSince1970: seconds)).description == shown)
    }

    @Test("A record's mirror shows its encrypted fields, cleared fields and parent only when it has any")
    func mirrorChildren() {
        var record = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("Hi")])
        #expect(Mirror(reflecting: record).children.map(\.label) == ["recordType", "recordName", "fields", "metadata"])
        record.clearedFields = ["body"]
        #expect(
            Mirror(reflecting: record).children.map(\.label) == [
                "recordType", "recordName", "fields", "encryptedFields", "clearedFields", "parent", "metadata",
            ])
    }
}
