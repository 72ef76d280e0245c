import RecordCodable

/// A record as the store keeps it: the local version, where it stands with the server, and the
/// server's version when it differs.
///
/// ```swift
/// for conflict in try store.records(in: .conflict) {
///     print("mine:  ", conflict.record)
///     print("theirs:", conflict.serverRecord.map { "\($0)" } ?? "not fetched yet")
/// }
/// ```
public struct StoredRecord: Hashable, Sendable {
    /// The record's key.
    public var key: RecordKey

    /// The local version: what the app reads. For a local deletion, the last version before it.
    public var record: Record

    /// Where the record stands with the server.
    public var status: SyncStatus

    /// The server's version, as last known, when it is not ``record``.
    ///
    /// For a ``SyncStatus/pending`` edit of a record the server has, the version it was made
    /// from: the request sends only what changed since. For a ``SyncStatus/conflict``, the
    /// server's newer version — or `nil` until it is fetched (a conflict reported by a
    /// `records/modify` response does not carry it; ``RecordStore/conflictLookupRequests(maximumRecords:)``
    /// asks for it). A record the server deleted arrives with `metadata.deleted` set.
    public var serverRecord: Record?

    /// Whether the local change is a deletion: a ``SyncStatus/deletedLocally`` record, or a
    /// ``SyncStatus/conflict`` over a deletion.
    public var isDeletion: Bool

    /// What the server said the last time it refused to save this record, if it did.
    public var lastError: RecordServerError?

    /// A stored record, as the store lists it.
    public init(
        key: RecordKey, record: Record, status: SyncStatus, serverRecord: Record? = nil, isDeletion: Bool = false,
        lastError: RecordServerError? = nil
    ) {
        self.key = key
        self.record = record
        self.status = status
        self.serverRecord = serverRecord
        self.isDeletion = isDeletion
        self.lastError = lastError
    }
}
