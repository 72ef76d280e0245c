import Foundation

/// What the loopback server does with one request, in place of answering it normally: a fault a
/// real network or a busy server has.
///
/// Each fault says whether the handler runs. Where it does, its effects stand even though the
/// client never reads the answer, as on a real server whose answer is lost on the way back: a
/// client that sends the request again must cope with a request that already took effect.
public enum LoopbackFault: Sendable, Hashable {
    /// Answer normally: the handler's answer, whole.
    case none
    /// Answer with this status and, when given, a `Retry-After` header of that many seconds, as a
    /// throttled (`429`) or unavailable (`503`) server does. The handler does not run: the server
    /// turned the request away. The body is CloudKit's error body, with the code the status
    /// stands for (`RecordServerError.Code(httpStatus:)`).
    case status(Int, retryAfter: Int? = nil)
    /// Close the connection without a byte of answer, after the handler ran (`handled: true`) or
    /// before (`handled: false`).
    case closeBeforeAnswer(handled: Bool)
    /// Run the handler, send the answer's headers and the first half of its body, then close:
    /// the client knows the answer is cut short, since fewer bytes arrive than the
    /// `Content-Length` it announced.
    case closeMidAnswer
    /// Run the handler, then wait this long before answering: a slow server. The wait ends early
    /// when the server stops.
    case delay(Duration)
    /// Close the connection with a TCP reset, after the handler ran (`handled: true`) or before.
    case reset(handled: Bool)
    /// Run the handler, then hold the answer until the test calls
    /// ``LoopbackServer/releaseHeldAnswers()``: a request applied and not answered, for as long
    /// as the test needs, however loaded the machine (``LoopbackServer/heldAnswers`` counts
    /// those held now). The hold ends too when the server stops, or after two minutes.
    case holdAnswer

    /// Whether the handler runs, and so whether the request takes effect.
    var runsHandler: Bool {
        switch self {
        case .none, .closeMidAnswer, .delay, .holdAnswer: true
        case .status: false
        case .closeBeforeAnswer(let handled), .reset(let handled): handled
        }
    }
}

/// The faults a test scripts for the loopback server: by the order in which requests arrive, or
/// by the path they reach. A request with no fault scripted is answered normally.
///
/// For example, to have the first `records/modify` request's answer lost after the server saved
/// the records, and the third request of all throttled:
///
/// ```swift
/// server.faults.inject(.closeMidAnswer, onPath: "records/modify")
/// server.faults.inject(.status(503, retryAfter: 1), atRequest: 3)
/// ```
///
/// A fault by order wins over one by path. Each fault by path serves once, the oldest first; a
/// fault by order serves the one request it names. The plan is safe to change while the server
/// runs.
public final class LoopbackFaultPlan: @unchecked Sendable {
    // Guards both tables; the server's connection threads read them, a test writes them.
    private let lock = NSLock()
    private var byOrder: [Int: LoopbackFault] = [:]
    private var byPath: [(pathSuffix: String, fault: LoopbackFault)] = []

    /// Creates a plan with no faults.
    public init() {}

    /// Makes the `number`th request the server reads (counting from 1) meet `fault`.
    public func inject(_ fault: LoopbackFault, atRequest number: Int) {
        lock.withLock { byOrder[number] = fault }
    }

    /// Makes the next `times` requests whose path, without its query, ends with `pathSuffix`
    /// (such as `records/modify`) meet `fault`.
    public func inject(_ fault: LoopbackFault, onPath pathSuffix: String, times: Int = 1) {
        lock.withLock {
            for _ in 0..<max(times, 0) { byPath.append((pathSuffix, fault)) }
        }
    }

    /// Removes every fault not yet served.
    public func removeAll() {
        lock.withLock {
            byOrder = [:]
            byPath = []
        }
    }

    /// The fault for the `number`th request, to `path`, using up a fault by path that it serves.
    func fault(forRequest number: Int, path: String) -> LoopbackFault {
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return lock.withLock {
            if let fault = byOrder.removeValue(forKey: number) { return fault }
            guard let index = byPath.firstIndex(where: { route.hasSuffix($0.pathSuffix) }) else { return .none }
            return byPath.remove(at: index).fault
        }
    }
}
