import Foundation

/// The body of a CloudKit Web Services `changes/database` request: the zones of a database that
/// changed since a sync token.
///
/// ```json
/// {"syncToken": "AQAAAAAAAAAB", "resultsLimit": 50}
/// ```
///
/// `POST` it to
/// `https://api.apple-cloudkit.com/database/1/<container>/<environment>/<database>/changes/database`.
/// The server answers with a ``DatabaseChangesResponse``: the zones that changed (or were
/// deleted), and the database's new token. Ask for those zones' records with a
/// ``ZoneChangesRequest``. The private and shared databases track changes; in the shared
/// database, the zones are those other people shared with the user.
public struct DatabaseChangesRequest: Hashable, Sendable, Codable, WireCodable {
    /// The token of the last changes fetched, or `nil` for every zone of the database.
    public var syncToken: String?

    /// The most zones the response may hold, or `nil` for the server's maximum.
    public var resultsLimit: Int?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - syncToken: The token of the last changes fetched, or `nil` for every zone.
    ///   - resultsLimit: The most zones the response may hold.
    public init(syncToken: String? = nil, resultsLimit: Int? = nil) {
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
    }

    /// The request for the changes after `response`, or `nil` when the server has no more — or
    /// sends no new token to ask for them with. Keep the last response's token even then: it
    /// is where the next sync starts.
    ///
    /// - Parameter response: The server's answer to this request.
    public func nextPage(after response: DatabaseChangesResponse) -> DatabaseChangesRequest? {
        guard
            let token = RecordsChangesRequest.nextToken(
                after: syncToken, moreComing: response.moreComing, token: response.syncToken)
        else { return nil }
        var next = self
        next.syncToken = token
        return next
    }

    /// Writes the request body as CloudKit Web Services reads it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a request body.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [:]
        object.set("syncToken", syncToken.map(WireJSON.string))
        object.set("resultsLimit", resultsLimit.map { .int64(Int64($0)) })
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        syncToken = try reader.optionalMember("syncToken")?.string()
        resultsLimit = try reader.optionalMember("resultsLimit").map(WireCount.count(from:))
    }
}
