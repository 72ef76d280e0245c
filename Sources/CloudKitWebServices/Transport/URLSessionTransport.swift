import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// TEMPORARY: a minimal transport so that the client compiles; the transport helper's file
// replaces this one at the merge.

/// Sends requests with Foundation's `URLSession`.
public struct URLSessionTransport: CloudKitTransport {
    /// The session the requests go through.
    public let session: URLSession

    /// Creates a transport over `session`, the shared session by default.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends one request and returns the answer's body and response, whatever its status.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}
