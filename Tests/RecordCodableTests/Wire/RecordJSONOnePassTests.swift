import Foundation
import Testing

@testable import RecordCodable

/// A record is written straight, its members in the order of their keys, and a record of common
/// fields in one pass that gives up at anything else and writes the record again with its fields
/// looked at first: the bytes and the first error are the `Codable` path's either way.
@Suite("RecordJSONEncoder: a record in one pass")
struct RecordJSONOnePassTests {
    /// A field of each kind that is not common, which the one pass gives up at.
    static let uncommon: [RecordValue] = [
        .asset(RecordAsset(fileChecksum: "c", size: 3)), .location(RecordLocation(latitude: 1, longitude: 2)),
        .list([]), .list([.asset(RecordAsset(fileChecksum: "c"))]), .double(.nan),
        .date(Date(timeIntervalSince1970: 1e300)), .list([.int64(1), .string("x")]),
    ]

    @Test("A field of another kind, wherever it sorts among common ones, gives the Codable path's bytes or error")
    func givesUpAtAnyPlace() {
        let common: [String: RecordValue] = [
            "b": .string("x/y"), "d": .int64(-7), "f": .list([.string("p"), .string("q")]), "h": .double(0.1),
        ]
        for value in Self.uncommon {
            // First, between two common fields, and last in the order of the names.
            for name in ["a", "c", "z"] {
                var fields = common
                fields[name] = value
                let record = Record(recordType: "T", recordName: "r", fields: fields)
                let plain = Record(recordType: "T", recordName: "p", fields: common)
                expectSameBytes(record, "\(name): \(value)")
                // Taking back what the pass wrote leaves the records before it as they were.
                expectSameBytes([plain, record, plain], "\(name): \(value)")
                expectSameBytes(RecordsModifyRequest(savingRecords: [plain, record, plain]), "\(name): \(value)")
                expectSameBytes(
                    RecordsQueryResponse(records: [.success(plain), .success(record), .success(plain)]),
                    "\(name): \(value)")
            }
        }
    }

    @Test("Of a stamp beyond range and a field that cannot be written, the field's error comes first")
    func stampAndFieldErrors() {
        let farDate = Date(timeIntervalSince1970: 1e300)
        let metadata = RecordMetadata(
            changeTag: "t", created: .init(timestamp: farDate), modified: .init(timestamp: farDate))
        // Common fields alone: the stamp's error.
        let stampOnly = Record(
            recordType: "T", recordName: "r", fields: ["n": .int64(1), "s": .string("s")], metadata: metadata)
        expectSameBytes(stampOnly)
        expectSameBytes(RecordsQueryResponse(records: [.success(stampOnly)]))
        // A field that cannot be written too: its error, found before the stamps.
        for value in [RecordValue.double(.infinity), .date(farDate), .list([.double(1), .double(.nan)])] {
            var both = stampOnly
            both.fields["bad"] = value
            expectSameBytes(both, "\(value)")
            expectSameBytes([stampOnly, both], "\(value)")
        }
        // Saved, a record has no stamps: its fields are written.
        expectSameBytes(RecordOperation(saving: stampOnly))
    }

    @Test("A saved record that cannot be saved is refused as the Codable path refuses it")
    func savedRefusals() {
        let local = RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/not-uploaded.jpg"))
        let records = [
            Record(recordType: "", recordName: "n", fields: ["s": .string("s")]),
            Record(recordType: "", recordName: "n", fields: ["a": .asset(local), "s": .string("s")]),
            Record(recordType: "T", recordName: "n", fields: ["a": .asset(local), "s": .string("s")]),
            Record(recordType: "T", recordName: "n", fields: ["d": .double(.nan), "a": .list([.asset(local)])]),
            Record(recordType: "", recordName: "", fields: ["s": .string("s")]),
        ]
        for (index, record) in records.enumerated() {
            for type in RecordOperation.OperationType.allCases {
                expectSameBytes(RecordOperation(type, record: record), "record \(index), \(type)")
            }
            expectSameBytes(RecordsModifyRequest(savingRecords: [records[0], record]), "record \(index)")
        }
    }

    @Test("Fields written whole: every common kind, under names that need escapes, as JSONEncoder writes them")
    func wholeFields() {
        let names = ["plain", "x/y", "q\"uote", "back\\slash", "é", "😀", "tab\t", "\u{1}", "aaaaaaaa", "aaaaaaaab"]
        let values: [RecordValue] = [
            .string(""), .string("a/b \"c\" \\ \u{0}\u{1F}\n é 😀"), .int64(.min), .int64(.max), .int64(0),
            .double(0.1), .double(-0.0), .double(1e300), .double(5e-324), .double(-2.2250738585072014e-308),
            .double(100), .date(Date(timeIntervalSince1970: -1.5)),
            .date(Date(timeIntervalSince1970: 1_699_920_000.1239)),
            .list([.string("a"), .string("/"), .string("")]), .list([.int64(1), .int64(-1), .int64(.max)]),
            .list([.double(0.5), .double(-1e-7)]), .list([.date(Date(timeIntervalSince1970: 0))]),
            .bytes(Data([0, 0xFF])), .list([.bytes(Data([1]))]),
            .reference(RecordReference(recordName: "r/1", action: .validate)),
            .list([.reference(RecordReference(recordName: "r", zoneID: RecordZoneID(zoneName: "Z")))]),
        ]
        for value in values {
            let fields = Dictionary(uniqueKeysWithValues: names.map { ($0, value) })
            expectSameBytes(Record(recordType: "T", recordName: "r", fields: fields), "\(value)")
        }
    }

    @Test("References are written as WireField builds them: with a zone, an owner, or neither")
    func references() {
        let references = [
            RecordReference(recordName: "a"), RecordReference(recordName: "b", action: .deleteSelf),
            RecordReference(recordName: "c", zoneID: RecordZoneID(zoneName: "Z/1")),
            RecordReference(
                recordName: "d", action: .validate, zoneID: RecordZoneID(zoneName: "Z", ownerRecordName: "_o")),
        ]
        for reference in references {
            var record = Record(
                recordType: "T", recordName: "r",
                fields: ["ref": .reference(reference), "refs": .list([.reference(reference), .reference(reference)])],
                metadata: RecordMetadata(share: reference))
            record.parent = reference
            expectSameBytes(record, "\(reference)")
            expectSameBytes(RecordOperation(saving: record), "\(reference)")
        }
    }

    @Test("Many fields are sorted as JSONEncoder sorts them, names alike for eight bytes included")
    func manyFields() {
        var random = RandomSource(seed: 0x0A55_2026)
        for count in [0, 1, 2, 23, 24, 25, 26, 200] {
            var fields: [String: RecordValue] = [:]
            while fields.count < count {
                // Shared beginnings, so that many names tie on their first eight bytes.
                let name = ["aaaaaaaa", "aaaaaaa", "é", "Z", ""][random.int(in: 0...4)] + random.string()
                fields[name] = random.bool() ? .int64(Int64(fields.count)) : .string(name)
            }
            expectSameBytes(Record(recordType: "T", recordName: "r", fields: fields), "\(count) fields")
        }
    }
}
