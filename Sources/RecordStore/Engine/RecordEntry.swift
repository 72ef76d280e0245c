import Foundation
import RecordCodable

/// What the store keeps for one record: its local version, its sync state, and the server's
/// version when it differs.
struct RecordEntry {
    var key: RecordKey
    var status: SyncStatus
    /// Whether the local change is a deletion.
    var isDeletion: Bool
    var local: EncodedRecord
    var server: EncodedRecord?
    var lastError: RecordServerError?
    /// Whether a request has carried the record, so that the server may have it even though no
    /// version of the server's is known here: the response may never have come. Kept in the
    /// journal, unlike ``SyncStatus/sent``, so that deleting the record after a reopen still
    /// sends the delete.
    var wasOffered = false

    var state: RecordState {
        RecordState(status: status, isDeletion: isDeletion, hasServerVersion: server != nil, wasOffered: wasOffered)
    }

    /// The entry as the public API shows it.
    func stored() throws -> StoredRecord {
        StoredRecord(
            key: key, record: try local.decoded(as: key), status: status, serverRecord: try server?.decoded(as: key),
            isDeletion: isDeletion, lastError: lastError)
    }
}
