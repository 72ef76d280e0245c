import Foundation
import Testing

@testable import RecordCodable

/// The shortcuts of the wire layer decide how a value is read or written, never what: each gives
/// the general route's values and errors, and hands every shape it does not recognise to it.
/// These tests walk each boundary: the shapes a shortcut takes, with the general route's outcome,
/// and each shape that leaves it.
@Suite("Wire: the field shortcut")
struct WireFieldShortcutTests {
    /// What reading a field gives, as text to compare: its content, or its error's kind, path and
    /// description.
    static func outcome(_ read: () throws -> WireField.Content?) -> String {
        do {
            return try read().map { "\($0)" } ?? "general route"
        } catch let error as DecodingError {
            return "\(error.kind) at \(error.fullPath): \(error.context?.debugDescription ?? "")"
        } catch {
            return "\(error)"
        }
    }

    /// The field in `text` as the fast decoder's tape holds it, and as the `Codable` path's does.
    static func readers(_ text: String) throws -> [WireReader] {
        let data = Data(text.utf8)
        let tape = try #require(parsedTape(data))
        return [WireReader(tape, at: 0), WireReader(try JSONDecoder().decode(WireJSON.self, from: data), path: [])]
    }

    @Test(
        "A field of the usual shape reads as the general route reads it, on both paths' tapes",
        arguments: [
            #"{"type":"STRING","value":"Hello"}"#,
            #"{"type":"INT64","value":3}"#,
            #"{"type":"INT64","value":"42"}"#,
            #"{"type":"DOUBLE","value":4.75}"#,
            #"{"type":"DOUBLE","value":"1e3"}"#,
            #"{"type":"BYTES","value":"AAEC/w=="}"#,
            #"{"type":"TIMESTAMP","value":1700000000000}"#,
            #"{"type":"REFERENCE","value":{"recordName":"A","action":"DELETE_SELF"}}"#,
            #"{"type":"LOCATION","value":{"latitude":1,"longitude":2.5}}"#,
            #"{"type":"ASSETID","value":{"fileChecksum":"c","size":3}}"#,
            #"{"type":"STRING_LIST","value":["a","b"]}"#,
            #"{"type":"INT64_LIST","value":[]}"#,
            #"{"type":"REFERENCE_LIST","value":[{"recordName":"A"}]}"#,
            #"{"type":"ENCRYPTED_BYTES","value":"AAEC"}"#,
            #"{"type":"ENCRYPTED_STRING_LIST","value":[]}"#,
            #"{"type":"STRING","value":"s","isEncrypted":true}"#,
            #"{"type":"STRING","value":"s","isEncrypted":false}"#,
            #"{"type":"STRING","value":"s","isEncrypted":null}"#,
            #"{"type":"REFERENCE","value":{"recordName":"A"},"isEncrypted":true}"#,
            #"{"type":"ENCRYPTED_ASSETID","value":{"receipt":"r"}}"#,
            // The first of a key given twice, as Foundation's decoder keeps it; unknown members.
            #"{"value":1,"type":"INT64","type":"STRING","value":"x"}"#,
            #"{"type":"INT64","value":1,"isEncrypted":true,"isEncrypted":"no","extra":[1,{"a":null}]}"#,
        ])
    func commonShape(_ text: String) throws {
        for reader in try Self.readers(text) {
            let shortcut = Self.outcome { try WireField.commonContent(of: reader) }
            #expect(shortcut != "general route", "\(text)")
            #expect(shortcut == Self.outcome { try WireField.generalContent(of: reader) }, "\(text)")
        }
    }

