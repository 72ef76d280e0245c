import Foundation
import RecordCodable

/// An in-memory CloudKit database that answers CloudKit Web Services requests as the server
/// does: change tags, conflicts, zones, sync tokens and paging — for tests, the benchmark and the
/// `cloudkit-sync` example.
///
/// ``answer(_:)`` takes a request as HTTP carries it, at a path
/// `/database/1/<container>/<environment>/<scope>/<operation>`, and returns CloudKit's answer:
/// an HTTP loopback server calls it for each request it reads, and an in-process test calls it
/// directly. It is safe to call from any thread; each request is served whole under one lock, so
/// requests are applied one at a time, as CloudKit applies a zone's.
///
/// Beyond serving requests, it plays another device (``save(_:inZone:)``, ``edit(_:inZone:_:)``,
/// ``delete(_:inZone:)``), counts what it applied to each record (``appliedOperations(to:inZone:)``),
/// and plays faults (``inject(_:on:)``). See `Tests/CloudKitStandIn/README.md`.
public final class StandInDatabase: @unchecked Sendable {
    /// Guards everything below.
    private let lock = NSLock()
    /// The zones, by name; the default zone always exists.
    private var zones: [String: StandInZone] = [:]
    /// The number of the last change tag given, database-wide.
    private var lastTag = 0
    /// The operations applied to each record, by zone and name.
    private var applied: [String: [String: [RecordOperation.OperationType]]] = [:]
    /// The faults still to play, in order, each for the next request of its operation (any, when
    /// `nil`).
    private var faults: [(fault: StandInFault, operation: StandInOperation?)] = []
    /// The requests served, by operation.
    private var served: [StandInOperation: Int] = [:]

    /// The name of the zone every database has.
    public static let defaultZone = "_defaultZone"

    /// The user the stand-in says made each change.
    public let userRecordName = "_standInUser"

    /// An empty database: its default zone, no record.
    public init() {
        zones[StandInDatabase.defaultZone] = StandInZone(zoneID: RecordZoneID(zoneName: StandInDatabase.defaultZone))
    }

    // MARK: Serving requests

    /// Answers one request as CloudKit Web Services would: a `200` with the operation's response
    /// body, or an error status with CloudKit's error body.
    ///
    /// - Throws: ``StandInAnswerLost`` when a ``StandInFault/loseAnswer`` fault threw the answer
    ///   away after the request was carried out.
    public func answer(_ request: StandInRequest) throws -> StandInResponse {
        guard let operation = Self.operation(ofPath: request.path) else {
            return Self.error(404, .notFound, "No CloudKit Web Services operation at \(request.path)")
        }
        let methods = operation == .listZones ? ["GET", "POST"] : ["POST"]
        guard methods.contains(request.method.uppercased()) else {
            return Self.error(405, .badRequest, "\(operation.rawValue) takes POST, not \(request.method)")
        }
        return try lock.withLock {
            served[operation, default: 0] += 1
            let fault = takeFault(for: operation)
            if let refusal = Self.refusal(for: fault, of: operation) { return refusal }
            let response: StandInResponse
            do {
                response = try serve(operation, body: request.body, throttlingRecords: fault)
            } catch let error as RecordServerError {
                return Self.error(error.httpStatus ?? 400, error.serverErrorCode, error.reason ?? "")
            } catch {
                return Self.error(400, .badRequest, "The body could not be read: \(error)")
            }
            if fault == .loseAnswer { throw StandInAnswerLost(operation: operation) }
            return response
        }
    }

    /// The operation a path names: `/database/1/<container>/<environment>/<scope>/<a>/<b>`,
    /// with a query string or not.
    static func operation(ofPath path: String) -> StandInOperation? {
        let plain = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        let parts = plain.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 7, parts[0] == "database", parts[1] == "1",
            ["development", "production"].contains(parts[3]), ["public", "private", "shared"].contains(parts[4])
        else { return nil }
        return StandInOperation(rawValue: "\(parts[5])/\(parts[6])")
    }

