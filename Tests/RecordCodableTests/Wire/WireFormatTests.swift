import Foundation
import Testing

@testable import RecordCodable

/// `Record`'s `Codable` form: the CloudKit Web Services record dictionary.
@Suite("Wire format")
struct WireFormatTests {
    /// A JSON encoder whose output is stable enough to compare as text.
    static func goldenEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func json(_ record: Record, encoder: JSONEncoder = goldenEncoder()) throws -> String {
        String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    static func record(_ json: String) throws -> Record {
        try JSONDecoder().decode(Record.self, from: Data(json.utf8))
    }

    /// A record with a field of every type and all of its metadata.
    static let note = Record(
        recordType: "Note", recordName: "N1",
        fields: [
            "title": .string("Hello"),
            "count": .int64(3),
            "score": .double(0.5),
            "blob": .bytes(Data([0, 1, 2, 255])),
            "created": .date(Date(timeIntervalSince1970: 1_699_920_000)),
            "tags": .list([.string("a"), .string("b")]),
            "folder": .reference(RecordReference(recordName: "F1")),
            "where": .location(RecordLocation(latitude: 45, longitude: -93)),
            "photo": .asset(RecordAsset(fileChecksum: "ck", size: 102_206, downloadURL: "https://x.example/${f}")),
        ],
        metadata: RecordMetadata(
            changeTag: "e",
            created: .init(timestamp: Date(timeIntervalSince1970: 1_699_920_000), userRecordName: "_3f", deviceID: "2"),
            modified: .init(
                timestamp: Date(timeIntervalSince1970: 1_699_920_000.5), userRecordName: "_3f", deviceID: "2")))

    static let noteJSON =
        #"{"created":{"deviceID":"2","timestamp":1699920000000,"userRecordName":"_3f"},"#
        + #""fields":{"blob":{"type":"BYTES","value":"AAEC/w=="},"count":{"type":"INT64","value":3},"#
        + #""created":{"type":"TIMESTAMP","value":1699920000000},"#
        + #""folder":{"type":"REFERENCE","value":{"action":"NONE","recordName":"F1"}},"#
        + #""photo":{"type":"ASSETID","value":{"downloadURL":"https://x.example/${f}","fileChecksum":"ck","size":102206}},"#
        + #""score":{"type":"DOUBLE","value":0.5},"tags":{"type":"STRING_LIST","value":["a","b"]},"#
        + #""title":{"type":"STRING","value":"Hello"},"#
        + #""where":{"type":"LOCATION","value":{"latitude":45,"longitude":-93}}},"#
        + #""modified":{"deviceID":"2","timestamp":1699920000500,"userRecordName":"_3f"},"#
        + #""recordChangeTag":"e","recordName":"N1","recordType":"Note"}"#

    // MARK: Writing

    @Test("The exact JSON of a record with every field type")
    func golden() throws {
        #expect(try Self.json(Self.note) == Self.noteJSON)
        #expect(try Self.record(Self.noteJSON) == Self.note)
    }

    @Test("The JSON is the same whatever the JSON encoder's key, date and data strategies")
    func independentOfEncoderStrategies() throws {
        let encoder = Self.goldenEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .custom { _, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("custom")
        }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+", negativeInfinity: "-", nan: "n")
        #expect(try Self.json(Self.note, encoder: encoder) == Self.noteJSON)
        let custom = Self.goldenEncoder()
        custom.keyEncodingStrategy = .custom { _ in AnyCodingKey(stringValue: "renamed") }
        #expect(try Self.json(Self.note, encoder: custom) == Self.noteJSON)
    }

    @Test("The record reads back the same whatever the JSON decoder's strategies")
    func independentOfDecoderStrategies() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .custom { _ in Data() }
        var record = Self.note
        record["snake_case_field"] = .string("kept")
        let data = try Self.goldenEncoder().encode(record)
        #expect(try decoder.decode(Record.self, from: data) == record)
        decoder.keyDecodingStrategy = .custom { _ in AnyCodingKey(stringValue: "renamed") }
        #expect(try decoder.decode(Record.self, from: data) == record)
    }

    @Test("Dates are whole milliseconds since 1970, rounded to the nearest")
    func timestamps() throws {
        let cases: [(Double, Int64)] = [
            (0, 0), (1.000_4, 1000), (1.000_6, 1001), (-1.000_4, -1000), (-1.000_6, -1001),
            (1_699_920_000.123, 1_699_920_000_123), (1_699_920_000.123_456_7, 1_699_920_000_123),
        ]
        for (seconds, milliseconds) in cases {
            let record = Record(
                recordType: "T", recordName: "n", fields: ["d": .date(Date(timeIntervalSince1970: seconds))])
            #expect(try Self.json(record).contains(#""value":\#(milliseconds)"#), "\(seconds)")
            let decoded = try Self.record(Self.json(record))
            #expect(decoded["d"] == .date(Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
        }
    }

