import CloudKitStandIn
import Foundation
import RecordCodable
import Testing

/// The stand-in answers as CloudKit does: each request written and read as JSON.
@Suite("The CloudKit stand-in's semantics")
struct StandInDatabaseTests {
    let database = StandInDatabase()

    /// Posts `body` to `operation` and reads the answer as `Answer`, or the error of a failed one.
    func post<Answer: Decodable>(
        _ operation: StandInOperation, _ body: some Encodable, as: Answer.Type = Answer.self
    ) throws -> Result<Answer, RecordServerError> {
        let response = try database.answer(
            StandInRequest(
                path: "/database/1/iCloud.com.example/development/private/\(operation.rawValue)",
                body: RecordJSONEncoder().encode(body)))
        guard response.status == 200 else {
            return .failure(
                RecordServerError(httpStatus: response.status, headers: response.headers, body: response.body))
        }
        return .success(try RecordJSONDecoder().decode(Answer.self, from: response.body))
    }

    func modify(_ operations: [RecordOperation], zone: String = "_defaultZone", atomic: Bool? = nil) throws
        -> [RecordResult]
    {
        let request = RecordsModifyRequest(operations: operations, zoneID: RecordZoneID(zoneName: zone), atomic: atomic)
        return try post(.modifyRecords, request, as: RecordsModifyResponse.self).get().records
    }

    func tagged(_ record: Record, _ tag: String?) -> Record {
        var record = record
        record.metadata = RecordMetadata(changeTag: tag)
        return record
    }

