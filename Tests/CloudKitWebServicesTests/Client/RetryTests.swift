import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

@Suite("Retries: only where safe, as long as the server asks, bounded, cancellable")
struct RetryTests {
    static let query = RecordsQueryRequest(query: RecordQuery(recordType: "Note"))
    static let page = #"{"records":[]}"#

    @Test("A read throttled with 429 and Retry-After waits that long, then is sent again")
    func retryAfterHeader() async throws {
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport([
            .status(429, "Too Many Requests", headers: ["Retry-After": "7"]), .ok(Self.page),
        ])
        let database = testDatabase(transport, policy: sleeps.policy())
        _ = try await database.queryRecords(Self.query)
        #expect(sleeps.all == [.seconds(7)])
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].body == transport.requests[1].body)
    }

    @Test("A 503 with an HTTP date in Retry-After, and a body's retryAfter, are obeyed")
    func retryAfterDateAndBody() async throws {
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport([
            .status(503, "", headers: ["Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT"]),
            .status(429, #"{"serverErrorCode":"THROTTLED","retryAfter":2.5}"#),
            .ok(Self.page),
        ])
        let database = testDatabase(transport, policy: sleeps.policy())
        _ = try await database.queryRecords(Self.query)
        #expect(sleeps.all == [.zero, .milliseconds(2500)])
    }

    @Test("Without a delay from the server, the waits back off exponentially, then the error is thrown")
    func backoffThenGiveUp() async throws {
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport(
            Array(repeating: .status(503, #"{"serverErrorCode":"TRY_AGAIN_LATER"}"#), count: 4))
        let database = testDatabase(transport, policy: sleeps.policy(maximumRetries: 3))
        let error = try await #require(throws: CloudKitError.self) { try await database.queryRecords(Self.query) }
        #expect(sleeps.all == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(error.attempts == 4)
        #expect(error.serverError?.serverErrorCode == .tryAgainLater)
        #expect(transport.unusedSteps == 0)
    }

    @Test("A retryAfter that is negative asks for no delay: the policy's backoff applies, not a fixed second")
    func negativeRetryAfter() async throws {
        let sleeps = RecordedSleeps()
        let refused = ScriptedTransport.Step.status(429, #"{"serverErrorCode":"THROTTLED","retryAfter":-1}"#)
        let transport = ScriptedTransport([refused, refused, refused, .ok(Self.page)])
        let database = testDatabase(transport, policy: sleeps.policy())
        _ = try await database.queryRecords(Self.query)
        #expect(sleeps.all == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test("A server asking for a wait longer than the policy allows gets its error thrown at once")
    func serverDelayTooLong() async throws {
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport([.status(429, #"{"serverErrorCode":"THROTTLED","retryAfter":3600}"#)])
        let database = testDatabase(transport, policy: sleeps.policy())
        let error = try await #require(throws: CloudKitError.self) { try await database.queryRecords(Self.query) }
        #expect(error.serverError?.retryAfter == 3600)
        #expect(sleeps.all.isEmpty)
    }

    @Test(
        "Codes that the same request would get again are never retried",
        arguments: [
            (400, "BAD_REQUEST"), (401, "AUTHENTICATION_FAILED"), (403, "ACCESS_DENIED"), (404, "NOT_FOUND"),
            (404, "ZONE_NOT_FOUND"), (409, "CONFLICT"), (409, "EXISTS"), (412, "VALIDATING_REFERENCE_ERROR"),
            (413, "QUOTA_EXCEEDED"), (421, "AUTHENTICATION_REQUIRED"), (500, "INTERNAL_ERROR"),
            (400, "INVALID_ARGUMENTS"), (400, "LIMIT_EXCEEDED"), (400, "ATOMIC_ERROR"), (409, "UNIQUE_FIELD_ERROR"),
            (400, "SOMETHING_NEW"),
        ])
    func notRetried(status: Int, code: String) async throws {
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport([
            .status(status, #"{"serverErrorCode":"\#(code)","reason":"no","redirectURL":"https://sign.in"}"#)
        ])
        let database = testDatabase(transport, policy: sleeps.policy())
        let error = try await #require(throws: CloudKitError.self) { try await database.queryRecords(Self.query) }
        #expect(error.serverError?.serverErrorCode.rawValue == code)
        #expect(error.serverError?.redirectURL == "https://sign.in")
        #expect(transport.requests.count == 1)
        #expect(sleeps.all.isEmpty)
    }

    @Test(
        "Codes that say the server did nothing for now are retried",
        arguments: [
            (429, "THROTTLED"), (503, "TRY_AGAIN_LATER"), (503, "SERVICE_UNAVAILABLE"), (503, "ZONE_BUSY"),
            (502, ""), (504, ""),
        ])
    func retried(status: Int, code: String) async throws {
        let body = code.isEmpty ? "Bad Gateway" : #"{"serverErrorCode":"\#(code)"}"#
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport([.status(status, body), .ok(Self.page)])
        let database = testDatabase(transport, policy: sleeps.policy())
        _ = try await database.queryRecords(Self.query)
        #expect(transport.requests.count == 2)
        #expect(sleeps.all == [.seconds(1)])
    }

    @Test("A read that gets no answer is sent again; a modify with a delete is not")
    func noAnswer() async throws {
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport([.noAnswer, .ok(Self.page), .noAnswer])
        let database = testDatabase(transport, policy: sleeps.policy())
        _ = try await database.queryRecords(Self.query)
        #expect(transport.requests.count == 2)

        let delete = RecordsModifyRequest(operations: [
            RecordOperation(deleting: "N1", recordType: "Note", changeTag: "t")
        ])
        let error = try await #require(throws: CloudKitError.self) { try await database.modifyRecords(delete) }
        guard case .noAnswer = error.reason else {
            Issue.record("expected no answer, got \(error)")
            return
        }
        #expect(error.recordName == "N1")
        #expect(transport.requests.count == 3)
    }

    @Test("A whole modify refused for now is sent again: the server applied nothing")
    func modifyThrottled() async throws {
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport([
            .status(429, #"{"serverErrorCode":"THROTTLED","retryAfter":1}"#),
            .ok(#"{"records":[\#(noteJSON("N1", title: "a"))]}"#),
        ])
        let database = testDatabase(transport, policy: sleeps.policy())
        let answer = try await database.modifyRecords(
            RecordsModifyRequest(savingRecords: [noteRecord("N1", title: "a")]))
        #expect(answer.records.first?.record?.recordName == "N1")
        #expect(sleeps.all == [.seconds(1)])
    }

    @Test("Cancelling the task stops the wait and throws CancellationError")
    func cancellationDuringWait() async throws {
        let transport = ScriptedTransport([.status(429, #"{"serverErrorCode":"THROTTLED","retryAfter":200}"#)])
        let started = AsyncStream<Void>.makeStream()
        let policy = CloudKitRetryPolicy(sleep: { duration in
            started.continuation.yield()
            try await Task.sleep(for: duration)
        })
        let database = testDatabase(transport, policy: policy)
        let task = Task { try await database.queryRecords(Self.query) }
        for await _ in started.stream { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.count == 1)
    }

    @Test("Cancelling the task while the transport waits throws CancellationError, not a lost answer")
    func cancellationDuringSend() async throws {
        let transport = ScriptedTransport([.hang])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let task = Task { try await database.queryRecords(Self.query) }
        while transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.count == 1)
    }

    @Test("A task cancelled before the call sends nothing")
    func cancelledBefore() async throws {
        let transport = ScriptedTransport([.ok(Self.page)])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await database.queryRecords(Self.query)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.isEmpty)
    }
}
