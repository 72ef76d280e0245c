import Foundation
import RecordCodable

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call's exchange with the server: the request built and authenticated, sent, sent again
/// while the server says it did nothing and the retry policy allows, and the answer read.
struct Exchange: Sendable {
    /// The operation, such as `records/modify`.
    var operation: String
    /// `POST`, or `GET` for the calls without a body.
    var method = "POST"
    /// The body's bytes, exactly as sent and signed.
    var body: Data
    /// The record the request is about, for its errors, when it is about one.
    var recordName: String?
    /// Whether the request may be sent again after the connection failed without an answer:
    /// true for reads, and for writes that cannot be applied twice.
    var resendsWhenUnanswered: Bool
    /// Where to send the request instead of the database's operation URL, unauthenticated: an
    /// asset upload's URL, which the server signed itself.
    var uploadURL: URL? = nil

    /// Sends the request and reads the answer as `Answer`.
    ///
    /// - Throws: ``CloudKitError`` when the server refuses the request past the retries, when no
    ///   answer comes and the request may not be sent again, or when the answer cannot be read;
    ///   `CancellationError` when the task is cancelled.
    func answer<Answer: Decodable>(_ type: Answer.Type, from database: CloudKitDatabase) async throws -> Answer {
        try await reply(type, from: database).answer
    }

    /// Sends the request and reads the answer as `Answer`, telling whether the request was sent
    /// again after an attempt got no answer, and so may have been applied twice.
    func reply<Answer: Decodable>(_ type: Answer.Type, from database: CloudKitDatabase) async throws
        -> (answer: Answer, resentAfterNoAnswer: Bool)
    {
        let delivery = try await send(to: database)
        do {
            return (try RecordJSONDecoder().decode(Answer.self, from: delivery.body), delivery.resentAfterNoAnswer)
        } catch {
            throw failure(.unreadableAnswer(status: delivery.status, error), attempts: delivery.attempts)
        }
    }

    /// A request's answer with a success status, and how it came.
    struct Delivery {
        /// The answer's body.
        var body: Data
        /// The answer's status.
        var status: Int
        /// How many times the request was sent.
        var attempts: Int
        /// Whether an attempt before got no answer, so that the request may have been applied
        /// twice.
        var resentAfterNoAnswer: Bool
    }

    /// Sends the request until it has an answer with a success status.
    func send(to database: CloudKitDatabase) async throws -> Delivery {
        let policy = database.retryPolicy
        var attempts = 0
        var resentAfterNoAnswer = false
        while true {
            try Task.checkCancellation()
            attempts += 1
            let sent = try await database.authentication.oneAtATime {
                () -> Swift.Result<(Data, HTTPURLResponse), any Error> in
                let request = try await urlRequest(for: database)
                do {
                    let answer = try await database.transport.send(request)
                    database.authentication.remember(answer.1)
                    return .success(answer)
                } catch {
                    return .failure(error)
                }
            }
            let data: Data
            let response: HTTPURLResponse
            switch sent {
            case .success(let answer):
                (data, response) = answer
            case .failure(let error):
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                let unanswered = failure(.noAnswer(error), attempts: attempts)
                guard resendsWhenUnanswered, let delay = policy.delay(beforeRetry: attempts - 1, serverDelay: nil)
                else { throw unanswered }
                try await policy.sleep(delay)
                resentAfterNoAnswer = true
                continue
            }
            if (200..<300).contains(response.statusCode) {
                return Delivery(
                    body: data, status: response.statusCode, attempts: attempts,
                    resentAfterNoAnswer: resentAfterNoAnswer)
            }
            let refusal = RecordServerError(
                httpStatus: response.statusCode, headers: response.headerFields, body: data)
            guard refusal.isRetryable,
                let delay = policy.delay(beforeRetry: attempts - 1, serverDelay: refusal.requestedDelay())
            else { throw failure(.server(refusal), attempts: attempts) }
            try await policy.sleep(delay)
        }
    }

    /// The request to send now: a server-to-server signature is made for each attempt, since
    /// the server refuses a date too far from its clock.
    private func urlRequest(for database: CloudKitDatabase) async throws -> URLRequest {
        if let uploadURL {
            var request = URLRequest(url: uploadURL)
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
            return request
        }
        let subpath = database.subpath(for: operation)
        guard let url = URL(string: database.serverURL.absoluteString.trimmingSuffix("/") + subpath) else {
            throw failure(.invalidRequest("The URL \(database.serverURL)\(subpath) is not valid."), attempts: 0)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if method != "GET" {
            request.httpBody = body
            request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        }
        do {
            try await database.authentication.authenticate(&request, subpath: subpath, body: body)
        } catch {
            if error is CancellationError { throw error }
            throw failure(.invalidRequest("The server-to-server key's signing failed: \(error)"), attempts: 0)
        }
        return request
    }

    /// The error of this exchange.
    func failure(_ reason: CloudKitError.Reason, attempts: Int) -> CloudKitError {
        CloudKitError(operation: operation, recordName: recordName, reason: reason, attempts: attempts)
    }
}

extension Exchange {
    /// An exchange whose body is `request` written as CloudKit Web Services JSON.
    ///
    /// - Throws: ``CloudKitError`` with ``CloudKitError/Reason/invalidRequest(_:)``, naming the
    ///   operation and the record, when the body cannot be written, such as for a value
    ///   CloudKit's JSON cannot carry.
    init(operation: String, encoding request: some Encodable, recordName: String? = nil, resendsWhenUnanswered: Bool)
        throws
    {
        self.init(
            operation: operation, body: Data(), recordName: recordName, resendsWhenUnanswered: resendsWhenUnanswered)
        do {
            body = try RecordJSONEncoder().encode(request)
        } catch {
            throw failure(.invalidRequest("The request cannot be written: \(error)"), attempts: 0)
        }
    }
}

extension HTTPURLResponse {
    /// The header fields as text.
    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in allHeaderFields {
            fields[String(describing: name)] = String(describing: value)
        }
        return fields
    }
}

extension String {
    /// The text without `suffix` at its end, once.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
