import Foundation
import Testing

@testable import RecordCodable

/// A record read from JSON keeps its fields as read (`ReadFields`), searched without hashing, and
/// builds its `fields` dictionary only when asked. Whichever way it keeps them, a record must find
/// the same field for a name as a dictionary would, compare and hash alike, and change as a value.
@Suite("Records: fields kept as read from JSON")
struct ReadFieldsTests {
    /// A record document with `fields`, a fields object's text (without its braces).
    static func document(_ fields: String) -> Data {
        Data(#"{"recordName":"N1","recordType":"Note","fields":{\#(fields)}}"#.utf8)
    }

    /// A field object holding the string `value`.
    static func string(_ value: String) -> String {
        #"{"type":"STRING","value":"\#(value)"}"#
    }

    /// The record that `data` holds, read by `RecordJSONDecoder` and by `JSONDecoder`, which
    /// must agree.
    static func read(_ data: Data) throws -> Record {
        let record = try RecordJSONDecoder().decode(Record.self, from: data)
        #expect(record == (try JSONDecoder().decode(Record.self, from: data)))
        return record
    }

    /// Whether `record` keeps the fields as read, rather than as a dictionary.
    static func keepsFieldsAsRead(_ record: Record) -> Bool {
        if case .read = record.fieldStorage { true } else { false }
    }

    @Test("A field is found by its name, and a name the record lacks finds nothing")
    func findsFields() throws {
        let fields = #""title":\#(Self.string("Hello")),"views":{"type":"INT64","value":3},"":\#(Self.string("e"))"#
        let record = try Self.read(Self.document(fields))
        #expect(Self.keepsFieldsAsRead(record))
        #expect(record["title"] == .string("Hello"))
        #expect(record["views"] == .int64(3))
        #expect(record[""] == .string("e"))
        // Same length and first byte as a field's name, or a prefix of one: not that field.
        for missing in ["tiTLE", "title ", "titl", "views2", "v", "Title"] { #expect(record[missing] == nil) }
        #expect(record.fields == ["title": .string("Hello"), "views": .int64(3), "": .string("e")])
    }

    @Test(
        "A name is found as a dictionary finds it: text equal as Unicode, of other bytes, is the same name",
        arguments: [
            ("caf\u{E9}", "cafe\u{301}"),  // composed and decomposed
            ("cafe\u{301}", "caf\u{E9}"),
            ("\u{212A}", "K"),  // the Kelvin sign is the letter K
            ("K", "\u{212A}"),
            ("\u{212B}ngstr\u{F6}m", "\u{C5}ngstro\u{308}m"),
        ])
    func findsCanonicallyEqualNames(written: String, asked: String) throws {
        let record = try Self.read(Self.document(#""\#(written)":\#(Self.string("v")),"plain":\#(Self.string("p"))"#))
        #expect(Self.keepsFieldsAsRead(record))
        #expect(written == asked)
        #expect(record[asked] == .string("v"))
        #expect(record.fields[asked] == .string("v"))
        #expect(record["plain"] == .string("p"))
    }

    @Test("A model's key finds a field whose name is the same Unicode text in other bytes")
    func modelReadsCanonicallyEqualName() throws {
        struct Note: Codable, Equatable {
            var id: String
            var cafe: String

            enum CodingKeys: String, CodingKey {
                case id
                case cafe = "caf\u{E9}"
            }
        }
        // The key is written composed in the source; the field decomposed, escaped.
        let record = try Self.read(Self.document(#""cafe\u0301":\#(Self.string("open"))"#))
        #expect(try RecordDecoder().decode(Note.self, from: record) == Note(id: "N1", cafe: "open"))
    }

    @Test(
        "A name given twice, in the same bytes or other bytes of the same text, reads as JSONDecoder reads it",
        arguments: [
            #""a":"# + string("1") + #","a":"# + string("2"),
            #""caf\u00e9":"# + string("1") + #","cafe\u0301":"# + string("2"),
            #""K":"# + string("1") + #","\u212a":"# + string("2"),
        ])
    func namesGivenTwice(fields: String) throws {
        let record = try Self.read(Self.document(fields))
        #expect(record.fields.count == 1)
        // The general way reads it, into a dictionary.
        #expect(!Self.keepsFieldsAsRead(record))
    }

    @Test("Up to 64 fields are kept as read; a record of more is read straight into a dictionary, the same record")
    func manyFields() throws {
        for count in [63, 64, 65, 200] {
            let fields = (0..<count).map { #""f\#($0)":{"type":"INT64","value":\#($0)}"# }.joined(separator: ",")
            let data = Self.document(fields)
            // Read straight from its bytes, not the general way, at any width.
            #expect(RecordBytesReader.record(from: data) != nil)
            let record = try Self.read(data)
            #expect(Self.keepsFieldsAsRead(record) == (count <= RecordBytesReader.maximumListedFields))
            #expect(record.fields.count == count)
            for index in 0..<count { #expect(record["f\(index)"] == .int64(Int64(index))) }
        }
        // A name given twice past the list is still the general way's.
        let twice = (0..<70).map { #""f\#($0 % 69)":{"type":"INT64","value":\#($0)}"# }.joined(separator: ",")
        #expect(RecordBytesReader.record(from: Self.document(twice)) == nil)
        #expect(try Self.read(Self.document(twice)).fields.count == 69)
    }

    @Test("A page with a record of more than 64 fields among others is read straight, each record as alone")
    func pageWithAWideRecord() throws {
        let wide = (0..<65).map { #""f\#($0)":{"type":"INT64","value":\#($0)}"# }.joined(separator: ",")
        let narrow = #""title":\#(Self.string("Hello"))"#
        let records = [wide, narrow].enumerated().map { place, fields in
            #"{"recordName":"N\#(place)","recordType":"Note","fields":{\#(fields)}}"#
        }
        let body = Data(#"{"records":[\#(records.joined(separator: ","))]}"#.utf8)
        #expect(RecordsQueryResponse.straight(from: body) != nil)
        let page = try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: body)
        #expect(page == (try JSONDecoder().decode(RecordsQueryResponse.self, from: body)))
        #expect(page.records.compactMap(\.record).map(\.fields.count) == [65, 1])
    }

    @Test("A record read and one built by hand with the same fields are equal, and hash alike")
    func equalityAndHashing() throws {
        let read = try Self.read(Self.document(#""title":\#(Self.string("Hello")),"n":{"type":"INT64","value":3}"#))
        let built = Record(recordType: "Note", recordName: "N1", fields: ["n": .int64(3), "title": .string("Hello")])
        #expect(Self.keepsFieldsAsRead(read) && !Self.keepsFieldsAsRead(built))
        #expect(read == built)
        #expect(read.hashValue == built.hashValue)
        #expect(Set([read, built]).count == 1)
        #expect(read.encodedSize == built.encodedSize)
        let other = Record(recordType: "Note", recordName: "N1", fields: ["n": .int64(4), "title": .string("Hello")])
        #expect(read != other)
    }

    @Test("A change to a read record's fields changes that record alone, and keeps every other field")
    func changesAreValues() throws {
        let original = try Self.read(Self.document(#""title":\#(Self.string("Hello")),"n":{"type":"INT64","value":3}"#))
        var edited = original
        edited["title"] = .string("Bye")
        edited.fields["added"] = .int64(1)
        edited["n"] = nil
        #expect(edited.fields == ["title": .string("Bye"), "added": .int64(1)])
        #expect(!Self.keepsFieldsAsRead(edited))
        #expect(original.fields == ["title": .string("Hello"), "n": .int64(3)])
        #expect(original["title"] == .string("Hello"))
        // A whole new dictionary replaces them.
        var replaced = original
        replaced.fields = [:]
        #expect(replaced.fields.isEmpty && replaced["title"] == nil)
        #expect(original.fields.count == 2)
    }

    @Test("A change through the fields taken inout that throws keeps what it changed, in that record alone")
    func throwingChange() throws {
        struct Stop: Error {}
        func change(_ fields: inout [String: RecordValue]) throws {
            fields["added"] = .int64(1)
            throw Stop()
        }
        let original = try Self.read(Self.document(#""title":\#(Self.string("Hello"))"#))
        var edited = original
        #expect(throws: Stop.self) { try change(&edited.fields) }
        #expect(edited.fields == ["title": .string("Hello"), "added": .int64(1)])
        #expect(original.fields == ["title": .string("Hello")])
    }

    @Test("Changing a copy leaves the original's list without a dictionary kept for it")
    func changingACopyKeepsNoDictionary() throws {
        // Read without comparing it, which would ask for the dictionary.
        let original = try RecordJSONDecoder().decode(
            Record.self, from: Self.document(#""title":\#(Self.string("Hello"))"#))
        var edited = original
        edited["title"] = .string("Bye")
        guard case .read(let list) = original.fieldStorage else {
            Issue.record("the original keeps its fields as read")
            return
        }
        let kept = Mirror(reflecting: list).children.first { $0.label == "builtDictionary" }.map { "\($0.value)" }
        #expect(kept == "nil")
        #expect(original["title"] == .string("Hello") && edited["title"] == .string("Bye"))
    }

    @Test("A name given escaped and plain is one name given twice, read the general way")
    func escapedAndPlainName() throws {
        let data = Self.document(#""a":\#(Self.string("1")),"\u0061":\#(Self.string("2"))"#)
        #expect(RecordBytesReader.record(from: data) == nil)
        #expect(try Self.read(data).fields.count == 1)
    }

    @Test("Two read records whose names are the same text in other bytes are equal, and hash alike")
    func equalAcrossBytes() throws {
        let composed = try Self.read(Self.document(#""caf\u00e9":\#(Self.string("open"))"#))
        let decomposed = try Self.read(Self.document(#""cafe\u0301":\#(Self.string("open"))"#))
        #expect(Self.keepsFieldsAsRead(composed) && Self.keepsFieldsAsRead(decomposed))
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
    }

    @Test("Many tasks asking a read record's fields at once all get the same dictionary")
    func fieldsAskedConcurrently() async throws {
        let fields = (0..<20).map { #""f\#($0)":{"type":"INT64","value":\#($0)}"# }.joined(separator: ",")
        let record = try Self.read(Self.document(fields))
        let expected = Dictionary(uniqueKeysWithValues: (0..<20).map { ("f\($0)", RecordValue.int64(Int64($0))) })
        let all = await withTaskGroup(of: [String: RecordValue].self) { group in
            for _ in 0..<16 { group.addTask { record.fields } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(all.count == 16)
        #expect(all.allSatisfy { $0 == expected })
    }

    @Test("A read record's missing field names its near misses, as a record built by hand does")
    func missingFieldNearMisses() throws {
        struct Note: Codable {
            var id: String
            var title: String
        }
        let record = try Self.read(Self.document(#""titel":\#(Self.string("Hello"))"#))
        #expect {
            try RecordDecoder().decode(Note.self, from: record)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "title" && context.debugDescription.contains("'titel'")
        }
    }
}
