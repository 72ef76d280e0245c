import Dispatch
import Foundation
import RecordCodable
@_spi(Benchmarks) import RecordStoreKit

// RecordStore beside SQLite (WAL, synchronous = FULL), the same workloads in one run, on the
// same disk, with the same records: their CloudKit JSON, as RecordStore keeps them.
//
//     swift run -c release --package-path Benchmarks/StoreBenchmark store-benchmark
//     swift run -c release --package-path Benchmarks/StoreBenchmark store-benchmark --quick
//     swift run -c release --package-path Benchmarks/StoreBenchmark store-benchmark --only query

let quick = CommandLine.arguments.contains("--quick")
/// `--only NAME` runs one section: basic, writers, chain, query, observation or reopen; and
/// `--only chain-probe`, which no full run includes, reads one chain for a profiler.
let only = CommandLine.arguments.firstIndex(of: "--only").flatMap {
    CommandLine.arguments.indices.contains($0 + 1) ? CommandLine.arguments[$0 + 1] : nil
}

func selected(_ section: String) -> Bool {
    only == nil || only == section
}
runMemoryChildIfAsked()
let rounds = quick ? 3 : 15
let reopenCount = quick ? 10_000 : 100_000

/// A note, as the app keeps it: the benchmark's model, queried by its score.
struct Note: Codable, Sendable, QueryableModel {
    var id: String
    var title: String
    var body: String
    var author: String
    var tags: [String]
    var priority: Int
    var pinned: Bool
    var score: Double
    var created: Date
    var modified: Date
    var folder: String
    var wordCount: Int

    enum CodingKeys: String, CodingKey {
        case id, title, body, author, tags, priority, pinned, score, created, modified, folder, wordCount
    }
    static let indexedFields: [CodingKeys] = [.score]

    init(_ number: Int) {
        id = "note-\(number)"
        title = "Note number \(number)"
        body = "Buy milk, eggs and bread; call the plumber about the kitchen tap. Item \(number)."
        author = "mei.chen"
        tags = ["home", "errands", "week \(number % 52)"]
        priority = number % 5
        pinned = number % 7 == 0
        score = Double(number) / 3
        created = Date(timeIntervalSince1970: 1_700_000_000 + Double(number))
        modified = created.addingTimeInterval(60)
        folder = "inbox"
        wordCount = 14 + number % 9
    }
}

/// Prints a line at once, so that a run cut short still shows what it measured.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let encoder = RecordEncoder()
let decoder = RecordDecoder()
// CloudKit's JSON, written and read as RecordStore writes and reads it, for SQLite's rows too.
let jsonEncoder = RecordJSONEncoder()
let jsonDecoder = RecordJSONDecoder()

func record(_ number: Int) throws -> Record {
    try encoder.encode(Note(number))
}

/// The row SQLite stores for a record: its key and its JSON, encoded as RecordStore encodes it.
func row(_ record: Record) throws -> (zone: String, type: String, name: String, json: Data) {
    (RecordStore.defaultZone, record.recordType, record.recordName, try jsonEncoder.encode(record))
}

/// The median of `rounds` timings of `body`, in nanoseconds per operation; `body` runs
/// `operations` operations a time.
func measure(operations: Int, _ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations))
    }
    return samples.sorted()[samples.count / 2]
}

/// The medians of `rounds` timings of `first` and `second`, each round timing one then the other,
/// in nanoseconds per operation.
func measureSideBySide(
    operations: Int, _ first: () throws -> Void, _ second: () throws -> Void
) rethrows -> (Double, Double) {
    var samples: ([Double], [Double]) = ([], [])
    for _ in 0..<rounds {
        var start = DispatchTime.now().uptimeNanoseconds
        try first()
        samples.0.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations))
        start = DispatchTime.now().uptimeNanoseconds
        try second()
        samples.1.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations))
    }
    return (samples.0.sorted()[rounds / 2], samples.1.sorted()[rounds / 2])
}

func withDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-benchmark-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

func microseconds(_ nanoseconds: Double) -> String {
    String(format: "%9.2f µs", nanoseconds / 1000)
}

