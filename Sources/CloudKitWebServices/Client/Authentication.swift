import Foundation
import RecordCodable

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A database's credentials and the web auth token that changes with each answer.
///
/// The one piece of state a ``CloudKitDatabase`` shares between its copies and its concurrent
/// calls: the lock guards ``webAuthToken``, which each answer may replace. A web auth token is
/// good for one request, so while one is in use the exchanges go one at a time (``oneAtATime``):
/// each sends the token the answer before it handed out.
final class Authentication: @unchecked Sendable {
    /// The header in which the server hands out the next web auth token.
    static let webAuthTokenHeader = "X-Apple-CloudKit-Web-Auth-Token"

    let credentials: CloudKitCredentials
    private let lock = NSLock()
    private var currentWebAuthToken: String?
    /// Orders the exchanges that send a web auth token; `nil` for other credentials.
    private let gate: ExchangeGate?

    init(_ credentials: CloudKitCredentials) {
        self.credentials = credentials
        if case .apiToken(_, let webAuthToken?) = credentials {
            currentWebAuthToken = webAuthToken
            gate = ExchangeGate()
        } else {
            gate = nil
        }
    }

    /// Runs one exchange — the request built, sent and its answer's token kept — alone when a
    /// web auth token is in use, else at once.
    ///
    /// - Throws: What `exchange` throws; `CancellationError`, sending nothing, when the task is
    ///   cancelled while it waits for its turn.
    func oneAtATime<Result: Sendable>(_ exchange: () async throws -> Result) async throws -> Result {
        guard let gate else { return try await exchange() }
        try await gate.enter()
        do {
            let result = try await exchange()
            await gate.leave()
            return result
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// The web auth token the next request sends.
    var webAuthToken: String? {
        lock.withLock { currentWebAuthToken }
    }

    /// Keeps the web auth token of an answer, when it has one and the credentials use one.
    func remember(_ response: HTTPURLResponse) {
        guard case .apiToken = credentials,
            let token = response.value(forHTTPHeaderField: Self.webAuthTokenHeader), !token.isEmpty
        else { return }
        lock.withLock { currentWebAuthToken = token }
    }

    /// Authenticates `request`, whose URL path from `/database/` on is `subpath`.
    ///
    /// An API token goes in the query (`ckAPIToken`, then `ckWebAuthToken`); a server-to-server
    /// key signs the message of `ServerToServerMessage` and adds its three headers.
    func authenticate(_ request: inout URLRequest, subpath: String, body: Data) async throws {
        switch credentials {
        case .apiToken(let token, _):
            var parameters = [("ckAPIToken", token)]
            if let webAuthToken { parameters.append(("ckWebAuthToken", webAuthToken)) }
            let query = parameters.map { name, value in
                "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .queryValue) ?? value)"
            }
            guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            else { return }
            components.percentEncodedQuery = query.joined(separator: "&")
            request.url = components.url ?? url
        case .serverToServer(let keyID, let sign):
            let message = ServerToServerMessage(body: body, subpath: subpath)
            let signature = try await sign(message.data)
            for (name, value) in message.headers(keyID: keyID, signature: signature.base64EncodedString()) {
                request.setValue(value, forHTTPHeaderField: name)
            }
        }
    }
}

/// Lets one exchange in at a time, the others waiting in the order they came. A waiter whose
/// task is cancelled leaves the line at once: it does not wait for the exchange in, which may
/// take as long as its transport lets it.
private actor ExchangeGate {
    /// Whether an exchange is in: the one that entered, or the waiter `leave()` let in.
    private var busy = false
    /// The exchanges waiting, first come first, each with its ticket.
    private var waiting: [(ticket: Int, turn: CheckedContinuation<Void, any Error>)] = []
    /// The last ticket given to a waiter.
    private var lastTicket = 0

    /// Waits until no other exchange is in.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    func enter() async throws {
        guard busy else {
            busy = true
            return
        }
        lastTicket &+= 1
        let ticket = lastTicket
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiting.append((ticket, $0)) }
        } onCancel: {
            // Runs on the actor after the waiter is in line, whenever the task was cancelled.
            Task { await self.withdraw(ticket) }
        }
    }

    /// Lets the next waiting exchange in, or opens the gate.
    func leave() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().turn.resume()
        }
    }

    /// Takes a cancelled waiter out of the line, if it is still in it.
    private func withdraw(_ ticket: Int) {
        guard let index = waiting.firstIndex(where: { $0.ticket == ticket }) else { return }
        waiting.remove(at: index).turn.resume(throwing: CancellationError())
    }
}
