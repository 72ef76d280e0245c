import CloudKitStandIn
import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// `RecordStore.sync(with:)` through `CloudKitDatabase` and `URLSession`, against the stand-in
/// behind a loopback HTTP server, through each failure a network has. After each, a sync with no
/// fault must end with the store and the server equal (nothing lost) and each operation applied
/// once on the server (nothing sent twice).
@Suite("Syncing over HTTP, through a network's faults")
struct SyncOverHTTPTests {
    /// A device and server in the middle of things, as `SyncLoopFaultTests` has them: records
    /// synced before, then created, edited and deleted here in two zones, and edited on another
    /// device.
    static func workload() async throws -> HTTPSyncingDevice {
        let device = try HTTPSyncingDevice()
        try await FaultWorkload.prepare(device) { try await device.sync() }
        return device
    }

    @Test("The workload, with no fault, ends as expected, each request sent once")
    func cleanRun() async throws {
        let device = try await Self.workload()
        let before = device.server.received.count
        let report = try await device.sync()
        #expect(report.isComplete)
        #expect(device.server.received.count - before == report.requests)
        #expect(device.delays.all.isEmpty)
        try FaultWorkload.expectEnd(device)
    }

    /// The paths a sync of the workload reaches, where each fault is played.
    static let paths = ["records/modify", "zones/modify", "changes/zone"]

    @Test(
        "A refusal the client retries (429 with Retry-After, 503 with Retry-After): the sync completes, after the delay asked",
        arguments: [(429, 2), (503, 1)], paths)
    func refusalRetried(status: (code: Int, retryAfter: Int), path: String) async throws {
        let device = try await Self.workload()
        device.server.faults.inject(.status(status.code, retryAfter: status.retryAfter), onPath: path)
        let report = try await device.sync()
        #expect(report.isComplete)
        #expect(device.delays.all == [.seconds(status.retryAfter)])
        try FaultWorkload.expectEnd(device)
    }

    @Test(
        "A throttle with the delay in the body's retryAfter: the client waits what the body says",
        arguments: [StandInOperation.modifyRecords, .zoneChanges, .modifyZones])
    func throttledInTheBody(operation: StandInOperation) async throws {
        let device = try await Self.workload()
        device.database.inject(.throttle(retryAfter: 3), on: operation)
        let report = try await device.sync()
        #expect(report.isComplete)
        #expect(device.delays.all == [.seconds(3)])
        try FaultWorkload.expectEnd(device)
    }

    @Test("Every record throttled, or the zone busy, for a moment: the sync sends them again in another round")
    func recordsThrottled() async throws {
        for fault in [StandInFault.throttleRecords(retryAfter: 0.01), .zoneBusy(retryAfter: 0.01)] {
            let device = try await Self.workload()
            device.database.inject(fault, on: .modifyRecords)
            let report = try await device.sync()
            #expect(report.isComplete, "\(fault)")
            try FaultWorkload.expectEnd(device)
        }
    }

    @Test(
        "A failure the client does not retry (500, or a 503 too long to wait): the sync throws, the next one ends the same",
        arguments: [LoopbackFault.status(500), .status(503, retryAfter: 3600)], paths)
    func refusalThrown(fault: LoopbackFault, path: String) async throws {
        let device = try await Self.workload()
        device.server.faults.inject(fault, onPath: path)
        await #expect(throws: CloudKitError.self) { try await device.sync() }
        try await device.syncToTheEnd()
        try FaultWorkload.expectEnd(device)
    }

    @Test(
        "The connection fails with no answer — closed before it, cut mid-answer, reset — before or after the server applied the request",
        arguments: [
            LoopbackFault.closeBeforeAnswer(handled: false), .closeBeforeAnswer(handled: true), .closeMidAnswer,
            .reset(handled: false), .reset(handled: true),
        ], paths)
    func noAnswer(fault: LoopbackFault, path: String) async throws {
        let device = try await Self.workload()
        device.server.faults.inject(fault, onPath: path)
        // A read or a create the client sends again; a modify with updates and deletes it may
        // not, and the sync throws: either way the next sync ends the same.
        do {
            try await device.sync()
        } catch let error as CloudKitError {
            guard case .noAnswer = error.reason else {
                Issue.record("\(fault) on \(path): \(error)")
                return
            }
        }
        try await device.syncToTheEnd()
        try FaultWorkload.expectEnd(device)
    }

    /// The requests a clean sync of the workload makes.
    static let requestsOfCleanRun = 7

    @Test("A clean sync of the workload makes the requests counted here")
    func requestsCounted() async throws {
        let device = try await Self.workload()
        let before = device.server.received.count
        try await device.sync()
        #expect(device.server.received.count - before == Self.requestsOfCleanRun)
    }

