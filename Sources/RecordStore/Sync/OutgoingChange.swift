import Foundation
import RecordCodable

/// What the server is sent for a record the store owes it.
///
/// - A local deletion is a `delete` with the change tag of the server's version (a
///   `forceDelete` when none is known).
/// - An edit of a record the server has is an `update` of what changed since the server's
///   version, with its change tag; an edit that changed nothing after all is not sent, and the
///   record is synced again — unless a request still out may have changed the server's version
///   (the app edited the record, sent it, and changed it back): then the whole local version goes,
///   with the change tag it was made from, for the server to refuse if that request reached it.
/// - A record the server never had is a `create` (an `update`, when it carries a change tag).
enum OutgoingChange {
    /// The operation that sends the change, and the zone the record names, if it names one.
    case operation(RecordOperation, zoneID: RecordZoneID?)
    /// Nothing to send: the record's entry, synced.
    case unchanged(RecordEntry)

    /// - Parameters:
    ///   - entry: The record's entry, owed to the server.
    ///   - mayHaveChangedServer: Whether a request that carried the record is still unanswered.
    init(of entry: RecordEntry, mayHaveChangedServer: Bool) throws {
        let server = try entry.server?.decoded(as: entry.key)
        if entry.isDeletion {
            // Only the change tag is needed: the server's version's when it has one, so that a
            // local version that does not read (damage) does not stop its deletion.
            let local = server?.metadata?.changeTag == nil ? try entry.local.decoded(as: entry.key) : nil
            self = .operation(
                RecordOperation(
                    deleting: entry.key.recordName, recordType: entry.key.recordType,
                    changeTag: server?.metadata?.changeTag ?? local?.metadata?.changeTag),
                zoneID: (server ?? local)?.metadata?.zoneID)
            return
        }
        let local = try entry.local.decoded(as: entry.key)
        let zoneID = (server ?? local).metadata?.zoneID
        if let server {
            let update = try server.update(to: local)
            guard update.isEmptyUpdate else {
                self = .operation(RecordOperation(saving: update), zoneID: zoneID)
                return
            }
            guard !mayHaveChangedServer else {
                self = .operation(RecordOperation(saving: local.withServerMetadata(of: server)), zoneID: zoneID)
                return
            }
            var synced = entry
            synced.status = .synced
            synced.local = try EncodedRecord(local.withServerMetadata(of: server))
            synced.server = nil
            self = .unchanged(synced)
        } else {
            self = .operation(RecordOperation(saving: local), zoneID: zoneID)
        }
    }

    /// `operations`, in requests of at most `maximumOperations` each.
    static func requests(
        of operations: [RecordOperation], zoneID: RecordZoneID, maximumOperations: Int
    ) -> [RecordsModifyRequest] {
        let size = max(maximumOperations, 1)
        return stride(from: 0, to: operations.count, by: size).map { start in
            RecordsModifyRequest(
                operations: Array(operations[start..<min(start + size, operations.count)]), zoneID: zoneID)
        }
    }
}
