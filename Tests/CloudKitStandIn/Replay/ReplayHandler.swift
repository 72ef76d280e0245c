import Foundation
import RecordCodable

/// A handler that answers requests with recorded real traffic: a request that matches a
/// recording gets the recorded answer; one that does not gets a `400` that says how it differs.
///
/// A request matches a ``RecordedExchange`` when its path, without its query, ends with the
/// exchange's ``RecordedExchange/operation`` (such as `private/records/query`) and its body is
/// the same JSON as the recorded request's: the same values, whatever the order of keys or the
/// spacing. So a test that has the client send what a recording sent checks, through the `400`,
/// that the client's request is the one the real server was sent, and through the answer, that
/// the client reads what the real server answered:
///
/// ```swift
/// let replay = ReplayHandler(try RecordedTraffic.pairs())
/// let server = try LoopbackServer(handler: replay.handler)
/// ```
///
/// Each recorded exchange answers once, in the order given: a request recorded twice with two
/// answers gets the first, then the second. Sent more often than recorded, it gets a `400`.
///
/// A `400` is CloudKit's error body, with `serverErrorCode` `BAD_REQUEST` and a `reason` that
/// begins `Replay:` and names the recording and the first difference, for example
/// `Replay: the body differs from <name> at $.query.recordType: recorded "CPLAlbum", sent "CPLAsset"`.
public final class ReplayHandler: Sendable {
    private let exchanges: [RecordedExchange]
    // Each exchange's recorded request, parsed once; nil for one that is not JSON.
    private let recordedRequests: [JSONShape?]
    // Which exchanges have answered; the server's connection threads share it.
    private let answered = AnsweredSet()

    /// Creates a handler that answers with these exchanges.
    public init(_ exchanges: [RecordedExchange]) {
        self.exchanges = exchanges
        recordedRequests = exchanges.map { try? JSONShape.parse($0.requestBody) }
    }

    /// The handler, to give to ``LoopbackServer/init(limits:faults:handler:)``.
    public var handler: @Sendable (StandInRequest) async -> StandInResponse {
        { [self] request in answer(request) }
    }

    /// The names of the exchanges that answered, in the order they did.
    public var replayed: [String] { answered.order.map { exchanges[$0].name } }

    /// The recorded answer to `request`, or a `400` that says why there is none.
    public func answer(_ request: StandInRequest) -> StandInResponse {
        let route = String(request.path.split(separator: "?", maxSplits: 1).first ?? "")
        let sameOperation = exchanges.indices.filter { route.hasSuffix("/" + exchanges[$0].operation) }
        guard !sameOperation.isEmpty else {
            let known = Set(exchanges.map(\.operation)).sorted().joined(separator: ", ")
            return Self.mismatch("no recording is of the operation at \(route); the recordings are of \(known)")
        }
        let sent: JSONShape
        do {
            sent = try JSONShape.parse(request.body)
        } catch {
            return Self.mismatch("the request's body is not JSON: \(error)")
        }
        let matching = sameOperation.filter { recordedRequests[$0] == sent }
        guard !matching.isEmpty else {
            return Self.mismatch(closestDifference(sent, among: sameOperation))
        }
        guard let index = answered.claimFirst(of: matching) else {
            return Self.mismatch(
                "the request to \(route) was recorded \(matching.count) time(s), and each recorded answer was replayed")
        }
        let exchange = exchanges[index]
        return StandInResponse(
            status: exchange.status, headers: ["Content-Type": "application/json; charset=UTF-8"],
            body: exchange.responseBody)
    }

    /// The difference from the first recording of the operation not yet answered, which is the
    /// one the client was most likely meant to send.
    private func closestDifference(_ sent: JSONShape, among candidates: [Int]) -> String {
        let index = answered.firstUnclaimed(of: candidates) ?? candidates[0]
        let exchange = exchanges[index]
        guard let recorded = recordedRequests[index] else {
            return "the recording \(exchange.name) has a request body that is not JSON"
        }
        let difference = recorded.firstDifference(from: sent) ?? "in number formatting only"
        return "the body differs from \(exchange.name) \(difference)"
    }

    private static func mismatch(_ reason: String) -> StandInResponse {
        let body: [String: Any] = [
            "uuid": UUID().uuidString,
            "serverErrorCode": RecordServerError.Code.badRequest.rawValue,
            "reason": "Replay: \(reason)",
        ]
        let bytes = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        return StandInResponse(status: 400, body: bytes)
    }
}

/// The indices of the exchanges that have answered, in order, under a lock.
private final class AnsweredSet: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed: [Int] = []

    var order: [Int] { lock.withLock { claimed } }

    /// Marks the first of `candidates` not yet answered as answered, and returns it.
    func claimFirst(of candidates: [Int]) -> Int? {
        lock.withLock {
            guard let index = candidates.first(where: { !claimed.contains($0) }) else { return nil }
            claimed.append(index)
            return index
        }
    }

    func firstUnclaimed(of candidates: [Int]) -> Int? {
        lock.withLock { candidates.first { !claimed.contains($0) } }
    }
}