    private func serve(_ operation: StandInOperation, body: Data, throttlingRecords fault: StandInFault?) throws
        -> StandInResponse
    {
        switch operation {
        case .modifyRecords:
            let request = try Self.read(RecordsModifyRequest.self, body)
            if case .throttleRecords(let delay) = fault { return try Self.ok(throttled(request, retryAfter: delay)) }
            return try Self.ok(modify(request))
        case .lookupRecords: return try Self.ok(lookup(Self.read(RecordsLookupRequest.self, body)))
        case .queryRecords: return try Self.ok(query(Self.read(RecordsQueryRequest.self, body)))
        case .recordChanges:
            let request = try Self.read(RecordsChangesRequest.self, body)
            switch changes(request) {
            case .success(let page): return try Self.ok(page)
            case .failure(let error): throw error
            }
        case .zoneChanges: return try Self.ok(changes(Self.read(ZoneChangesRequest.self, body)))
        case .modifyZones: return try Self.ok(modifyZones(Self.read(ZonesModifyRequest.self, body)))
        case .listZones:
            let listed = zones.values.map { RecordZone(zoneID: $0.zoneID, syncToken: $0.token($0.lastChange)) }
            return try Self.ok(ZonesListResponse(zones: listed.sorted { $0.zoneID.zoneName < $1.zoneID.zoneName }))
        }
    }

    // MARK: records/modify

    private func modify(_ request: RecordsModifyRequest) throws -> RecordsModifyResponse {
        let zoneID = request.zoneID ?? RecordZoneID(zoneName: StandInDatabase.defaultZone)
        guard var zone = zones[zoneID.zoneName] else {
            return RecordsModifyResponse(
                records: request.operations.map { .failure(Self.zoneNotFound(zoneID, record: $0.record.recordName)) })
        }
        var results: [RecordResult] = []
        var done: [(name: String, type: RecordOperation.OperationType)] = []
        for operation in request.operations {
            switch apply(operation, to: &zone) {
            case .success(let record):
                results.append(.success(record))
                done.append((operation.record.recordName, operation.operationType))
            case .failure(let error):
                results.append(.failure(error))
            }
        }
        // A custom zone's requests are atomic unless they say otherwise; the default zone's never.
        let atomic = zoneID.zoneName != Self.defaultZone && request.atomic != false
        if atomic, results.contains(where: { $0.error != nil }) {
            // Nothing applied: the failed operations keep their errors, the others are ATOMIC_ERROR.
            return RecordsModifyResponse(
                records: zip(request.operations, results).map { operation, result in
                    if result.error != nil { return result }
                    return .failure(
                        RecordServerError(
                            recordName: operation.record.recordName, reason: "Another operation of the request failed",
                            serverErrorCode: .atomicError))
                })
        }
        zones[zoneID.zoneName] = zone
        for (name, type) in done { applied[zoneID.zoneName, default: [:]][name, default: []].append(type) }
        return RecordsModifyResponse(records: results)
    }

