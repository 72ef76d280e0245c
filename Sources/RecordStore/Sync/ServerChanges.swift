import Foundation
import RecordCodable

/// What the server's answers do to a record's sync state: the response to a `records/modify`
/// request the store built, and records fetched from the server.
///
/// Each rule takes the record's entry and returns its next one, or `nil` when the record is
/// gone; the store commits the results of a whole response at once.
enum ServerChanges {
    /// What becomes of a record.
    enum Outcome {
        case keep
        case replace(RecordEntry)
        case remove
    }

    /// What the server answered to one operation of a `records/modify` request.
    enum Answer {
        /// It saved the record, giving it this change tag.
        case saved(changeTag: String?)
        /// It deleted the record, or found it deleted.
        case deleted
        /// It refused the operation.
        case refused(RecordServerError)
        /// It said nothing of the record, or nothing the package can read.
        case none
    }

    /// What an answer leaves a record as, in the words of the store's statuses: what the
    /// outcome of applying a response reports, so that it says what ``RecordStore/records(in:)``
    /// shows.
    enum Effect: Equatable {
        /// Synced, as the server saved it.
        case saved
        /// The server did what the request asked, but the record changed since (or went out
        /// again): still owed, pending or sent, as a change of what the server now has.
        case superseded
        /// Gone.
        case deleted
        /// In conflict.
        case conflict
        /// Owed again, with the server's error.
        case failed(RecordServerError)
        /// Owed again: the answer said nothing of it.
        case unanswered
        /// Unchanged: the answer is for a version the store has moved past.
        case stale
    }

    /// What `change`, made by `answer` to the record whose entry was `entry`, leaves it as.
    static func effect(of change: Outcome, over entry: RecordEntry, answer: Answer) throws -> Effect {
        switch change {
        case .remove:
            return .deleted
        case .replace(let next):
            switch (next.status, answer) {
            case (.synced, _): return .saved
            case (.conflict, _): return .conflict
            case (.localOnly, _): return .stale
            case (_, .refused(let error)): return .failed(error)
            case (_, .none): return .unanswered
            case (_, .saved), (_, .deleted): return .superseded
            }
        case .keep:
            // Nothing changed: an answer applied again says what it said the first time, while
            // the store still shows it; any other is stale.
            switch answer {
            case .saved(let tag?):
                if entry.status == .synced, try entry.local.decoded(as: entry.key).metadata?.changeTag == tag {
                    return .saved
                }
                if entry.status.isOwed, try entry.server?.decoded(as: entry.key).metadata?.changeTag == tag {
                    return .superseded
                }
                return .stale
            case .none:
                return entry.status == .pending || entry.status == .deletedLocally ? .unanswered : .stale
            case .saved(nil), .deleted, .refused:
                return .stale
            }
        }
    }

    // MARK: The response to a save or a delete

    /// The record's entry once the server saved, as `saved`, the operation's record `operation`,
    /// sent as `operationType`.
    ///
    /// `latest` is the whole local version that `operation` sent, when it is the last request
    /// that carried the record: unchanged since, the record is synced. Otherwise the version the
    /// server now has is worked out from the operation — a create's record, or an update applied
    /// to the version it was made from — and becomes the server's version, which the next request
    /// updates; when neither can tell it, the record is in conflict, for the app to look the
    /// server's version up.
    ///
    /// A record whose local version is what the server now has, and that no other request is
    /// out for (`requestOut`), is synced at once: an answer applied after a reopening, or to a
    /// request sent again since, leaves nothing owed.
    static func saved(
        _ saved: Record, by operation: Record, sentAs operationType: RecordOperation.OperationType,
        latest: EncodedRecord?, requestOut: Bool, entry: RecordEntry
    ) throws -> Outcome {
        guard entry.status.isOwed else { return .keep }
        let server = try entry.server?.decoded(as: entry.key)
        // Applied already: the store knows the version the answer gives.
        if let tag = saved.metadata?.changeTag, tag == server?.metadata?.changeTag { return .keep }
        var next = entry
        next.lastError = nil
        if let latest, entry.status == .sent {
            next.status = .synced
            next.local = try EncodedRecord(latest.decoded(as: entry.key).withServerMetadata(of: saved))
            next.server = nil
        } else if let confirmed = try latest?.decoded(as: entry.key)
            ?? savedVersion(of: operation, sentAs: operationType, over: server)
        {
            let onServer = confirmed.withServerMetadata(of: saved)
            let local = try entry.local.decoded(as: entry.key)
            if !requestOut, !entry.isDeletion, try onServer.update(to: local).isEmptyUpdate {
                next.status = .synced
                next.local = try EncodedRecord(local.withServerMetadata(of: saved))
                next.server = nil
            } else {
                next.server = try EncodedRecord(onServer)
            }
        } else {
            next.status = .conflict
            next.server = nil
        }
        return .replace(next)
    }

