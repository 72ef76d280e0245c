import Foundation
import Testing

@testable import CloudKitStandIn

/// The loopback server's HTTP, byte by byte over a raw socket: what it refuses and why, and the
/// framing of what it answers.
@Suite("The loopback server's HTTP, byte by byte")
struct LoopbackHTTPTests {
    /// A raw connection to a server: bytes written as given, the answer read until the server
    /// closes. Its blocking calls run on a thread of their own (see `onOwnThread`).
    final class RawConnection: Sendable {
        let descriptor: Int32

        init(to server: LoopbackServer) throws {
            descriptor = try LoopbackSocket.connectToLoopback(port: server.port)
            LoopbackSocket.setTimeouts(descriptor, seconds: 5)
        }

        deinit { LoopbackSocket.close(descriptor) }

        func write(_ text: String) async -> Bool {
            await onOwnThread { [descriptor] in LoopbackSocket.write(descriptor, Array(text.utf8)) }
        }

        /// Reads until the server closes, or 5 seconds pass without a byte.
        func readToEnd() async -> String {
            await read(count: Int.max)
        }

        /// Reads `count` bytes, or fewer when the server closes first.
        func read(count: Int) async -> String {
            await onOwnThread { [descriptor] in Self.read(count: count, from: descriptor) }
        }

        /// Writes each step's text in turn and then reads the number of bytes it names (or to the
        /// end, for `Int.max`), all on one thread of its own: a test run that holds the pool's
        /// threads cannot stall the exchange between two steps for longer than the server waits.
        func exchange(_ steps: [(write: String, read: Int)]) async -> [String] {
            await onOwnThread { [descriptor] in
                steps.map { step in
                    guard LoopbackSocket.write(descriptor, Array(step.write.utf8)) else { return "" }
                    return Self.read(count: step.read, from: descriptor)
                }
            }
        }

        private static func read(count: Int, from descriptor: Int32) -> String {
            var bytes: [UInt8] = []
            while bytes.count < count,
                let chunk = LoopbackSocket.read(descriptor, limit: min(count - bytes.count, 64 * 1024)),
                !chunk.isEmpty
            {
                bytes += chunk
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static func echoServer() throws -> LoopbackServer {
        // A generous read timeout: these tests write from a task, and a full test run can hold
        // every thread of the pool for tens of seconds between two writes.
        try LoopbackServer(limits: LoopbackServer.Limits(maxBodyBytes: 100, ioTimeout: .seconds(120))) { request in
            StandInResponse(status: 201, headers: ["Content-Length": "999", "X-Kind": "echo"], body: request.body)
        }
    }

    /// Sends `raw` and returns the whole answer.
    static func answer(to raw: String, on server: LoopbackServer) async throws -> String {
        let connection = try RawConnection(to: server)
        #expect(await connection.write(raw))
        return await connection.readToEnd()
    }

    @Test(
        "An answer is framed by the server: its Content-Length, Connection: close, the handler's own framing left out")
    func answerFraming() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let answer = try await Self.answer(
            to: "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", on: server)
        #expect(
            answer
                == "HTTP/1.1 201 Status 201\r\nX-Kind: echo\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        #expect(
            server.received == [
                StandInRequest(path: "/a", headers: ["Host": "x", "Content-Length": "5"], body: Data("hello".utf8))
            ])
    }

    @Test(
        "A request the server cannot read is refused with a status that says why, and never reaches the handler",
        arguments: [
            (
                "NONSENSE\r\n\r\n", "HTTP/1.1 400 Bad Request",
                "The request line \"NONSENSE\" is not METHOD TARGET HTTP/1.x."
            ),
            (
                "POST / HTTP/1.1\r\nno colon here\r\n\r\n", "HTTP/1.1 400 Bad Request",
                "The header line \"no colon here\" has no colon."
            ),
            (
                "POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n", "HTTP/1.1 400 Bad Request",
                "Content-Length ten is not a count of bytes."
            ),
            (
                "POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n", "HTTP/1.1 413 Payload Too Large",
                "The body of 101 bytes is over this server's 100."
            ),
            (
                "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                "HTTP/1.1 501 Not Implemented",
                "This server reads bodies framed by Content-Length only."
            ),
            (
                "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nabc", "HTTP/1.1 400 Bad Request",
                "The client sent more bytes than its Content-Length of 2."
            ),
        ])
    func refusals(raw: String, statusLine: String, reason: String) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let answer = try await Self.answer(to: raw, on: server)
        #expect(answer.hasPrefix(statusLine + "\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n" + reason))
        #expect(server.received.isEmpty)
    }

    @Test("A head longer than 64 KiB is refused with 431")
    func headTooLong() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let longHeader = "X-Long: " + String(repeating: "a", count: HTTPWire.maxHeadBytes) + "\r\n"
        let answer = try await Self.answer(to: "POST / HTTP/1.1\r\n" + longHeader + "\r\n", on: server)
        #expect(answer.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(server.received.isEmpty)
    }

    @Test("A client that expects 100 Continue gets it before it sends the body")
    func expectContinue() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let connection = try RawConnection(to: server)
        let interim = "HTTP/1.1 100 Continue\r\n\r\n"
        let answers = await connection.exchange([
            ("POST /e HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n", interim.utf8.count),
            ("ok", Int.max),
        ])
        #expect(answers.first == interim)
        #expect(answers.last?.hasSuffix("Connection: close\r\n\r\nok") == true)
        #expect(server.received.map(\.body) == [Data("ok".utf8)])
    }

    @Test("An answer with an empty body cut short announces a byte that never comes")
    func emptyBodyCutShort() async throws {
        let server = try LoopbackServer { _ in StandInResponse(body: Data()) }
        defer { server.stop() }
        server.faults.inject(.closeMidAnswer, atRequest: 1)
        let answer = try await Self.answer(to: "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", on: server)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.hasSuffix("Content-Length: 1\r\nConnection: close\r\n\r\n"))
    }

    // Without the server's timeout the read would wait for ever: the time limit fails it then.
    // (No bound on the time taken: a full test run can hold every thread of the pool for 30 s.)
    @Test("A client that connects and says nothing is closed after the read timeout", .timeLimit(.minutes(2)))
    func silentClient() async throws {
        let server = try LoopbackServer(limits: LoopbackServer.Limits(ioTimeout: .milliseconds(200))) { _ in
            StandInResponse(body: Data())
        }
        defer { server.stop() }
        let connection = try RawConnection(to: server)
        #expect(await connection.readToEnd() == "")
        #expect(server.received.isEmpty)
    }
}

/// Runs blocking work on a thread of its own and returns its result.
///
/// Swift's cooperative pool has as many threads as the machine has cores, and the loopback
/// server's handler runs on it: a test that blocked one of those threads in a socket read could
/// leave the handler no thread to run on, and wait for an answer that cannot come.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
