import Foundation

/// The body of the server's answer to a `zones/modify` request: one result per operation, in the
/// order of the operations.
///
/// ```swift
/// let response = try JSONDecoder().decode(ZonesModifyResponse.self, from: body)
/// for result in response.zones {
///     switch result {
///     case .success(let zone): print("ready:", zone.zoneID.zoneName)
///     case .failure(let error): print(error, error.recoverySuggestion ?? "")
///     }
/// }
/// ```
public struct ZonesModifyResponse: Hashable, Sendable, Codable, WireCodable {
    /// The result of each operation: the zone as the server has it, or why the operation failed.
    public var zones: [ZoneResult]

    /// Creates a response.
    ///
    /// - Parameter zones: The result of each operation.
    public init(zones: [ZoneResult]) {
        self.zones = zones
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
        zones = try reader.optionalMember("zones")?.mapElements(ZoneResult.init(wire:)) ?? []
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        .object([
            "zones": try zones.wireJSON(member: "zones", at: path) { try $0.wireJSON(at: $1) }
        ])
    }
}

/// The result of one operation of a ``ZonesModifyRequest``: the zone, or the server's reason for
/// failing the operation.
public enum ZoneResult: Hashable, Sendable {
    /// The zone as the server has it: created, or the zone that was deleted.
    case success(RecordZone)
    /// Why the operation on this zone failed; the error's ``RecordServerError/zoneID`` names the
    /// zone.
    case failure(RecordServerError)

    /// The zone, or `nil` for a failure.
    public var zone: RecordZone? {
        if case .success(let zone) = self { return zone }
        return nil
    }

    /// The server's error, or `nil` for a zone.
    public var error: RecordServerError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The zone the result is about, when it says.
    public var zoneID: RecordZoneID? {
        switch self {
        case .success(let zone): zone.zoneID
        case .failure(let error): error.zoneID
        }
    }

    /// Returns the zone, or throws the server's error.
    public func get() throws(RecordServerError) -> RecordZone {
        switch self {
        case .success(let zone): return zone
        case .failure(let error): throw error
        }
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        switch self {
        case .success(let zone): zone.wireJSON(at: path)
        case .failure(let error): try error.wireJSON(at: path)
        }
    }

    /// An entry of the answer; one with a `serverErrorCode` is a failure.
    init(wire reader: WireReader) throws {
        if try reader.contains("serverErrorCode") {
            self = .failure(try RecordServerError(wire: reader))
        } else {
            self = .success(try RecordZone(wire: reader))
        }
    }
}
