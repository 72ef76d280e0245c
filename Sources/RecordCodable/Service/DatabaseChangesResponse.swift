import Foundation

/// The body of the server's answer to a `changes/database` request: the zones that changed since
/// the request's sync token.
///
/// ```json
/// {"syncToken": "AQAAAAAAAAAC", "moreComing": false,
///  "zones": [{"zoneID": {"zoneName": "Notes", "ownerRecordName": "_1d2e"}},
///            {"zoneID": {"zoneName": "Old", "ownerRecordName": "_1d2e"}, "deleted": true}]}
/// ```
///
/// Fetch the records of each zone that changed with a ``ZoneChangesRequest``; a deleted zone has
/// none left.
public struct DatabaseChangesResponse: Hashable, Sendable, Codable, WireCodable {
    /// The zones that changed, or were deleted.
    public var zones: [ChangedZone]

    /// The token to send with the next request for the database's changes.
    public var syncToken: String?

    /// Whether the server has more changed zones than this answer: ask again with ``syncToken``
    /// (see ``DatabaseChangesRequest/nextPage(after:)``). A body without it has none.
    public var moreComing: Bool

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - zones: The zones that changed, or were deleted.
    ///   - syncToken: The token to send with the next request.
    ///   - moreComing: Whether the server has more changed zones than this answer.
    public init(zones: [ChangedZone], syncToken: String? = nil, moreComing: Bool = false) {
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
        zones = try reader.optionalMember("zones")?.mapElements(ChangedZone.init(wire:)) ?? []
        syncToken = try reader.optionalMember("syncToken")?.string()
        moreComing = try reader.optionalMember("moreComing")?.bool() ?? false
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [
            "zones": .array(zones.map { $0.wireJSON() }),
            "moreComing": .bool(moreComing),
        ]
        object.set("syncToken", syncToken.map(WireJSON.string))
        return .object(object)
    }
}

/// A zone that changed, in a ``DatabaseChangesResponse``: its identity, and whether it was
/// deleted.
public struct ChangedZone: Hashable, Sendable {
    /// The zone's name and owner.
    public var zoneID: RecordZoneID

    /// Whether the zone was deleted, with its records.
    public var deleted: Bool

    /// The kind of zone, when the server says: it writes it inside the zone ID, as in a
    /// ``RecordZone``, and it is written back there.
    public var zoneType: String?

    /// Creates a changed zone.
    ///
    /// - Parameters:
    ///   - zoneID: The zone's name and owner.
    ///   - deleted: Whether the zone was deleted.
    ///   - zoneType: The kind of zone.
    public init(zoneID: RecordZoneID, deleted: Bool = false, zoneType: String? = nil) {
        self.zoneID = zoneID
        self.deleted = deleted
        self.zoneType = zoneType
    }

    func wireJSON() -> WireJSON {
        var object: [String: WireJSON] = ["zoneID": RecordZone.zoneIDJSON(zoneID, zoneType: zoneType)]
        if deleted { object["deleted"] = .bool(true) }
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        let zoneIDReader = try reader.member("zoneID")
        zoneID = try WireField.zoneID(from: zoneIDReader)
        zoneType = try zoneIDReader.optionalMember("zoneType")?.string()
        deleted = try reader.optionalMember("deleted")?.bool() ?? false
    }
}
