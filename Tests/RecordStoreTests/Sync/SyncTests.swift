import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

@Suite("Sync state")
struct SyncTests {
    /// The server's copy of `record` with the change tag `tag` (see `serverCopy(of:tag:)`), applied
    /// to `store` as fetched.
    @discardableResult
    func fetch(_ record: Record, tag: String, into store: RecordStore) throws -> Record {
        let fetched = serverCopy(of: record, tag: tag)
        try store.applyFetched([.success(fetched)])
        return fetched
    }

    func status(_ store: RecordStore, _ name: String) throws -> SyncStatus? {
        try store.storedRecord(for: noteKey(name))?.status
    }

    @Test("Saved, sent, synced: a new record goes out as a create and comes back with its change tag")
    func createCycle() throws {
        let store = try RecordStore.inMemory()
        let record = noteRecord("N1", title: "Hello")
        try store.save(record)
        #expect(try status(store, "N1") == .pending)

        let requests = try store.modifyRequests()
        let request = try #require(requests.first)
        #expect(requests.count == 1)
        #expect(request.zoneID == RecordZoneID(zoneName: RecordStore.defaultZone))
        #expect(request.operations.map(\.operationType) == [.create])
        #expect(request.operations.first?.record == record)
        #expect(try status(store, "N1") == .sent)
        #expect(try store.records(in: .sent).map(\.key) == [noteKey("N1")])

        let outcome = try store.apply(
            RecordsModifyResponse(records: [.success(serverCopy(of: record, tag: "t1"))]), for: request)
        #expect(outcome.saved == [noteKey("N1")])
        let stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .synced)
        #expect(stored.record.metadata?.changeTag == "t1")
        #expect(stored.record.fields == record.fields)
        #expect(try store.modifyRequests().isEmpty)
    }

    @Test("An edit of a synced record sends only what changed, with the server's change tag")
    func updateOfChangesOnly() throws {
        let store = try RecordStore.inMemory()
        var fetched = noteRecord("N1", title: "Old")
        fetched["body"] = .string("unchanged")
        fetched["due"] = .date(Date(timeIntervalSince1970: 1_700_000_000))
        fetched.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(fetched)])
        #expect(try status(store, "N1") == .synced)

        var edited = fetched
        edited["title"] = .string("New")
        edited["due"] = nil
        try store.save(edited)
        let stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .pending)
        #expect(stored.serverRecord == fetched)

        let request = try #require(try store.modifyRequests().first)
        let operation = try #require(request.operations.first)
        #expect(operation.operationType == .update)
        #expect(operation.record.fields == ["title": .string("New")])
        #expect(operation.record.clearedFields == ["due"])
        #expect(operation.record.metadata?.changeTag == "t1")
    }

    @Test("An edit back to what the server has is not sent: the record is synced again")
    func editThatChangesNothing() throws {
        let store = try RecordStore.inMemory()
        var fetched = noteRecord("N1", title: "Same")
        fetched.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(fetched)])
        try store.save(noteRecord("N1", title: "Changed"))
        try store.save(noteRecord("N1", title: "Same"))
        #expect(try store.modifyRequests().isEmpty)
        #expect(try status(store, "N1") == .synced)
        #expect(try store.record(for: noteKey("N1"))?.metadata?.changeTag == "t1")
    }

    @Test("A local deletion is a delete with the change tag; the server's answer removes the record")
    func deleteCycle() throws {
        let store = try RecordStore.inMemory()
        var fetched = noteRecord("N1")
        fetched.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(fetched)])
        try store.deleteRecord(for: noteKey("N1"))
        #expect(try status(store, "N1") == .deletedLocally)
        #expect(try store.record(for: noteKey("N1")) == nil)
        #expect(try store.storedRecord(for: noteKey("N1"))?.isDeletion == true)

        let request = try #require(try store.modifyRequests().first)
        #expect(request.operations.map(\.operationType) == [.delete])
        #expect(request.operations.first?.record.metadata?.changeTag == "t1")
        var marker = Record(recordType: "", recordName: "N1")
        marker.metadata = RecordMetadata(deleted: true)
        let outcome = try store.apply(RecordsModifyResponse(records: [.success(marker)]), for: request)
        #expect(outcome.deleted == [noteKey("N1")])
        #expect(try store.storedRecord(for: noteKey("N1")) == nil)
    }

    @Test("A deleted record stays hidden while its delete is sent, and after a conflict over it")
    func deletionStaysHidden() throws {
        let store = try RecordStore.inMemory()
        var fetched = noteRecord("N1")
        fetched.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(fetched)])
        try store.deleteRecord(for: noteKey("N1"))
        let request = try #require(try store.modifyRequests().first)
        #expect(try store.record(for: noteKey("N1")) == nil)
        #expect(try store.records(ofType: "Note").isEmpty)
        #expect(try store.storedRecord(for: noteKey("N1"))?.status == .deletedLocally)
        let conflict = RecordServerError(recordName: "N1", serverErrorCode: .conflict)
        try store.apply(RecordsModifyResponse(records: [.failure(conflict)]), for: request)
        let stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .conflict)
        #expect(stored.isDeletion)
        #expect(try store.record(for: noteKey("N1")) == nil)
    }

    @Test("A conflict keeps the local version; the server's, once fetched, is kept beside it")
    func conflictCycle() throws {
        let store = try RecordStore.inMemory()
        var fetched = noteRecord("N1", title: "Base")
        fetched.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(fetched)])
        try store.save(noteRecord("N1", title: "Mine"))
        let request = try #require(try store.modifyRequests().first)

        let conflict = RecordServerError(recordName: "N1", reason: "changed", serverErrorCode: .serverRecordChanged)
        let outcome = try store.apply(RecordsModifyResponse(records: [.failure(conflict)]), for: request)
        #expect(outcome.conflicts == [noteKey("N1")])
        var stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .conflict)
        #expect(stored.record["title"] == .string("Mine"))
        #expect(stored.serverRecord == nil)
        #expect(stored.lastError == conflict)
        #expect(try store.modifyRequests().isEmpty)

        let lookup = try #require(try store.conflictLookupRequests().first)
        #expect(lookup.recordNames == ["N1"])
        var theirs = noteRecord("N1", title: "Theirs")
        theirs.metadata = RecordMetadata(changeTag: "t2")
        try store.applyFetched(RecordsLookupResponse(records: [.success(theirs)]))
        stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .conflict)
        #expect(stored.record["title"] == .string("Mine"))
        #expect(stored.serverRecord == theirs)
        #expect(try store.conflictLookupRequests().isEmpty)

        // Saving a merge resolves it, as an update of the server's version.
        try store.save(noteRecord("N1", title: "Mine and theirs"))
        #expect(try status(store, "N1") == .pending)
        let resolved = try #require(try store.modifyRequests().first?.operations.first)
        #expect(resolved.record.metadata?.changeTag == "t2")
        #expect(resolved.record.fields == ["title": .string("Mine and theirs")])
    }

    @Test("Conflict look-ups ask for at most the records asked for, each name once")
    func conflictLookupsInParts() throws {
        let store = try RecordStore.inMemory()
        try store.save(contentsOf: ["A", "B", "C"].map { noteRecord($0) })
        let request = try #require(try store.modifyRequests().first)
        let conflicts = ["A", "B", "C"].map { RecordServerError(recordName: $0, serverErrorCode: .conflict) }
        try store.apply(RecordsModifyResponse(records: conflicts.map { .failure($0) }), for: request)
        let lookups = try store.conflictLookupRequests(maximumRecords: 2)
        #expect(lookups.map(\.recordNames) == [["A", "B"], ["C"]])
        #expect(try store.conflictLookupRequests().map(\.recordNames) == [["A", "B", "C"]])
    }

    @Test("Taking the server's version resolves a conflict the other way")
    func acceptServerVersion() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "Mine"))
        var theirs = noteRecord("N1", title: "Theirs")
        theirs.metadata = RecordMetadata(changeTag: "t9")
        try store.applyFetched([.success(theirs)])
        #expect(try status(store, "N1") == .conflict)
        try store.acceptServerVersion(for: noteKey("N1"))
        #expect(try store.storedRecord(for: noteKey("N1"))?.status == .synced)
        #expect(try store.record(for: noteKey("N1")) == theirs)
    }

    @Test("A retryable error, or any other, leaves the record pending with the error; no answer leaves it pending")
    func errorsStayPending() throws {
        let store = try RecordStore.inMemory()
        try store.save(contentsOf: [noteRecord("A"), noteRecord("B"), noteRecord("C")])
        let request = try #require(try store.modifyRequests().first)
        let busy = RecordServerError(recordName: "A", serverErrorCode: .zoneBusy)
        let invalid = RecordServerError(recordName: "B", reason: "bad field", serverErrorCode: .invalidArguments)
        let outcome = try store.apply(
            RecordsModifyResponse(records: [.failure(busy), .failure(invalid)]), for: request)
        #expect(outcome.failed == [noteKey("A"): busy, noteKey("B"): invalid])
        #expect(outcome.unanswered == [noteKey("C")])
        #expect(try store.records(in: .pending).map(\.key) == [noteKey("A"), noteKey("B"), noteKey("C")])
        #expect(try store.storedRecord(for: noteKey("A"))?.lastError == busy)
        #expect(try store.modifyRequests().first?.operations.count == 3)
    }

    @Test("An edit made while the record was sent stays pending, as an update of what the server saved")
    func editWhileSent() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("N1", title: "First"))
        let request = try #require(try store.modifyRequests().first)
        try store.save(noteRecord("N1", title: "Second"))
        #expect(try status(store, "N1") == .pending)
        try store.apply(
            RecordsModifyResponse(records: [.success(serverCopy(of: noteRecord("N1", title: "First"), tag: "t1"))]),
            for: request)
        let stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .pending)
        #expect(stored.record["title"] == .string("Second"))
        let next = try #require(try store.modifyRequests().first?.operations.first)
        #expect(next.operationType == .update)
        #expect(next.record.metadata?.changeTag == "t1")
        #expect(next.record.fields == ["title": .string("Second")])
    }

    @Test("A server error is kept across a reopen; a delay JSON cannot carry is dropped, not the error")
    func errorsAreDurable() throws {
        try withStoreDirectory { directory in
            let busy = RecordServerError(recordName: "A", serverErrorCode: .zoneBusy, retryAfter: 2.5)
            let throttled = RecordServerError(recordName: "B", serverErrorCode: .throttled, retryAfter: .infinity)
            do {
                let store = try RecordStore(directory: directory)
                try store.save(contentsOf: [noteRecord("A"), noteRecord("B")])
                let request = try #require(try store.modifyRequests().first)
                try store.apply(RecordsModifyResponse(records: [.failure(busy), .failure(throttled)]), for: request)
            }
            let store = try RecordStore(directory: directory)
            #expect(try store.storedRecord(for: noteKey("A"))?.lastError == busy)
            #expect(
                try store.storedRecord(for: noteKey("B"))?.lastError
                    == RecordServerError(recordName: "B", serverErrorCode: .throttled))
        }
    }

    @Test("Sent is forgotten on reopening: the record is pending, and sent again")
    func sentIsNotDurable() throws {
        try withStoreDirectory { directory in
            do {
                let store = try RecordStore(directory: directory)
                try store.save(noteRecord("N1"))
                _ = try store.modifyRequests()
                #expect(try store.storedRecord(for: noteKey("N1"))?.status == .sent)
            }
            let store = try RecordStore(directory: directory)
            #expect(try store.storedRecord(for: noteKey("N1"))?.status == .pending)
            #expect(try store.modifyRequests().first?.operations.count == 1)
        }
    }

    @Test("A record deleted after its request went out, and the store reopened, still sends its delete")
    func deleteAfterReopenOfSentRecord() throws {
        try withStoreDirectory { directory in
            do {
                let store = try RecordStore(directory: directory)
                try store.save(noteRecord("N1"))
                try store.save(noteRecord("N2"))
                let request = try #require(try store.modifyRequests().first)
                // The response to N2 never comes: it may be on the server.
                try store.apply(
                    RecordsModifyResponse(records: [.success(serverCopy(of: noteRecord("N1"), tag: "t1"))]),
                    for: request)
            }
            let store = try RecordStore(directory: directory)
            #expect(try store.storedRecord(for: noteKey("N2"))?.status == .pending)
            try store.deleteRecord(for: noteKey("N2"))
            #expect(try store.storedRecord(for: noteKey("N2"))?.status == .deletedLocally)
            let request = try #require(try store.modifyRequests().first)
            #expect(request.operations.map(\.operationType) == [.forceDelete])
            #expect(request.operations.map(\.record.recordName) == ["N2"])

            // The server never had it: its NOT_FOUND removes the record.
            let notFound = RecordServerError(recordName: "N2", serverErrorCode: .notFound)
            let outcome = try store.apply(RecordsModifyResponse(records: [.failure(notFound)]), for: request)
            #expect(outcome.deleted == [noteKey("N2")])
            #expect(try store.storedRecord(for: noteKey("N2")) == nil)
        }
    }

    @Test("A record never in a request is simply removed when deleted; one whose create went unanswered is not")
    func deleteOfNeverSentRecord() throws {
        let store = try RecordStore.inMemory()
        try store.save(contentsOf: [noteRecord("A"), noteRecord("B")])
        try store.deleteRecord(for: noteKey("A"))
        #expect(try store.storedRecord(for: noteKey("A")) == nil)

        let request = try #require(try store.modifyRequests().first)
        try store.apply(RecordsModifyResponse(records: []), for: request)
        #expect(try status(store, "B") == .pending)
        try store.save(noteRecord("B", title: "Edited"))
        try store.deleteRecord(for: noteKey("B"))
        #expect(try status(store, "B") == .deletedLocally)
    }

    @Test("Records of two types with one name in a zone are sent one at a time, as CloudKit names them by both")
    func sharedNameSentOneAtATime() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("A"))
        try store.save(Record(recordType: "Folder", recordName: "A", fields: ["title": .string("Folder")]))
        let first = try #require(try store.modifyRequests().first)
        #expect(first.operations.map(\.record.recordType) == ["Folder"])
        #expect(try store.storedRecord(for: noteKey("A"))?.status == .pending)

        var saved = Record(recordType: "Folder", recordName: "A", fields: ["title": .string("Folder")])
        saved.metadata = RecordMetadata(changeTag: "t1", zoneID: RecordZoneID(zoneName: RecordStore.defaultZone))
        let outcome = try store.apply(RecordsModifyResponse(records: [.success(saved)]), for: first)
        #expect(outcome.saved == [RecordKey(recordType: "Folder", recordName: "A")])
        #expect(try store.storedRecord(for: noteKey("A"))?.status == .pending)
        let second = try #require(try store.modifyRequests().first)
        #expect(second.operations.map(\.record.recordType) == ["Note"])
    }

    @Test("Fetched records are synced, not pending; changes pages keep their sync token per zone")
    func fetchedRecords() throws {
        try withStoreDirectory { directory in
            do {
                let store = try RecordStore(directory: directory)
                var first = noteRecord("N1")
                first.metadata = RecordMetadata(changeTag: "t1", zoneID: RecordZoneID(zoneName: "Notes"))
                try store.applyFetched(
                    RecordsChangesResponse(
                        records: [.success(first)], syncToken: "token-1", moreComing: false,
                        zoneID: RecordZoneID(zoneName: "Notes")))
                #expect(try store.syncToken(forZone: "Notes") == "token-1")
                #expect(try store.syncToken() == nil)
                #expect(try store.changesRequest(forZone: "Notes").syncToken == "token-1")
                #expect(try store.records(in: .synced).map(\.key) == [noteKey("N1", zone: "Notes")])
                #expect(try store.modifyRequests().isEmpty)
            }
            let store = try RecordStore(directory: directory)
            #expect(try store.syncToken(forZone: "Notes") == "token-1")
            var marker = Record(recordType: "", recordName: "N1")
            marker.metadata = RecordMetadata(deleted: true)
            try store.applyFetched(
                RecordsChangesResponse(records: [.success(marker)], syncToken: "token-2"), zone: "Notes")
            #expect(try store.count == 0)
            #expect(try store.syncToken(forZone: "Notes") == "token-2")
        }
    }

    @Test("A fetched record over a pending edit of another version is a conflict; of the same version, nothing")
    func fetchedOverPending() throws {
        let store = try RecordStore.inMemory()
        var base = noteRecord("N1", title: "Base")
        base.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(base)])
        try store.save(noteRecord("N1", title: "Mine"))
        try store.applyFetched([.success(base)])
        #expect(try status(store, "N1") == .pending)
        var newer = noteRecord("N1", title: "Theirs")
        newer.metadata = RecordMetadata(changeTag: "t2")
        try store.applyFetched([.success(newer)])
        #expect(try status(store, "N1") == .conflict)
        #expect(try store.storedRecord(for: noteKey("N1"))?.serverRecord == newer)
    }

    @Test("A newer version of a synced record, fetched, replaces it: synced, with the server's change tag")
    func fetchedOverSynced() throws {
        let store = try RecordStore.inMemory()
        var first = noteRecord("N1", title: "First")
        first["body"] = .string("removed on another device")
        try fetch(first, tag: "t1", into: store)
        var second = noteRecord("N1", title: "Second")
        second["due"] = .date(Date(timeIntervalSince1970: 1_700_000_000))
        second = try fetch(second, tag: "t2", into: store)

        let stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .synced)
        #expect(stored.record == second)
        #expect(stored.serverRecord == nil)
        #expect(try store.modifyRequests().isEmpty)
        // The next edit is an update of the version fetched last.
        var edited = second
        edited["title"] = .string("Mine")
        try store.save(edited)
        let operation = try #require(try store.modifyRequests().first?.operations.first)
        #expect(operation.operationType == .update)
        #expect(operation.record.metadata?.changeTag == "t2")
        #expect(operation.record.fields == ["title": .string("Mine")])
    }

    @Test("A fetched version that a pending edit already matches ends the edit: synced, with the server's change tag")
    func fetchedMatchingPendingEdit() throws {
        let store = try RecordStore.inMemory()
        try fetch(noteRecord("N1", title: "Base"), tag: "t1", into: store)
        try store.save(noteRecord("N1", title: "Same everywhere"))
        // Another device made the same edit, and the server saved it first.
        let theirs = try fetch(noteRecord("N1", title: "Same everywhere"), tag: "t2", into: store)

        let stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .synced)
        #expect(stored.record.fields == theirs.fields)
        #expect(stored.record.metadata?.changeTag == "t2")
        #expect(stored.serverRecord == nil)
        #expect(try store.modifyRequests().isEmpty)
    }

    @Test("A fetched record keeps the local file of each asset whose content the server has unchanged")
    func fetchedKeepsLocalAssetFiles() throws {
        let store = try RecordStore.inMemory()
        let cover = URL(fileURLWithPath: "/tmp/cover.jpg")
        let page = URL(fileURLWithPath: "/tmp/page-1.jpg")
        let other = URL(fileURLWithPath: "/tmp/page-2.jpg")
        var local = noteRecord("N1")
        local["cover"] = .asset(RecordAsset(fileURL: cover, fileChecksum: "c1", size: 10))
        local["pages"] = .list([
            .asset(RecordAsset(fileURL: page, fileChecksum: "p1")),
            .asset(RecordAsset(fileURL: other, fileChecksum: "p2")),
        ])
        local["old"] = .asset(RecordAsset(fileURL: other, fileChecksum: "o1"))
        try fetch(local, tag: "t1", into: store)

        // The server's next version: the same cover, a new second page, and the old asset replaced.
        let download = "https://cvws.icloud-content.com/B/${f}"
        var fetched = noteRecord("N1", title: "Retitled")
        fetched["cover"] = .asset(RecordAsset(fileChecksum: "c1", size: 10, downloadURL: download))
        fetched["pages"] = .list([
            .asset(RecordAsset(fileChecksum: "p1", downloadURL: download)),
            .asset(RecordAsset(fileChecksum: "p3", downloadURL: download)),
        ])
        fetched["old"] = .asset(RecordAsset(fileChecksum: "o2", downloadURL: download))
        try fetch(fetched, tag: "t2", into: store)

        let stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .synced)
        #expect(stored.record["title"] == .string("Retitled"))
        #expect(
            stored.record["cover"]
                == .asset(RecordAsset(fileURL: cover, fileChecksum: "c1", size: 10, downloadURL: download)))
        #expect(
            stored.record["pages"]
                == .list([
                    .asset(RecordAsset(fileURL: page, fileChecksum: "p1", downloadURL: download)),
                    .asset(RecordAsset(fileChecksum: "p3", downloadURL: download)),
                ]))
        #expect(stored.record["old"] == .asset(RecordAsset(fileChecksum: "o2", downloadURL: download)))
    }

    @Test("A list of assets whose length changed on the server keeps none of its local files")
    func fetchedAssetListOfOtherLength() throws {
        let store = try RecordStore.inMemory()
        var local = noteRecord("N1")
        local["pages"] = .list([.asset(RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/p1"), fileChecksum: "p1"))])
        try fetch(local, tag: "t1", into: store)
        var fetched = noteRecord("N1")
        fetched["pages"] = .list([.asset(RecordAsset(fileChecksum: "p1")), .asset(RecordAsset(fileChecksum: "p2"))])
        try fetch(fetched, tag: "t2", into: store)
        #expect(try store.record(for: noteKey("N1"))?["pages"] == fetched["pages"])
    }

    @Test("A response applied twice changes nothing the second time")
    func responseAppliedTwice() throws {
        let store = try RecordStore.inMemory()
        let record = noteRecord("N1", title: "Hello")
        try store.save(record)
        let request = try #require(try store.modifyRequests().first)
        let response = RecordsModifyResponse(records: [.success(serverCopy(of: record, tag: "t1"))])
        try store.apply(response, for: request)
        let synced = try store.storedRecord(for: noteKey("N1"))
        let again = try store.apply(response, for: request)
        #expect(again.saved == [noteKey("N1")])
        #expect(try store.storedRecord(for: noteKey("N1")) == synced)
        #expect(synced?.status == .synced)
    }

    @Test(
        "A record deleted on the server while edited here is a conflict; while untouched, it is removed",
        arguments: ["Note", ""])
    func deletedOnServer(markerType: String) throws {
        // The server leaves the type out of a deletion (""); the store reads the marker as the
        // record's own either way.
        let store = try RecordStore.inMemory()
        for name in ["kept", "edited", "accepted"] {
            var record = noteRecord(name)
            record.metadata = RecordMetadata(changeTag: "t1")
            try store.applyFetched([.success(record)])
        }
        try store.save(noteRecord("edited", title: "Mine"))
        try store.save(noteRecord("accepted", title: "Mine"))
        var markers: [RecordResult] = []
        for name in ["kept", "edited", "accepted"] {
            var marker = Record(recordType: markerType, recordName: name)
            marker.metadata = RecordMetadata(deleted: true)
            markers.append(.success(marker))
        }
        try store.applyFetched(markers)
        #expect(try store.storedRecord(for: noteKey("kept")) == nil)
        let edited = try #require(try store.storedRecord(for: noteKey("edited")))
        #expect(edited.status == .conflict)
        #expect(edited.serverRecord?.metadata?.deleted == true)
        #expect(edited.serverRecord?.recordType == "Note")
        // Accepting the server's side removes the record; saving it again makes it anew.
        try store.acceptServerVersion(for: noteKey("accepted"))
        #expect(try store.storedRecord(for: noteKey("accepted")) == nil)
        try store.save(noteRecord("edited", title: "Mine again"))
        let operation = try #require(try store.modifyRequests().first?.operations.first)
        #expect(operation.operationType == .create)
    }

    @Test("Requests hold at most the operations asked for, one zone each")
    func requestSplitting() throws {
        let store = try RecordStore.inMemory()
        try store.save(contentsOf: (0..<5).map { noteRecord("N\($0)") })
        try store.save(noteRecord("W1"), inZone: "Work")
        let requests = try store.modifyRequests(maximumOperations: 2)
        #expect(requests.map(\.zoneID?.zoneName) == ["Work", "_defaultZone", "_defaultZone", "_defaultZone"])
        #expect(requests.map(\.operations.count) == [1, 2, 2, 1])
    }

    /// A zone that Alice shared with the user, or Bob's of the same name.
    static func sharedZone(of owner: String) -> RecordZoneID {
        RecordZoneID(zoneName: "Shared", ownerRecordName: owner)
    }

    @Test("A looked-up record, read back, edited and saved, stays in the request's zone, owner and all")
    func lookedUpRecordKeepsItsZone() throws {
        let store = try RecordStore.inMemory()
        // Lookup responses do not say their records' zone: the request does.
        var fetched = noteRecord("T1", title: "Old")
        fetched.metadata = RecordMetadata(changeTag: "c1")
        let lookup = RecordsLookupRequest(recordNames: ["T1"], zoneID: Self.sharedZone(of: "_alice"))
        try store.applyFetched(RecordsLookupResponse(records: [.success(fetched)]), for: lookup)
        let key = noteKey("T1", zone: "Shared")
        var record = try #require(try store.record(for: key))
        #expect(record.metadata?.zoneID == Self.sharedZone(of: "_alice"))

        record["title"] = .string("New")
        try store.save(record)
        #expect(try store.keys() == [key])
        let request = try #require(try store.modifyRequests().first)
        #expect(request.zoneID == Self.sharedZone(of: "_alice"))
        #expect(request.operations.map(\.operationType) == [.update])
        #expect(request.operations.first?.record.fields == ["title": .string("New")])
        #expect(request.operations.first?.record.metadata?.changeTag == "c1")
    }

    /// Applies the note `name` as fetched from the zone `zoneID`, then saves an edit of it.
    func fetchAndEdit(_ name: String, in zoneID: RecordZoneID, into store: RecordStore) throws {
        var record = noteRecord(name)
        record.metadata = RecordMetadata(changeTag: "t", zoneID: zoneID)
        try store.applyFetched([.success(record)])
        record["title"] = .string("Edited")
        try store.save(record)
    }

    @Test("A record made here goes with the records of its zone, to the owner they name")
    func newRecordJoinsItsZonesOwner() throws {
        let store = try RecordStore.inMemory()
        try fetchAndEdit("S1", in: Self.sharedZone(of: "_alice"), into: store)
        try store.save(noteRecord("S2"), inZone: "Shared")
        // In the user's own zone, fetched records name the user as the owner; new ones name none.
        try fetchAndEdit("N1", in: RecordZoneID(zoneName: "Notes", ownerRecordName: "_me"), into: store)
        try store.save(noteRecord("N2"), inZone: "Notes")

        let requests = try store.modifyRequests()
        #expect(
            requests.map(\.zoneID) == [
                RecordZoneID(zoneName: "Notes", ownerRecordName: "_me"), Self.sharedZone(of: "_alice"),
            ])
        #expect(requests.map { Set($0.operations.map(\.record.recordName)) } == [["N1", "N2"], ["S1", "S2"]])
    }

    @Test(
        "A record made here that went to its zone's owner keeps that zone: its retry and conflict lookup go there too")
    func newRecordKeepsTheZoneItWentTo() throws {
        let store = try RecordStore.inMemory()
        try fetchAndEdit("S1", in: Self.sharedZone(of: "_alice"), into: store)
        try store.save(noteRecord("S2"), inZone: "Shared")
        let request = try #require(try store.modifyRequests().first)
        #expect(request.zoneID == Self.sharedZone(of: "_alice"))
        #expect(try store.record(for: noteKey("S2", zone: "Shared"))?.metadata?.zoneID == Self.sharedZone(of: "_alice"))

        // The edit is saved; the new record is refused for now, and goes again alone.
        var saved = noteRecord("S1", title: "Edited")
        saved.metadata = RecordMetadata(changeTag: "t2")
        let busy = RecordServerError(recordName: "S2", serverErrorCode: .zoneBusy)
        try store.apply(RecordsModifyResponse(records: [.success(saved), .failure(busy)]), for: request)
        let retry = try #require(try store.modifyRequests().first)
        #expect(retry.zoneID == Self.sharedZone(of: "_alice"))
        #expect(retry.operations.map(\.record.recordName) == ["S2"])

        let conflict = RecordServerError(recordName: "S2", serverErrorCode: .conflict)
        try store.apply(RecordsModifyResponse(records: [.failure(conflict)]), for: retry)
        #expect(try store.conflictLookupRequests().map(\.zoneID) == [Self.sharedZone(of: "_alice")])
    }

    @Test("A record made here alone in its zone goes to the zone its metadata names, else to the user's own")
    func newRecordAloneInItsZone() throws {
        let store = try RecordStore.inMemory()
        var fetched = noteRecord("S1")
        fetched.metadata = RecordMetadata(changeTag: "t", zoneID: Self.sharedZone(of: "_alice"))
        try store.applyFetched([.success(fetched)])
        try store.save(noteRecord("S2"), inZone: "Shared")
        #expect(try store.modifyRequests().map(\.zoneID) == [RecordZoneID(zoneName: "Shared")])

        // S2 goes again where it went while its answer has not come, beside a record that names
        // the shared zone's owner.
        var named = noteRecord("S3")
        named.metadata = RecordMetadata(zoneID: Self.sharedZone(of: "_alice"))
        try store.save(named)
        let requests = try store.modifyRequests()
        #expect(requests.map(\.zoneID) == [RecordZoneID(zoneName: "Shared"), Self.sharedZone(of: "_alice")])
        #expect(requests.map { $0.operations.map(\.record.recordName) } == [["S2"], ["S3"]])
    }

    @Test("A lookup applied by zone name keeps the owner the store knew for the record")
    func lookupByNameKeepsOwner() throws {
        let store = try RecordStore.inMemory()
        var fetched = noteRecord("S1", title: "Old")
        fetched.metadata = RecordMetadata(changeTag: "c1", zoneID: Self.sharedZone(of: "_alice"))
        try store.applyFetched([.success(fetched)])
        var newer = noteRecord("S1", title: "Theirs")
        newer.metadata = RecordMetadata(changeTag: "c2")
        try store.applyFetched(RecordsLookupResponse(records: [.success(newer)]), zone: "Shared")
        var record = try #require(try store.record(for: noteKey("S1", zone: "Shared")))
        #expect(record.metadata?.zoneID == Self.sharedZone(of: "_alice"))
        #expect(record.metadata?.changeTag == "c2")
        record["title"] = .string("Mine")
        try store.save(record)
        #expect(try store.modifyRequests().map(\.zoneID) == [Self.sharedZone(of: "_alice")])
    }

    @Test("Records of two owners' zones of one name go in two requests, each to its owner's zone")
    func zonesOfTwoOwners() throws {
        let store = try RecordStore.inMemory()
        for (name, owner) in [("A", "_alice"), ("B", "_bob")] {
            try fetchAndEdit(name, in: Self.sharedZone(of: owner), into: store)
        }
        // Named by neither owner: the user's own zone of that name.
        try store.save(noteRecord("C"), inZone: "Shared")
        let requests = try store.modifyRequests()
        #expect(
            requests.map(\.zoneID) == [
                RecordZoneID(zoneName: "Shared"), Self.sharedZone(of: "_alice"), Self.sharedZone(of: "_bob"),
            ])
        #expect(requests.map { $0.operations.map(\.record.recordName) } == [["C"], ["A"], ["B"]])

        let conflicts = requests.map { request in
            RecordsModifyResponse(
                records: request.operations.map {
                    .failure(RecordServerError(recordName: $0.record.recordName, serverErrorCode: .conflict))
                })
        }
        for (request, response) in zip(requests, conflicts) { try store.apply(response, for: request) }
        let lookups = try store.conflictLookupRequests()
        #expect(lookups.map(\.zoneID) == requests.map(\.zoneID))
        #expect(lookups.map(\.recordNames) == [["C"], ["A"], ["B"]])
    }

    @Test("A changes page given its zone by name keeps the owner its own zone ID names")
    func changesPageKeepsOwner() throws {
        let store = try RecordStore.inMemory()
        var fetched = noteRecord("C1")
        fetched.metadata = RecordMetadata(changeTag: "t1")
        let page = RecordsChangesResponse(
            records: [.success(fetched)], syncToken: "s1", zoneID: Self.sharedZone(of: "_alice"))
        try store.applyFetched(page, zone: "Shared")
        let record = try #require(try store.record(for: noteKey("C1", zone: "Shared")))
        #expect(record.metadata?.zoneID == Self.sharedZone(of: "_alice"))
        #expect(try store.syncToken(forZone: "Shared") == "s1")
        let next = try store.changesRequest(forZone: Self.sharedZone(of: "_alice"))
        #expect(next.zoneID == Self.sharedZone(of: "_alice"))
        #expect(next.syncToken == "s1")
    }

    @Test("A parked model's request goes through RecordsModifyRequest's JSON as CloudKit takes it")
    func requestJSON() throws {
        let store = try RecordStore.inMemory()
        try store.park(Note(id: "N1", title: "Hello"))
        let request = try #require(try store.modifyRequests().first)
        let json = try JSONEncoder().encode(request)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let operations = try #require(object["operations"] as? [[String: Any]])
        #expect(operations.first?["operationType"] as? String == "create")
        #expect((object["zoneID"] as? [String: Any])?["zoneName"] as? String == "_defaultZone")
    }
}
