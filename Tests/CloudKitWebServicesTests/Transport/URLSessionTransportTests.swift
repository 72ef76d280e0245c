import CloudKitStandIn
import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSessionTransport` against the loopback server over real HTTP on 127.0.0.1: what the client
/// sees of each answer and of each fault the server's plan scripts.
@Suite("URLSessionTransport over the loopback")
struct URLSessionTransportTests {
    // Made at each use: a Data kept in a static is reported leaked by LeakSanitizer.
    static var body: Data { Data(#"{"query":{"recordType":"Note"},"zoneID":{"zoneName":"_defaultZone"}}"#.utf8) }

    @Test("A body sent comes back byte for byte, with the answer's status")
    func bodyRoundTrip() async throws {
        let echo = try EchoServer()
        let (data, response) = try await URLSessionTransport().send(echo.request(body: Self.body))
        #expect(response.statusCode == 200)
        #expect(data == Self.body)
        #expect(echo.server.received.map(\.body) == [Self.body])
        #expect(echo.server.received.first?.method == "POST")
        #expect(echo.server.received.first?.path == "/database/1/iCloud.example/development/public/records/query")
    }

    @Test("A large body, over a megabyte, arrives whole both ways")
    func largeBody() async throws {
        let echo = try EchoServer()
        let large = Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let (data, response) = try await URLSessionTransport().send(echo.request(body: large))
        #expect(response.statusCode == 200)
        #expect(data == large)
        #expect(echo.server.received.map(\.body.count) == [large.count])
    }

    @Test("Headers go both ways: the request's reach the handler, the answer's reach the client")
    func headersBothWays() async throws {
        let echo = try EchoServer()
        var request = echo.request(body: Self.body)
        request.setValue("signed-by-the-test", forHTTPHeaderField: "X-Test-Header")
        let (_, response) = try await URLSessionTransport().send(request)
        #expect(echo.server.received.first?.header("X-TEST-HEADER") == "signed-by-the-test")
        #expect(echo.server.received.first?.header("content-type") == "application/json")
        #expect(response.value(forHTTPHeaderField: "X-Echo-Test-Header") == "signed-by-the-test")
        #expect(response.value(forHTTPHeaderField: "Content-Length") == String(Self.body.count))
    }

    @Test("Throttled and unavailable: the status and Retry-After are an answer, not an error", arguments: [429, 503])
    func statusWithRetryAfter(status: Int) async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.status(status, retryAfter: 7), atRequest: 1)
        let (data, response) = try await URLSessionTransport().send(echo.request(body: Self.body))
        #expect(response.statusCode == status)
        #expect(response.value(forHTTPHeaderField: "Retry-After") == "7")
        let error = RecordServerError(httpStatus: response.statusCode, body: data)
        #expect(error.serverErrorCode == RecordServerError.Code(httpStatus: status))
        #expect(error.retryAfter == 7)
        #expect(echo.handled == 0, "a request turned away does not reach the handler")
        #expect(echo.server.received.count == 1)
    }

    @Test("A fault by path meets only that path, once")
    func faultByPath() async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.status(503), onPath: "records/modify")
        let transport = URLSessionTransport()
        let query = try await transport.send(echo.request(body: Self.body))
        let modify = try await transport.send(echo.request("/db/private/records/modify", body: Self.body))
        let again = try await transport.send(echo.request("/db/private/records/modify", body: Self.body))
        let statuses: [Int] = [query.1.statusCode, modify.1.statusCode, again.1.statusCode]
        #expect(statuses == [200, 503, 200])
    }

    @Test("A connection closed before the answer throws, whether or not the handler ran", arguments: [false, true])
    func closedBeforeAnswer(handled: Bool) async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.closeBeforeAnswer(handled: handled), atRequest: 1)
        await #expect(throws: URLError.self) {
            try await URLSessionTransport().send(echo.request(body: Self.body))
        }
        #expect(echo.server.received.count == 1, "sent once: the transport never sends again by itself")
        #expect(echo.handled == (handled ? 1 : 0))
    }

    @Test("A connection reset throws, and the request was sent once")
    func reset() async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.reset(handled: true), atRequest: 1)
        await #expect(throws: URLError.self) {
            try await URLSessionTransport().send(echo.request(body: Self.body))
        }
        #expect(echo.server.received.count == 1)
        #expect(echo.handled == 1)
    }

    @Test("An answer cut short throws, and the server recorded and handled the request")
    func closedMidAnswer() async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.closeMidAnswer, atRequest: 1)
        await #expect(throws: URLError.self) {
            try await URLSessionTransport().send(echo.request(body: Self.body))
        }
        #expect(echo.server.received.map(\.body) == [Self.body])
        #expect(echo.handled == 1, "the request took effect though its answer was lost")
    }

    @Test("A slow answer arrives whole")
    func slowAnswer() async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.delay(.milliseconds(400)), atRequest: 1)
        let clock = ContinuousClock()
        let start = clock.now
        let (data, response) = try await URLSessionTransport().send(echo.request(body: Self.body))
        #expect(clock.now - start >= .milliseconds(400))
        #expect(response.statusCode == 200)
        #expect(data == Self.body)
    }

    @Test("Cancelling the task that awaits a slow answer throws at once")
    func cancelSlowAnswer() async throws {
        let echo = try EchoServer()
        // Cancelled once the server holds the request, so the data task is under way.
        let task = try await echo.sendHeldInSlowAnswer()
        task.cancel()
        // Not cancelled, the held answer would come, a 200. (No bound on the time taken: a full
        // test run can hold every thread of the pool for 30 s.)
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("A task cancelled before sending throws and sends nothing")
    func cancelledBeforeSending() async throws {
        let echo = try EchoServer()
        let request = echo.request(body: Self.body)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await URLSessionTransport().send(request)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(echo.server.received.isEmpty)
    }

    @Test("A server that is not there: the connection is refused, and the transport throws")
    func nobodyListening() async throws {
        let echo = try EchoServer()
        let request = echo.request(body: Self.body)
        echo.server.stop()
        await #expect(throws: URLError.self) { try await URLSessionTransport().send(request) }
    }

    @Test("A session of the caller's is the one used: its request timeout ends a slow answer")
    func sessionGiven() async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.delay(.seconds(20)), atRequest: 1)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 1
        let transport = URLSessionTransport(session: URLSession(configuration: configuration))
        // The default session would wait the 20 s out and return a 200: the timeout is the session's.
        await #expect {
            try await transport.send(echo.request(body: Self.body))
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
    }

    @Test("The default session keeps neither a cache nor cookies")
    func defaultSession() {
        let configuration = URLSessionTransport.makeDefaultSession().configuration
        #expect(configuration.urlCache == nil)
        #expect(configuration.httpCookieStorage == nil)
        #expect(configuration.httpShouldSetCookies == false)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
    }
}
