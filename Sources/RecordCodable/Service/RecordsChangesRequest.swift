import Foundation

/// The body of a CloudKit Web Services `records/changes` request: the records of a zone that
/// changed since a sync token.
///
/// Encode it with `JSONEncoder` and `POST` it to
/// `https://api.apple-cloudkit.com/database/1/<container>/<environment>/<database>/records/changes`:
///
/// ```swift
/// let request = RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "Notes"), syncToken: savedToken)
/// let body = try JSONEncoder().encode(request)
/// ```
///
/// The server answers with a ``RecordsChangesResponse``: the records changed or deleted since
/// ``syncToken`` (every record of the zone without one), and a new token to keep for the next
/// time. While the response says ``RecordsChangesResponse/moreComing``, ask for the rest with
/// ``nextPage(after:)``. Only custom zones of the private and shared databases track changes.
public struct RecordsChangesRequest: Hashable, Sendable, Codable, WireCodable {
    /// The zone whose changes to fetch.
    public var zoneID: RecordZoneID

    /// The token of the last changes fetched, or `nil` for every record of the zone.
    public var syncToken: String?

    /// The most records the response may hold, or `nil` for the server's maximum.
    public var resultsLimit: Int?

    /// The fields each record of the response includes, or `nil` for all of them.
    public var desiredKeys: [String]?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - zoneID: The zone whose changes to fetch.
    ///   - syncToken: The token of the last changes fetched, or `nil` for every record.
    ///   - resultsLimit: The most records the response may hold.
    ///   - desiredKeys: The fields each record of the response includes, or `nil` for all.
    public init(
        zoneID: RecordZoneID,
        syncToken: String? = nil,
        resultsLimit: Int? = nil,
        desiredKeys: [String]? = nil
    ) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
        self.desiredKeys = desiredKeys
    }

    /// The request for the changes after `response`, or `nil` when the server has no more — or
    /// sends no new token to ask for them with, which would ask for the same page again.
    ///
    /// It is this request with the response's ``RecordsChangesResponse/syncToken``. Keep the
    /// last response's token even when this returns `nil`: it is where the next sync starts.
    ///
    /// ```swift
    /// var request: RecordsChangesRequest? = RecordsChangesRequest(zoneID: zone, syncToken: token)
    /// while let next = request {
    ///     let page = try await send(next)          // a RecordsChangesResponse
    ///     apply(page.records)
    ///     token = page.syncToken ?? token
    ///     request = next.nextPage(after: page)
    /// }
    /// ```
    ///
    /// - Parameter response: The server's answer to this request.
    public func nextPage(after response: RecordsChangesResponse) -> RecordsChangesRequest? {
        guard let token = Self.nextToken(after: syncToken, moreComing: response.moreComing, token: response.syncToken)
        else { return nil }
        var next = self
        next.syncToken = token
        return next
    }

    /// The token to ask for the next page with, after a page asked for with `current` that
    /// brought `token`: `nil` when the page has no more, or no new token — without one, the same
    /// request would fetch the same page again, for ever.
    static func nextToken(after current: String?, moreComing: Bool, token: String?) -> String? {
        guard moreComing, let token, token != current else { return nil }
        return token
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
        var object: [String: WireJSON] = ["zoneID": WireField.zoneID(zoneID)]
        object.set("syncToken", syncToken.map(WireJSON.string))
        object.set("resultsLimit", resultsLimit.map { .int64(Int64($0)) })
        object.set("desiredKeys", desiredKeys.map { .array($0.map(WireJSON.string)) })
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        zoneID = try WireField.zoneID(from: reader.member("zoneID"))
        syncToken = try reader.optionalMember("syncToken")?.string()
        resultsLimit = try reader.optionalMember("resultsLimit").map(WireCount.count(from:))
        desiredKeys = try reader.optionalMember("desiredKeys")?.mapElements { try $0.string() }
    }
}
