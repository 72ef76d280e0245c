import CodableFloor
import Foundation
import RecordCodable

// The whole server path: a model to the CloudKit Web Services JSON a server sends, and that JSON
// back to the model. Three ways each: through RecordJSONEncoder / RecordJSONDecoder (the fast
// path), through JSONEncoder / JSONDecoder on the record (the Codable path), and Foundation's JSON
// coders on the plain model, which is what the other two are measured against.

/// The contenders of the server path for one model, after checking that every way gives the same
/// model back and that both wire paths write the same bytes.
func serverPath<Model: Codable & Equatable>(_ model: Model) throws -> (write: [Contender], read: [Contender]) {
    let recordEncoder = RecordEncoder()
    let recordDecoder = RecordDecoder()
    let fastEncoder = RecordJSONEncoder()
    let fastDecoder = RecordJSONDecoder()
    let jsonEncoder = JSONEncoder()
    let sortedEncoder = JSONEncoder()
    sortedEncoder.outputFormatting = .sortedKeys
    let jsonDecoder = JSONDecoder()

    let record = try recordEncoder.encode(model)
    let wire = try fastEncoder.encode(record)
    guard wire == (try sortedEncoder.encode(record)) else {
        throw Failure(description: "RecordJSONEncoder wrote other bytes than JSONEncoder with .sortedKeys")
    }
    guard try recordDecoder.decode(Model.self, from: fastDecoder.decode(Record.self, from: wire)) == model,
        try recordDecoder.decode(Model.self, from: jsonDecoder.decode(Record.self, from: wire)) == model
    else {
        throw Failure(description: "a model read back from its CloudKit JSON differs from the original")
    }
    let plain = try jsonEncoder.encode(model)
    let minimal = try jsonDecoder.decode(MinimalRecordJSON.self, from: wire).record
    guard try recordDecoder.decode(Model.self, from: minimal) == model else {
        throw Failure(description: "the minimal reader read the model's CloudKit JSON to another model")
    }

    return (
        write: [
            Contender(name: "RecordEncoder + RecordJSONEncoder") {
                consume(try fastEncoder.encode(try recordEncoder.encode(model)))
            },
            Contender(name: "RecordEncoder + JSONEncoder") {
                consume(try jsonEncoder.encode(try recordEncoder.encode(model)))
            },
            Contender(name: "JSONEncoder, plain model") { consume(try jsonEncoder.encode(model)) },
        ],
        read: [
            Contender(name: "RecordJSONDecoder + RecordDecoder") {
                consume(try recordDecoder.decode(Model.self, from: try fastDecoder.decode(Record.self, from: wire)))
            },
            Contender(name: "JSONDecoder + RecordDecoder") {
                consume(try recordDecoder.decode(Model.self, from: try jsonDecoder.decode(Record.self, from: wire)))
            },
            Contender(name: "JSONDecoder, plain model") { consume(try jsonDecoder.decode(Model.self, from: plain)) },
            Contender(name: "JSONDecoder, minimal reader + RecordDecoder") {
                consume(
                    try recordDecoder.decode(
                        Model.self, from: try jsonDecoder.decode(MinimalRecordJSON.self, from: wire).record))
            },
        ]
    )
}

