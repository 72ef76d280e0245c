import Foundation
import RecordCodable

extension RecordStore {
    /// What applying a `records/modify` response did, record by record: each record the request
    /// carried is in one list, which says what ``RecordStore/records(in:)`` shows of it now.
    public struct ModifyOutcome: Hashable, Sendable {
        /// Records the server saved: ``SyncStatus/synced`` now, as the server has them.
        public var saved: [RecordKey] = []
        /// Records the server did as the request asked — saved, or deleted — that changed since,
        /// or went out again in a later request: still owed, as a change of what the server now
        /// has (``SyncStatus/pending``, ``SyncStatus/sent`` while that later request is out, or
        /// ``SyncStatus/deletedLocally``). A record saved back while its delete was out is here:
        /// it is a create now.
        public var superseded: [RecordKey] = []
        /// Records the server deleted: gone from the store.
        public var deleted: [RecordKey] = []
        /// Records whose server version changed: ``SyncStatus/conflict`` now. Fetch them with
        /// ``RecordStore/conflictLookupRequests(maximumRecords:)``. A conflict is a `CONFLICT`
        /// (`SERVER_RECORD_CHANGED`) answer, or `EXISTS` for a create; a record the server
        /// saved from an update of a version the store no longer knows is here too, and so is an
        /// update the server answered `NOT_FOUND`: it deleted the record, which is in conflict
        /// with its deletion, as when the deletion is fetched.
        public var conflicts: [RecordKey] = []
        /// Records the server refused for another reason: ``SyncStatus/pending`` again (or
        /// ``SyncStatus/deletedLocally``), with the error in ``StoredRecord/lastError``, to be
        /// sent with the next request. Wait `RecordServerError.retryDelay(attempt:now:)` first
        /// when the error is retryable; otherwise the error says what to fix.
        public var failed: [RecordKey: RecordServerError] = [:]
        /// Records the response said nothing about: owed again, sent with the next request.
        public var unanswered: [RecordKey] = []
        /// Records the answer is stale for: it is about a version the store has moved past —
        /// an answer applied again after the record changed, a late duplicate of an old request,
        /// an answer for a record synced or in conflict since — and changed nothing.
        public var stale: [RecordKey] = []

        mutating func add(_ key: RecordKey, _ effect: ServerChanges.Effect) {
            switch effect {
            case .saved: saved.append(key)
            case .superseded: superseded.append(key)
            case .deleted: deleted.append(key)
            case .conflict: conflicts.append(key)
            case .failed(let error): failed[key] = error
            case .unanswered: unanswered.append(key)
            case .stale: stale.append(key)
            }
        }
    }