func row(_ name: String, _ store: Double, _ sqlite: Double?, target: String) {
    let ratio = sqlite.map { String(format: "%5.2f×", store / $0) } ?? "      "
    let sqliteText = sqlite.map(microseconds) ?? String(repeating: " ", count: 12)
    say(
        "\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(microseconds(store))  \(sqliteText)  \(ratio)  \(target)"
    )
}

say("RecordStore beside SQLite (WAL, synchronous FULL)\(quick ? ", quick run" : ""): median of \(rounds) rounds")
say("\("".padding(toLength: 44, withPad: " ", startingAt: 0))   RecordStore       SQLite   ratio  target")

if selected("basic") {
    try withDirectory { directory in
        let store = try RecordStore(directory: directory.appendingPathComponent("store"))
        let sqlite = try SQLiteStore(path: directory.appendingPathComponent("sqlite.db").path)
        let records = try (0..<2_000).map(record)
        let rows = try records.map(row)

        // The storage alone: both stores are given the records' JSON, encoded once beforehand.
        let encoded = rows.map { (key: RecordKey(recordType: $0.type, recordName: $0.name), json: $0.json) }
        var next = 0
        let single = quick ? 20 : 100
        let storeSingle = try measure(operations: single) {
            for _ in 0..<single {
                try store.save(encodedRecords: [encoded[next % encoded.count]])
                next += 1
            }
        }
        let sqliteSingle = try measure(operations: single) {
            for _ in 0..<single {
                try sqlite.save([rows[next % rows.count]])
                next += 1
            }
        }
        row("durable commit of one record", storeSingle, sqliteSingle, target: "≤ 1.0×")

        let batch = Array(records.prefix(1_000))
        let batchRows = Array(rows.prefix(1_000))
        let batchEncoded = Array(encoded.prefix(1_000))
        let storeBatch = try measure(operations: batch.count) { try store.save(encodedRecords: batchEncoded) }
        let sqliteBatch = try measure(operations: batch.count) { try sqlite.save(batchRows) }
        row("batch of 1,000 records, per record", storeBatch, sqliteBatch, target: "≤ 0.8×")

        // What an app pays: records in, their JSON encoded by each store's caller, then stored.
        let storeRecords = try measure(operations: batch.count) { try store.save(contentsOf: batch) }
        let sqliteRecords = try measure(operations: batch.count) { try sqlite.save(batch.map(row)) }
        row("batch of 1,000 Records (JSON encoding too)", storeRecords, sqliteRecords, target: "")

        // A point read: the record's stored bytes by key.
        let keys = records.map { RecordKey(recordType: $0.recordType, recordName: $0.recordName) }
        let reads = 10_000
        var checksum = 0
        let storeRead = try measure(operations: reads) {
            for index in 0..<reads {
                checksum &+= try store.recordJSON(for: keys[(index &* 7919) % keys.count])?.count ?? 0
            }
        }
        let sqliteRead = try measure(operations: reads) {
            for index in 0..<reads {
                let key = keys[(index &* 7919) % keys.count]
                checksum &+= try sqlite.json(zone: key.zone, type: key.recordType, name: key.recordName)?.count ?? 0
            }
        }
        row("point read of a record's bytes", storeRead, sqliteRead, target: "≤ 0.3×")

        // Retrieving a model, against decoding it from bytes in memory.
        let models = 2_000
        let json = rows[0].json
        let decode = try measure(operations: models) {
            for _ in 0..<models {
                checksum &+= try decoder.decode(Note.self, from: jsonDecoder.decode(Record.self, from: json)).wordCount
            }
        }
        let storeRetrieve = try measure(operations: models) {
            for index in 0..<models {
                checksum &+= try store.retrieve(Note.self, identifier: "note-\(index % batch.count)")?.wordCount ?? 0
            }
        }
        let sqliteRetrieve = try measure(operations: models) {
            for index in 0..<models {
                let data = try sqlite.json(
                    zone: RecordStore.defaultZone, type: "Note", name: "note-\(index % batch.count)")
                checksum &+= try decoder.decode(Note.self, from: jsonDecoder.decode(Record.self, from: data ?? Data()))
                    .wordCount
            }
        }
        row("retrieve a model", storeRetrieve, sqliteRetrieve, target: "")
        row("  decode the same model from its bytes", decode, nil, target: "retrieve ≈ decode")
        if checksum == 42 { say("") }
    }
}

