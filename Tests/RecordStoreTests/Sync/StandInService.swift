import CloudKitStandIn
import Foundation
import RecordCodable
import RecordStoreKit

/// A ``RecordSyncService`` over the stand-in database, in process: each request is written as
/// CloudKit Web Services JSON, answered by `StandInDatabase.answer(_:)`, and the answer read back
/// from its JSON, so that the sync loop goes through the same bytes as over HTTP.
///
/// It can stop the loop at any call, as a crash or a lost connection would: before the stand-in
/// sees the request, or after it carried it out (the answer thrown away).
final class StandInService: RecordSyncService, @unchecked Sendable {
    /// Where a call is stopped.
    enum Stop: Hashable, CaseIterable {
        /// Before the request reaches the server: nothing is carried out.
        case beforeServing
        /// After the server carried the request out: its answer is lost.
        case afterServing
    }

    /// The error a stopped call throws.
    struct Stopped: Error, Hashable {
        let call: Int
        let stop: Stop
    }

    let database: StandInDatabase
    let maximumOperationsPerRequest: Int
    private let lock = NSLock()
    private var calls = 0
    private var stops: [Int: Stop] = [:]

    init(database: StandInDatabase, maximumOperationsPerRequest: Int = 200) {
        self.database = database
        self.maximumOperationsPerRequest = maximumOperationsPerRequest
    }

    /// The calls made so far.
    var callCount: Int { lock.withLock { calls } }

    /// Stops the call numbered `call` (counted from 0 over the service's life) as `stop` says.
    func stop(call: Int, _ stop: Stop) {
        lock.withLock { stops[call] = stop }
    }

    /// Forgets the stops of calls not made yet.
    func clearStops() {
        lock.withLock { stops = [:] }
    }

    func modifyRecords(_ request: RecordsModifyRequest) async throws -> RecordsModifyResponse {
        try exchange(request, at: "records/modify")
    }

    func lookupRecords(_ request: RecordsLookupRequest) async throws -> RecordsLookupResponse {
        try exchange(request, at: "records/lookup")
    }

    func fetchZoneChanges(_ request: ZoneChangesRequest) async throws -> ZoneChangesResponse {
        try exchange(request, at: "changes/zone")
    }

    func modifyZones(_ request: ZonesModifyRequest) async throws -> ZonesModifyResponse {
        try exchange(request, at: "zones/modify")
    }

    private func exchange<Answer: Decodable>(_ body: some Encodable, at operation: String) throws -> Answer {
        let (call, stop) = lock.withLock {
            defer { calls += 1 }
            return (calls, stops.removeValue(forKey: calls))
        }
        if stop == .beforeServing { throw Stopped(call: call, stop: .beforeServing) }
        let request = try StandInRequest(
            path: "/database/1/iCloud.com.example.Notes/development/private/\(operation)",
            headers: ["Content-Type": "application/json"], body: RecordJSONEncoder().encode(body))
        let response = try database.answer(request)
        if stop == .afterServing { throw Stopped(call: call, stop: .afterServing) }
        guard response.status == 200 else {
            throw RecordServerError(httpStatus: response.status, headers: response.headers, body: response.body)
        }
        return try RecordJSONDecoder().decode(Answer.self, from: response.body)
    }
}
