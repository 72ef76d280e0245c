import Foundation
import Testing

@testable import RecordCodable

/// The output formattings `RecordJSONEncoder` is held to, each beside the `JSONEncoder` options
/// that write the same bytes.
let fastJSONFormattings: [(fast: JSONEncoder.OutputFormatting, foundation: JSONEncoder.OutputFormatting)] = [
    ([], [.sortedKeys]),
    ([.sortedKeys], [.sortedKeys]),
    ([.prettyPrinted], [.prettyPrinted, .sortedKeys]),
    ([.withoutEscapingSlashes], [.withoutEscapingSlashes, .sortedKeys]),
    ([.prettyPrinted, .withoutEscapingSlashes, .sortedKeys], [.prettyPrinted, .withoutEscapingSlashes, .sortedKeys]),
]

/// Encodes `value` with `RecordJSONEncoder` and with `JSONEncoder` in every formatting, and
/// expects the same bytes, or an `EncodingError` from both at the same path.
func expectSameBytes<T: Encodable>(
    _ value: T, _ comment: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    for formatting in fastJSONFormattings {
        var fast = RecordJSONEncoder()
        fast.outputFormatting = formatting.fast
        let foundation = JSONEncoder()
        foundation.outputFormatting = formatting.foundation
        let fastResult = Result { try fast.encode(value) }
        let foundationResult = Result { try foundation.encode(value) }
        switch (fastResult, foundationResult) {
        case (.success(let fastBytes), .success(let foundationBytes)):
            let fastText = String(decoding: fastBytes, as: UTF8.self)
            let foundationText = String(decoding: foundationBytes, as: UTF8.self)
            #expect(
                fastBytes == foundationBytes,
                "\(comment()) \(formatting.fast)\n fast: \(fastText)\n JSONEncoder: \(foundationText)",
                sourceLocation: sourceLocation)
        case (.failure(let fastError as EncodingError), .failure(let foundationError as EncodingError)):
            #expect(
                fastError.path == foundationError.path
                    && fastError.context?.debugDescription == foundationError.context?.debugDescription,
                "\(comment()) fast: \(fastError)\n JSONEncoder: \(foundationError)", sourceLocation: sourceLocation)
        default:
            Issue.record(
                "\(comment()) fast: \(fastResult)\n JSONEncoder: \(foundationResult)", sourceLocation: sourceLocation)
        }
    }
}

/// `RecordJSONEncoder` writes the bytes `JSONEncoder` writes with sorted keys, rule by rule:
/// escapes, numbers, key order, layout, and the errors.
@Suite("RecordJSONEncoder")
struct RecordJSONEncoderTests {
    /// A record with one string field holding `text`, and the same text as its name and type.
    static func record(text: String) -> Record {
        Record(recordType: text, recordName: text, fields: ["f": .string(text), "g": .list([.string(text)])])
    }

    @Test("Every ASCII character is escaped as JSONEncoder escapes it, slashes as the options say")
    func asciiEscapes() {
        let ascii = String(decoding: (0..<128).map(UInt8.init), as: UTF8.self)
        expectSameBytes(Self.record(text: ascii))
        for byte in 0..<128 {
            expectSameBytes(Self.record(text: "a" + String(UnicodeScalar(UInt8(byte))) + "b"), "byte \(byte)")
        }
    }

    @Test(
        "Characters beyond ASCII are written as they are",
        arguments: ["é", "日本", "👋🏽", "\u{2028}\u{2029}", "\u{FEFF}", "\u{FFFF}", "e\u{301}", "\u{10FFFF}"])
    func unicode(_ text: String) {
        expectSameBytes(Self.record(text: text))
        expectSameBytes(Self.record(text: String(repeating: text + "/\"", count: 20)))
    }

    @Test("Strings of every length find their escapes, wherever they fall in eight bytes")
    func escapePositions() {
        for length in 0..<40 {
            for position in 0..<max(length, 1) {
                var scalars = Array(repeating: UnicodeScalar("x"), count: length)
                if position < length { scalars[position] = "/" }
                expectSameBytes(Self.record(text: String(String.UnicodeScalarView(scalars))))
            }
        }
    }

