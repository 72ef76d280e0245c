import Foundation
import RecordCodable

/// What one ``RecordStore/sync(with:options:)`` did: the records it sent and what became of them,
/// the changes it fetched, the conflicts, and what is left.
///
/// Keys are listed in the order the sync met them. A record sent in two requests of the same sync
/// (refused for now, then sent again) is listed in ``sent`` twice.
public struct SyncReport: Hashable, Sendable {
    /// A record of each operation sent in a `records/modify` request.
    public var sent: [RecordKey] = []
    /// The records the server saved: synced now.
    public var saved: [RecordKey] = []
    /// The records whose deletion the server confirmed: gone from the store.
    public var deleted: [RecordKey] = []
    /// The records fetched from the server, changed there (another device's edits, or the
    /// server's copy of the store's own).
    public var fetched: [RecordKey] = []
    /// The records the server said were deleted, fetched with a zone's changes. The server leaves
    /// the type out of a deletion: such a key's ``RecordKey/recordType`` is empty.
    public var fetchedDeletions: [RecordKey] = []
    /// The conflicts the sync's ``RecordStore/ConflictPolicy`` resolved.
    public var conflictsResolved: [RecordKey] = []
    /// The records in conflict when the sync ended, both versions kept: resolve them as
    /// "Resolve conflicts" in <doc:TheSyncCycle> shows, or sync with a policy.
    public var conflictsLeft: [RecordKey] = []
    /// The records the server refused when the sync ended, with its error: each is owed still,
    /// sent again by the next sync. A retryable error (`RecordServerError.isRetryable`) will
    /// likely pass then; another says what to fix.
    public var failures: [RecordKey: RecordServerError] = [:]
    /// The zones the sync could not create, or whose changes it could not fetch, by name, with
    /// the server's error (`ZONE_NOT_FOUND`: the zone was deleted on the server).
    public var zoneFailures: [String: RecordServerError] = [:]
    /// The zones the sync asked the server to create, by name.
    public var zonesCreated: [String] = []
    /// The pages of zone changes fetched.
    public var pagesFetched = 0
    /// The requests sent to the service: modify, lookup, changes and zones requests.
    public var requests = 0
    /// The rounds of sending, fetching and resolving the sync ran (see
    /// ``RecordStore/SyncOptions/maximumRounds``).
    public var rounds = 0
    /// The records still owed to the server when the sync ended: those in ``failures``, and any
    /// left when the sync reached its bound of rounds. Empty after a sync that sent everything.
    public var owed: [RecordKey] = []

    /// Whether the sync left nothing to send and no conflict: the store and the server agree.
    public var isComplete: Bool { owed.isEmpty && conflictsLeft.isEmpty }

    /// An empty report: nothing done yet.
    public init() {}
}
