import CloudKitStandIn
import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Recorded real traffic replayed over the loopback: each recorded request, sent as raw bytes
/// through `URLSessionTransport`, comes back as the recorded answer, which reads as the package's
/// response type with the records the recording holds; a request that differs gets a `400` that
/// says where.
@Suite("Recorded traffic replayed over the loopback")
struct ReplayTransportTests {
    /// What each recorded answer holds, counted by hand from the fixtures: the records of each
    /// page (a batch answer has a page per query), keyed by the answer's file.
    static let recordsPerAnswer: [String: [Int]] = [
        "icloudpd/batchQueryResponse-autodelete_photos-4.json": [1],
        "icloudpd/batchQueryResponse-download_autodelete_photos_part1-4.json": [1],
        "icloudpd/batchQueryResponse-download_autodelete_photos_part2-4.json": [1],
        "icloudpd/batchQueryResponse-listing_photos-7.json": [1],
        "icloudpd/batchQueryResponse-listing_photos-8.json": [1],
        "icloudpd/modifyResponse-download_autodelete_photos_part1-7.json": [1],
        "icloudpd/modifyResponse-listing_photos-12.json": [0],
        "icloudpd/queryResponse-autodelete_photos-2.json": [1],
        "icloudpd/queryResponse-download_autodelete_photos_part1-1.json": [1],
        "icloudpd/queryResponse-download_autodelete_photos_part2-2.json": [1],
        "icloudpd/queryResponse-listing_albums-1.json": [1],
        "icloudpd/queryResponse-listing_albums-5.json": [1],
        "icloudpd/queryResponse-listing_photos-5.json": [1],
        "icloudpd/queryResponse-autodelete_photos-5.json": [32],
        "icloudpd/queryResponse-autodelete_photos-6.json": [0],
        "icloudpd/queryResponse-listing_photos-9.json": [200],
        "icloudpd/queryResponse-download_autodelete_photos_part2-6.json": [0],
        "icloudpd/queryResponse-listing_photos-6.json": [1],
        "icloudpd/queryResponse-listing_albums-6.json": [17],
        "icloudpd/queryResponse-listing_photos-10.json": [2],
        "knightsc/lookupResponse-ticket.json": [1],
    ]

    // Read at each use: Data kept in a static is reported leaked by LeakSanitizer.
    static var pairs: Result<[RecordedExchange], any Error> { Result { try RecordedTraffic.pairs() } }

    static func pair(_ requestFile: String, _ answerFile: String) throws -> RecordedExchange {
        let name = "\(requestFile) -> \(answerFile)"
        guard let pair = try pairs.get().first(where: { $0.name == name }) else {
            throw NoSuchPair(name: name)
        }
        return pair
    }

    struct NoSuchPair: Error {
        var name: String
    }

    static func post(_ body: Data, to path: String, on server: LoopbackServer) -> URLRequest {
        var request = URLRequest(url: server.baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json; charset=UTF-8", forHTTPHeaderField: "Content-Type")
        return request
    }

    @Test("The fixtures hold 24 recorded pairs, 23 from icloudpd's cassettes and the ticket lookup")
    func pairsFound() throws {
        let pairs = try Self.pairs.get()
        #expect(pairs.count == 24)
        #expect(pairs.filter { $0.name.hasPrefix("icloudpd/") }.count == 23)
        #expect(Set(pairs.map(\.name)).count == 24, "no pair twice")
        let operations = Dictionary(grouping: pairs, by: \.operation).mapValues(\.count)
        #expect(
            operations == [
                "private/records/query": 11, "shared/records/query": 3, "private/records/modify": 4,
                "private/internal/records/query/batch": 4, "shared/internal/records/query/batch": 1,
                "public/records/lookup": 1,
            ])
        let lookup = try Self.pair("knightsc/lookupRequest-ticket.json", "knightsc/lookupResponse-ticket.json")
        #expect(lookup.path == "/database/1/com.apple.gk.ticket-delivery/production/public/records/lookup")
        #expect(Set(pairs.map { Self.recordsPerAnswer[$0.name.components(separatedBy: " -> ")[1]] != nil }) == [true])
    }

