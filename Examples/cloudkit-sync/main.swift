// Notes kept offline with RecordStore, synced with CloudKit through the Web Services client: park
// notes offline, sync them (the zone created, the notes saved), fetch an edit another device
// made, resolve a conflict with a merge policy, wait out a throttled answer, and print the
// SyncReport of each sync.
//
//     swift run cloudkit-sync
//
// By default it syncs against CloudKitStandIn, this package's stand-in for CloudKit Web Services
// (CloudKit's records semantics, served over HTTP on 127.0.0.1 by URLSessionTransport's requests),
// so that it runs without an account. The "other device" is a second store syncing with the same
// database.
//
// Against a real container, set the environment:
//
//     CLOUDKIT_CONTAINER=iCloud.com.example.Notes  CLOUDKIT_ENVIRONMENT=development (or production)
//     and either
//     CLOUDKIT_API_TOKEN=…  CLOUDKIT_WEB_AUTH_TOKEN=…   an API token; with a user's web auth token,
//                                                       the private database and a zone of its own
//     or
//     CLOUDKIT_KEY_ID=…  CLOUDKIT_PRIVATE_KEY_PATH=key.pem   a server-to-server key (public database)
//
// A server-to-server key signs each request with ECDSA P-256. The package depends on no
// cryptography library: on Apple platforms this example signs with CryptoKit. On Linux, add
// swift-crypto (https://github.com/apple/swift-crypto, product `Crypto`) to the example's
// dependencies, `import Crypto`, and build the same closure as `signer(pem:)` below:
//
//     let key = try P256.Signing.PrivateKey(pemRepresentation: pem)
//     .serverToServer(keyID: keyID) { message in try key.signature(for: message).derRepresentation }
//
// The public database has no custom zones, and CloudKit keeps no change history for a default
// zone: with a server-to-server key the notes go to the public default zone, and the other
// device's edit is not fetched (the conflict still is: the server refuses the stale update, and
// the store looks the record up). The example deletes what it saved before it ends.
import CloudKitStandIn
import CloudKitWebServices
import Foundation
import RecordCodable
import RecordStoreKit

#if canImport(CryptoKit)
    import CryptoKit
#endif

/// A note, as Examples/notes-offline keeps it, without its folder.
struct Note: Codable {
    var id: String
    var title: String
    var body: String
}

/// Stops the example with a message, exit status 1.
func fail(_ message: String) -> Never {
    print("FAILED: \(message)")
    exit(1)
}

// MARK: Where the notes go

/// The database the example syncs with: the stand-in on the loopback, or a real container.
struct Destination {
    var database: CloudKitDatabase
    /// The zone of the notes: a zone of their own, or the default zone where custom zones are not.
    var zone: String
    /// The stand-in, to inject a fault in; `nil` for a real container.
    var standIn: StandInDatabase?
    /// The server on the loopback, kept running while the example runs.
    var server: LoopbackServer?
}

/// The signing closure of a server-to-server key, from its PEM file.
func signer(pem: String) throws -> @Sendable (Data) async throws -> Data {
    #if canImport(CryptoKit)
        let key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        return { message in try key.signature(for: message).derRepresentation }
    #else
        fail(
            """
            a server-to-server key needs a P-256 signer: on Linux, add swift-crypto to the example \
            and sign with Crypto's P256.Signing.PrivateKey (see the comment at the top of \
            Examples/cloudkit-sync/main.swift), or use CLOUDKIT_API_TOKEN
            """)
    #endif
}

/// A real container from the environment, or `nil` when `CLOUDKIT_CONTAINER` is not set.
func realContainer(_ environment: [String: String]) throws -> Destination? {
    guard let container = environment["CLOUDKIT_CONTAINER"] else { return nil }
    guard let cloudKitEnvironment = CloudKitEnvironment(rawValue: environment["CLOUDKIT_ENVIRONMENT"] ?? "development")
    else { fail("CLOUDKIT_ENVIRONMENT is development or production") }
    let credentials: CloudKitCredentials
    let scope: CloudKitDatabaseScope
    if let token = environment["CLOUDKIT_API_TOKEN"] {
        let webAuthToken = environment["CLOUDKIT_WEB_AUTH_TOKEN"]
        credentials = .apiToken(token, webAuthToken: webAuthToken)
        scope = webAuthToken == nil ? .public : .private
    } else if let keyID = environment["CLOUDKIT_KEY_ID"], let path = environment["CLOUDKIT_PRIVATE_KEY_PATH"] {
        credentials = .serverToServer(
            keyID: keyID, sign: try signer(pem: String(contentsOfFile: path, encoding: .utf8)))
        scope = .public
    } else {
        fail("set CLOUDKIT_API_TOKEN, or CLOUDKIT_KEY_ID and CLOUDKIT_PRIVATE_KEY_PATH, beside CLOUDKIT_CONTAINER")
    }
    let database = CloudKitDatabase(
        container: container, environment: cloudKitEnvironment, scope: scope, credentials: credentials)
    // A zone of this run's own in the private database, removed at the end; the public database
    // has only its default zone.
    let zone = scope == .private ? "Notes-\(UUID().uuidString.prefix(8))" : RecordKey.defaultZone
    return Destination(database: database, zone: zone)
}

