import Foundation
import Testing

@testable import RecordCodable

/// `@Encrypted` and `RecordEncoder.encryptedKeys`: fields that CloudKit keeps encrypted.
@Suite("Encrypted fields")
struct EncryptedTests {
    struct Account: Codable, Hashable, Sendable {
        var id: String
        var holder: String
        @Encrypted var pin: String
        @Encrypted var note: String?
    }

    /// The same model without the wrapper, whose JSON the wrapped one must match.
    struct PlainAccount: Codable, Equatable {
        var id: String
        var holder: String
        var pin: String
        var note: String?
    }

    /// A model with one encrypted property of any type.
    struct Secret<Value: Codable & Equatable>: Codable, Equatable {
        var id = "S"
        @Encrypted var value: Value
    }

    enum Mood: String, RecordEnum {
        case calm, cross, unknown
        static var fallbackCase: Mood { .unknown }
    }

    struct Address: Codable, Equatable {
        var street: String
        @Encrypted var flat: Int
    }

    struct Author: Codable, Equatable, LinkedRecord {
        var id: String
        var name: String
    }

    struct Diary: RecordAssetValue, Equatable {
        var pages: [String]
    }

    static let account = Account(id: "A1", holder: "Ada", pin: "1234", note: "spare key under the mat")

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    // MARK: The wrapper

    @Test("Encrypted properties name their fields in encryptedFields, and decode back unchanged")
    func encryptedProperties() throws {
        let record = try roundTrip(Self.account)
        #expect(record.encryptedFields == ["pin", "note"])
        #expect(record["pin"] == .string("1234"))
        #expect(record["note"] == .string("spare key under the mat"))
        #expect(record["holder"] == .string("Ada"))
    }

    @Test("A nil encrypted optional writes no field and names none; a missing field decodes as nil")
    func nilOptional() throws {
        var account = Self.account
        account.note = nil
        let record = try roundTrip(account)
        #expect(record.encryptedFields == ["pin"])
        #expect(record["note"] == nil)
        #expect(record.fields.keys.sorted() == ["holder", "pin"])
    }

    @Test("CloudKit's JSON carries the plain type and isEncrypted, and reads back the same record")
    func wireForm() throws {
        let record = try RecordEncoder().encode(Self.account)
        let text = try json(record)
        #expect(text.contains(#""pin":{"isEncrypted":true,"type":"STRING","value":"1234"}"#), "\(text)")
        #expect(text.contains(#""holder":{"type":"STRING","value":"Ada"}"#), "\(text)")
        let read = try JSONDecoder().decode(Record.self, from: Data(text.utf8))
        #expect(read == record)
        #expect(try RecordDecoder().decode(Account.self, from: read) == Self.account)
    }

    @Test("Every kind of value CloudKit can encrypt is stored as it would be plain, and encrypted")
    func everyEncryptableKind() throws {
        func check<Value: Codable & Equatable>(
            _ value: Value, _ expected: RecordValue, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let record = try roundTrip(Secret(value: value), sourceLocation: sourceLocation)
            #expect(record["value"] == expected, sourceLocation: sourceLocation)
            #expect(record.encryptedFields == ["value"], sourceLocation: sourceLocation)
        }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let uuid = UUID(uuidString: "7C0F7E5A-1111-4B8E-9C3B-2D5A6F7E8A9B") ?? UUID()
        try check("text", .string("text"))
        try check(42, .int64(42))
        try check(Int8(-3), .int64(-3))
        try check(0.5, .double(0.5))
        try check(true, .int64(1))
        try check(Data([1, 2]), .bytes(Data([1, 2])))
        try check(date, .date(date))
        try check(RecordLocation(latitude: 1, longitude: 2), .location(RecordLocation(latitude: 1, longitude: 2)))
        try check(["a", "b"], .list([.string("a"), .string("b")]))
        try check([1, 2], .list([.int64(1), .int64(2)]))
        try check([date], .list([.date(date)]))
        try check(Set(["only"]), .list([.string("only")]))
        try check([String](), .list([]))
        try check(uuid, .string(uuid.uuidString))
        try check(Decimal(string: "1.25") ?? 0, .string("1.25"))
        try check(Mood.cross, .string("cross"))
        try check([Mood.calm], .list([.string("calm")]))
        try check(URL(string: "https://example.com/a") ?? URL(fileURLWithPath: "/"), .string("https://example.com/a"))
        try check(Optional(7), .int64(7))
    }