    @Test(
        "Each recorded request, sent as recorded, gets the recorded answer, read as the package's type",
        arguments: (try? RecordedTraffic.pairs()) ?? [])
    func recordedPairReplays(pair: RecordedExchange) async throws {
        let replay = ReplayHandler([pair])
        let server = try LoopbackServer(handler: replay.handler)
        defer { server.stop() }
        let (data, response) = try await URLSessionTransport().send(
            Self.post(pair.requestBody, to: pair.path, on: server))
        #expect(response.statusCode == 200, "\(String(decoding: data, as: UTF8.self).prefix(300))")
        #expect(data == pair.responseBody)
        #expect(server.received.map(\.body) == [pair.requestBody])
        #expect(replay.replayed == [pair.name])

        let answerFile = pair.name.components(separatedBy: " -> ")[1]
        #expect(try Self.recordCounts(of: data, for: pair) == Self.recordsPerAnswer[answerFile])
    }

    /// The records of each page of an answer, read with the package's type for its operation.
    static func recordCounts(of body: Data, for pair: RecordedExchange) throws -> [Int] {
        let decoder = RecordJSONDecoder()
        switch pair.operation.split(separator: "/").dropFirst().joined(separator: "/") {
        case "records/query":
            let page = try decoder.decode(RecordsQueryResponse.self, from: body)
            #expect(page.records.allSatisfy { $0.record != nil }, "every record reads")
            return [page.records.count]
        case "records/modify":
            return [try decoder.decode(RecordsModifyResponse.self, from: body).records.count]
        case "records/lookup":
            let answer = try decoder.decode(RecordsLookupResponse.self, from: body)
            #expect(answer.records.first?.record?.recordType == "DeveloperIDTicket")
            return [answer.records.count]
        case "internal/records/query/batch":
            return try JSONDecoder().decode(BatchAnswer.self, from: body).batch.map(\.records.count)
        default:
            Issue.record("no response type for \(pair.operation)")
            return []
        }
    }

    /// iCloud.com's batch answer: `{"batch": [...]}`, each element a query's page.
    struct BatchAnswer: Decodable {
        var batch: [RecordsQueryResponse]
    }

    /// Sends `body` to a replay of the albums query recorded in `listing_albums.yml`, whose
    /// request is `{"query":{"recordType":"CPLAlbumByPositionLive"},"zoneID":{"zoneName":"PrimarySync"}}`.
    static func sendToAlbumsReplay(_ body: String) async throws -> (Data, HTTPURLResponse, RecordedExchange) {
        let pair = try Self.pair(
            "icloudpd/queryRequest-listing_albums-6.json", "icloudpd/queryResponse-listing_albums-6.json")
        let server = try LoopbackServer(handler: ReplayHandler([pair]).handler)
        defer { server.stop() }
        let (data, response) = try await URLSessionTransport().send(
            Self.post(Data(body.utf8), to: pair.path, on: server))
        return (data, response, pair)
    }

    @Test("A request whose body differs from the recording gets a 400 that names the difference")
    func mismatchedBody() async throws {
        let (data, response, pair) = try await Self.sendToAlbumsReplay(
            #"{"query":{"recordType":"CPLAlbumByPositionLive"},"zoneID":{"zoneName":"SharedSync"}}"#)
        #expect(response.statusCode == 400)
        let error = RecordServerError(httpStatus: response.statusCode, body: data)
        #expect(error.serverErrorCode == .badRequest)
        #expect(
            error.reason
                == "Replay: the body differs from \(pair.name) at $.zoneID.zoneName: recorded \"PrimarySync\", sent \"SharedSync\""
        )
    }