    /// Builds the `records/modify` requests that send what the store owes the server: one or
    /// more per zone, and marks their records ``SyncStatus/sent``.
    ///
    /// A new record is a `create`; an edit of a record the server has is an `update` of the
    /// fields that changed only, with the server's change tag (made as
    /// `RecordEncoder.encode(_:updating:)` makes it, so nothing the app did not change is
    /// sent); a local deletion is a `delete` with the change tag. An edit that changed nothing
    /// after all is not sent: the record is marked synced — unless a request that carried another
    /// version is still unanswered, when the record goes whole with the change tag it was made
    /// from, for the server to refuse if that request changed it.
    ///
    /// ```swift
    /// for request in try store.modifyRequests() {
    ///     let body = try JSONEncoder().encode(request)
    ///     let answer = try await post("records/modify", body)
    ///     try store.apply(JSONDecoder().decode(RecordsModifyResponse.self, from: answer), for: request)
    /// }
    /// ```
    ///
    /// Records already sent whose response never came are sent again. A record in conflict is
    /// not sent until the conflict is resolved. Save assets with `assets/upload` first: a record
    /// whose asset the server has not received fails to encode.
    ///
    /// Each request goes to the zone its records name, owner included: see "Zones shared with the
    /// user" in <doc:TheSyncCycle>.
    ///
    /// - Parameter maximumOperations: The most operations a request holds: CloudKit takes 200.
    /// - Returns: The requests, by zone; none when nothing is owed.
    public func modifyRequests(maximumOperations: Int = 200) throws -> [RecordsModifyRequest] {
        try withEngine { engine in
            var sent: [(key: RecordKey, version: SentVersion)] = []
            let requests = try commitBatch(on: engine) { batch in
                var groups = ZoneGroups<OutgoingOperation>()
                let owed = try batch.keys { _, state in [.pending, .sent, .deletedLocally].contains(state.status) }
                // CloudKit names a record by zone and name: of records of two types that share
                // both, one is sent at a time, the next once the first one's response is applied.
                var named: Set<[String]> = []
                for key in owed where named.insert([key.zone, key.recordName]).inserted {
                    guard let entry = try batch.entry(for: key) else { continue }
                    switch try OutgoingChange(of: entry, mayHaveChangedServer: engine.sent[key] != nil) {
                    case .unchanged(let synced):
                        batch.stage(synced)
                    case .operation(let operation, let zoneID):
                        groups.add(
                            OutgoingOperation(key: key, entry: entry, operation: operation, zoneID: zoneID),
                            toZone: key.zone, knownAs: zoneID, sentTo: engine.sent[key]?.zoneID)
                    }
                }
                return try groups.groups.flatMap { zoneID, outgoing in
                    for next in outgoing {
                        let key = next.key
                        var entry = next.entry
                        var changed = false
                        let namesOwner = next.zoneID?.ownerRecordName == zoneID.ownerRecordName
                        if zoneID.ownerRecordName != nil, !namesOwner, !entry.isDeletion {
                            // Sent to its zone's owner, which it did not name: it keeps that zone,
                            // so that a retry, or a lookup of a conflict, goes there too.
                            entry.local = try EncodedRecord(entry.local.decoded(as: key).inZone(zoneID))
                            changed = true
                        }
                        if !entry.state.mayBeOnServer {
                            // Written with the request: a delete after a reopen must still be sent.
                            entry.wasOffered = true
                            changed = true
                        }
                        if changed { batch.stage(entry) }
                        // A deletion stays deletedLocally while it is sent: it hides the record.
                        if !entry.isDeletion {
                            let version = SentVersion(
                                operation: next.operation.record, version: entry.local, zoneID: zoneID)
                            sent.append((key, version))
                        }
                    }
                    return OutgoingChange.requests(
                        of: outgoing.map(\.operation), zoneID: zoneID, maximumOperations: maximumOperations)
                }
            }
            for (key, version) in sent {
                try engine.setStatus(.sent, for: key)
                engine.sent[key] = version
            }
            return requests
        }
    }

