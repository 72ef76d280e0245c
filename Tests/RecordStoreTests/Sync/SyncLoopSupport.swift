import CloudKitStandIn
import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// A device syncing with the stand-in: its store, in memory files that outlive a reopening, and
/// the service it syncs through.
final class SyncingDevice: SyncTestDevice {
    let database: StandInDatabase
    let service: StandInService
    private let directory = MemoryDirectory(faults: nil)
    private(set) var store: RecordStore

    init(database: StandInDatabase = StandInDatabase(), maximumOperationsPerRequest: Int = 200) throws {
        self.database = database
        service = StandInService(database: database, maximumOperationsPerRequest: maximumOperationsPerRequest)
        store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
    }

    /// Closes the store and opens it again from its files, as a process restarted would.
    func reopen() throws {
        store.close()
        store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
    }

    /// Cuts the power: the writes not flushed are lost, and the store is opened again, as a
    /// process killed mid-sync would find it.
    func cutPower() throws {
        directory.loseUnflushedWrites()
        store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
    }

    /// Syncs; `zones` are followed beyond those the store knows.
    @discardableResult
    func sync(
        _ conflicts: RecordStore.ConflictPolicy = .keepBoth, zones: [String] = ["Notes"], pageLimit: Int? = nil
    ) async throws -> SyncReport {
        var options = RecordStore.SyncOptions(conflicts: conflicts, zones: zones.map { RecordZoneID(zoneName: $0) })
        options.changesPageLimit = pageLimit
        return try await store.sync(with: service, options: options)
    }

}

/// A device of the sync tests, in process or over HTTP: its store, and the stand-in it syncs with.
protocol SyncTestDevice: AnyObject {
    var store: RecordStore { get }
    var database: StandInDatabase { get }
}

extension SyncTestDevice {
    /// The title of the store's record `name` in `zone`.
    func title(_ name: String, zone: String = "Notes") throws -> String? {
        guard case .string(let title) = try store.record(for: noteKey(name, zone: zone))?["title"] else { return nil }
        return title
    }
}

/// The work both fault suites sync, in process and over HTTP, through each fault: three notes
/// synced, then three new ones, a tag in a zone of its own, an edit and a delete here, an edit and
/// a new note on the server.
enum FaultWorkload {
    /// Makes the work on `device`, syncing once with `firstSync` after the first three notes.
    static func prepare(_ device: some SyncTestDevice, firstSync: () async throws -> Void) async throws {
        try device.store.save(
            contentsOf: [note("R1", "Old one"), note("R2", "Old two"), note("R3", "Old three")], inZone: "Notes")
        try await firstSync()
        try device.store.save(contentsOf: (1...3).map { note("N\($0)", "New \($0)") }, inZone: "Notes")
        try device.store.save(contentsOf: [note("T1", "Tag", zone: "Tags")], inZone: "Tags")
        var edited = try #require(try device.store.record(for: noteKey("R1", zone: "Notes")))
        edited["title"] = .string("One, edited here")
        try device.store.save(edited, inZone: "Notes")
        try device.store.deleteRecord(for: noteKey("R2", zone: "Notes"))
        device.database.edit("R3", inZone: "Notes") { $0["title"] = .string("Three, edited there") }
        device.database.save(note("P1", "From the phone"), inZone: "Notes")
    }

    /// What the server must have carried out for each record the work sends: once each.
    static let expectedOperations: [String: [String: [RecordOperation.OperationType]]] = [
        "Notes": [
            "R1": [.create, .update], "R2": [.create, .delete], "R3": [.create],
            "N1": [.create], "N2": [.create], "N3": [.create],
        ],
        "Tags": ["T1": [.create]],
    ]

    /// Checks the end every run of the work must reach, whatever faults it met: the store and the
    /// server equal, each operation applied once, and every edit on both sides kept.
    static func expectEnd(_ device: some SyncTestDevice, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectInSync(device.store, device.database, sourceLocation: sourceLocation)
        #expect(device.database.allAppliedOperations == expectedOperations, sourceLocation: sourceLocation)
        #expect(serverTitle(device.database, "R1") == "One, edited here", sourceLocation: sourceLocation)
        #expect(try device.title("R3") == "Three, edited there", sourceLocation: sourceLocation)
        #expect(try device.title("P1") == "From the phone", sourceLocation: sourceLocation)
        #expect(try device.title("T1", zone: "Tags") == "Tag", sourceLocation: sourceLocation)
    }
}

/// A note in `zone`, with its zone in its metadata as the store keeps it.
func note(_ name: String, _ title: String, zone: String = "Notes") -> Record {
    noteRecord(name, title: title, zone: zone)
}

/// One edit of a random run: the store's note saved or deleted here, or the server's edited or
/// deleted by another device.
enum RandomEdit {
    case saveLocally, deleteLocally, editRemotely, deleteRemotely

    /// Makes this edit to the note `name`, titled after `step`. Returns whether the store changed,
    /// that is whether it owes the server one more operation (which the server may carry out once).
    func apply(toNote name: String, step: Int, store: RecordStore, database: StandInDatabase) throws -> Bool {
        let key = noteKey(name, zone: "Notes")
        switch self {
        case .saveLocally:
            var record = try store.record(for: key) ?? note(name, "")
            record["title"] = .string("Local \(step)")
            try store.save(record, inZone: "Notes")
            return true
        case .deleteLocally:
            guard try store.record(for: key) != nil else { return false }
            try store.deleteRecord(for: key)
            return true
        case .editRemotely:
            if database.edit(name, inZone: "Notes", { $0["title"] = .string("Remote \(step)") }) == nil {
                database.save(note(name, "Remote \(step)"), inZone: "Notes")
            }
            return false
        case .deleteRemotely:
            database.delete(name, inZone: "Notes")
            return false
        }
    }
}

/// The stand-in's title of the record `name`.
func serverTitle(_ database: StandInDatabase, _ name: String, zone: String = "Notes") -> String? {
    guard case .string(let title) = database.record(name, inZone: zone)?["title"] else { return nil }
    return title
}

/// Expects the store and the stand-in to hold the same records, each synced with the server's
/// change tag and fields, nothing owed and no conflict.
func expectInSync(
    _ store: RecordStore, _ database: StandInDatabase, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(try store.owedKeys().isEmpty, sourceLocation: sourceLocation)
    #expect(try store.records(in: .conflict).map(\.key) == [], sourceLocation: sourceLocation)
    var local: [String: [String: Record]] = [:]
    for key in try store.keys() {
        let stored = try #require(try store.storedRecord(for: key), sourceLocation: sourceLocation)
        #expect(stored.status == .synced, "\(key)", sourceLocation: sourceLocation)
        local[key.zone, default: [:]][key.recordName] = stored.record
    }
    for zone in Set(database.zoneNames).union(local.keys) {
        let server = database.records(inZone: zone)
        let mine = local[zone] ?? [:]
        #expect(Set(mine.keys) == Set(server.keys), "zone \(zone)", sourceLocation: sourceLocation)
        for (name, record) in server {
            guard let copy = mine[name] else { continue }
            #expect(copy.fields == record.fields, "\(zone)/\(name)", sourceLocation: sourceLocation)
            #expect(
                copy.metadata?.changeTag == record.metadata?.changeTag, "\(zone)/\(name)",
                sourceLocation: sourceLocation)
        }
    }
}