    @Test("A create makes the record with a change tag and stamps; a second create of the name is EXISTS")
    func create() throws {
        let saved = try #require(
            try modify([RecordOperation(.create, record: noteRecord("N1", title: "One"))]).first?.record)
        #expect(saved.metadata?.changeTag != nil)
        #expect(saved.metadata?.created?.userRecordName == database.userRecordName)
        #expect(saved["title"] == .string("One"))
        let again = try modify([RecordOperation(.create, record: noteRecord("N1", title: "Two"))])
        #expect(again.first?.error?.serverErrorCode == .exists)
        #expect(again.first?.error?.recordName == "N1")
        #expect(database.appliedOperations(to: "N1") == [.create])
    }

    @Test(
        "An update needs the server's change tag: it changes the fields it carries, keeps the rest, and gives a new tag"
    )
    func update() throws {
        var record = noteRecord("N1", title: "One")
        record["body"] = .string("Body")
        let saved = try #require(try modify([RecordOperation(.create, record: record)]).first?.record)
        let tag = saved.metadata?.changeTag

        let stale = try modify([RecordOperation(.update, record: tagged(noteRecord("N1", title: "Stale"), "old"))])
        #expect(stale.first?.error?.serverErrorCode == .conflict)
        let untagged = try modify([RecordOperation(.update, record: tagged(noteRecord("N1", title: "Stale"), nil))])
        #expect(untagged.first?.error?.serverErrorCode == .conflict)

        let updated = try #require(
            try modify([RecordOperation(.update, record: tagged(noteRecord("N1", title: "New"), tag))]).first?.record)
        #expect(updated["title"] == .string("New"))
        #expect(updated["body"] == .string("Body"))
        #expect(updated.metadata?.changeTag != tag)
        #expect(updated.metadata?.created == saved.metadata?.created)

        let forced = try modify([
            RecordOperation(.forceUpdate, record: tagged(noteRecord("N1", title: "Forced"), "old"))
        ])
        #expect(forced.first?.record?["title"] == .string("Forced"))
        let replaced = try #require(
            try modify([RecordOperation(.forceReplace, record: noteRecord("N1", title: "Whole"))]).first?.record)
        #expect(replaced.fields == ["title": .string("Whole")])
        let missing = try modify([RecordOperation(.update, record: tagged(noteRecord("N9"), "t"))])
        #expect(missing.first?.error?.serverErrorCode == .notFound)
        #expect(database.appliedOperations(to: "N1") == [.create, .update, .forceUpdate, .forceReplace])
    }

    @Test("A delete needs the change tag; a record gone is NOT_FOUND; forceDelete does not ask")
    func delete() throws {
        let saved = try #require(try modify([RecordOperation(.create, record: noteRecord("N1"))]).first?.record)
        _ = try modify([RecordOperation(.create, record: noteRecord("N2"))])
        let stale = try modify([RecordOperation(deleting: "N1", changeTag: "old")])
        #expect(stale.first?.error?.serverErrorCode == .conflict)
        let deleted = try modify([RecordOperation(deleting: "N1", changeTag: saved.metadata?.changeTag)])
        #expect(deleted.first?.record?.metadata?.deleted == true)
        #expect(
            try modify([RecordOperation(deleting: "N1", changeTag: "x")]).first?.error?.serverErrorCode == .notFound)
        #expect(try modify([RecordOperation(.forceDelete, record: noteRecord("N2"))]).first?.record != nil)
        #expect(database.records().isEmpty)
    }

    @Test(
        "A custom zone's request with a failure applies nothing, the others ATOMIC_ERROR, unless it says atomic false; the default zone's apply the rest"
    )
    func atomic() throws {
        _ = try post(
            .modifyZones, ZonesModifyRequest(creating: [RecordZoneID(zoneName: "Notes")]), as: ZonesModifyResponse.self)
        for zone in ["Notes", "_defaultZone"] {
            _ = try modify([RecordOperation(.create, record: noteRecord("N1"))], zone: zone)
        }
        let both = [
            RecordOperation(.create, record: noteRecord("N2")), RecordOperation(.create, record: noteRecord("N1")),
        ]

        let atomic = try modify(both, zone: "Notes")
        #expect(atomic.map { $0.error?.serverErrorCode } == [.atomicError, .exists])
        #expect(database.record("N2", inZone: "Notes") == nil)

        let notAtomic = try modify(both, zone: "Notes", atomic: false)
        #expect(notAtomic.map { $0.error?.serverErrorCode } == [nil, .exists])
        #expect(database.record("N2", inZone: "Notes") != nil)

        let defaultZone = try modify(both, atomic: true)
        #expect(defaultZone.map { $0.error?.serverErrorCode } == [nil, .exists])
        #expect(database.record("N2") != nil)
    }

    @Test("A zone that does not exist is ZONE_NOT_FOUND, for each record and in changes; zones/modify creates it")
    func zones() throws {
        let refused = try modify([RecordOperation(.create, record: noteRecord("N1"))], zone: "Notes")
        #expect(refused.first?.error?.serverErrorCode == .zoneNotFound)
        let changes = try post(
            .zoneChanges, ZoneChangesRequest(zones: [RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "Notes"))]),
            as: ZoneChangesResponse.self
        ).get()
        #expect(changes.zones.first?.error?.serverErrorCode == .zoneNotFound)

        for _ in 0..<2 {
            let created = try post(
                .modifyZones, ZonesModifyRequest(creating: [RecordZoneID(zoneName: "Notes")]),
                as: ZonesModifyResponse.self
            ).get()
            #expect(created.zones.first?.zone?.zoneID.zoneName == "Notes")
        }
        let listed = try post(.listZones, ZonesModifyRequest(operations: []), as: ZonesListResponse.self).get()
        #expect(listed.zones.map(\.zoneID.zoneName) == ["Notes", "_defaultZone"])
        #expect(try modify([RecordOperation(.create, record: noteRecord("N1"))], zone: "Notes").first?.record != nil)
    }

    @Test("Lookups answer NOT_FOUND for a name the server does not have")
    func lookup() throws {
        _ = try modify([RecordOperation(.create, record: noteRecord("N1"))])
        let found = try post(
            .lookupRecords, RecordsLookupRequest(recordNames: ["N1", "N2"]), as: RecordsLookupResponse.self
        )
        .get()
        #expect(found.records.first?.record?.recordName == "N1")
        #expect(found.records.last?.error?.serverErrorCode == .notFound)
        #expect(found.records.last?.error?.recordName == "N2")
    }

    @Test("Queries filter by equality and page with continuation markers")
    func query() throws {
        _ = try modify(
            (0..<5).map { RecordOperation(.create, record: noteRecord("N\($0)", title: $0 < 3 ? "a" : "b")) })
        var request = RecordsQueryRequest(
            query: RecordQuery(
                recordType: "Note", filterBy: [.init(fieldName: "title", comparator: .equals, fieldValue: .string("a"))]
            ),
            resultsLimit: 2)
        var names: [String] = []
        for _ in 0..<5 {
            let page = try post(.queryRecords, request, as: RecordsQueryResponse.self).get()
            names += page.records.compactMap(\.record?.recordName)
            guard let next = request.nextPage(after: page) else { break }
            request = next
        }
        #expect(names == ["N0", "N1", "N2"])
        request.query.filterBy = [.init(fieldName: "title", comparator: .beginsWith, fieldValue: .string("a"))]
        #expect(throws: RecordServerError.self) {
            try post(.queryRecords, request, as: RecordsQueryResponse.self).get()
        }
    }

    @Test("A query's resultsLimit as large as Int holds, past a marker, pages to the end without trapping")
    func queryLimitPastMarker() throws {
        _ = try modify((0..<3).map { RecordOperation(.create, record: noteRecord("N\($0)", title: "a")) })
        let request = RecordsQueryRequest(
            query: RecordQuery(recordType: "Note"), resultsLimit: .max, continuationMarker: "1")
        let page = try post(.queryRecords, request, as: RecordsQueryResponse.self).get()
        #expect(page.records.compactMap(\.record?.recordName) == ["N1", "N2"])
        #expect(page.continuationMarker == nil)
    }

    @Test("A throttle too long for a Retry-After header is answered with the body's retryAfter alone")
    func throttleTooLongForHeader() throws {
        database.inject(.throttle(retryAfter: 1e30))
        let create = RecordsModifyRequest(operations: [RecordOperation(.create, record: noteRecord("N1"))])
        let error = try #require(throws: RecordServerError.self) {
            try post(.modifyRecords, create, as: RecordsModifyResponse.self).get()
        }
        #expect(error.serverErrorCode == .throttled)
        #expect(error.retryAfter == 1e30)
        #expect(error.httpHeader("Retry-After") == nil)
    }

    @Test(
        "Zone changes page by resultsLimit with moreComing, a token gives what changed after it, deletions too; the default zone has none"
    )
    func changes() throws {
        let zone = RecordZoneID(zoneName: "Notes")
        _ = try post(.modifyZones, ZonesModifyRequest(creating: [zone]), as: ZonesModifyResponse.self).get()
        _ = try modify((0..<5).map { RecordOperation(.create, record: noteRecord("N\($0)")) }, zone: "Notes")
        var request = ZoneChangesRequest(zones: [RecordsChangesRequest(zoneID: zone, resultsLimit: 2)])
        var pages: [[String]] = []
        while pages.count < 10 {
            let response = try post(.zoneChanges, request, as: ZoneChangesResponse.self).get()
            pages.append(response.zones.first?.changes?.records.compactMap(\.record?.recordName) ?? [])
            guard let next = request.nextPage(after: response) else {
                request.zones[0].syncToken = response.zones.first?.changes?.syncToken
                break
            }
            request = next
        }
        #expect(pages == [["N0", "N1"], ["N2", "N3"], ["N4"]])

        database.delete("N1", inZone: "Notes")
        database.edit("N3", inZone: "Notes") { $0["title"] = .string("Edited") }
        let after = try post(.zoneChanges, request, as: ZoneChangesResponse.self).get()
        let page = try #require(after.zones.first?.changes)
        #expect(
            page.records.compactMap(\.record).map { [$0.recordName, "\($0.metadata?.deleted ?? false)"] } == [
                ["N1", "true"], ["N3", "false"],
            ])
        #expect(!page.moreComing)

        var defaultZone = request
        defaultZone.zones[0].zoneID = RecordZoneID(zoneName: "_defaultZone")
        let noHistory = try post(.zoneChanges, defaultZone, as: ZoneChangesResponse.self).get()
        #expect(noHistory.zones.first?.error?.serverErrorCode == .badRequest)

        var unknown = request
        unknown.zones[0].syncToken = "elsewhere:3"
        let refused = try post(.zoneChanges, unknown, as: ZoneChangesResponse.self).get()
        #expect(refused.zones.first?.error?.serverErrorCode == .badRequest)
    }

    @Test("Faults: an answer thrown away after the request was carried out, throttling, a busy zone")
    func faults() throws {
        database.inject(.loseAnswer, on: .modifyRecords)
        #expect(throws: StandInAnswerLost.self) { try modify([RecordOperation(.create, record: noteRecord("N1"))]) }
        #expect(database.record("N1") != nil)

        database.inject(.throttle(retryAfter: 2.5))
        let create = RecordsModifyRequest(operations: [RecordOperation(.create, record: noteRecord("N2"))])
        let throttled = try post(.modifyRecords, create, as: RecordsModifyResponse.self)
        #expect(throws: RecordServerError.self) { try throttled.get() }
        if case .failure(let error) = throttled {
            #expect(error.serverErrorCode == .throttled)
            #expect(error.httpStatus == 429)
            #expect(error.httpHeader("Retry-After") == "3")
            #expect(error.retryDelay() == 3)
        }
        #expect(database.record("N2") == nil)

        database.inject(.zoneBusy(retryAfter: 1), on: .zoneChanges)
        let busy = try post(.modifyRecords, create, as: RecordsModifyResponse.self)
        #expect(try busy.get().records.first?.record != nil)
        let changes = ZoneChangesRequest(zones: [RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "_defaultZone"))])
        let refused = try post(.zoneChanges, changes, as: ZoneChangesResponse.self)
        guard case .failure(let busyError) = refused else {
            Issue.record("A busy zone was answered: \(refused)")
            return
        }
        #expect(busyError.serverErrorCode == .zoneBusy)
        #expect(busyError.httpStatus == 503)
        #expect(busyError.retryAfter == 1)

        database.inject(.throttleRecords(retryAfter: 0.5), on: .modifyRecords)
        let records = try modify([RecordOperation(.create, record: noteRecord("N3"))])
        #expect(records.first?.error?.serverErrorCode == .throttled)
        #expect(records.first?.error?.retryAfter == 0.5)
        #expect(database.record("N3") == nil)
        #expect(database.requestCount(.modifyRecords) == 4)
    }

    @Test("Paths and methods that are not CloudKit's are refused")
    func paths() throws {
        let unknown = try database.answer(StandInRequest(path: "/database/1/c/development/private/records/frobnicate"))
        #expect(unknown.status == 404)
        let wrongEnvironment = try database.answer(StandInRequest(path: "/database/1/c/staging/private/records/modify"))
        #expect(wrongEnvironment.status == 404)
        let get = try database.answer(
            StandInRequest(method: "GET", path: "/database/1/c/development/public/records/modify"))
        #expect(get.status == 405)
    }
}
