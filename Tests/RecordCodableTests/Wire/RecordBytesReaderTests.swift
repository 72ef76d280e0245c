import Foundation
import Testing

@testable import RecordCodable

/// `RecordBytesReader` decides how a record is read, never what: a record it reads straight from
/// its bytes is the record the tape's general way reads, and every document it does not read is
/// read by that way from the start, with its values and its errors. These tests walk each
/// boundary: shapes it reads, with the general way's record, and shapes it leaves, with the
/// outcome of both of `RecordJSONDecoder`'s routes and of `JSONDecoder`.
@Suite("Wire: a record read straight from its bytes")
struct RecordBytesReaderTests {
    /// The record the general way reads from `text`: a tape, then the record reader.
    static func generalOutcome(_ data: Data) -> DecodeOutcome<Record> {
        DecodeOutcome {
            guard let tape = parsedTape(data) else { throw CocoaError(.coderReadCorrupt) }
            return try WireRecord.record(from: WireReader(tape, at: 0))
        }
    }

    /// A record dictionary around `fields`, the inside of its `fields` object.
    static func record(fields: String, extra: String = "") -> String {
        #"{"recordName":"N1","recordType":"Note","fields":{\#(fields)}\#(extra)}"#
    }

    @Test(
        "A record of the usual shape reads straight, to the general way's record and JSONDecoder's",
        arguments: [
            record(fields: #""t":{"type":"STRING","value":"Hello"}"#),
            // Escapes and text that is not ASCII, in values and in field names.
            record(fields: #""t":{"type":"STRING","value":"a \"b\" \/ \\ \n \t \u00e9 \ud83d\ude00 é 😀"}"#),
            record(fields: #""na\u006de":{"type":"STRING","value":""},"é":{"type":"STRING","value":"x"}"#),
            record(fields: #""link":{"type":"STRING","value":"https:\/\/example.com\/posts\/42"}"#),
            // Each type, and each list.
            record(fields: #""i":{"type":"INT64","value":-9223372036854775808},"j":{"type":"INT64","value":2.0}"#),
            record(
                fields: #""i":{"type":"INT64","value":1e3},"j":{"type":"INT64","value":-0.0},"#
                    + #""k":{"type":"INT64","value":-0}"#),
            record(
                fields: #""d":{"type":"DOUBLE","value":4.75},"e":{"type":"DOUBLE","value":3},"#
                    + #""f":{"type":"DOUBLE","value":-0}"#),
            record(
                fields: #""d":{"type":"DOUBLE","value":1.7976931348623157e308},"#
                    + #""e":{"type":"DOUBLE","value":0.1e-5}"#),
            record(fields: #""t":{"type":"TIMESTAMP","value":1700000000000},"u":{"type":"TIMESTAMP","value":-1}"#),
            record(fields: #""b":{"type":"BYTES","value":"AAEC/w=="},"c":{"type":"BYTES","value":""}"#),
            record(fields: #""r":{"type":"REFERENCE","value":{"recordName":"A"}}"#),
            record(fields: #""r":{"type":"REFERENCE","value":{"action":"DELETE_SELF","recordName":"A"}}"#),
            record(fields: #""s":{"type":"STRING_LIST","value":["a","b"]},"i":{"type":"INT64_LIST","value":[5,4]}"#),
            record(fields: #""d":{"type":"DOUBLE_LIST","value":[1,2.5]},"t":{"type":"TIMESTAMP_LIST","value":[0]}"#),
            record(
                fields: #""b":{"type":"BYTES_LIST","value":["AA=="]},"#
                    + #""r":{"type":"REFERENCE_LIST","value":[{"recordName":"A"}]}"#),
            // Empty lists keep their type for the record.
            record(fields: #""e":{"type":"INT64_LIST","value":[]},"f":{"type":"REFERENCE_LIST","value":[ ]}"#),
            // The value before the type, as CloudKit writes it.
            record(
                fields: #""t":{"value":"Hello","type":"STRING"},"#
                    + #""l":{"value":[{"recordName":"A"}],"type":"REFERENCE_LIST"}"#),
            record(fields: #""r":{"value":{"recordName":"A","action":"VALIDATE"},"type":"REFERENCE"}"#),
            // Whitespace everywhere JSON allows it.
            " \n{ \"recordName\" : \"N1\" ,\t\"fields\" : { \"i\" : { \"value\" : [ 1 , 2 ] , \"type\" : \"INT64_LIST\" } } } \r\n",
            // No fields, empty fields, no type; the system fields.
            #"{"recordName":"N1"}"#,
            #"{"recordName":"N1","recordType":"Note","fields":{}}"#,
            record(
                fields: "",
                extra: #","recordChangeTag":"e","#
                    + #""created":{"timestamp":1699920000000,"userRecordName":"_3f","deviceID":"2"}"#
                    + #","modified":{"deviceID":"3","timestamp":1699920000001},"zoneID":{"zoneName":"Z","ownerRecordName":"_o"}"#
                    + #","deleted":false"#),
            record(fields: "", extra: #","deleted":true,"zoneID":{"zoneName":"_defaultZone"}"#),
        ])
    func readsStraight(_ text: String) throws {
        let data = Data(text.utf8)
        let straight = try #require(RecordBytesReader.record(from: data), "\(text)")
        #expect(DecodeOutcome { straight } == Self.generalOutcome(data), "\(text)")
        #expect(expectSameOutcome(Record.self, from: data) == .value(straight), "\(text)")
    }

    @Test("A flat model's record, as RecordJSONEncoder writes it, reads straight to the same record")
    func encodedRecord() throws {
        var record = Record(
            recordType: "Post", recordName: "post-42",
            fields: [
                "title": .string("Records on Linux"), "views": .int64(1_234_567), "rating": .double(4.75),
                "publishedAt": .date(Date(timeIntervalSince1970: 1_700_000_000)),
                "link": .string("https://example.com/posts/42"), "tags": .list([.string("swift"), .string("linux")]),
                "scores": .list([.int64(5), .int64(4)]), "author": .reference(RecordReference(recordName: "author-7")),
                "none": .list([]), "blob": .bytes(Data([0, 1, 255])),
            ])
        record.metadata = RecordMetadata(
            changeTag: "e", created: .init(timestamp: Date(timeIntervalSince1970: 1_699_920_000)),
            zoneID: RecordZoneID(zoneName: "Z"))
        let data = try RecordJSONEncoder().encode(record)
        #expect(RecordBytesReader.record(from: data) == record)
        #expect(Self.generalOutcome(data) == .value(record))
        // Bytes that are a slice of a larger buffer read from the slice's start.
        let slice = (Data("[ ".utf8) + data).dropFirst(2)
        #expect(RecordBytesReader.record(from: slice) == record)
    }

    @Test("The words a field's start is matched by are the bytes of its text")
    func words() {
        let typeKey = ContiguousArray(#"{"type":"#.utf8)
        let valueKey = ContiguousArray(#","value""#.utf8)
        #expect(ByteScan.word(typeKey.span, at: 0) == RecordBytesReader.typeKeyWord)
        #expect(ByteScan.word(valueKey.span, at: 0) == RecordBytesReader.valueKeyWord)
    }

    @Test(
        "Any other shape is left to the general way, which reads it or fails as JSONDecoder does",
        arguments: [
            // Members the reader does not know, or meets twice.
            record(fields: "", extra: #","pluginFields":{}"#),
            record(fields: "", extra: #","recordName":"N2""#),
            record(fields: #""t":{"type":"STRING","value":"a"},"t":{"type":"STRING","value":"b"}"#),
            record(fields: #""t":{"type":"STRING","value":"a","type":"INT64"}"#),
            record(fields: #""t":{"type":"STRING","value":"a","extra":1}"#),
            #"{"record\u004eame":"N1"}"#,
            record(fields: #""t":{"typ\u0065":"STRING","value":"a"}"#),
            // Fields that are cleared, encrypted, untyped, or of the types it leaves.
            record(fields: #""t":{"type":"STRING","value":null}"#),
            record(fields: #""t":{"type":"STRING"}"#),
            record(fields: #""t":{"value":"a"}"#),
            record(fields: #""t":{"type":"ENCRYPTED_STRING","value":"a"}"#),
            record(fields: #""t":{"type":"STRING","value":"a","isEncrypted":true}"#),
            record(fields: #""t":{"isEncrypted":false,"type":"STRING","value":"a"}"#),
            record(fields: #""l":{"type":"LOCATION","value":{"latitude":1,"longitude":2}}"#),
            record(fields: #""a":{"type":"ASSETID","value":{"fileChecksum":"c"}}"#),
            record(fields: #""a":{"type":"ASSET","value":{"fileChecksum":"c"}}"#),
            record(fields: #""r":{"type":"REFERENCE","value":{"recordName":"A","zoneID":{"zoneName":"Z"}}}"#),
            // Numbers spelled as text, which the general way reads with checks of its own.
            record(fields: #""i":{"type":"INT64","value":"42"},"d":{"type":"DOUBLE","value":"1e3"}"#),
            record(fields: #""t":{"type":"TIMESTAMP","value":"1700000000000"}"#),
            // A number with more digits than the tape's parser reads, which JSONDecoder reads.
            record(fields: #""d":{"type":"DOUBLE","value":123456789012345678901234567890}"#),
            // Values of the wrong kind, each an error at its path.
            record(fields: #""i":{"type":"INT64","value":1.5}"#),
            record(fields: #""i":{"type":"INT64","value":9223372036854775808}"#),
            record(fields: #""t":{"type":"STRING","value":1}"#),
            record(fields: #""t":{"type":"STRING_LIST","value":["a",1]}"#),
            record(fields: #""t":{"value":["a",1],"type":"STRING_LIST"}"#),
            record(fields: #""b":{"type":"BYTES","value":"%%"}"#),
            record(fields: #""t":{"type":"TIMESTAMP","value":9223372036854775807}"#),
            record(fields: #""t":{"type":"FUTURE","value":1}"#),
            record(fields: #""r":{"type":"REFERENCE","value":{"action":"NONE"}}"#),
            record(fields: #""r":{"type":"REFERENCE","value":{"recordName":"A","action":"LATER"}}"#),
            record(fields: #""i":{"type":"INT64","value":true}"#),
            #"{"recordType":"Note"}"#,
            #"{"recordName":7}"#,
            #"{"recordName":"N1","fields":[]}"#,
            #"{"recordName":"N1","created":{"timestamp":"1"}}"#,
            #"{"recordName":"N1","created":{"userRecordName":"_3f"}}"#,
            #"{"recordName":"N1","deleted":null}"#,
            #"{"recordName":"N1","recordChangeTag":null}"#,
            // What JSONDecoder allows and the reader leaves: trailing commas, a byte order mark.
            record(fields: #""t":{"type":"STRING","value":"a"},"#),
            record(fields: #""t":{"type":"STRING_LIST","value":["a",]}"#),
            #"{"recordName":"N1",}"#,
            "\u{FEFF}" + #"{"recordName":"N1"}"#,
            // Text that is not JSON.
            #"{"recordName":"N1""#,
            #"{"recordName":"N1"} x"#,
            #"{"recordName":"N1\u12"}"#,
            record(fields: #""i":{"type":"INT64","value":01}"#),
            record(fields: #""i":{"type":"INT64","value":1}}"#),
            record(fields: #""i":{"type":"INT64","value":-}"#),
            "{\"recordName\":\"N\u{1}\"}",
            #"[{"recordName":"N1"}]"#,
            #""N1""#,
            "",
        ])
    func leaves(_ text: String) throws {
        let data = Data(text.utf8)
        #expect(RecordBytesReader.record(from: data) == nil, "\(text)")
        let outcome = expectSameOutcome(Record.self, from: data, text)
        if readsFast(data) { #expect(outcome == Self.generalOutcome(data), "\(text)") }
    }

    @Test("Text that is not valid UTF-8 is left to the general way, as the tape's parser leaves it")
    func invalidUTF8() {
        for bytes: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            var data = Data(#"{"recordName":""#.utf8)
            data.append(contentsOf: bytes)
            data.append(contentsOf: Data(#""}"#.utf8))
            #expect(RecordBytesReader.record(from: data) == nil)
            expectSameOutcome(Record.self, from: data)
        }
    }

    @Test("Random records, as RecordJSONEncoder writes them, read straight or not, to the general way's record")
    func randomRecords() throws {
        var random = RandomSource(seed: 0x5EED_0043)
        var straight = 0
        for iteration in 0..<800 {
            let record = Record.random(using: &random)
            guard let data = try? RecordJSONEncoder().encode(record) else { continue }
            let general = Self.generalOutcome(data)
            if let read = RecordBytesReader.record(from: data) {
                straight += 1
                #expect(general == .value(read), "iteration \(iteration)")
            }
        }
        // Most random records hold a field of a type the reader leaves; many do not.
        #expect(straight > 50)
    }
}