    @Test(
        "Doubles are written as JSONEncoder writes them",
        arguments: [
            0.0, -0.0, 1, -1, 0.5, 4.75, 0.1, 0.30000000000000004, 100, 1e15, 1e16, 1e21, 1e22, 1e23, 1e300,
            1e-5, 0.0001, 2.5e-7, 123_456_789_012_345_680, 9_007_199_254_740_992, 9_007_199_254_740_994,
            -9_007_199_254_740_991,
            Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.leastNormalMagnitude,
            Double.leastNonzeroMagnitude, 0x1p63, -0x1p63, 0x1p53, 0x1p53 - 1, 1.5e16, 12345.678,
        ])
    func doubles(_ number: Double) {
        expectSameBytes(Record(recordType: "T", recordName: "n", fields: ["d": .double(number)]))
        expectSameBytes(
            Record(
                recordType: "T", recordName: "n",
                fields: [
                    "l": .list([.double(number), .double(-number)]),
                    "p": .location(.init(latitude: number, longitude: 0)),
                ]))
    }

    @Test("Random doubles, integers and dates are written as JSONEncoder writes them")
    func randomNumbers() {
        var random = RandomSource(seed: 0xD0_0B1E)
        for _ in 0..<2_000 {
            let fields: [String: RecordValue] = [
                "d": .double(random.double(finite: true)),
                "i": .int64(random.integer(Int64.self)),
                "t": .date(random.date(wholeMilliseconds: random.bool())),
                "x": .double(Double(random.integer(Int64.self))),
            ]
            expectSameBytes(Record(recordType: "T", recordName: "n", fields: fields))
        }
    }

    @Test("Integers at their limits", arguments: [Int64.min, Int64.min + 1, -1, 0, 1, 9, 10, 99, 100, Int64.max])
    func integers(_ number: Int64) {
        expectSameBytes(Record(recordType: "T", recordName: "n", fields: ["i": .int64(number)]))
    }

