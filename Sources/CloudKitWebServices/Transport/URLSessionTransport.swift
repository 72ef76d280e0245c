import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``CloudKitTransport``: one `URLSession` data task per request.
///
/// The transport sends a request once and hands back whatever the server answers. A `429` or a
/// `503` with `Retry-After` is an answer like any other: the transport returns it, and the client
/// decides whether to wait and send again. The transport throws only when no answer arrived: the
/// connection could not be made, it dropped before the whole answer was read, or the task that
/// called ``send(_:)`` was cancelled.
///
/// By default it uses a session of its own, made by ``makeDefaultSession()``: ephemeral, with no
/// cache and no cookies, since CloudKit's answers are never to be served twice and its
/// authentication travels in each request. Give it another session to set timeouts, a proxy or
/// a delegate:
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.timeoutIntervalForRequest = 30
/// let transport = URLSessionTransport(session: URLSession(configuration: configuration))
/// ```
///
/// On Linux, give `timeoutIntervalForRequest` in whole seconds: `URLSession` there drops the
/// fraction, so that `1.5` waits one second and `0.5` gives up at once (the loopback sync tests
/// saw a request time out after 8 milliseconds).
///
/// Cancelling the task that awaits ``send(_:)`` cancels the data task: the connection is closed
/// and ``send(_:)`` throws `CancellationError`, whether the answer had started to arrive or not.
/// A request cancelled after it left may still have reached the server, so a client that sends
/// it again must know that doing so is safe.
///
/// When no answer arrives, the error is the `URLError` that `URLSession` reports, and its code
/// depends on the platform. On Linux, where `URLSession` runs on libcurl, the loopback tests see:
///
/// | What happened | `URLError.Code` on Linux |
/// |---|---|
/// | nothing listens at the address | `.cannotConnectToHost` |
/// | the connection closed before a byte of answer | `.badServerResponse` ("Empty reply from server") |
/// | the answer stopped short of its `Content-Length` | `.unknown` ("transfer closed with … bytes remaining") |
/// | the connection was reset | `.networkConnectionLost` |
///
/// In every case the request may have reached the server and taken effect.
public struct URLSessionTransport: CloudKitTransport {
    /// The session that each request's data task belongs to.
    public let session: URLSession

    /// Creates a transport over a session.
    ///
    /// - Parameter session: The session to send through; by default one made by
    ///   ``makeDefaultSession()``, shared by every transport that takes the default.
    public init(session: URLSession = URLSessionTransport.defaultSession) {
        self.session = session
    }

    /// The session that transports share when given none: one made by ``makeDefaultSession()``.
    ///
    /// A `URLSession` keeps its connections open between requests, so one session serves every
    /// transport that takes the default rather than one session each.
    public static let defaultSession = makeDefaultSession()

    /// Makes a session fit for CloudKit Web Services: ephemeral, with no cache and no cookies.
    ///
    /// CloudKit's answers describe the server's state at the moment of the request, so none may
    /// come from a cache; its authentication is in each request, so no cookie is kept.
    public static func makeDefaultSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration)
    }

    /// Sends one request and returns the answer's body and response, whatever its status.
    ///
    /// - Parameter request: The request to send, with its method, headers and body set.
    /// - Returns: The answer's body and its HTTP response.
    /// - Throws: `CancellationError` when the calling task is cancelled, before or during the
    ///   exchange; the `URLError` that `URLSession` reports when no whole answer arrived; and
    ///   `URLError(.badServerResponse)` when the answer is not an HTTP one.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
            // URLSession reports its own cancellation as a URLError; the caller cancelled a task,
            // and Swift's way of saying so is CancellationError.
            throw CancellationError()
        }
        guard let answer = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
        }
        return (data, answer)
    }
}
