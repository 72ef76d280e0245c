/// Where a stored record stands with the server: what the store owes it.
///
/// Every record in a store has one, which ``RecordStore/records(in:)`` lists by (GarageStorage's
/// "retrieve by sync status"):
///
/// ```swift
/// let unsent = try store.records(in: .pending)
/// let conflicts = try store.records(in: .conflict)
/// ```
///
/// A record saved locally is ``pending``; ``RecordStore/modifyRequests(maximumOperations:)`` puts it in a request
/// and marks it ``sent``; the response, applied with ``RecordStore/apply(_:for:)``, makes it
/// ``synced`` (or ``conflict``, or ``pending`` again when the server asks for a retry). A record
/// fetched from the server is ``synced`` from the start.
public enum SyncStatus: String, Hashable, Sendable, CaseIterable {
    /// Kept on this device and never sent: the key-value view's entries, unless it syncs.
    case localOnly
    /// Saved locally and not sent yet.
    case pending
    /// In a request that ``RecordStore/modifyRequests(maximumOperations:)`` built, whose response is not applied
    /// yet.
    ///
    /// The store remembers this only while it is open: after a crash or a reopen the record is
    /// ``pending`` again, and the next request sends it again — the safe answer to a request
    /// whose response never came. It does remember that a request carried the record, so that
    /// deleting it then still sends a delete: the first request may have reached the server.
    case sent
    /// The server has the record as it is here, with the change tag in its metadata.
    case synced
    /// Deleted locally; the server keeps it until the delete is sent. Reading the record gives
    /// `nil` meanwhile.
    case deletedLocally
    /// The server's record changed since the local edit was made from it: both are kept,
    /// ``StoredRecord/record`` and ``StoredRecord/serverRecord``, for the app to resolve.
    case conflict

    /// Whether the store owes the server the record's change: it is to be sent, or its
    /// request's answer is awaited.
    var isOwed: Bool { self == .pending || self == .sent || self == .deletedLocally }

    /// The status's code in the journal, which renaming a case must not change.
    var code: UInt8 {
        switch self {
        case .localOnly: 0
        case .pending, .sent: 1
        case .synced: 2
        case .deletedLocally: 3
        case .conflict: 4
        }
    }

    /// The status of a code in the journal.
    init?(code: UInt8) {
        switch code {
        case 0: self = .localOnly
        case 1: self = .pending
        case 2: self = .synced
        case 3: self = .deletedLocally
        case 4: self = .conflict
        default: return nil
        }
    }
}
