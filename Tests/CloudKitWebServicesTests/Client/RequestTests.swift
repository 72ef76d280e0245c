import CloudKitStandIn
import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

@Suite("What each call sends: path, method, credentials, body")
struct RequestTests {
    @Test("Each call goes to its operation's path, with its method and body")
    func pathsAndMethods() async throws {
        let zone = RecordZoneID(zoneName: "Notes")
        let transport = ScriptedTransport([
            .ok(#"{"records":[]}"#), .ok(#"{"records":[]}"#), .ok(#"{"records":[]}"#),
            .ok(#"{"records":[],"syncToken":"s","moreComing":false}"#), .ok(#"{"zones":[]}"#),
            .ok(#"{"zones":[],"syncToken":"d","moreComing":false}"#), .ok(#"{"zones":[]}"#), .ok(#"{"zones":[]}"#),
            .ok(#"{"zones":[]}"#), .ok(#"{"tokens":[]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        _ = try await database.modifyRecords(RecordsModifyRequest(savingRecords: [noteRecord("N1", title: "a")]))
        _ = try await database.lookupRecords(RecordsLookupRequest(records: [.init(recordName: "N1")]))
        _ = try await database.queryRecords(RecordsQueryRequest(query: RecordQuery(recordType: "Note")))
        _ = try await database.fetchRecordChanges(RecordsChangesRequest(zoneID: zone))
        _ = try await database.fetchZoneChanges(ZoneChangesRequest(zones: [RecordsChangesRequest(zoneID: zone)]))
        _ = try await database.fetchDatabaseChanges(DatabaseChangesRequest())
        _ = try await database.listZones()
        _ = try await database.lookupZones([zone])
        _ = try await database.modifyZones(ZonesModifyRequest(creating: [zone]))
        _ = try await database.requestAssetUploads(
            AssetsUploadRequest(tokens: [.init(recordType: "Note", fieldName: "image")]))

        let sent = transport.requests
        let operations = sent.map { String($0.path.split(separator: "?")[0].dropFirst(databasePath.count + 1)) }
        #expect(
            operations == [
                "records/modify", "records/lookup", "records/query", "records/changes", "changes/zone",
                "changes/database", "zones/list", "zones/lookup", "zones/modify", "assets/upload",
            ])
        #expect(sent.map(\.method) == ["POST", "POST", "POST", "POST", "POST", "POST", "GET", "POST", "POST", "POST"])
        #expect(sent[6].body.isEmpty)
        let lookupBody = jsonObject(sent[7].body)["zones"] as? [[String: Any]]
        #expect(lookupBody?.first?["zoneName"] as? String == "Notes")
        let modify = jsonObject(sent[0].body)["operations"] as? [[String: Any]]
        #expect(modify?.first?["operationType"] as? String == "create")
        #expect(sent[0].header("Content-Type") == "application/json; charset=utf-8")
    }

    @Test("An API token and a web auth token go in the query, escaped, and the server's next token is kept")
    func apiTokenAndWebAuthToken() async throws {
        let transport = ScriptedTransport([
            .ok(#"{"zones":[]}"#, headers: ["X-Apple-CloudKit-Web-Auth-Token": "next+token/2="]),
            .ok(#"{"zones":[]}"#),
        ])
        let database = testDatabase(
            transport, credentials: .apiToken("API", webAuthToken: "first+token/1="), scope: .private,
            policy: RecordedSleeps().policy())
        #expect(database.webAuthToken == "first+token/1=")
        _ = try await database.listZones()
        #expect(database.webAuthToken == "next+token/2=")
        _ = try await database.listZones()
        let paths = transport.requests.map(\.path)
        #expect(
            paths[0] == "/database/1/iCloud.com.example.Notes/development/private/zones/list"
                + "?ckAPIToken=API&ckWebAuthToken=first%2Btoken%2F1%3D")
        #expect(paths[1].hasSuffix("?ckAPIToken=API&ckWebAuthToken=next%2Btoken%2F2%3D"))
        #expect(transport.requests[0].header("X-Apple-CloudKit-Request-KeyID") == nil)
    }

    @Test("An API token alone sends no web auth token, and keeps none the server sends")
    func apiTokenAlone() async throws {
        let transport = ScriptedTransport([.ok(#"{"zones":[]}"#)])
        let database = testDatabase(transport, credentials: .apiToken("API"), policy: RecordedSleeps().policy())
        _ = try await database.listZones()
        #expect(transport.requests[0].path == "\(databasePath)/zones/list?ckAPIToken=API")
        #expect(database.webAuthToken == nil)
    }

    @Test("A server-to-server key signs date:Base64(SHA-256(body)):subpath, and the headers carry it")
    func serverToServerSigning() async throws {
        let messages = MessageLog()
        let credentials = CloudKitCredentials.serverToServer(keyID: "KEY-1") { message in
            messages.append(message)
            return Data([0x30, 0x45, 0x02, 0x20, 0xFF])  // what a DER signature begins like
        }
        let transport = ScriptedTransport([.ok(#"{"zones":[]}"#), .ok(#"{"records":[]}"#)])
        let database = testDatabase(transport, credentials: credentials, policy: RecordedSleeps().policy())
        _ = try await database.listZones()
        _ = try await database.queryRecords(RecordsQueryRequest(query: RecordQuery(recordType: "Note")))

        let signed = messages.all.map { String(decoding: $0, as: UTF8.self) }
        try #require(signed.count == 2)
        // An empty body's SHA-256 in Base64 is a known value (FIPS 180-2 test vector for "").
        let listParts = signed[0].split(separator: ":", maxSplits: 3).map(String.init)
        let date = try #require(transport.requests[0].header("X-Apple-CloudKit-Request-ISO8601Date"))
        #expect(signed[0] == "\(date):47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:\(databasePath)/zones/list")
        #expect(listParts.count == 4)  // the date's own colons: 2026-01-01T00:00:00Z
        #expect(date.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
        for request in transport.requests {
            #expect(request.header("X-Apple-CloudKit-Request-KeyID") == "KEY-1")
            #expect(request.header("X-Apple-CloudKit-Request-SignatureV1") == "MEUCIP8=")
            #expect(!request.path.contains("?"))
        }
        // The query's message hashes the exact bytes sent.
        let query = transport.requests[1]
        let queryDate = try #require(query.header("X-Apple-CloudKit-Request-ISO8601Date"))
        let formatter = ISO8601DateFormatter()
        let expected = ServerToServerMessage(
            date: try #require(formatter.date(from: queryDate)), body: query.body,
            subpath: "\(databasePath)/records/query")
        #expect(signed[1] == expected.message)
    }

    @Test("A signing closure that throws fails the call before anything is sent")
    func signingFailure() async throws {
        struct NoKey: Error {}
        let transport = ScriptedTransport([])
        let database = testDatabase(
            transport, credentials: .serverToServer(keyID: "K") { _ in throw NoKey() },
            policy: RecordedSleeps().policy())
        let error = try await #require(throws: CloudKitError.self) { try await database.listZones() }
        #expect(error.operation == "zones/list")
        #expect(error.attempts == 0)
        #expect(transport.requests.isEmpty)
    }

    @Test("A server address with a path keeps it before /database/")
    func serverURLWithPath() async throws {
        let transport = ScriptedTransport([.ok(#"{"zones":[]}"#)])
        let database = CloudKitDatabase(
            container: "iCloud.com.example.Notes", environment: .production, scope: .shared,
            credentials: .apiToken("A"), transport: transport,
            serverURL: URL(string: "http://127.0.0.1:8080/proxy/") ?? URL(fileURLWithPath: "/"))
        _ = try await database.listZones()
        #expect(
            transport.requests[0].path
                == "/proxy/database/1/iCloud.com.example.Notes/production/shared/zones/list?ckAPIToken=A")
        #expect(CloudKitDatabase.appleServerURL.absoluteString == "https://api.apple-cloudkit.com")
    }

    @Test("A refusal names the operation, the record and the server's reason")
    func errorsCarryTheRequest() async throws {
        let transport = ScriptedTransport([
            .status(400, #"{"serverErrorCode":"BAD_REQUEST","reason":"Invalid value","uuid":"u-1"}"#)
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let error = try await #require(throws: CloudKitError.self) {
            try await database.modifyRecords(RecordsModifyRequest(savingRecords: [noteRecord("N1", title: "a")]))
        }
        #expect(error.operation == "records/modify")
        #expect(error.recordName == "N1")
        #expect(error.serverError?.serverErrorCode == .badRequest)
        #expect(error.serverError?.reason == "Invalid value")
        #expect(error.serverError?.httpStatus == 400)
        #expect(error.attempts == 1)
        #expect(
            error.description
                == "CloudKit records/modify of record 'N1' failed with BAD_REQUEST (HTTP 400): Invalid value")
    }

    @Test("A success whose body is not the operation's answer is an unreadable answer")
    func unreadableAnswer() async throws {
        let transport = ScriptedTransport([.ok("<html>gateway</html>")])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let error = try await #require(throws: CloudKitError.self) {
            try await database.queryRecords(RecordsQueryRequest(query: RecordQuery(recordType: "Note")))
        }
        guard case .unreadableAnswer(let status, _) = error.reason else {
            Issue.record("expected an unreadable answer, got \(error)")
            return
        }
        #expect(status == 200)
        #expect(error.operation == "records/query")
    }

    @Test("A body that cannot be written is refused before it is sent")
    func invalidBody() async throws {
        let transport = ScriptedTransport([])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let record = Record(recordType: "Note", recordName: "N1", fields: ["score": .double(.nan)])
        let error = try await #require(throws: CloudKitError.self) {
            try await database.modifyRecords(RecordsModifyRequest(savingRecords: [record]))
        }
        guard case .invalidRequest = error.reason else {
            Issue.record("expected an invalid request, got \(error)")
            return
        }
        #expect(transport.requests.isEmpty)
        #expect(error.operation == "records/modify")
        #expect(error.recordName == "N1")
        #expect(error.description.hasPrefix("CloudKit records/modify of record 'N1' was not sent: "))
    }
}

/// The messages a signing closure was given.
final class MessageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [Data] = []
    var all: [Data] { lock.withLock { messages } }
    func append(_ message: Data) { lock.withLock { messages.append(message) } }
}

@Suite("A web auth token is good for one request")
struct WebAuthTokenTests {
    @Test("Concurrent calls go one at a time, each with the token the answer before handed out")
    func concurrentCallsTakeTurns() async throws {
        let transport = ScriptedTransport(
            (1...4).map { token in
                .slowAnswer(
                    StandInResponse(
                        headers: ["X-Apple-CloudKit-Web-Auth-Token": "T\(token)"], body: Data(#"{"zones":[]}"#.utf8)))
            })
        let database = testDatabase(
            transport, credentials: .apiToken("API", webAuthToken: "T0"), policy: RecordedSleeps().policy())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await database.listZones() } }
            try await group.waitForAll()
        }
        let sent = transport.requests.map { $0.path.components(separatedBy: "ckWebAuthToken=").last ?? "" }
        #expect(sent == ["T0", "T1", "T2", "T3"])
        #expect(database.webAuthToken == "T4")
    }

    @Test("A call cancelled while it waits for its turn leaves at once, sending nothing")
    func cancelledWhileWaiting() async throws {
        let transport = ScriptedTransport([.hang])
        let database = testDatabase(
            transport, credentials: .apiToken("API", webAuthToken: "T0"), policy: RecordedSleeps().policy())
        let first = Task { try await database.listZones() }
        while transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        let second = Task { try await database.listZones() }
        try await Task.sleep(for: .milliseconds(50))  // time to reach the line behind the first
        second.cancel()
        // A bound, not a timing: a second call that waited for the first would wait until then.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            first.cancel()
        }
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(transport.requests.count == 1)
        first.cancel()
        watchdog.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
    }
}