    @Test(
        "Each request of the sync in turn gets no answer, applied or not: the next sync ends the same",
        arguments: 1...requestsOfCleanRun,
        [LoopbackFault.closeBeforeAnswer(handled: false), .closeMidAnswer, .reset(handled: true)])
    func noAnswerAtEachRequest(request: Int, fault: LoopbackFault) async throws {
        let device = try await Self.workload()
        device.server.faults.inject(fault, atRequest: device.server.received.count + request)
        _ = try? await device.sync()
        try await device.syncToTheEnd()
        try FaultWorkload.expectEnd(device)
    }

    @Test("Every modify's answer lost, three times in a row, each sync stopped: the fourth ends the same")
    func answersLostRepeatedly() async throws {
        let device = try await Self.workload()
        for _ in 0..<3 {
            device.server.faults.inject(.closeMidAnswer, onPath: "records/modify")
            _ = try? await device.sync()
        }
        try await device.syncToTheEnd()
        try FaultWorkload.expectEnd(device)
    }

    @Test("A slow answer, past the client's timeout: the request applied, the sync stopped, the next one ends the same")
    func slowAnswerPastTheTimeout() async throws {
        let device = try await Self.workload()
        device.setTimeout(1)
        device.server.faults.inject(.delay(.seconds(3)), onPath: "records/modify")
        let error = await #expect(throws: CloudKitError.self) { try await device.sync() }
        if case .noAnswer(let cause) = error?.reason {
            #expect((cause as? URLError)?.code == .timedOut)
        } else {
            Issue.record("\(String(describing: error))")
        }
        try await device.syncToTheEnd()
        try FaultWorkload.expectEnd(device)
    }

    @Test("A slow answer, within the client's timeout: the sync waits for it and completes")
    func slowAnswerWithinTheTimeout() async throws {
        let device = try await Self.workload()
        for path in Self.paths { device.server.faults.inject(.delay(.milliseconds(300)), onPath: path) }
        let report = try await device.sync()
        #expect(report.isComplete)
        try FaultWorkload.expectEnd(device)
    }

    // MARK: Conflicts, other devices, zones, paging

    @Test("A record edited on both sides, looked up through faults: kept both, then resolved either way")
    func conflicts() async throws {
        let policies: [(RecordStore.ConflictPolicy, winner: String, saves: Int)] = [
            (.keepServer, "There", 1), (.keepLocal, "Here", 2),
        ]
        for (policy, winner, saves) in policies {
            let device = try HTTPSyncingDevice()
            try device.store.save(note("C", "Original"), inZone: "Notes")
            try await device.sync()
            device.database.edit("C", inZone: "Notes") { $0["title"] = .string("There") }
            var mine = try #require(try device.store.record(for: noteKey("C", zone: "Notes")))
            mine["title"] = .string("Here")
            try device.store.save(mine, inZone: "Notes")

            // The server's version is looked up through a dropped answer and a throttle.
            device.server.faults.inject(.closeMidAnswer, onPath: "records/lookup")
            device.server.faults.inject(.status(503, retryAfter: 1), onPath: "records/lookup")
            let left = try await device.sync(.keepBoth)
            #expect(device.server.received.count { $0.path.contains("/records/lookup") } == 3)
            #expect(device.database.requestCount(.lookupRecords) == 2)
            #expect(left.conflictsLeft == [noteKey("C", zone: "Notes")])
            let resolved = try await device.sync(policy)
            #expect(resolved.isComplete)
            #expect(serverTitle(device.database, "C") == winner)
            #expect(try device.title("C") == winner)
            try expectInSync(device.store, device.database)
            #expect(device.database.appliedOperations(to: "C", inZone: "Notes").count == saves)
        }
    }

    @Test("Another device's records in new zones, fetched page by page; its deletions and a zone deleted")
    func anotherDevicesChangesAndZones() async throws {
        let device = try HTTPSyncingDevice()
        for zone in ["Inbox", "Archive"] {
            for n in 0..<7 { device.database.save(note("\(zone)\(n)", "\(zone) \(n)", zone: zone), inZone: zone) }
        }
        let first = try await device.sync(zones: ["Inbox", "Archive"])
        #expect(first.isComplete)
        #expect(first.fetched.count == 14)
        #expect(first.pagesFetched >= 8)
        try expectInSync(device.store, device.database)

        device.database.delete("Inbox0", inZone: "Inbox")
        device.database.edit("Inbox1", inZone: "Inbox") { $0["title"] = .string("Edited there") }
        device.database.deleteZone("Archive")
        try await device.sync(zones: ["Inbox"])
        #expect(try device.title("Inbox1", zone: "Inbox") == "Edited there")
        #expect(try device.store.record(for: noteKey("Inbox0", zone: "Inbox")) == nil)
        #expect(device.database.allAppliedOperations.isEmpty)
    }