    @Test("A nested value is JSON bytes, which CloudKit encrypts too; its own wrapper is plain inside")
    func nestedValue() throws {
        let record = try roundTrip(Secret(value: Address(street: "Main St", flat: 4)))
        #expect(record.encryptedFields == ["value"])
        #expect(record["value"] == .bytes(Data(#"{"flat":4,"street":"Main St"}"#.utf8)))
        // A plain property holding a value with an encrypted property inside: the JSON is plain.
        let plain = try roundTrip(Box(value: Address(street: "Main St", flat: 4)))
        #expect(plain.encryptedFields.isEmpty)
        #expect(plain["value"] == .bytes(Data(#"{"flat":4,"street":"Main St"}"#.utf8)))
    }

    @Test("An encrypted element of a list encrypts the whole list field")
    func encryptedElements() throws {
        let record = try roundTrip(Box(value: [Encrypted(wrappedValue: "a"), Encrypted(wrappedValue: "b")]))
        #expect(record["value"] == .list([.string("a"), .string("b")]))
        #expect(record.encryptedFields == ["value"])
    }

    @Test("An encrypted value written through a record's nested unkeyed container encrypts its field")
    func nestedContainer() throws {
        struct Codes: Encodable {
            var id = "C"
            func encode(to encoder: any Encoder) throws {
                enum Keys: String, CodingKey { case id, codes }
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(id, forKey: .id)
                var codes = container.nestedUnkeyedContainer(forKey: .codes)
                try codes.encode(Encrypted(wrappedValue: 1))
                try codes.encode(Encrypted(wrappedValue: 2))
            }
        }
        let record = try RecordEncoder().encode(Codes())
        #expect(record["codes"] == .list([.int64(1), .int64(2)]))
        #expect(record.encryptedFields == ["codes"])
    }