// Eight writers at once, each committing one record at a time and waiting for it to be durable:
// RecordStore's writers share flushes (group commit); SQLite's, on a connection each, take the
// write lock in turn. Each writer is a thread of its own: the store's calls block, and a blocked
// task would hold one of the few threads of Swift's cooperative pool (two on this machine).
// The time is the run's wall time divided by all the commits: the inverse of commits a second.
func concurrently(_ writers: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for writer in 0..<writers {
        group.enter()
        Thread.detachNewThread {
            body(writer)
            group.leave()
        }
    }
    group.wait()
}

/// The first error of the writers' commits.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    func note(_ error: any Error) { lock.withLock { errors.append(error) } }
    var first: (any Error)? { lock.withLock { errors.first } }
}

/// SQLite connections, one a writer: each is used by its writer's thread alone.
final class Connections: @unchecked Sendable {
    let all: [SQLiteStore]
    init(_ all: [SQLiteStore]) { self.all = all }
}

if selected("writers") {
    try withDirectory { directory in
        let writers = 8
        let perWriter = quick ? 25 : 100
        let store = try RecordStore(directory: directory.appendingPathComponent("store"))
        let sqlitePath = directory.appendingPathComponent("sqlite.db").path
        let connections = try (0..<writers).map { _ in try SQLiteStore(path: sqlitePath) }
        let records = try (0..<writers * perWriter).map { try row(record($0)) }
        let failures = Failures()
        let storeConcurrent = measure(operations: writers * perWriter) {
            concurrently(writers) { writer in
                for index in 0..<perWriter {
                    let row = records[writer * perWriter + index]
                    do {
                        try store.save(encodedRecords: [
                            (RecordKey(recordType: row.type, recordName: row.name), row.json)
                        ])
                    } catch {
                        failures.note(error)
                    }
                }
            }
        }
        let shared = Connections(connections)
        let sqliteConcurrent = measure(operations: writers * perWriter) {
            concurrently(writers) { writer in
                for index in 0..<perWriter {
                    do {
                        try shared.all[writer].save([records[writer * perWriter + index]])
                    } catch {
                        failures.note(error)
                    }
                }
            }
        }
        // SQLite at its best with eight writers: one connection, the writers taking turns on a
        // lock, so that none waits in SQLite's busy handler, which sleeps.
        let turns = NSLock()
        let sqliteSerialised = measure(operations: writers * perWriter) {
            concurrently(writers) { writer in
                for index in 0..<perWriter {
                    do {
                        try turns.withLock { try shared.all[0].save([records[writer * perWriter + index]]) }
                    } catch {
                        failures.note(error)
                    }
                }
            }
        }
        if let failed = failures.first { say("a concurrent commit failed: \(failed)") }
        row("8 writers' durable commits, per commit", storeConcurrent, sqliteSerialised, target: "≤ 0.33× (3× as many)")
        row("  SQLite on a connection a writer", storeConcurrent, sqliteConcurrent, target: "")
    }
}

// Models chained by references, each naming the next, as the server sent them. A model reads the
// next as a plain reference: the store decodes each from its record alone, and walks no
// reference. Its cost per model should not grow with the chain's length.
struct Step: Codable, Sendable {
    var id: String
    var next: RecordReference?
    var visits: Int
}

// The same chain, each hop reading a linked model as well, its halt: the store gathers the records
// the hops link to in one walk, which follows every reference, the plain ones to the next hop
// too (a reference names no type: the walk cannot tell which ones a model reads).
struct Halt: Codable, Sendable, LinkedRecord {
    var id: String
    var name: String
}

struct Hop: Codable, Sendable {
    var id: String
    var next: RecordReference?
    var halt: Halt
}

/// A store holding a chain of `length` steps, or hops and their halts, as fetched from the server.
func chainStore(of length: Int, hops: Bool = false, in directory: URL) throws -> RecordStore {
    let store = try RecordStore(directory: directory.appendingPathComponent("chain-\(length)-\(hops)"))
    let fetched = try (0..<length).flatMap { number -> [Record] in
        let next = number + 1 < length ? RecordReference(recordName: "step-\(number + 1)") : nil
        return hops
            ? try encoder.encodeGraph(
                Hop(id: "step-\(number)", next: next, halt: Halt(id: "halt-\(number)", name: "Halt \(number)")))
            : [try encoder.encode(Step(id: "step-\(number)", next: next, visits: 0))]
    }.map { record -> Record in
        var record = record
        record.metadata = RecordMetadata(changeTag: "t1")
        return record
    }
    try store.applyFetched(fetched.map { .success($0) })
    return store
}

