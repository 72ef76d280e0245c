import Foundation
import RecordCodable

/// An HTTP/1.1 server on 127.0.0.1, on a port the system picks, that answers each request with an
/// async handler, records every request it read, and meets the faults a test scripts.
///
/// The tests point a client at ``baseURL`` and drive it through real sockets, so that what the
/// client meets is what a network gives: answers whole, cut short, late, or never.
///
/// ```swift
/// let server = try LoopbackServer { request in
///     StandInResponse(body: Data(#"{"records":[]}"#.utf8))
/// }
/// defer { server.stop() }
/// server.faults.inject(.status(429, retryAfter: 2), atRequest: 1)
/// var request = URLRequest(url: server.baseURL.appendingPathComponent("records/query"))
/// request.httpMethod = "POST"
/// let (body, response) = try await URLSessionTransport().send(request)  // the 429
/// #expect(server.received.count == 1)
/// ```
///
/// Each connection carries one request and its answer, then closes (see `HTTPWire` for why). A
/// thread accepts connections and a thread serves each one, so a slow handler or a delayed
/// answer holds up no other request. Everything is bounded: a request's size, the connections
/// open at once, each read and write (``Limits/ioTimeout``), the handler's time
/// (``Limits/handlerTimeout``); ``stop()`` closes every connection and returns once every thread
/// has ended.
///
/// The handler runs in a task on the connection's own thread (see `ConnectionExecutor`), not
/// on Swift's cooperative pool, which tests that block may hold: an answer never waits for a
/// thread of the pool. (What the handler awaits on an actor of its own still runs where that
/// actor runs.)
public final class LoopbackServer: Sendable {
    /// The bounds that keep a test from hanging or a runaway client from filling memory.
    public struct Limits: Sendable, Hashable {
        /// The largest request body read; a larger one is answered `413`.
        public var maxBodyBytes: Int
        /// The connections served at once; one more is closed as soon as it is accepted.
        public var maxConnections: Int
        /// How long a read or a write may wait for the client before the connection is closed.
        public var ioTimeout: Duration
        /// How long the handler may take before the request is answered `500`.
        public var handlerTimeout: Duration

        /// Creates limits; the defaults suit every test here.
        public init(
            maxBodyBytes: Int = 32 * 1024 * 1024, maxConnections: Int = 16, ioTimeout: Duration = .seconds(5),
            handlerTimeout: Duration = .seconds(10)
        ) {
            self.maxBodyBytes = maxBodyBytes
            self.maxConnections = maxConnections
            self.ioTimeout = ioTimeout
            self.handlerTimeout = handlerTimeout
        }
    }

    /// The port the server listens on, on 127.0.0.1.
    public let port: UInt16

    /// `http://127.0.0.1:<port>`, the URL to send requests to.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The faults to meet, by request order or path; change it at any time.
    public let faults: LoopbackFaultPlan

    private let state: LoopbackServerState

    /// Starts a server: listening before the initializer returns, so a request sent at once is
    /// served.
    ///
    /// - Parameters:
    ///   - limits: The bounds on requests, connections and time.
    ///   - faults: The faults to meet; by default none, to script through ``faults`` later.
    ///   - handler: What answers each request the faults let through.
    /// - Throws: ``LoopbackSocketError`` when the socket cannot be opened.
    public init(
        limits: Limits = Limits(), faults: LoopbackFaultPlan = LoopbackFaultPlan(),
        handler: @escaping @Sendable (StandInRequest) async -> StandInResponse
    ) throws {
        let (listener, port) = try LoopbackSocket.listenOnLoopback(backlog: Int32(max(limits.maxConnections, 1)))
        self.port = port
        self.faults = faults
        state = LoopbackServerState(listener: listener, limits: limits, faults: faults, handler: handler)
        state.startAccepting()
    }

    deinit {
        state.stop()
    }

    /// Every request read whole, in the order it arrived, whatever its fault: what the client
    /// sent, to check that nothing was sent twice or lost.
    public var received: [StandInRequest] { state.received }

    /// How many answers a ``LoopbackFault/holdAnswer`` fault holds now: their requests applied.
    public var heldAnswers: Int { state.heldAnswers }