    @Test("Paging of changes with an answer lost mid-way: the pages applied stay, none is applied twice")
    func pagingWithAFault() async throws {
        let device = try HTTPSyncingDevice()
        for n in 0..<9 { device.database.save(note("P\(n)", "Page \(n)"), inZone: "Notes") }
        device.server.faults.inject(.closeMidAnswer, onPath: "changes/zone")
        device.server.faults.inject(.reset(handled: true), onPath: "changes/zone")
        // Reads are sent again: two failures in a row are within the retries.
        let report = try await device.sync()
        #expect(report.isComplete)
        #expect(report.fetched.count == 9)
        #expect(device.delays.all.count == 2)
        try expectInSync(device.store, device.database)
    }

    @Test("Two devices syncing at once through their own clients, editing the same records, end equal")
    func twoDevicesAtOnce() async throws {
        let phone = try HTTPSyncingDevice()
        let laptop = try HTTPSyncingDevice(remote: phone.remote)
        for round in 0..<6 {
            for (device, name) in [(phone, "phone"), (laptop, "laptop")] {
                for n in 0..<3 {
                    let key = noteKey("Shared\(n)", zone: "Notes")
                    var record = try device.store.record(for: key) ?? note("Shared\(n)", "")
                    record["title"] = .string("\(name) \(round)")
                    try device.store.save(record, inZone: "Notes")
                }
                try device.store.save(note("\(name)\(round)", "Own \(round)"), inZone: "Notes")
            }
            phone.server.faults.inject(.closeMidAnswer, onPath: "records/modify")
            let options = RecordStore.SyncOptions(conflicts: .keepServer, zones: [RecordZoneID(zoneName: "Notes")])
            let (phoneStore, phoneClient, laptopStore, laptopClient) = (
                phone.store, phone.client, laptop.store, laptop.client
            )
            async let phoneSynced = try? phoneStore.sync(with: phoneClient, options: options)
            async let laptopSynced = try? laptopStore.sync(with: laptopClient, options: options)
            _ = await (phoneSynced, laptopSynced)
        }
        try await phone.syncToTheEnd()
        try await laptop.syncToTheEnd()
        try await phone.syncToTheEnd()
        try expectInSync(phone.store, phone.database)
        try expectInSync(laptop.store, laptop.database)
        for n in 0..<6 {
            for name in ["phone", "laptop"] {
                #expect(phone.database.appliedOperations(to: "\(name)\(n)", inZone: "Notes") == [.create])
            }
        }
    }

    // MARK: Random runs

    @Test(
        "Random edits on both sides with random network faults end with the store and the server equal",
        arguments: 0..<12)
    func randomRuns(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let device = try HTTPSyncingDevice()
        device.setTimeout(1)
        let names = (0..<6).map { "N\($0)" }
        var localChanges: [String: Int] = [:]
        let faults: [LoopbackFault] = [
            .status(429, retryAfter: 0), .status(503), .status(500), .closeBeforeAnswer(handled: false),
            .closeBeforeAnswer(handled: true), .closeMidAnswer, .reset(handled: true), .delay(.seconds(2)),
            .delay(.milliseconds(50)),
        ]
        // A pick below edits.count makes that edit; the picks above it reopen the store or sync.
        let edits: [RandomEdit] = [.saveLocally, .saveLocally, .deleteLocally, .editRemotely, .deleteRemotely]
        for step in 0..<40 {
            let name = names.randomElement(using: &random) ?? "N0"
            let pick = Int.random(in: 0..<7, using: &random)
            switch pick {
            case 0..<edits.count:
                if try edits[pick].apply(toNote: name, step: step, store: device.store, database: device.database) {
                    localChanges[name, default: 0] += 1
                }
            case 5:
                try device.reopen()
            default:
                let next = device.server.received.count + 1
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let fault = faults.randomElement(using: &random) ?? .none
                    device.server.faults.inject(fault, atRequest: next + Int.random(in: 0..<5, using: &random))
                }
                _ = try? await device.sync(.keepServer)
                device.server.faults.removeAll()
            }
        }
        device.server.faults.removeAll()
        device.setTimeout(nil)
        var report = try await device.sync(.keepServer)
        if !report.isComplete { report = try await device.sync(.keepServer) }
        #expect(report.isComplete, "seed \(seed): \(report)")
        try expectInSync(device.store, device.database)
        for (name, operations) in device.database.allAppliedOperations["Notes"] ?? [:] {
            #expect(operations.count <= localChanges[name] ?? 0, "seed \(seed), \(name): \(operations)")
        }
    }
}
