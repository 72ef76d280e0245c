import CloudKitWebServices
import Foundation
import RecordCodable
import RecordStoreKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The syncing that the crash tests interrupt: steps of local edits, each one commit, each
/// followed by a sync with the server at a URL the test gives, until killed.
///
/// Step `n` creates the record `s<n>` and sets the field `step` of one of three records `hot-<k>`
/// (`k = n % 3`, created by the step that first sets it) to `n`; every fourth step also deletes
/// `s<n - 4>`. The records are in the zone ``zone``. The next step after a restart is the one
/// after the highest `step` the store holds: a step is one commit, so it is there whole or not
/// at all.
public enum SyncWorkload {
    /// The type of the records the workload writes.
    public static let recordType = "SyncCrash"

    /// The zone the records are in.
    public static let zone = "Steps"

    /// The steps a run makes before it syncs to the end and exits.
    public static let steps = 40

    /// The key of the record named `name`.
    public static func key(_ name: String) -> RecordKey {
        RecordKey(zone: zone, recordType: recordType, recordName: name)
    }

    /// The names of the records step `n` saves.
    public static func saved(by n: Int) -> [String] {
        ["s\(n)", "hot-\(n % 3)"]
    }

    /// The name of the record step `n` deletes, if any.
    public static func deleted(by n: Int) -> String? {
        n >= 4 && n % 4 == 0 ? "s\(n - 4)" : nil
    }

    /// The highest step the store holds, or `-1` when it holds none.
    public static func lastStep(in store: RecordStore) throws -> Int {
        var last = -1
        for record in try store.records(ofType: recordType) {
            if case .int64(let step) = record["step"] { last = max(last, Int(step)) }
        }
        return last
    }

    /// A client of the private database of `iCloud.com.example.Notes` at `serverURL`, retrying
    /// fast, waiting at most five seconds for an answer.
    public static func client(serverURL: URL) -> CloudKitDatabase {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 5
        return CloudKitDatabase(
            container: "iCloud.com.example.Notes", environment: .development, scope: .private,
            credentials: .apiToken("test-api-token", webAuthToken: "test-web-auth-token"),
            transport: URLSessionTransport(session: URLSession(configuration: configuration)),
            serverURL: serverURL,
            retryPolicy: CloudKitRetryPolicy(
                maximumRetries: 4, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(4), jitter: 0))
    }

    /// The options every sync of the workload runs with: the workload's zone followed, changes
    /// in small pages.
    public static var syncOptions: RecordStore.SyncOptions {
        var options = RecordStore.SyncOptions(zones: [RecordZoneID(zoneName: zone)])
        options.changesPageLimit = 3
        return options
    }

    /// Writes step `n` as one commit.
    static func step(_ n: Int, to store: RecordStore) throws {
        let hot = try store.record(for: key("hot-\(n % 3)"))
        try store.write { batch in
            var created = Record(recordType: recordType, recordName: "s\(n)", fields: ["step": .int64(Int64(n))])
            created.metadata = RecordMetadata(zoneID: RecordZoneID(zoneName: zone))
            try batch.save(created, inZone: zone)
            var edited =
                hot ?? Record(recordType: recordType, recordName: "hot-\(n % 3)", fields: [:])
            if edited.metadata == nil { edited.metadata = RecordMetadata(zoneID: RecordZoneID(zoneName: zone)) }
            edited["step"] = .int64(Int64(n))
            try batch.save(edited, inZone: zone)
            if let name = deleted(by: n) { try batch.deleteRecord(for: key(name)) }
        }
    }

    /// Opens the store at `directory`, prints "ready", and goes on from its last step: each
    /// step written, then `step <n>` printed, then a sync, then `synced <n>` (or `failed <n>`)
    /// printed. After ``steps`` steps it syncs until a sync completes, closes the store, prints
    /// "done" and returns.
    public static func run(directory: URL, serverURL: URL) async throws {
        let store = try RecordStore(directory: directory)
        let client = client(serverURL: serverURL)
        print("ready")
        var next = try lastStep(in: store) + 1
        while next < steps {
            try step(next, to: store)
            print("step \(next)")
            do {
                _ = try await store.sync(with: client, options: syncOptions)
                print("synced \(next)")
            } catch {
                print("failed \(next): \(error)")
            }
            next += 1
        }
        for _ in 0..<10 {
            if (try? await store.sync(with: client, options: syncOptions))?.isComplete == true {
                store.close()
                print("done")
                return
            }
        }
        print("never completed")
    }

    /// Prints `line` at once: the test reads the output as the child runs.
    static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
