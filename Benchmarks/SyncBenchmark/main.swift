// The sync benchmark: a RecordStore of 10,000 pending records synced with CloudKitStandIn over
// HTTP on 127.0.0.1 (LoopbackServer + StandInDatabase, reached through URLSessionTransport), as
// `RecordStore.sync(with:)` syncs with CloudKit. It prints records per second and where the time
// went: in the package (the store and the client), in HTTP (URLSession, the loopback, the
// server's sockets), and in the stand-in's own work. From the package root:
//
//     swift run -c release sync-benchmark            three runs of 10,000 records
//     swift run -c release sync-benchmark --quick    one run of 1,000, as CI does it
//
// It is a target of the root package, not a package of its own as the coders' benchmark is:
// it needs CloudKitStandIn, a test-support target that is not a product, and so cannot be
// reached from another package (Benchmarks/SyncBenchmark/README.md).
import CloudKitStandIn
import CloudKitWebServices
import Foundation
import RecordCodable
import RecordStoreKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Time summed over calls made from several tasks.
final class Stopwatch: @unchecked Sendable {
    // @unchecked: `total` is read and written under `lock` only.
    private let lock = NSLock()
    private var total = Duration.zero

    var elapsed: Duration { lock.withLock { total } }

    /// Runs `work`, adding the time it took.
    func time<T>(_ work: () async throws -> T) async rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            let took = clock.now - start
            lock.withLock { total += took }
        }
        return try await work()
    }
}

/// URLSessionTransport, timed: what the package waits for while the request travels and the
/// server answers.
struct TimedTransport: CloudKitTransport {
    let inner = URLSessionTransport()
    let stopwatch: Stopwatch

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await stopwatch.time { try await inner.send(request) }
    }
}

/// One run's figures.
struct RunFigures {
    var records: Int
    var total: Duration
    var inTransport: Duration
    var inStandIn: Duration
    var requests: Int

    var seconds: Double { total.seconds }
    var recordsPerSecond: Double { Double(records) / seconds }
    /// The share of the sync's time spent in the package: all but the transport's.
    var packageShare: Double { (total - inTransport).seconds / seconds }
    /// The share spent in the stand-in's own work (its JSON and records semantics).
    var standInShare: Double { inStandIn.seconds / seconds }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A note of the benchmark: a title, a body, a count of edits and a date, as an app's records hold.
struct Note: Codable {
    let id: String
    let title: String
    let body: String
    let edits: Int, modified: Date
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

/// Parks `count` notes in a new store, then syncs them with a new stand-in on the loopback.
func run(records count: Int) async throws -> RunFigures {
    let standIn = StandInDatabase()
    let serverWork = Stopwatch()
    let server = try LoopbackServer { request in
        do {
            return try await serverWork.time { try standIn.answer(request) }
        } catch {
            return StandInResponse(status: 500, body: Data(#"{"serverErrorCode":"INTERNAL_ERROR"}"#.utf8))
        }
    }
    defer { server.stop() }
    let transportTime = Stopwatch()
    let database = CloudKitDatabase(
        container: "iCloud.org.recordcodable.Benchmark", environment: .development, scope: .private,
        credentials: .apiToken("benchmark-token", webAuthToken: "benchmark-web-auth-token"),
        transport: TimedTransport(stopwatch: transportTime), serverURL: server.baseURL)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-benchmark-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = try RecordStore(directory: directory)
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    try store.parkAll(
        (0..<count).map { index in
            Note(
                id: "note-\(index)", title: "Note \(index)", body: "The body of note \(index), a line or two of text.",
                edits: index % 7, modified: start.addingTimeInterval(Double(index)))
        }, inZone: "Notes")

    let clock = ContinuousClock()
    let began = clock.now
    let report = try await store.sync(with: database)
    let total = clock.now - began

    guard report.isComplete, report.saved.count == count, standIn.records(inZone: "Notes").count == count else {
        throw Failure(
            description: "the sync saved \(report.saved.count) of \(count) records, the server holds "
                + "\(standIn.records(inZone: "Notes").count), complete: \(report.isComplete)")
    }
    return RunFigures(
        records: count, total: total, inTransport: transportTime.elapsed, inStandIn: serverWork.elapsed,
        requests: report.requests)
}

func format(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }

let quick = CommandLine.arguments.contains("--quick")
let records = quick ? 1_000 : 10_000
let runs = quick ? 1 : 3
print("Sync of \(records) pending records with CloudKitStandIn over HTTP on 127.0.0.1, release build, \(runs) runs")
/// A row of the table: each column padded to its width.
func row(_ columns: [String]) -> String {
    let widths = [5, 10, 12, 11, 10, 0]
    return "  "
        + zip(columns, widths).map { $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0) }.joined()
}
print(row(["run", "seconds", "records/s", "requests", "package", "HTTP + stand-in (of which the stand-in)"]))
var figures: [RunFigures] = []
do {
    for index in 1...runs {
        let run = try await run(records: records)
        figures.append(run)
        let columns = [
            "\(index)", format(run.seconds, 2), format(run.recordsPerSecond), "\(run.requests)",
            format(run.packageShare * 100) + "%",
            format((1 - run.packageShare) * 100) + "% (" + format(run.standInShare * 100) + "%)",
        ]
        print(row(columns))
    }
} catch {
    print("sync benchmark failed: \(error)")
    exit(1)
}
let rates = figures.map(\.recordsPerSecond).sorted()
let shares = figures.map(\.packageShare).sorted()
if let slowest = rates.first, let fastest = rates.last, let least = shares.first, let most = shares.last {
    print(
        "Records per second: " + format(slowest) + "–" + format(fastest) + "; share of the time in the package "
            + "(the store and the client): " + format(least * 100) + "–" + format(most * 100) + "%")
}
