import RecordCodable

/// The calls the store's sync loop makes, as ``CloudKitDatabase`` implements them:
/// ``CloudKitDatabase/modifyRecords(_:)``, ``CloudKitDatabase/lookupRecords(_:)``,
/// ``CloudKitDatabase/fetchZoneChanges(_:)`` and ``CloudKitDatabase/modifyZones(_:)``. Their
/// whole-request failures are thrown as ``CloudKitError``, whose
/// ``CloudKitError/serverError`` is the server's `RecordServerError`.
extension CloudKitDatabase: RecordSyncService {
    /// The most operations one records-modify request carries: 200, the server's limit.
    public var maximumOperationsPerRequest: Int { Self.maximumOperationsPerRequest }
}
