import Foundation
import Testing

@testable import RecordCodable

/// What a decoder made of a document: the value, or its error as a test compares it.
enum DecodeOutcome<Value: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
    case value(Value)
    /// A `DecodingError`: its kind, full coding path and description.
    case decodingError(kind: String, path: String, description: String)
    /// Any other error, which neither path may throw.
    case otherError(String)

    init(_ decode: () throws -> Value) {
        do {
            self = .value(try decode())
        } catch let error as DecodingError {
            self = .decodingError(
                kind: error.kind, path: error.fullPath, description: error.context?.debugDescription ?? "")
        } catch {
            self = .otherError("\(type(of: error)): \(error)")
        }
    }

    var isValue: Bool {
        if case .value = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .value(let value): "value \(value)"
        case .decodingError(let kind, let path, let description): "\(kind) at '\(path)': \(description)"
        case .otherError(let error): "other error \(error)"
        }
    }
}

/// Reads `data` as a `T` through both paths, `RecordJSONDecoder` and `JSONDecoder`, expects the
/// same outcome, and returns it.
@discardableResult
func expectSameOutcome<T: Decodable & Equatable & Sendable>(
    _ type: T.Type, from data: Data, _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> DecodeOutcome<T> {
    let fast = DecodeOutcome { try RecordJSONDecoder().decode(T.self, from: data) }
    var codable = DecodeOutcome { try JSONDecoder().decode(T.self, from: data) }
    // Of two values in one object that Foundation's decoder cannot read, it reports the one it
    // meets first in the order of a Dictionary, which differs from one decoding to the next; the
    // fast path, which hands such a document to it, may meet the other.
    for _ in 0..<20 where fast != codable {
        codable = DecodeOutcome { try JSONDecoder().decode(T.self, from: data) }
    }
    // A document the fast reader hands to Foundation's decoder gets that decoder's outcome by
    // construction: two errors of one kind there differ only by which of several it met first.
    if case .decodingError(let fastKind, _, _) = fast, case .decodingError(let kind, _, _) = codable,
        fastKind == kind, !readsFast(data, maximumDepth: WireJSON.maximumNesting + 1)
    {
        return fast
    }
    #expect(
        fast == codable,
        "\(comment()) \(String(decoding: data.prefix(300), as: UTF8.self))\n fast: \(fast)\n Codable: \(codable)",
        sourceLocation: sourceLocation)
    if case .otherError(let error) = codable {
        Issue.record("Foundation's decoder threw \(error)", sourceLocation: sourceLocation)
    }
    return fast
}

/// Whether `RecordJSONDecoder` read `data` itself, rather than handing it to `JSONDecoder`.
func readsFast(_ data: Data, maximumDepth: Int = WireJSON.maximumNesting) -> Bool {
    parsedTape(data, maximumDepth: maximumDepth) != nil
}

/// The tape of `data`, or `nil` when the fast path hands it to `JSONDecoder`.
func parsedTape(_ data: Data, maximumDepth: Int = WireJSON.maximumNesting) -> JSONTape? {
    guard case .parsed(let tape) = JSONTape.parsing(data, maximumDepth: maximumDepth) else { return nil }
    return tape
}

