import CloudKitStandIn
import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// `RecordStore.sync(with:)` against the stand-in: what a sync sends, fetches and resolves.
@Suite("The sync loop")
struct SyncLoopTests {
    // MARK: Sending

    @Test("A first sync creates the zone, sends creates, and ends with the store and the server equal")
    func firstSync() async throws {
        let device = try SyncingDevice()
        try device.store.save(contentsOf: [note("N1", "One"), note("N2", "Two")], inZone: "Notes")
        try device.store.save(noteRecord("D1", title: "In the default zone"))

        let report = try await device.sync()
        #expect(report.zonesCreated == ["Notes"])
        #expect(Set(report.sent) == [noteKey("N1", zone: "Notes"), noteKey("N2", zone: "Notes"), noteKey("D1")])
        #expect(Set(report.saved) == Set(report.sent))
        #expect(report.isComplete)
        #expect(report.failures.isEmpty)
        #expect(serverTitle(device.database, "N2") == "Two")
        #expect(device.database.appliedOperations(to: "N1", inZone: "Notes") == [.create])
        try expectInSync(device.store, device.database)

        // Nothing left: a second sync sends nothing, and creates no zone.
        let second = try await device.sync()
        #expect(second.sent.isEmpty)
        #expect(second.zonesCreated.isEmpty)
        #expect(device.database.requestCount(.modifyZones) == 1)
    }

    @Test("Edits go as updates with the server's change tag, deletions as deletes")
    func updatesAndDeletes() async throws {
        let device = try SyncingDevice()
        try device.store.save(contentsOf: [note("N1", "One"), note("N2", "Two")], inZone: "Notes")
        try await device.sync()

        var edited = try #require(try device.store.record(for: noteKey("N1", zone: "Notes")))
        edited["title"] = .string("One, edited")
        try device.store.save(edited, inZone: "Notes")
        try device.store.deleteRecord(for: noteKey("N2", zone: "Notes"))
        let report = try await device.sync()

        #expect(report.saved == [noteKey("N1", zone: "Notes")])
        #expect(report.deleted == [noteKey("N2", zone: "Notes")])
        #expect(serverTitle(device.database, "N1") == "One, edited")
        #expect(device.database.record("N2", inZone: "Notes") == nil)
        #expect(device.database.appliedOperations(to: "N1", inZone: "Notes") == [.create, .update])
        #expect(device.database.appliedOperations(to: "N2", inZone: "Notes") == [.create, .delete])
        try expectInSync(device.store, device.database)
    }

    @Test("Requests carry at most the service's operations per request", arguments: [1, 2, 3, 200])
    func requestSize(maximum: Int) async throws {
        let device = try SyncingDevice(maximumOperationsPerRequest: maximum)
        try device.store.save(contentsOf: (0..<7).map { note("N\($0)", "Note \($0)") }, inZone: "Notes")
        let report = try await device.sync()
        #expect(device.database.requestCount(.modifyRecords) == (7 + maximum - 1) / maximum)
        #expect(report.saved.count == 7)
        try expectInSync(device.store, device.database)
    }

    // MARK: Fetching

    @Test("Another device's creates, edits and deletions are fetched and applied")
    func changesFromAnotherDevice() async throws {
        let device = try SyncingDevice()
        try device.store.save(contentsOf: [note("N1", "One"), note("N2", "Two")], inZone: "Notes")
        try await device.sync()

        device.database.save(note("N3", "From the phone"), inZone: "Notes")
        device.database.edit("N1", inZone: "Notes") { $0["title"] = .string("One, on the phone") }
        device.database.delete("N2", inZone: "Notes")
        let report = try await device.sync()

        #expect(report.sent.isEmpty)
        #expect(Set(report.fetched.map(\.recordName)) == ["N1", "N3"])
        #expect(report.fetchedDeletions.map(\.recordName) == ["N2"])
        #expect(try device.title("N1") == "One, on the phone")
        #expect(try device.title("N3") == "From the phone")
        #expect(try device.store.record(for: noteKey("N2", zone: "Notes")) == nil)
        try expectInSync(device.store, device.database)
    }