    /// Applies the server's response to a request that ``modifyRequests(maximumOperations:)``
    /// built, in one commit.
    ///
    /// A record the server saved is ``SyncStatus/synced`` with its new change tag (or stays
    /// pending with that tag, when the app changed it again meanwhile); a deleted record is
    /// gone. The answer to an older request than the last one that carried a record — it was
    /// sent again, or the store reopened, before the answer came — makes what that request sent
    /// the server's version, for the next request to update; a response applied twice changes
    /// nothing the second time. A conflict (`CONFLICT` or `SERVER_RECORD_CHANGED`, and `EXISTS`
    /// for a create) keeps the local version and marks the record ``SyncStatus/conflict``, for
    /// the server's version to be looked up: when that version is what the store's own request
    /// sent — sent again because its answer was lost — the record is synced, or owed as an
    /// update of it, and nothing is in conflict. `NOT_FOUND` for an update is in conflict too:
    /// the server deleted the record since, and the app decides, as when the deletion is fetched
    /// (save the record to create it anew, or ``acceptServerVersion(for:)`` to let it go); for a
    /// delete, `NOT_FOUND` means done. Any other error, retryable or not, leaves the record
    /// pending with the error in ``StoredRecord/lastError``. See the table in <doc:TheSyncCycle>.
    ///
    /// - Returns: What became of each record: the same facts ``records(in:)`` shows.
    @discardableResult
    public func apply(_ response: RecordsModifyResponse, for request: RecordsModifyRequest) throws -> ModifyOutcome {
        try withEngine { engine in
            // The records whose last request this answers: they are forgotten as sent once the
            // commit holds, so that an apply that throws changes nothing; the records the answer
            // changed, whose refused version, if any, is forgotten then; and the versions that
            // conflict answers refused, to be remembered instead.
            var answered: Set<RecordKey> = []
            var changed: Set<RecordKey> = []
            var refused: [RecordKey: EncodedRecord] = [:]
            let outcome = try commitBatch(on: engine) { batch in
                let zone = request.zoneID?.zoneName ?? Self.defaultZone
                var results: [String: RecordResult] = [:]
                for result in response.records {
                    if let name = result.recordName, results[name] == nil { results[name] = result }
                }
                var outcome = ModifyOutcome()
                for operation in request.operations {
                    let name = operation.record.recordName
                    let deleting = operation.operationType.isDeleting
                    for key in try batch.keys(named: name, recordType: operation.record.recordType, inZone: zone) {
                        guard let entry = try batch.entry(for: key) else {
                            // Gone already: a deletion's answer says what the store shows.
                            outcome.add(key, deleting ? .deleted : .stale)
                            continue
                        }
                        // The version sent, when this is the answer to the last request that
                        // carried the record; not to an older one (sent again since, or before
                        // the store was reopened).
                        let latest =
                            answered.contains(key)
                            ? nil
                            : engine.sent[key].flatMap { sent in
                                sent.wasSent(by: operation.record) ? sent.version : nil
                            }
                        if latest != nil, let result = results[name], result.unreadable == nil {
                            answered.insert(key)
                        }
                        let change: ServerChanges.Outcome
                        let answer: ServerChanges.Answer
                        switch results[name] {
                        case .success(let record) where deleting || record.metadata?.deleted == true:
                            change = try ServerChanges.deleted(entry: entry)
                            answer = .deleted
                        case .success(var record):
                            // Modify responses name no zone: the record is in the request's.
                            if record.metadata?.zoneID == nil, let zoneID = request.zoneID {
                                record = record.inZone(zoneID)
                            }
                            change = try ServerChanges.saved(
                                record, by: operation.record, sentAs: operation.operationType, latest: latest,
                                requestOut: latest == nil && engine.sent[key] != nil, entry: entry)
                            answer = .saved(changeTag: record.metadata?.changeTag)
                        case .failure(let error) where deleting && error.serverErrorCode == .notFound:
                            change = try ServerChanges.deleted(entry: entry)
                            answer = .deleted
                        case .failure(let error)
                        where error.serverErrorCode == .notFound && operation.record.metadata?.changeTag != nil:
                            // An update of a record the server deleted since.
                            change = try ServerChanges.notFound(error, for: operation.record, entry: entry)
                            answer = .refused(error)
                        case .failure(let error):
                            change = ServerChanges.refused(with: error, entry: entry)
                            answer = .refused(error)
                            if case .replace(let next) = change, next.status == .conflict, !deleting,
                                let version = try Self.versionSent(by: operation, latest: latest, entry: entry)
                            {
                                refused[key] = version
                            }
                        case .unreadable, nil:
                            change = ServerChanges.unanswered(entry: entry, isLatest: latest != nil)
                            answer = .none
                        }
                        batch.apply(change, to: key)
                        if case .keep = change {} else { changed.insert(key) }
                        outcome.add(key, try ServerChanges.effect(of: change, over: entry, answer: answer))
                    }
                }
                return outcome
            }
            for key in answered { engine.sent[key] = nil }
            for key in changed { engine.refused[key] = refused[key] }
            return outcome
        }
    }