    /// The whole record the server has after it saved `operation`: a create's record itself, or
    /// an update applied to `server`, the version it was made from (the same change tag, or none
    /// for both, when the server's version came without one); `nil` when the store no longer knows
    /// that version.
    static func savedVersion(
        of operation: Record, sentAs operationType: RecordOperation.OperationType, over server: Record?
    ) -> Record? {
        guard operationType == .update || operationType == .forceUpdate else { return operation }
        guard let server, server.metadata?.changeTag == operation.metadata?.changeTag else { return nil }
        return server.applying(operation)
    }

    /// The record's entry once the server deleted it (or found it already deleted).
    static func deleted(entry: RecordEntry) throws -> Outcome {
        guard !entry.isDeletion else { return .remove }
        // In conflict with a version of the server's other than a deletion: the answer is older
        // than that version, which the app has to decide on.
        if entry.status == .conflict, let server = entry.server, try !server.isDeletionMarker(as: entry.key) {
            return .keep
        }
        // Saved again since the delete was sent: a new record for the server.
        var next = entry
        next.server = nil
        next.wasOffered = false
        next.local = try EncodedRecord(entry.local.decoded(as: entry.key).withoutChangeTag())
        // Owed to the server again, even when it was marked synced since (saved back as it was
        // while the delete was out), or put in conflict with this very deletion, fetched before
        // its answer came: the server has no record of it now.
        next.status = .pending
        return .replace(next)
    }

    /// The record's entry once the server refused the operation with `error`.
    ///
    /// A conflict — `CONFLICT` or `SERVER_RECORD_CHANGED` for an update or a delete, `EXISTS` for a
    /// create — says the server has a version the request was not made from: perhaps the one an
    /// earlier request of the store's own sent, whose answer was lost. The record is in conflict,
    /// for that version to be looked up (see ``fetched(_:key:existing:sent:refused:)``).
    static func refused(with error: RecordServerError, entry: RecordEntry) -> Outcome {
        // A record that is not owed to the server has moved on since the request: the answer is
        // to an older request, or applied twice.
        guard entry.status.isOwed else { return .keep }
        var next = entry
        next.lastError = error
        if isConflict(error) {
            // The server's version changed: it is fetched next (see conflictLookupRequests(maximumRecords:)).
            next.status = .conflict
            next.server = nil
        } else if entry.status == .sent {
            next.status = .pending
        }
        return .replace(next)
    }

    /// The record's entry once the server answered an update `NOT_FOUND`: it deleted the record
    /// since the version the update was made from. As when the deletion is fetched
    /// (``deletedOnServer(_:existing:)``), an edit is in conflict with it, for the app to decide:
    /// saved again, the record is created anew; deleted, or the server's version accepted, it is
    /// gone. A record deleted here since is gone at once.
    ///
    /// Only an answer to an update of the version the store still takes for the server's — the
    /// same change tag, or, when it knows no server version, the tag the record was saved with —
    /// says so: an answer that comes late, or twice, after the record was made anew or fetched
    /// again, says nothing of the version the server has now.
    static func notFound(_ error: RecordServerError, for operation: Record, entry: RecordEntry) throws -> Outcome {
        guard entry.status.isOwed,
            let tag = operation.metadata?.changeTag,
            try (entry.serverVersion ?? entry.local).decoded(as: entry.key).metadata?.changeTag == tag
        else { return .keep }
        // As a fetched deletion does, with the error that told it.
        let change = try deletedOnServer(Record.deletionMarker(for: entry.key), existing: entry)
        guard case .replace(var next) = change else { return change }
        next.lastError = error
        return .replace(next)
    }

