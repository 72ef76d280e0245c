import Foundation

/// An HTTP request as the stand-in sees it: what the loopback server read off the socket, or
/// what an in-process test hands the stand-in directly.
public struct StandInRequest: Sendable, Hashable {
    /// The method, such as `POST`.
    public var method: String
    /// The path and query of the URL, such as `/database/1/iCloud.com.example/development/public/records/modify`.
    public var path: String
    /// The headers, with names as sent.
    public var headers: [String: String]
    /// The body's bytes.
    public var body: Data

    /// Creates a request; by default a `POST` with no headers and no body.
    public init(method: String = "POST", path: String, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The value of a header, whatever the case of its name.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// The stand-in's answer to one request.
public struct StandInResponse: Sendable, Hashable {
    /// The HTTP status, such as 200.
    public var status: Int
    /// The headers, such as `Retry-After`.
    public var headers: [String: String]
    /// The body's bytes: CloudKit's JSON.
    public var body: Data

    /// Creates an answer; by default a `200` of JSON.
    public init(
        status: Int = 200, headers: [String: String] = ["Content-Type": "application/json; charset=UTF-8"], body: Data
    ) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
