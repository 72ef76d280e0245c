import Foundation
import RecordCodable

extension RecordStore {
    /// Parks a model: stores its record, and the records of the models it links to, through
    /// the store's ``Options/encoder``.
    ///
    /// The records are ``SyncStatus/pending`` until sent. Parking a model again replaces its
    /// record; when the server has the record, the new version is an update of the server's,
    /// so the fields that this version of the app does not know stay as they are.
    ///
    /// ```swift
    /// try store.park(Note(id: "N1", title: "Groceries", folder: inbox))   // the note and its folder
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model. Its identifier (the encoder's `identifierKey`, `id` by default)
    ///     names its record.
    ///   - zone: The zone of its records; the default zone when `nil`.
    /// - Throws: `EncodingError` when the model cannot be encoded;
    ///   ``RecordStoreError/unnamedRecord(recordType:)`` when it has no identifier.
    public func park<Model: Codable>(_ model: Model, inZone zone: String? = nil) throws {
        try withBatch { try $0.park(model, inZone: zone) }
    }

    /// Parks models in one commit: all of them, or none when one fails.
    public func parkAll<Model: Codable>(_ models: some Sequence<Model>, inZone zone: String? = nil) throws {
        try withBatch { try $0.parkAll(models, inZone: zone) }
    }

    /// The model of `type` whose identifier is `identifier`, or `nil` when there is none.
    ///
    /// The model's record is decoded through the store's ``Options/decoder``, with the records
    /// of the models it links to:
    ///
    /// ```swift
    /// if let note = try store.retrieve(Note.self, identifier: "N1") { print(note.folder.name) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model's type, which gives its record type.
    ///   - identifier: The model's identifier: a `String`, a `UUID`, an integer.
    ///   - zone: The zone of its record; the default zone when `nil`.
    /// - Throws: `DecodingError`, with its coding path and a message that names the record, when
    ///   the record does not decode as `type`.
    public func retrieve<Model: Decodable>(
        _ type: Model.Type, identifier: some CustomStringConvertible, inZone zone: String? = nil
    ) throws -> Model? {
        let key = Self.key(of: type, identifier: identifier, inZone: zone)
        return try models(type) { batch in try batch.record(for: key).map { [($0, key.zone)] } ?? [] }.first
    }

    /// Every model of `type`, in `zone` or in every zone, sorted by zone and then by record name:
    /// identifiers in the order of their text, so that `10` comes before `9`.
    ///
    /// - Throws: `DecodingError` when a record does not decode as `type`, with the coding path of
    ///   the value at fault and a message that names the record (`Record _defaultZone/Note/N1:
    ///   …`). To read the models that do decode and learn which records do not, use
    ///   ``retrieveEach(_:inZone:)``.
    public func retrieveAll<Model: Decodable>(_ type: Model.Type, inZone zone: String? = nil) throws -> [Model] {
        if !RecordDecoder.readsLinkedRecords(type) {
            let texts = try visibleRecordTexts(of: type, inZone: zone)
            let models = try ModelReader.models(type, alone: texts.count, decoder: options.decoder) { place in
                (texts[place].key, try texts[place].text.decoded(as: texts[place].key))
            }
            if let models { return models }
        }
        let (roots, linked) = try snapshot { try $0.visibleRecords(of: type, inZone: zone) }
        return try ModelReader.models(type, from: roots, linkedRecords: linked, decoder: options.decoder)
    }

    /// Every model of `type`, in `zone` or in every zone, each read alone: the model, or the
    /// record that does not decode as `type` and why. Sorted as ``retrieveAll(_:inZone:)`` sorts
    /// them.
    ///
    /// One record that does not fit the model — written by another version of the app, or sent by
    /// the server with a field the model cannot read — loses only its own model:
    ///
    /// ```swift
    /// let results = try store.retrieveEach(Note.self)
    /// let notes = results.compactMap(\.model)
    /// for unreadable in results.compactMap(\.unreadable) {
    ///     log("\(unreadable.key) does not decode: \(unreadable.error)")
    /// }
    /// ```
    ///
    /// - Throws: ``RecordStoreError`` when the records cannot be read from the journal.
    public func retrieveEach<Model: Decodable>(_ type: Model.Type, inZone zone: String? = nil) throws
        -> [ModelResult<Model>]
    {
        if !RecordDecoder.readsLinkedRecords(type) {
            let texts = try visibleRecordTexts(of: type, inZone: zone)
            let results = try ModelReader.results(type, alone: texts.count, decoder: options.decoder) { place in
                (texts[place].key, try texts[place].text.decoded(as: texts[place].key))
            }
            if let results { return results }
        }
        let (roots, linked) = try snapshot { try $0.visibleRecords(of: type, inZone: zone) }
        return try ModelReader.results(type, from: roots, linkedRecords: linked, decoder: options.decoder)
    }

    /// Every model of `type` whose record's sync status is `status`, in `zone` or in every zone,
    /// sorted as ``retrieveAll(_:inZone:)`` sorts them: GarageStorage's "retrieve all with status".
    ///
    /// ```swift
    /// let unsent = try store.retrieveAll(Note.self, status: .pending)
    /// ```
    ///
    /// A record deleted locally gives the model it was before the deletion.
    public func retrieveAll<Model: Decodable>(
        _ type: Model.Type, status: SyncStatus, inZone zone: String? = nil
    ) throws -> [Model] {
        let recordType = RecordEncoder.recordType(of: type)
        // A model deleted locally links to models as they were, deleted since or not.
        return try models(type, readingDeleted: status == .deletedLocally) { batch in
            try batch.keys { key, state in
                key.recordType == recordType && (zone == nil || key.zone == zone) && state.status == status
            }.compactMap { key in try batch.entry(for: key).map { (try $0.local.decoded(as: key), key.zone) } }
        }
    }

    /// Deletes a model's record (the records of the models it links to stay): removed at once
    /// if the server never had it, else kept as ``SyncStatus/deletedLocally`` until the delete
    /// is sent.
    ///
    /// - Throws: ``RecordStoreError/unnamedRecord(recordType:)`` when the model has no identifier.
    public func delete<Model: Encodable>(_ model: Model, inZone zone: String? = nil) throws {
        try withBatch { try $0.delete(model, inZone: zone) }
    }

    /// Deletes the record of the model of `type` whose identifier is `identifier`.
    public func delete<Model>(
        _ type: Model.Type, identifier: some CustomStringConvertible, inZone zone: String? = nil
    ) throws {
        try withBatch { try $0.delete(type, identifier: identifier, inZone: zone) }
    }

    /// Deletes the records of every model of `type`, in `zone` or in every zone, in one commit.
    public func deleteAll<Model>(_ type: Model.Type, inZone zone: String? = nil) throws {
        try withBatch { try $0.deleteAll(type, inZone: zone) }
    }

    /// The models of the records `select` picks, each a record and its zone; see
    /// ``snapshot(readingDeleted:of:)``.
    ///
    /// Models that read no linked record are decoded from their records alone, read under one
    /// hold of the lock: the links of their records are not walked. When one of them reads a
    /// linked record after all, the models are read again under another hold, with the records
    /// they link to: a snapshot again, of that moment. (Models chained by plain references
    /// would otherwise each gather the rest of the chain.)
    func models<Model: Decodable>(
        _ type: Model.Type, readingDeleted: Bool = false, of select: (Batch) throws -> [(record: Record, zone: String)]
    ) throws -> [Model] {
        if !RecordDecoder.readsLinkedRecords(type) {
            let roots = try reading(select)
            let models = try ModelReader.models(type, alone: roots.count, decoder: options.decoder) { place in
                (ModelReader.key(of: roots[place]), roots[place].record)
            }
            if let models { return models }
        }
        let (roots, linked) = try snapshot(readingDeleted: readingDeleted, of: select)
        return try ModelReader.models(type, from: roots, linkedRecords: linked, decoder: options.decoder)
    }

    /// The visible records of the models of `type`, in `zone` or in every zone, by zone and record
    /// name, each the text of its JSON under its key, read under one hold of the lock: for models
    /// decoded after it, one at a time, each from its record alone (see
    /// ``ModelReader/models(_:alone:decoder:root:)``), so that the records of a long read are
    /// not all kept at once.
    private func visibleRecordTexts<Model>(
        of type: Model.Type, inZone zone: String?
    ) throws -> [(key: RecordKey, text: EncodedRecord.Text)] {
        try reading { batch in
            // The batch stages nothing: the records are read from the journal, their local
            // versions alone, neighbours in one read.
            let keys = try batch.visibleKeys(of: type, inZone: zone)
            return zip(keys, try batch.engine.visibleRecordTexts(for: keys)).compactMap { key, text in
                text.map { (key, $0) }
            }
        }
    }

    /// The records `select` picks, each a record and its zone, and the records each links to.
    /// They are read under one hold of the lock, so that the models decoded from them are a
    /// snapshot of the store, never half of a commit made meanwhile; the models are decoded
    /// after it.
    ///
    /// - Parameter readingDeleted: Whether linked records deleted locally are read too, as they
    ///   were before their deletion.
    private func snapshot(
        readingDeleted: Bool = false, of select: (Batch) throws -> [(record: Record, zone: String)]
    ) throws -> (roots: [(record: Record, zone: String)], linked: [ModelReader.LinkedRecords]) {
        try reading { batch in
            var reader = batch.modelReader(readingDeleted: readingDeleted)
            let roots = try select(batch)
            return (roots, try reader.linkedRecords(ofAll: roots))
        }
    }
}
