import Foundation

/// The body of a CloudKit Web Services `changes/zone` request: the records that changed in one
/// or more zones, each since its own sync token.
///
/// Each zone is asked for as a ``RecordsChangesRequest`` asks for one — its zone ID, its token,
/// and how many records and which fields to return — so the same values serve both endpoints:
///
/// ```json
/// {"zones": [{"zoneID": {"zoneName": "Notes", "ownerRecordName": "_1d2e"},
///             "syncToken": "AQAAAAAAAwmV", "resultsLimit": 100, "desiredKeys": ["title"]}]}
/// ```
///
/// Encode it and `POST` it to
/// `https://api.apple-cloudkit.com/database/1/<container>/<environment>/<database>/changes/zone`.
/// The server answers with a ``ZoneChangesResponse``, a result per zone; while a zone's result
/// says ``RecordsChangesResponse/moreComing``, ask for the rest with ``nextPage(after:)``.
///
/// `changes/zone` is the endpoint Apple's reference describes for fetching a zone's changes, and
/// the one that takes several zones at once: the zones a ``DatabaseChangesResponse`` names, say.
/// The older `records/changes` (``RecordsChangesRequest``) takes one zone and answers with one
/// page.
public struct ZoneChangesRequest: Hashable, Sendable, Codable, WireCodable {
    /// The zones whose changes to fetch, each with its own token, limit and fields.
    public var zones: [RecordsChangesRequest]

    /// Creates a request.
    ///
    /// - Parameter zones: The zones whose changes to fetch.
    public init(zones: [RecordsChangesRequest]) {
        self.zones = zones
    }

    /// The request for the changes after `response`, or `nil` when no zone has more.
    ///
    /// It asks again for each zone whose result says ``RecordsChangesResponse/moreComing``, with
    /// the result's new token, as ``RecordsChangesRequest/nextPage(after:)`` does for one zone —
    /// and with the owner the result names, when the request named none. A zone's result is the
    /// one of its name and owner (a zone asked for without an owner is the user's, whose owner
    /// the server names). A zone whose result is an error, or that the response leaves out, is
    /// not asked again.
    ///
    /// - Parameter response: The server's answer to this request.
    public func nextPage(after response: ZoneChangesResponse) -> ZoneChangesRequest? {
        var pages: [RecordsChangesResponse] = []
        for case .success(let page) in response.zones { pages.append(page) }
        let next = zones.compactMap { zone -> RecordsChangesRequest? in
            let page = pages.first { page in
                guard let zoneID = page.zoneID, zoneID.zoneName == zone.zoneID.zoneName else { return false }
                return zone.zoneID.ownerRecordName == nil || zone.zoneID.ownerRecordName == zoneID.ownerRecordName
            }
            guard let page, var next = zone.nextPage(after: page) else { return nil }
            if next.zoneID.ownerRecordName == nil { next.zoneID.ownerRecordName = page.zoneID?.ownerRecordName }
            return next
        }
        return next.isEmpty ? nil : ZoneChangesRequest(zones: next)
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
        .object([
            "zones": try zones.wireJSON(member: "zones", at: path) { try $0.wireJSON(at: $1) }
        ])
    }

    init(wire reader: WireReader) throws {
        zones = try reader.member("zones").mapElements(RecordsChangesRequest.init(wire:))
    }
}
