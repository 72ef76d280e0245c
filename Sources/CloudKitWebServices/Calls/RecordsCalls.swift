import Foundation
import RecordCodable

// The records calls that read: lookup, query, and a zone's changes. Each is safe to send again.

extension CloudKitDatabase {
    /// The most operations, records to look up or asset tokens one request may carry: 200, as
    /// Apple's CloudKit Web Services Reference ("Data Size Limits") gives it.
    public static let maximumOperationsPerRequest = 200

    /// Looks records up by name (`records/lookup`).
    ///
    /// A request for more than 200 records is sent as several, and their answers joined in
    /// order. A record that does not exist comes back as a `NOT_FOUND` failure in its place.
    ///
    /// - Parameter request: The records to look up.
    /// - Returns: One entry for each record asked for, in order.
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes after
    ///   the retries.
    public func lookupRecords(_ request: RecordsLookupRequest) async throws -> RecordsLookupResponse {
        var records: [RecordResult] = []
        for part in request.records.chunked(by: Self.maximumOperationsPerRequest) {
            var partRequest = request
            partRequest.records = Array(part)
            let exchange = try Exchange(
                operation: "records/lookup", encoding: partRequest,
                recordName: part.count == 1 ? part.first?.recordName : nil, resendsWhenUnanswered: true)
            records += try await exchange.answer(RecordsLookupResponse.self, from: self).records
        }
        return RecordsLookupResponse(records: records)
    }

    /// Fetches one page of the records that match a query (`records/query`).
    ///
    /// The answer's `continuationMarker` asks for the next page; `pages(of:)` follows
    /// them.
    ///
    /// - Parameter request: The query, and the marker of the page to fetch.
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes after
    ///   the retries.
    public func queryRecords(_ request: RecordsQueryRequest) async throws -> RecordsQueryResponse {
        try await read(request, operation: "records/query", as: RecordsQueryResponse.self)
    }

    /// Fetches one page of the changes of one zone since a sync token (`records/changes`).
    ///
    /// `pages(of:)` follows `moreComing` with each page's sync token.
    ///
    /// - Parameter request: The zone, and the sync token of the last changes fetched.
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes after
    ///   the retries.
    public func fetchRecordChanges(_ request: RecordsChangesRequest) async throws -> RecordsChangesResponse {
        try await read(request, operation: "records/changes", as: RecordsChangesResponse.self)
    }

    /// Fetches one page of changes for one or more zones (`changes/zone`).
    ///
    /// A zone the server cannot serve comes back as a failure in its place.
    /// `pages(of:)` follows `moreComing` with each zone's sync token.
    ///
    /// - Parameter request: The zones, each with the sync token of its last changes fetched.
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes after
    ///   the retries.
    public func fetchZoneChanges(_ request: ZoneChangesRequest) async throws -> ZoneChangesResponse {
        try await read(request, operation: "changes/zone", as: ZoneChangesResponse.self)
    }

    /// Fetches one page of the zones that changed in the database since a sync token
    /// (`changes/database`).
    ///
    /// `pages(of:)` follows `moreComing` with each page's sync token.
    ///
    /// - Parameter request: The sync token of the last changes fetched, or none for every zone.
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes after
    ///   the retries.
    public func fetchDatabaseChanges(_ request: DatabaseChangesRequest) async throws -> DatabaseChangesResponse {
        try await read(request, operation: "changes/database", as: DatabaseChangesResponse.self)
    }

    /// Sends a request that reads, and so may be sent again, and reads its answer.
    func read<Request: Encodable, Answer: Decodable>(
        _ request: Request, operation: String, as answer: Answer.Type
    ) async throws -> Answer {
        let exchange = try Exchange(operation: operation, encoding: request, resendsWhenUnanswered: true)
        return try await exchange.answer(Answer.self, from: self)
    }
}

extension Array {
    /// The elements in runs of at most `size`, in order; none for an empty array.
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        let size = Swift.max(size, 1)
        return stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