    /// Whether `error` says the server has another version of the record than the request was
    /// made from: a conflict, or a create of a record that exists.
    static func isConflict(_ error: RecordServerError) -> Bool {
        error.isConflict || error.serverErrorCode == .exists
    }

    /// The record's entry when the response says nothing of it: sent again next time — when the
    /// response answers the last request that carried it (`isLatest`); while a later request is
    /// out, that one's answer tells.
    static func unanswered(entry: RecordEntry, isLatest: Bool) -> Outcome {
        guard entry.status == .sent, isLatest else { return .keep }
        var next = entry
        next.status = .pending
        return .replace(next)
    }

    // MARK: Records fetched from the server

    /// The entry of `key` once `fetched` arrived from the server (a query, a lookup, a page of
    /// changes), over `existing`.
    ///
    /// A record the app has not changed takes the server's version. A record it changed keeps
    /// its local version: when the server's differs from the one the change was made from, the
    /// two are in conflict, kept side by side — unless it is what the last request that carried
    /// the record sent, `sent`: the app's own update, fetched before its answer came, which the
    /// edit made since updates.
    ///
    /// A record that a conflict answer put in conflict (``refused(with:entry:)``), whose server
    /// version is not known yet, is no conflict when the server's version is what its own
    /// requests sent: `refused`, the version the refused request sent — an earlier request sent
    /// it too, and its answer was lost — or `sent`, a later request's, which the server took.
    /// The record is synced when its local version is that one, else owed as a change of it.
    static func fetched(
        _ fetched: Record, key: RecordKey, existing: RecordEntry?, sent: EncodedRecord? = nil,
        refused: EncodedRecord? = nil
    ) throws -> Outcome {
        guard let existing else {
            return .replace(
                RecordEntry(
                    key: key, status: .synced, isDeletion: false, local: try EncodedRecord(fetched), server: nil,
                    lastError: nil))
        }
        switch existing.status {
        case .localOnly, .synced:
            let local =
                try existing.local.facts.assetFiles.isEmpty
                ? fetched : fetched.keepingLocalFiles(of: existing.local.decoded(as: existing.key))
            var next = existing
            next.status = .synced
            next.local = try EncodedRecord(local)
            next.server = nil
            next.lastError = nil
            return .replace(next)
        case .pending, .sent, .deletedLocally, .conflict:
            let server = try existing.server?.decoded(as: existing.key)
            if let tag = fetched.metadata?.changeTag, tag == server?.metadata?.changeTag {
                // The version the store knows already.
                return .keep
            }
            let local = try existing.local.decoded(as: existing.key)
            var next = existing
            if try fetched.update(to: local).isEmptyUpdate {
                // The server has what the app has, or had when the app deleted it: nothing is in
                // conflict, and a delete goes with the fetched version's change tag.
                next.status = existing.isDeletion ? .deletedLocally : .synced
                next.local = try EncodedRecord(local.withServerMetadata(of: fetched))
                next.server = existing.isDeletion ? try EncodedRecord(fetched) : nil
                next.lastError = nil
            } else if existing.status != .conflict, let sent,
                try fetched.update(to: sent.decoded(as: existing.key)).isEmptyUpdate
            {
                next.server = try EncodedRecord(fetched)
                next.lastError = nil
            } else if existing.status == .conflict, existing.server == nil,
                try [refused, sent].contains(where: { own in
                    try own.map { try fetched.update(to: $0.decoded(as: existing.key)).isEmptyUpdate } ?? false
                })
            {
                next.status = existing.isDeletion ? .deletedLocally : .pending
                next.server = try EncodedRecord(fetched)
                next.lastError = nil
            } else {
                next.status = .conflict
                next.server = try EncodedRecord(fetched)
            }
            return .replace(next)
        }
    }

