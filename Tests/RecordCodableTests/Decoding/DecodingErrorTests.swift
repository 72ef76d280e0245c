import Foundation
import Testing

@testable import RecordCodable

/// Every kind of decoding error, with Foundation's wording and the exact coding path.
@Suite("Decoding errors")
struct DecodingErrorTests {
    struct Person: Codable, Equatable {
        var id: String
        var name: String
        var age: Int8
        var tags: [String]
        var friend: Friend?
    }

    struct Friend: Codable, Equatable {
        var name: String
        var since: Date
    }

    private let decoder = RecordDecoder()

    private var person: Record {
        Record(
            recordType: "Person", recordName: "p1",
            fields: ["name": .string("Ada"), "age": .int64(36), "tags": .list([.string("a")])])
    }

    @Test func missingField() throws {
        var record = person
        record["name"] = nil
        let error = expectDecodingError("keyNotFound", at: "name") { _ = try decoder.decode(Person.self, from: record) }
        #expect(
            error?.context?.debugDescription
                == #"No value associated with key CodingKeys(stringValue: "name", intValue: nil) ("name") in record Person "p1"."#
        )
    }

    @Test("A missing field's error names the record, and the linked record that lacks it")
    func missingFieldNamesTheRecord() throws {
        struct Note: Codable {
            var id: String
            var title: String
        }
        let note = Record(recordType: "Note", recordName: "N1", fields: ["body": .string("b")])
        let error = expectDecodingError("keyNotFound", at: "title") { _ = try decoder.decode(Note.self, from: note) }
        #expect(
            error?.context?.debugDescription
                == #"No value associated with key CodingKeys(stringValue: "title", intValue: nil) ("title") in record Note "N1"."#
        )
        // A record saved without a name, as a model whose identifier was nil saves it.
        struct Draft: Codable {
            var id: String?
            var title: String
        }
        let unnamed = Record(recordType: "Draft", recordName: "", fields: [:])
        let unnamedError = expectDecodingError("keyNotFound", at: "title") {
            _ = try decoder.decode(Draft.self, from: unnamed)
        }
        #expect(
            unnamedError?.context?.debugDescription.hasSuffix(#"in a record of type Draft that has no name."#) == true)
        // A value that decodes itself, and cannot from no field, is missing from its record too.
        let valueError = expectDecodingError("keyNotFound", at: "value") {
            _ = try decoder.decode(
                Box<[String: Int]>.self, from: Record(recordType: "Box", recordName: "B1", fields: [:]))
        }
        #expect(valueError?.context?.debugDescription.hasSuffix(#"("value") in record Box "B1"."#) == true)
    }

    @Test func wrongType() throws {
        var record = person
        record["name"] = .int64(5)
        let error = expectDecodingError("typeMismatch", at: "name") {
            _ = try decoder.decode(Person.self, from: record)
        }
        #expect(error?.context?.debugDescription == "Expected to decode String but found an integer instead.")
        record = person
        record["age"] = .string("36")
        let ageError = expectDecodingError("typeMismatch", at: "age") {
            _ = try decoder.decode(Person.self, from: record)
        }
        #expect(ageError?.context?.debugDescription == "Expected to decode Int8 but found a string instead.")
    }

    @Test func integerOverflowIsCorruptNotTruncated() throws {
        var record = person
        record["age"] = .int64(300)
        let error = expectDecodingError("dataCorrupted", at: "age") {
            _ = try decoder.decode(Person.self, from: record)
        }
        #expect(error?.context?.debugDescription == "Number 300 does not fit in Int8.")
    }

    @Test(arguments: [
        (RecordValue.int64(128), "Int8"), (.int64(-129), "Int8"), (.int64(-1), "UInt8"), (.int64(256), "UInt8"),
        (.int64(70_000), "Int16"), (.int64(Int64(UInt32.max) + 1), "UInt32"), (.int64(-1), "UInt64"),
        (.double(1.5), "Int"), (.double(.nan), "Int"), (.double(.infinity), "Int64"), (.double(1e19), "Int64"),
        (.double(-0.5), "UInt"),
    ])
    func numberDoesNotFit(_ value: RecordValue, _ type: String) throws {
        let record = boxRecord(value)
        let error = expectDecodingError("dataCorrupted", at: "value") {
            switch type {
            case "Int8": _ = try decoder.decode(Box<Int8>.self, from: record)
            case "UInt8": _ = try decoder.decode(Box<UInt8>.self, from: record)
            case "Int16": _ = try decoder.decode(Box<Int16>.self, from: record)
            case "UInt32": _ = try decoder.decode(Box<UInt32>.self, from: record)
            case "UInt64": _ = try decoder.decode(Box<UInt64>.self, from: record)
            case "Int64": _ = try decoder.decode(Box<Int64>.self, from: record)
            case "UInt": _ = try decoder.decode(Box<UInt>.self, from: record)
            default: _ = try decoder.decode(Box<Int>.self, from: record)
            }
        }
        #expect(error?.context?.debugDescription.hasSuffix("does not fit in \(type).") == true)
    }

    @Test("An integral double in range decodes as an integer")
    func integralDoubleDecodesAsInteger() throws {
        #expect(try decoder.decode(Box<Int>.self, from: boxRecord(.double(42))).value == 42)
        #expect(try decoder.decode(Box<UInt8>.self, from: boxRecord(.double(255))).value == 255)
        #expect(try decoder.decode(Box<Int8>.self, from: boxRecord(.double(-0.0))).value == 0)
    }

    @Test("A Bool is 0 or 1; any other number is corrupt, not false", arguments: [Int64(2), -1, Int64.max])
    func boolOutOfRange(_ number: Int64) throws {
        let error = expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Bool>.self, from: boxRecord(.int64(number)))
        }
        #expect(error?.context?.debugDescription == "Number \(number) is not a valid Bool: expected 0 or 1.")
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Bool>.self, from: boxRecord(.double(1)))
        }
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(Box<Bool>.self, from: boxRecord(.string("true")))
        }
        expectDecodingError("dataCorrupted", at: "value.Index 1") {
            _ = try decoder.decode(Box<[Bool]>.self, from: boxRecord(.list([.int64(1), .int64(number)])))
        }
    }

    @Test func doubleFromInteger() throws {
        #expect(try decoder.decode(Box<Double>.self, from: boxRecord(.int64(2))).value == 2)
        #expect(try decoder.decode(Box<Double>.self, from: boxRecord(.int64(1 << 53))).value == 9_007_199_254_740_992)
        let error = expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Double>.self, from: boxRecord(.int64(1 << 53 + 1)))
        }
        #expect(error?.context?.debugDescription == "Number 9007199254740993 does not fit in Double.")
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Double>.self, from: boxRecord(.int64(.max)))
        }
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(Box<Double>.self, from: boxRecord(.string("1.5")))
        }
    }

    @Test func floatOutOfRange() throws {
        let error = expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Float>.self, from: boxRecord(.double(1e300)))
        }
        #expect(error?.context?.debugDescription == "Number 1e+300 does not fit in Float.")
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Float>.self, from: boxRecord(.double(-1e39)))
        }
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Float>.self, from: boxRecord(.int64(16_777_217)))
        }
        #expect(try decoder.decode(Box<Float>.self, from: boxRecord(.int64(16_777_216))).value == 16_777_216)
        #expect(try decoder.decode(Box<Float>.self, from: boxRecord(.double(.infinity))).value == .infinity)
    }

    @Test func listElementErrorsNameTheirIndex() throws {
        var record = person
        record["tags"] = .list([.string("a"), .int64(1)])
        let error = expectDecodingError("typeMismatch", at: "tags.Index 1") {
            _ = try decoder.decode(Person.self, from: record)
        }
        #expect(error?.context?.debugDescription == "Expected to decode String but found an integer instead.")
        expectDecodingError("typeMismatch", at: "value.Index 2") {
            _ = try decoder.decode(Box<[Int]>.self, from: boxRecord(.list([.int64(1), .int64(2), .string("3")])))
        }
        expectDecodingError("dataCorrupted", at: "value.Index 0") {
            _ = try decoder.decode(Box<[Int8]>.self, from: boxRecord(.list([.int64(1000)])))
        }
        expectDecodingError("typeMismatch", at: "value.Index 0") {
            _ = try decoder.decode(Box<[Date]>.self, from: boxRecord(.list([.string("x")])))
        }
        expectDecodingError("typeMismatch", at: "value.Index 1") {
            _ = try decoder.decode(Box<[UUID]>.self, from: boxRecord(.list([.string(UUID().uuidString), .int64(1)])))
        }
    }

    @Test("A list where a single value is expected, and the reverse")
    func listVersusSingleValue() throws {
        let error = expectDecodingError("typeMismatch", at: "name") {
            var record = person
            record["name"] = .list([.string("Ada")])
            _ = try decoder.decode(Person.self, from: record)
        }
        #expect(error?.context?.debugDescription == "Expected to decode String but found a list instead.")
        expectDecodingError("typeMismatch", at: "tags") {
            var record = person
            record["tags"] = .string("a")
            _ = try decoder.decode(Person.self, from: record)
        }
    }

    @Test func errorsInsideNestedJSONStartAtTheField() throws {
        var record = person
        record["friend"] = .bytes(Data(#"{"name":"Bo","since":"yesterday"}"#.utf8))
        expectDecodingError("typeMismatch", at: "friend.since") { _ = try decoder.decode(Person.self, from: record) }
        record["friend"] = .bytes(Data(#"{"since":0}"#.utf8))
        expectDecodingError("keyNotFound", at: "friend.name") { _ = try decoder.decode(Person.self, from: record) }
        record["friend"] = .bytes(Data("not json".utf8))
        expectDecodingError("dataCorrupted", at: "friend") { _ = try decoder.decode(Person.self, from: record) }
        record["friend"] = .string("Bo")
        let error = expectDecodingError("typeMismatch", at: "friend") {
            _ = try decoder.decode(Person.self, from: record)
        }
        #expect(
            error?.context?.debugDescription == "Expected to decode Dictionary<String, Any> but found a string instead."
        )
    }

    @Test func listAtEnd() throws {
        struct Pair: Codable, Equatable {
            var first: Int
            var second: Int
            init(first: Int, second: Int) {
                self.first = first
                self.second = second
            }
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                first = try container.decode(Int.self)
                second = try container.decode(Int.self)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try container.encode(first)
                try container.encode(second)
            }
        }
        #expect(try roundTrip(Box(value: Pair(first: 1, second: 2)))["value"] == .list([.int64(1), .int64(2)]))
        let error = expectDecodingError("valueNotFound", at: "value.Index 1") {
            _ = try decoder.decode(Box<Pair>.self, from: boxRecord(.list([.int64(1)])))
        }
        #expect(error?.context?.debugDescription == "Unkeyed container is at end.")
    }

    @Test("A top-level value that is not keyed finds a record")
    func topLevelNotKeyed() throws {
        let decoder = anyTypeDecoder
        let error = expectDecodingError("typeMismatch", at: "") { _ = try decoder.decode([Int].self, from: person) }
        #expect(error?.context?.debugDescription == "Expected to decode Array<Any> but found a record instead.")
        expectDecodingError("typeMismatch", at: "") { _ = try decoder.decode(String.self, from: person) }
        expectDecodingError("typeMismatch", at: "") { _ = try decoder.decode(Int.self, from: person) }
    }

    @Test("Optional properties: nil when missing, an error when present and wrong")
    func optionalProperties() throws {
        let decoder = anyTypeDecoder
        #expect(try decoder.decode(OptionalBox<Int>.self, from: boxRecord(nil)).value == nil)
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(OptionalBox<Int>.self, from: boxRecord(.string("1")))
        }
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(OptionalBox<UInt8>.self, from: boxRecord(.int64(-3)))
        }
    }
}
