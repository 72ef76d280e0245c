import Foundation

extension RecordsModifyRequest {
    /// Creates a request that saves some models and deletes others, in one call.
    ///
    /// The saved models are saved as ``init(saving:encoder:operationType:zoneID:atomic:)`` saves
    /// them: an update for a model whose record carries a change tag, a create otherwise. A
    /// deleted model needs only its record's type, name and change tag: with a change tag (a
    /// model fetched with its ``RecordMetadata``), the delete is refused if the record changed
    /// on the server since; without one, it deletes whatever version the server has. The saves
    /// come first, then the deletes.
    ///
    /// ```swift
    /// let request = try RecordsModifyRequest(saving: [edited], deleting: [discarded])
    /// // {"operations":[{"operationType":"update",…},{"operationType":"delete","record":{"recordName":…,
    /// //   "recordChangeTag":…}}]}
    /// ```
    ///
    /// Each deleted model is encoded with `encoder`, to learn its record's name, type, change tag
    /// and zone; its fields are not sent.
    ///
    /// - Parameters:
    ///   - saved: The models to save.
    ///   - deleted: The models to delete.
    ///   - encoder: The encoder that turns each model into a record.
    ///   - zoneID: The zone of the records, or `nil` for the zone the records came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Throws: Any error that `encoder` throws for a model.
    public init<Saved: Encodable, Deleted: Encodable>(
        saving saved: some Sequence<Saved>,
        deleting deleted: some Sequence<Deleted>,
        encoder: RecordEncoder = RecordEncoder(),
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) throws {
        self.init(
            savingRecords: try saved.map { try encoder.encode($0) },
            deletingRecords: try deleted.map { try encoder.encode($0) },
            zoneID: zoneID,
            atomic: atomic)
    }

    /// Creates a request that deletes models: each needs only its record's type, name and change
    /// tag (see ``init(saving:deleting:encoder:zoneID:atomic:)``).
    ///
    /// - Parameters:
    ///   - deleted: The models to delete.
    ///   - encoder: The encoder that turns each model into a record.
    ///   - zoneID: The zone of the records, or `nil` for the zone the records came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Throws: Any error that `encoder` throws for a model.
    public init<Deleted: Encodable>(
        deleting deleted: some Sequence<Deleted>,
        encoder: RecordEncoder = RecordEncoder(),
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) throws {
        self.init(
            savingRecords: [],
            deletingRecords: try deleted.map { try encoder.encode($0) },
            zoneID: zoneID,
            atomic: atomic)
    }

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
