import CloudKitStandIn
import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stand-in database served over HTTP on the loopback: a `LoopbackServer` whose handler is
/// `StandInDatabase.answer(_:)`, so that a `CloudKitDatabase` client talks to CloudKit's records
/// semantics through real sockets, and the server's `faults` play a network's failures.
final class StandInOverHTTP: Sendable {
    let database: StandInDatabase
    let server: LoopbackServer

    init(database: StandInDatabase = StandInDatabase()) throws {
        self.database = database
        server = try LoopbackServer { request in
            do {
                return try database.answer(request)
            } catch {
                // Only a stand-in's `loseAnswer` fault throws; these tests lose answers with the
                // server's own `closeMidAnswer`, which drops the connection.
                return StandInResponse(status: 500, body: Data())
            }
        }
    }

    deinit { server.stop() }

    /// A client of the stand-in's private database in development, as an app would make it,
    /// retrying fast: the delays it waits are kept in `delays`, and cut to a millisecond.
    ///
    /// - Parameter timeout: How long the client waits for an answer before giving up on it.
    func client(timeout: TimeInterval = 10, delays: RecordedDelays = RecordedDelays()) -> CloudKitDatabase {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        let policy = CloudKitRetryPolicy(
            maximumRetries: 4, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(4), jitter: 0,
            sleep: { delay in
                delays.append(delay)
                try await Task.sleep(for: .milliseconds(1))
            })
        return CloudKitDatabase(
            container: "iCloud.com.example.Notes", environment: .development, scope: .private,
            credentials: .apiToken("test-api-token", webAuthToken: "test-web-auth-token"),
            transport: URLSessionTransport(session: URLSession(configuration: configuration)),
            serverURL: server.baseURL, retryPolicy: policy)
    }
}

/// The delays a client's retry policy was asked to wait, in order.
final class RecordedDelays: @unchecked Sendable {
    private let lock = NSLock()
    private var delays: [Duration] = []

    var all: [Duration] { lock.withLock { delays } }

    func append(_ delay: Duration) { lock.withLock { delays.append(delay) } }
}

/// A device that syncs with the stand-in over HTTP: its store, in memory files that outlive a
/// reopening, and the client it syncs through.
final class HTTPSyncingDevice: SyncTestDevice {
    let remote: StandInOverHTTP
    let delays = RecordedDelays()
    var client: CloudKitDatabase
    private let directory = MemoryDirectory(faults: nil)
    private(set) var store: RecordStore

    var database: StandInDatabase { remote.database }
    var server: LoopbackServer { remote.server }

    init(remote: StandInOverHTTP? = nil) throws {
        let remote = try remote ?? StandInOverHTTP()
        self.remote = remote
        client = remote.client(delays: delays)
        store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
    }

    /// Makes the client give up on an answer after `timeout` seconds (whole seconds: Linux's
    /// `URLSession` drops a fraction), or after ten when `nil`.
    func setTimeout(_ timeout: TimeInterval?) {
        client = remote.client(timeout: timeout ?? 10, delays: delays)
    }

    /// Closes the store and opens it again from its files, as a process restarted would.
    func reopen() throws {
        store.close()
        store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
    }

    /// Syncs through the client; `zones` are followed beyond those the store knows.
    @discardableResult
    func sync(
        _ conflicts: RecordStore.ConflictPolicy = .keepBoth, zones: [String] = ["Notes"], pageLimit: Int? = 2
    ) async throws -> SyncReport {
        var options = RecordStore.SyncOptions(conflicts: conflicts, zones: zones.map { RecordZoneID(zoneName: $0) })
        options.changesPageLimit = pageLimit
        return try await store.sync(with: client, options: options)
    }

    /// Syncs until a sync completes with no fault left and the client's usual timeout, at most
    /// three times.
    func syncToTheEnd(zones: [String] = ["Notes"]) async throws {
        server.faults.removeAll()
        setTimeout(nil)
        for attempt in 1...3 {
            let report = try await sync(zones: zones)
            if report.isComplete || attempt == 3 {
                #expect(report.isComplete, "\(report)")
                return
            }
        }
    }
}
