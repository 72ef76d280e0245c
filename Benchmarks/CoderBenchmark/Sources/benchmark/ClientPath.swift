import CloudKitWebServices
import Dispatch
import Foundation
import RecordCodable

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Web Services client's own cost: a save of 200 models through CloudKitDatabase (models to
// the request's bytes, the request built and authenticated, the answer read back) and a query page
// of 1,000 records read into models, with a transport that answers at once with a prepared
// answer, so that only the package's work is timed. Each is measured against Foundation's
// JSONEncoder / JSONDecoder on the same plain models.

/// A transport that answers every request at once with the same prepared answer.
final class InstantTransport: CloudKitTransport, @unchecked Sendable {
    // @unchecked: both are immutable after init; HTTPURLResponse is not marked Sendable on Linux.
    private let body: Data
    private let response: HTTPURLResponse

    init(answering body: Data) throws {
        guard
            let url = URL(string: "http://127.0.0.1/"),
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json; charset=UTF-8"])
        else { throw Failure(description: "could not build the instant transport's answer") }
        self.body = body
        self.response = response
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        consume(request.httpBody?.count ?? 0)
        return (body, response)
    }
}

/// Runs `work` to its end on Swift's concurrency pool while this thread waits: the harness times
/// synchronous runs. The hop costs a few microseconds a call, shared by all the call's records.
func blocking(_ work: @escaping @Sendable () async throws -> Void) throws {
    let semaphore = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Task {
        do { try await work() } catch { outcome.error = error }
        semaphore.signal()
    }
    semaphore.wait()
    if let error = outcome.error { throw error }
}

/// The error of a `blocking` run, handed from its task to the waiting thread.
private final class Outcome: @unchecked Sendable {
    // @unchecked: written by the task before it signals, read by the thread after it waits.
    var error: (any Error)?
}

/// `count` flat posts of distinct names.
func posts(_ count: Int) -> [FlatPost] {
    (0..<count).map { index in
        var post = FlatPost.sample
        post.id = "post-\(index)"
        post.views = index
        return post
    }
}

/// The client's save of 200 models and its query page of 1,000, each beside Foundation's coder on
/// the same plain models, after checking that the client's answers come back whole.
func clientContenders() throws -> (save: [Contender], query: [Contender]) {
    let saved = posts(200)
    let encoder = RecordEncoder()
    let savedRecords = try saved.enumerated().map { index, post in
        var record = try encoder.encode(post)
        record.metadata = RecordMetadata(changeTag: "tag-\(index)")
        return RecordResult.success(record)
    }
    let saveAnswer = try RecordJSONEncoder().encode(RecordsModifyResponse(records: savedRecords))
    let saving = CloudKitDatabase(
        container: "iCloud.org.recordcodable.Benchmark", environment: .development, scope: .public,
        credentials: .apiToken("benchmark-token"), transport: try InstantTransport(answering: saveAnswer),
        retryPolicy: .never)

    let queried = posts(1_000)
    let page = try queryPage(records: 1_000)
    let querying = CloudKitDatabase(
        container: "iCloud.org.recordcodable.Benchmark", environment: .development, scope: .public,
        credentials: .apiToken("benchmark-token"), transport: try InstantTransport(answering: page),
        retryPolicy: .never)
    let query = RecordsQueryRequest(query: RecordQuery(recordType: "FlatPost"))

    let savedCount = ResultCount()
    try blocking { savedCount.value = try await saving.save(saved).records.count { $0.record != nil } }
    let readCount = ResultCount()
    try blocking {
        for try await models in querying.queryModels(FlatPost.self, query) {
            readCount.value = models.count { $0.model != nil }
        }
    }
    guard savedCount.value == 200, readCount.value == 1_000 else {
        throw Failure(description: "the client saved \(savedCount.value) of 200 and read \(readCount.value) of 1,000")
    }

    let jsonEncoder = JSONEncoder()
    let jsonDecoder = JSONDecoder()
    let plainPage = try jsonEncoder.encode(queried)
    let plainSaveAnswer = try jsonEncoder.encode(saved)
    return (
        save: [
            Contender(name: "CloudKitDatabase.save, 200 models") {
                try blocking { consume(try await saving.save(saved)) }
            },
            Contender(name: "JSONEncoder, 200 plain models") { consume(try jsonEncoder.encode(saved)) },
            Contender(name: "the coders alone: request written, answer read") {
                consume(try RecordJSONEncoder().encode(RecordsModifyRequest(saving: saved)))
                consume(try RecordJSONDecoder().decode(RecordsModifyResponse.self, from: saveAnswer))
            },
            Contender(name: "the request written alone") {
                consume(try RecordJSONEncoder().encode(RecordsModifyRequest(saving: saved)))
            },
            // A save is a round trip: the server answers with the records it saved, which the
            // client reads back. Foundation's equivalent writes the plain models and reads them.
            Contender(name: "JSONEncoder and JSONDecoder, 200 plain models") {
                consume(try jsonEncoder.encode(saved))
                consume(try jsonDecoder.decode([FlatPost].self, from: plainSaveAnswer))
            },
        ],
        query: [
            Contender(name: "CloudKitDatabase.queryModels, a page of 1,000") {
                try blocking {
                    for try await models in querying.queryModels(FlatPost.self, query) { consume(models) }
                }
            },
            Contender(name: "JSONDecoder, 1,000 plain models") {
                consume(try jsonDecoder.decode([FlatPost].self, from: plainPage))
            },
            Contender(name: "the coders alone: page read, records decoded") {
                let decoder = RecordDecoder()
                consume(
                    try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: page).records.map { entry in
                        try entry.record.map { try decoder.decode(FlatPost.self, from: $0) }
                    })
            },
        ]
    )
}