    /// Sends every answer held now by a ``LoopbackFault/holdAnswer`` fault.
    public func releaseHeldAnswers() {
        state.releaseHeldAnswers()
    }

    /// Stops listening, closes every connection, and returns once the server's threads have
    /// ended. Calling it again does nothing.
    ///
    /// It blocks the calling thread for as long as that takes: a few hundred milliseconds at
    /// most, since a pending delay ends at once and a pending handler is cancelled.
    public func stop() {
        state.stop()
    }
}

/// The running server: its listener, its open connections, what it read. The lock guards the
/// mutable fields; threads of the server and the test's calls share them.
private final class LoopbackServerState: @unchecked Sendable {
    let listener: Int32
    let limits: LoopbackServer.Limits
    let faults: LoopbackFaultPlan
    let handler: @Sendable (StandInRequest) async -> StandInResponse

    private let lock = NSLock()
    private var stopping = false
    private var openConnections: Set<Int32> = []
    private var receivedRequests: [StandInRequest] = []
    // Answers held by a holdAnswer fault, and how many times the test released those held: a
    // hold ends when the count has moved since it began.
    private var holding = 0
    private var releases = 0
    // Every thread the server starts enters this group and leaves it as it ends; stop() waits.
    private let threads = DispatchGroup()

    init(
        listener: Int32, limits: LoopbackServer.Limits, faults: LoopbackFaultPlan,
        handler: @escaping @Sendable (StandInRequest) async -> StandInResponse
    ) {
        self.listener = listener
        self.limits = limits
        self.faults = faults
        self.handler = handler
    }

    var received: [StandInRequest] { lock.withLock { receivedRequests } }

    private var isStopping: Bool { lock.withLock { stopping } }

    func startAccepting() {
        threads.enter()
        Thread { [self] in
            acceptUntilStopped()
            LoopbackSocket.close(listener)
            threads.leave()
        }.start()
    }

    func stop() {
        let first: Bool = lock.withLock {
            guard !stopping else { return false }
            stopping = true
            // Shutting a socket down wakes its thread from a blocked read; the thread closes it.
            // Under the lock, since a thread closes its descriptor only after leaving the set.
            for connection in openConnections { LoopbackSocket.shutDown(connection) }
            return true
        }
        guard first else { return }
        let bound = limits.handlerTimeout + limits.ioTimeout + .seconds(1)
        _ = threads.wait(timeout: .now() + bound.timeInterval)
    }

    private func acceptUntilStopped() {
        while !isStopping {
            guard LoopbackSocket.waitReadable(listener, milliseconds: 50),
                let connection = LoopbackSocket.accept(listener)
            else { continue }
            let admitted = lock.withLock {
                guard !stopping, openConnections.count < limits.maxConnections else { return false }
                openConnections.insert(connection)
                return true
            }
            guard admitted else {
                LoopbackSocket.close(connection)
                continue
            }
            threads.enter()
            Thread { [self] in
                serve(connection)
                threads.leave()
            }.start()
        }
    }

    private func serve(_ connection: Int32) {
        LoopbackSocket.setTimeouts(connection, seconds: limits.ioTimeout.timeInterval)
        var closing = Closing.orderly
        switch HTTPWire.readRequest(from: connection, maxBodyBytes: limits.maxBodyBytes) {
        case .closed:
            break
        case .refused(let status, let reason):
            answer(HTTPWire.refusal(status: status, reason: reason), on: connection)
            // Closing with unread bytes would reset the connection, and the client could lose
            // the refusal before reading it: read what the client still sends, up to a bound.
            HTTPWire.discardUntilClosed(connection, atMost: limits.maxBodyBytes)
        case .request(let request):
            closing = meet(request, on: connection)
        }
        // Out of the open set first, under the lock, so stop() never shuts down a descriptor
        // number that close() has freed for reuse.
        lock.withLock { _ = openConnections.remove(connection) }
        switch closing {
        case .orderly: LoopbackSocket.close(connection)
        case .reset: LoopbackSocket.reset(connection)
        }
    }

    private enum Closing {
        case orderly
        case reset
    }

