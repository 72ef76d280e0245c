import Foundation

/// One request and the answer the real server gave it, as a recording kept them: the operation's
/// path, the request's body, the answer's status and body.
public struct RecordedExchange: Sendable, Hashable, CustomStringConvertible {
    /// A name that says where the exchange comes from, such as
    /// `icloudpd/queryRequest-listing_photos-10.json -> icloudpd/queryResponse-listing_photos-10.json`.
    public var name: String
    /// The path the request was sent to, without its query, such as
    /// `/database/1/com.apple.photos.cloud/production/private/records/query`.
    public var path: String
    /// The request's body, as recorded.
    public var requestBody: Data
    /// The answer's HTTP status.
    public var status: Int
    /// The answer's body, as recorded.
    public var responseBody: Data

    /// Creates an exchange.
    public init(name: String, path: String, requestBody: Data, status: Int = 200, responseBody: Data) {
        self.name = name
        self.path = path
        self.requestBody = requestBody
        self.status = status
        self.responseBody = responseBody
    }

    /// The operation the exchange is of: the part of ``path`` after the container and the
    /// environment, such as `private/records/query`. A request matches the exchange when its path
    /// ends with it, whatever container or environment comes before.
    public var operation: String {
        let parts = path.split(separator: "/")
        // /database/1/<container>/<environment>/<operation...>
        guard parts.count > 4, parts[0] == "database" else { return parts.joined(separator: "/") }
        return parts.dropFirst(4).joined(separator: "/")
    }

    /// The name, which says which recording this is.
    public var description: String { name }
}