    @Test("A new device follows the zones it is given, and pages through their changes", arguments: [1, 7, 200])
    func pagingOfChanges(pageLimit: Int) async throws {
        let database = StandInDatabase()
        for index in 0..<23 { database.save(note("N\(index)", "Note \(index)"), inZone: "Notes") }
        database.delete("N5", inZone: "Notes")
        let device = try SyncingDevice(database: database)

        let report = try await device.sync(pageLimit: pageLimit)
        // 22 records and a deletion, in pages of at most `pageLimit`.
        #expect(report.pagesFetched == max((23 + pageLimit - 1) / pageLimit, 1))
        #expect(report.fetched.count == 22)
        #expect(try device.store.keys().count == 22)
        #expect(try device.store.syncToken(forZone: "Notes") != nil)
        try expectInSync(device.store, database)
    }

    @Test("The default zone's records are sent, but its changes not fetched: CloudKit keeps no history of them")
    func defaultZone() async throws {
        let device = try SyncingDevice()
        try device.store.save(noteRecord("D1", title: "Here"))
        let report = try await device.sync(zones: [])
        #expect(report.saved == [noteKey("D1")])
        #expect(report.pagesFetched == 0)
        #expect(report.zoneFailures.isEmpty)
        #expect(device.database.requestCount(.zoneChanges) == 0)

        let asked = try await device.sync(zones: [RecordStore.defaultZone])
        #expect(asked.zoneFailures[RecordStore.defaultZone]?.serverErrorCode == .badRequest)
    }

    @Test("Zones that do not exist are reported, not thrown")
    func missingZone() async throws {
        let device = try SyncingDevice()
        let report = try await device.sync(zones: ["Nowhere"])
        #expect(report.zoneFailures["Nowhere"]?.serverErrorCode == .zoneNotFound)
    }

    @Test("A zone deleted on the server is reported, its records kept and owed, and not created anew")
    func zoneDeletedOnTheServer() async throws {
        let device = try SyncingDevice()
        try device.store.save(note("N1", "One"), inZone: "Notes")
        try await device.sync()
        device.database.deleteZone("Notes")
        var edited = try #require(try device.store.record(for: noteKey("N1", zone: "Notes")))
        edited["title"] = .string("Edited")
        try device.store.save(edited, inZone: "Notes")

        let report = try await device.sync()
        #expect(report.zoneFailures["Notes"]?.serverErrorCode == .zoneNotFound)
        #expect(report.failures[noteKey("N1", zone: "Notes")]?.serverErrorCode == .zoneNotFound)
        #expect(report.owed == [noteKey("N1", zone: "Notes")])
        #expect(report.zonesCreated.isEmpty)
        #expect(report.rounds == 1)
        #expect(try device.title("N1") == "Edited")
        #expect(!device.database.zoneNames.contains("Notes"))
    }

    // MARK: Conflicts

    /// A device with N1 synced, then edited here and on another device.
    func conflicted() async throws -> SyncingDevice {
        let device = try SyncingDevice()
        var record = note("N1", "Original")
        record["body"] = .string("Body")
        try device.store.save(record, inZone: "Notes")
        try await device.sync()
        var edited = try #require(try device.store.record(for: noteKey("N1", zone: "Notes")))
        edited["title"] = .string("Mine")
        try device.store.save(edited, inZone: "Notes")
        device.database.edit("N1", inZone: "Notes") {
            $0["title"] = .string("Theirs")
            $0["body"] = .string("Their body")
        }
        return device
    }

