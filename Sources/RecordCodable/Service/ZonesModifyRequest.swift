import Foundation

/// The body of a CloudKit Web Services `zones/modify` request: create and delete zones.
///
/// Encode it with `JSONEncoder` and `POST` it to
/// `https://api.apple-cloudkit.com/database/1/<container>/<environment>/private/zones/modify`:
///
/// ```swift
/// let request = ZonesModifyRequest(creating: [RecordZoneID(zoneName: "Notes")])
/// let body = try JSONEncoder().encode(request)
/// // {"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Notes"}}}]}
/// ```
///
/// The server answers with a ``ZonesModifyResponse``. Custom zones live in the private database
/// (the public database has only its default zone); deleting a zone deletes its records.
public struct ZonesModifyRequest: Hashable, Sendable, Codable, WireCodable {
    /// The operations, applied in order.
    public var operations: [ZoneOperation]

    /// Creates a request.
    ///
    /// - Parameter operations: The operations, applied in order.
    public init(operations: [ZoneOperation]) {
        self.operations = operations
    }

    /// Creates a request that creates some zones and deletes others.
    ///
    /// - Parameters:
    ///   - created: The zones to create.
    ///   - deleted: The zones to delete, with every record in them.
    public init(creating created: some Sequence<RecordZoneID>, deleting deleted: some Sequence<RecordZoneID> = []) {
        self.init(
            operations: created.map { ZoneOperation(.create, zoneID: $0) }
                + deleted.map { ZoneOperation(.delete, zoneID: $0) })
    }

    /// Creates a request that deletes zones, with every record in them.
    ///
    /// - Parameter deleted: The zones to delete.
    public init(deleting deleted: some Sequence<RecordZoneID>) {
        self.init(operations: deleted.map { ZoneOperation(.delete, zoneID: $0) })
    }

    /// Writes the request body as CloudKit Web Services reads it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a request body.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) -> WireJSON {
        .object([
            "operations": operations.wireJSON(member: "operations", at: path) { $0.wireJSON(at: $1) }
        ])
    }

    init(wire reader: WireReader) throws {
        operations = try reader.member("operations").mapElements(ZoneOperation.init(wire:))
    }
}