    /// Records the request, meets its fault, and says how to close the connection.
    private func meet(_ request: StandInRequest, on connection: Int32) -> Closing {
        let number = lock.withLock {
            receivedRequests.append(request)
            return receivedRequests.count
        }
        let fault = faults.fault(forRequest: number, path: request.path)
        var response: StandInResponse?
        if fault.runsHandler {
            response = runHandler(request)
        }
        switch fault {
        case .none:
            answer(response, on: connection)
        case .status(let status, let retryAfter):
            answer(Self.turnedAway(status: status, retryAfter: retryAfter), on: connection)
        case .closeBeforeAnswer:
            break
        case .closeMidAnswer:
            let whole = response ?? Self.handlerTimedOut
            let half = whole.body.prefix(whole.body.count / 2)
            // Never the whole: an empty body is announced as one byte that never comes.
            let head = HTTPWire.head(of: whole, announcingLength: max(whole.body.count, 1))
            if LoopbackSocket.write(connection, head) { _ = LoopbackSocket.write(connection, half) }
        case .delay(let duration):
            waitUnlessStopping(duration)
            answer(response, on: connection)
        case .holdAnswer:
            holdUntilReleased()
            answer(response, on: connection)
        case .reset:
            return .reset
        }
        return .orderly
    }

    private func answer(_ response: StandInResponse?, on connection: Int32) {
        let response = response ?? Self.handlerTimedOut
        guard LoopbackSocket.write(connection, HTTPWire.head(of: response, announcingLength: response.body.count)),
            LoopbackSocket.write(connection, response.body)
        else { return }
        LoopbackSocket.finishSending(connection)
    }

    /// Runs the async handler on this connection's thread (see ``ConnectionExecutor``), for at
    /// most the handler's time limit, and less when the server stops: `nil` when it gave up, and
    /// then the handler's task is cancelled.
    private func runHandler(_ request: StandInRequest) -> StandInResponse? {
        let executor = ConnectionExecutor()
        let task = Task(executorPreference: executor) { [handler] in
            executor.finish(await handler(request))
        }
        let deadline = Date(timeIntervalSinceNow: limits.handlerTimeout.timeInterval)
        if let response = executor.run(until: deadline, stopping: { isStopping }) { return response }
        // Too late: whatever the cancelled handler still answers is not sent. A short wait lets
        // a handler that honours cancellation end before the server does.
        task.cancel()
        _ = executor.run(until: Date(timeIntervalSinceNow: 0.2), stopping: { false })
        executor.abandon()
        return nil
    }

    var heldAnswers: Int { lock.withLock { holding } }

    func releaseHeldAnswers() {
        lock.withLock { releases += 1 }
    }

    /// Waits until the test releases the answers held, the server stops, or two minutes pass.
    private func holdUntilReleased() {
        let releasesBefore = lock.withLock {
            holding += 1
            return releases
        }
        defer { lock.withLock { holding -= 1 } }
        for _ in 0..<12_000 {
            let released = lock.withLock { stopping || releases != releasesBefore }
            if released { return }
            usleep(10_000)
        }
    }

    private func waitUnlessStopping(_ duration: Duration) {
        let deadline = DispatchTime.now() + duration.timeInterval
        while DispatchTime.now() < deadline, !isStopping {
            usleep(10_000)
        }
    }

    // Made at each use: a Data kept in a static is reported leaked by LeakSanitizer.
    private static var handlerTimedOut: StandInResponse {
        HTTPWire.refusal(status: 500, reason: "The stand-in's handler did not answer within its time limit.")
    }

    /// CloudKit's error body for a request turned away with `status`.
    private static func turnedAway(status: Int, retryAfter: Int?) -> StandInResponse {
        var body: [String: Any] = [
            "uuid": UUID().uuidString,
            "serverErrorCode": RecordServerError.Code(httpStatus: status).rawValue,
            "reason": "The loopback server's fault plan turned this request away with \(status).",
        ]
        var headers = ["Content-Type": "application/json; charset=UTF-8"]
        if let retryAfter {
            body["retryAfter"] = retryAfter
            headers["Retry-After"] = String(retryAfter)
        }
        let bytes = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        return StandInResponse(status: status, headers: headers, body: bytes)
    }
}

extension Duration {
    /// The duration in seconds, as `DispatchTime` arithmetic and socket options take it.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
