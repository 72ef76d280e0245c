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
            for (key, _) in engine.index.records(where: { _, _ in true }) { zones.insert(key.zone) }
            zones.remove(Self.defaultZone)
            return zones.sorted()
        }
    }
}

/// One run of ``RecordStore/sync(with:options:)``: its rounds, and the report it fills.
///
/// The loop keeps no state the store does not have but the report and, for this run only, the
/// zones created and the records that call for no other round: a run stopped anywhere is resumed
/// by the next from the store alone.
private struct SyncLoop<Service: RecordSyncService> {
    let store: RecordStore
    let service: Service
    let options: RecordStore.SyncOptions
    var report = SyncReport()
    /// The zones created, or known to exist, in this run.
    private var zonesKnown: Set<String> = [RecordStore.defaultZone]
    /// Records refused with an error that waiting will not cure, or only after longer than
    /// ``RecordStore/SyncOptions/maximumRetryDelay``: they call for no other round (they go with
    /// one that others call for, as every record owed does).
    private var givenUp: Set<RecordKey> = []
    /// The longest delay the refusals of the last round asked for, if any asked: at most
    /// ``longestWait``.
    private var retryDelay: Double?

    /// The longest wait between rounds, in seconds, whatever ``RecordStore/SyncOptions/maximumRetryDelay``
    /// says: `Int64.max`, about what a `Duration` holds. A longer delay asked for by the server
    /// would trap in `Duration.seconds(_:)`; it calls for no other round, as any delay too long
    /// does.
    static var longestWait: Double { Double(Int64.max) }

    init(store: RecordStore, service: Service, options: RecordStore.SyncOptions) {
        self.store = store
        self.service = service
        self.options = options
    }

    mutating func run() async throws {
        for round in 0..<max(options.maximumRounds, 1) {
            report.rounds = round + 1
            retryDelay = nil
            try await send()
            try await lookUpConflicts()
            try await fetchChanges()
            try resolveConflicts()
            guard try !owed().isEmpty, round + 1 < options.maximumRounds else { break }
            if let retryDelay { try await Task.sleep(for: .seconds(retryDelay)) }
        }
        try finishReport()
    }

    // MARK: The steps

    /// Sends what the store owes, request after request, each answer applied before the next.
    private mutating func send() async throws {
        let requests = try store.modifyRequests(maximumOperations: max(service.maximumOperationsPerRequest, 1))
        try await createZones(for: requests)
        for request in requests {
            try Task.checkCancellation()
            report.requests += 1
            let response = try await service.modifyRecords(request)
            let outcome = try store.apply(response, for: request)
            let zone = request.zoneID?.zoneName ?? RecordStore.defaultZone
            report.sent += request.operations.map { operation in
                RecordKey(zone: zone, recordType: operation.record.recordType, recordName: operation.record.recordName)
            }
            record(outcome)
        }
    }

    /// Notes what the answer did to each record.
    private mutating func record(_ outcome: RecordStore.ModifyOutcome) {
        report.saved += outcome.saved
        report.deleted += outcome.deleted
        for key in outcome.saved + outcome.deleted + outcome.conflicts { report.failures[key] = nil }
        for (key, error) in outcome.failed.sorted(by: { $0.key < $1.key }) {
            report.failures[key] = error
            if error.serverErrorCode == .atomicError {
                // Held back by another record of an atomic request (a custom zone's are, unless
                // told otherwise): sent again at once, without the one in conflict.
                retryDelay = max(retryDelay ?? 0, 0)
            } else if let delay = error.retryDelay(attempt: report.rounds - 1), delay <= options.maximumRetryDelay,
                delay <= Self.longestWait
            {
                retryDelay = max(retryDelay ?? 0, delay)
            } else {
                givenUp.insert(key)
            }
        }
    }

    /// Creates the zones of `requests` that this run has not created and the store has never
    /// fetched changes of. A zone shared with the user (one that names its owner) is the owner's
    /// to create.
    private mutating func createZones(for requests: [RecordsModifyRequest]) async throws {
        var missing: [RecordZoneID] = []
        for request in requests {
            guard let zoneID = request.zoneID, zoneID.ownerRecordName == nil, !zonesKnown.contains(zoneID.zoneName)
            else { continue }
            zonesKnown.insert(zoneID.zoneName)
            if try store.syncToken(forZone: zoneID.zoneName) == nil { missing.append(zoneID) }
        }
        guard !missing.isEmpty else { return }
        try Task.checkCancellation()
        report.requests += 1
        let response = try await service.modifyZones(ZonesModifyRequest(creating: missing))
        // The server answers zone by zone, in the order asked; an error that names no zone is
        // the zone asked for in its place.
        for (zoneID, result) in zip(missing, response.zones) {
            switch result {
            case .success(let zone): report.zonesCreated.append(zone.zoneID.zoneName)
            case .failure(let error): report.zoneFailures[error.zoneID?.zoneName ?? zoneID.zoneName] = error
            }
        }
    }