    @Test("Keys are in the order of their UTF-8 bytes, as JSONEncoder sorts them")
    func keyOrder() {
        let names = [
            "a", "A", "Z", "_", "a0", "ab", "abcdefgh", "abcdefgi", "abcdefghij", "abcdefghi", "b", "é", "f", "日本", "👋",
            "\u{212A}", "Å", "z\u{0}", "z", "recordName", "recordType",
        ]
        let fields = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, RecordValue.int64(Int64($0))) })
        expectSameBytes(Record(recordType: "T", recordName: "n", fields: fields))
        // Keys that Swift's String holds equal, spelled either way, sort by the spelling kept.
        for spellings in [["e\u{301}", "f", "e"], ["K", "J", "L"], ["\u{212B}", "\u{C5}\u{0}", "\u{C4}"]] {
            let fields = Dictionary(uniqueKeysWithValues: spellings.map { ($0, RecordValue.string($0)) })
            expectSameBytes(Record(recordType: "T", recordName: "n", fields: fields))
        }
    }

    @Test("Every kind of field, metadata, parent and encryption, as JSONEncoder writes them")
    func everyKind() {
        var record = Record(
            recordType: "Note", recordName: "N1",
            fields: [
                "string": .string("s"), "int": .int64(3), "double": .double(0.5),
                "bytes": .bytes(Data([0, 1, 0xFF, 0xFE])),
                "date": .date(Date(timeIntervalSince1970: 1_699_920_000.123)),
                "reference": .reference(
                    RecordReference(
                        recordName: "R", action: .deleteSelf, zoneID: RecordZoneID(zoneName: "Z", ownerRecordName: "_o")
                    )),
                "location": .location(
                    RecordLocation(
                        latitude: 1, longitude: 2, altitude: 3, horizontalAccuracy: 4, verticalAccuracy: 5, speed: 6,
                        course: 7, timestamp: Date(timeIntervalSince1970: 8))),
                "asset": .asset(
                    RecordAsset(
                        fileChecksum: "c", size: 10, referenceChecksum: "r", wrappingKey: "w", receipt: "x",
                        downloadURL: "https://a/${f}")),
                "emptyList": .list([]), "dates": .list([.date(Date(timeIntervalSince1970: 1))]),
                "references": .list([.reference(RecordReference(recordName: "a"))]),
                "assets": .list([.asset(RecordAsset(fileChecksum: "c"))]),
                "locations": .list([.location(RecordLocation(latitude: 0, longitude: 0))]),
                "secret": .string("hidden"), "secretList": .list([.int64(1)]),
            ],
            metadata: RecordMetadata(
                changeTag: "e", created: .init(timestamp: Date(timeIntervalSince1970: 1), userRecordName: "_u"),
                modified: .init(timestamp: Date(timeIntervalSince1970: 2), deviceID: "d"),
                zoneID: RecordZoneID(zoneName: "Z"), deleted: true))
        record.encryptedFields = ["secret", "secretList"]
        record.parent = RecordReference(recordName: "P")
        expectSameBytes(record)
        expectSameBytes([record, Record(recordType: "T", recordName: "n")])
        expectSameBytes([Record]())
        expectSameBytes(Record(recordType: "", recordName: ""))
        expectSameBytes(RecordOperation(saving: record))
        expectSameBytes(RecordsModifyRequest(savingRecords: [record], atomic: true))
        expectSameBytes(
            RecordsQueryResponse(
                records: [.success(record), .failure(RecordServerError(recordName: "x", serverErrorCode: .notFound))],
                continuationMarker: "m"))
    }

    @Test("Values CloudKit's JSON cannot carry are the same EncodingError at the same path")
    func errors() {
        let bad: [RecordValue] = [
            .double(.nan), .double(.infinity), .double(-.infinity), .date(Date(timeIntervalSince1970: 1e300)),
            .list([.int64(1), .string("x")]), .list([.list([])]), .list([.double(1), .double(.nan)]),
            .location(RecordLocation(latitude: .nan, longitude: 0)), .asset(RecordAsset(size: -1)),
        ]
        for value in bad {
            let record = Record(recordType: "T", recordName: "n", fields: ["bad": value, "good": .int64(1)])
            expectSameBytes(record, "\(value)")
        }
        var encrypted = Record(
            recordType: "T", recordName: "n", fields: ["r": .reference(RecordReference(recordName: "x"))])
        encrypted.encryptedFields = ["r"]
        expectSameBytes(encrypted)
        expectSameBytes([Record(recordType: "T", recordName: "n", fields: ["d": .double(.nan)])])
        expectSameBytes(RecordOperation(.create, record: Record(recordType: "", recordName: "n")))
    }

    @Test("A body's records are written as a record alone is: the same bytes, or the same first error")
    func recordsInBodies() {
        let good = Record(
            recordType: "T", recordName: "a",
            fields: ["s": .string("x/y"), "n": .int64(1), "list": .list([.string("p"), .string("q")])])
        var cleared = Record(recordType: "T", recordName: "b", fields: ["n": .int64(2)])
        cleared.clearedFields = ["gone"]
        var encrypted = Record(recordType: "T", recordName: "c", fields: ["n": .int64(3), "secret": .string("s")])
        encrypted.encryptedFields = ["secret"]
        let mixed = Record(
            recordType: "T", recordName: "d",
            fields: ["n": .int64(4), "empty": .list([]), "place": .location(RecordLocation(latitude: 1, longitude: 2))])
        let records = [good, cleared, encrypted, mixed, Record(recordType: "T", recordName: "e")]
        expectSameBytes(RecordsModifyRequest(savingRecords: records))
        expectSameBytes(RecordsQueryResponse(records: records.map(RecordResult.success)))
        expectSameBytes(records.map { RecordOperation(saving: $0) })

        // Of two faults, the one the Codable path meets first is reported: in the first record
        // that has one, in the order of its dictionary.
        let bad: [RecordValue] = [
            .double(.nan), .date(Date(timeIntervalSince1970: 1e300)), .list([.int64(1), .string("x")]),
            .location(RecordLocation(latitude: .nan, longitude: 0)),
        ]
        for value in bad {
            let faulty = Record(recordType: "T", recordName: "f", fields: ["bad": value, "good": .int64(1)])
            let typeless = Record(recordType: "", recordName: "g", fields: ["bad": value])
            expectSameBytes(RecordsModifyRequest(savingRecords: [good, faulty, typeless]), "\(value)")
            expectSameBytes(RecordsModifyRequest(savingRecords: [good, typeless, faulty]), "\(value)")
            expectSameBytes(RecordsQueryResponse(records: [.success(good), .success(faulty)]), "\(value)")
        }
    }

    @Test("A save request is written operation by operation: every optional key, each refusal, at its path")
    func saveRequestWrittenStraight() {
        let fetched = Record(
            recordType: "T", recordName: "a", fields: ["n": .int64(1), "s": .string("x")],
            metadata: RecordMetadata(changeTag: "t", zoneID: RecordZoneID(zoneName: "Z", ownerRecordName: "_o")))
        let created = Record(recordType: "T", recordName: "", fields: ["n": .int64(2)])
        var partial = fetched
        partial.unreadFields = ["gone"]
        let operations = [
            RecordOperation(saving: fetched), RecordOperation(.create, record: created, desiredKeys: ["n", "a/b"]),
            RecordOperation(deleting: "d", changeTag: "t"), RecordOperation(deleting: "e"),
        ]
        for atomic in [nil, true, false] {
            for desiredKeys in [nil, [], ["n", "é"]] as [[String]?] {
                expectSameBytes(RecordsModifyRequest(operations: operations, atomic: atomic, desiredKeys: desiredKeys))
                expectSameBytes(RecordsModifyRequest(operations: [], atomic: atomic, desiredKeys: desiredKeys))
            }
        }
        expectSameBytes(RecordsModifyRequest(operations: operations, zoneID: RecordZoneID(zoneName: "Y")))
        // Each refusal, also after a good operation and before another zone's record: the first
        // operation's refusal comes before the mixed zones.
        let elsewhere = Record(
            recordType: "T", recordName: "b", metadata: RecordMetadata(zoneID: RecordZoneID(zoneName: "W")))
        let refused = [
            RecordOperation(.update, record: created), RecordOperation(.replace, record: partial),
            RecordOperation(.create, record: Record(recordType: "", recordName: "n")),
            RecordOperation(saving: Record(recordType: "T", recordName: "n", fields: ["d": .double(.nan)])),
        ]
        for operation in refused {
            expectSameBytes(RecordsModifyRequest(operations: [RecordOperation(saving: fetched), operation]))
            expectSameBytes(
                RecordsModifyRequest(operations: [RecordOperation(saving: elsewhere), operation, operations[0]]))
        }
        expectSameBytes(RecordsModifyRequest(savingRecords: [fetched, elsewhere]))
        let error = #expect(throws: EncodingError.self) {
            try RecordJSONEncoder().encode(RecordsModifyRequest(operations: [operations[0], refused[0]]))
        }
        #expect(error?.path == "operations.Index 1.record.recordName")
    }

    @Test("Cleared fields are written among the others in the order of their UTF-8 bytes")
    func clearedFieldsInByteOrder() {
        // `String`'s order, which compares canonical forms, puts these otherwise: "e" + U+0301
        // equals "é", and OHM SIGN equals OMEGA.
        var record = Record(
            recordType: "T", recordName: "n", fields: ["f": .int64(1), "zz": .string("z"), "Ωy": .int64(2)])
        record.clearedFields = ["e\u{301}", "\u{2126}x", "\u{2126}z"]
        expectSameBytes(record)
        expectSameBytes(RecordsModifyRequest(savingRecords: [record]))
        record.encryptedFields = ["zz", "\u{2126}x"]
        expectSameBytes(record)
    }

    @Test("An encrypted field whose type is a reference or an asset is refused, also empty or cleared")
    func unencryptableHintedFields() {
        var empty = Record(recordType: "T", recordName: "n", fields: ["e": .list([])])
        empty.fieldTypeHints = ["e": "REFERENCE_LIST"]
        empty.encryptedFields = ["e"]
        var cleared = Record(recordType: "T", recordName: "n", fields: ["s": .string("x")])
        cleared.clearedFields = ["c"]
        cleared.fieldTypeHints = ["c": "ASSETID"]
        cleared.encryptedFields = ["c", "s"]
        for record in [empty, cleared] {
            expectSameBytes(record)
            expectSameBytes(RecordsModifyRequest(savingRecords: [record]))
        }
        let emptyError = #expect(throws: EncodingError.self) { try RecordJSONEncoder().encode(empty) }
        #expect(emptyError?.path == "fields.e")
        let clearedError = #expect(throws: EncodingError.self) { try RecordJSONEncoder().encode(cleared) }
        #expect(clearedError?.path == "fields.c")
        #expect(clearedError?.context?.debugDescription.contains("encrypts neither assets") == true)
        // A type that CloudKit encrypts is written encrypted, cleared or empty.
        empty.fieldTypeHints = ["e": "INT64_LIST"]
        cleared.fieldTypeHints = ["c": "STRING"]
        for record in [empty, cleared] {
            expectSameBytes(record)
            #expect((try? JSONDecoder().decode(Record.self, from: RecordJSONEncoder().encode(record))) == record)
        }
    }

    @Test("A record's tree with its common fields left as values stands for the same JSON everywhere")
    func deferredFieldsTree() throws {
        var record = Record(
            recordType: "T", recordName: "a",
            fields: [
                "s": .string("x"), "n": .int64(1), "d": .date(Date(timeIntervalSince1970: 2)),
                "r": .reference(RecordReference(recordName: "b")), "empty": .list([]), "secret": .string("s"),
            ])
        record.encryptedFields = ["secret"]
        for record in [record, Record(recordType: "T", recordName: "b", fields: ["n": .int64(1)])] {
            let plain = try WireRecord.object(for: record, at: [], as: .stored, defersCommonFields: false)
            let deferred = try WireRecord.object(for: record, at: [], as: .stored, defersCommonFields: true)
            let fields: WireRecord.DeferredFields
            switch deferred["fields"] {
            case .recordFields(let deferredFields)?: fields = deferredFields
            case .commonFields(let values)?: fields = WireRecord.DeferredFields(values: values)
            default:
                Issue.record("the common fields are not left as values")
                continue
            }
            // Only the empty list, which its hint types, is built; the encrypted string is
            // written straight, with its marker.
            #expect(fields.values == record.fields)
            #expect(fields.built.keys.sorted() == (record.fields["empty"] == nil ? [] : ["empty"]))
            #expect(fields.isEncrypted("secret") == record.encryptedFields.contains("secret"))
            #expect(WireJSON.object(deferred) != WireJSON.object(plain))
            // Through Foundation's encoder, as any JSON and as a document's members.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            #expect(try encoder.encode(WireJSON.object(deferred)) == encoder.encode(WireJSON.object(plain)))
            #expect(
                try encoder.encode(deferred.mapValues(WireDocumentMember.init))
                    == encoder.encode(plain.mapValues(WireDocumentMember.init)))
            // Read back through a reader of the tree.
            #expect(try WireRecord.record(from: WireReader(.object(deferred), path: [])) == record)
        }
    }

    @Test("An array of wire values is written element by element, an error at its element's index")
    func arraysOfWireValues() throws {
        let zones = [
            RecordZone(zoneID: RecordZoneID(zoneName: "Notes"), syncToken: "t/1", atomic: true),
            RecordZone(zoneID: RecordZoneID(zoneName: "Photos", ownerRecordName: "_owner")),
        ]
        expectSameBytes(zones)
        expectSameBytes([RecordZone]())
        let operations = [
            RecordOperation(saving: Record(recordType: "Note", recordName: "a", fields: ["n": .int64(1)])),
            RecordOperation(deleting: "b", recordType: "Note", changeTag: "t2"),
        ]
        expectSameBytes(operations)
        // Read back, they write the same bytes (a delete carries no record type, so it reads none).
        let bytes = try RecordJSONEncoder().encode(operations)
        let read = try RecordJSONDecoder().decode([RecordOperation].self, from: bytes)
        #expect(read.map(\.operationType) == [.create, .delete])
        #expect(try RecordJSONEncoder().encode(read) == bytes)
        // The second operation's record cannot be written: the error names its index.
        let bad = [operations[0], RecordOperation(.create, record: Record(recordType: "", recordName: "c"))]
        expectSameBytes(bad)
        #expect(throws: EncodingError.self) { try RecordJSONEncoder().encode(bad) }
    }

    @Test("A type that is not a wire type is written by JSONEncoder, with sorted keys")
    func otherTypes() throws {
        struct Holder: Codable {
            var zebra = 1
            var apple = Record(recordType: "T", recordName: "n", fields: ["f": .string("a/b")])
        }
        expectSameBytes(Holder())
        expectSameBytes(["b": 1, "a": 2])
        expectSameBytes(Optional(Record(recordType: "T", recordName: "n")))
    }

    @Test("A field of each common kind starts with its type as one piece of text, as it is spelled")
    func compactFieldStarts() throws {
        let reference = RecordReference(recordName: "r")
        let values: [RecordValue] = [
            .string("s"), .int64(1), .double(0.5), .bytes(Data([1])), .date(Date(timeIntervalSince1970: 1)),
            .reference(reference), .list([.string("s")]), .list([.int64(1)]), .list([.double(0.5)]),
            .list([.bytes(Data([1]))]), .list([.date(Date(timeIntervalSince1970: 1))]), .list([.reference(reference)]),
        ]
        for value in values {
            let start = try #require(JSONBytesWriter.compactFieldStart(of: value), "\(value)")
            #expect("\(start)" == #":{"type":""# + value.typeName + #"","value":"#)
            expectSameBytes(Record(recordType: "T", recordName: "n", fields: ["f": value]), "\(value)")
        }
        let location = RecordLocation(latitude: 1, longitude: 2)
        #expect(JSONBytesWriter.compactFieldStart(of: .location(location)) == nil)
        #expect(JSONBytesWriter.compactFieldStart(of: .list([])) == nil)
        #expect(JSONBytesWriter.compactFieldStart(of: .list([.location(location)])) == nil)
    }

    @Test("A large page writes in proportion to its size, byte for byte")
    func largePage() throws {
        let records = (0..<2_000).map { index in
            RecordResult.success(
                Record(
                    recordType: "Post", recordName: "post-\(index)",
                    fields: [
                        "title": .string("Title \(index)"), "views": .int64(Int64(index)),
                        "score": .double(Double(index) / 7),
                    ]))
        }
        expectSameBytes(RecordsQueryResponse(records: records))
    }
}
