import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// The sync cycle on a flaky network: answers that come late, twice, after a reopening or after
/// the app changed its mind, and conflicts resolved by deleting.
@Suite("Crossed answers and conflicts")
struct CrossedAnswersTests {
    func stored(_ store: RecordStore, _ name: String, zone: String = RecordStore.defaultZone) throws -> StoredRecord? {
        try store.storedRecord(for: noteKey(name, zone: zone))
    }

    /// The first operation of the next request `store` builds: one is owed.
    func nextOperation(_ store: RecordStore, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> RecordOperation
    {
        try #require(try store.modifyRequests().first?.operations.first, sourceLocation: sourceLocation)
    }

    /// A store, in memory or in `directory`, with "N1" synced as "Base", change tag t1, in
    /// `zone`.
    func syncedStore(at directory: URL? = nil, zone: String = RecordStore.defaultZone) throws -> RecordStore {
        let store = try directory.map { try RecordStore(directory: $0) } ?? RecordStore.inMemory()
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Base"), tag: "t1"))], zone: zone)
        return store
    }

    func saved(_ record: Record, tag: String) -> RecordsModifyResponse {
        RecordsModifyResponse(records: [.success(serverCopy(of: record, tag: tag))])
    }

    func notFound(_ name: String) -> RecordsModifyResponse {
        RecordsModifyResponse(records: [.failure(RecordServerError(recordName: name, serverErrorCode: .notFound))])
    }

    func conflict(_ name: String) -> RecordsModifyResponse {
        let error = RecordServerError(recordName: name, serverErrorCode: .serverRecordChanged)
        return RecordsModifyResponse(records: [.failure(error)])
    }

    // MARK: Late answers

    @Test("The answer to an older request confirms what that request sent, not an edit sent after it")
    func lateAnswerOfOlderRequest() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "First"))
        let first = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Second"))
        let second = try #require(try store.modifyRequests().first)
        #expect(second.operations.first?.record["title"] == .string("Second"))

        // The server saved the first request; the second one's answer is lost.
        try store.apply(saved(noteRecord("N1", title: "First"), tag: "t1"), for: first)
        let record = try #require(try stored(store, "N1"))
        #expect(record.status == .sent)
        #expect(record.record["title"] == .string("Second"))
        #expect(record.serverRecord?["title"] == .string("First"))
        #expect(record.serverRecord?.metadata?.changeTag == "t1")

        // Sent again, it is an update of what the server saved.
        let again = try nextOperation(store)
        #expect(again.operationType == .update)
        #expect(again.record.metadata?.changeTag == "t1")
        #expect(again.record.fields == ["title": .string("Second")])
        // The server's version, fetched, is the one the edit was made from: nothing is lost.
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "First"), tag: "t1"))])
        #expect(try store.record(for: noteKey("N1"))?["title"] == .string("Second"))
    }

    @Test("A backend without change tags: an update's late answer is applied to the version it updated")
    func lateAnswerWithoutChangeTags() throws {
        func note(_ fields: [String: RecordValue]) -> Record {
            Record(recordType: "Note", recordName: "N1", fields: fields)
        }
        let store = try RecordStore.inMemory()
        try store.applyFetched([.success(note(["title": .string("a"), "body": .string("b")]))])
        try store.save(note(["title": .string("a2"), "body": .string("b")]))
        let first = try nextOperation(store)
        // An update of what changed, never a create of it alone, though the server gave no tag.
        #expect(first.operationType == .update)
        #expect(first.record.fields == ["title": .string("a2")])
        let firstRequest = try #require(try store.modifyRequests().first)
        try store.save(note(["title": .string("a3")]))
        let second = try #require(try store.modifyRequests().first)
        // The server saved the first request; the second one failed for a while.
        try store.apply(saved(note(["title": .string("a2")]), tag: "t1"), for: firstRequest)
        let record = try #require(try stored(store, "N1"))
        #expect(record.serverRecord?.fields == ["title": .string("a2"), "body": .string("b")])
        let busy = RecordServerError(recordName: "N1", serverErrorCode: .tryAgainLater)
        try store.apply(RecordsModifyResponse(records: [.failure(busy)]), for: second)
        // Sent again, the update still clears the field the app removed.
        let again = try nextOperation(store)
        #expect(again.operationType == .update)
        #expect(again.record.metadata?.changeTag == "t1")
        #expect(again.record.fields == ["title": .string("a3")])
        #expect(again.record.clearedFields == ["body"])
    }

    @Test("The answer to the last request confirms the record even after an older one's came")
    func latestAnswerAfterOlderOne() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "First"))
        let first = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Second"))
        _ = try store.modifyRequests()
        try store.apply(saved(noteRecord("N1", title: "First"), tag: "t1"), for: first)
        let update = try #require(try store.modifyRequests().first)
        try store.apply(saved(noteRecord("N1", title: "Second"), tag: "t2"), for: update)
        let record = try #require(try stored(store, "N1"))
        #expect(record.status == .synced)
        #expect(record.record["title"] == .string("Second"))
        #expect(record.record.metadata?.changeTag == "t2")
        // The older answer, applied again now, changes nothing.
        try store.apply(saved(noteRecord("N1", title: "First"), tag: "t1"), for: first)
        #expect(try stored(store, "N1") == record)
    }

    @Test("A request read back from JSON is still the request its answer confirms: sent once, then synced")
    func requestKeptAsJSON() throws {
        let store = try syncedStore(zone: "Notes")
        try store.save(noteRecord("N1", title: "Edit"), inZone: "Notes")
        try store.save(noteRecord("N2", title: "New"), inZone: "Notes")
        var requests = 0
        while let request = try store.modifyRequests().first, requests < 3 {
            requests += 1
            // Kept as JSON for a background upload: the records lose their zones.
            let kept = try JSONDecoder().decode(RecordsModifyRequest.self, from: JSONEncoder().encode(request))
            #expect(kept.operations.map(\.record) != request.operations.map(\.record))
            let answers = kept.operations.map { RecordResult.success(serverCopy(of: $0.record, tag: "t2")) }
            try store.apply(RecordsModifyResponse(records: answers), for: kept)
        }
        #expect(requests == 1)
        #expect(try stored(store, "N1", zone: "Notes")?.status == .synced)
        #expect(try stored(store, "N1", zone: "Notes")?.record.fields == ["title": .string("Edit")])
        #expect(try stored(store, "N2", zone: "Notes")?.status == .synced)
    }

    @Test(
        "An answer applied after a reopening confirms what its request sent: an edit made since goes out as an update",
        arguments: [false, true])
    func answerAfterReopening(editedSince: Bool) throws {
        try withStoreDirectory { directory in
            let request: RecordsModifyRequest
            do {
                let store = try RecordStore(directory: directory)
                try store.save(noteRecord("N1", title: "First"))
                request = try #require(try store.modifyRequests().first)
                if editedSince { try store.save(noteRecord("N1", title: "Second")) }
            }
            let store = try RecordStore(directory: directory)
            try store.apply(saved(noteRecord("N1", title: "First"), tag: "t1"), for: request)
            guard editedSince else {
                #expect(try store.modifyRequests().isEmpty)
                let record = try #require(try stored(store, "N1"))
                #expect(record.status == .synced)
                #expect(record.record.metadata?.changeTag == "t1")
                return
            }
            #expect(try stored(store, "N1")?.status == .pending)
            let operation = try nextOperation(store)
            #expect(operation.operationType == .update)
            #expect(operation.record.metadata?.changeTag == "t1")
            #expect(operation.record.fields == ["title": .string("Second")])
        }
    }

    @Test("An update's late answer, after a reopening, is applied to the version the update was made from")
    func updateAnswerAfterReopening() throws {
        try withStoreDirectory { directory in
            let request: RecordsModifyRequest
            do {
                let store = try syncedStore(at: directory)
                var edit = noteRecord("N1", title: "Edit")
                edit["body"] = .string("Kept")
                try store.save(edit)
                request = try #require(try store.modifyRequests().first)
                try store.save(noteRecord("N1", title: "Later"))
            }
            let store = try RecordStore(directory: directory)
            try store.apply(saved(noteRecord("N1", title: "Edit"), tag: "t2"), for: request)
            let record = try #require(try stored(store, "N1"))
            #expect(record.serverRecord?.fields == ["title": .string("Edit"), "body": .string("Kept")])
            #expect(record.serverRecord?.metadata?.changeTag == "t2")
            let operation = try nextOperation(store)
            #expect(operation.record.metadata?.changeTag == "t2")
            #expect(operation.record.fields == ["title": .string("Later")])
            #expect(operation.record.clearedFields == ["body"])
        }
    }

    @Test("A saved answer to an update of a version the store does not know is a conflict, to be looked up")
    func answerOfUnknownBase() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Edit"))
        // A request the store did not build: an update made from another version, t9.
        var update = noteRecord("N1", title: "Edit")
        update.metadata = RecordMetadata(changeTag: "t9")
        let request = RecordsModifyRequest(operations: [RecordOperation(.update, record: update)])
        let outcome = try store.apply(saved(noteRecord("N1", title: "Edit"), tag: "t10"), for: request)
        #expect(outcome.conflicts == [noteKey("N1")])
        #expect(outcome.saved.isEmpty)
        let record = try #require(try stored(store, "N1"))
        #expect(record.status == .conflict)
        #expect(record.serverRecord == nil)
        #expect(try store.conflictLookupRequests().first?.recordNames == ["N1"])
    }

    @Test("A saved answer applied twice, after an edit, changes nothing the second time")
    func savedAnswerTwiceAfterEdit() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Edit"))
        let request = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Later"))
        let response = saved(noteRecord("N1", title: "Edit"), tag: "t2")
        try store.apply(response, for: request)
        let record = try stored(store, "N1")
        #expect(record?.status == .pending)
        #expect(record?.serverRecord?["title"] == .string("Edit"))
        try store.apply(response, for: request)
        #expect(try stored(store, "N1") == record)
    }

    // MARK: Changing one's mind while a request is out

    @Test("An edit undone while its update is out is sent whole, with the old change tag, for the server to judge")
    func revertWhileSent() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Edit"))
        _ = try #require(try store.modifyRequests().first)  // reaches the server; its answer is lost
        try store.save(noteRecord("N1", title: "Base"))
        let operation = try nextOperation(store)
        #expect(operation.operationType == .update)
        #expect(operation.record.metadata?.changeTag == "t1")
        #expect(operation.record.fields == ["title": .string("Base")])
        // The server has the edit: it refuses the old tag, and the undo is kept, in conflict.
        let request = try #require(try store.modifyRequests().first)
        try store.apply(conflict("N1"), for: request)
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Edit"), tag: "t2"))])
        let record = try #require(try stored(store, "N1"))
        #expect(record.status == .conflict)
        #expect(record.record["title"] == .string("Base"))
        #expect(record.serverRecord?["title"] == .string("Edit"))
    }

    @Test("An edit undone with no request out is not sent: the record is synced again")
    func revertWithNothingOut() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Edit"))
        try store.save(noteRecord("N1", title: "Base"))
        #expect(try store.modifyRequests().isEmpty)
        #expect(try stored(store, "N1")?.status == .synced)
    }

    // MARK: Conflict answers

    @Test("A conflict answer for a record that has moved on since — synced, or already in conflict — changes nothing")
    func staleConflictAnswers() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "First"))
        let request = try #require(try store.modifyRequests().first)
        try store.apply(saved(noteRecord("N1", title: "First"), tag: "t1"), for: request)
        let synced = try stored(store, "N1")
        try store.apply(conflict("N1"), for: request)
        #expect(try stored(store, "N1") == synced)

        let other = try syncedStore()
        try other.save(noteRecord("N1", title: "Mine"))
        let update = try #require(try other.modifyRequests().first)
        try other.apply(conflict("N1"), for: update)
        try other.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Theirs"), tag: "t2"))])
        let inConflict = try stored(other, "N1")
        #expect(inConflict?.serverRecord?["title"] == .string("Theirs"))
        try other.apply(conflict("N1"), for: update)
        #expect(try stored(other, "N1") == inConflict)
    }

    // MARK: Updates of records the server deleted

    @Test(
        "An update answered NOT_FOUND is in conflict with the server's deletion: saved again it is a create, accepted it is gone",
        arguments: [false, true])
    func updateNotFound(acceptsDeletion: Bool) throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Mine"))
        let request = try #require(try store.modifyRequests().first)
        #expect(request.operations.first?.operationType == .update)
        let outcome = try store.apply(notFound("N1"), for: request)
        #expect(outcome.conflicts == [noteKey("N1")])
        #expect(outcome.failed.isEmpty)
        let record = try #require(try stored(store, "N1"))
        #expect(record.status == .conflict)
        #expect(record.serverRecord?.metadata?.deleted == true)
        #expect(record.record["title"] == .string("Mine"))
        #expect(record.lastError?.serverErrorCode == .notFound)
        // Not sent again, and nothing to look up: the app decides.
        #expect(try store.modifyRequests().isEmpty)
        #expect(try store.conflictLookupRequests().isEmpty)
        if acceptsDeletion {
            try store.acceptServerVersion(for: noteKey("N1"))
            #expect(try stored(store, "N1") == nil)
        } else {
            try store.save(record.record)
            let operation = try nextOperation(store)
            #expect(operation.operationType == .create)
            #expect(operation.record.metadata?.changeTag == nil)
            #expect(operation.record.fields == ["title": .string("Mine")])
        }
    }

    @Test("An update of a record saved with its own change tag, answered NOT_FOUND, is in conflict, not sent for ever")
    func notFoundWithoutKnownServerVersion() throws {
        let store = try RecordStore.inMemory()
        var record = noteRecord("N1", title: "Edit")
        record.metadata = RecordMetadata(changeTag: "t1")
        try store.save(record)
        let request = try #require(try store.modifyRequests().first)
        #expect(request.operations.first?.operationType == .update)
        let outcome = try store.apply(notFound("N1"), for: request)
        #expect(outcome.conflicts == [noteKey("N1")])
        #expect(try store.modifyRequests().isEmpty)
    }

    @Test("A delete's answer applied again, once the record is in conflict with another version, changes nothing")
    func repeatedDeleteAnswer() throws {
        let store = try syncedStore()
        try store.deleteRecord(for: noteKey("N1"))
        let delete = try #require(try store.modifyRequests().first)
        let deleted = RecordsModifyResponse(records: [.success(deletionMarker("N1"))])
        try store.apply(deleted, for: delete)
        try store.save(noteRecord("N1", title: "New"))
        let create = try #require(try store.modifyRequests().first)
        try store.apply(saved(noteRecord("N1", title: "New"), tag: "t5"), for: create)
        try store.save(noteRecord("N1", title: "Mine"))
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Theirs"), tag: "t6"))])
        let before = try #require(try stored(store, "N1"))
        #expect(before.status == .conflict)
        let outcome = try store.apply(deleted, for: delete)
        #expect(outcome.deleted.isEmpty)
        #expect(try stored(store, "N1") == before)

        // In conflict with a version not known yet (a create refused), the delete's answer tells
        // it: the server has none, and the record is created again.
        let other = try RecordStore.inMemory()
        try other.save(noteRecord("N1", title: "First"))
        _ = try other.modifyRequests()
        try other.deleteRecord(for: noteKey("N1"))
        let otherDelete = try #require(try other.modifyRequests().first)
        try other.save(noteRecord("N1", title: "Again"))
        let otherCreate = try #require(try other.modifyRequests().first)
        try other.apply(conflict("N1"), for: otherCreate)
        let answer = try other.apply(deleted, for: otherDelete)
        // Deleted on the server, and owed again here as a create: the outcome says what the
        // store shows.
        #expect(answer.superseded == [noteKey("N1")])
        #expect(try other.storedRecord(for: noteKey("N1"))?.status == .pending)
    }

    @Test("An update answered NOT_FOUND after the app deleted the record too: it is gone")
    func updateNotFoundAfterDelete() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Mine"))
        let request = try #require(try store.modifyRequests().first)
        try store.deleteRecord(for: noteKey("N1"))
        let outcome = try store.apply(notFound("N1"), for: request)
        #expect(outcome.deleted == [noteKey("N1")])
        #expect(try stored(store, "N1") == nil)
        #expect(try store.modifyRequests().isEmpty)
    }

    @Test("NOT_FOUND for an update of a version the store no longer takes for the server's changes nothing")
    func staleNotFound() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Mine"))
        let first = try #require(try store.modifyRequests().first)
        try store.apply(notFound("N1"), for: first)
        // Applied twice: the record, saved again over the deletion, stays a create.
        try store.save(noteRecord("N1", title: "Mine"))
        var before = try stored(store, "N1")
        #expect(before?.status == .pending)
        try store.apply(notFound("N1"), for: first)
        #expect(try stored(store, "N1") == before)
        // Applied late, once the record was created anew and edited: the server has it.
        let create = try #require(try store.modifyRequests().first)
        try store.apply(saved(noteRecord("N1", title: "Mine"), tag: "t5"), for: create)
        try store.save(noteRecord("N1", title: "Mine, edited"))
        before = try stored(store, "N1")
        let outcome = try store.apply(notFound("N1"), for: first)
        #expect(outcome.conflicts.isEmpty)
        #expect(try stored(store, "N1") == before)
    }

    @Test("An update answered NOT_FOUND after a reopening is in conflict with the server's deletion")
    func updateNotFoundAfterReopening() throws {
        try withStoreDirectory { directory in
            let request: RecordsModifyRequest
            do {
                let store = try syncedStore(at: directory)
                try store.save(noteRecord("N1", title: "Mine"))
                request = try #require(try store.modifyRequests().first)
            }
            let store = try RecordStore(directory: directory)
            try store.apply(notFound("N1"), for: request)
            let record = try #require(try stored(store, "N1"))
            #expect(record.status == .conflict)
            #expect(record.serverRecord?.metadata?.deleted == true)
        }
    }

    // MARK: The app's own update, fetched back

    @Test("The app's own update, fetched before its answer, is no conflict: the edit made since updates it")
    func ownUpdateFetchedBack() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "First"))
        let first = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Second"))
        // A page of changes brings what the first request saved, before its answer comes.
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "First"), tag: "t2"))])
        var record = try #require(try stored(store, "N1"))
        #expect(record.status == .pending)
        #expect(record.record["title"] == .string("Second"))
        #expect(record.serverRecord?.metadata?.changeTag == "t2")
        let second = try #require(try store.modifyRequests().first)
        let operation = try #require(second.operations.first)
        #expect(operation.operationType == .update)
        #expect(operation.record.metadata?.changeTag == "t2")
        #expect(operation.record.fields == ["title": .string("Second")])
        // The first request's answer, late, changes nothing; the second one's syncs the record.
        try store.apply(saved(noteRecord("N1", title: "First"), tag: "t2"), for: first)
        #expect(try stored(store, "N1")?.status == .sent)
        try store.apply(saved(noteRecord("N1", title: "Second"), tag: "t3"), for: second)
        record = try #require(try stored(store, "N1"))
        #expect(record.status == .synced)
        #expect(record.record.metadata?.changeTag == "t3")

        // Another device's version fetched meanwhile is still a conflict.
        try store.save(noteRecord("N1", title: "Third"))
        _ = try store.modifyRequests()
        try store.save(noteRecord("N1", title: "Fourth"))
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Theirs"), tag: "t4"))])
        #expect(try stored(store, "N1")?.status == .conflict)
    }

    @Test("The app's own record with an uploaded asset, fetched back with a download address, is no conflict")
    func ownAssetFetchedBack() throws {
        let store = try RecordStore.inMemory()
        var mine = noteRecord("N1", title: "Base")
        mine["photo"] = .asset(RecordAsset(fileChecksum: "sum", size: 3, wrappingKey: "key", receipt: "rcpt"))
        try store.save(mine)
        _ = try store.modifyRequests()
        var theirs = serverCopy(of: noteRecord("N1", title: "Base"), tag: "t1")
        theirs["photo"] = .asset(RecordAsset(fileChecksum: "sum", size: 3, downloadURL: "https://example.com/${f}"))
        try store.applyFetched([.success(theirs)])
        #expect(try stored(store, "N1")?.status == .synced)
    }

    @Test("The app's own update fetched back after the app deleted the record: the delete goes with its tag")
    func ownUpdateFetchedBackAfterDelete() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "First"))
        _ = try store.modifyRequests()
        try store.save(noteRecord("N1", title: "Second"))
        try store.deleteRecord(for: noteKey("N1"))
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "First"), tag: "t2"))])
        #expect(try stored(store, "N1")?.status == .deletedLocally)
        let operation = try nextOperation(store)
        #expect(operation.operationType == .delete)
        #expect(operation.record.metadata?.changeTag == "t2")
    }

    // MARK: Lookups and queries

    @Test("A lookup or query response applied for its request files its records in the request's zone")
    func fetchedForTheirRequest() throws {
        let store = try RecordStore.inMemory()
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Base"), tag: "t1"))], zone: "Notes")
        try store.save(noteRecord("N1", title: "Mine"), inZone: "Notes")
        let request = try #require(try store.modifyRequests().first)
        try store.apply(conflict("N1"), for: request)
        let lookup = try #require(try store.conflictLookupRequests().first)
        #expect(lookup.zoneID?.zoneName == "Notes")
        // CloudKit's lookup responses name no zone.
        var theirs = noteRecord("N1", title: "Theirs")
        theirs.metadata = RecordMetadata(changeTag: "t2")
        try store.applyFetched(RecordsLookupResponse(records: [.success(theirs)]), for: lookup)
        #expect(try store.storedRecord(for: noteKey("N1", zone: "Notes"))?.serverRecord?["title"] == .string("Theirs"))
        #expect(try store.storedRecord(for: noteKey("N1")) == nil)

        var other = noteRecord("N2", title: "Other")
        other.metadata = RecordMetadata(changeTag: "t3")
        let query = RecordsQueryRequest(query: RecordQuery(recordType: "Note"), zoneID: RecordZoneID(zoneName: "Notes"))
        try store.applyFetched(RecordsQueryResponse(records: [.success(other)]), for: query)
        #expect(try store.record(for: noteKey("N2", zone: "Notes"))?["title"] == .string("Other"))
        #expect(try store.record(for: noteKey("N2")) == nil)
    }

    // MARK: Deletions

    @Test("The version a deletion was made from, fetched back, is no conflict: the delete goes with its tag")
    func deletedVersionFetchedBack() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "First"))
        _ = try #require(try store.modifyRequests().first)  // created on the server; its answer is lost
        try store.deleteRecord(for: noteKey("N1"))
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "First"), tag: "t1"))])
        #expect(try stored(store, "N1")?.status == .deletedLocally)
        #expect(try store.record(for: noteKey("N1")) == nil)
        let operation = try nextOperation(store)
        #expect(operation.operationType == .delete)
        #expect(operation.record.metadata?.changeTag == "t1")
    }

    @Test("A record saved back while its delete is out is created again when the delete's answer comes")
    func deletionUndoneWhileOut() throws {
        let store = try syncedStore()
        try store.deleteRecord(for: noteKey("N1"))
        let delete = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Base"))
        #expect(try store.modifyRequests().isEmpty)
        try store.apply(RecordsModifyResponse(records: [.success(deletionMarker("N1"))]), for: delete)
        #expect(try stored(store, "N1")?.status == .pending)
        let operation = try nextOperation(store)
        #expect(operation.operationType == .create)
        #expect(operation.record.fields == ["title": .string("Base")])
    }

    @Test("A record saved back while its delete is out, in conflict with the deletion fetched meanwhile, is created")
    func ownDeletionFetchedBack() throws {
        let store = try syncedStore()
        try store.deleteRecord(for: noteKey("N1"))
        let delete = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Again"))
        try store.applyFetched([.success(deletionMarker("N1", tag: "t2"))])
        try store.apply(RecordsModifyResponse(records: [.success(deletionMarker("N1"))]), for: delete)
        #expect(try stored(store, "N1")?.status == .pending)
        let operation = try nextOperation(store)
        #expect(operation.operationType == .create)
        #expect(operation.record.fields == ["title": .string("Again")])
    }

    @Test(
        "A conflict's lookup answered NOT_FOUND gives the server's deletion: saved again it is a create, accepted it is gone",
        arguments: [false, true])
    func conflictLookupNotFound(acceptsDeletion: Bool) throws {
        let store = try syncedStore(zone: "Notes")
        try store.save(noteRecord("N1", title: "Mine"), inZone: "Notes")
        let request = try #require(try store.modifyRequests().first)
        try store.apply(conflict("N1"), for: request)
        let lookup = try #require(try store.conflictLookupRequests().first)
        let missing = RecordServerError(recordName: "N1", serverErrorCode: .notFound)
        try store.applyFetched(RecordsLookupResponse(records: [.failure(missing)]), for: lookup)
        let key = noteKey("N1", zone: "Notes")
        #expect(try store.storedRecord(for: key)?.serverRecord?.metadata?.deleted == true)
        #expect(try store.conflictLookupRequests().isEmpty)
        if acceptsDeletion {
            try store.acceptServerVersion(for: key)
            #expect(try store.storedRecord(for: key) == nil)
        } else {
            try store.save(noteRecord("N1", title: "Mine, kept"), inZone: "Notes")
            let operation = try nextOperation(store)
            #expect(operation.operationType == .create)
        }
        // A lookup's NOT_FOUND for a record that is not waiting for one changes nothing.
        try store.save(noteRecord("N2", title: "Other"), inZone: "Notes")
        let before = try store.storedRecord(for: noteKey("N2", zone: "Notes"))
        let other = RecordServerError(recordName: "N2", serverErrorCode: .notFound)
        try store.applyFetched(RecordsLookupResponse(records: [.failure(other)]), for: lookup)
        #expect(try store.storedRecord(for: noteKey("N2", zone: "Notes")) == before)
    }

    @Test("A record deleted here and on the server is gone, whether it was in conflict or not")
    func deletedOnBothSides() throws {
        let store = try syncedStore()
        try store.deleteRecord(for: noteKey("N1"))
        let request = try #require(try store.modifyRequests().first)
        try store.apply(conflict("N1"), for: request)
        #expect(try stored(store, "N1")?.status == .conflict)
        try store.applyFetched([.success(deletionMarker("N1"))])
        #expect(try stored(store, "N1") == nil)
    }

    @Test("Deleting a record in conflict, once the server's version is known, sends a delete with its tag")
    func deleteResolvesConflict() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Mine"))
        let request = try #require(try store.modifyRequests().first)
        try store.apply(conflict("N1"), for: request)
        // Before the server's version is known, a deletion leaves the conflict as it is.
        try store.deleteRecord(for: noteKey("N1"))
        #expect(try stored(store, "N1")?.status == .conflict)
        try store.applyFetched([.success(serverCopy(of: noteRecord("N1", title: "Theirs"), tag: "t2"))])
        try store.deleteRecord(for: noteKey("N1"))
        #expect(try stored(store, "N1")?.status == .deletedLocally)
        let operation = try nextOperation(store)
        #expect(operation.operationType == .delete)
        #expect(operation.record.metadata?.changeTag == "t2")
    }

    @Test("Deleting a record in conflict with the server's deletion removes it: nothing is left to send")
    func deleteOverServerDeletion() throws {
        let store = try syncedStore()
        try store.save(noteRecord("N1", title: "Mine"))
        try store.applyFetched([.success(deletionMarker("N1", tag: "t2"))])
        #expect(try stored(store, "N1")?.status == .conflict)
        try store.deleteRecord(for: noteKey("N1"))
        #expect(try stored(store, "N1") == nil)
        #expect(try store.modifyRequests().isEmpty)
    }

    struct FiledDraft: Codable, Hashable {
        var id: String
        var title: String
        var folder: Folder?
    }

    @Test("A parked model's optional link: removed is cleared; one whose record the store lacks is left alone")
    func parkedOptionalLinks() throws {
        let store = try RecordStore.inMemory()
        try store.park(FiledDraft(id: "n1", title: "A", folder: Folder(id: "f", name: "F")))
        let request = try #require(try store.modifyRequests().first)
        try store.apply(
            RecordsModifyResponse(records: request.operations.map { .success(serverCopy(of: $0.record, tag: "t1")) }),
            for: request)
        var draft = try #require(try store.retrieve(FiledDraft.self, identifier: "n1"))
        draft.folder = nil
        try store.park(draft)
        var operation = try nextOperation(store)
        #expect(operation.record.clearedFields == ["folder"])
        #expect(operation.record.fields.isEmpty)

        // Fetched with a link to a folder the store has not fetched: the model reads no folder,
        // and an edit of its title leaves the link as the server has it.
        let other = try RecordStore.inMemory()
        let record = try #require(
            try RecordEncoder().encodeGraph(FiledDraft(id: "n2", title: "A", folder: Folder(id: "g", name: "G"))).first)
        try other.applyFetched([.success(serverCopy(of: record, tag: "t1"))])
        var fetched = try #require(try other.retrieve(FiledDraft.self, identifier: "n2"))
        #expect(fetched.folder == nil)
        fetched.title = "B"
        try other.park(fetched)
        operation = try nextOperation(other)
        #expect(operation.record.fields == ["title": .string("B")])
        #expect(operation.record.clearedFields.isEmpty)
    }

    @Test("A record saved, or a model parked, over the server's deletion is created anew, without the old tag")
    func savedOverServerDeletion() throws {
        let store = try syncedStore()
        var edited = try #require(try store.record(for: noteKey("N1")))
        edited["title"] = .string("Mine")
        try store.save(edited)
        try store.applyFetched([.success(deletionMarker("N1"))])
        let conflict = try #require(try stored(store, "N1"))
        #expect(conflict.record.metadata?.changeTag == "t1")
        try store.save(conflict.record)
        var operation = try nextOperation(store)
        #expect(operation.operationType == .create)
        #expect(operation.record.metadata?.changeTag == nil)

        let models = try RecordStore.inMemory()
        try models.park(Note(id: "N1", title: "Base"))
        let request = try #require(try models.modifyRequests().first)
        try models.apply(saved(request.operations[0].record, tag: "t1"), for: request)
        try models.park(Note(id: "N1", title: "Mine"))
        try models.applyFetched([.success(deletionMarker("N1", tag: "t2"))])
        try models.park(Note(id: "N1", title: "Mine again"))
        operation = try nextOperation(models)
        #expect(operation.operationType == .create)
        #expect(operation.record["title"] == .string("Mine again"))
        #expect(operation.record.metadata?.deleted != true)
    }
}
