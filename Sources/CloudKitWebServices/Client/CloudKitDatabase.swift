import Foundation
import RecordCodable

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One database of a CloudKit container, reached over CloudKit Web Services: every records,
/// zones and assets call, async.
///
/// ```swift
/// let database = CloudKitDatabase(
///     container: "iCloud.com.example.Notes", environment: .development, scope: .public,
///     credentials: .serverToServer(keyID: keyID) { message in
///         try key.signature(for: message).derRepresentation
///     })
/// let saved = try await database.save([note])                 // records/modify
/// for try await page in database.pages(of: RecordsQueryRequest(query: RecordQuery(recordType: "Note"))) {
///     print(page.records.count)                               // records/query, page by page
/// }
/// ```
///
/// Each call sends its body to
/// `<serverURL>/database/1/<container>/<environment>/<scope>/<operation>`, authenticated with the
/// ``CloudKitCredentials``, through the ``CloudKitTransport``, and reads the answer with the
/// package's response bodies. Pages are followed as `AsyncSequence`s (`pages(of:)`).
///
/// ## What the server limits
///
/// Apple's CloudKit Web Services Reference ("Data Size Limits") allows 200 operations in a
/// request, 200 records in a response, 200 asset tokens in a request, 1 MB for a record (not
/// counting its assets) and 50 MB for an asset file. The client splits a records-modify or
/// lookup request of more than 200 records, and an asset-token request of more than 200
/// tokens, into requests of 200 — except an atomic modify, which it refuses rather than apply in
/// parts (see ``modifyRecords(_:)``).
///
/// ## Retries, and each error code
///
/// The client sends a request again only when that cannot apply it twice, waiting as its
/// ``retryPolicy`` says (the server's `retryAfter` or `Retry-After` first, else a bounded
/// exponential backoff with jitter); a cancelled task stops at once with `CancellationError`.
/// What each of the server's codes (`RecordServerError/Code`) leads to, for the whole request
/// or one record of it:
///
/// | Code | What the client does |
/// |---|---|
/// | `THROTTLED` (429), `TRY_AGAIN_LATER` (503, and a gateway's 502/504), `SERVICE_UNAVAILABLE`, `ZONE_BUSY`, or any code with a `retryAfter` or `Retry-After` | The server did not apply it: sent again after the delay, the whole request or only the records refused so, until the policy gives up; then thrown (whole request) or returned (records) |
/// | `LIMIT_EXCEEDED` for a whole records-modify request that may be split | Split in half and both halves sent, as CloudKit advises |
/// | `CONFLICT`, `SERVER_RECORD_CHANGED` | Returned for the record: fetch it, apply the edit, save again. After a lost answer, the record is looked up and counted saved when the server has what was sent |
/// | `EXISTS` | Returned for the record. After a lost answer to a create, the record is looked up and counted saved when the server has what was sent |
/// | `AUTHENTICATION_REQUIRED` (421) | Thrown; its `redirectURL` is where the user signs in |
/// | `AUTHENTICATION_FAILED` (401), `ACCESS_DENIED` (403), `BAD_REQUEST` (400), `INVALID_ARGUMENTS`, `QUOTA_EXCEEDED` (413), `NOT_FOUND`, `ZONE_NOT_FOUND` (404), `VALIDATING_REFERENCE_ERROR` (412), `UNIQUE_FIELD_ERROR`, `ATOMIC_ERROR`, `LIMIT_EXCEEDED` otherwise | Never retried: the same request would fail the same way. Thrown for the whole request, returned for a record |
/// | `INTERNAL_ERROR` (500) | Never retried unless the server gives a delay: Apple's reference tells it apart from `TRY_AGAIN_LATER`, and CloudKit calls it unrecoverable |
/// | Any other code | Treated as the last row: never retried unless the server gives a delay |
///
/// A request that got no answer (the transport threw) is sent again when that is safe: every
/// read, an asset token request or upload, a zones request that only creates, and a
/// records-modify request that only creates, updates or replaces records — whose answer is then checked
/// as the table says, so that a lost answer neither duplicates nor fails a record. Any other
/// modify is thrown as ``CloudKitError/Reason/noAnswer(_:)``: the caller cannot know whether it
/// was applied.
///
/// ## Syncing a store
///
/// `CloudKitDatabase` implements `RecordSyncService`, the calls `RecordStore.sync(with:)` makes;
/// their whole-request failures are thrown as ``CloudKitError``, whose
/// ``CloudKitError/serverError`` is the server's `RecordServerError`.
public struct CloudKitDatabase: Sendable {
    /// CloudKit Web Services' own address, the default ``serverURL``.
    public static let appleServerURL: URL = URL(string: "https://api.apple-cloudkit.com") ?? URL(fileURLWithPath: "/")

    /// The container's identifier, such as `iCloud.com.example.Notes`.
    public let container: String

    /// The container's environment.
    public let environment: CloudKitEnvironment

    /// The database of the container.
    public let scope: CloudKitDatabaseScope

    /// The address requests go to: CloudKit's own, or a test server's or a proxy's.
    public let serverURL: URL

    /// When and how requests are sent again.
    public var retryPolicy: CloudKitRetryPolicy

    /// What carries the requests.
    let transport: any CloudKitTransport

    /// The credentials, with the web auth token the server hands out with each answer.
    let authentication: Authentication

    /// Creates a client for one database of a container.
    ///
    /// - Parameters:
    ///   - container: The container's identifier, such as `iCloud.com.example.Notes`.
    ///   - environment: The container's environment.
    ///   - scope: The database: public, private or shared.
    ///   - credentials: How requests are authenticated.
    ///   - transport: What carries the requests: `URLSession` by default.
    ///   - serverURL: Where requests go: CloudKit Web Services by default.
    ///   - retryPolicy: When and how requests are sent again.
    public init(
        container: String,
        environment: CloudKitEnvironment,
        scope: CloudKitDatabaseScope,
        credentials: CloudKitCredentials,
        transport: any CloudKitTransport = URLSessionTransport(),
        serverURL: URL = CloudKitDatabase.appleServerURL,
        retryPolicy: CloudKitRetryPolicy = CloudKitRetryPolicy()
    ) {
        self.container = container
        self.environment = environment
        self.scope = scope
        self.serverURL = serverURL
        self.retryPolicy = retryPolicy
        self.transport = transport
        self.authentication = Authentication(credentials)
    }

    /// The web auth token the next request sends: the one given with
    /// ``CloudKitCredentials/apiToken(_:webAuthToken:)``, then the last one the server handed out
    /// (a web auth token is good for one request; each answer carries the next in the header
    /// `X-Apple-CloudKit-Web-Auth-Token`). Keep it to resume the user's session later. `nil`
    /// for a server-to-server key.
    public var webAuthToken: String? { authentication.webAuthToken }

    /// The path of an operation's URL, from `/database/` on: what a server-to-server key signs.
    ///
    /// - Parameter operation: The operation, such as `records/modify`.
    public func subpath(for operation: String) -> String {
        let segment = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .pathSegment) ?? text }
        return "/database/1/\(segment(container))/\(environment.rawValue)/\(scope.rawValue)/\(operation)"
    }
}

extension CharacterSet {
    /// What a path segment keeps unescaped: the path's characters but `/`.
    static let pathSegment = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))

    /// What a query parameter's value keeps unescaped: RFC 3986's unreserved characters, so
    /// that a token's `+`, `/` and `=` arrive as they are.
    static let queryValue = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