    /// The entry once a lookup of the record is answered `NOT_FOUND`: for a record in conflict
    /// whose server version is not known yet — the lookup
    /// ``RecordStore/conflictLookupRequests(maximumRecords:)`` makes — the server's deletion is that
    /// version. Any other record is left alone: a lookup the store did not ask for says nothing
    /// of what it has since.
    static func notFoundInLookup(existing: RecordEntry) throws -> Outcome {
        guard existing.status == .conflict, existing.server == nil else { return .keep }
        return try deletedOnServer(Record.deletionMarker(for: existing.key), existing: existing)
    }

    /// The entry once the server says the record is deleted: `marker` is the server's record
    /// of the deletion.
    static func deletedOnServer(_ marker: Record, existing: RecordEntry) throws -> Outcome {
        // Deleted on both sides: nothing is left to decide.
        if existing.isDeletion { return .remove }
        switch existing.status {
        case .localOnly, .synced, .deletedLocally:
            return .remove
        case .pending, .sent, .conflict:
            // Changed here, deleted there: the app decides.
            var next = existing
            next.status = .conflict
            next.server = try EncodedRecord(marker)
            return .replace(next)
        }
    }
}

extension Record {
    /// The server's deletion of the record of `key`, as the store keeps it when the server said
    /// `NOT_FOUND` rather than sending a deletion.
    static func deletionMarker(for key: RecordKey) -> Record {
        var marker = Record(recordType: key.recordType, recordName: key.recordName)
        marker.metadata = RecordMetadata(deleted: true)
        return marker
    }

    /// This record with the metadata of `server`'s version: the change tag and dates the
    /// server gave it, in this record's zone when the server names none.
    func withServerMetadata(of server: Record) -> Record {
        var record = self
        var metadata = server.metadata ?? RecordMetadata()
        if metadata.zoneID == nil { metadata.zoneID = self.metadata?.zoneID }
        record.metadata = metadata
        return record
    }

    /// This record in the zone `zoneID`.
    func inZone(_ zoneID: RecordZoneID) -> Record {
        var record = self
        var metadata = record.metadata ?? RecordMetadata()
        metadata.zoneID = zoneID
        record.metadata = metadata
        return record
    }

    /// This record without a change tag: a record the server does not have.
    func withoutChangeTag() -> Record {
        var record = self
        record.metadata?.changeTag = nil
        return record
    }

    /// This record, fetched from the server, with the local files of `local`'s assets where
    /// the asset is the same (the same checksum).
    func keepingLocalFiles(of local: Record) -> Record {
        var record = self
        for (name, value) in fields {
            guard let localValue = local[name] else { continue }
            switch (value, localValue) {
            case (.asset(let asset), .asset(let localAsset)):
                record.fields[name] = .asset(asset.keepingFile(of: localAsset))
            case (.list(let elements), .list(let localElements)) where elements.count == localElements.count:
                record.fields[name] = .list(
                    zip(elements, localElements).map { element, localElement in
                        guard case .asset(let asset) = element, case .asset(let localAsset) = localElement else {
                            return element
                        }
                        return .asset(asset.keepingFile(of: localAsset))
                    })
            default:
                break
            }
        }
        return record
    }

    /// Whether this record, an update, changes nothing.
    var isEmptyUpdate: Bool { fields.isEmpty && clearedFields.isEmpty }
}

extension RecordAsset {
    /// This asset, with `local`'s file when both are the same file.
    fileprivate func keepingFile(of local: RecordAsset) -> RecordAsset {
        guard fileURL == nil, let checksum = fileChecksum, checksum == local.fileChecksum else { return self }
        var asset = self
        asset.fileURL = local.fileURL
        return asset
    }
}
