import Foundation

/// A record zone as the server describes it: its identity, the token of its latest changes, and
/// what it can do.
///
/// The zone dictionary of CloudKit Web Services, in a ``ZonesListResponse`` or a
/// ``ZonesModifyResponse``:
///
/// ```json
/// {"zoneID": {"zoneName": "Notes", "ownerRecordName": "_1d2e", "zoneType": "REGULAR_CUSTOM_ZONE"},
///  "syncToken": "AQAAAAAAAwmV", "atomic": true}
/// ```
///
/// The server puts a zone's type inside its `zoneID`, where ``RecordZoneID`` has no place for
/// it: it is kept in ``zoneType`` and written back where it came from.
public struct RecordZone: Hashable, Sendable, Codable, WireCodable {
    /// The zone's name and owner.
    public var zoneID: RecordZoneID

    /// The token of the zone's latest changes, to fetch the changes after it with a
    /// ``RecordsChangesRequest``.
    public var syncToken: String?

    /// Whether the zone applies a request's operations all together or not at all, as custom
    /// zones do.
    public var atomic: Bool?

    /// The kind of zone, such as `REGULAR_CUSTOM_ZONE` or `DEFAULT_ZONE`, when the server says.
    public var zoneType: String?

    /// Creates a zone.
    ///
    /// - Parameters:
    ///   - zoneID: The zone's name and owner.
    ///   - syncToken: The token of the zone's latest changes.
    ///   - atomic: Whether the zone applies a request's operations all together or not at all.
    ///   - zoneType: The kind of zone.
    public init(zoneID: RecordZoneID, syncToken: String? = nil, atomic: Bool? = nil, zoneType: String? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.atomic = atomic
        self.zoneType = zoneType
    }

    /// Writes the zone dictionary as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a zone dictionary.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) -> WireJSON {
        var object: [String: WireJSON] = ["zoneID": Self.zoneIDJSON(zoneID, zoneType: zoneType)]
        object.set("syncToken", syncToken.map(WireJSON.string))
        object.set("atomic", atomic.map(WireJSON.bool))
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        let zoneIDReader = try reader.member("zoneID")
        zoneID = try WireField.zoneID(from: zoneIDReader)
        syncToken = try reader.optionalMember("syncToken")?.string()
        atomic = try reader.optionalMember("atomic")?.bool()
        zoneType =
            try zoneIDReader.optionalMember("zoneType")?.string() ?? reader.optionalMember("zoneType")?.string()
    }

    /// A zone ID dictionary with the zone's type, where the server writes it.
    static func zoneIDJSON(_ zoneID: RecordZoneID, zoneType: String?) -> WireJSON {
        guard let zoneType, case .object(var object) = WireField.zoneID(zoneID) else {
            return WireField.zoneID(zoneID)
        }
        object["zoneType"] = .string(zoneType)
        return .object(object)
    }
}