    /// Applies one operation to `zone`, as CloudKit does: the saved record, or the error.
    private func apply(_ operation: RecordOperation, to zone: inout StandInZone) -> Result<Record, RecordServerError> {
        let sent = operation.record
        let name = sent.recordName
        let existing = zone.records[name]
        func refuse(_ code: RecordServerError.Code, _ reason: String) -> Result<Record, RecordServerError> {
            .failure(RecordServerError(recordName: name, reason: reason, serverErrorCode: code))
        }
        let tagMatches =
            existing?.metadata?.changeTag != nil && existing?.metadata?.changeTag == sent.metadata?.changeTag
        switch operation.operationType {
        case .create:
            if existing != nil { return refuse(.exists, "Record \(name) already exists") }
            guard !sent.recordType.isEmpty else { return refuse(.badRequest, "A create needs a recordType") }
            zone.save(sent, tag: nextTag(), now: stamp())
        case .update, .forceUpdate, .replace, .forceReplace:
            let forced = operation.operationType == .forceUpdate || operation.operationType == .forceReplace
            let replacing = operation.operationType == .replace || operation.operationType == .forceReplace
            guard let existing else {
                guard replacing, !sent.recordType.isEmpty else { return refuse(.notFound, "Record \(name) not found") }
                zone.save(sent, tag: nextTag(), now: stamp())
                break
            }
            if !forced && !tagMatches {
                return refuse(.conflict, "The record's change tag is not the server's: it changed since")
            }
            var saved = replacing ? sent : existing
            if !replacing {
                for (field, value) in sent.fields { saved.fields[field] = value }
                for field in sent.clearedFields { saved.fields[field] = nil }
            }
            saved.recordType = existing.recordType
            zone.save(saved, tag: nextTag(), now: stamp())
        case .delete, .forceDelete:
            guard existing != nil else { return refuse(.notFound, "Record \(name) not found") }
            if operation.operationType == .delete && !tagMatches {
                return refuse(.conflict, "The record's change tag is not the server's: it changed since")
            }
            zone.delete(name)
            var marker = Record(recordType: "", recordName: name)
            marker.metadata = RecordMetadata(deleted: true)
            return .success(marker)
        }
        guard let saved = zone.records[name] else { return refuse(.internalError, "Record \(name) was not saved") }
        return .success(saved)
    }

    private func throttled(_ request: RecordsModifyRequest, retryAfter: Double) -> RecordsModifyResponse {
        RecordsModifyResponse(
            records: request.operations.map { operation in
                .failure(
                    RecordServerError(
                        recordName: operation.record.recordName, reason: "Throttled", serverErrorCode: .throttled,
                        retryAfter: retryAfter))
            })
    }

    // MARK: records/lookup, records/query

    private func lookup(_ request: RecordsLookupRequest) -> RecordsLookupResponse {
        let zoneID = request.zoneID ?? RecordZoneID(zoneName: StandInDatabase.defaultZone)
        return RecordsLookupResponse(
            records: request.recordNames.map { name in
                guard let zone = zones[zoneID.zoneName] else {
                    return .failure(Self.zoneNotFound(zoneID, record: name))
                }
                guard let record = zone.records[name] else {
                    return .failure(
                        RecordServerError(recordName: name, reason: "Record not found", serverErrorCode: .notFound))
                }
                return .success(record)
            })
    }

    /// A query: the records of the type whose fields equal each filter's value, sorted by name,
    /// paged by `resultsLimit` (200 by default) with a continuation marker.
    private func query(_ request: RecordsQueryRequest) throws -> RecordsQueryResponse {
        let zoneID = request.zoneID ?? RecordZoneID(zoneName: StandInDatabase.defaultZone)
        guard let zone = zones[zoneID.zoneName] else { throw Self.zoneNotFound(zoneID, record: nil) }
        for filter in request.query.filterBy where filter.comparator != .equals {
            throw RecordServerError(
                reason: "The stand-in serves EQUALS filters only, not \(filter.comparator)",
                serverErrorCode: .badRequest,
                httpStatus: 400)
        }
        let matching = zone.records.values.filter { record in
            record.recordType == request.query.recordType
                && request.query.filterBy.allSatisfy { record.fields[$0.fieldName] == $0.fieldValue }
        }.sorted { $0.recordName < $1.recordName }
        var start = 0
        if let marker = request.continuationMarker {
            guard let offset = Int(marker), (0...matching.count).contains(offset) else {
                throw RecordServerError(
                    reason: "Unknown continuation marker \(marker)", serverErrorCode: .badRequest, httpStatus: 400)
            }
            start = offset
        }
        // Counted from what is left, so that a limit as large as Int holds cannot overflow.
        let end = start + min(max(request.resultsLimit ?? 200, 1), matching.count - start)
        return RecordsQueryResponse(
            records: matching[start..<end].map { .success($0) },
            continuationMarker: end < matching.count ? String(end) : nil)
    }

    // MARK: Changes

    private func changes(_ request: ZoneChangesRequest) -> ZoneChangesResponse {
        ZoneChangesResponse(
            zones: request.zones.map { zone in
                switch changes(zone) {
                case .success(let page): .success(page)
                case .failure(let error): .failure(error)
                }
            })
    }

