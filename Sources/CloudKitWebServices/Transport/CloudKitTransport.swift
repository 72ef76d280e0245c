import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What carries the client's requests to the server: one HTTP exchange at a time.
///
/// ``URLSessionTransport`` is the default. Another HTTP client (an `AsyncHTTPClient` on a server,
/// a recording or a proxy) plugs in by conforming to this protocol:
///
/// ```swift
/// struct LoggingTransport: CloudKitTransport {
///     let wrapped: any CloudKitTransport
///     func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
///         print(request.httpMethod ?? "GET", request.url?.path ?? "")
///         return try await wrapped.send(request)
///     }
/// }
/// ```
///
/// A transport sends exactly what it is given, once: it neither retries nor follows the
/// server's `Retry-After`, since the client decides what is safe to repeat. It returns any
/// answer the server gives, whatever its status, and throws only when there is no answer (the
/// connection failed or dropped, the task was cancelled).
public protocol CloudKitTransport: Sendable {
    /// Sends one request and returns the answer's body and response, whatever its status.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
