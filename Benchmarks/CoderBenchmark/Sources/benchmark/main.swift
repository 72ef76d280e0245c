// The RecordCodable benchmark: RecordEncoder and RecordDecoder beside the same mapping written by
// hand and beside Foundation's JSON coders, on the same models, in one run. It is a package of its
// own; from the package root:
//
//     swift run -c release --package-path Benchmarks/CoderBenchmark benchmark
//
// prints the full run as a table. After `benchmark`, `--json` gives the same figures as JSON,
// `--quick` a short run, as CI does it, `--client` the Web Services client alone (ClientPath.swift),
// `--page-read` a record in a query page of 1,000 against one alone,
// and `--profile encode-flat 10000` one loop alone, for a profiler (`client-save`, `client-query`
// and their `-plain` and `-coders` twins time the client's loops);
// `python3 Benchmarks/CoderBenchmark/estimate-cycles.py encode-flat encode-flat-hand` counts cycles
// rather than timing them.
//
// On the flat model it also times a minimal Codable coder (Sources/CodableFloor), which does the
// hand mapping's work through Encoder and Decoder and nothing else: what the protocols cost alone;
// and the whole server path, model to CloudKit JSON and back (ServerPath.swift).
import CodableFloor
import Foundation
import RecordCodable

let arguments = Set(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let asJSON = arguments.contains("--json")
// `--profile WHAT COUNT` runs one coder on one model COUNT times and nothing else, so that a
// profiler such as callgrind counts that work alone: the difference between two counts, divided by
// their difference, is the cost of one record without the program's start.
if let flag = CommandLine.arguments.firstIndex(of: "--profile") {
    let rest = CommandLine.arguments[(flag + 1)...]
    let what = rest.first ?? ""
    let count = rest.dropFirst().first.flatMap { Int($0) } ?? 10_000
    let encoder = RecordEncoder()
    let decoder = RecordDecoder()
    let record = try encoder.encode(FlatPost.sample)
    let eventRecord = try encoder.encode(FlatEvent.sample)
    let nestedRecord = try encoder.encode(NestedProfile.sample)
    let wire = try RecordJSONEncoder().encode(record)
    let plain = try JSONEncoder().encode(FlatPost.sample)
    let eventWire = try RecordJSONEncoder().encode(eventRecord)
    let eventPlain = try JSONEncoder().encode(FlatEvent.sample)
    let taskWire = try RecordJSONEncoder().encode(try encoder.encode(FlatTask.sample))
    let taskPlain = try JSONEncoder().encode(FlatTask.sample)
    let saveRequest = RecordsModifyRequest(
        savingRecords: try (0..<200).map { index in
            var post = FlatPost.sample
            post.id = "post-\(index)"
            post.views = index
            return try encoder.encode(post)
        })
    let page =
        try what.hasPrefix("read-page-")
        ? queryPage(records: Int(what.dropFirst(10)) ?? 0)
        : what.hasPrefix("read-unreadable-page-")
            ? queryPage(records: Int(what.dropFirst(21)) ?? 0, unreadable: true) : Data()
    let profiles: [String: () throws -> Void] = [
        "encode-flat": { consume(try encoder.encode(FlatPost.sample)) },
        "encode-flat-hand": { consume(FlatHandMapping.encode(FlatPost.sample)) },
        "encode-event": { consume(try encoder.encode(FlatEvent.sample)) },
        "encode-event-hand": { consume(FlatEventHandMapping.encode(FlatEvent.sample)) },
        "decode-flat": { consume(try decoder.decode(FlatPost.self, from: record)) },
        "decode-flat-hand": { consume(try FlatHandMapping.decode(record)) },
        "decode-event": { consume(try decoder.decode(FlatEvent.self, from: eventRecord)) },
        "decode-event-hand": { consume(try FlatEventHandMapping.decode(eventRecord)) },
        "decode-nested": { consume(try decoder.decode(NestedProfile.self, from: nestedRecord)) },
        // The minimal Codable coder (Benchmarks/CoderBenchmark/Sources/CodableFloor) on the flat model.
        "encode-flat-floor": {
            consume(try MinimalRecordEncoder().encode(FlatPost.sample, recordType: "FlatPost", fieldCount: 13))
        },
        "decode-flat-floor": { consume(try MinimalRecordDecoder().decode(FlatPost.self, from: record)) },
        // The server path's write: model to record to bytes, and record to bytes alone.
        "write-wire": { consume(try RecordJSONEncoder().encode(record)) },
        "write-wire-model": { consume(try RecordJSONEncoder().encode(try encoder.encode(FlatPost.sample))) },
        "write-plain": { consume(try JSONEncoder().encode(FlatPost.sample)) },
        // The same for the second and third flat models.
        "write-wire-model-event": { consume(try RecordJSONEncoder().encode(try encoder.encode(FlatEvent.sample))) },
        "write-plain-event": { consume(try JSONEncoder().encode(FlatEvent.sample)) },
        "write-wire-model-task": { consume(try RecordJSONEncoder().encode(try encoder.encode(FlatTask.sample))) },
        "write-plain-task": { consume(try JSONEncoder().encode(FlatTask.sample)) },
        // A save request of 200 flat records: divide by 200 for a record's share.
        "write-save-request-200": { consume(try RecordJSONEncoder().encode(saveRequest)) },
        // The Codable path's write of a record alone (JSONEncoder with sorted keys), against "write-wire".
        "write-codable": {
            let sorted = JSONEncoder()
            sorted.outputFormatting = .sortedKeys
            consume(try sorted.encode(record))
        },
        // A save request of one flat record: the body around a record, against "write-wire".
        "write-save-request": {
            consume(try RecordJSONEncoder().encode(RecordsModifyRequest(savingRecords: [record])))
        },
        // The server path's read: bytes to record, record to model, and Foundation on the plain model.
        "read-wire": { consume(try RecordJSONDecoder().decode(Record.self, from: wire)) },
        "read-wire-model": {
            consume(try decoder.decode(FlatPost.self, from: try RecordJSONDecoder().decode(Record.self, from: wire)))
        },
        // A query page, to compare the cost of 1,000 records with that of 10,000.
        "read-page-1000": { consume(try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: page)) },
        "read-page-10000": { consume(try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: page)) },
        // The same, when every record is unreadable: each is reported at its own path.
        "read-unreadable-page-1000": {
            consume(try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: page))
        },
        "read-unreadable-page-10000": {
            consume(try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: page))
        },
        "read-wire-model-event": {
            consume(
                try decoder.decode(FlatEvent.self, from: try RecordJSONDecoder().decode(Record.self, from: eventWire)))
        },
        "read-plain-event": { consume(try JSONDecoder().decode(FlatEvent.self, from: eventPlain)) },
        "read-wire-model-task": {
            consume(
                try decoder.decode(FlatTask.self, from: try RecordJSONDecoder().decode(Record.self, from: taskWire)))
        },
        "read-plain-task": { consume(try JSONDecoder().decode(FlatTask.self, from: taskPlain)) },
        "read-codable": { consume(try JSONDecoder().decode(Record.self, from: wire)) },
        "read-plain": { consume(try JSONDecoder().decode(FlatPost.self, from: plain)) },
        // The least a Decodable record can ask of JSONDecoder (Benchmarks/CoderBenchmark/Sources/CodableFloor).
        "read-codable-floor": { consume(try JSONDecoder().decode(MinimalRecordJSON.self, from: wire).record) },
    ]
    // The Web Services client (ClientPath.swift): a save of 200 models, a query page of 1,000, and
    // the same work through the coders alone.
    let client = what.hasPrefix("client-") ? try clientContenders() : nil
    let clientProfiles: [String: () throws -> Void] = [
        "client-save": { try client?.save[0].run() },
        "client-save-plain": { try client?.save[1].run() },
        "client-save-coders": { try client?.save[2].run() },
        "client-save-request": { try client?.save[3].run() },
        "client-save-plain-round-trip": { try client?.save[4].run() },
        "client-query": { try client?.query[0].run() },
        "client-query-plain": { try client?.query[1].run() },
        "client-query-coders": { try client?.query[2].run() },
    ]
    guard let run = profiles[what] ?? clientProfiles[what] else {
        let names = (Array(profiles.keys) + clientProfiles.keys).sorted()
        print("--profile takes one of \(names.joined(separator: ", ")), then a count")
        exit(2)
    }
    for _ in 0..<count { try run() }
    exit(0)
}

