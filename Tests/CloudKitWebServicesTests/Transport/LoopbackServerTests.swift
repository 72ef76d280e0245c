import CloudKitStandIn
import CloudKitWebServices
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loopback server's own rules: its bounds, its fault plan's order, its stop, and requests
/// served side by side.
@Suite("The loopback server")
struct LoopbackServerTests {
    // Made at each use: a Data kept in a static is reported leaked by LeakSanitizer.
    static var body: Data { Data(#"{"records":[{"recordName":"a"}]}"#.utf8) }

    @Test("It listens on 127.0.0.1 only, on a port the system picked")
    func address() throws {
        let echo = try EchoServer()
        #expect(echo.server.port > 0)
        #expect(echo.server.baseURL.absoluteString == "http://127.0.0.1:\(echo.server.port)")
    }

    @Test("Requests sent side by side are each answered with their own body, and each recorded once")
    func concurrentRequests() async throws {
        let echo = try EchoServer()
        let transport = URLSessionTransport()
        let answers = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<8 {
                let request = echo.request("/p/\(index)", body: Data("{\"n\":\(index)}".utf8))
                group.addTask { (index, try await transport.send(request).0) }
            }
            return try await group.reduce(into: [Int: Data]()) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 8)
        for (index, data) in answers { #expect(data == Data("{\"n\":\(index)}".utf8)) }
        #expect(Set(echo.server.received.map(\.path)) == Set((0..<8).map { "/p/\($0)" }))
        #expect(echo.server.received.count == 8)
        #expect(echo.handled == 8)
    }

    @Test("A body over the size limit is answered 413 and never reaches the handler")
    func bodyOverLimit() async throws {
        let echo = try EchoServer(limits: LoopbackServer.Limits(maxBodyBytes: 1_000))
        let (data, response) = try await URLSessionTransport().send(
            echo.request(body: Data(repeating: 32, count: 1_500)))
        #expect(response.statusCode == 413)
        #expect(String(decoding: data, as: UTF8.self) == "The body of 1500 bytes is over this server's 1000.")
        #expect(echo.handled == 0)
        #expect(echo.server.received.isEmpty, "a refused request was not read whole")
        let (_, atLimit) = try await URLSessionTransport().send(echo.request(body: Data(repeating: 32, count: 1_000)))
        #expect(atLimit.statusCode == 200)
    }

    @Test("A handler slower than its time limit: the request is answered 500")
    func handlerTimeout() async throws {
        let server = try LoopbackServer(limits: LoopbackServer.Limits(handlerTimeout: .milliseconds(200))) { _ in
            try? await Task.sleep(for: .seconds(30))
            return StandInResponse(body: Data())
        }
        defer { server.stop() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("slow"))
        request.httpMethod = "POST"
        let (data, response) = try await URLSessionTransport().send(request)
        #expect(response.statusCode == 500)
        #expect(String(decoding: data, as: UTF8.self) == "The stand-in's handler did not answer within its time limit.")
    }

    @Test("Past the connection limit, a connection is closed unanswered; the slot frees when one ends")
    func connectionLimit() async throws {
        // The first request is held until the test has seen the second turned away, so a loaded
        // machine cannot let the slot free early (a fixed delay did, under CI's full run).
        let release = Gate()
        let server = try LoopbackServer(limits: LoopbackServer.Limits(maxConnections: 1, handlerTimeout: .seconds(120)))
        {
            request in
            if request.path == "/holding" { try? await release.waitUntilOpen() }
            return StandInResponse(status: 200, body: request.body)
        }
        defer { server.stop() }
        let transport = URLSessionTransport()
        let slow = Task { try await transport.send(Self.request(to: server, path: "/holding")) }
        try await waitUntil { server.received.count == 1 }
        await #expect(throws: URLError.self) {
            try await transport.send(Self.request(to: server, path: "/turned-away"))
        }
        release.open()
        #expect(try await slow.value.1.statusCode == 200)
        let (_, after) = try await transport.send(Self.request(to: server, path: "/after"))
        #expect(after.statusCode == 200)
        #expect(server.received.map(\.path) == ["/holding", "/after"])
    }

    static func request(to server: LoopbackServer, path: String) -> URLRequest {
        var request = URLRequest(url: server.baseURL.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = "POST"
        request.httpBody = body
        return request
    }

    @Test("A fault by order wins over one by path, which then serves the next request to its path")
    func faultOrder() async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.status(503), onPath: "records/modify")
        echo.server.faults.inject(.status(429), atRequest: 1)
        let transport = URLSessionTransport()
        let modify = "/database/1/c/development/private/records/modify?ckjsVersion=2"
        let first = try await transport.send(echo.request(modify, body: Self.body)).1.statusCode
        let second = try await transport.send(echo.request(modify, body: Self.body)).1.statusCode
        let third = try await transport.send(echo.request(modify, body: Self.body)).1.statusCode
        #expect([first, second, third] as [Int] == [429, 503, 200])
    }

    @Test("A fault scripted for several requests by path serves that many, then none; removeAll clears the rest")
    func faultTimesAndRemoval() async throws {
        let echo = try EchoServer()
        echo.server.faults.inject(.status(503, retryAfter: 1), onPath: "records/query", times: 2)
        echo.server.faults.inject(.status(500), atRequest: 4)
        let transport = URLSessionTransport()
        var statuses: [Int] = []
        for _ in 0..<3 { statuses.append(try await transport.send(echo.request(body: Self.body)).1.statusCode) }
        echo.server.faults.removeAll()
        statuses.append(try await transport.send(echo.request(body: Self.body)).1.statusCode)
        #expect(statuses == [503, 503, 200, 200])
    }

    @Test("stop() during a slow answer returns at once, and the client's request fails")
    func stopDuringSlowAnswer() async throws {
        let echo = try EchoServer()
        let waiting = try await echo.sendHeldInSlowAnswer()
        let clock = ContinuousClock()
        let start = clock.now
        echo.server.stop()
        #expect(clock.now - start < .seconds(5), "well before the 30 s the answer was held for")
        await #expect(throws: URLError.self) { try await waiting.value }
        echo.server.stop()  // a second stop does nothing
    }
}