    @Test("By default a conflict stays in the store with both versions, and the report lists it")
    func conflictsLeftByDefault() async throws {
        let device = try await conflicted()
        let report = try await device.sync()
        #expect(report.conflictsLeft == [noteKey("N1", zone: "Notes")])
        #expect(!report.isComplete)
        let stored = try #require(try device.store.storedRecord(for: noteKey("N1", zone: "Notes")))
        #expect(stored.status == .conflict)
        #expect(stored.record["title"] == .string("Mine"))
        #expect(stored.serverRecord?["title"] == .string("Theirs"))
        #expect(serverTitle(device.database, "N1") == "Theirs")

        // A second sync loses nothing either; the app resolves it when it likes.
        let again = try await device.sync()
        #expect(again.conflictsLeft == [noteKey("N1", zone: "Notes")])
        #expect(try device.store.storedRecord(for: noteKey("N1", zone: "Notes")) == stored)
    }

    @Test("Records a conflict held back in an atomic request go again in the same sync, without it")
    func atomicRequestWithAConflict() async throws {
        let device = try await conflicted()
        try device.store.save(contentsOf: [note("N2", "Two"), note("N3", "Three")], inZone: "Notes")
        let report = try await device.sync()
        #expect(report.rounds == 2)
        #expect(Set(report.saved) == [noteKey("N2", zone: "Notes"), noteKey("N3", zone: "Notes")])
        #expect(report.failures.isEmpty)
        #expect(report.owed.isEmpty)
        #expect(report.conflictsLeft == [noteKey("N1", zone: "Notes")])
        #expect(device.database.appliedOperations(to: "N2", inZone: "Notes") == [.create])
    }

    @Test("Keep the server's: the record takes the other device's version")
    func keepServer() async throws {
        let device = try await conflicted()
        let report = try await device.sync(.keepServer)
        #expect(report.conflictsResolved == [noteKey("N1", zone: "Notes")])
        #expect(report.conflictsLeft.isEmpty)
        #expect(try device.title("N1") == "Theirs")
        #expect(device.database.appliedOperations(to: "N1", inZone: "Notes") == [.create])
        try expectInSync(device.store, device.database)
    }

    @Test("Keep ours: our version goes again, over the server's change tag, in the same sync")
    func keepLocal() async throws {
        let device = try await conflicted()
        let report = try await device.sync(.keepLocal)
        #expect(report.conflictsResolved == [noteKey("N1", zone: "Notes")])
        #expect(report.isComplete)
        #expect(serverTitle(device.database, "N1") == "Mine")
        #expect(device.database.appliedOperations(to: "N1", inZone: "Notes") == [.create, .update])
        try expectInSync(device.store, device.database)
    }

    @Test("Merge: the closure's record goes to the server as an update of its version")
    func merge() async throws {
        let device = try await conflicted()
        let report = try await device.sync(
            .merge { local, server in
                var merged = server
                merged["title"] = local["title"]
                return merged
            })
        #expect(report.isComplete)
        let server = try #require(device.database.record("N1", inZone: "Notes"))
        #expect(server["title"] == .string("Mine"))
        #expect(server["body"] == .string("Their body"))
        try expectInSync(device.store, device.database)
    }

    @Test("Merge to nil deletes the record; a merge that renames the record is an error, the conflict kept")
    func mergeToNothingAndBadMerge() async throws {
        let device = try await conflicted()
        try await device.sync(.merge { _, _ in nil })
        #expect(device.database.record("N1", inZone: "Notes") == nil)
        try expectInSync(device.store, device.database)

        let other = try await conflicted()
        await #expect(
            throws: RecordStoreError.mergeChangedRecord(
                key: noteKey("N1", zone: "Notes"), recordType: "Note", recordName: "N9")
        ) {
            try await other.sync(.merge { local, _ in note("N9", "Elsewhere") })
        }
        #expect(try other.store.storedRecord(for: noteKey("N1", zone: "Notes"))?.status == .conflict)

