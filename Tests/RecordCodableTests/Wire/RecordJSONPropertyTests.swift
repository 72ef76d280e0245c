import Foundation
import Testing

@testable import RecordCodable

/// Seeded random records, bodies and mutated JSON: the fast path and the `Codable` path write the
/// same bytes and read the same values, or fail with the same error at the same path.
///
/// A failure names its seed and iteration; `RandomSource(seed:)` with that seed replays it.
@Suite("RecordJSONEncoder and RecordJSONDecoder: properties")
struct RecordJSONPropertyTests {
    static let seed: UInt64 = 0xFA57_2026

    @Test("Random models' records write the same bytes and read back the same records on both paths")
    func randomModels() throws {
        var random = RandomSource(seed: Self.seed)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        for iteration in 0..<600 {
            let record = try encoder.encode(Everything.random(using: &random, forWire: true))
            expectSameBytes(record, "seed \(Self.seed), iteration \(iteration)")
            let bytes = try RecordJSONEncoder().encode(record)
            #expect(expectSameOutcome(Record.self, from: bytes) == .value(record), "iteration \(iteration)")
        }
    }

    @Test("Random records of any values: the same bytes, or the same error at the same path")
    func randomRecords() throws {
        var random = RandomSource(seed: Self.seed &+ 1)
        var failures = 0
        for iteration in 0..<1_500 {
            var record = Record.random(using: &random)
            if random.bool() {
                record.encryptedFields = Set(record.fields.keys.sorted().filter { _ in random.bool() })
            }
            if random.int(in: 0...3) == 0 {
                // Its dates may be beyond what the wire carries, as a field's may be.
                let created = random.bool() ? random.date(wholeMilliseconds: true) : Date(timeIntervalSince1970: 1e300)
                record.metadata = RecordMetadata(
                    changeTag: random.string(), created: .init(timestamp: created),
                    zoneID: random.maybe { RecordZoneID(zoneName: $0.string()) }, deleted: random.bool())
            }
            let comment = "seed \(Self.seed &+ 1), iteration \(iteration)"
            let sorted = JSONEncoder()
            sorted.outputFormatting = .sortedKeys
            switch (Result { try RecordJSONEncoder().encode(record) }, Result { try sorted.encode(record) }) {
            case (.success(let fast), .success(let codable)):
                #expect(fast == codable, "\(comment)")
                expectSameOutcome(Record.self, from: fast, comment)
            case (.failure(let fastError as EncodingError), .failure(let codableError as EncodingError)):
                failures += 1
                #expect(
                    fastError.path == codableError.path
                        && fastError.context?.debugDescription == codableError.context?.debugDescription,
                    "\(comment): \(fastError) / \(codableError)")
            case (let fast, let codable):
                Issue.record("\(comment): fast \(fast), Codable \(codable)")
            }
        }
        #expect(failures > 50)
    }

    @Test("Random bodies of faulty and mixed records: the same bytes, or the same first error at its path")
    func randomFaultyBodies() {
        var random = RandomSource(seed: Self.seed &+ 4)
        // Names that sort alike for eight bytes, or by bytes rather than by `String`'s order.
        let names = [
            "a", "aaaaaaaa", "aaaaaaaab", "aaaaaaa", "aaaaaaaa\u{0}", "é", "e\u{301}", "x/y", "Ω", "\u{2126}", "😀",
            "Z", "_", "type", "value",
        ]
        var failures = 0
        for iteration in 0..<300 {
            let records = (0..<random.int(in: 0...3)).map { _ in
                var record = Record.random(using: &random)
                record.recordType = random.int(in: 0...8) == 0 ? "" : "T"
                for _ in 0..<random.int(in: 0...3) {
                    record.fields[names[random.int(in: 0...(names.count - 1))]] =
                        random.bool() ? .list([]) : .random(using: &random)
                }
                let named = Array(record.fields.keys) + ["Ω"]
                record.encryptedFields = Set(named.filter { _ in random.int(in: 0...3) == 0 })
                if random.int(in: 0...2) == 0 { record.clearedFields = ["cleared", names[random.int(in: 0...3)]] }
                if random.bool() { record.fieldTypeHints = ["cleared": "INT64_LIST", "aaaaaaaa": "TIMESTAMP_LIST"] }
                return record
            }
            let operations = records.map { record in
                RecordOperation(
                    RecordOperation.OperationType.allCases[random.int(in: 0...6)], record: record,
                    desiredKeys: random.maybe { $0.array { $0.string() } })
            }
            let comment = "seed \(Self.seed &+ 4), iteration \(iteration)"
            let request = RecordsModifyRequest(operations: operations, atomic: random.maybe { $0.bool() })
            expectSameBytes(request, comment)
            expectSameBytes(operations, comment)
            expectSameBytes(RecordsQueryResponse(records: records.map(RecordResult.success)), comment)
            expectSameBytes(records, comment)
            if (try? RecordJSONEncoder().encode(request)) == nil { failures += 1 }
        }
        // Many bodies hold a fault, so that which one is reported first is tested.
        #expect(failures > 60)
    }

    @Test("Mutations of record JSON read the same on both paths")
    func mutatedRecordJSON() throws {
        var random = RandomSource(seed: Self.seed &+ 2)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        let snippets = [
            #"{"type":"INT64","value":1.5}"#, #","#, #"]"#, #"}"#, #""\u"#, #"1e999"#, #"-0"#, #"null"#, #"[[[[[[[["#,
            #""fields":{"#, #"{"value":[1,2.5]}"#, "\u{FF}", #""recordName":"x","#, #" "#, #"\"#, "\u{0}",
        ]
        var values = 0
        for iteration in 0..<1_500 {
            let record = try encoder.encode(Everything.random(using: &random, forWire: true))
            var json = Array(try RecordJSONEncoder().encode(record))
            for _ in 0...random.int(in: 0...3) where !json.isEmpty {
                let index = random.int(in: 0...(json.count - 1))
                switch random.int(in: 0...4) {
                case 0: json[index] = random.byte()
                case 1: json.remove(at: index)
                case 2:
                    json.insert(contentsOf: Array(snippets[random.int(in: 0...(snippets.count - 1))].utf8), at: index)
                case 3: json = Array(json[..<index])
                default: json.insert(json[index], at: index)
                }
            }
            let data = Data(json)
            let comment = "seed \(Self.seed &+ 2), iteration \(iteration)"
            if expectSameOutcome(Record.self, from: data, comment).isValue { values += 1 }
            let page = Data(#"{"records":[{"recordName":"first"},"#.utf8) + data + Data("]}".utf8)
            expectSameOutcome(RecordsQueryResponse.self, from: page, comment)
        }
        // Both ways out are taken: many mutations still read, many do not.
        #expect(values > 100 && values < 1_400)
    }

    @Test("Random bodies write the same bytes and read the same values on both paths")
    func randomBodies() throws {
        var random = RandomSource(seed: Self.seed &+ 3)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        for iteration in 0..<300 {
            let comment = "seed \(Self.seed &+ 3), iteration \(iteration)"
            var records: [Record] = []
            for _ in 0..<random.int(in: 0...4) {
                records.append(try encoder.encode(Everything.random(using: &random, forWire: true)))
            }
            let operations = records.map { record in
                let type = RecordOperation.OperationType.allCases[random.int(in: 0...6)]
                // Now and then a record without a change tag, which every operation writes as it is.
                var record = record
                if record.metadata?.changeTag == nil, random.int(in: 0...7) != 0 {
                    var metadata = record.metadata ?? RecordMetadata()
                    metadata.changeTag = random.string()
                    record.metadata = metadata
                }
                return RecordOperation(type, record: record, desiredKeys: random.maybe { $0.array { $0.string() } })
            }
            let request = RecordsModifyRequest(operations: operations, atomic: random.maybe { $0.bool() })
            let results: [RecordResult] = records.map { record in
                random.int(in: 0...3) == 0
                    ? .failure(
                        RecordServerError(
                            recordName: record.recordName, reason: random.string(), serverErrorCode: .conflict))
                    : .success(record)
            }
            expectSameBytes(request, comment)
            expectSameBytes(
                RecordsQueryResponse(records: results, continuationMarker: random.maybe { $0.string() }), comment)
            expectSameBytes(RecordsModifyResponse(records: results), comment)
            if let written = try? RecordJSONEncoder().encode(request) {
                expectSameOutcome(RecordsModifyRequest.self, from: written, comment)
            }
            let page = try RecordJSONEncoder().encode(RecordsLookupResponse(records: results))
            #expect(
                expectSameOutcome(RecordsLookupResponse.self, from: page, comment)
                    == .value(RecordsLookupResponse(records: results)))
            expectSameOutcome([Record].self, from: try RecordJSONEncoder().encode(records), comment)
        }
    }
}