let harness = quick ? Harness(rounds: 3, batchNanoseconds: 200_000) : Harness(rounds: 31, batchNanoseconds: 3_000_000)

// `--page-read` times a record in a query page of 1,000 against one read alone, and the same for
// `JSONDecoder` on the plain models, and nothing else.
if arguments.contains("--page-read") {
    do {
        let times = try harness.measure(try pageReadContenders(records: 1_000))
        let perRecord = times[0] / 1000 / 1000
        let alone = times[1] / 1000
        let plainPerModel = times[2] / 1000 / 1000
        let plainAlone = times[3] / 1000
        print(
            String(
                format:
                    "a record in a page of 1,000: %.2f µs, alone %.2f µs, %.2f×; JSONDecoder %.2f against %.2f µs, %.2f×",
                perRecord, alone, perRecord / alone, plainPerModel, plainAlone, plainPerModel / plainAlone))
        exit(0)
    } catch {
        print("benchmark failed: \(error)")
        exit(1)
    }
}

// `--client` times the Web Services client alone (ClientPath.swift).
if arguments.contains("--client") {
    do {
        printClientPath(try measureClientPath(with: harness))
        exit(0)
    } catch {
        print("benchmark failed: \(error)")
        exit(1)
    }
}

/// One model: the three ways to encode it and the three ways to decode it, and for the flat model
/// a fourth: the minimal Codable coder (see `CodableFloor`).
struct Scenario {
    var name: String
    var fields: Int
    var encoders: [Contender]
    var decoders: [Contender]
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

/// Builds the scenario for a model after checking that the coders and the hand mapping agree.
func scenario<Model: Codable & Equatable>(
    _ name: String,
    _ model: Model,
    compareNames: Bool = true,
    byHand encode: @escaping (Model) throws -> Record,
    _ decode: @escaping (Record) throws -> Model,
    withFloor: Bool = false
) throws -> Scenario {
    let recordEncoder = RecordEncoder()
    let recordDecoder = RecordDecoder()
    let jsonEncoder = JSONEncoder()
    let jsonDecoder = JSONDecoder()

    let coded = try recordEncoder.encode(model)
    let handMade = try encode(model)
    guard coded.fields == handMade.fields, coded.recordType == handMade.recordType,
        !compareNames || coded.recordName == handMade.recordName
    else {
        throw Failure(description: "\(name): the coder's record differs from the hand mapping's")
    }
    guard try recordDecoder.decode(Model.self, from: handMade) == model, try decode(coded) == model else {
        throw Failure(description: "\(name): a decoded model differs from the original")
    }
    let json = try jsonEncoder.encode(model)

    var scenario = Scenario(
        name: name,
        fields: coded.fields.count,
        encoders: [
            Contender(name: "RecordEncoder") { consume(try recordEncoder.encode(model)) },
            Contender(name: "by hand") { consume(try encode(model)) },
            Contender(name: "JSONEncoder") { consume(try jsonEncoder.encode(model)) },
        ],
        decoders: [
            Contender(name: "RecordDecoder") { consume(try recordDecoder.decode(Model.self, from: coded)) },
            Contender(name: "by hand") { consume(try decode(coded)) },
            Contender(name: "JSONDecoder") { consume(try jsonDecoder.decode(Model.self, from: json)) },
        ])
    if withFloor {
        let floorEncoder = MinimalRecordEncoder()
        let floorDecoder = MinimalRecordDecoder()
        let recordType = handMade.recordType
        let fieldCount = handMade.fields.count
        guard try floorEncoder.encode(model, recordType: recordType, fieldCount: fieldCount) == handMade,
            try floorDecoder.decode(Model.self, from: handMade) == model
        else {
            throw Failure(description: "\(name): the minimal Codable coder differs from the hand mapping")
        }
        scenario.encoders.append(
            Contender(name: "minimal Codable encoder") {
                consume(try floorEncoder.encode(model, recordType: recordType, fieldCount: fieldCount))
            })
        scenario.decoders.append(
            Contender(name: "minimal Codable decoder") { consume(try floorDecoder.decode(Model.self, from: coded)) })
    }
    return scenario
}

/// The coders alone, for how their cost grows.
func coderOnly<Model: Codable>(_ model: Model) throws -> (encode: Contender, decode: Contender) {
    let record = try RecordEncoder().encode(model)
    return (
        Contender(name: "encode") { consume(try RecordEncoder().encode(model)) },
        Contender(name: "decode") { consume(try RecordDecoder().decode(Model.self, from: record)) }
    )
}

struct Row: Codable {
    var model: String
    var fields: Int
    /// Microseconds per record: RecordCodable, by hand, Foundation's JSON, and for the flat model
    /// the minimal Codable coder ("floor").
    var encode: [String: Double]
    var decode: [String: Double]
    var encodeVersusHand: Double
    var decodeVersusHand: Double
    var jsonEncodeVersusCoder: Double
    var jsonDecodeVersusCoder: Double
}

struct Growth: Codable {
    var what: String
    var encodeRatio: Double
    var decodeRatio: Double
}

struct Report: Codable {
    var build = "release"
    var rounds: Int
    var rows: [Row]
    var growth: [Growth]
    var serverPath: [ServerPathRow]
    var bodyWrite: BodyRow?
    /// A record in a query page of 1,000 against one read alone.
    var pageRead: BodyRow?
    var pageGrowth: Growth?
    /// How much longer a page of 10,000 unreadable records takes to read than one of 1,000.
    var unreadablePageGrowth: Double?
    /// The Web Services client's save and query page beside Foundation's coders.
    var clientPath: ClientPathRow
}

do {
    let scenarios = [
        try scenario(
            "flat", FlatPost.sample, byHand: FlatHandMapping.encode, FlatHandMapping.decode, withFloor: true),
        try scenario(
            "flat, another", FlatEvent.sample, byHand: FlatEventHandMapping.encode, FlatEventHandMapping.decode,
            withFloor: true),
        try scenario(
            "flat, a third", FlatTask.sample, byHand: FlatTaskHandMapping.encode, FlatTaskHandMapping.decode,
            withFloor: true),
        try scenario("nested", NestedProfile.sample, byHand: NestedHandMapping.encode, NestedHandMapping.decode),
        try scenario("wide", WideModel.sample, byHand: WideHandMapping.encode, WideHandMapping.decode),
        try scenario(
            "list of 10,000", SeriesModel.sample(count: 10_000), byHand: SeriesHandMapping.encode,
            SeriesHandMapping.decode),
    ]

    var rows: [Row] = []
    for scenario in scenarios {
        let encode = try harness.measure(scenario.encoders).map { $0 / 1000 }
        let decode = try harness.measure(scenario.decoders).map { $0 / 1000 }
        let names = ["RecordCodable", "hand", "JSON", "floor"]
        rows.append(
            Row(
                model: scenario.name, fields: scenario.fields,
                encode: Dictionary(uniqueKeysWithValues: zip(names, encode)),
                decode: Dictionary(uniqueKeysWithValues: zip(names, decode)),
                encodeVersusHand: encode[0] / encode[1], decodeVersusHand: decode[0] / decode[1],
                jsonEncodeVersusCoder: encode[2] / encode[0], jsonDecodeVersusCoder: decode[2] / decode[0]))
    }

    var growth: [Growth] = []
    let fields100 = try coderOnly(ManyFields(count: 100))
    let fields1000 = try coderOnly(ManyFields(count: 1_000))
    let fieldTimes = try harness.measure([fields100.encode, fields1000.encode, fields100.decode, fields1000.decode])
    growth.append(
        Growth(
            what: "1,000 fields / 100 fields", encodeRatio: fieldTimes[1] / fieldTimes[0],
            decodeRatio: fieldTimes[3] / fieldTimes[2]))
    let list1000 = try coderOnly(SeriesModel.sample(count: 1_000))
    let list10000 = try coderOnly(SeriesModel.sample(count: 10_000))
    let listTimes = try harness.measure([list1000.encode, list10000.encode, list1000.decode, list10000.decode])
    growth.append(
        Growth(
            what: "10,000 elements / 1,000 elements", encodeRatio: listTimes[1] / listTimes[0],
            decodeRatio: listTimes[3] / listTimes[2]))

    let serverPathRows = [
        try measureServerPath("flat", try serverPath(FlatPost.sample), with: harness),
        try measureServerPath("flat, another", try serverPath(FlatEvent.sample), with: harness),
        try measureServerPath("flat, a third", try serverPath(FlatTask.sample), with: harness),
    ]
    let body = try bodyContenders(records: 200)
    let bodyTimes = try harness.measure([body.body, body.alone]).map { $0 / 1000 }
    let bodyWrite = BodyRow(
        records: 200, perRecordInBody: bodyTimes[0] / 200, recordAlone: bodyTimes[1],
        bodyVersusAlone: bodyTimes[0] / 200 / bodyTimes[1])
    // Pages of 10,000 records take a while to read; the quick run leaves them out.
    var pageGrowth: Growth?
    var unreadablePageGrowth: Double?
    var pageRead: BodyRow?
    if !quick {
        let pages = try pageContenders()
        // Each alone: a batch holds one page, and a page read just after another contender's large
        // pages were freed pays for the memory the allocator takes back from the system, several
        // times its reading.
        let pageTimes = try (pages.small + pages.large).map { try harness.measure([$0])[0] }
        // Apart from the pages of 10,000, which leave the caches cold for whatever runs next.
        let read = try harness.measure(try pageReadContenders(records: 1_000)).map { $0 / 1000 }
        pageRead = BodyRow(
            records: 1_000, perRecordInBody: read[0] / 1000, recordAlone: read[1],
            bodyVersusAlone: read[0] / 1000 / read[1], plainPerModelInBody: read[2] / 1000, plainModelAlone: read[3],
            plainBodyVersusAlone: read[2] / 1000 / read[3])
        pageGrowth = Growth(
            what: "query page of 10,000 records / 1,000", encodeRatio: pageTimes[4] / pageTimes[1],
            decodeRatio: pageTimes[3] / pageTimes[0])
        unreadablePageGrowth = pageTimes[5] / pageTimes[2]
    }

    let report = Report(
        rounds: harness.rounds, rows: rows, growth: growth, serverPath: serverPathRows, bodyWrite: bodyWrite,
        pageRead: pageRead, pageGrowth: pageGrowth,
        unreadablePageGrowth: unreadablePageGrowth, clientPath: try measureClientPath(with: harness))
    if asJSON {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    } else {
        printTable(report)
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}

func printTable(_ report: Report) {
    func number(_ value: Double, _ width: Int, digits: Int = 2) -> String {
        let text = String(format: "%.\(digits)f", value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
    func text(_ value: String, _ width: Int) -> String {
        value.padding(toLength: width, withPad: " ", startingAt: 0)
    }
    print("RecordCodable benchmark: release build, median of \(report.rounds) interleaved rounds, µs per record")
    print()
    print("                                         encode                                    decode")
    print(
        "model           fields   Record   hand    JSON  Record/hand JSON/Record   Record   hand    JSON  Record/hand JSON/Record"
    )
    for row in report.rows {
        print(
            text(row.model, 15) + number(Double(row.fields), 7, digits: 0)
                + number(row.encode["RecordCodable"] ?? 0, 9) + number(row.encode["hand"] ?? 0, 7)
                + number(row.encode["JSON"] ?? 0, 8) + number(row.encodeVersusHand, 11) + "×"
                + number(row.jsonEncodeVersusCoder, 11) + "×"
                + number(row.decode["RecordCodable"] ?? 0, 9) + number(row.decode["hand"] ?? 0, 7)
                + number(row.decode["JSON"] ?? 0, 8) + number(row.decodeVersusHand, 11) + "×"
                + number(row.jsonDecodeVersusCoder, 11) + "×")
    }
    for row in report.rows {
        guard let encodeFloor = row.encode["floor"], let decodeFloor = row.decode["floor"],
            let encodeHand = row.encode["hand"], let decodeHand = row.decode["hand"]
        else { continue }
        print()
        print(
            "Codable floor, \(row.model) model: a minimal Codable coder that does only the hand mapping's work"
                + " (Benchmarks/CoderBenchmark/Sources/CodableFloor)")
        print(
            "  encode" + number(encodeFloor, 6) + " µs =" + number(encodeFloor / encodeHand, 5) + "× hand"
                + "    decode" + number(decodeFloor, 6) + " µs =" + number(decodeFloor / decodeHand, 5) + "× hand")
    }
    printServerPath(
        report.serverPath, bodyWrite: report.bodyWrite, pageRead: report.pageRead, pageGrowth: report.pageGrowth,
        unreadablePageGrowth: report.unreadablePageGrowth)
    printClientPath(report.clientPath)
    print()
    print("Growth (RecordEncoder / RecordDecoder; 10.0× is linear):")
    for growth in report.growth {
        print(
            "  " + text(growth.what, 34) + number(growth.encodeRatio, 6, digits: 1) + "×"
                + number(growth.decodeRatio, 8, digits: 1) + "×")
    }
}