    private func changes(_ request: RecordsChangesRequest) -> Result<RecordsChangesResponse, RecordServerError> {
        guard let zone = zones[request.zoneID.zoneName] else { return .failure(Self.zoneNotFound(request.zoneID)) }
        guard request.zoneID.zoneName != Self.defaultZone else {
            // Apple's reference: the default zone has none of a custom zone's capabilities, fetching
            // changes among them.
            return .failure(
                RecordServerError(
                    reason: "The default zone keeps no change history: fetch the changes of a custom zone",
                    serverErrorCode: .badRequest, zoneID: request.zoneID, httpStatus: 400))
        }
        guard let after = zone.changeNumber(of: request.syncToken) else {
            return .failure(
                RecordServerError(
                    reason: "Unknown sync token", serverErrorCode: .badRequest, zoneID: request.zoneID, httpStatus: 400)
            )
        }
        return .success(zone.changes(after: after, limit: request.resultsLimit ?? 200))
    }

    // MARK: zones/modify

    private func modifyZones(_ request: ZonesModifyRequest) -> ZonesModifyResponse {
        ZonesModifyResponse(
            zones: request.operations.map { operation in
                let name = operation.zoneID.zoneName
                switch operation.operationType {
                case .create:
                    if zones[name] == nil { zones[name] = StandInZone(zoneID: RecordZoneID(zoneName: name)) }
                    return .success(RecordZone(zoneID: RecordZoneID(zoneName: name)))
                case .delete:
                    guard zones[name] != nil, name != StandInDatabase.defaultZone else {
                        return .failure(Self.zoneNotFound(operation.zoneID))
                    }
                    zones[name] = nil
                    applied[name] = nil
                    return .success(RecordZone(zoneID: RecordZoneID(zoneName: name)))
                }
            })
    }

    // MARK: Faults

    /// Plays `fault` on the next request of `operation` (of any operation, when `nil`). Faults are
    /// played in the order they were injected, each once.
    public func inject(_ fault: StandInFault, on operation: StandInOperation? = nil) {
        lock.withLock { faults.append((fault, operation)) }
    }

    private func takeFault(for operation: StandInOperation) -> StandInFault? {
        guard let index = faults.firstIndex(where: { $0.operation == nil || $0.operation == operation }) else {
            return nil
        }
        return faults.remove(at: index).fault
    }

    /// The answer of a fault that refuses the request as a whole, before it is carried out.
    private static func refusal(for fault: StandInFault?, of operation: StandInOperation) -> StandInResponse? {
        switch fault {
        case .throttle(let delay),
            .throttleRecords(let delay) where operation != .modifyRecords:
            return error(429, .throttled, "Throttled", retryAfter: delay)
        case .zoneBusy(let delay):
            return error(503, .zoneBusy, "The zone is busy", retryAfter: delay)
        case .httpStatus(let status):
            return error(status, RecordServerError.Code(httpStatus: status), "A fault the test asked for")
        default:
            return nil
        }
    }
}

// MARK: Another device

extension StandInDatabase {
    /// Saves `record` as another device would: created, or replaced whole, with a new change tag.
    /// The zone is created if it does not exist.
    @discardableResult
    public func save(_ record: Record, inZone zone: String = StandInDatabase.defaultZone) -> Record {
        lock.withLock {
            var state = zones[zone] ?? StandInZone(zoneID: RecordZoneID(zoneName: zone))
            state.save(record, tag: nextTag(), now: stamp(device: "other"))
            zones[zone] = state
            return state.records[record.recordName] ?? record
        }
    }

    /// Edits the record named `name` as another device would, with a new change tag; `nil` when
    /// there is no such record.
    @discardableResult
    public func edit(
        _ name: String, inZone zone: String = StandInDatabase.defaultZone, _ change: (inout Record) -> Void
    )
        -> Record?
    {
        lock.withLock {
            guard var state = zones[zone], var record = state.records[name] else { return nil }
            change(&record)
            state.save(record, tag: nextTag(), now: stamp(device: "other"))
            zones[zone] = state
            return state.records[name]
        }
    }