/// `retrieveAll` of `type` over the chains of `short` (200) and `long` (2,000) timed side by side,
/// round by round, so that both see the same moments of the machine: ten reads of the short
/// chain against one of the long, the same number of models. Returns the last read of the long.
func compareChains<Model: Decodable>(
    _ type: Model.Type, _ name: String, total: String, short: RecordStore, long: RecordStore
) throws -> [Model] {
    var read: [Model] = []
    let (shortTime, longTime) = try measureSideBySide(
        operations: 2_000,
        { for _ in 0..<10 { read = try short.retrieveAll(type) } },
        { read = try long.retrieveAll(type) })
    row("retrieveAll, \(name) of 200, per model", shortTime, nil, target: "")
    row("retrieveAll, \(name) of 2,000, per model", longTime, nil, target: "")
    // The cost of the long chain against the short one's, in total.
    say(
        "\("retrieveAll, \(total) against 200, total".padding(toLength: 44, withPad: " ", startingAt: 0))"
            + "    \(String(format: "%5.1f×", longTime / shortTime * 10))                         ≤ 12×")
    return read
}

if selected("chain") {
    try withDirectory { directory in
        let short = try chainStore(of: 200, in: directory)
        let long = try chainStore(of: 2_000, in: directory)
        var read = try compareChains(Step.self, "chain", total: "2,000-chain", short: short, long: long)
        let hops = try compareChains(
            Hop.self, "hop chain", total: "2,000 hops",
            short: try chainStore(of: 200, hops: true, in: directory),
            long: try chainStore(of: 2_000, hops: true, in: directory))
        guard hops.count == 2_000, hops.contains(where: { $0.id == "step-1999" && $0.halt.name == "Halt 1999" }) else {
            throw SQLiteStore.Failure(description: "the hops of the chain read back wrong")
        }
        // Parked again, each is an update of the server's version, found through its links.
        for (length, store) in [(200, short), (2_000, long)] {
            read = try store.retrieveAll(Step.self)
            let parkAll = try measure(operations: length) {
                try store.parkAll(read.map { Step(id: $0.id, next: $0.next, visits: $0.visits + 1) })
            }
            row("parkAll again, chain of \(length), per model", parkAll, nil, target: "")
        }
    }
}

/// One read of the chain in `store`, for the probe: a function of its own, for callgrind's
/// `--toggle-collect=*chainProbeRead*`.
@inline(never)
func chainProbeRead(_ store: RecordStore, hops: Bool) throws -> Int {
    hops ? try store.retrieveAll(Hop.self).count : try store.retrieveAll(Step.self).count
}

// `--only chain-probe`: each chain read alone until 20,000 models were read, for a profiler
// (callgrind's cache simulator) or for the page faults a model costs. Not part of a full run.
if only == "chain-probe" {
    try withDirectory { directory in
        // `--length N` reads one chain alone.
        let lengths =
            CommandLine.arguments.firstIndex(of: "--length").flatMap {
                CommandLine.arguments.indices.contains($0 + 1) ? Int(CommandLine.arguments[$0 + 1]) : nil
            }.map { [$0] } ?? [200, 2_000]
        // `--hops` reads the chains of hops, which read links, rather than of steps.
        let hops = CommandLine.arguments.contains("--hops")
        for length in lengths {
            let store = try chainStore(of: length, hops: hops, in: directory)
            let read = { try chainProbeRead(store, hops: hops) }
            var count = try read()
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let faults = usage.ru_minflt
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<(20_000 / length) { count = try read() }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 20_000
            getrusage(RUSAGE_SELF.rawValue, &usage)
            say(
                "\(hops ? "hops" : "chain") of \(length): \(microseconds(elapsed)) a model, "
                    + "\(Double(usage.ru_minflt - faults) / 20_000) page faults a model, \(count) models")
        }
    }
}

