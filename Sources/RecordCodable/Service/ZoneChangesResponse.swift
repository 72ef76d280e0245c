import Foundation

/// The body of the server's answer to a `changes/zone` request: a result per zone asked for.
///
/// Each zone's result is a page of changes, shaped as a `records/changes` answer is — its zone
/// ID, its records, its new sync token and whether more are coming — or the server's reason for
/// failing that zone alone:
///
/// ```json
/// {"zones": [
///   {"zoneID": {"zoneName": "Notes"}, "syncToken": "AQAAAAAAAwmW", "moreComing": false,
///    "records": [{"recordName": "N1", "recordType": "Note", "recordChangeTag": "e", "fields": {}}]},
///   {"zoneID": {"zoneName": "Gone"}, "serverErrorCode": "ZONE_NOT_FOUND", "reason": "zone not found"}
/// ]}
/// ```
///
/// Each page is read record by record, as every page is.
public struct ZoneChangesResponse: Hashable, Sendable, Codable, WireCodable {
    /// The result of each zone, in the server's order.
    public var zones: [ZoneChangesResult]

    /// Creates a response.
    ///
    /// - Parameter zones: The result of each zone.
    public init(zones: [ZoneChangesResult]) {
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
        zones = try reader.optionalMember("zones")?.mapElements(ZoneChangesResult.init(wire:)) ?? []
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        .object([
            "zones": try zones.wireJSON(member: "zones", at: path) { try $0.wireJSON(at: $1) }
        ])
    }
}

/// The result of one zone in a ``ZoneChangesResponse``: a page of its changes, or the server's
/// reason for failing that zone.
public enum ZoneChangesResult: Hashable, Sendable {
    /// The zone's changes, its new token, and whether more are coming.
    case success(RecordsChangesResponse)
    /// Why the server failed the zone, such as `ZONE_NOT_FOUND`; the error's
    /// ``RecordServerError/zoneID`` names the zone.
    case failure(RecordServerError)

    /// The page of changes, or `nil` for a failure.
    public var changes: RecordsChangesResponse? {
        if case .success(let changes) = self { return changes }
        return nil
    }

    /// The server's error, or `nil` for a page.
    public var error: RecordServerError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The zone the result is about, when it says.
    public var zoneID: RecordZoneID? {
        switch self {
        case .success(let changes): changes.zoneID
        case .failure(let error): error.zoneID
        }
    }

    /// Returns the page of changes, or throws the server's error.
    public func get() throws(RecordServerError) -> RecordsChangesResponse {
        switch self {
        case .success(let changes): return changes
        case .failure(let error): throw error
        }
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        switch self {
        case .success(let changes): try changes.wireJSON(at: path)
        case .failure(let error): try error.wireJSON(at: path)
        }
    }

    /// A zone's result; one with a `serverErrorCode` is a failure.
    init(wire reader: WireReader) throws {
        if try reader.contains("serverErrorCode") {
            self = .failure(try RecordServerError(wire: reader))
        } else {
            self = .success(try RecordsChangesResponse(wire: reader))
        }
    }
}

extension ZoneChangesResponse: StraightReadable {
    /// The body that `data` holds when each zone's page reads straight from its bytes, as a
    /// records-changes body does; `nil` for the general way to read the document.
    static func straight(from data: Data) -> Self? {
        RecordPageBytesReader.zonePages(from: data, keys: RecordsChangesResponse.pageKeys).map { pages in
            Self(zones: pages.map { .success(RecordsChangesResponse(page: $0)) })
        }
    }
}