/// A query response of `count` records of the flat model, as CloudKit JSON. When `unreadable`,
/// each record's reference field has a type the package does not know, as a newer server might
/// send: every record is then reported unreadable, at its own path.
func queryPage(records count: Int, unreadable: Bool = false) throws -> Data {
    let encoder = RecordEncoder()
    let records = try (0..<count).map { index in
        var post = FlatPost.sample
        post.id = "post-\(index)"
        post.views = index
        return RecordResult.success(try encoder.encode(post))
    }
    let body = try RecordJSONEncoder().encode(RecordsQueryResponse(records: records))
    guard unreadable else { return body }
    let text = String(decoding: body, as: UTF8.self)
    return Data(text.replacingOccurrences(of: #""type":"REFERENCE""#, with: #""type":"FUTURE_KIND""#).utf8)
}

/// A query page of `count` flat records read by `RecordJSONDecoder`, one such record read alone,
/// and the same two for `JSONDecoder` on the plain models (an array of `count`, and one): a record
/// in a page should cost what it costs alone, and what a page costs beyond that (its records all
/// alive at once, past the processor's caches) `JSONDecoder` pays too.
func pageReadContenders(records count: Int) throws -> [Contender] {
    let page = try queryPage(records: count)
    let record = try RecordJSONEncoder().encode(try RecordEncoder().encode(FlatPost.sample))
    let posts = (0..<count).map { index in
        var post = FlatPost.sample
        post.id = "post-\(index)"
        post.views = index
        return post
    }
    let plainPage = try JSONEncoder().encode(posts)
    let plainPost = try JSONEncoder().encode(FlatPost.sample)
    let decoder = RecordJSONDecoder()
    let plain = JSONDecoder()
    return [
        Contender(name: "page") { consume(try decoder.decode(RecordsQueryResponse.self, from: page)) },
        Contender(name: "record alone") { consume(try decoder.decode(Record.self, from: record)) },
        Contender(name: "plain page") { consume(try plain.decode([FlatPost].self, from: plainPage)) },
        Contender(name: "plain model alone") { consume(try plain.decode(FlatPost.self, from: plainPost)) },
    ]
}

/// Reading and writing pages of 1,000 and 10,000 records, for how the cost grows; then reading
/// pages of as many unreadable records.
func pageContenders() throws -> (small: [Contender], large: [Contender]) {
    func contenders(_ body: Data, unreadableBody: Data) throws -> [Contender] {
        let page = try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: body)
        guard
            try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: unreadableBody).records
                .allSatisfy({ $0.unreadable != nil })
        else { throw BenchmarkError.unreadablePageRead }
        return [
            Contender(name: "read") { consume(try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: body)) },
            Contender(name: "write") { consume(try RecordJSONEncoder().encode(page)) },
            Contender(name: "read unreadable") {
                consume(try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: unreadableBody))
            },
        ]
    }
    return (
        try contenders(try queryPage(records: 1_000), unreadableBody: try queryPage(records: 1_000, unreadable: true)),
        try contenders(
            try queryPage(records: 10_000), unreadableBody: try queryPage(records: 10_000, unreadable: true))
    )
}

/// Writing a save request of `count` flat records, and one of those records alone: a record in a
/// body should cost what it costs alone.
func bodyContenders(records count: Int) throws -> (body: Contender, alone: Contender) {
    let encoder = RecordEncoder()
    let records = try (0..<count).map { index in
        var post = FlatPost.sample
        post.id = "post-\(index)"
        post.views = index
        return try encoder.encode(post)
    }
    let request = RecordsModifyRequest(savingRecords: records)
    let sorted = JSONEncoder()
    sorted.outputFormatting = .sortedKeys
    guard try RecordJSONEncoder().encode(request) == sorted.encode(request) else {
        throw Failure(description: "RecordJSONEncoder wrote a save request other than JSONEncoder with .sortedKeys")
    }
    let fast = RecordJSONEncoder()
    return (
        body: Contender(name: "save request") { consume(try fast.encode(request)) },
        alone: Contender(name: "record alone") { consume(try fast.encode(records[0])) }
    )
}

/// Microseconds a record in a body takes to write (a save request) or read (a query page), and one
/// record written or read alone; for a page, the same two for `JSONDecoder` on the plain model.
struct BodyRow: Codable {
    var records: Int
    var perRecordInBody: Double
    var recordAlone: Double
    var bodyVersusAlone: Double
    var plainPerModelInBody: Double?
    var plainModelAlone: Double?
    var plainBodyVersusAlone: Double?
}

enum BenchmarkError: Error {
    /// A page meant to hold only unreadable records read some.
    case unreadablePageRead
}

/// Microseconds per model on the server path, each way.
struct ServerPathRow: Codable {
    var model: String
    /// Model → CloudKit JSON: "fast" (RecordEncoder + RecordJSONEncoder), "codable" (RecordEncoder
    /// + JSONEncoder), "plain" (JSONEncoder on the model).
    var write: [String: Double]
    /// CloudKit JSON → model, the same three ways, and "floor": the least a `Decodable` record can
    /// ask of `JSONDecoder` (`MinimalRecordJSON`), then RecordDecoder.
    var read: [String: Double]
    var writeFastVersusPlain: Double
    var writeCodableVersusPlain: Double
    var readFastVersusPlain: Double
    var readCodableVersusPlain: Double
    var readFloorVersusPlain: Double
}