    /// Deletes the record named `name` as another device would; `false` when there is none.
    @discardableResult
    public func delete(_ name: String, inZone zone: String = StandInDatabase.defaultZone) -> Bool {
        lock.withLock {
            guard var state = zones[zone], state.records[name] != nil else { return false }
            state.delete(name)
            zones[zone] = state
            return true
        }
    }

    /// Deletes a zone and its records, as another device would.
    public func deleteZone(_ zone: String) {
        lock.withLock {
            guard zone != StandInDatabase.defaultZone else { return }
            zones[zone] = nil
        }
    }

    // MARK: What the server has

    /// The server's record named `name`, if any.
    public func record(_ name: String, inZone zone: String = StandInDatabase.defaultZone) -> Record? {
        lock.withLock { zones[zone]?.records[name] }
    }

    /// The server's records in `zone`, by name.
    public func records(inZone zone: String = StandInDatabase.defaultZone) -> [String: Record] {
        lock.withLock { zones[zone]?.records ?? [:] }
    }

    /// The names of the zones, the default zone included, sorted.
    public var zoneNames: [String] {
        lock.withLock { zones.keys.sorted() }
    }

    /// The operations carried out on the record named `name` from `records/modify` requests, in
    /// order: a create applied twice would show here twice. Another device's changes are not
    /// counted.
    public func appliedOperations(to name: String, inZone zone: String = StandInDatabase.defaultZone)
        -> [RecordOperation.OperationType]
    {
        lock.withLock { applied[zone]?[name] ?? [] }
    }

    /// Every record's operations carried out from `records/modify` requests, by zone and name.
    public var allAppliedOperations: [String: [String: [RecordOperation.OperationType]]] {
        lock.withLock { applied }
    }

    /// How many requests of `operation` the stand-in served, faults included.
    public func requestCount(_ operation: StandInOperation) -> Int {
        lock.withLock { served[operation] ?? 0 }
    }
}

// MARK: Bodies and errors

extension StandInDatabase {
    /// The next change tag: unique in the database.
    private func nextTag() -> String {
        lastTag += 1
        return "tag\(lastTag)"
    }

    /// Now, in whole milliseconds as CloudKit keeps it, by the stand-in's user on `device`.
    private func stamp(device: String = "1") -> RecordMetadata.Stamp {
        let milliseconds = (Date().timeIntervalSince1970 * 1000).rounded()
        return RecordMetadata.Stamp(
            timestamp: Date(timeIntervalSince1970: milliseconds / 1000), userRecordName: userRecordName,
            deviceID: device)
    }

    private static func read<Body: Decodable>(_ type: Body.Type, _ body: Data) throws -> Body {
        try RecordJSONDecoder().decode(type, from: body)
    }

    private static func ok(_ body: some Encodable) throws -> StandInResponse {
        try StandInResponse(status: 200, body: RecordJSONEncoder().encode(body))
    }

    private static func zoneNotFound(_ zoneID: RecordZoneID, record name: String? = nil) -> RecordServerError {
        RecordServerError(
            recordName: name, reason: "Zone '\(zoneID.zoneName)' does not exist", serverErrorCode: .zoneNotFound,
            zoneID: zoneID)
    }

    /// An error answer: CloudKit's error body, with `Retry-After` in whole seconds when it asks
    /// for a delay that an `Int` holds (a longer one is in the body's `retryAfter` alone).
    static func error(
        _ status: Int, _ code: RecordServerError.Code, _ reason: String, retryAfter: Double? = nil
    ) -> StandInResponse {
        let error = RecordServerError(reason: reason, serverErrorCode: code, retryAfter: retryAfter)
        var headers = ["Content-Type": "application/json; charset=UTF-8"]
        if let seconds = retryAfter.flatMap({ Int(exactly: $0.rounded(.up)) }) {
            headers["Retry-After"] = String(seconds)
        }
        let body = (try? RecordJSONEncoder().encode(error)) ?? Data()
        return StandInResponse(status: status, headers: headers, body: body)
    }
}
