import CloudKitStandIn
import CloudKitWebServices
import Foundation
import RecordCodable

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport in the process: it records each request it is given and answers from a script,
/// one step a request, in order. A request past the script is answered 500, so that a test
/// sees it in ``requests`` and fails on the count.
final class ScriptedTransport: CloudKitTransport, @unchecked Sendable {
    /// One request's fate.
    enum Step: Sendable {
        /// The server's answer.
        case answer(StandInResponse)
        /// No answer: the connection failed after the request left.
        case noAnswer
        /// The server's answer, after a short wait that lets other calls start meanwhile.
        case slowAnswer(StandInResponse)
        /// An answer that takes until the task is cancelled.
        case hang
    }

    private let lock = NSLock()
    private var steps: [Step]
    private var sent: [StandInRequest] = []

    init(_ steps: [Step]) {
        self.steps = steps
    }

    /// The requests sent so far, as the server would read them.
    var requests: [StandInRequest] { lock.withLock { sent } }

    /// The steps not used.
    var unusedSteps: Int { lock.withLock { steps.count } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let seen = StandInRequest(
            method: request.httpMethod ?? "GET",
            path: request.url.map { url in url.path + (url.query.map { "?" + $0 } ?? "") } ?? "",
            headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody ?? Data())
        let step = lock.withLock { () -> Step? in
            sent.append(seen)
            return steps.isEmpty ? nil : steps.removeFirst()
        }
        switch step {
        case .answer(let answer)?:
            guard let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)
            else { throw URLError(.badURL) }
            return (answer.body, response)
        case .slowAnswer(let answer)?:
            try await Task.sleep(for: .milliseconds(20))
            guard let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)
            else { throw URLError(.badURL) }
            return (answer.body, response)
        case .noAnswer?:
            throw URLError(.networkConnectionLost)
        case .hang?:
            try await Task.sleep(for: .seconds(3600))
            throw URLError(.timedOut)
        case nil:
            guard let url = request.url,
                let response = HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: [:])
            else { throw URLError(.badURL) }
            return (Data(#"{"serverErrorCode":"INTERNAL_ERROR","reason":"unscripted request"}"#.utf8), response)
        }
    }
}

extension ScriptedTransport.Step {
    /// A success with a JSON body.
    static func ok(_ json: String, headers: [String: String] = [:]) -> Self {
        .answer(StandInResponse(status: 200, headers: headers, body: Data(json.utf8)))
    }

    /// A failure status with a JSON body.
    static func status(_ status: Int, _ json: String, headers: [String: String] = [:]) -> Self {
        .answer(StandInResponse(status: status, headers: headers, body: Data(json.utf8)))
    }
}

/// The waits a retry policy asked for, recorded instead of waited.
final class RecordedSleeps: @unchecked Sendable {
    private let lock = NSLock()
    private var durations: [Duration] = []

    var all: [Duration] { lock.withLock { durations } }

    /// A policy that records its waits and takes no jitter's share at random: `random` is fixed.
    func policy(maximumRetries: Int = 5, random: Double = 0) -> CloudKitRetryPolicy {
        CloudKitRetryPolicy(
            maximumRetries: maximumRetries,
            sleep: { [self] duration in lock.withLock { durations.append(duration) } },
            random: { random })
    }
}

/// A client of the public database of a test container at a test address.
func testDatabase(
    _ transport: ScriptedTransport,
    credentials: CloudKitCredentials = .apiToken("API-TOKEN"),
    scope: CloudKitDatabaseScope = .public,
    policy: CloudKitRetryPolicy
) -> CloudKitDatabase {
    CloudKitDatabase(
        container: "iCloud.com.example.Notes", environment: .development, scope: scope, credentials: credentials,
        transport: transport, serverURL: URL(string: "https://ck.test") ?? URL(fileURLWithPath: "/"),
        retryPolicy: policy)
}

/// The path every test request starts with.
let databasePath = "/database/1/iCloud.com.example.Notes/development/public"

/// The JSON of a record of type Note with a title.
func noteJSON(_ name: String, title: String, tag: String = "t1") -> String {
    #"{"recordName":"\#(name)","recordType":"Note","fields":{"title":{"value":"\#(title)","type":"STRING"}},"recordChangeTag":"\#(tag)"}"#
}

/// A Note record with a title.
func noteRecord(_ name: String, title: String) -> Record {
    Record(recordType: "Note", recordName: name, fields: ["title": .string(title)])
}

/// The JSON of a record's refusal.
func refusalJSON(_ name: String, _ code: String, retryAfter: Double? = nil) -> String {
    let delay = retryAfter.map { #","retryAfter":\#($0)"# } ?? ""
    return #"{"recordName":"\#(name)","serverErrorCode":"\#(code)","reason":"because"\#(delay)}"#
}

/// A request body as JSON objects, for checking what was sent.
func jsonObject(_ body: Data) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
}

/// The record names of a records-modify body's operations, in order.
func operationNames(_ body: Data) -> [String] {
    let operations = jsonObject(body)["operations"] as? [[String: Any]] ?? []
    return operations.compactMap { ($0["record"] as? [String: Any])?["recordName"] as? String }
}

/// A model saved as a Note record.
struct Note: Codable, Equatable, Sendable {
    var id: String
    var title: String
}