    /// The whole version of the record that `operation` sent: the last request's, `latest`,
    /// else a create's record, or an update applied to the server version it was made from;
    /// `nil` when the store no longer knows it.
    private static func versionSent(by operation: RecordOperation, latest: EncodedRecord?, entry: RecordEntry) throws
        -> EncodedRecord?
    {
        if let latest { return latest }
        let server = try entry.server?.decoded(as: entry.key)
        return try ServerChanges.savedVersion(
            of: operation.record, sentAs: operation.operationType, over: server
        ).map { try EncodedRecord($0) }
    }

    /// Applies records fetched from the server — the page of a query, a lookup, or changes —
    /// in one commit, without marking them pending: the store now has what the server has.
    ///
    /// A record the app has not changed takes the server's version; a record deleted on the
    /// server is removed. A record the app changed keeps its local version, and is in
    /// ``SyncStatus/conflict`` with the server's beside it when the server's differs from the
    /// version the change was made from — but not when it is the app's own update, fetched before
    /// the answer to its request: an edit made since is then an update of it. A lookup answered
    /// `NOT_FOUND` for a record in conflict whose server version is not known yet gives the
    /// server's deletion as that version. Entries the page could not read, and other errors, are
    /// left alone.
    ///
    /// - Parameters:
    ///   - results: The page's records.
    ///   - zone: Their zone; else each record's own, else the default zone.
    ///   - syncToken: The token to keep for `zone`, committed with the records (see
    ///     ``syncToken(forZone:)``).
    public func applyFetched(_ results: [RecordResult], zone: String? = nil, syncToken: String? = nil) throws {
        try applyFetched(results, zoneID: zone.map { RecordZoneID(zoneName: $0) }, syncToken: syncToken)
    }

    /// Applies fetched records in `zoneID`, when given, else each in its own zone. A record that
    /// does not say its zone (a lookup's never do) is given `zoneID` in its metadata, so that
    /// the record the app reads back, edits and saves goes back to the zone it came from.
    func applyFetched(_ results: [RecordResult], zoneID: RecordZoneID?, syncToken: String?) throws {
        let zone = zoneID?.zoneName
        try withBatch { batch in
            try Self.applyFetched(results, zone: zone, zoneID: zoneID, syncToken: syncToken, to: &batch)
        }
    }

    /// Stages what ``applyFetched(_:zoneID:syncToken:)`` applies.
    private static func applyFetched(
        _ results: [RecordResult], zone: String?, zoneID: RecordZoneID?, syncToken: String?, to batch: inout Batch
    ) throws {
        for case .failure(let error) in results where error.serverErrorCode == .notFound {
            // A lookup of a record in conflict that the server no longer has: it deleted it.
            guard let name = error.recordName else { continue }
            for key in try batch.keys(named: name, recordType: "", inZone: zone ?? Self.defaultZone) {
                guard let existing = try batch.entry(for: key) else { continue }
                batch.apply(try ServerChanges.notFoundInLookup(existing: existing), to: key)
            }
        }
        for case .success(var record) in results {
            let recordZone = zone ?? record.metadata?.zoneID?.zoneName ?? Self.defaultZone
            if let zoneID, record.metadata?.zoneID == nil {
                record = record.inZone(try Self.zoneID(of: record, in: zoneID, as: batch))
            }
            if record.metadata?.deleted == true {
                for key in try batch.keys(named: record.recordName, recordType: record.recordType, inZone: recordZone) {
                    guard let existing = try batch.entry(for: key) else { continue }
                    batch.apply(try ServerChanges.deletedOnServer(record, existing: existing), to: key)
                }
            } else if !record.recordName.isEmpty, !record.recordType.isEmpty {
                let key = RecordKey(zone: recordZone, recordType: record.recordType, recordName: record.recordName)
                let change = try ServerChanges.fetched(
                    record, key: key, existing: batch.entry(for: key), sent: batch.engine.sent[key]?.version,
                    refused: batch.engine.refused[key])
                batch.apply(change, to: key)
                // The server's version is known now: what was refused is compared no more.
                batch.engine.refused[key] = nil
            }
        }
        if let syncToken {
            batch.stageSyncToken(syncToken, owner: zoneID?.ownerRecordName, forZone: zone ?? Self.defaultZone)
        }
    }