    @Test("A date beyond the milliseconds an Int64 counts is an encoding error")
    func dateOutOfRange() throws {
        let record = Record(
            recordType: "T", recordName: "n", fields: ["d": .date(Date(timeIntervalSince1970: 1e300))])
        expectEncodingError(at: "fields.d.value") { _ = try JSONEncoder().encode(record) }
        let nan = Record(recordType: "T", recordName: "n", fields: ["d": .date(Date(timeIntervalSince1970: .nan))])
        expectEncodingError(at: "fields.d.value") { _ = try JSONEncoder().encode(nan) }
    }

    @Test("An error about an infinite date can be printed (Foundation traps describing such a date)")
    func infiniteDateErrorIsPrintable() throws {
        let record = Record(
            recordType: "T", recordName: "n", fields: ["d": .date(Date(timeIntervalSince1970: .infinity))])
        let error = expectEncodingError(at: "fields.d.value") { _ = try JSONEncoder().encode(record) }
        #expect(String(describing: error).contains("beyond the milliseconds"))
        let topLevel = expectEncodingError(at: "") {
            _ = try RecordEncoder().encode(Date(timeIntervalSince1970: -.infinity))
        }
        #expect(!String(describing: topLevel).isEmpty)
    }

    @Test("A double JSON cannot carry is an encoding error", arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDouble(_ value: Double) throws {
        let record = Record(recordType: "T", recordName: "n", fields: ["x": .double(value)])
        let error = expectEncodingError(at: "fields.x.value") { _ = try JSONEncoder().encode(record) }
        #expect(error?.context?.debugDescription.contains("Unable to encode Double") == true)
        let list = Record(recordType: "T", recordName: "n", fields: ["x": .list([.double(1), .double(value)])])
        expectEncodingError(at: "fields.x.value.Index 1") { _ = try JSONEncoder().encode(list) }
        let location = Record(
            recordType: "T", recordName: "n",
            fields: ["x": .location(RecordLocation(latitude: 1, longitude: 2, speed: value))])
        expectEncodingError(at: "fields.x.value.speed") { _ = try JSONEncoder().encode(location) }
    }

    @Test("A list that mixes kinds, or holds lists, is an encoding error")
    func invalidLists() throws {
        let mixed = Record(recordType: "T", recordName: "n", fields: ["x": .list([.string("a"), .int64(1)])])
        expectEncodingError(at: "fields.x.value.Index 1") { _ = try JSONEncoder().encode(mixed) }
        let nested = Record(recordType: "T", recordName: "n", fields: ["x": .list([.list([])])])
        expectEncodingError(at: "fields.x.value.Index 0") { _ = try JSONEncoder().encode(nested) }
    }

    @Test("An asset's local file URL is not part of CloudKit's format")
    func assetFileURLNotWritten() throws {
        let record = Record(
            recordType: "T", recordName: "n",
            fields: ["a": .asset(RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/x"), receipt: "r"))])
        #expect(
            try Self.json(record)
                == #"{"fields":{"a":{"type":"ASSETID","value":{"receipt":"r"}}},"recordName":"n","recordType":"T"}"#)
    }

    @Test("References carry their action and zone")
    func references() throws {
        let zone = RecordZoneID(zoneName: "Z", ownerRecordName: "_o")
        for action in RecordReference.Action.allCases {
            let record = Record(
                recordType: "T", recordName: "n",
                fields: ["r": .reference(RecordReference(recordName: "R", action: action, zoneID: zone))])
            let json = try Self.json(record)
            #expect(
                json.contains(
                    #"{"action":"\#(action.rawValue)","recordName":"R","zoneID":{"ownerRecordName":"_o","zoneName":"Z"}}"#
                ))
            #expect(try Self.record(json) == record)
        }
    }

    // MARK: Reading

    @Test("An asset field with the server's keys, typed ASSETID or ASSET")
    func assetField() throws {
        for type in ["ASSETID", "ASSET"] {
            let record = try Self.record(
                #"{"recordName":"n","recordType":"T","fields":{"photo":{"type":"\#(type)","value":{"fileChecksum":"AXr1","size":102206,"downloadURL":"https://cvws.icloud-content.com/B/AXr1/${f}?o=A","referenceChecksum":"rc","wrappingKey":"wk"}}}}"#
            )
            #expect(
                record["photo"]
                    == .asset(
                        RecordAsset(
                            fileChecksum: "AXr1", size: 102_206, referenceChecksum: "rc", wrappingKey: "wk",
                            downloadURL: "https://cvws.icloud-content.com/B/AXr1/${f}?o=A")))
        }
    }

    @Test func locationField() throws {
        let record = try Self.record(
            #"{"recordName":"n","recordType":"T","fields":{"where":{"type":"LOCATION","value":{"latitude":37.33,"longitude":-122.03,"altitude":10.5,"horizontalAccuracy":5,"verticalAccuracy":8,"speed":1.5,"course":270,"timestamp":1699920000123}}}}"#
        )
        #expect(
            record["where"]
                == .location(
                    RecordLocation(
                        latitude: 37.33, longitude: -122.03, altitude: 10.5, horizontalAccuracy: 5, verticalAccuracy: 8,
                        speed: 1.5, course: 270, timestamp: Date(timeIntervalSince1970: 1_699_920_000.123))))
        #expect(try Self.record(Self.json(record)) == record)
    }

    @Test("Empty and non-empty lists of every element type")
    func lists() throws {
        let lists: [String: RecordValue] = [
            "strings": .list([.string("a"), .string("")]),
            "ints": .list([.int64(.min), .int64(.max)]),
            "doubles": .list([.double(0.25), .double(-1)]),
            "bytes": .list([.bytes(Data([1])), .bytes(Data())]),
            "dates": .list([.date(Date(timeIntervalSince1970: 1))]),
            "references": .list([.reference(RecordReference(recordName: "a", action: .deleteSelf))]),
            "locations": .list([.location(RecordLocation(latitude: 1, longitude: 2))]),
            "assets": .list([.asset(RecordAsset(fileChecksum: "c", size: 1))]),
            "empty": .list([]),
        ]
        let record = Record(recordType: "T", recordName: "n", fields: lists)
        let json = try Self.json(record)
        for (name, type) in [
            ("strings", "STRING_LIST"), ("ints", "INT64_LIST"), ("doubles", "DOUBLE_LIST"), ("bytes", "BYTES_LIST"),
            ("dates", "TIMESTAMP_LIST"), ("references", "REFERENCE_LIST"), ("locations", "LOCATION_LIST"),
            ("assets", "ASSETID_LIST"), ("empty", "STRING_LIST"),
        ] {
            #expect(json.contains(#""\#(name)":{"type":"\#(type)""#), "\(name)")
        }
        #expect(try Self.record(json) == record)
        for type in [
            "INT64_LIST", "DOUBLE_LIST", "TIMESTAMP_LIST", "REFERENCE_LIST", "ASSET_LIST", "LOCATION_LIST",
            "BYTES_LIST",
        ] {
            let empty = try Self.record(
                #"{"recordName":"n","recordType":"T","fields":{"x":{"type":"\#(type)","value":[]}}}"#)
            #expect(empty["x"] == .list([]))
        }
    }

    @Test("An INT64 beyond 2^53 keeps every digit")
    func largeInteger() throws {
        let record = try Self.record(
            #"{"recordName":"n","recordType":"T","fields":{"big":{"type":"INT64","value":9007199254740993},"max":{"type":"INT64","value":9223372036854775807},"min":{"type":"INT64","value":-9223372036854775808}}}"#
        )
        #expect(record["big"] == .int64(9_007_199_254_740_993))
        #expect(record["max"] == .int64(.max))
        #expect(record["min"] == .int64(.min))
        #expect(try Self.json(record).contains("9007199254740993"))
    }

    @Test("A DOUBLE written as 2 stays a double")
    func integralDouble() throws {
        let record = try Self.record(#"{"recordName":"n","recordType":"T","fields":{"d":{"type":"DOUBLE","value":2}}}"#)
        #expect(record["d"] == .double(2))
        #expect(try Self.json(record).contains(#"{"type":"DOUBLE","value":2}"#))
    }

    @Test("Without a type, the value's kind gives the field type")
    func inferredTypes() throws {
        let record = try Self.record(
            """
            {"recordName":"n","recordType":"T","fields":{
              "int":{"value":42}, "negative":{"value":-7}, "double":{"value":1.5}, "exponent":{"value":1.5e3},
              "string":{"value":"text"}, "yes":{"value":true}, "no":{"value":false},
              "strings":{"value":["a","b"]}, "ints":{"value":[1,2]}, "empty":{"value":[]},
              "reference":{"value":{"recordName":"R","action":"VALIDATE"}},
              "location":{"value":{"latitude":1,"longitude":2.5}},
              "asset":{"value":{"fileChecksum":"c","size":10}},
              "receipt":{"value":{"receipt":"r","size":10}},
              "download":{"value":{"downloadURL":"https://x/${f}"}},
              "references":{"value":[{"recordName":"a"},{"recordName":"b"}]},
              "huge":{"value":1e20}
            }}
            """)
        #expect(record["int"] == .int64(42))
        #expect(record["negative"] == .int64(-7))
        #expect(record["double"] == .double(1.5))
        #expect(record["exponent"] == .int64(1500))
        #expect(record["string"] == .string("text"))
        #expect(record["yes"] == .int64(1))
        #expect(record["no"] == .int64(0))
        #expect(record["strings"] == .list([.string("a"), .string("b")]))
        #expect(record["ints"] == .list([.int64(1), .int64(2)]))
        #expect(record["empty"] == .list([]))
        #expect(record["reference"] == .reference(RecordReference(recordName: "R", action: .validate)))
        #expect(record["location"] == .location(RecordLocation(latitude: 1, longitude: 2.5)))
        #expect(record["asset"] == .asset(RecordAsset(fileChecksum: "c", size: 10)))
        #expect(record["receipt"] == .asset(RecordAsset(size: 10, receipt: "r")))
        #expect(record["download"] == .asset(RecordAsset(downloadURL: "https://x/${f}")))
        #expect(
            record["references"]
                == .list([.reference(RecordReference(recordName: "a")), .reference(RecordReference(recordName: "b"))]))
        #expect(record["huge"] == .double(1e20))
    }

    @Test("Unknown keys are ignored, at every level")
    func unknownKeys() throws {
        let record = try Self.record(
            #"{"recordName":"n","recordType":"T","futureKey":{"value":"x"},"desiredKeys":[],"fields":{"a":{"type":"STRING","value":"v","extra":1},"r":{"type":"REFERENCE","value":{"recordName":"R","action":"NONE","extra":true}}}}"#
        )
        #expect(
            record
                == Record(
                    recordType: "T", recordName: "n",
                    fields: ["a": .string("v"), "r": .reference(RecordReference(recordName: "R"))]))
    }

    @Test("A record the server answers with its name and metadata only")
    func recordWithoutTypeOrFields() throws {
        let record = try Self.record(#"{"recordName":"n","deleted":true}"#)
        #expect(record.recordType == "")
        #expect(record.fields.isEmpty)
        #expect(record.metadata == RecordMetadata(deleted: true))
        #expect(try Self.record(#"{"recordName":"n","recordType":"T","fields":{}}"#).metadata == nil)
        let zoned = try Self.record(#"{"recordName":"n","recordType":"T","zoneID":{"zoneName":"Z"}}"#)
        #expect(zoned.metadata?.zoneID == RecordZoneID(zoneName: "Z"))
    }

    // MARK: Malformed input, one case each

    @discardableResult
    private func malformed(
        _ fields: String, _ kind: String, at path: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        -> DecodingError?
    {
        expectDecodingError(kind, at: path, sourceLocation: sourceLocation) {
            _ = try Self.record(#"{"recordName":"n","recordType":"T","fields":\#(fields)}"#)
        }
    }

    @Test func unknownType() {
        let error = malformed(#"{"x":{"type":"COLOR","value":"red"}}"#, "dataCorrupted", at: "fields.x.type")
        #expect(error?.context?.debugDescription == "Unknown field type 'COLOR'.")
        malformed(#"{"x":{"type":"COLOR_LIST","value":[]}}"#, "dataCorrupted", at: "fields.x.type")
        malformed(#"{"x":{"type":5,"value":1}}"#, "typeMismatch", at: "fields.x.type")
    }

    @Test func valueOfTheWrongKindForItsType() {
        let error = malformed(#"{"x":{"type":"STRING","value":5}}"#, "typeMismatch", at: "fields.x.value")
        #expect(error?.context?.debugDescription == "Expected to decode String but found a number instead.")
        malformed(#"{"x":{"type":"INT64","value":"five"}}"#, "dataCorrupted", at: "fields.x.value")
        malformed(#"{"x":{"type":"INT64","value":[5]}}"#, "typeMismatch", at: "fields.x.value")
        malformed(#"{"x":{"type":"DOUBLE","value":true}}"#, "typeMismatch", at: "fields.x.value")
        malformed(#"{"x":{"type":"TIMESTAMP","value":"2023-01-01"}}"#, "dataCorrupted", at: "fields.x.value")
        malformed(#"{"x":{"type":"TIMESTAMP","value":{}}}"#, "typeMismatch", at: "fields.x.value")
        malformed(#"{"x":{"type":"REFERENCE","value":"R"}}"#, "typeMismatch", at: "fields.x.value")
        malformed(#"{"x":{"type":"LOCATION","value":[1,2]}}"#, "typeMismatch", at: "fields.x.value")
        malformed(#"{"x":{"type":"ASSETID","value":"c"}}"#, "typeMismatch", at: "fields.x.value")
        malformed(#"{"x":{"type":"STRING_LIST","value":"a"}}"#, "typeMismatch", at: "fields.x.value")
        malformed(#"{"x":{"type":"STRING","value":{}}}"#, "typeMismatch", at: "fields.x.value")
    }

    @Test func badBase64() {
        let error = malformed(#"{"x":{"type":"BYTES","value":"not base64!"}}"#, "dataCorrupted", at: "fields.x.value")
        #expect(error?.context?.debugDescription == "The value is not valid Base64.")
    }

    @Test func fractionalInt64() {
        let error = malformed(#"{"x":{"type":"INT64","value":1.5}}"#, "dataCorrupted", at: "fields.x.value")
        #expect(error?.context?.debugDescription == "Number 1.5 is not an integer within Int64.")
    }

    @Test func int64BeyondRange() {
        malformed(#"{"x":{"type":"INT64","value":9223372036854775808}}"#, "dataCorrupted", at: "fields.x.value")
        malformed(#"{"x":{"type":"INT64","value":-9223372036854775809}}"#, "dataCorrupted", at: "fields.x.value")
        malformed(#"{"x":{"type":"INT64","value":1e300}}"#, "dataCorrupted", at: "fields.x.value")
    }

    @Test("A timestamp a Date cannot hold to the millisecond is corrupt, never read as another time")
    func timestampBeyondDate() throws {
        // Found by the fuzzer: Int64.max milliseconds read as a Date that could not be written back.
        for milliseconds in ["9223372036854775807", "9223372036854775000", "-9223372036854775000", "9007199254740993"] {
            let error = malformed(
                #"{"d":{"type":"TIMESTAMP","value":\#(milliseconds)}}"#, "dataCorrupted", at: "fields.d.value")
            #expect(error?.context?.debugDescription.contains("beyond the milliseconds a Date holds") == true)
        }
        malformed(
            #"{"d":{"type":"TIMESTAMP_LIST","value":[1,9223372036854775807]}}"#, "dataCorrupted",
            at: "fields.d.value.Index 1")
        malformed(
            #"{"p":{"type":"LOCATION","value":{"latitude":1,"longitude":2,"timestamp":9223372036854775807}}}"#,
            "dataCorrupted", at: "fields.p.value.timestamp")
        expectDecodingError("dataCorrupted", at: "created.timestamp") {
            _ = try Self.record(#"{"recordName":"n","recordType":"T","created":{"timestamp":9223372036854775807}}"#)
        }

        // From year 1 to the end of year 9999, every millisecond reads and writes back unchanged.
        for milliseconds: Int64 in [-62_135_596_800_000, -1, 0, 1_699_920_000_123, 253_402_300_799_999] {
            let record = try Self.record(
                #"{"recordName":"n","recordType":"T","fields":{"d":{"type":"TIMESTAMP","value":\#(milliseconds)}}}"#)
            #expect(try Self.json(record).contains(#""value":\#(milliseconds)"#))
        }
    }

    @Test func listWithMixedElements() {
        let error = malformed(#"{"x":{"value":["a",1]}}"#, "dataCorrupted", at: "fields.x.value.Index 1")
        #expect(error?.context?.debugDescription.contains("one type") == true)
        malformed(#"{"x":{"value":[[1],[2]]}}"#, "dataCorrupted", at: "fields.x.value.Index 0")
        malformed(#"{"x":{"value":[1,null]}}"#, "dataCorrupted", at: "fields.x.value.Index 1")
    }

    @Test func listWithWrongElements() {
        malformed(#"{"x":{"type":"STRING_LIST","value":["a",1]}}"#, "typeMismatch", at: "fields.x.value.Index 1")
        malformed(#"{"x":{"type":"INT64_LIST","value":[1,2.5]}}"#, "dataCorrupted", at: "fields.x.value.Index 1")
        malformed(
            #"{"x":{"type":"REFERENCE_LIST","value":[{"action":"NONE"}]}}"#, "keyNotFound",
            at: "fields.x.value.Index 0.recordName")
    }

    @Test func referenceWithoutRecordName() {
        malformed(
            #"{"x":{"type":"REFERENCE","value":{"action":"NONE"}}}"#, "keyNotFound", at: "fields.x.value.recordName")
        malformed(
            #"{"x":{"type":"REFERENCE","value":{"recordName":7}}}"#, "typeMismatch", at: "fields.x.value.recordName")
        malformed(
            #"{"x":{"type":"REFERENCE","value":{"recordName":"R","zoneID":{}}}}"#, "keyNotFound",
            at: "fields.x.value.zoneID.zoneName")
    }

    @Test func referenceWithUnknownAction() {
        let error = malformed(
            #"{"x":{"type":"REFERENCE","value":{"recordName":"R","action":"CASCADE"}}}"#, "dataCorrupted",
            at: "fields.x.value.action")
        #expect(error?.context?.debugDescription.contains("CASCADE") == true)
    }

    @Test func locationWithoutLongitude() {
        malformed(#"{"x":{"type":"LOCATION","value":{"latitude":1}}}"#, "keyNotFound", at: "fields.x.value.longitude")
        malformed(#"{"x":{"value":{"latitude":1}}}"#, "dataCorrupted", at: "fields.x.value")
        malformed(
            #"{"x":{"type":"LOCATION","value":{"latitude":"north","longitude":1}}}"#, "typeMismatch",
            at: "fields.x.value.latitude")
    }

    @Test func fieldWithoutValue() throws {
        // The server sends an absent field with a null value, or none.
        let record = try Self.record(
            #"{"recordName":"n","fields":{"a":{"type":"STRING"},"b":{"value":null},"c":{"type":"COLOR","value":null}}}"#
        )
        #expect(record.fields.isEmpty)
        malformed(#"{"x":"just text"}"#, "typeMismatch", at: "fields.x")
        malformed(#"{"x":{"value":{"color":"red"}}}"#, "dataCorrupted", at: "fields.x.value")
    }

    @Test func fieldsNotAnObject() {
        malformed(#"["a"]"#, "typeMismatch", at: "fields")
        malformed(#""text""#, "typeMismatch", at: "fields")
    }

    @Test func malformedRecord() {
        expectDecodingError("keyNotFound", at: "recordName") { _ = try Self.record(#"{"recordType":"T"}"#) }
        expectDecodingError("typeMismatch", at: "recordType") {
            _ = try Self.record(#"{"recordName":"n","recordType":1}"#)
        }
        expectDecodingError("typeMismatch", at: "") { _ = try Self.record(#"["not","an","object"]"#) }
        expectDecodingError("keyNotFound", at: "created.timestamp") {
            _ = try Self.record(#"{"recordName":"n","recordType":"T","created":{"userRecordName":"u"}}"#)
        }
        expectDecodingError("typeMismatch", at: "deleted") {
            _ = try Self.record(#"{"recordName":"n","deleted":"yes"}"#)
        }
        expectDecodingError("dataCorrupted", at: "fields.x.value.size") {
            _ = try Self.record(#"{"recordName":"n","fields":{"x":{"type":"ASSETID","value":{"size":-1}}}}"#)
        }
    }

    @Test("Errors inside a response carry the record's place in it")
    func errorPathInsideResponse() throws {
        let page = try JSONDecoder().decode(
            RecordsQueryResponse.self,
            from: Data(
                #"{"records":[{"recordName":"a","recordType":"T"},{"recordName":"b","recordType":"T","fields":{"x":{"type":"STRING","value":1}}}]}"#
                    .utf8))
        let unreadable = try #require(page.records[1].unreadable)
        #expect(unreadable.recordName == "b")
        #expect(unreadable.error.kind == "typeMismatch")
        #expect(unreadable.error.fullPath == "records.Index 1.fields.x.value")
    }

    // MARK: Round trips

    struct Post: Codable, Equatable {
        var id: String
        var title: String
        var views: Int64
        var rating: Double
        var published: Date
        var tags: [String]
        var cover: Data
        var author: RecordReference
        var place: RecordLocation?
        var history: [Date]
        var details: Details

        struct Details: Codable, Equatable {
            var edited: Date
            var words: Int
        }
    }

    @Test("model → record → JSON → record → model, with dates on whole milliseconds")
    func modelRoundTripThroughJSON() throws {
        let post = Post(
            id: "P1", title: "Hello", views: 9_007_199_254_740_993, rating: 4.5,
            published: Date(timeIntervalSince1970: 1_699_920_000.123), tags: ["a", "b"], cover: Data([9, 8]),
            author: RecordReference(recordName: "A1", action: .deleteSelf),
            place: RecordLocation(latitude: 1, longitude: 2, timestamp: Date(timeIntervalSince1970: 5.5)),
            history: [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2.002)],
            details: .init(edited: Date(timeIntervalSince1970: 1_699_920_000.000_123_4), words: 500))
        let record = try RecordEncoder().encode(post)
        let json = try JSONEncoder().encode(record)
        let readBack = try JSONDecoder().decode(Record.self, from: json)
        #expect(readBack == record)
        #expect(try RecordDecoder().decode(Post.self, from: readBack) == post)
    }

    @Test("A date with sub-millisecond precision is rounded on the wire: the one documented loss")
    func subMillisecondDateOnTheWire() throws {
        let record = Record(
            recordType: "T", recordName: "n", fields: ["d": .date(Date(timeIntervalSince1970: 1.000_123_4))])
        let readBack = try Self.record(Self.json(record))
        #expect(readBack["d"] == .date(Date(timeIntervalSince1970: 1)))
    }

    // MARK: Signed zeros, hostile nesting, and what `==` sees

    /// The sign of a double field or list element, which `==` on doubles does not see.
    private func sign(_ value: RecordValue?) -> FloatingPointSign? {
        guard case .double(let number) = value else { return nil }
        return number.sign
    }

    @Test("Minus zero keeps its sign through the wire, alone and in lists of every shape")
    func minusZero() throws {
        let record = Record(
            recordType: "T", recordName: "n",
            fields: [
                "alone": .double(-0.0),
                "wholes": .list([.double(-0.0), .double(0), .double(1)]),
                "fractions": .list([.double(-0.0), .double(1.5)]),
            ])
        let json = try Self.json(record)
        #expect(json.contains(#""alone":{"type":"DOUBLE","value":-0}"#))
        let back = try Self.record(json)
        #expect(sign(back["alone"]) == .minus)
        guard case .list(let wholes)? = back["wholes"], case .list(let fractions)? = back["fractions"] else {
            Issue.record("lists expected, got \(back.fields)")
            return
        }
        #expect(wholes.map(sign) == [.minus, .plus, .plus])
        #expect(fractions.map(sign) == [.minus, .plus])
        #expect(back == record)
    }

    @Test("-0 is the integer zero where an integer is expected, and a DOUBLE without a type")
    func minusZeroWhereAnIntegerIsExpected() throws {
        let record = try Self.record(
            #"{"recordName":"n","recordType":"T","fields":{"i":{"type":"INT64","value":-0},"#
                + #""is":{"type":"INT64_LIST","value":[-0,5]},"t":{"type":"TIMESTAMP","value":-0},"#
                + #""untyped":{"value":-0},"zeros":{"value":[0,-0]}}}"#)
        #expect(record["i"] == .int64(0))
        #expect(record["is"] == .list([.int64(0), .int64(5)]))
        #expect(record["t"] == .date(Date(timeIntervalSince1970: 0)))
        #expect(sign(record["untyped"]) == .minus)
        #expect(record["zeros"] == .list([.double(0), .double(-0.0)]))
    }

    @Test("An integer list keeps every digit of its integers, beside a zero or a number out of range")
    func largeIntegersInLists() throws {
        let record = try Self.record(
            #"{"recordName":"n","recordType":"T","fields":{"x":{"type":"INT64_LIST","value":[0,9007199254740993]}}}"#)
        #expect(record["x"] == .list([.int64(0), .int64(9_007_199_254_740_993)]))
        malformed(
            #"{"x":{"type":"INT64_LIST","value":[9007199254740993,-9223372036854775809]}}"#, "dataCorrupted",
            at: "fields.x.value.Index 1")
        malformed(
            #"{"x":{"type":"INT64_LIST","value":[9007199254740993,2.5]}}"#, "dataCorrupted",
            at: "fields.x.value.Index 1")
        let doubles = try Self.record(
            #"{"recordName":"n","recordType":"T","fields":{"x":{"type":"DOUBLE_LIST","value":[9007199254740993,2.5]}}}"#
        )
        #expect(doubles["x"] == .list([.double(9_007_199_254_740_992), .double(2.5)]))
    }

    @Test("Without a type, integers among fractions are doubles; booleans and strings are not")
    func integersAmongFractions() throws {
        let record = try Self.record(#"{"recordName":"n","recordType":"T","fields":{"x":{"value":[1,2.5,-3]}}}"#)
        #expect(record["x"] == .list([.double(1), .double(2.5), .double(-3)]))
        malformed(#"{"x":{"value":[2.5,true]}}"#, "dataCorrupted", at: "fields.x.value.Index 1")
        malformed(#"{"x":{"value":[2.5,"3"]}}"#, "dataCorrupted", at: "fields.x.value.Index 1")
    }

    /// `body`'s result, and how many JSON values Foundation's route read while it ran; `nil` in a
    /// release build, which does not count.
    static func countingReads<Result>(_ body: () throws -> Result) rethrows -> (result: Result, reads: Int?) {
        let count = WireJSON.ReadCount()
        let result = try WireJSON.$readCount.withValue(count) { try body() }
        #if DEBUG
            return (result, count.values)
        #else
            return (result, nil)
        #endif
    }

    @Test("Arrays of objects nested in one another are read once each, not once per way of reading them")
    func nestedArraysOfObjects() throws {
        // Before, each level read its elements as objects, and again one by one when a later
        // element was not an object: twice the work per level, 2^7 reads of each copy here.
        var nested = "1"
        for _ in 0..<7 { nested = #"[{"a":\#(nested)},1]"# }
        let copies = Array(repeating: nested, count: 50).joined(separator: ",")
        let (record, reads) = try Self.countingReads {
            try Self.record(#"{"recordName":"n","recordType":"T","extra":[\#(copies)],"fields":{}}"#)
        }
        #expect(record == Record(recordType: "T", recordName: "n"))
        // Each copy is an array, an object and a 1 at each of its 7 levels, and the 1 inside.
        #expect(reads == nil || reads == 1 + 50 * (7 * 3 + 1))
        malformed(#"{"x":{"value":[{"a":[{"a":1},1]},1]}}"#, "dataCorrupted", at: "fields.x.value.Index 0")
    }

    @Test("JSON nested deeper than CloudKit's is refused where it goes too deep, at once")
    func nestingBeyondCloudKit() throws {
        var nested = "1"
        for _ in 0..<500 { nested = "[\(nested)]" }
        let (error, reads) = Self.countingReads {
            expectDecodingError("dataCorrupted", at: "extra" + String(repeating: ".Index 0", count: 16)) {
                _ = try Self.record(#"{"recordName":"n","recordType":"T","extra":\#(nested)}"#)
            }
        }
        // The levels down to the one refused, each read once; none of the hundreds below.
        #expect(reads == nil || reads == 17)
        #expect(
            error?.context?.debugDescription
                == "The JSON nests more than 16 levels deep, deeper than CloudKit's records and bodies do.")
        // Inside a response, the levels count from the response's own start.
        expectDecodingError("dataCorrupted", at: "records.Index 0.extra" + String(repeating: ".Index 0", count: 14)) {
            _ = try JSONDecoder().decode(
                RecordsQueryResponse.self,
                from: Data(#"{"records":[{"recordName":"n","recordType":"T","extra":\#(nested)}]}"#.utf8))
        }
        // A record inside other JSON counts from its own start.
        struct Envelope: Decodable { var outer: [[[[[[Record]]]]]] }
        let deepRecord =
            #"{"recordName":"n","fields":{"l":{"type":"REFERENCE_LIST","value":[{"recordName":"r","zoneID":{"zoneName":"z"}}]}}}"#
        let envelope = try JSONDecoder().decode(
            Envelope.self, from: Data(#"{"outer":[[[[[[\#(deepRecord)]]]]]]}"#.utf8))
        #expect(envelope.outer[0][0][0][0][0][0].fields["l"] != nil)
    }

    @Test("A number beyond a Double's range is corrupt at its own place, wherever it is")
    func numberBeyondDouble() {
        let error = malformed(#"{"x":{"type":"DOUBLE","value":1e400}}"#, "dataCorrupted", at: "fields.x.value")
        #expect(error?.context?.debugDescription.hasPrefix("The number is beyond the range of a Double") == true)
        malformed(#"{"x":{"value":[1.5,1e400]}}"#, "dataCorrupted", at: "fields.x.value.Index 1")
        malformed(
            #"{"x":{"type":"LOCATION","value":{"latitude":1e400,"longitude":1}}}"#, "dataCorrupted",
            at: "fields.x.value.latitude")
        expectDecodingError("dataCorrupted", at: "created.timestamp") {
            _ = try Self.record(#"{"recordName":"n","recordType":"T","created":{"timestamp":1e400}}"#)
        }
        expectDecodingError("dataCorrupted", at: "extra.Index 0.a") {
            _ = try Self.record(#"{"recordName":"n","recordType":"T","extra":[{"a":-1e400}]}"#)
        }
    }

    @Test("A string that is not valid Unicode is corrupt at its object, and said to be possibly one")
    func brokenString() {
        let error = malformed(#"{"f":{"type":"STRING","value":"\ud800"}}"#, "dataCorrupted", at: "fields.f")
        let description = error?.context?.debugDescription ?? ""
        #expect(description.hasPrefix("A value in this object cannot be read"), "\(description)")
        #expect(description.contains("not valid Unicode"), "\(description)")
    }

    @Test("A null `fields` is a record without fields, as a missing one is")
    func nullFields() throws {
        #expect(
            try Self.record(#"{"recordName":"n","recordType":"T","fields":null}"#)
                == Record(recordType: "T", recordName: "n"))
    }

    @Test("Empty metadata is no metadata: equal, hashed alike, and equal again after the wire")
    func emptyMetadata() throws {
        let bare = Record(recordType: "N", recordName: "n")
        let empty = Record(recordType: "N", recordName: "n", metadata: RecordMetadata())
        #expect(empty.metadata == RecordMetadata())
        #expect(bare == empty)
        #expect(Set([bare, empty]).count == 1)
        #expect(try Self.record(Self.json(empty)) == empty)
        #expect(empty != Record(recordType: "N", recordName: "n", metadata: RecordMetadata(deleted: true)))
        #expect(empty != Record(recordType: "N", recordName: "n", metadata: RecordMetadata(changeTag: "e")))
    }

    @Test("An asset with a negative size is an encoding error, as reading one is a decoding error")
    func negativeAssetSize() {
        let record = Record(
            recordType: "T", recordName: "n",
            fields: [
                "a": .asset(RecordAsset(fileChecksum: "c", size: -1)), "l": .list([.asset(RecordAsset(size: -2))]),
            ])
        let error = expectEncodingError(at: "fields.a.value.size") {
            _ = try JSONEncoder().encode(Record(recordType: "T", recordName: "n", fields: ["a": record["a"]!]))
        }
        #expect(error?.context?.debugDescription == "An asset's size of -1 bytes is not valid.")
        expectEncodingError(at: "fields.l.value.Index 0.size") {
            _ = try JSONEncoder().encode(Record(recordType: "T", recordName: "n", fields: ["l": record["l"]!]))
        }
    }
}
