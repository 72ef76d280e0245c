import Foundation

extension RecordsModifyRequest {
    /// Creates a request that saves some records and deletes others, in one call.
    ///
    /// Saves come first, each as ``RecordOperation/init(saving:)`` makes it; then a delete for
    /// each record to delete, made by ``RecordOperation/init(deleting:recordType:changeTag:)``
    /// from its name, type and change tag. A deleted record's zone counts towards the request's
    /// zone as a saved record's does.
    ///
    /// - Parameters:
    ///   - saved: The records to save.
    ///   - deleted: The records to delete.
    ///   - zoneID: The zone of the records, or `nil` for the zone the records came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    public init(
        savingRecords saved: some Sequence<Record>,
        deletingRecords deleted: some Sequence<Record>,
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) {
        let operations = saved.map(RecordOperation.init(saving:)) + deleted.map(RecordOperation.deleting)
        self.init(operations: operations, zoneID: zoneID, atomic: atomic)
    }
}

extension RecordOperation {
    /// A delete of `record`, from the three things a delete needs, and the record's zone, which
    /// the request is sent to when it names none.
    static func deleting(_ record: Record) -> RecordOperation {
        var operation = RecordOperation(
            deleting: record.recordName, recordType: record.recordType, changeTag: record.metadata?.changeTag)
        if let zoneID = record.metadata?.zoneID {
            var metadata = operation.record.metadata ?? RecordMetadata()
            metadata.zoneID = zoneID
            operation.record.metadata = metadata
        }
        return operation
    }
}
