import CloudKitStandIn
import Foundation
import RecordCodable
import Testing

@testable import CloudKitWebServices

/// The client's calls against the real server's recorded traffic: for each recorded
/// `records/query`, `records/modify` and `records/lookup`, the client makes the same call — the
/// recorded request read into the package's request type — through `URLSession` to a loopback
/// server that replays the recording. The replay answers only a request at the same path with
/// a JSON-equal body, so the client sent what the real server was sent; the call's result must be
/// the recorded answer, read as the package reads it.
///
/// One difference is known and allowed: the client writes each field's `type`, which the
/// recorded modifies (icloudpd's) leave out for some fields, and CloudKit reads either way. The
/// replay of a modify is given the body with the `type`s the recording lacks taken out, and the
/// test checks that nothing else was.
@Suite("The client's calls, against recorded real traffic")
struct RecordedCallsTests {
    /// The recorded pairs of the calls the client makes (not iCloud.com's internal batch query).
    /// Read at each use: their bodies kept in a static are reported leaked by LeakSanitizer.
    static var pairs: [RecordedExchange] {
        let calls = ["records/query", "records/modify", "records/lookup"]
        let all = (try? RecordedTraffic.pairs()) ?? []
        return all.filter { pair in calls.contains { pair.operation.hasSuffix("/" + $0) } }
    }

    @Test("The recordings hold the client's calls: 14 queries, 4 modifies, a lookup")
    func pairsFound() {
        let operations = Self.pairs.map { $0.operation.split(separator: "/").dropFirst().joined(separator: "/") }
        #expect(operations.filter { $0 == "records/query" }.count == 14)
        #expect(operations.filter { $0 == "records/modify" }.count == 4)
        #expect(operations.filter { $0 == "records/lookup" }.count == 1)
    }

    /// A client of the recording's database (its container, environment and scope, from its
    /// path) at `server`, that never retries: a refused request must show.
    static func client(for pair: RecordedExchange, at server: LoopbackServer) throws -> CloudKitDatabase {
        // /database/1/<container>/<environment>/<scope>/<operation…>
        let parts = pair.path.split(separator: "/").map(String.init)
        try #require(parts.count >= 7)
        let environment = try #require(CloudKitEnvironment(rawValue: parts[3]))
        let scope = try #require(CloudKitDatabaseScope(rawValue: parts[4]))
        return CloudKitDatabase(
            container: parts[2], environment: environment, scope: scope, credentials: .apiToken("recorded"),
            serverURL: server.baseURL, retryPolicy: .never)
    }

    @Test("The client sends each recorded request as recorded, and returns the recorded answer", arguments: pairs)
    func callReplays(pair: RecordedExchange) async throws {
        let replay = ReplayHandler([pair])
        let typesAdded = HandledTypes()
        let server = try LoopbackServer { request in
            var request = request
            if let (body, count) = Self.withoutTypesAdded(request.body, recorded: pair.requestBody) {
                request.body = body
                typesAdded.add(count)
            }
            return replay.answer(request)
        }
        defer { server.stop() }
        let client = try Self.client(for: pair, at: server)
        let decoder = RecordJSONDecoder()
        if pair.operation.hasSuffix("records/query") {
            let request = try decoder.decode(RecordsQueryRequest.self, from: pair.requestBody)
            let answer = try await client.queryRecords(request)
            #expect(answer == (try decoder.decode(RecordsQueryResponse.self, from: pair.responseBody)))
        } else if pair.operation.hasSuffix("records/modify") {
            let request = try decoder.decode(RecordsModifyRequest.self, from: pair.requestBody)
            let answer = try await client.modifyRecords(request)
            #expect(answer == (try decoder.decode(RecordsModifyResponse.self, from: pair.responseBody)))
        } else {
            let request = try decoder.decode(RecordsLookupRequest.self, from: pair.requestBody)
            let answer = try await client.lookupRecords(request)
            #expect(answer == (try decoder.decode(RecordsLookupResponse.self, from: pair.responseBody)))
        }
        #expect(replay.replayed == [pair.name])
        #expect(server.received.count == 1)
        #expect((typesAdded.count > 0) == pair.operation.hasSuffix("records/modify"))
    }

    /// `sent`, a `records/modify` body, without the field `type`s that `recorded` does not
    /// have, and how many were taken out; `nil` when either is not a modify's JSON.
    static func withoutTypesAdded(_ sent: Data, recorded: Data) -> (Data, Int)? {
        guard var body = (try? JSONSerialization.jsonObject(with: sent)) as? [String: Any],
            var operations = body["operations"] as? [[String: Any]],
            let original = (try? JSONSerialization.jsonObject(with: recorded)) as? [String: Any],
            let recordedOperations = original["operations"] as? [[String: Any]],
            recordedOperations.count == operations.count
        else { return nil }
        var removed = 0
        for index in operations.indices {
            guard var record = operations[index]["record"] as? [String: Any],
                var fields = record["fields"] as? [String: Any],
                let recordedFields = (recordedOperations[index]["record"] as? [String: Any])?["fields"]
                    as? [String: Any]
            else { continue }
            for (name, value) in fields {
                guard var field = value as? [String: Any], field["type"] != nil,
                    let recordedField = recordedFields[name] as? [String: Any], recordedField["type"] == nil
                else { continue }
                field["type"] = nil
                fields[name] = field
                removed += 1
            }
            record["fields"] = fields
            operations[index]["record"] = record
        }
        body["operations"] = operations
        guard let data = try? JSONSerialization.data(withJSONObject: body) else { return nil }
        return (data, removed)
    }
}

/// How many field `type`s were taken out of the bodies sent, counted by the server's handler.
final class HandledTypes: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    var count: Int { lock.withLock { total } }
    func add(_ count: Int) { lock.withLock { total += count } }
}
