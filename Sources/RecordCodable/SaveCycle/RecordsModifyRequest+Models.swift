import Foundation

// The requests built from models: each model is encoded with a RecordEncoder, then saved or
// deleted as the request's record-level initialisers do (Wire/RecordsModifyRequest.swift).

extension RecordsModifyRequest {
    /// Creates a request that saves models.
    ///
    /// Each model is encoded with `encoder`. A model whose record carries a change tag from the
    /// server (see ``RecordMetadata``) is saved with an ``RecordOperation/OperationType/update``,
    /// which the server refuses if the record has changed since; any other is saved with a
    /// ``RecordOperation/OperationType/create``. Pass `operationType` to choose one for all.
    ///
    /// - Parameters:
    ///   - models: The models to save.
    ///   - encoder: The encoder that turns each model into a record.
    ///   - operationType: The operation for every model, or `nil` to choose per model.
    ///   - zoneID: The zone of the records, or `nil` for the encoder's ``RecordEncoder/zoneID``, else
    ///     the zone the records came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Throws: Any error that `encoder` throws for a model.
    public init<Model: Encodable>(
        saving models: some Sequence<Model>,
        encoder: RecordEncoder = RecordEncoder(),
        operationType: RecordOperation.OperationType? = nil,
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) throws {
        let operations = try models.map { model in
            let record = try encoder.encode(model)
            return RecordOperation(operationType ?? .saving(record), record: record)
        }
        self.init(operations: operations, zoneID: zoneID ?? encoder.zoneID, atomic: atomic)
    }

    /// Creates a request that saves edited models as updates of the records they were decoded
    /// from, and any model without an original as a new record.
    ///
    /// Each model whose record name is among `originals` is encoded with
    /// ``RecordEncoder/encode(_:updating:)``, so that its update changes only what the edit
    /// changed, and is left out when the edit changed nothing. Any other model is encoded whole
    /// and created. Models are matched with their originals by record name, so each needs an
    /// identifier. When no model changed, the request has no operations: don't send it.
    ///
    /// ```swift
    /// let fetched = page.records.compactMap(\.record)
    /// var notes = try fetched.map { try RecordDecoder().decode(Note.self, from: $0) }
    /// notes[0].title = "Renamed"
    /// let request = try RecordsModifyRequest(saving: notes, updating: fetched)   // one update
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models to save.
    ///   - originals: The records the models were decoded from, as the server sent them.
    ///   - encoder: The encoder that turns each model into a record.
    ///   - zoneID: The zone of the records, or `nil` for the encoder's ``RecordEncoder/zoneID``, else
    ///     the zone of the originals the models update (new models are created there too), else the
    ///     zone the records sent came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Throws: Any error that `encoder` throws for a model; `EncodingError.invalidValue` for a
    ///   model that carries a change tag but whose record name is not among `originals`.
    public init<Model: Codable>(
        saving models: some Sequence<Model>,
        updating originals: some Sequence<Record>,
        encoder: RecordEncoder = RecordEncoder(),
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) throws {
        let originals = Dictionary(originals.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
        var operations: [RecordOperation] = []
        // The zones of the originals the models update, unchanged ones included: where a new model
        // goes must not depend on which of the others changed.
        var originalZones: Set<RecordZoneID> = []
        for model in models {
            let record = try encoder.encode(model)
            guard let original = originals[record.recordName] else {
                // A model that came from the server, but names no original: it has no identifier,
                // or another one. Saved as it is, it would update or create the wrong record.
                if record.metadata?.changeTag != nil {
                    throw EncodingError.invalid(
                        model, at: [] as [any CodingKey],
                        "A model of record type '\(record.recordType)' carries a change tag but names record "
                            + "'\(record.recordName)', which is not among the originals: give the model an identifier, "
                            + "or encode it with encode(_:updating:) and its own original.")
                }
                operations.append(RecordOperation(saving: record))
                continue
            }
            if let zone = original.metadata?.zoneID { originalZones.insert(zone) }
            let update = try encoder.encode(model, updating: original)
            if update.fields.isEmpty && update.clearedFields.isEmpty { continue }
            operations.append(RecordOperation(saving: update))
        }
        // Originals of several zones leave the choice to the records sent, which must share one.
        let originalZone = originalZones.count == 1 ? originalZones.first : nil
        self.init(operations: operations, zoneID: zoneID ?? encoder.zoneID ?? originalZone, atomic: atomic)
    }

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
    ///   - zoneID: The zone of the records, or `nil` for the encoder's ``RecordEncoder/zoneID``, else
    ///     the zone the records came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Throws: Any error that `encoder` throws for a model; `EncodingError.invalidValue` for a
    ///   deleted model without an identifier, which names no record.
    public init<Saved: Encodable, Deleted: Encodable>(
        saving saved: some Sequence<Saved>,
        deleting deleted: some Sequence<Deleted>,
        encoder: RecordEncoder = RecordEncoder(),
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) throws {
        self.init(
            savingRecords: try saved.map { try encoder.encode($0) },
            deletingRecords: try deleted.map { try Self.recordToDelete($0, encoder: encoder) },
            zoneID: zoneID ?? encoder.zoneID,
            atomic: atomic)
    }

    /// Creates a request that deletes models: each needs only its record's type, name and change
    /// tag (see ``init(saving:deleting:encoder:zoneID:atomic:)``).
    ///
    /// - Parameters:
    ///   - deleted: The models to delete.
    ///   - encoder: The encoder that turns each model into a record.
    ///   - zoneID: The zone of the records, or `nil` for the encoder's ``RecordEncoder/zoneID``, else
    ///     the zone the records came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Throws: Any error that `encoder` throws for a model; `EncodingError.invalidValue` for a
    ///   deleted model without an identifier, which names no record.
    public init<Deleted: Encodable>(
        deleting deleted: some Sequence<Deleted>,
        encoder: RecordEncoder = RecordEncoder(),
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) throws {
        self.init(
            savingRecords: [],
            deletingRecords: try deleted.map { try Self.recordToDelete($0, encoder: encoder) },
            zoneID: zoneID ?? encoder.zoneID,
            atomic: atomic)
    }

    /// Records are saved with ``init(savingRecords:operationType:zoneID:atomic:)``: `saving:`
    /// encodes models, and a record is not a model.
    @available(*, unavailable, renamed: "init(savingRecords:operationType:zoneID:atomic:)")
    public init(
        saving records: some Sequence<Record>,
        encoder: RecordEncoder = RecordEncoder(),
        operationType: RecordOperation.OperationType? = nil,
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) throws {
        self.init(savingRecords: records, operationType: operationType, zoneID: zoneID, atomic: atomic)
    }

    /// The record of a model to delete, named by the model's identifier: a model without one
    /// names no record, and deleting a name made up for it would delete nothing.
    private static func recordToDelete(_ model: some Encodable, encoder: RecordEncoder) throws -> Record {
        try RecordEncoder.rejectRecord(model)
        let record = try encoder.encodeRecord(model, graph: nil, fallbackName: "")
        guard !record.recordName.isEmpty else {
            throw EncodingError.invalid(
                model, at: [] as [any CodingKey],
                "A model of record type '\(record.recordType)' to delete has no identifier, so it names no record: "
                    + "give it its identifier, or delete its record by name with RecordOperation(deleting:).")
        }
        return record
    }
}