    /// Applies a page of `records/changes`, and keeps its sync token for its zone — and the
    /// zone's owner, when the page names it: the next ``changesRequest(forZone:)-(String)`` asks
    /// that zone for what changed after it.
    ///
    /// ```swift
    /// var request = try store.changesRequest(forZone: "Notes")
    /// while true {
    ///     let page = try await fetchChanges(request)
    ///     try store.applyFetched(page, zone: "Notes")
    ///     guard let next = request.nextPage(after: page) else { break }
    ///     request = next
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - page: A page of `records/changes`.
    ///   - zone: The zone of the page: its `zoneID` when `nil`.
    public func applyFetched(_ page: RecordsChangesResponse, zone: String? = nil) throws {
        let zoneID = Self.zoneID(zone ?? page.zoneID?.zoneName ?? Self.defaultZone, knownAs: page.zoneID)
        try applyFetched(page.records, zoneID: zoneID, syncToken: page.syncToken)
    }

    /// Applies the records of a `records/query` response.
    public func applyFetched(_ response: RecordsQueryResponse, zone: String? = nil) throws {
        try applyFetched(response.records, zone: zone)
    }

    /// Applies the records of a `records/lookup` response: the server's versions of records in
    /// conflict, for instance (see ``conflictLookupRequests(maximumRecords:)``).
    ///
    /// CloudKit's lookup responses do not say which zone their records are in: give the zone of
    /// the request, or apply the response with `applyFetched(_:for:)`, given the request it
    /// answers.
    public func applyFetched(_ response: RecordsLookupResponse, zone: String? = nil) throws {
        try applyFetched(response.records, zone: zone)
    }

    /// Applies the records of a `records/lookup` response in the zone of the request it answers,
    /// such as those of ``conflictLookupRequests(maximumRecords:)``:
    ///
    /// ```swift
    /// for lookup in try store.conflictLookupRequests() {
    ///     let answer = try await cloudKit.post("records/lookup", JSONEncoder().encode(lookup))
    ///     try store.applyFetched(JSONDecoder().decode(RecordsLookupResponse.self, from: answer), for: lookup)
    /// }
    /// ```
    public func applyFetched(_ response: RecordsLookupResponse, for request: RecordsLookupRequest) throws {
        try applyFetched(response.records, zoneID: request.zoneID, syncToken: nil)
    }

    /// Applies the records of a `records/query` response in the zone of the request it answers
    /// (a query of every zone, `zoneWide`, in each record's own).
    public func applyFetched(_ response: RecordsQueryResponse, for request: RecordsQueryRequest) throws {
        try applyFetched(response.records, zoneID: request.zoneWide == true ? nil : request.zoneID, syncToken: nil)
    }

    /// The whole ID of the zone the store names `zone`: `known`, when it is of that name (and so
    /// says the zone's owner, for a zone shared with the user), else the user's own zone of that
    /// name.
    static func zoneID(_ zone: String, knownAs known: RecordZoneID?) -> RecordZoneID {
        if let known, known.zoneName == zone { return known }
        return RecordZoneID(zoneName: zone)
    }

    /// The zone ID to give a fetched `record` that names none, applied in `zoneID`: `zoneID`
    /// itself when it names an owner, else the zone ID of that name the store's version of the
    /// record knows, so that a lookup applied by zone name does not take away an owner known
    /// before.
    private static func zoneID(of record: Record, in zoneID: RecordZoneID, as batch: Batch) throws -> RecordZoneID {
        guard zoneID.ownerRecordName == nil else { return zoneID }
        let key = RecordKey(zone: zoneID.zoneName, recordType: record.recordType, recordName: record.recordName)
        guard let entry = try batch.entry(for: key) else { return zoneID }
        for version in [entry.server, entry.local] {
            if let known = try version?.decoded(as: key).metadata?.zoneID, known.zoneName == zoneID.zoneName {
                return known
            }
        }
        return zoneID
    }