    @Test("A model's JSON is the same with the wrapper as without it, nil optionals left out")
    func jsonUnchanged() throws {
        let plain = PlainAccount(id: "A1", holder: "Ada", pin: "1234", note: "spare key under the mat")
        #expect(try json(Self.account) == json(plain))
        var account = Self.account
        account.note = nil
        let plainWithoutNote = PlainAccount(id: "A1", holder: "Ada", pin: "1234", note: nil)
        #expect(try json(account) == json(plainWithoutNote))
        #expect(try json(account) == #"{"holder":"Ada","id":"A1","pin":"1234"}"#)
        // And the plain model's JSON, without the optional's key, decodes into the wrapped model.
        let decoded = try JSONDecoder().decode(Account.self, from: JSONEncoder().encode(plainWithoutNote))
        #expect(decoded == account)
        let withNull = try JSONDecoder().decode(
            Account.self, from: Data(#"{"holder":"Ada","id":"A1","pin":"1234","note":null}"#.utf8))
        #expect(withNull == account)
    }

    @Test("Decoding is unchanged: a mistyped encrypted field fails at its path, an unknown enum value falls back")
    func decoding() throws {
        var record = try RecordEncoder().encode(Self.account)
        record["pin"] = .int64(1234)
        expectDecodingError("typeMismatch", at: "pin") { _ = try anyTypeDecoder.decode(Account.self, from: record) }
        record["pin"] = nil
        expectDecodingError("keyNotFound", at: "pin") { _ = try anyTypeDecoder.decode(Account.self, from: record) }
        let mood = try anyTypeDecoder.decode(Secret<Mood>.self, from: boxRecord(.string("elated")))
        #expect(mood.value == .unknown)
    }

    // MARK: What cannot be encrypted

    @Test("An encrypted asset, file URL, asset value, reference or linked model is an error at its path")
    func notEncryptable() {
        withTemporaryDirectory { directory in
            var encoder = RecordEncoder()
            encoder.assetDirectory = directory
            let cases: [(String, () throws -> Record)] = [
                ("asset", { try encoder.encode(Secret(value: RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/a")))) }),
                ("file URL", { try encoder.encode(Secret(value: URL(fileURLWithPath: "/tmp/photo.png"))) }),
                ("asset value", { try encoder.encode(Secret(value: Diary(pages: ["Dear diary"]))) }),
                ("reference", { try encoder.encode(Secret(value: RecordReference(recordName: "R"))) }),
                ("linked model", { try encoder.encode(Secret(value: Author(id: "A", name: "Ada"))) }),
                ("list of references", { try encoder.encode(Secret(value: [RecordReference(recordName: "R")])) }),
                // An empty list shows nothing of what it holds: its type does.
                ("empty list of references", { try encoder.encode(Secret(value: [RecordReference]())) }),
                ("empty list of assets", { try encoder.encode(Secret(value: [RecordAsset]())) }),
                ("empty list of optional linked models", { try encoder.encode(Secret(value: [Author?]())) }),
                ("optional list of asset values", { try encoder.encode(Secret(value: [Diary]?.some([]))) }),
            ]
            for (what, encode) in cases {
                let error = expectEncodingError(at: "value") { _ = try encode() }
                let description = error?.context?.debugDescription ?? ""
                #expect(description.contains("never encrypts references"), "\(what): \(description)")
            }
            // A nil writes no field: nothing is encrypted, a list of references or a single one.
            #expect((try? encoder.encode(Secret<[RecordReference]?>(value: nil)))?.fields.isEmpty == true)
            #expect((try? encoder.encode(Secret<RecordReference?>(value: nil)))?.fields.isEmpty == true)
        }
    }

    @Test("An encrypted identifier is an error, unless the identifier is also kept as a field")
    func encryptedIdentifier() throws {
        struct Key: Codable, Equatable {
            @Encrypted var id: String
            var label: String
        }
        let key = Key(id: "K1", label: "front door")
        let error = expectEncodingError(at: "id") { _ = try RecordEncoder().encode(key) }
        #expect(error?.context?.debugDescription.contains("never encrypts a record's name") == true)
        var encoder = RecordEncoder()
        encoder.storesIdentifierAsField = true
        let record = try encoder.encode(key)
        #expect(record.recordName == "K1")
        #expect(record.encryptedFields == ["id"])
    }

    // MARK: The encoder's keys

    @Test("encryptedKeys encrypts the fields of models whose source cannot change")
    func encryptedKeys() throws {
        var encoder = RecordEncoder()
        encoder.encryptedKeys = ["pin", "note", "noSuchKey", "not-a-field-name"]
        let plain = PlainAccount(id: "A1", holder: "Ada", pin: "1234", note: "spare")
        let record = try encoder.encode(plain)
        #expect(record.encryptedFields == ["pin", "note"])
        #expect(try encoder.encode(PlainAccount(id: "A1", holder: "Ada", pin: "1234")).encryptedFields == ["pin"])
        #expect(try RecordDecoder().decode(PlainAccount.self, from: record) == plain)
    }

    @Test("encryptedKeys names Swift-side keys, which the key strategy turns into field names")
    func encryptedKeysWithKeyStrategy() throws {
        struct Card: Codable, Equatable {
            var id: String
            var pinCode: String
            var cardHolder: String
        }
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.encryptedKeys = ["pinCode"]
        #expect(try encoder.encode(Card(id: "C", pinCode: "9", cardHolder: "Ada")).encryptedFields == ["pin_code"])
        encoder.keyEncodingStrategy = .custom { path in AnyCodingKey(stringValue: "f_" + (path.last?.stringValue ?? ""))
        }
        #expect(try encoder.encode(Card(id: "C", pinCode: "9", cardHolder: "Ada")).encryptedFields == ["f_pinCode"])
        // The wrapper's field name follows the strategy too.
        encoder.encryptedKeys = []
        #expect(try encoder.encode(Self.account).encryptedFields == ["f_pin", "f_note"])
    }

    @Test("encryptedKeys on an asset or the identifier is an error at its path")
    func encryptedKeysErrors() throws {
        var encoder = RecordEncoder()
        encoder.encryptedKeys = ["value"]
        expectEncodingError(at: "value") { _ = try encoder.encode(Box(value: RecordReference(recordName: "R"))) }
        encoder.encryptedKeys = ["id"]
        expectEncodingError(at: "id") { _ = try encoder.encode(Box(value: 1)) }
    }

    // MARK: The save cycle

    @Test("An update carries an edited encrypted field encrypted, and clears an encrypted optional encrypted")
    func updates() throws {
        var original = try JSONDecoder().decode(
            Record.self, from: JSONEncoder().encode(RecordEncoder().encode(Self.account)))
        original.metadata = RecordMetadata(changeTag: "t")  // as the server sent it
        var edited = try RecordDecoder().decode(Account.self, from: original)
        edited.pin = "9999"
        edited.note = nil
        let update = try RecordEncoder().encode(edited, updating: original)
        #expect(update.fields == ["pin": .string("9999")])
        #expect(update.clearedFields == ["note"])
        #expect(update.encryptedFields == ["pin", "note"])
        let body = try json(RecordsModifyRequest(savingRecords: [update]))
        #expect(body.contains(#""note":{"isEncrypted":true,"type":"STRING","value":null}"#), "\(body)")
        #expect(body.contains(#""pin":{"isEncrypted":true,"type":"STRING","value":"9999"}"#), "\(body)")
    }
}
