import Foundation
import RecordCodable

extension CloudKitDatabase {
    /// Lists the database's zones (`zones/list`, a `GET`).
    ///
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes after
    ///   the retries.
    public func listZones() async throws -> ZonesListResponse {
        let exchange = Exchange(operation: "zones/list", method: "GET", body: Data(), resendsWhenUnanswered: true)
        return try await exchange.answer(ZonesListResponse.self, from: self)
    }

    /// Looks zones up by their identifiers (`zones/lookup`).
    ///
    /// - Parameter zoneIDs: The zones to look up.
    /// - Returns: One entry for each zone, in order: the zone, or why the server does not return
    ///   it (`ZONE_NOT_FOUND`).
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes after
    ///   the retries.
    public func lookupZones(_ zoneIDs: [RecordZoneID]) async throws -> [ZoneResult] {
        try await read(ZonesLookupBody(zones: zoneIDs), operation: "zones/lookup", as: ZonesModifyResponse.self).zones
    }

    /// Creates or deletes zones (`zones/modify`).
    ///
    /// Creating a zone that exists succeeds. A request that only creates zones is sent again
    /// after an attempt got no answer, since a second create changes nothing; one that deletes
    /// is not.
    ///
    /// - Parameter request: The zones to create and delete.
    /// - Returns: One entry for each operation, in order.
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes (after
    ///   the retries, for creates only).
    public func modifyZones(_ request: ZonesModifyRequest) async throws -> ZonesModifyResponse {
        let exchange = try Exchange(
            operation: "zones/modify", encoding: request,
            resendsWhenUnanswered: request.operations.allSatisfy { $0.operationType == .create })
        return try await exchange.answer(ZonesModifyResponse.self, from: self)
    }
}

/// The body of a `zones/lookup` request: `{"zones": [{"zoneName": …}, …]}`.
private struct ZonesLookupBody: Encodable {
    let zones: [RecordZoneID]
}
