import Foundation

/// The kinds of request the stand-in serves, by the end of their path.
public enum StandInOperation: String, Sendable, Hashable, CaseIterable {
    case modifyRecords = "records/modify"
    case lookupRecords = "records/lookup"
    case queryRecords = "records/query"
    case recordChanges = "records/changes"
    case zoneChanges = "changes/zone"
    case modifyZones = "zones/modify"
    case listZones = "zones/list"
}

/// A failure the stand-in plays instead of, or after, serving a request as CloudKit would.
public enum StandInFault: Sendable, Hashable {
    /// The request is carried out, and its answer thrown away: ``StandInDatabase/answer(_:)``
    /// throws ``StandInAnswerLost`` (an HTTP server drops the connection).
    case loseAnswer
    /// The whole request is refused, not carried out: HTTP 429, `THROTTLED`, with `retryAfter`
    /// in the body and a `Retry-After` header.
    case throttle(retryAfter: Double)
    /// A `records/modify` request is answered with every operation refused `THROTTLED` with
    /// `retryAfter`, none carried out (other requests: as ``throttle(retryAfter:)``).
    case throttleRecords(retryAfter: Double)
    /// The whole request is refused, not carried out: HTTP 503, `ZONE_BUSY`, with `retryAfter`.
    case zoneBusy(retryAfter: Double)
    /// The whole request is refused, not carried out, with this HTTP status (500, 503…) and the
    /// code CloudKit gives it.
    case httpStatus(Int)
}

/// Thrown by ``StandInDatabase/answer(_:)`` for a request carried out whose answer a
/// ``StandInFault/loseAnswer`` fault threw away.
public struct StandInAnswerLost: Error, Hashable, Sendable {
    /// The request's operation.
    public var operation: StandInOperation
}
