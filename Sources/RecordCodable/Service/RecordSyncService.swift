/// The part of a CloudKit database that a sync loop talks to: the calls that send local changes,
/// look records up, fetch a zone's changes and create zones, in the package's request and
/// response bodies.
///
/// `RecordStore.sync(with:)` drives its sync cycle through this protocol, so the store does not
/// depend on networking. `CloudKitDatabase` (module `CloudKitWebServices`) implements it over
/// CloudKit Web Services; an adapter over `CKDatabase`, or a stand-in server in tests, can
/// implement it too.
///
/// ## What an implementation promises
///
/// - Each call sends one request and returns the server's answer to it, with the per-record
///   and per-zone refusals inside the response (`RecordResult.failure`), as CloudKit reports
///   them. It retries only what is safe to retry (see each call).
/// - A call throws when there is no answer to return: the connection failed, the request was
///   refused as a whole (authentication, throttling past the retries, a server error), or the
///   task was cancelled. The error is the implementation's own, and carries the server's code
///   and reason when the server gave one (`CloudKitDatabase` throws a `CloudKitError` whose
///   `serverError` is the ``RecordServerError``). The sync loop does not read it: it stops and
///   passes it on, with the store consistent.
///   After a throw the caller cannot know whether the server applied the request; the store's
///   sync cycle is written for that (a lost answer is resolved on the next sync).
public protocol RecordSyncService: Sendable {
    /// The most operations one records-modify request may carry: CloudKit Web Services accepts
    /// 200. The sync loop never sends more in one request.
    var maximumOperationsPerRequest: Int { get }

    /// Sends a records-modify request (`records/modify`): creates, updates and deletes.
    ///
    /// Not retried after the request may have reached the server, unless the implementation
    /// knows that repeating it is safe; the store resolves a repeated create or a lost answer
    /// itself.
    func modifyRecords(_ request: RecordsModifyRequest) async throws -> RecordsModifyResponse

    /// Looks records up by name (`records/lookup`). Safe to retry.
    func lookupRecords(_ request: RecordsLookupRequest) async throws -> RecordsLookupResponse

    /// Fetches one page of changes for one or more zones (`changes/zone`). Safe to retry; the
    /// caller asks again with each zone's new sync token while `moreComing` is true.
    func fetchZoneChanges(_ request: ZoneChangesRequest) async throws -> ZoneChangesResponse

    /// Creates or deletes zones (`zones/modify`). Creating a zone that exists succeeds.
    func modifyZones(_ request: ZonesModifyRequest) async throws -> ZonesModifyResponse
}