// A query: 100 models out of 100,000, by a range of an indexed field, sorted by it. SQLite keeps
// the same JSON with the field as a column and an index on it, and decodes the rows it returns
// as RecordStore does.
if selected("query") {
    try withDirectory { directory in
        let store = try RecordStore(directory: directory.appendingPathComponent("store"))
        let sqlite = try SQLiteStore(path: directory.appendingPathComponent("sqlite.db").path)
        for start in stride(from: 0, to: reopenCount, by: 1_000) {
            let rows = try (start..<min(start + 1_000, reopenCount)).map { try row(record($0)) }
            try store.save(encodedRecords: rows.map { (RecordKey(recordType: $0.type, recordName: $0.name), $0.json) })
            try sqlite.saveScored(zip(start..., rows).map { (number, row) in (row.name, Note(number).score, row.json) })
        }
        // Scores are the note's number divided by 3: a range of 100 / 3 holds 100 notes.
        let ranges = (0..<50).map { step in
            let lower = Double((step * 1_931) % (reopenCount - 200)) / 3
            return (lower, lower + 33.2)
        }
        func query(_ range: (Double, Double)) -> Query<Note> {
            Query<Note>().filter(.score, .between(range.0, range.1)).sorted(by: .score).limit(100)
        }
        var checksum = 0
        let firstQuery = DispatchTime.now().uptimeNanoseconds
        checksum &+= try store.fetch(query(ranges[0])).count
        let indexBuilt = Double(DispatchTime.now().uptimeNanoseconds - firstQuery)
        // Round by round, one store then the other, so that both see the machine's same moments.
        let (storeQuery, sqliteQuery) = try measureSideBySide(operations: ranges.count) {
            for range in ranges { checksum &+= try store.fetch(query(range)).count }
        } _: {
            for range in ranges {
                checksum &+= try sqlite.scored(from: range.0, to: range.1, limit: 100).map {
                    try decoder.decode(Note.self, from: jsonDecoder.decode(Record.self, from: $0))
                }.count
            }
        }
        if checksum != (ranges.count * 2 * rounds + 1) * 100 { say("a query did not find 100 notes: \(checksum)") }
        row("query: 100 of \(reopenCount), indexed range, sorted", storeQuery, sqliteQuery, target: "≤ 1.0×")
        row("  the first query, which builds the index", indexBuilt, nil, target: "once per opening")
    }
}

/// The delays the reader of changes measured, in nanoseconds.
final class Delays: @unchecked Sendable {
    private let lock = NSLock()
    private var nanoseconds: [Double] = []

    /// Adds a delay; how many there are now.
    func add(_ delay: Duration) -> Int {
        let (seconds, attoseconds) = delay.components
        lock.lock()
        defer { lock.unlock() }
        nanoseconds.append(Double(seconds) * 1e9 + Double(attoseconds) / 1e9)
        return nanoseconds.count
    }

    var median: Double {
        lock.lock()
        defer { lock.unlock() }
        return nanoseconds.sorted()[nanoseconds.count / 2]
    }
}

// Observation: the delay from a commit's durable write to its change reaching a reader.
if selected("observation") {
    try withDirectory { directory in
        let store = try RecordStore(directory: directory.appendingPathComponent("store"))
        let commits = quick ? 50 : 300
        let changes = store.changes(of: Note.self)
        let delays = Delays()
        let done = DispatchSemaphore(value: 0)
        // Detached: top-level code is the main actor's, which waits below.
        Task.detached {
            for await change in changes {
                if delays.add(ContinuousClock.now - change.durableAt) == commits { break }
            }
            done.signal()
        }
        for number in 0..<commits { try store.save(record(number)) }
        done.wait()
        row("commit to its change delivered, median", delays.median, nil, target: "")
    }
}

