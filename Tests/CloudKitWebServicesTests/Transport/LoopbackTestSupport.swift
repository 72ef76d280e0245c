import CloudKitStandIn
import CloudKitWebServices
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server whose handler echoes the request's body with a header of its own, and counts the
/// requests it handled.
final class EchoServer: Sendable {
    let server: LoopbackServer
    private let handledCount = HandledCount()

    init(limits: LoopbackServer.Limits = LoopbackServer.Limits()) throws {
        let handledCount = handledCount
        server = try LoopbackServer(limits: limits) { request in
            handledCount.increment()
            var headers = ["Content-Type": "application/json", "X-Echo-Path": request.path]
            headers["X-Echo-Test-Header"] = request.header("x-test-header")
            return StandInResponse(status: 200, headers: headers, body: request.body)
        }
    }

    var handled: Int { handledCount.value }

    /// A `POST` of `body` to `path` (which begins with `/` and may end with a query).
    func request(_ path: String = "/database/1/iCloud.example/development/public/records/query", body: Data)
        -> URLRequest
    {
        // The path is appended as text, so that a query in it stays a query.
        var request = URLRequest(url: URL(string: server.baseURL.absoluteString + path) ?? server.baseURL)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return request
    }

    /// Sends a request that the server reads and then holds for 30 seconds before answering,
    /// and returns the task awaiting it once the server has read it.
    func sendHeldInSlowAnswer() async throws -> Task<(Data, HTTPURLResponse), any Error> {
        server.faults.inject(.delay(.seconds(30)), atRequest: server.received.count + 1)
        let request = request(body: Data("{}".utf8))
        let task = Task { try await URLSessionTransport().send(request) }
        let alreadyReceived = server.received.count
        try await waitUntil { self.server.received.count > alreadyReceived }
        return task
    }

    deinit { server.stop() }
}

/// A count shared by the handler's tasks and the test.
final class HandledCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// Polls `condition` every 10 ms, 6,000 times at most (a minute on an idle machine, more when a
/// full test run holds the cooperative pool); throws when it never holds.
func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    for _ in 0..<6_000 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    struct NeverHeld: Error {}
    throw NeverHeld()
}

/// A gate a handler waits at until the test opens it.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false

    func open() { lock.withLock { isOpen = true } }

    /// Waits, polling every 5 ms, until ``open()``; throws after 24,000 polls (two minutes idle).
    func waitUntilOpen() async throws {
        for _ in 0..<24_000 {
            if lock.withLock({ isOpen }) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        struct NeverOpened: Error {}
        throw NeverOpened()
    }
}
