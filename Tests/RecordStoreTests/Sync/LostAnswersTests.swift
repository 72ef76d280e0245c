import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// The sync cycle against a server that answers as Apple's reference says, when an answer is
/// lost: the server saved (or deleted) the records, the connection closed before the body came,
/// and the store sends the same operations again.
@Suite("Lost answers and the server's codes")
struct LostAnswersTests {
    func stored(_ store: RecordStore, _ name: String) throws -> StoredRecord? {
        try store.storedRecord(for: noteKey(name))
    }

    /// A response that refuses `name` with `code`, as a `records/modify` answer does.
    func refusal(_ name: String, _ code: RecordServerError.Code) -> RecordsModifyResponse {
        RecordsModifyResponse(records: [
            .failure(RecordServerError(recordName: name, reason: "refused", serverErrorCode: code))
        ])
    }

    /// Checks that `outcome` says what `store` shows: each record in one list, in the status
    /// that list stands for — and the stale ones as they were before, `before`.
    func expectOutcome(
        _ outcome: RecordStore.ModifyOutcome, matches store: RecordStore, before: [RecordKey: StoredRecord] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        func statuses(_ keys: [RecordKey]) throws -> [SyncStatus?] {
            try keys.map { try store.storedRecord(for: $0)?.status }
        }
        #expect(try statuses(outcome.saved).allSatisfy { $0 == .synced }, sourceLocation: sourceLocation)
        #expect(try statuses(outcome.deleted).allSatisfy { $0 == nil }, sourceLocation: sourceLocation)
        #expect(try statuses(outcome.conflicts).allSatisfy { $0 == .conflict }, sourceLocation: sourceLocation)
        #expect(
            try statuses(outcome.superseded).allSatisfy { [.pending, .sent, .deletedLocally].contains($0) },
            sourceLocation: sourceLocation)
        #expect(
            try statuses(outcome.unanswered + Array(outcome.failed.keys)).allSatisfy {
                [.pending, .deletedLocally].contains($0)
            }, sourceLocation: sourceLocation)
        for (key, error) in outcome.failed {
            #expect(try store.storedRecord(for: key)?.lastError == error, sourceLocation: sourceLocation)
        }
        for key in outcome.stale {
            #expect(try store.storedRecord(for: key) == before[key], sourceLocation: sourceLocation)
        }
    }

    // MARK: EXISTS

    @Test("A resent create met with EXISTS is looked up, not sent for ever: synced when the server has what was sent")
    func existsAfterLostAnswer() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "First"))
        _ = try store.modifyRequests()  // the server saves it; the answer is lost
        let resent = try #require(try store.modifyRequests().first)
        #expect(resent.operations.map(\.operationType) == [.create])

        let outcome = try store.apply(refusal("N1", .exists), for: resent)
        #expect(outcome.conflicts == [noteKey("N1")])
        #expect(outcome.failed.isEmpty)
        try expectOutcome(outcome, matches: store)
        #expect(try stored(store, "N1")?.lastError?.serverErrorCode == .exists)
        // Not sent again: the server's version is looked up.
        #expect(try store.modifyRequests().isEmpty)
        let lookup = try #require(try store.conflictLookupRequests().first)
        #expect(lookup.recordNames == ["N1"])

        let theirs = serverCopy(of: noteRecord("N1", title: "First"), tag: "t1")
        try store.applyFetched(RecordsLookupResponse(records: [.success(theirs)]), for: lookup)
        let record = try #require(try stored(store, "N1"))
        #expect(record.status == .synced)
        #expect(record.record.metadata?.changeTag == "t1")
        #expect(record.lastError == nil)
        #expect(try store.modifyRequests().isEmpty)
    }

    @Test("An edit made while the resent create was out reaches the server, as an update of what it has")
    func existsWithEditMeanwhile() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "First"))
        _ = try store.modifyRequests()  // saved; the answer is lost
        let resent = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Second"))
        try store.apply(refusal("N1", .exists), for: resent)
        #expect(try stored(store, "N1")?.status == .conflict)

        let lookup = try #require(try store.conflictLookupRequests().first)
        let theirs = serverCopy(of: noteRecord("N1", title: "First"), tag: "t1")
        try store.applyFetched(RecordsLookupResponse(records: [.success(theirs)]), for: lookup)
        let record = try #require(try stored(store, "N1"))
        #expect(record.status == .pending)
        #expect(record.record["title"] == .string("Second"))
        let update = try #require(try store.modifyRequests().first?.operations.first)
        #expect(update.operationType == .update)
        #expect(update.record.metadata?.changeTag == "t1")
        #expect(update.record.fields == ["title": .string("Second")])
    }

    @Test("EXISTS for a record the server has in another version: in conflict, both versions kept")
    func existsForAnotherVersion() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "Mine"))
        let request = try #require(try store.modifyRequests().first)
        try store.apply(refusal("N1", .exists), for: request)
        let lookup = try #require(try store.conflictLookupRequests().first)
        let theirs = serverCopy(of: noteRecord("N1", title: "Theirs"), tag: "t7")
        try store.applyFetched(RecordsLookupResponse(records: [.success(theirs)]), for: lookup)
        let record = try #require(try stored(store, "N1"))
        #expect(record.status == .conflict)
        #expect(record.record["title"] == .string("Mine"))
        #expect(record.serverRecord?["title"] == .string("Theirs"))
        // Resolved by the app, the edit goes as an update of the server's version.
        try store.save(noteRecord("N1", title: "Mine and theirs"))
        let update = try #require(try store.modifyRequests().first?.operations.first)
        #expect(update.record.metadata?.changeTag == "t7")
    }

    // MARK: CONFLICT and NOT_FOUND for resent operations

    @Test("A resent update met with CONFLICT: synced when the server has what was sent; an edit since goes out")
    func conflictAfterLostAnswer() throws {
        for editsMeanwhile in [false, true] {
            let store = try RecordStore.inMemory()
            try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Base"), tag: "t1"))])
            try store.save(noteRecord("N1", title: "Edit"))
            _ = try store.modifyRequests()  // saved as t2; the answer is lost
            let resent = try #require(try store.modifyRequests().first)
            #expect(resent.operations.first?.record.metadata?.changeTag == "t1")
            if editsMeanwhile { try store.save(noteRecord("N1", title: "Later")) }
            let outcome = try store.apply(refusal("N1", .conflict), for: resent)
            #expect(outcome.conflicts == [noteKey("N1")])
            let lookup = try #require(try store.conflictLookupRequests().first)
            let theirs = serverCopy(of: noteRecord("N1", title: "Edit"), tag: "t2")
            try store.applyFetched(RecordsLookupResponse(records: [.success(theirs)]), for: lookup)
            let record = try #require(try stored(store, "N1"))
            if editsMeanwhile {
                #expect(record.status == .pending)
                let update = try #require(try store.modifyRequests().first?.operations.first)
                #expect(update.record.metadata?.changeTag == "t2")
                #expect(update.record.fields == ["title": .string("Later")])
            } else {
                #expect(record.status == .synced)
                #expect(record.record.metadata?.changeTag == "t2")
                #expect(try store.modifyRequests().isEmpty)
            }
        }
    }

    @Test("A resent delete met with NOT_FOUND is done: the record is gone")
    func notFoundForResentDelete() throws {
        let store = try RecordStore.inMemory()
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1"), tag: "t1"))])
        try store.deleteRecord(for: noteKey("N1"))
        _ = try store.modifyRequests()  // deleted; the answer is lost
        let resent = try #require(try store.modifyRequests().first)
        let outcome = try store.apply(refusal("N1", .notFound), for: resent)
        #expect(outcome.deleted == [noteKey("N1")])
        try expectOutcome(outcome, matches: store)
        #expect(try stored(store, "N1") == nil)
    }

    /// What each code of Apple's reference does to a record whose operation it answers, as
    /// "The Sync Cycle" tabulates it.
    @Test(
        "Each documented code leaves the record as the Sync Cycle's table says",
        arguments: [
            ("EXISTS", "create", SyncStatus?.some(.conflict)),
            ("CONFLICT", "update", .conflict),
            ("CONFLICT", "delete", .conflict),
            ("NOT_FOUND", "update", .conflict),
            ("NOT_FOUND", "delete", nil),
            ("ZONE_NOT_FOUND", "create", .pending),
            ("ATOMIC_ERROR", "update", .pending),
            ("THROTTLED", "create", .pending),
            ("TRY_AGAIN_LATER", "delete", .deletedLocally),
            ("INTERNAL_ERROR", "update", .pending),
            ("BAD_REQUEST", "create", .pending),
            ("QUOTA_EXCEEDED", "create", .pending),
            ("ACCESS_DENIED", "update", .pending),
            ("VALIDATING_REFERENCE_ERROR", "delete", .deletedLocally),
        ])
    func codeTable(code: String, operation: String, becomes: SyncStatus?) throws {
        let store = try RecordStore.inMemory()
        switch operation {
        case "create":
            try store.save(noteRecord("N1", title: "New"))
        case "update":
            try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Base"), tag: "t1"))])
            try store.save(noteRecord("N1", title: "Edit"))
        default:
            try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Base"), tag: "t1"))])
            try store.deleteRecord(for: noteKey("N1"))
        }
        let request = try #require(try store.modifyRequests().first)
        #expect(request.operations.first?.operationType.rawValue == operation)
        let outcome = try store.apply(refusal("N1", RecordServerError.Code(rawValue: code)), for: request)
        #expect(try stored(store, "N1")?.status == becomes)
        try expectOutcome(outcome, matches: store)
        // A record owed again is sent again; one in conflict waits for its lookup.
        let resent = try store.modifyRequests().first?.operations.map(\.record.recordName)
        #expect((resent == ["N1"]) == (becomes == .pending || becomes == .deletedLocally))
    }

    // MARK: Outcomes that say what the store shows

    @Test("A late duplicate of an old update answered CONFLICT is stale, not a conflict: the record stays synced")
    func lateDuplicateConflictIsStale() throws {
        let store = try RecordStore.inMemory()
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Base"), tag: "t1"))])
        try store.save(noteRecord("N1", title: "Edit"))
        let request = try #require(try store.modifyRequests().first)
        let saved = try store.apply(
            RecordsModifyResponse(records: [.success(serverCopy(of: noteRecord("N1", title: "Edit"), tag: "t2"))]),
            for: request)
        #expect(saved.saved == [noteKey("N1")])
        let before = [noteKey("N1"): try #require(try stored(store, "N1"))]

        let outcome = try store.apply(refusal("N1", .conflict), for: request)
        #expect(outcome.stale == [noteKey("N1")])
        #expect(outcome.conflicts.isEmpty)
        #expect(try stored(store, "N1")?.status == .synced)
        try expectOutcome(outcome, matches: store, before: before)
        #expect(try store.records(in: .conflict).isEmpty)
    }

    @Test("An answer replayed after a reopening syncs the record at once: the outcome's saved records are synced")
    func replayedAnswerAfterReopening() throws {
        try withStoreDirectory { directory in
            let request: RecordsModifyRequest
            do {
                let store = try RecordStore(directory: directory)
                try store.save(contentsOf: [noteRecord("A", title: "A"), noteRecord("B", title: "B")])
                request = try #require(try store.modifyRequests().first)
            }
            let store = try RecordStore(directory: directory)
            try store.save(noteRecord("B", title: "B, edited"))
            let answers = request.operations.map { RecordResult.success(serverCopy(of: $0.record, tag: "t1")) }
            let outcome = try store.apply(RecordsModifyResponse(records: answers), for: request)
            #expect(outcome.saved == [noteKey("A")])
            #expect(outcome.superseded == [noteKey("B")])
            try expectOutcome(outcome, matches: store)
            #expect(try store.records(in: .pending).map(\.key) == [noteKey("B")])
            #expect(try store.records(in: .synced).map(\.key) == [noteKey("A")])

            // Applied again, it says the same of each.
            let again = try store.apply(RecordsModifyResponse(records: answers), for: request)
            #expect(again.saved == [noteKey("A")])
            #expect(again.superseded == [noteKey("B")])
        }
    }

    @Test("An older request's answer while a later one is out: superseded, sent, and stale when said again")
    func olderAnswerWhileLaterOut() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "First"))
        let first = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Second"))
        let second = try #require(try store.modifyRequests().first)
        let outcome = try store.apply(
            RecordsModifyResponse(records: [.success(serverCopy(of: noteRecord("N1", title: "First"), tag: "t1"))]),
            for: first)
        #expect(outcome.superseded == [noteKey("N1")])
        #expect(outcome.saved.isEmpty)
        #expect(try stored(store, "N1")?.status == .sent)
        // The older request's silence says nothing while the later one is out.
        let before = [noteKey("N1"): try #require(try stored(store, "N1"))]
        let silent = try store.apply(RecordsModifyResponse(records: []), for: first)
        #expect(silent.stale == [noteKey("N1")])
        try expectOutcome(silent, matches: store, before: before)
        let last = try store.apply(
            RecordsModifyResponse(records: [.success(serverCopy(of: noteRecord("N1", title: "Second"), tag: "t2"))]),
            for: second)
        #expect(last.saved == [noteKey("N1")])
        try expectOutcome(last, matches: store)
    }

    @Test(
        "Random answers, late, twice, lost or refused: every outcome lists each record once, as the store shows it",
        arguments: 0..<8 as Range<UInt64>)
    func outcomesMatchTheStore(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let store = try RecordStore.inMemory()
        let names = ["N0", "N1", "N2", "N3"]
        let codes: [RecordServerError.Code] = [
            .exists, .conflict, .serverRecordChanged, .notFound, .throttled, .atomicError,
        ]
        var requests: [RecordsModifyRequest] = []
        for step in 0..<300 {
            let name = try #require(names.randomElement(using: &random))
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                try store.save(noteRecord(name, title: "v\(step)"))
            case 30..<38:
                try store.deleteRecord(for: noteKey(name))
            case 38..<55:
                requests += try store.modifyRequests()
            case 55..<85:
                guard let request = requests.randomElement(using: &random) else { continue }
                let answers: [RecordResult] = request.operations.compactMap { operation in
                    let recordName = operation.record.recordName
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<5 where operation.operationType.isDeleting:
                        return .success(deletionMarker(recordName))
                    case 0..<5:
                        return .success(serverCopy(of: operation.record, tag: "t\(step)"))
                    case 5..<9:
                        let code = codes[Int.random(in: 0..<codes.count, using: &random)]
                        return .failure(RecordServerError(recordName: recordName, serverErrorCode: code))
                    default:
                        return nil
                    }
                }
                var before: [RecordKey: StoredRecord] = [:]
                for operation in request.operations {
                    let key = noteKey(operation.record.recordName)
                    before[key] = try store.storedRecord(for: key)
                }
                let outcome = try store.apply(RecordsModifyResponse(records: answers), for: request)
                let listed =
                    outcome.saved + outcome.superseded + outcome.deleted + outcome.conflicts
                    + Array(outcome.failed.keys) + outcome.unanswered + outcome.stale
                #expect(listed.sorted() == request.operations.map { noteKey($0.record.recordName) }.sorted())
                try expectOutcome(outcome, matches: store, before: before)
            case 85..<95:
                for lookup in try store.conflictLookupRequests() {
                    let found: [RecordResult] = lookup.recordNames.map { recordName in
                        Bool.random(using: &random)
                            ? .success(serverCopy(of: noteRecord(recordName, title: "v\(step)"), tag: "s\(step)"))
                            : .failure(RecordServerError(recordName: recordName, serverErrorCode: .notFound))
                    }
                    try store.applyFetched(RecordsLookupResponse(records: found), for: lookup)
                }
            default:
                for conflict in try store.records(in: .conflict) where conflict.serverRecord != nil {
                    try store.acceptServerVersion(for: conflict.key)
                }
            }
        }
    }

    // MARK: The zone's owner

    @Test("changesRequest(forZone:) names the zone's owner once the server named it, across a reopening")
    func changesRequestNamesLearnedOwner() throws {
        try withStoreDirectory { directory in
            let zoneID = RecordZoneID(zoneName: "Notes", ownerRecordName: "_9a065b60313a5937e75e03ed8e8f383d")
            do {
                let store = try RecordStore(directory: directory)
                #expect(try store.changesRequest(forZone: "Notes").zoneID == RecordZoneID(zoneName: "Notes"))
                let page = try JSONDecoder().decode(
                    RecordsChangesResponse.self,
                    from: Data(
                        #"""
                        {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_9a065b60313a5937e75e03ed8e8f383d"},
                         "records": [{"recordName": "N1", "recordType": "Note", "recordChangeTag": "e",
                                      "fields": {"title": {"value": "Hello", "type": "STRING"}}}],
                         "syncToken": "AQAAAAAAAwmV", "moreComing": false}
                        """#.utf8))
                try store.applyFetched(page)
                #expect(
                    try store.changesRequest(forZone: "Notes")
                        == RecordsChangesRequest(zoneID: zoneID, syncToken: "AQAAAAAAAwmV"))
            }
            let store = try RecordStore(directory: directory)
            #expect(try store.changesRequest(forZone: "Notes").zoneID == zoneID)
            // A page applied by zone name alone keeps the owner known.
            try store.applyFetched(RecordsChangesResponse(records: [], syncToken: "next"), zone: "Notes")
            #expect(
                try store.changesRequest(forZone: "Notes") == RecordsChangesRequest(zoneID: zoneID, syncToken: "next"))
            #expect(
                try store.changesRequest(forZones: ["Notes"]).zones == [
                    RecordsChangesRequest(zoneID: zoneID, syncToken: "next")
                ])
            // A zone ID that names its owner is asked for as it is.
            let other = RecordZoneID(zoneName: "Notes", ownerRecordName: "_other")
            #expect(try store.changesRequest(forZone: other).zoneID == other)
        }
    }

    // MARK: changes/zone

    /// A `changes/zone` answer shaped as the reference's: a page for one zone, an error for another.
    static let zoneChangesAnswer = #"""
        {"zones": [
          {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_9a065b60313a5937e75e03ed8e8f383d"},
           "syncToken": "AQAAAAAAAwmW", "moreComing": true,
           "records": [
             {"recordName": "N1", "recordType": "Note", "recordChangeTag": "e",
              "fields": {"title": {"value": "Hello", "type": "STRING"}}},
             {"recordName": "N2", "recordType": "Note", "recordChangeTag": "f", "deleted": true}
           ]},
          {"zoneID": {"zoneName": "Gone", "ownerRecordName": "_9a065b60313a5937e75e03ed8e8f383d"},
           "serverErrorCode": "ZONE_NOT_FOUND", "reason": "Zone 'Gone' does not exist"}
        ]}
        """#

    @Test("A changes/zone answer is applied zone by zone: records, tokens and owners kept, a zone's error returned")
    func zoneChangesApplied() throws {
        let store = try RecordStore.inMemory()
        try store.applyFetched([.success(serverCopy(of: noteRecord("N2"), tag: "d"))], zone: "Notes")
        let request = try store.changesRequest(forZones: ["Notes", "Gone"], resultsLimit: 50)
        #expect(request.zones.map(\.zoneID.zoneName) == ["Notes", "Gone"])
        #expect(request.zones.allSatisfy { $0.syncToken == nil && $0.resultsLimit == 50 })

        let response = try RecordJSONDecoder().decode(ZoneChangesResponse.self, from: Data(Self.zoneChangesAnswer.utf8))
        let failed = try store.applyFetched(response)
        #expect(failed.map(\.serverErrorCode) == [.zoneNotFound])
        #expect(failed.first?.zoneID?.zoneName == "Gone")
        #expect(try store.record(for: noteKey("N1", zone: "Notes"))?["title"] == .string("Hello"))
        #expect(try store.storedRecord(for: noteKey("N2", zone: "Notes")) == nil)
        #expect(try store.syncToken(forZone: "Notes") == "AQAAAAAAAwmW")
        #expect(try store.syncToken(forZone: "Gone") == nil)

        // The next page asks the zone with more, with its new token and its owner.
        let next = try #require(request.nextPage(after: response))
        #expect(next.zones.map(\.syncToken) == ["AQAAAAAAAwmW"])
        let owner = "_9a065b60313a5937e75e03ed8e8f383d"
        #expect(try store.changesRequest(forZones: ["Notes"]).zones.first?.zoneID.ownerRecordName == owner)
    }

    @Test("A zone's changes read as records/changes or as a changes/zone result leave the store the same")
    func eitherFormOfZoneChanges() throws {
        let response = try JSONDecoder().decode(ZoneChangesResponse.self, from: Data(Self.zoneChangesAnswer.utf8))
        let page = try #require(response.zones.first?.changes)
        let viaRecordsChanges = try RecordStore.inMemory()
        try viaRecordsChanges.applyFetched(page)
        let viaZoneChanges = try RecordStore.inMemory()
        try viaZoneChanges.applyFetched(ZoneChangesResponse(zones: [.success(page)]))
        for store in [viaRecordsChanges, viaZoneChanges] {
            #expect(try store.records(in: .synced).map(\.key) == [noteKey("N1", zone: "Notes")])
            #expect(try store.changesRequest(forZone: "Notes") == viaRecordsChanges.changesRequest(forZone: "Notes"))
        }
        #expect(
            try viaZoneChanges.record(for: noteKey("N1", zone: "Notes"))
                == viaRecordsChanges.record(for: noteKey("N1", zone: "Notes")))
    }
}