    /// Applies the answer to a `changes/zone` request, in one commit: each zone's page as
    /// ``applyFetched(_:zone:)-(RecordsChangesResponse,_)`` applies one — its records, its sync
    /// token and its owner kept for the zone — and each zone's error returned, that zone left as
    /// it was.
    ///
    /// ```swift
    /// var request = try store.changesRequest(forZones: ["Notes", "Tags"])
    /// while true {
    ///     let answer = try await cloudKit.post("changes/zone", RecordJSONEncoder().encode(request))
    ///     let response = try RecordJSONDecoder().decode(ZoneChangesResponse.self, from: answer)
    ///     for error in try store.applyFetched(response) { log(error) }
    ///     guard let next = request.nextPage(after: response) else { break }
    ///     request = next
    /// }
    /// ```
    ///
    /// - Returns: The errors of the zones the server failed; each names its zone in
    ///   `RecordServerError.zoneID`. `ZONE_NOT_FOUND`: the zone was deleted, or never made.
    @discardableResult
    public func applyFetched(_ response: ZoneChangesResponse) throws -> [RecordServerError] {
        try withBatch { batch in
            var failed: [RecordServerError] = []
            for result in response.zones {
                switch result {
                case .success(let page):
                    let zoneID = page.zoneID ?? RecordZoneID(zoneName: Self.defaultZone)
                    try Self.applyFetched(
                        page.records, zone: zoneID.zoneName, zoneID: zoneID, syncToken: page.syncToken, to: &batch)
                case .failure(let error):
                    failed.append(error)
                }
            }
            return failed
        }
    }

    /// The sync token kept for `zone`: where the last page of changes ended.
    public func syncToken(forZone zone: String = RecordStore.defaultZone) throws -> String? {
        try withEngine { $0.index.syncToken(forZone: zone) }
    }

    /// The `records/changes` request for what changed in `zone` since the last page applied:
    /// to the zone's owner the server named with that page, if it named one.
    public func changesRequest(forZone zone: String = RecordStore.defaultZone) throws -> RecordsChangesRequest {
        try changesRequest(forZone: RecordZoneID(zoneName: zone))
    }

    /// The `records/changes` request for what changed in the zone `zoneID` since the last page
    /// applied: for a zone shared with the user, its owner's. The store keeps the sync token by
    /// the zone's name, with the owner the server named for the zone: a zone ID that names no
    /// owner is given that one.
    public func changesRequest(forZone zoneID: RecordZoneID) throws -> RecordsChangesRequest {
        try withEngine { engine in Self.changesRequest(forZone: zoneID, in: engine.index) }
    }

    /// The `changes/zone` request for what changed in each of `zones` since the last page of
    /// its changes applied, each zone as ``changesRequest(forZone:)-(RecordZoneID)`` asks for it.
    /// Apply the answer with ``applyFetched(_:)-(ZoneChangesResponse)``.
    ///
    /// - Parameters:
    ///   - zones: The zones, named as the store names them or by their whole zone IDs.
    ///   - resultsLimit: The most records the answer may hold for each zone.
    public func changesRequest(forZones zones: [RecordZoneID], resultsLimit: Int? = nil) throws
        -> ZoneChangesRequest
    {
        try withEngine { engine in
            ZoneChangesRequest(
                zones: zones.map { zoneID in
                    var request = Self.changesRequest(forZone: zoneID, in: engine.index)
                    request.resultsLimit = resultsLimit
                    return request
                })
        }
    }

    /// The `changes/zone` request for what changed in each of the zones named `zones`; see
    /// ``changesRequest(forZones:resultsLimit:)-([RecordZoneID],_)``.
    public func changesRequest(forZones zones: [String], resultsLimit: Int? = nil) throws -> ZoneChangesRequest {
        try changesRequest(forZones: zones.map { RecordZoneID(zoneName: $0) }, resultsLimit: resultsLimit)
    }

