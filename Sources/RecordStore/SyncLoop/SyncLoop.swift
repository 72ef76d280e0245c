import Foundation
import RecordCodable

/// One run of ``RecordStore/sync(with:options:)``: its rounds, and the report it fills.
///
/// The loop keeps no state the store does not have but the report and, for this run only, the
/// zones created and the records that call for no other round: a run stopped anywhere is resumed
/// by the next from the store alone.
struct SyncLoop<Service: RecordSyncService> {
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
        // A zone the options name keeps its whole ID — its owner, for a zone shared with the
        // user — though the store knows it by name only: the server would read a name alone as
        // the user's own zone.
        let named = Dictionary(options.zones.map { ($0.zoneName, $0) }, uniquingKeysWith: { first, _ in first })
        var zones = try store.zonesToFollow().map { named[$0] ?? RecordZoneID(zoneName: $0) }
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
