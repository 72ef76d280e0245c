import Foundation

/// The body of the server's answer to a `zones/list` request: every zone of the database.
///
/// The answer to `GET`
/// `https://api.apple-cloudkit.com/database/1/<container>/<environment>/<database>/zones/list`:
///
/// ```swift
/// let list = try JSONDecoder().decode(ZonesListResponse.self, from: body)
/// for zone in list.zones {
///     print(zone.zoneID.zoneName, zone.zoneType ?? "", zone.syncToken ?? "")
/// }
/// ```
///
/// The private database always has its default zone, `_defaultZone`; custom zones are made with a
/// ``ZonesModifyRequest``.
public struct ZonesListResponse: Hashable, Sendable, Codable, WireCodable {
    /// The zones of the database.
    public var zones: [RecordZone]

    /// The database's sync token, which real responses carry beside the zones.
    public var syncToken: String?

    /// Whether the database has more zones than this answer, when the server says.
    public var moreComing: Bool?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - zones: The zones of the database.
    ///   - syncToken: The database's sync token.
    ///   - moreComing: Whether the database has more zones than this answer.
    public init(zones: [RecordZone], syncToken: String? = nil, moreComing: Bool? = nil) {
        self.zones = zones
        self.syncToken = syncToken
        self.moreComing = moreComing
    }

    /// Writes the response body as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a response body. A body without `zones` has none.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    init(wire reader: WireReader) throws {
        zones = try reader.optionalMember("zones")?.mapElements(RecordZone.init(wire:)) ?? []
        syncToken = try reader.optionalMember("syncToken")?.string()
        moreComing = try reader.optionalMember("moreComing")?.bool()
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [
            "zones": zones.wireJSON(member: "zones", at: path) { $0.wireJSON(at: $1) }
        ]
        object.set("syncToken", syncToken.map(WireJSON.string))
        object.set("moreComing", moreComing.map(WireJSON.bool))
        return .object(object)
    }
}