func measureServerPath(_ name: String, _ contenders: (write: [Contender], read: [Contender]), with harness: Harness)
    throws -> ServerPathRow
{
    let write = try harness.measure(contenders.write).map { $0 / 1000 }
    let read = try harness.measure(contenders.read).map { $0 / 1000 }
    let names = ["fast", "codable", "plain", "floor"]
    return ServerPathRow(
        model: name,
        write: Dictionary(uniqueKeysWithValues: zip(names, write)),
        read: Dictionary(uniqueKeysWithValues: zip(names, read)),
        writeFastVersusPlain: write[0] / write[2], writeCodableVersusPlain: write[1] / write[2],
        readFastVersusPlain: read[0] / read[2], readCodableVersusPlain: read[1] / read[2],
        readFloorVersusPlain: read[3] / read[2])
}

func printServerPath(
    _ rows: [ServerPathRow], bodyWrite: BodyRow?, pageRead: BodyRow?, pageGrowth: Growth?,
    unreadablePageGrowth: Double?
) {
    func number(_ value: Double, _ width: Int, digits: Int = 2) -> String {
        let text = String(format: "%.\(digits)f", value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
    print()
    print("Server path, µs per model: model → CloudKit JSON (write) and back (read)")
    print("  fast = RecordEncoder + RecordJSONEncoder / RecordJSONDecoder + RecordDecoder")
    print("  Codable = RecordEncoder + JSONEncoder / JSONDecoder + RecordDecoder")
    print("  plain = JSONEncoder / JSONDecoder on the model itself")
    print("model                  fast  Codable   plain  fast/plain  Codable/plain")
    for row in rows {
        for (way, times, fast, codable) in [
            ("write", row.write, row.writeFastVersusPlain, row.writeCodableVersusPlain),
            ("read", row.read, row.readFastVersusPlain, row.readCodableVersusPlain),
        ] {
            print(
                (row.model + " " + way).padding(toLength: 20, withPad: " ", startingAt: 0)
                    + number(times["fast"] ?? 0, 7) + number(times["codable"] ?? 0, 9) + number(times["plain"] ?? 0, 8)
                    + number(fast, 11) + "×" + number(codable, 14) + "×")
        }
    }
    for row in rows {
        guard let floor = row.read["floor"] else { continue }
        print(
            "Codable floor, \(row.model) read: the least a Decodable record can ask of JSONDecoder, then"
                + " RecordDecoder (Benchmarks/CoderBenchmark/Sources/CodableFloor)")
        print("  read" + number(floor, 8) + " µs =" + number(row.readFloorVersusPlain, 5) + "× plain")
    }
    if let bodyWrite {
        print(
            "Save request of \(bodyWrite.records) flat records, RecordJSONEncoder:"
                + number(bodyWrite.perRecordInBody, 6) + " µs a record; a record alone"
                + number(bodyWrite.recordAlone, 6) + " µs (" + number(bodyWrite.bodyVersusAlone, 4) + "×)")
    }
    if let pageRead {
        print(
            "Query page of \(pageRead.records) flat records, RecordJSONDecoder:"
                + number(pageRead.perRecordInBody, 6) + " µs a record; a record alone"
                + number(pageRead.recordAlone, 6) + " µs (" + number(pageRead.bodyVersusAlone, 4) + "×)")
        if let inBody = pageRead.plainPerModelInBody, let alone = pageRead.plainModelAlone,
            let ratio = pageRead.plainBodyVersusAlone
        {
            print(
                "  JSONDecoder, an array of \(pageRead.records) plain models:" + number(inBody, 6)
                    + " µs a model; a model alone" + number(alone, 6) + " µs (" + number(ratio, 4) + "×)")
        }
    }
    if let pageGrowth {
        print(
            "Query page of 10,000 records / 1,000 (10.0× is linear): read"
                + number(pageGrowth.decodeRatio, 6, digits: 1) + "×, write"
                + number(pageGrowth.encodeRatio, 6, digits: 1) + "×")
    }
    if let unreadablePageGrowth {
        print(
            "Query page of 10,000 unreadable records / 1,000: read" + number(unreadablePageGrowth, 6, digits: 1) + "×")
    }
}