    private static func changesRequest(forZone zoneID: RecordZoneID, in index: StoreIndex) -> RecordsChangesRequest {
        var zoneID = zoneID
        if zoneID.ownerRecordName == nil { zoneID.ownerRecordName = index.owner(ofZone: zoneID.zoneName) }
        return RecordsChangesRequest(zoneID: zoneID, syncToken: index.syncToken(forZone: zoneID.zoneName))
    }

    /// The `records/lookup` requests that fetch the server's version of each record in
    /// conflict whose version is not known yet: by zone, each asking for at most
    /// `maximumRecords` names, each to the zone its records name (owner included). Apply each
    /// response with ``applyFetched(_:for:)-(RecordsLookupResponse,_)``, given the request it
    /// answers.
    ///
    /// - Parameter maximumRecords: The most records a request asks for: CloudKit takes 200.
    public func conflictLookupRequests(maximumRecords: Int = 200) throws -> [RecordsLookupRequest] {
        let unknown = try entries { _, slot in slot.status == .conflict }.filter { $0.server == nil }
        let size = max(maximumRecords, 1)
        var lookups = ZoneGroups<String>()
        for entry in unknown {
            // A version that cannot be read (the journal is damaged there) names no zone: its
            // lookup goes to the zone of its name, and does not hold up the others.
            let zoneID = (try? entry.local.decoded(as: entry.key))?.metadata?.zoneID
            lookups.add(entry.key.recordName, toZone: entry.key.zone, knownAs: zoneID)
        }
        return lookups.groups.flatMap { zoneID, names in
            // Records of two types may share a name, which the server knows as one record.
            var seen: Set<String> = []
            let names = names.filter { seen.insert($0).inserted }
            return stride(from: 0, to: names.count, by: size).map { start in
                RecordsLookupRequest(recordNames: Array(names[start..<min(start + size, names.count)]), zoneID: zoneID)
            }
        }
    }

    /// Resolves a conflict by taking the server's version: the record is synced as the server
    /// has it, or removed if the server deleted it.
    ///
    /// To keep the local version, or a merge of both, save it (``save(_:inZone:)``, or
    /// ``park(_:inZone:)`` for a model): once the server's version is known, a save resolves the
    /// conflict with an update of that version.
    public func acceptServerVersion(for key: RecordKey) throws {
        try withBatch { batch in
            guard let entry = try batch.entry(for: key), let server = entry.server else { return }
            let record = try server.decoded(as: key)
            if record.metadata?.deleted == true {
                batch.apply(.remove, to: key)
            } else {
                batch.apply(
                    .replace(
                        RecordEntry(
                            key: key, status: .synced, isDeletion: false, local: server, server: nil, lastError: nil)),
                    to: key)
            }
        }
    }
}

extension RecordStore.Batch {
    /// The keys of the records named `name` in `zone`: of `recordType`, or of any type when it
    /// is empty (the server leaves the type out of a deletion).
    func keys(named name: String, recordType: String, inZone zone: String) throws -> [RecordKey] {
        guard recordType.isEmpty else { return [RecordKey(zone: zone, recordType: recordType, recordName: name)] }
        let types = Set(try engine.index.records(named: name, inZone: zone).map(\.key.recordType))
            .union(stagedTypes(named: name, inZone: zone))
        return types.sorted().map { RecordKey(zone: zone, recordType: $0, recordName: name) }
    }

    /// Stages what a server change does to the record of `key`.
    mutating func apply(_ outcome: ServerChanges.Outcome, to key: RecordKey) {
        switch outcome {
        case .keep: break
        case .replace(let entry): stage(entry)
        case .remove: stageRemoval(of: key)
        }
    }
}

extension RecordOperation.OperationType {
    /// Whether the operation deletes its record.
    var isDeleting: Bool { self == .delete || self == .forceDelete }
}

/// A record's operation on its way into a `records/modify` request: the record's key and entry,
/// the operation, and the zone ID its record knows.
private struct OutgoingOperation {
    let key: RecordKey
    let entry: RecordEntry
    let operation: RecordOperation
    let zoneID: RecordZoneID?
}