        struct MergeFailed: Error {}
        await #expect(throws: MergeFailed.self) { try await other.sync(.merge { _, _ in throw MergeFailed() }) }
        #expect(try other.store.storedRecord(for: noteKey("N1", zone: "Notes"))?.status == .conflict)
        #expect(serverTitle(other.database, "N1") == "Theirs")
    }

    @Test("A deletion against an edit keeps the edit, with any policy but keepBoth: nothing is lost")
    func deletionAgainstEdit() async throws {
        // Deleted here, edited there: the server's edit is kept.
        let device = try SyncingDevice()
        try device.store.save(note("N1", "Original"), inZone: "Notes")
        try await device.sync()
        try device.store.deleteRecord(for: noteKey("N1", zone: "Notes"))
        device.database.edit("N1", inZone: "Notes") { $0["title"] = .string("Theirs") }
        try await device.sync(.merge { local, _ in local })
        #expect(try device.title("N1") == "Theirs")
        try expectInSync(device.store, device.database)

        // Edited here, deleted there: ours is made anew, with keepLocal and with merge.
        let policies: [(String, RecordStore.ConflictPolicy)] = [
            ("Mine", .keepLocal), ("Mine again", .merge { _, server in server }),
        ]
        for (title, policy) in policies {
            var edited = try #require(try device.store.record(for: noteKey("N1", zone: "Notes")))
            edited["title"] = .string(title)
            try device.store.save(edited, inZone: "Notes")
            device.database.delete("N1", inZone: "Notes")
            try await device.sync(policy)
            #expect(serverTitle(device.database, "N1") == title)
            try expectInSync(device.store, device.database)
        }
    }

    @Test("A zone the options name with its owner is asked for with that owner, though the store holds records of it")
    func followedZoneKeepsItsOwner() async throws {
        let device = try SyncingDevice()
        let shared = RecordZoneID(zoneName: "Shared", ownerRecordName: "_owner")
        var record = note("S1", "One")
        record.metadata = RecordMetadata(zoneID: shared)
        try device.store.save(record, inZone: "Shared")
        let service = ChangesRequestRecorder(device.service)
        _ = try await device.store.sync(with: service, options: RecordStore.SyncOptions(zones: [shared]))
        #expect(service.changesRequests.first?.zones.map(\.zoneID) == [shared])
    }

    // MARK: Faults

    @Test("A request throttled as a whole stops the sync with the store consistent; the next sync finishes")
    func throttledRequest() async throws {
        let device = try SyncingDevice()
        try device.store.save(note("N1", "One"), inZone: "Notes")
        device.database.inject(.throttle(retryAfter: 3), on: .modifyRecords)
        let error = try await #require(throws: RecordServerError.self) { try await device.sync() }
        #expect(error.serverErrorCode == .throttled)
        #expect(error.retryDelay() == 3)
        #expect(device.database.record("N1", inZone: "Notes") == nil)

        try await device.sync()
        #expect(device.database.appliedOperations(to: "N1", inZone: "Notes") == [.create])
        try expectInSync(device.store, device.database)
    }

    @Test("Records refused for now are sent again after the delay the server asks for, in the same sync")
    func throttledRecords() async throws {
        let device = try SyncingDevice()
        try device.store.save(contentsOf: [note("N1", "One"), note("N2", "Two")], inZone: "Notes")
        device.database.inject(.throttleRecords(retryAfter: 0.01), on: .modifyRecords)
        let report = try await device.sync()
        #expect(report.rounds == 2)
        #expect(report.sent.count == 4)
        #expect(report.failures.isEmpty)
        #expect(report.isComplete)
        try expectInSync(device.store, device.database)
    }

    @Test("Records refused for longer than the sync waits are left owed, listed with their error")
    func throttledForLong() async throws {
        let device = try SyncingDevice()
        try device.store.save(note("N1", "One"), inZone: "Notes")
        device.database.inject(.throttleRecords(retryAfter: 600), on: .modifyRecords)
        let report = try await device.sync()
        #expect(report.rounds == 1)
        #expect(report.owed == [noteKey("N1", zone: "Notes")])
        #expect(report.failures[noteKey("N1", zone: "Notes")]?.serverErrorCode == .throttled)
        #expect(!report.isComplete)

        try await device.sync()
        try expectInSync(device.store, device.database)
    }

    @Test("A delay past what a Duration holds is too long even when the options would wait for ever")
    func throttledPastDuration() async throws {
        let device = try SyncingDevice()
        try device.store.save(note("N1", "One"), inZone: "Notes")
        device.database.inject(.throttleRecords(retryAfter: 1e30), on: .modifyRecords)
        var options = RecordStore.SyncOptions(zones: [RecordZoneID(zoneName: "Notes")])
        options.maximumRetryDelay = .infinity
        // Before the bound, the wait for 1e30 seconds trapped in Duration.seconds(_:).
        let report = try await device.store.sync(with: device.service, options: options)
        #expect(report.rounds == 1)
        #expect(report.owed == [noteKey("N1", zone: "Notes")])
        #expect(report.failures[noteKey("N1", zone: "Notes")]?.retryAfter == 1e30)

        try await device.sync()
        try expectInSync(device.store, device.database)
    }

    @Test(
        "A busy zone and a server error stop the sync; the next one finishes",
        arguments: [
            StandInFault.zoneBusy(retryAfter: 1), .httpStatus(500), .httpStatus(503),
        ])
    func refusedRequests(fault: StandInFault) async throws {
        let device = try SyncingDevice()
        try device.store.save(note("N1", "One"), inZone: "Notes")
        device.database.inject(fault, on: .zoneChanges)
        await #expect(throws: RecordServerError.self) { try await device.sync() }
        try await device.sync()
        #expect(device.database.appliedOperations(to: "N1", inZone: "Notes") == [.create])
        try expectInSync(device.store, device.database)
    }

    @Test("Two syncs at once end as one would: nothing applied twice")
    func concurrentSyncs() async throws {
        let device = try SyncingDevice(maximumOperationsPerRequest: 3)
        try device.store.save(contentsOf: (0..<20).map { note("N\($0)", "Note \($0)") }, inZone: "Notes")
        let store = device.store
        let service = device.service
        async let first = store.sync(with: service)
        async let second = store.sync(with: service)
        _ = try await (first, second)
        try await device.sync()
        try expectInSync(device.store, device.database)
        for index in 0..<20 {
            #expect(device.database.appliedOperations(to: "N\(index)", inZone: "Notes") == [.create])
        }
    }

    @Test("A cancelled task sends nothing")
    func cancellation() async throws {
        let device = try SyncingDevice()
        try device.store.save(note("N1", "One"), inZone: "Notes")
        let store = device.store
        let service = device.service
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.sync(with: service)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(device.database.record("N1", inZone: "Notes") == nil)
        try await device.sync()
        try expectInSync(device.store, device.database)
    }
}

/// A service that passes each call on, and keeps the changes requests it was given.
final class ChangesRequestRecorder: RecordSyncService, @unchecked Sendable {
    private let service: StandInService
    private let lock = NSLock()
    private var requests: [ZoneChangesRequest] = []

    init(_ service: StandInService) {
        self.service = service
    }

    /// The changes requests, in order.
    var changesRequests: [ZoneChangesRequest] { lock.withLock { requests } }

    var maximumOperationsPerRequest: Int { service.maximumOperationsPerRequest }

    func modifyRecords(_ request: RecordsModifyRequest) async throws -> RecordsModifyResponse {
        try await service.modifyRecords(request)
    }

    func lookupRecords(_ request: RecordsLookupRequest) async throws -> RecordsLookupResponse {
        try await service.lookupRecords(request)
    }

    func fetchZoneChanges(_ request: ZoneChangesRequest) async throws -> ZoneChangesResponse {
        lock.withLock { requests.append(request) }
        return try await service.fetchZoneChanges(request)
    }

    func modifyZones(_ request: ZonesModifyRequest) async throws -> ZonesModifyResponse {
        try await service.modifyZones(request)
    }
}
