import Foundation
import Testing

@testable import RecordCodable

/// How coding keys become field names, and the names a record accepts.
@Suite("Keys and field names")
struct KeyStrategyTests {
    struct Profile: Codable, Equatable {
        var id = "p"
        var displayName: String
        var imageURL: URL
        var createdAt: Date
        var userID: Int
        var isHTMLEnabled: Bool
        var version2Name: String
    }

    static let profile = Profile(
        displayName: "Ada", imageURL: URL(string: "https://example.com/a.png")!,
        createdAt: Date(timeIntervalSince1970: 5),
        userID: 1, isHTMLEnabled: true, version2Name: "v")

    @Test("Snake case writes every field in snake case and reads it back, acronyms included")
    func snakeCase() throws {
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var decoder = RecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let record = try roundTrip(Self.profile, encoder: encoder, decoder: decoder)
        #expect(
            record.fields.keys.sorted() == [
                "created_at", "display_name", "image_url", "is_html_enabled", "user_id", "version2_name",
            ])
    }

    @Test(arguments: [
        ("displayName", "display_name"), ("imageURL", "image_url"), ("URLList", "url_list"), ("userID", "user_id"),
        ("a", "a"), ("already_snake", "already_snake"), ("version2Name", "version2_name"), ("ABC", "abc"),
        ("oneTwoThree", "one_two_three"), ("_leading", "_leading"), ("trailing_", "trailing_"), ("", ""),
    ])
    func snakeCaseConversion(_ key: String, _ expected: String) {
        #expect(SnakeCase.fromCamelCase(key) == expected)
    }

    @Test(arguments: [
        ("display_name", "displayName"), ("image_url", "imageUrl"), ("_private_name", "_privateName"),
        ("plain", "plain"), ("trailing_", "trailing_"), ("a__b", "aB"),
    ])
    func camelCaseConversion(_ name: String, _ expected: String) {
        #expect(SnakeCase.toCamelCase(name) == expected)
    }

    @Test("Snake-case decoding also finds a field named exactly as the key")
    func snakeCaseFallsBackToTheKey() throws {
        struct Item: Codable, Equatable {
            var id = "i"
            var userId: Int
        }
        var decoder = RecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let record = Record(recordType: "Item", recordName: "i", fields: ["userId": .int64(3)])
        #expect(try decoder.decode(Item.self, from: record).userId == 3)
        let missing = Record(recordType: "Item", recordName: "i")
        expectDecodingError("keyNotFound", at: "userId") { _ = try decoder.decode(Item.self, from: missing) }
    }

    @Test("Snake-case decoding finds a field by its camel-case form, whatever snake case it came in")
    func snakeCaseFindsFieldsByTheirKeys() throws {
        var decoder = RecordDecoder()
        decoder.checksRecordType = false
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // Written elsewhere: names that the keys' own snake-case forms do not give back.
        let record = Record(
            recordType: "Counts", recordName: "c",
            fields: ["field_name_0": .int64(1), "image_url": .int64(2), "plain": .int64(3), "a__b": .int64(4)])
        let counts = try decoder.decode([String: Int].self, from: record)
        #expect(counts == ["fieldName0": 1, "imageUrl": 2, "plain": 3, "aB": 4])

        struct Item: Codable, Equatable {
            var id = "i"
            var fieldName0: Int
            var aB: Int?
            var missing: Int?
        }
        #expect(try decoder.decode(Item.self, from: record) == Item(id: "c", fieldName0: 1, aB: 4, missing: nil))
        let without = Record(recordType: "Item", recordName: "i", fields: ["field_name_1": .int64(1)])
        expectDecodingError("keyNotFound", at: "fieldName0") { _ = try decoder.decode(Item.self, from: without) }
    }

    @Test("With snake case, fields whose camel-case forms are one key give that key once in allKeys")
    func snakeCaseKeysAreListedOnce() throws {
        struct Keys: Decodable {
            var names: [String]
            init(from decoder: any Decoder) throws {
                names = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue)
            }
        }
        var decoder = RecordDecoder()
        decoder.checksRecordType = false
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // As Foundation's JSONDecoder lists the keys of {"a_b": 1, "aB": 2, "a__b": 3, "plain": 4}.
        let record = Record(
            recordType: "Keys", recordName: "k",
            fields: ["a_b": .int64(1), "aB": .int64(2), "a__b": .int64(3), "plain": .int64(4)])
        let names = try decoder.decode(Keys.self, from: record).names
        #expect(names.sorted() == ["aB", "plain"])
        // The key reads the field its snake-case form names.
        #expect(try decoder.decode([String: Int].self, from: record) == ["aB": 1, "plain": 4])
    }

    @Test func customStrategies() throws {
        struct Item: Codable, Equatable {
            var id = "i"
            var title: String
            var count: Int?
        }
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .custom { path in AnyCodingKey(stringValue: "f_" + (path.last?.stringValue ?? ""))
        }
        var decoder = RecordDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            AnyCodingKey(stringValue: String(path.last?.stringValue.dropFirst(2) ?? ""))
        }
        let record = try roundTrip(Item(title: "t", count: 2), encoder: encoder, decoder: decoder)
        #expect(record.fields == ["f_title": .string("t"), "f_count": .int64(2)])
        try roundTrip(Item(title: "t", count: nil), encoder: encoder, decoder: decoder)
    }

    @Test("allKeys reports the model's keys under every strategy")
    func allKeysUnderStrategies() throws {
        struct Keys: Decodable {
            var keys: [String]
            init(from decoder: any Decoder) throws {
                keys = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue).sorted()
            }
        }
        let record = Record(recordType: "K", recordName: "k", fields: ["user_name": .int64(1)])
        var decoder = RecordDecoder()
        decoder.checksRecordType = false
        decoder.identifierKey = nil
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(Keys.self, from: record).keys == ["userName"])
        decoder.keyDecodingStrategy = .custom { path in
            AnyCodingKey(stringValue: (path.last?.stringValue ?? "").uppercased())
        }
        #expect(try decoder.decode(Keys.self, from: record).keys == ["USER_NAME"])
    }

    // MARK: Field names

    @Test(
        "A key that is not a valid field name is an error naming the key",
        arguments: [
            "", "1st", "_hidden", "with space", "dash-ed", "émoji", "x.y", String(repeating: "a", count: 256),
        ])
    func invalidFieldNames(_ name: String) throws {
        let error = expectEncodingError(at: name) { _ = try RecordEncoder().encode(OneField(name: name, value: 1)) }
        #expect(error?.context?.debugDescription.contains("'\(name)'") == true)
    }

    @Test(arguments: ["a", "A", "a1", "a_b", "camelCase", "x" + String(repeating: "9", count: 254)])
    func validFieldNames(_ name: String) throws {
        #expect(try RecordEncoder().encode(OneField(name: name, value: "v"))[name] == .string("v"))
    }

    @Test("Two keys that a key strategy stores in one field are an error, on every record; one key twice is not")
    func keysJoinedByStrategy() throws {
        struct Link: Codable, Equatable {
            var id = "l"
            var myURL: String
            var myUrl: String
        }
        var snakeCase = RecordEncoder()
        snakeCase.keyEncodingStrategy = .convertToSnakeCase
        var custom = RecordEncoder()
        custom.keyEncodingStrategy = .custom { path in
            AnyCodingKey(stringValue: path.last?.stringValue.lowercased() ?? "")
        }
        for encoder in [snakeCase, custom] {
            // The second record too, which an encoder that learned the type's layout writes apart.
            for _ in 0..<2 {
                let error = expectEncodingError(at: "myUrl") { _ = try encoder.encode(Link(myURL: "a", myUrl: "b")) }
                #expect(error?.context?.debugDescription.contains("'myURL' and 'myUrl'") == true)
            }
        }
        // A key written twice keeps its last value, under any strategy.
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case id, pageCount }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode("t", forKey: .id)
                try container.encode(1, forKey: .pageCount)
                try container.encode(2, forKey: .pageCount)
            }
        }
        #expect(try snakeCase.encode(Twice()).fields == ["page_count": .int64(2)])
    }

    @Test("A key strategy that produces an invalid name is reported with both names")
    func invalidConvertedName() throws {
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .custom { _ in AnyCodingKey(stringValue: "bad name") }
        let error = expectEncodingError(at: "title") { _ = try encoder.encode(IdentityTests.Note(id: "n", title: "t")) }
        #expect(error?.context?.debugDescription.contains("'bad name'") == true)
    }

    @Test(
        "A record name CloudKit would refuse is an error",
        arguments: [
            "_underscore", "naïve", String(repeating: "n", count: 256),
        ])
    func invalidRecordNames(_ name: String) throws {
        expectEncodingError(at: "id") { _ = try RecordEncoder().encode(IdentityTests.Note(id: name, title: "t")) }
    }

    @Test(arguments: ["Mei Chen", "a@example.com", String(repeating: "n", count: 255), "0", "-1"])
    func validRecordNames(_ name: String) throws {
        #expect(try RecordEncoder().encode(IdentityTests.Note(id: name, title: "t")).recordName == name)
    }
}