    @Test("The same JSON with keys in another order and other spacing matches the recording")
    func reorderedBodyMatches() async throws {
        let (data, response, pair) = try await Self.sendToAlbumsReplay(
            #"{ "zoneID" : { "zoneName" : "PrimarySync" }, "query" : { "recordType" : "CPLAlbumByPositionLive" } }"#)
        #expect(response.statusCode == 200)
        #expect(data == pair.responseBody)
    }

    @Test("A missing key, an extra key and a list of another length are each named")
    func differencesNamed() {
        let recorded = RecordedExchange(
            name: "recording", path: "/database/1/c/development/private/records/modify",
            requestBody: Data(#"{"atomic":true,"operations":[{"a":1},{"a":2}]}"#.utf8), responseBody: Data("{}".utf8))
        let replay = ReplayHandler([recorded])
        // Each mismatch leaves the recording unanswered, so the last request still matches it.
        func reason(_ body: String) -> String? {
            let answer = replay.answer(StandInRequest(path: "/x/private/records/modify", body: Data(body.utf8)))
            return RecordServerError(httpStatus: answer.status, body: answer.body).reason
        }
        #expect(
            reason(#"{"operations":[{"a":1},{"a":2}]}"#)
                == "Replay: the body differs from recording at $: the recording has \"atomic\" (true), the request has not"
        )
        #expect(
            reason(#"{"atomic":true,"operations":[{"a":1},{"a":2}],"zoneID":{}}"#)
                == "Replay: the body differs from recording at $: the request has \"zoneID\" (an object of 0 keys), the recording has not"
        )
        #expect(
            reason(#"{"atomic":true,"operations":[{"a":1}]}"#)
                == "Replay: the body differs from recording at $.operations: the recording has 2 elements, the request 1"
        )
        #expect(
            reason(#"{"atomic":1,"operations":[{"a":1},{"a":2}]}"#)
                == "Replay: the body differs from recording at $.atomic: recorded true, sent 1")
        let sameNumbers = replay.answer(
            StandInRequest(
                path: "/x/private/records/modify", body: Data(#"{"atomic":true,"operations":[{"a":1.0},{"a":2}]}"#.utf8)
            ))
        #expect(sameNumbers.status == 200, "1.0 is 1")
    }

    @Test("Another operation, a body that is not JSON, and a request sent more often than recorded get a 400")
    func otherMismatches() {
        let pair = RecordedExchange(
            name: "recording", path: "/database/1/c/production/private/records/query",
            requestBody: Data(#"{"query":{}}"#.utf8), responseBody: Data(#"{"records":[]}"#.utf8))
        let replay = ReplayHandler([pair])
        let wrongOperation = replay.answer(StandInRequest(path: "/database/1/c/production/private/records/modify"))
        #expect(wrongOperation.status == 400)
        #expect(
            RecordServerError(httpStatus: 400, body: wrongOperation.body).reason
                == "Replay: no recording is of the operation at /database/1/c/production/private/records/modify; the recordings are of private/records/query"
        )
        let notJSON = replay.answer(StandInRequest(path: "/p/private/records/query", body: Data("{query".utf8)))
        #expect(notJSON.status == 400)
        #expect(
            RecordServerError(httpStatus: 400, body: notJSON.body).reason?.hasPrefix(
                "Replay: the request's body is not JSON")
                == true)

        let once = replay.answer(StandInRequest(path: "/p/private/records/query?x=1", body: pair.requestBody))
        #expect(once.status == 200)
        let twice = replay.answer(StandInRequest(path: "/p/private/records/query", body: pair.requestBody))
        #expect(twice.status == 400)
        #expect(
            RecordServerError(httpStatus: 400, body: twice.body).reason
                == "Replay: the request to /p/private/records/query was recorded 1 time(s), and each recorded answer was replayed"
        )
    }

    @Test("A request recorded with several answers gets them in the order recorded")
    func severalAnswersInOrder() async throws {
        let request = "icloudpd/queryRequest-autodelete_photos-2.json"
        let first = try Self.pair(request, "icloudpd/queryResponse-autodelete_photos-2.json")
        let second = try Self.pair(request, "icloudpd/queryResponse-listing_albums-5.json")
        let replay = ReplayHandler([first, second])
        let server = try LoopbackServer(handler: replay.handler)
        defer { server.stop() }
        let transport = URLSessionTransport()
        let one = try await transport.send(Self.post(first.requestBody, to: first.path, on: server))
        let two = try await transport.send(Self.post(second.requestBody, to: second.path, on: server))
        #expect(one.0 == first.responseBody)
        #expect(two.0 == second.responseBody)
        #expect(replay.replayed == [first.name, second.name])
    }
}
