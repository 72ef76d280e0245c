import CloudKitStandIn
import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// `RecordStore.sync(with:)` stopped at every request — before the server sees it, or after it
/// carried it out with the answer lost — with the store reopened from its files or not, then
/// synced again: the same end, nothing lost, nothing applied twice.
@Suite("The sync loop, stopped anywhere")
struct SyncLoopFaultTests {
    /// A device and server in the middle of things: records synced before, then created, edited and
    /// deleted here in two zones, and edited on another device.
    static func workload() async throws -> SyncingDevice {
        let device = try SyncingDevice(maximumOperationsPerRequest: 2)
        try await FaultWorkload.prepare(device) { try await device.sync(pageLimit: 2) }
        return device
    }

    @Test("The workload, with no fault, ends as expected")
    func cleanRun() async throws {
        let device = try await Self.workload()
        let start = device.service.callCount
        try await device.sync(pageLimit: 2)
        #expect(device.service.callCount - start == Self.callsOfCleanRun)
        try FaultWorkload.expectEnd(device)
    }

    /// The calls a clean sync of the workload makes: a zone created, four modify requests (two
    /// of 2 operations and one in Notes, one in Tags), the changes pages.
    static let callsOfCleanRun = 9

    /// What becomes of the process after a sync is stopped.
    enum Restart: CaseIterable {
        /// It goes on with the same store.
        case none
        /// It closes the store and opens it again.
        case reopen
        /// It dies with the power: what the store did not flush is lost.
        case powerCut
    }

    @Test(
        "Stopped at each call, before or after the server carries it out, then restarted or not: a second sync ends the same",
        arguments: 0..<callsOfCleanRun, [StandInService.Stop.beforeServing, .afterServing])
    func stoppedAtEachCall(call: Int, stop: StandInService.Stop) async throws {
        for restart in Restart.allCases {
            let device = try await Self.workload()
            device.service.stop(call: device.service.callCount + call, stop)
            await #expect(throws: StandInService.Stopped.self) { try await device.sync(pageLimit: 2) }
            switch restart {
            case .none: break
            case .reopen: try device.reopen()
            case .powerCut: try device.cutPower()
            }
            let report = try await device.sync(pageLimit: 2)
            #expect(report.isComplete)
            try FaultWorkload.expectEnd(device)
        }
    }

    @Test("Stopped twice in a row, at every pair of calls, with a reopening between", arguments: 0..<callsOfCleanRun)
    func stoppedTwice(first: Int) async throws {
        for second in 0..<Self.callsOfCleanRun {
            let device = try await Self.workload()
            device.service.stop(call: device.service.callCount + first, .afterServing)
            await #expect(throws: StandInService.Stopped.self) { try await device.sync(pageLimit: 2) }
            try device.reopen()
            device.service.stop(call: device.service.callCount + second, .afterServing)
            _ = try? await device.sync(pageLimit: 2)
            device.service.clearStops()
            try await device.sync(pageLimit: 2)
            try FaultWorkload.expectEnd(device)
        }
    }

    @Test(
        "An answer the server threw away (a dropped connection) is resolved by the next sync",
        arguments: StandInOperation.allCases.filter {
            [.modifyRecords, .zoneChanges, .modifyZones].contains($0)
        })
    func lostAnswerFromTheServer(operation: StandInOperation) async throws {
        let device = try await Self.workload()
        device.database.inject(.loseAnswer, on: operation)
        await #expect(throws: StandInAnswerLost.self) { try await device.sync(pageLimit: 2) }
        try await device.sync(pageLimit: 2)
        try FaultWorkload.expectEnd(device)
    }

    // MARK: Random runs

    @Test("Random local edits, remote edits and faults end with the store and the server equal", arguments: 0..<12)
    func randomRuns(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let device = try SyncingDevice(maximumOperationsPerRequest: 3)
        let names = (0..<8).map { "N\($0)" }
        // The local changes made to each record: the server may carry out at most one operation
        // for each (a create, an update or a delete), however the syncs are stopped.
        var localChanges: [String: Int] = [:]
        // A pick below edits.count makes that edit; the picks above it reopen the store or sync.
        let edits: [RandomEdit] = [
            .saveLocally, .saveLocally, .saveLocally, .deleteLocally, .editRemotely, .deleteRemotely,
        ]
        for step in 0..<40 {
            let name = names.randomElement(using: &random) ?? "N0"
            let pick = Int.random(in: 0..<8, using: &random)
            switch pick {
            case 0..<edits.count:
                if try edits[pick].apply(toNote: name, step: step, store: device.store, database: device.database) {
                    localChanges[name, default: 0] += 1
                }
            case 6:
                if Bool.random(using: &random) { try device.reopen() } else { try device.cutPower() }
            default:
                let stop = Bool.random(using: &random) ? StandInService.Stop.afterServing : .beforeServing
                device.service.stop(call: device.service.callCount + Int.random(in: 0..<6, using: &random), stop)
                if Bool.random(using: &random) {
                    device.database.inject(.throttleRecords(retryAfter: 0), on: .modifyRecords)
                }
                _ = try? await device.sync(.keepServer, pageLimit: 3)
                device.service.clearStops()
            }
        }
        device.service.clearStops()
        try device.reopen()
        var report = try await device.sync(.keepServer, pageLimit: 3)
        if !report.isComplete { report = try await device.sync(.keepServer, pageLimit: 3) }
        #expect(report.isComplete, "seed \(seed): \(report)")
        try expectInSync(device.store, device.database)
        for (name, operations) in device.database.allAppliedOperations["Notes"] ?? [:] {
            #expect(operations.count <= localChanges[name] ?? 0, "seed \(seed), \(name): \(operations)")
        }
    }
}
