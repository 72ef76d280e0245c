import Foundation
import RecordCodable

extension RecordStore {
    /// Syncs the store with a CloudKit database: sends what the store owes, applies the answers,
    /// fetches each zone's changes until none are left, and leaves conflicts in the store with
    /// both versions kept.
    ///
    /// ```swift
    /// let report = try await store.sync(with: database)
    /// for key in report.conflictsLeft { showConflict(try store.storedRecord(for: key)) }
    /// ```
    ///
    /// See ``sync(with:options:)``.
    ///
    /// - Parameters:
    ///   - service: The database: a `CloudKitDatabase`, or any `RecordSyncService`.
    ///   - conflicts: What to do with records in conflict; ``ConflictPolicy/keepBoth`` leaves them
    ///     in the store.
    @discardableResult
    public func sync(with service: some RecordSyncService, conflicts: ConflictPolicy = .keepBoth) async throws
        -> SyncReport
    {
        try await sync(with: service, options: SyncOptions(conflicts: conflicts))
    }

    /// Syncs the store with a CloudKit database, as `options` says.
    ///
    /// A sync runs rounds of four steps, each through the store's own building blocks
    /// (<doc:TheSyncCycle> tells their rules, <doc:SyncingWithAServer> the loop's):
    ///
    /// 1. **Send.** The `records/modify` requests of ``modifyRequests(maximumOperations:)``, at
    ///    most `maximumOperationsPerRequest` operations each, each answer
    ///    applied with ``apply(_:for:)`` before the next request goes. A zone the records need
    ///    that the store has never fetched changes of is created first (`zones/modify`; a zone
    ///    that exists is fine).
    /// 2. **Look up** the server's version of each record the answers put in conflict
    ///    (``conflictLookupRequests(maximumRecords:)``): a create answered `EXISTS` or an update
    ///    answered `CONFLICT` after a lost answer syncs then, nothing sent twice.
    /// 3. **Fetch** the changes of every zone the store knows and of ``SyncOptions/zones``
    ///    (`changes/zone`), page after page with each page's sync token, until none are left.
    ///    CloudKit's default zone keeps no change history: its records are sent and looked up,
    ///    but what other devices change there is not fetched.
    /// 4. **Resolve** the conflicts whose both versions are known, as ``SyncOptions/conflicts``
    ///    says.
    ///
    /// Another round follows when the round left records to send — a conflict resolved, a record
    /// the server refused for now (after the delay it asked for), records another's failure held
    /// back in an atomic request — up to ``SyncOptions/maximumRounds``.
    ///
    /// Everything the sync learns is committed to the store before the next request: a sync
    /// stopped anywhere — an error thrown, the task cancelled, the process killed — leaves the
    /// store consistent, and the next sync ends where this one would have, with nothing lost and
    /// nothing applied twice on the server.
    ///
    /// - Returns: What the sync did, and what it left: conflicts, refusals, records still owed.
    /// - Throws: The error of a call to `service` that had no answer (the request failed as a
    ///   whole: the connection, authentication, throttling past the service's retries);
    ///   `CancellationError` when the task is cancelled, checked before each request; the
    ///   store's errors; an error the merge closure throws.
    @discardableResult
    public func sync(with service: some RecordSyncService, options: SyncOptions) async throws -> SyncReport {
        var loop = SyncLoop(store: self, service: service, options: options)
        try await loop.run()
        return loop.report
    }

    /// The zones whose changes a sync fetches: those the store holds records of or has a sync
    /// token for, sorted — but the default zone, which keeps no change history.
    func zonesToFollow() throws -> [String] {
        try withEngine { engine in
            var zones = Set(engine.index.zonesWithSyncTokens)
            for (key, _) in try engine.index.records(where: { _, _ in true }) { zones.insert(key.zone) }
            zones.remove(Self.defaultZone)
            return zones.sorted()
        }
    }
}

extension RecordStore {
    /// The keys of the records the store owes the server: pending, sent, or deleted locally.
    func owedKeys() throws -> [RecordKey] {
        try withEngine { engine in
            try engine.index.records { _, slot in [.pending, .sent, .deletedLocally].contains(slot.status) }.map(\.key)
        }.sorted()
    }
}