    @Test(
        "A value of the wrong kind fails on the shortcut with the general route's error, at its path",
        arguments: [
            (#"{"type":"INT64","value":"x"}"#, "dataCorrupted at value"),
            (#"{"type":"INT64","value":1.5}"#, "dataCorrupted at value"),
            (#"{"type":"STRING","value":1}"#, "typeMismatch at value"),
            (#"{"type":"BYTES","value":"%%"}"#, "dataCorrupted at value"),
            (#"{"type":"STRING_LIST","value":["a",1]}"#, "typeMismatch at value.Index 1"),
            (#"{"type":"INT64_LIST","value":7}"#, "typeMismatch at value"),
            (#"{"type":"REFERENCE","value":{"action":"NONE"}}"#, "keyNotFound at value.recordName"),
            (#"{"type":"LOCATION","value":{"latitude":1}}"#, "keyNotFound at value.longitude"),
        ])
    func errors(_ text: String, _ expected: String) throws {
        for reader in try Self.readers(text) {
            let shortcut = Self.outcome { try WireField.commonContent(of: reader) }
            #expect(shortcut.hasPrefix(expected + ":"), "\(shortcut)")
            #expect(shortcut == Self.outcome { try WireField.generalContent(of: reader) })
        }
    }

    @Test(
        "Every other shape of field leaves the shortcut, and reads or fails as the general route says",
        arguments: [
            #"{"typ\u0065":"INT64","value":3}"#,
            #"{"type":"INT64","valu\u0065":3}"#,
            #"{"type":"INT\u0036\u0034","value":3}"#,
            #"{"value":3}"#,
            #"{"type":null,"value":3}"#,
            #"{"type":7,"value":3}"#,
            #"{"type":"ASSET","value":{"receipt":"r"}}"#,
            #"{"type":"ASSET_LIST","value":[]}"#,
            #"{"type":"FUTURE_TYPE","value":3}"#,
            #"{"type":"int64","value":3}"#,
            #"{"type":"ENCRYPTED_ENCRYPTED_INT64","value":3}"#,
            #"{"type":"STRING_LIST_LIST","value":[]}"#,
            #"{"type":"_LIST","value":[]}"#,
            #"{"type":"","value":[]}"#,
            #"{"type":"INT64","value":3,"isEncrypted":"yes"}"#,
            #"{"type":"INT64"}"#,
            #"{"type":"INT64","value":null}"#,
            #"{"type":"TIMESTAMP","value":null,"isEncrypted":true}"#,
            #"[1]"#,
            #""STRING""#,
            #"null"#,
        ])
    func otherShapes(_ text: String) throws {
        let data = Data(text.utf8)
        let tape = try #require(parsedTape(data))
        let reader = WireReader(tape, at: 0)
        #expect(Self.outcome { try WireField.commonContent(of: reader) } == "general route")
        #expect(
            Self.outcome { try WireField.content(of: reader) }
                == Self.outcome { try WireField.generalContent(of: reader) })
    }

    @Test("A held key or type name that is not ASCII leaves the shortcut, even where String finds it equal")
    func heldNonASCII() throws {
        // The Kelvin sign equals "K" as a String, but not byte for byte.
        let kelvin = "\u{212A}"
        #expect(kelvin == "K")
        let fields: [WireJSON] = [
            .object(["type": .string("INT64"), "value": .int64(1), "\u{212A}": .bool(true)]),
            .object(["type": .string("STRING\u{301}"), "value": .string("s")]),
        ]
        for field in fields {
            let reader = WireReader(field, path: [])
            #expect(Self.outcome { try WireField.commonContent(of: reader) } == "general route")
        }
    }

    @Test("Every type name the shortcut knows is spelled as the field types' own names")
    func spellings() {
        let types: [WireField.FieldType] = [
            .string, .int64, .double, .bytes, .timestamp, .reference, .location, .asset,
        ]
        for type in types {
            for (prefix, isEncrypted) in [("", false), ("ENCRYPTED_", true)] {
                for (name, isList) in [(type.rawValue, false), (type.rawValue + WireField.listSuffix, true)] {
                    let bytes = ContiguousArray((prefix + name).utf8)
                    let spelled = WireField.SpelledType(bytes.span)
                    #expect(spelled?.type == type && spelled?.isList == isList, "\(prefix + name)")
                    #expect(spelled?.isEncrypted == isEncrypted && spelled?.plainName == name, "\(prefix + name)")
                }
            }
        }
    }
}

@Suite("Wire: the Codable path writes fields in place")
struct WireRecordKeyedWritingTests {
    static let sorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// The JSON of the generic route: the record's whole JSON built first, then written.
    static func generic(_ record: Record) throws -> Data {
        try sorted.encode(try record.wireJSON(at: []))
    }

    /// A record with one field of each kind the in-place writer writes, and system fields.
    static var common: Record {
        var record = Record(
            recordType: "Note", recordName: "N1",
            fields: [
                "title": .string("Hello / \"world\""), "count": .int64(-3), "score": .double(0.5),
                "blob": .bytes(Data([0, 1, 2, 255])), "when": .date(Date(timeIntervalSince1970: 1_700_000_000.25)),
                "link": .reference(RecordReference(recordName: "F1", action: .deleteSelf)),
                "tags": .list([.string("a"), .string("b")]), "days": .list([.date(Date(timeIntervalSince1970: 0))]),
                "links": .list([.reference(RecordReference(recordName: "F2"))]),
            ],
            metadata: RecordMetadata(changeTag: "e", created: .init(timestamp: Date(timeIntervalSince1970: 1))))
        record.parent = RecordReference(recordName: "P")
        return record
    }

    @Test("A record writes the generic route's JSON, field by field in place or through the field's JSON")
    func sameJSON() throws {
        var others = Self.common
        others.fields["secret"] = .string("s")
        others.encryptedFields = ["secret"]
        others.fields["empty"] = .list([])
        others.fieldTypeHints = ["empty": "INT64_LIST"]
        others.fields["photo"] = .asset(RecordAsset(fileChecksum: "c", size: 3, downloadURL: "https://x/y"))
        others.fields["where"] = .location(RecordLocation(latitude: 1, longitude: 2))
        var cleared = Self.common
        cleared.clearedFields = ["gone"]
        let bare = Record(recordType: "Note", recordName: "N2")
        for record in [Self.common, others, cleared, bare] {
            let json = try Self.sorted.encode(record)
            #expect(json == (try Self.generic(record)))
            #expect(json == (try RecordJSONEncoder().encode(record)))
            #expect(try JSONDecoder().decode(Record.self, from: json) == record)
        }
    }

    @Test("A coder with a key strategy takes the generic route, with the same JSON")
    func keyStrategy() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let boxed = try encoder.encode(["the_record": Self.common])
        let expected = try Self.sorted.encode(["the_record": try Self.common.wireJSON(at: [])])
        #expect(boxed == expected)
    }

    @Test(
        "A field that cannot be written fails with the generic route's error, at its path",
        arguments: [
            ("nan", RecordValue.double(.nan), "value"),
            ("far", .date(Date(timeIntervalSince1970: 1e300)), "value"),
            ("mixed", .list([.string("a"), .int64(1)]), "value.Index 1"),
            ("nested", .list([.list([])]), "value.Index 0"),
            ("infinite", .list([.double(.infinity)]), "value.Index 0"),
        ])
    func fieldErrors(_ name: String, _ value: RecordValue, _ path: String) throws {
        var record = Self.common
        record.fields[name] = value
        let error = expectEncodingError(at: "fields.\(name).\(path)") { _ = try JSONEncoder().encode(record) }
        let genericError = #expect(throws: EncodingError.self) { try Self.generic(record) }
        #expect(error?.path == genericError?.path)
        #expect(error?.context?.debugDescription == genericError?.context?.debugDescription)
    }

    @Test("Of a bad field and a bad system field, the error is the field's, as on the generic route")
    func firstError() throws {
        var record = Self.common
        record.fields["nan"] = .double(.nan)
        record.metadata?.created = .init(timestamp: Date(timeIntervalSince1970: 1e300))
        expectEncodingError(at: "fields.nan.value") { _ = try JSONEncoder().encode(record) }
        record.fields["nan"] = nil
        expectEncodingError(at: "created.timestamp") { _ = try JSONEncoder().encode(record) }
    }
}
