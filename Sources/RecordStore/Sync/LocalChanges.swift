import Foundation
import RecordCodable

/// What a local save or delete does to a record's sync state.
///
/// The rule behind both: the store keeps the last version the server is known to have
/// (``RecordEntry/server``) for as long as the local version differs from it, because the
/// request that sends the edit is the difference between the two, and carries that version's
/// change tag.
enum LocalChanges {
    /// The entry of `record`, saved over `existing`.
    ///
    /// - A new record, or one kept on the device only, is ``SyncStatus/pending`` (or stays
    ///   ``SyncStatus/localOnly`` when `localOnly`). A record that syncs is never made local-only
    ///   by a save: `localOnly` applies to records the server does not have.
    /// - An edit of a synced record is pending, and keeps the synced version as the server's.
    /// - An edit of a pending, sent or deleted record is pending, with the same server version.
    /// - An edit of a record in conflict resolves the conflict once the server's version is
    ///   known: the edit is pending, made from that version. Before it is known, the record
    ///   stays in conflict with the edit as its local version.
    ///
    /// - Parameters:
    ///   - state: Where the record it replaces stands, if there is one.
    ///   - existing: Reads the entry it replaces — called only when the rule needs the server's
    ///     version, so that saving over a record that has none reads nothing.
    static func saving(
        _ record: EncodedRecord, key: RecordKey, over state: RecordState?, localOnly: Bool,
        existing: () throws -> RecordEntry?
    ) throws -> RecordEntry {
        var entry = RecordEntry(
            key: key, status: localOnly ? .localOnly : .pending, isDeletion: false, local: record, server: nil,
            lastError: nil)
        guard let state, state.status != .localOnly else { return entry }
        // A record that syncs keeps syncing, even saved by a view that does not: left behind on
        // the server, its next fetch would overwrite the local value.
        entry.status = .pending
        entry.wasOffered = state.wasOffered
        switch state.status {
        case .localOnly, .pending, .sent, .deletedLocally:
            if state.hasServerVersion { entry.server = try existing()?.server }
        case .synced:
            entry.server = try existing()?.local
        case .conflict:
            guard let existing = try existing() else { return entry }
            guard let server = existing.server else {
                entry.status = .conflict
                entry.lastError = existing.lastError
                return entry
            }
            guard try server.isDeletionMarker(as: entry.key) else {
                entry.server = server
                return entry
            }
            // The server deleted the record: the edit makes it again, as a new record, without the
            // change tag of the version it was made from.
            entry.local = try EncodedRecord(record.decoded(as: entry.key).withoutChangeTag())
            entry.wasOffered = false
        }
        return entry
    }

    /// The entry of the record `existing` once deleted locally, or `nil` when nothing is left
    /// to tell the server: a record it never had is simply removed. A record a request carried
    /// may be on the server even when its response never came (the app was stopped, the store
    /// reopened): its delete is sent all the same, and the server's `NOT_FOUND` for it removes it.
    ///
    /// Deleting a record in conflict resolves the conflict, as saving one does, once the server's
    /// version is known: the delete goes with that version's change tag, or, when the server
    /// deleted the record too, nothing is left to send.
    static func deleting(_ existing: RecordEntry) throws -> RecordEntry? {
        var entry = existing
        entry.isDeletion = true
        entry.lastError = nil
        switch existing.status {
        case .localOnly:
            return nil
        case .pending:
            // Never fetched and never in a request: the server has never heard of it.
            guard existing.state.mayBeOnServer else { return nil }
            entry.status = .deletedLocally
        case .sent:
            // Its save may have reached the server: the delete goes too.
            entry.status = .deletedLocally
        case .synced:
            entry.status = .deletedLocally
            entry.server = existing.local
        case .deletedLocally:
            return existing
        case .conflict:
            guard let server = existing.server else { break }
            if try server.isDeletionMarker(as: existing.key) { return nil }
            entry.status = .deletedLocally
        }
        return entry
    }
}