    /// Looks up the server's version of each record in conflict whose version is not known.
    private mutating func lookUpConflicts() async throws {
        for lookup in try store.conflictLookupRequests(maximumRecords: max(service.maximumOperationsPerRequest, 1)) {
            try Task.checkCancellation()
            report.requests += 1
            let response = try await service.lookupRecords(lookup)
            try store.applyFetched(response, for: lookup)
        }
    }

    /// Fetches each zone's changes, page after page, each applied with its sync token before the
    /// next is asked for.
    private mutating func fetchChanges() async throws {
        var zones = try store.zonesToFollow().map { RecordZoneID(zoneName: $0) }
        for zoneID in options.zones where !zones.contains(where: { $0.zoneName == zoneID.zoneName }) {
            zones.append(zoneID)
        }
        guard !zones.isEmpty else { return }
        var request = try store.changesRequest(forZones: zones, resultsLimit: options.changesPageLimit)
        while report.pagesFetched < options.maximumPages {
            try Task.checkCancellation()
            report.requests += 1
            let response = try await service.fetchZoneChanges(request)
            try store.applyFetched(response)
            for (asked, result) in zip(request.zones, response.zones) {
                if case .failure(let error) = result {
                    report.zoneFailures[error.zoneID?.zoneName ?? asked.zoneID.zoneName] = error
                }
            }
            for case .success(let page) in response.zones {
                report.pagesFetched += 1
                record(fetched: page)
            }
            guard let next = request.nextPage(after: response) else { break }
            request = next
        }
    }

    /// Notes the records of a page of changes.
    private mutating func record(fetched page: RecordsChangesResponse) {
        let zone = page.zoneID?.zoneName ?? RecordStore.defaultZone
        for case .success(let record) in page.records {
            let key = RecordKey(zone: zone, recordType: record.recordType, recordName: record.recordName)
            if record.metadata?.deleted == true {
                report.fetchedDeletions.append(key)
            } else {
                report.fetched.append(key)
            }
        }
    }

    /// Resolves the conflicts whose both versions are known, as the policy says.
    private mutating func resolveConflicts() throws {
        if case .keepBoth = options.conflicts { return }
        for conflict in try store.records(in: .conflict) {
            guard let server = conflict.serverRecord else { continue }
            try resolve(conflict, server: server)
            report.conflictsResolved.append(conflict.key)
        }
    }

    /// Resolves one conflict: each policy ends in ``RecordStore/acceptServerVersion(for:)``, a
    /// save of a version over the server's (an update with its change tag, or a create when the
    /// server deleted the record), or a deletion with the server's change tag.
    private func resolve(_ conflict: StoredRecord, server: Record) throws {
        let key = conflict.key
        switch options.conflicts {
        case .keepBoth:
            return
        case .keepServer:
            try store.acceptServerVersion(for: key)
        case .keepLocal:
            if conflict.isDeletion {
                try store.deleteRecord(for: key)
            } else {
                try store.save(conflict.record, inZone: key.zone)
            }
        case .merge(let merge):
            // A deletion against an edit keeps the edit, so that nothing is lost: the server's
            // (none, when both sides deleted the record), or the app's.
            if conflict.isDeletion {
                try store.acceptServerVersion(for: key)
            } else if server.metadata?.deleted == true {
                try store.save(conflict.record, inZone: key.zone)
            } else if let merged = try merge(conflict.record, server) {
                guard merged.recordType == key.recordType, merged.recordName == key.recordName else {
                    throw RecordStoreError.mergeChangedRecord(
                        key: key, recordType: merged.recordType, recordName: merged.recordName)
                }
                try store.save(merged, inZone: key.zone)
            } else {
                try store.deleteRecord(for: key)
            }
        }
    }

    // MARK: The end

    /// The records the store still owes the server, but those not to send again in this run.
    private func owed() throws -> [RecordKey] {
        try store.owedKeys().filter { !givenUp.contains($0) }
    }

    /// Fills in what the run left: conflicts, records owed, and the refusals of those only.
    private mutating func finishReport() throws {
        report.conflictsLeft = try store.records(in: .conflict).map(\.key)
        report.owed = try store.owedKeys()
        let owed = Set(report.owed)
        report.failures = report.failures.filter { owed.contains($0.key) }
    }
}

extension RecordStore {
    /// The keys of the records the store owes the server: pending, sent, or deleted locally.
    func owedKeys() throws -> [RecordKey] {
        try withEngine { engine in
            engine.index.records { _, slot in [.pending, .sent, .deletedLocally].contains(slot.status) }.map(\.key)
        }.sorted()
    }
}
