import Foundation

/// One operation of a ``ZonesModifyRequest``: create a zone, or delete one with every record in
/// it.
///
/// ```json
/// {"operationType": "create", "zone": {"zoneID": {"zoneName": "Notes"}}}
/// ```
public struct ZoneOperation: Hashable, Sendable, Codable, WireCodable {
    /// What an operation does with its zone.
    public enum OperationType: String, Hashable, Sendable, Codable, CaseIterable {
        /// Creates the zone.
        case create
        /// Deletes the zone and every record in it.
        case delete
    }

    /// What the operation does.
    public var operationType: OperationType

    /// The zone to create or delete.
    public var zoneID: RecordZoneID

    /// Creates an operation.
    ///
    /// - Parameters:
    ///   - operationType: What the operation does.
    ///   - zoneID: The zone to create or delete.
    public init(_ operationType: OperationType, zoneID: RecordZoneID) {
        self.operationType = operationType
        self.zoneID = zoneID
    }

    /// Writes the operation dictionary as CloudKit Web Services reads it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads an operation dictionary.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) -> WireJSON {
        .object([
            "operationType": .string(operationType.rawValue),
            "zone": .object(["zoneID": WireField.zoneID(zoneID)]),
        ])
    }

    init(wire reader: WireReader) throws {
        let typeReader = try reader.member("operationType")
        let name = try typeReader.string()
        guard let operationType = OperationType(rawValue: name) else {
            throw typeReader.corrupted("Unknown operation type '\(name)': expected create or delete.")
        }
        self.operationType = operationType
        zoneID = try WireField.zoneID(from: reader.member("zone").member("zoneID"))
    }
}
