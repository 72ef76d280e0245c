import RecordCodable

/// The pages of a paged call, fetched one at a time as they are iterated: each page's request
/// is the one before, advanced by what its answer said (a query's `continuationMarker`, the
/// changes' `moreComing` and sync tokens).
///
/// ```swift
/// for try await page in database.pages(of: RecordsQueryRequest(query: RecordQuery(recordType: "Note"))) {
///     for entry in page.records { … }
/// }
/// ```
///
/// Iteration ends after the page that says there is no more, or that brings no new marker or
/// token (the same request would fetch the same page again, for ever). A failed page throws,
/// after the retries; the pages before it were handed out already. Breaking out of the loop
/// fetches nothing more.
public struct CloudKitPages<Request: Sendable, Page: Sendable>: AsyncSequence, Sendable {
    /// A page: the server's answer to one request.
    public typealias Element = Page

    /// The first page's request.
    let first: Request
    /// Fetches the page of a request.
    let fetch: @Sendable (Request) async throws -> Page
    /// The request of the page after a page, or `nil` when it was the last.
    let advance: @Sendable (Request, Page) -> Request?

    /// Fetches the pages in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var request: Request?
        let fetch: @Sendable (Request) async throws -> Page
        let advance: @Sendable (Request, Page) -> Request?

        /// Fetches the next page, or returns `nil` after the last.
        public mutating func next() async throws -> Page? {
            guard let current = request else { return nil }
            request = nil
            let page = try await fetch(current)
            request = advance(current, page)
            return page
        }
    }

    /// Starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(request: first, fetch: fetch, advance: advance)
    }
}

extension CloudKitDatabase {
    /// The pages of a query (`records/query`), following each page's `continuationMarker`.
    ///
    /// - Parameter request: The query, and the marker of the first page to fetch, if any.
    public func pages(of request: RecordsQueryRequest) -> CloudKitPages<RecordsQueryRequest, RecordsQueryResponse> {
        CloudKitPages(first: request, fetch: queryRecords, advance: { $0.nextPage(after: $1) })
    }

    /// The pages of one zone's changes (`records/changes`), following `moreComing` with each
    /// page's sync token. The last page's `syncToken` is the one to fetch from next time.
    ///
    /// - Parameter request: The zone, and the sync token of the last changes fetched.
    public func pages(of request: RecordsChangesRequest)
        -> CloudKitPages<RecordsChangesRequest, RecordsChangesResponse>
    {
        CloudKitPages(first: request, fetch: fetchRecordChanges, advance: { $0.nextPage(after: $1) })
    }

    /// The pages of several zones' changes (`changes/zone`), following `moreComing` with each
    /// zone's sync token: each page asks again for the zones that have more.
    ///
    /// - Parameter request: The zones, each with the sync token of its last changes fetched.
    public func pages(of request: ZoneChangesRequest) -> CloudKitPages<ZoneChangesRequest, ZoneChangesResponse> {
        CloudKitPages(first: request, fetch: fetchZoneChanges, advance: { $0.nextPage(after: $1) })
    }

    /// The pages of the database's changed zones (`changes/database`), following `moreComing`
    /// with each page's sync token.
    ///
    /// - Parameter request: The sync token of the last changes fetched, or none.
    public func pages(of request: DatabaseChangesRequest)
        -> CloudKitPages<DatabaseChangesRequest, DatabaseChangesResponse>
    {
        CloudKitPages(first: request, fetch: fetchDatabaseChanges, advance: { $0.nextPage(after: $1) })
    }
}