/// A count handed out of a `blocking` run.
private final class ResultCount: @unchecked Sendable {
    // @unchecked: written by the task before it signals, read by the thread after it waits.
    var value = 0
}

/// Microseconds per record of the client's save and query page, and Foundation's on the plain models.
struct ClientPathRow: Codable {
    var savePerRecord: Double
    var plainEncodePerRecord: Double
    var queryPerRecord: Double
    var plainDecodePerRecord: Double
    /// The same work through the coders alone, without the client: what the client adds is the rest.
    var saveCodersPerRecord: Double
    var saveRequestAlonePerRecord: Double
    var queryCodersPerRecord: Double
    /// Foundation's round trip of the same models: written as the request, read as the answer.
    var plainRoundTripPerRecord: Double
    var saveVersusPlain: Double { savePerRecord / plainRoundTripPerRecord }
    var queryVersusPlain: Double { queryPerRecord / plainDecodePerRecord }
}

func measureClientPath(with harness: Harness) throws -> ClientPathRow {
    let contenders = try clientContenders()
    let save = try harness.measure(contenders.save).map { $0 / 1000 / 200 }
    let query = try harness.measure(contenders.query).map { $0 / 1000 / 1_000 }
    return ClientPathRow(
        savePerRecord: save[0], plainEncodePerRecord: save[1], queryPerRecord: query[0], plainDecodePerRecord: query[1],
        saveCodersPerRecord: save[2], saveRequestAlonePerRecord: save[3], queryCodersPerRecord: query[2],
        plainRoundTripPerRecord: save[4])
}

func printClientPath(_ row: ClientPathRow) {
    func number(_ value: Double) -> String { String(format: "%.2f", value) }
    print()
    print("Web Services client (CloudKitDatabase, a transport that answers at once), µs per record:")
    print(
        "  save of 200 models (request written, answer read): \(number(row.savePerRecord)); JSONEncoder and "
            + "JSONDecoder, plain: \(number(row.plainRoundTripPerRecord)); \(number(row.saveVersusPlain))× (target ≤ 0.6×); "
            + "JSONEncoder alone: \(number(row.plainEncodePerRecord))")
    print(
        "  query page of 1,000 into models:                   \(number(row.queryPerRecord)); JSONDecoder, plain: "
            + "\(number(row.plainDecodePerRecord)); \(number(row.queryVersusPlain))× (target ≤ 0.6×)")
    print(
        "  the coders alone, without the client: save \(number(row.saveCodersPerRecord)) (request written "
            + "\(number(row.saveRequestAlonePerRecord)), \(number(row.saveRequestAlonePerRecord / row.plainEncodePerRecord))× "
            + "JSONEncoder), query \(number(row.queryCodersPerRecord)); the client adds "
            + "\(number(row.savePerRecord - row.saveCodersPerRecord)) and \(number(row.queryPerRecord - row.queryCodersPerRecord))"
    )
}