// Reopening a store of many small records: its index checkpoint's header checked, the journal
// after it replayed; beside it, the same store opened with its checkpoint removed (the journal
// read whole, as before checkpoints), and SQLite opening the same rows. Then the memory each
// keeps for the open store, each measured in a child process of its own (see MemoryChild.swift):
// the growth of its heap (RssAnon) from before opening to once opened and to after a thousand
// point reads, and of the file pages it maps (RssFile).
func smallRecord(_ number: Int) -> (key: RecordKey, json: Data) {
    let name = "n\(number)"
    let json = Data(
        #"{"recordName":"\#(name)","recordType":"Note","fields":{"title":{"value":"Note \#(number)"}}}"#.utf8)
    return (RecordKey(recordType: "Note", recordName: name), json)
}

func megabytes(_ bytes: Int?) -> String {
    bytes.map { String(format: "%.1f MB", Double($0) / 1_048_576) } ?? "n/a"
}

/// The median time of `rounds` runs of `open`, not counting what closing costs after it.
func medianOpening(rounds: Int, _ open: () throws -> AnyObject) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        let opened = try open()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        withExtendedLifetime(opened) {}
    }
    return samples.sorted()[samples.count / 2]
}

for count in quick ? [10_000, 100_000] : [100_000, 1_000_000] where selected("reopen") {
    try withDirectory { directory in
        let url = directory.appendingPathComponent("store")
        let sqlitePath = directory.appendingPathComponent("sqlite.db").path
        do {
            let store = try RecordStore(directory: url)
            let sqlite = try SQLiteStore(path: sqlitePath)
            for start in stride(from: 0, to: count, by: 10_000) {
                let records = (start..<min(start + 10_000, count)).map(smallRecord)
                try store.save(encodedRecords: records)
                try sqlite.save(
                    records.map { (RecordStore.defaultZone, $0.key.recordType, $0.key.recordName, $0.json) })
            }
        }
        var checksum = 0
        let fromCheckpoint = try medianOpening(rounds: rounds) {
            let store = try RecordStore(directory: url)
            if !store.checkpointReport.usedCheckpoint { say("the store did not open from its checkpoint") }
            if try store.count != count { say("reopened \(try store.count) records, not \(count)") }
            return store
        }
        let sqliteOpen = try medianOpening(rounds: rounds) {
            let sqlite = try SQLiteStore(path: sqlitePath)
            checksum &+= try sqlite.json(zone: RecordStore.defaultZone, type: "Note", name: "n1")?.count ?? 0
            return sqlite
        }
        row("reopen a store of \(count) records", fromCheckpoint, sqliteOpen, target: "≤ 50 ms for 1,000,000")
        let checkpoint = url.appendingPathComponent("records.checkpoint")
        let wholeJournal = try medianOpening(rounds: quick ? 1 : 3) {
            try FileManager.default.removeItem(at: checkpoint)
            return try RecordStore(directory: url)
        }
        row("  the same without its checkpoint", wholeJournal, nil, target: "")

        // Each store in a process of its own, opened with nothing else in it.
        let storeMemory = measureMemoryInChild("store", path: url.path, count: count)
        let sqliteMemory = measureMemoryInChild("sqlite", path: sqlitePath, count: count)
        let mapped = (try? FileManager.default.attributesOfItem(atPath: checkpoint.path)[.size] as? Int) ?? nil
        say(
            "  checkpoint file, mapped (file cache)".padding(toLength: 44, withPad: " ", startingAt: 0)
                + " \(megabytes(mapped).leftPadded(12))")
        let growths: [(String, (MemoryFigures) -> Int)] = [
            ("  heap once opened (RssAnon)", { $0.opened.anonymous - $0.start.anonymous }),
            ("  heap after 1,000 point reads", { $0.read.anonymous - $0.start.anonymous }),
            ("  mapped pages after them (RssFile)", { $0.read.file - $0.start.file }),
        ]
        for (label, growth) in growths {
            say(
                label.padding(toLength: 44, withPad: " ", startingAt: 0)
                    + " \(megabytes(storeMemory.map(growth)).leftPadded(12))"
                    + "  \(megabytes(sqliteMemory.map(growth)).leftPadded(12))")
        }
        let reads = [storeMemory, sqliteMemory].map { $0.map { Double($0.readingNanoseconds) / 1_000 } }
        say(
            "  1,000 point reads, the first after opening".padding(toLength: 44, withPad: " ", startingAt: 0)
                + " \((reads[0].map { String(format: "%.0f µs", $0) } ?? "n/a").leftPadded(12))"
                + "  \((reads[1].map { String(format: "%.0f µs", $0) } ?? "n/a").leftPadded(12))")
        if checksum == 42 { say("") }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