/// The stand-in, served over HTTP on 127.0.0.1, and a client pointed at it.
func standIn() throws -> Destination {
    let standIn = StandInDatabase()
    let server = try LoopbackServer { request in
        do {
            return try standIn.answer(request)
        } catch {
            // A lost answer (a fault this example does not inject) closes nothing here: a 500.
            return StandInResponse(status: 500, body: Data(#"{"serverErrorCode":"INTERNAL_ERROR"}"#.utf8))
        }
    }
    let database = CloudKitDatabase(
        container: "iCloud.org.recordcodable.Notes", environment: .development, scope: .private,
        credentials: .apiToken("stand-in-api-token", webAuthToken: "stand-in-web-auth-token"),
        transport: URLSessionTransport(), serverURL: server.baseURL)
    return Destination(database: database, zone: "Notes", standIn: standIn, server: server)
}

// MARK: Printing

/// The names of `keys`, for a line of output.
func names(_ keys: [RecordKey]) -> String {
    keys.isEmpty ? "none" : keys.map(\.recordName).joined(separator: ", ")
}

/// Prints what a sync did.
func show(_ report: SyncReport) {
    print("  zones created: \(report.zonesCreated.isEmpty ? "none" : report.zonesCreated.joined(separator: ", "))")
    print("  sent: \(names(report.sent)); saved: \(names(report.saved))")
    print("  fetched: \(names(report.fetched)); deletions fetched: \(names(report.fetchedDeletions))")
    print("  conflicts resolved: \(names(report.conflictsResolved)); left: \(names(report.conflictsLeft))")
    for (key, error) in report.failures.sorted(by: { $0.key < $1.key }) {
        print("  refused: \(key.recordName): \(error.serverErrorCode.rawValue) \(error.reason ?? "")")
    }
    print("  \(report.requests) requests, \(report.pagesFetched) pages of changes, \(report.rounds) rounds")
    print("  complete: \(report.isComplete) (owed: \(names(report.owed)))")
}

/// The note `name` of `store`, decoded.
func note(_ name: String, in store: RecordStore, zone: String) throws -> Note? {
    guard let record = try store.record(for: RecordKey(zone: zone, recordType: "Note", recordName: name)) else {
        return nil
    }
    return try RecordDecoder().decode(Note.self, from: record)
}

// MARK: The run

let environment = ProcessInfo.processInfo.environment
let destination = try realContainer(environment) ?? standIn()
let database = destination.database
let zone = destination.zone
let options = RecordStore.SyncOptions(
    zones: zone == RecordKey.defaultZone ? [] : [RecordZoneID(zoneName: zone)])
print(
    destination.standIn == nil
        ? "Syncing with \(database.container) (\(database.environment.rawValue), \(database.scope.rawValue) database)"
        : "Syncing with CloudKitStandIn at \(database.serverURL.absoluteString) (set CLOUDKIT_CONTAINER for a real container)"
)

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cloudkit-sync-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let phone = try RecordStore(directory: directory.appendingPathComponent("phone"))
let laptop = try RecordStore(directory: directory.appendingPathComponent("laptop"))

// 1. Offline, on the phone: the notes are parked, durably.
try phone.parkAll(
    [
        Note(id: "groceries", title: "Groceries", body: "Milk, eggs"),
        Note(id: "plumber", title: "Call the plumber", body: "About the kitchen tap"),
    ], inZone: zone)
print("\n1. Parked offline on the phone: \(names(try phone.records(in: .pending).map(\.key)))")

// 2. Online: the first sync creates the zone and saves the notes.
print("\n2. The phone's first sync:")
let first = try await phone.sync(with: database, options: options)
show(first)
guard first.saved.count == 2 else { fail("the first sync saved \(first.saved.count) records, not 2") }

// 3. Another device: the laptop fetches the notes, edits the groceries, and syncs; the phone's
//    next sync fetches the edit.
print("\n3. The laptop fetches the notes, edits the groceries; the phone syncs:")
try await laptop.sync(with: database, options: options)
if zone == RecordKey.defaultZone {
    // The default zone keeps no change history: a device finds its records by name.
    let lookup = RecordsLookupRequest(recordNames: ["groceries", "plumber"])
    try laptop.applyFetched(try await database.lookupRecords(lookup), for: lookup)
}
try laptop.park(Note(id: "groceries", title: "Groceries", body: "Milk, eggs, bread"), inZone: zone)
try await laptop.sync(with: database, options: options)
let fetchEdit = try await phone.sync(with: database, options: options)
show(fetchEdit)
print("  the phone's groceries: \(try note("groceries", in: phone, zone: zone)?.body ?? "none")")

// 4. A conflict: both devices change the plumber note; the laptop syncs first, and the phone's
//    sync resolves the conflict with a merge (the server's body, then ours).
print("\n4. Both devices edit the plumber note; the laptop syncs first; the phone merges:")
try laptop.park(
    Note(id: "plumber", title: "Call the plumber", body: "Tap fixed already"), inZone: zone)
try await laptop.sync(with: database, options: options)
try phone.park(
    Note(id: "plumber", title: "Call the plumber", body: "Ask about the boiler too"), inZone: zone)
var mergeOptions = options
mergeOptions.conflicts = .merge { local, server in
    var merged = server
    if case .string(let theirs) = server["body"], case .string(let ours) = local["body"] {
        merged["body"] = .string("\(theirs); \(ours)")
    }
    return merged
}
let merge = try await phone.sync(with: database, options: mergeOptions)
show(merge)
guard merge.conflictsResolved.count == 1 else { fail("the merge resolved \(merge.conflictsResolved.count) conflicts") }
print("  merged: \(try note("plumber", in: phone, zone: zone)?.body ?? "none")")

// 5. A throttled answer: the server refuses the next records/modify with HTTP 429 and asks for a
//    wait; the client waits it out and sends the request again.
print("\n5. A new note, and the server throttles the next save:")
try phone.park(Note(id: "bread", title: "Bakery", body: "Sourdough"), inZone: zone)
if let standIn = destination.standIn {
    standIn.inject(.throttle(retryAfter: 0.5), on: .modifyRecords)
} else {
    print("  (a real server throttles when it likes: the stand-in plays this one)")
}
let modifiesBefore = destination.standIn?.requestCount(.modifyRecords) ?? 0
let clock = ContinuousClock()
let started = clock.now
let throttled = try await phone.sync(with: database, options: options)
let waited = clock.now - started
show(throttled)
if let standIn = destination.standIn {
    let sends = standIn.requestCount(.modifyRecords) - modifiesBefore
    print(
        "  the save was sent \(sends) times: refused with 429 once, sent again after \(waited.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))"
    )
    guard sends == 2 else { fail("the throttled save was sent \(sends) times, not twice") }
}
guard throttled.saved.map(\.recordName) == ["bread"] else { fail("the throttled save did not go through") }

// 6. Both devices agree.
try await laptop.sync(with: database, options: options)
for name in ["groceries", "plumber", "bread"] where zone != RecordKey.defaultZone {
    let mine = try note(name, in: phone, zone: zone)?.body
    let theirs = try note(name, in: laptop, zone: zone)?.body
    guard mine != nil, mine == theirs else {
        fail("the devices disagree on \(name): \(mine ?? "none"), \(theirs ?? "none")")
    }
}
print("\n6. The phone and the laptop hold the same notes: synced.")

// A real container: remove what this run saved.
if destination.standIn == nil {
    if zone == RecordKey.defaultZone {
        for name in try phone.records(ofType: "Note").map(\.recordName) {
            try phone.deleteRecord(for: RecordKey(recordType: "Note", recordName: name))
        }
        try await phone.sync(with: database, options: options)
    } else {
        _ = try await database.modifyZones(ZonesModifyRequest(creating: [], deleting: [RecordZoneID(zoneName: zone)]))
    }
    print("Removed the notes this run saved.")
}
destination.server?.stop()
if destination.standIn != nil {
    print(
        """

        For a real container, set CLOUDKIT_CONTAINER and CLOUDKIT_ENVIRONMENT, then CLOUDKIT_API_TOKEN \
        (and CLOUDKIT_WEB_AUTH_TOKEN for the private database), or CLOUDKIT_KEY_ID and \
        CLOUDKIT_PRIVATE_KEY_PATH for a server-to-server key.
        """)
    #if !canImport(CryptoKit)
        print(
            """
            A server-to-server key signs with P-256, which this platform has no CryptoKit for: add \
            swift-crypto (product Crypto) to the example's dependencies and sign with \
            P256.Signing.PrivateKey, as the comment at the top of Examples/cloudkit-sync/main.swift shows.
            """)
    #endif
}