/// A record's JSON with one field whose value is `value`, as JSON text.
func recordJSON(field value: String, type: String = "INT64") -> Data {
    Data(#"{"recordName":"n","recordType":"T","fields":{"f":{"type":"\#(type)","value":\#(value)}}}"#.utf8)
}

/// `RecordJSONDecoder` reads what `JSONDecoder` reads, the same way, and refuses what it refuses
/// with the same error at the same path: each rule of Foundation's JSON reading that the fast
/// reader keeps, or hands to Foundation.
@Suite("RecordJSONDecoder")
struct RecordJSONDecoderTests {
    @Test("A record reads to the same value through both paths, and without Foundation's decoder")
    func record() throws {
        let json = Data(
            #"""
            {"recordName":"N1","recordType":"Note","recordChangeTag":"e","fields":{
              "title":{"type":"STRING","value":"Hello \"world\" \/ \u00e9 \ud83d\ude00"},
              "count":{"type":"INT64","value":3},"score":{"type":"DOUBLE","value":0.5},
              "blob":{"type":"BYTES","value":"AAEC/w=="},"created":{"type":"TIMESTAMP","value":1699920000000},
              "tags":{"type":"STRING_LIST","value":["a","b"]},
              "folder":{"type":"REFERENCE","value":{"recordName":"F1","action":"NONE"}},
              "where":{"type":"LOCATION","value":{"latitude":45.0,"longitude":-93.0}},
              "secret":{"type":"ENCRYPTED_BYTES","value":"AAE="},
              "photo":{"type":"ASSETID","value":{"fileChecksum":"c","size":102206,"downloadURL":"https://x/${f}"}}},
             "created":{"timestamp":1699920000000,"userRecordName":"_3f","deviceID":"2"}}
            """#.utf8)
        #expect(readsFast(json))
        let outcome = expectSameOutcome(Record.self, from: json)
        guard case .value(let record) = outcome else {
            Issue.record("Neither path read the document: \(outcome)")
            return
        }
        #expect(record["title"] == .string("Hello \"world\" / é 😀"))
        #expect(record["where"] == .location(RecordLocation(latitude: 45, longitude: -93)))
        #expect(record.encryptedFields == ["secret"])
    }

    @Test(
        "What JSONDecoder accepts beyond strict JSON is accepted",
        arguments: [
            // Trailing commas in objects and arrays.
            #"{"recordName":"n","fields":{"f":{"type":"INT64_LIST","value":[1,2,],},},}"#,
            // Whitespace everywhere JSON allows it.
            " \t\r\n{ \"recordName\" : \"n\" , \"fields\" : { } } \n",
            // Of a key given twice, the first; the second must still be JSON.
            #"{"recordName":"first","recordName":"second","fields":{}}"#,
            #"{"recordName":"n","fields":{"f":{"type":"STRING","value":"a"},"f":{"type":"WHATEVER","value":[[1e300,"x"]]}}}"#,
            // KELVIN SIGN and K are the same key to Swift's String, so the first is kept.
            "{\"recordName\":\"n\",\"fields\":{\"\u{212A}\":{\"type\":\"INT64\",\"value\":1},\"K\":{\"type\":\"INT64\",\"value\":2}}}",
            // Escapes of every kind, and a key spelled with them.
            #"{"record\u004eame":"\u0000\b\f\n\r\t\"\\\/\u20AC\uD834\uDD1E","fields":{}}"#,
            // DEL and characters beyond ASCII, raw.
            "{\"recordName\":\"\u{7F}é日本👋🏽\",\"fields\":{}}",
        ])
    func acceptedOddities(_ text: String) {
        let data = Data(text.utf8)
        #expect(readsFast(data))
        #expect(expectSameOutcome(Record.self, from: data).isValue)
    }

    @Test("A UTF-8 byte order mark is skipped; UTF-16 and UTF-32 are read by Foundation's decoder")
    func encodings() throws {
        let text = #"{"recordName":"é","fields":{"f":{"type":"STRING","value":"日本"}}}"#
        let withMark = Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)
        #expect(readsFast(withMark))
        #expect(expectSameOutcome(Record.self, from: withMark).isValue)
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32LittleEndian, .utf32] {
            let data = try #require(text.data(using: encoding))
            #expect(!readsFast(data))
            // UTF-32 with a byte order mark is the one JSONDecoder does not read.
            #expect(expectSameOutcome(Record.self, from: data).isValue == (encoding != .utf32), "\(encoding)")
        }
    }

    @Test(
        "What JSONDecoder refuses is refused, with its error at its path",
        arguments: [
            "", " ", "{", "}", "[", "nul", "{\"recordName\":\"n\"", "{\"recordName\":\"n\",}x", "{,}",
            #"{"recordName":"n","fields":{"f":{"type":"INT64_LIST","value":[,]}}}"#,
            #"{"recordName":"n","fields":{"f":{"type":"INT64_LIST","value":[1,,2]}}}"#,
            #"{"recordName":"n",,"fields":{}}"#, #"{"recordName" "n"}"#, #"{"recordName":'n'}"#,
            #"{recordName:"n"}"#, #"{"recordName":"n"}{}"#, "{\"recordName\":\"a\tb\"}", "{\"recordName\":\"a\u{1}b\"}",
            #"{"recordName":"\x"}"#, #"{"recordName":"\u12"}"#, #"{"recordName":"\ud800"}"#,
            #"{"recordName":"\udc00\ud800"}"#, #"{"recordName":"\ud83d\u0041"}"#, #"{"recordName":TRUE}"#,
            #"{"recordName":"n","fields":{"f":{"type":"INT64","value":tru}}}"#,
            #"{"recordName":"n","fields":{"f":{"type":"INT64","value":+1}}}"#,
            #"{"recordName":"n","fields":{"f":{"type":"INT64","value":.5}}}"#,
            "{\"recordName\":\"n\"}\u{0C}",
        ])
    func refusedText(_ text: String) {
        let data = Data(text.utf8)
        #expect(!readsFast(data))
        expectSameOutcome(Record.self, from: data)
    }

    @Test("Bytes that are not UTF-8 are refused as JSONDecoder refuses them")
    func invalidUTF8() {
        let prefix = Array(#"{"recordName":"a"#.utf8)
        let suffix = Array(#"b","fields":{}}"#.utf8)
        for bytes: [UInt8] in [
            [0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
            [0xF0, 0x9F, 0x98],
        ] {
            let data = Data(prefix + bytes + suffix)
            #expect(!readsFast(data))
            expectSameOutcome(Record.self, from: data)
        }
        expectSameOutcome(Record.self, from: Data([0x7B, 0xFF, 0x7D]))
    }

    @Test("A document that is not an object is refused as JSONDecoder refuses it")
    func notAnObject() {
        for text in ["1", "\"x\"", "[]", "null", "true", "[{}]"] {
            expectSameOutcome(Record.self, from: Data(text.utf8))
            expectSameOutcome(RecordsQueryResponse.self, from: Data(text.utf8))
        }
    }

    @Test(
        "Numbers read as JSONDecoder reads them for the wire: integers first, 2.0 and 1e3 too",
        arguments: [
            "0", "-0", "-0.0", "0.0", "0e0", "-0e0", "-0e-5", "2.0", "1e3", "1E3", "1e+3", "2.5e1", "1.5", "-1", "-1.5",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
            "9.2233720368547758e18", "9223372036854775807.0", "-9223372036854775808.0", "9223372036854775808.0",
            "1e18", "1e19", "12345678901234567.0", "1.0000000000000001", "0.99999999999999999", "100e-2", "1e-5",
            "0.1", "4.75", "0.30000000000000004", "1.7976931348623157e308", "1.7976931348623159e308", "1e400",
            "-1e400", "1e-400", "-1e-400", "5e-324", "2.2250738585072014e-308", "1e+300",
            "123456789012345678901234567890",
            "18446744073709551615", "18446744073709551616", "9007199254740993", "9007199254740993.0",
            "9007199254740993.5", "1.2345678901234568e+17", "01", "-01", "00", "1.", "1.e3", "-", "1e", "1e+",
            "0.000000000000000000000000000001", "1" + String(repeating: "0", count: 400), "1e0001",
            "1e99999999999999999999",
        ])
    func numbers(_ number: String) {
        for (type, text) in [
            ("INT64", number), ("DOUBLE", number), ("TIMESTAMP", number), ("INT64_LIST", "[\(number)]"),
            ("DOUBLE_LIST", "[\(number),1.5]"), ("INT64_LIST", "[1,\(number)]"),
        ] {
            expectSameOutcome(Record.self, from: recordJSON(field: text, type: type), type)
        }
        // A field without a type takes it from its value, which tells an integer from a double.
        expectSameOutcome(Record.self, from: Data(#"{"recordName":"n","fields":{"f":{"value":\#(number)}}}"#.utf8))
        expectSameOutcome(Record.self, from: Data(#"{"recordName":"n","fields":{"g":{"value":[\#(number)]}}}"#.utf8))
    }

    @Test("A token keeps a number's 64 bits, a string's place, a container's count in 16 bytes")
    func tokenLayout() throws {
        #expect(MemoryLayout<JSONToken>.stride == 16)
        // Integers and doubles whose high and low halves both matter, with strings and containers
        // around them whose places and counts share those halves.
        let numbers: [Int64] = [Int64.min, -1, 0x1_0000_0000, Int64.max, -0x7FFF_FFFF_0000_0001]
        let doubles: [Double] = [-0.0, 2.2250738585072014e-308, -1.7976931348623157e308, 4.75]
        let record = Record(
            recordType: "T", recordName: String(repeating: "n", count: 70_000),
            fields: [
                "i": .list(numbers.map(RecordValue.int64)), "d": .list(doubles.map(RecordValue.double)),
                "s": .string(String(repeating: "s", count: 100_000)),
            ])
        let data = try RecordJSONEncoder().encode(record)
        #expect(readsFast(data))
        let read = try RecordJSONDecoder().decode(Record.self, from: data)
        #expect(read == record)
        guard case .list(let readDoubles)? = read["d"] else { return }
        #expect(
            readDoubles.map { if case .double(let number) = $0 { number.bitPattern } else { 0 } }
                == doubles.map(\.bitPattern))
    }

    @Test("Random numbers, spelled as JSON spells them, read as JSONDecoder reads them")
    func randomNumbers() {
        var random = RandomSource(seed: 0xF00D)
        for _ in 0..<3_000 {
            var text = random.bool() ? "-" : ""
            let integerDigits = random.int(in: 1...20)
            text += random.int(in: 0...3) == 0 ? "0" : String(random.int(in: 1...9))
            if text.last != "0" {
                for _ in 1..<integerDigits { text += String(random.int(in: 0...9)) }
            }
            if random.bool() {
                text += "."
                for _ in 0..<random.int(in: 1...20) { text += String(random.int(in: 0...9)) }
            }
            if random.bool() {
                text += ["e", "E"][random.int(in: 0...1)] + ["", "+", "-"][random.int(in: 0...2)]
                text += String(random.int(in: 0...330))
            }
            expectSameOutcome(Record.self, from: recordJSON(field: text, type: "DOUBLE"), text)
            expectSameOutcome(Record.self, from: recordJSON(field: "[\(text)]", type: "INT64_LIST"), text)
        }
        // Every double's shortest spelling, as JSONEncoder writes it, reads back exactly.
        for _ in 0..<3_000 {
            let number = random.double(finite: true)
            let record = Record(recordType: "T", recordName: "n", fields: ["f": .double(number)])
            let data = recordJSON(field: "\(number)".replacingOccurrences(of: "inf", with: "1"), type: "DOUBLE")
            expectSameOutcome(Record.self, from: data)
            if let written = try? JSONEncoder().encode(record) {
                #expect(expectSameOutcome(Record.self, from: written) == .value(record))
            }
        }
    }

    @Test("The wire types' errors are the same, at the same paths, with the same words")
    func wireErrors() {
        let bodies: [String] = [
            #"{"recordType":"T"}"#,
            #"{"recordName":7}"#,
            #"{"recordName":"n","fields":{"a":{"type":"NOPE","value":1}}}"#,
            #"{"recordName":"n","fields":{"a":{"type":"INT64","value":1.5}}}"#,
            #"{"recordName":"n","fields":{"a":{"type":"INT64","value":"12x"}}}"#,
            #"{"recordName":"n","fields":{"a":{"type":"BYTES","value":"***"}}}"#,
            #"{"recordName":"n","fields":{"a":{"type":"STRING_LIST","value":["x",1]}}}"#,
            #"{"recordName":"n","fields":{"a":{"value":[1,"x"]}}}"#,
            #"{"recordName":"n","fields":{"a":{"value":{"nothing":1}}}}"#,
            #"{"recordName":"n","fields":{"a":{"type":"REFERENCE","value":{"recordName":"r","action":"NOPE"}}}}"#,
            #"{"recordName":"n","fields":{"a":{"type":"LOCATION","value":{"latitude":1}}}}"#,
            #"{"recordName":"n","fields":{"a":{"type":"TIMESTAMP","value":9223372036854775807}}}"#,
            #"{"recordName":"n","fields":{"a":{"type":"ASSETID","value":{"size":-1}}}}"#,
            #"{"recordName":"n","fields":[]}"#,
            #"{"recordName":"n","fields":{"a":[]}}"#,
            // Two bad fields: the first in the order of their names is reported, on both paths.
            #"{"recordName":"n","fields":{"b":{"type":"INT64","value":"x"},"a":{"type":"INT64","value":"y"}}}"#,
            #"{"recordName":"n","created":{"timestamp":"soon"}}"#,
            #"{"recordName":"n","deleted":"yes"}"#,
        ]
        for body in bodies {
            let outcome = expectSameOutcome(Record.self, from: Data(body.utf8))
            #expect(!outcome.isValue, "\(body)")
            expectSameOutcome(RecordOperation.self, from: Data(#"{"operationType":"update","record":\#(body)}"#.utf8))
            expectSameOutcome([Record].self, from: Data("[{\"recordName\":\"ok\"},\(body)]".utf8))
        }
        expectDecodingError("dataCorrupted", at: "fields.a.value") {
            _ = try RecordJSONDecoder().decode(
                Record.self,
                from: Data(
                    #"{"recordName":"n","fields":{"b":{"type":"INT64","value":"x"},"a":{"value":{}}}}"#.utf8))
        }
    }

    @Test("A page keeps the records it can read and reports the others, on both paths")
    func pages() {
        let page = Data(
            #"""
            {"records":[{"recordName":"a","recordType":"T","fields":{"x":{"type":"INT64","value":1}}},
              {"recordName":"b","recordType":"T","fields":{"x":{"type":"FUTURE_TYPE","value":1}}},
              {"recordName":"c","serverErrorCode":"NOT_FOUND","reason":"gone"},
              {"recordName":"d","fields":{"x":{"type":"INT64","value":1.5}},"deleted":true}],
             "continuationMarker":"m","syncToken":"s"}
            """#.utf8)
        #expect(readsFast(page))
        let outcome = expectSameOutcome(RecordsQueryResponse.self, from: page)
        guard case .value(let response) = outcome else {
            Issue.record("Neither path read the document: \(outcome)")
            return
        }
        #expect(response.records.map(\.recordName) == ["a", "b", "c", "d"])
        #expect(
            response.records.compactMap(\.unreadable).map(\.error.fullPath) == [
                "records.Index 1.fields.x.type", "records.Index 3.fields.x.value",
            ])
        expectSameOutcome(RecordsModifyResponse.self, from: page)
        expectSameOutcome(RecordsLookupResponse.self, from: page)
        expectSameOutcome(RecordsModifyResponse.self, from: Data("{}".utf8))
    }

    @Test("Every unreadable record of a long page is reported at its own path, however deep")
    func longPageOfUnreadableRecords() {
        // Each entry fails in its own place: a field's type, an element of a list, a value in an
        // object member past others, or a name that is not text.
        let entries = (0..<600).map { index in
            switch index % 4 {
            case 0: #"{"recordName":"r\#(index)","fields":{"x":{"type":"FUTURE_TYPE","value":1}}}"#
            case 1:
                #"{"recordName":"r\#(index)","fields":{"a":{"type":"INT64","value":1},"#
                    + #""l":{"type":"INT64_LIST","value":[1,2,\#(index % 7),"q"]}}}"#
            case 2: #"{"recordName":"r\#(index)","fields":{"x":{"type":"INT64","value":1.5}},"deleted":true}"#
            default: #"{"recordName":\#(index)}"#
            }
        }
        let page = Data(#"{"syncToken":"s","records":[\#(entries.joined(separator: ","))]}"#.utf8)
        let outcome = expectSameOutcome(RecordsQueryResponse.self, from: page)
        guard case .value(let response) = outcome else {
            Issue.record("Neither path read the document: \(outcome)")
            return
        }
        let expected = (0..<600).map { index in
            switch index % 4 {
            case 0: "records.Index \(index).fields.x.type"
            case 1: "records.Index \(index).fields.l.value.Index 3"
            case 2: "records.Index \(index).fields.x.value"
            default: "records.Index \(index).recordName"
            }
        }
        #expect(response.records.compactMap(\.unreadable).map(\.error.fullPath) == expected)
    }

    @Test("An array of records reads each at its index, as JSONDecoder reads it")
    func arrays() {
        for text in [
            "[]", #"[{"recordName":"a"},{"recordName":"b","fields":{}}]"#, #"[{"recordName":"a"},7]"#,
            #"[{"recordName":"a"},{"recordName":"b","fields":{"x":{"type":"INT64","value":"q"}}}]"#,
            #"[{"recordName":"a"}"#, "{}",
        ] {
            expectSameOutcome([Record].self, from: Data(text.utf8))
            expectSameOutcome([RecordServerError].self, from: Data(text.utf8))
        }
        #expect(readsFast(Data(#"[{"recordName":"a"}]"#.utf8), maximumDepth: WireJSON.maximumNesting + 1))
    }

    @Test("A page of 10 MB reads every record, and a smaller one the same as on the Codable path")
    func largePages() throws {
        func page(records count: Int) throws -> Data {
            let records = (0..<count).map { index in
                RecordResult.success(
                    Record(
                        recordType: "Post", recordName: "post-\(index)",
                        fields: [
                            "title": .string("Title \(index) with some words to make it longer"),
                            "body": .string(String(repeating: "A body of text \(index). ", count: 24)),
                            "views": .int64(Int64(index)), "score": .double(Double(index) / 7),
                            "tags": .list([.string("a"), .string("b\(index)")]),
                        ]))
            }
            return try RecordJSONEncoder().encode(RecordsQueryResponse(records: records))
        }
        let large = try page(records: 14_000)
        #expect(large.count > 10_000_000)
        let read = try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: large)
        #expect(read.records.count == 14_000)
        #expect(read.records.allSatisfy { $0.record != nil })
        #expect(read.records.last?.record?["views"] == .int64(13_999))
        expectSameOutcome(RecordsQueryResponse.self, from: try page(records: 300))
    }

    @Test("A type that is not a wire type is read by JSONDecoder")
    func otherTypes() throws {
        struct Holder: Codable, Equatable {
            var record: Record
            var note: String
        }
        let data = Data(#"{"note":"x","record":{"recordName":"n","fields":{"a":{"type":"INT64","value":1}}}}"#.utf8)
        let holder = try RecordJSONDecoder().decode(Holder.self, from: data)
        #expect(holder == (try JSONDecoder().decode(Holder.self, from: data)))
        expectSameOutcome([String: Record].self, from: Data(#"{"a":{"recordName":"n"}}"#.utf8))
        expectSameOutcome(Int.self, from: Data("12".utf8))
    }

    @Test("Nesting past CloudKit's depth is refused where it goes too deep, as on the Codable path")
    func nesting() {
        func nested(_ depth: Int, _ inner: String, open: String = "[", close: String = "]") -> String {
            String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
        }
        for depth in [12, 13, 14, 15, 16, 20, 600] {
            for inner in ["1", "\"x\"", "{}", "[]", "1.5"] {
                expectSameOutcome(Record.self, from: recordJSON(field: nested(depth, inner), type: "INT64_LIST"))
                expectSameOutcome(
                    Record.self, from: Data(#"{"recordName":"n","extra":\#(nested(depth, inner))}"#.utf8))
                expectSameOutcome(
                    [Record].self, from: Data(#"[{"recordName":"n","extra":\#(nested(depth, inner))}]"#.utf8))
            }
            let objects = nested(depth, "1", open: #"{"a":"#, close: "}")
            expectSameOutcome(Record.self, from: Data(#"{"recordName":"n","extra":\#(objects)}"#.utf8))
        }
    }

    @Test("A document nested 100,000 deep is refused on a thread with a 512 KB stack")
    func deepNestingOnASmallStack() throws {
        let depth = 100_000
        let document = Data(
            (#"{"recordName":"n","x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                + "}").utf8)
        let outcome = try onSmallStack {
            DecodeOutcome { try RecordJSONDecoder().decode(Record.self, from: document) }
        }
        #expect(!outcome.isValue)
        #expect(outcome == DecodeOutcome { try JSONDecoder().decode(Record.self, from: document) })
    }
}
