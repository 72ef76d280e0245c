import Foundation
import RecordCodable

extension RecordStore.Batch {
    /// Parks a model; see ``RecordStore/park(_:inZone:)``.
    public mutating func park<Model: Codable>(_ model: Model, inZone zone: String? = nil) throws {
        let zone = zone ?? RecordStore.defaultZone
        let records = try records(parking: model, inZone: zone)
        try atomically { batch in
            for record in records { try batch.save(record, inZone: zone) }
        }
    }

    /// Parks models; see ``RecordStore/parkAll(_:inZone:)``.
    public mutating func parkAll<Model: Codable>(_ models: some Sequence<Model>, inZone zone: String? = nil) throws {
        try atomically { batch in
            for model in models { try batch.park(model, inZone: zone) }
        }
    }

    /// The model of `type` whose identifier is `identifier`, as the batch sees it.
    public func retrieve<Model: Decodable>(
        _ type: Model.Type, identifier: some CustomStringConvertible, inZone zone: String? = nil
    ) throws -> Model? {
        let key = RecordStore.key(of: type, identifier: identifier, inZone: zone)
        guard let record = try record(for: key) else { return nil }
        var reader = modelReader()
        let linked = ModelReader.LinkedRecords.own(try reader.linkedRecords(of: record, zone: key.zone))
        return try ModelReader.models(
            type, from: [(record, key.zone)], linkedRecords: [linked], decoder: options.decoder
        ).first
    }

    /// Every model of `type`, as the batch sees them, in `zone` or in every zone, by zone and record name.
    public func retrieveAll<Model: Decodable>(_ type: Model.Type, inZone zone: String? = nil) throws -> [Model] {
        let roots = try visibleRecords(of: type, inZone: zone)
        var reader = modelReader()
        let linked = try reader.linkedRecords(ofAll: roots)
        return try ModelReader.models(type, from: roots, linkedRecords: linked, decoder: options.decoder)
    }

    /// Every model of `type`, as the batch sees them, each read alone; see
    /// ``RecordStore/retrieveEach(_:inZone:)``.
    public func retrieveEach<Model: Decodable>(_ type: Model.Type, inZone zone: String? = nil) throws
        -> [ModelResult<Model>]
    {
        let roots = try visibleRecords(of: type, inZone: zone)
        var reader = modelReader()
        let linked = try reader.linkedRecords(ofAll: roots)
        return try ModelReader.results(type, from: roots, linkedRecords: linked, decoder: options.decoder)
    }

    /// The visible records of the models of `type`, in `zone` or in every zone, each with its
    /// zone, by zone and record name.
    func visibleRecords<Model>(of type: Model.Type, inZone zone: String?) throws -> [(record: Record, zone: String)] {
        try visibleKeys(of: type, inZone: zone).compactMap { key in
            try record(for: key).map { (record: $0, zone: key.zone) }
        }
    }

    /// The keys of the visible records of the models of `type`, in `zone` or in every zone, sorted.
    func visibleKeys<Model>(of type: Model.Type, inZone zone: String?) throws -> [RecordKey] {
        let recordType = RecordEncoder.recordType(of: type)
        return try keys { key, state in
            key.recordType == recordType && (zone == nil || key.zone == zone) && state.isVisible
        }
    }

    /// Deletes a model's record; see ``RecordStore/delete(_:inZone:)``.
    public mutating func delete<Model: Encodable>(_ model: Model, inZone zone: String? = nil) throws {
        let record = try options.modelEncoder.encode(model)
        // A model without an identifier names no record: deleting nothing would look like success.
        guard !record.recordName.isEmpty else { throw RecordStoreError.unnamedRecord(recordType: record.recordType) }
        try deleteRecord(
            for: RecordKey(
                zone: zone ?? RecordStore.defaultZone, recordType: record.recordType, recordName: record.recordName))
    }

    /// Deletes the model of `type` whose identifier is `identifier`; see
    /// ``RecordStore/delete(_:identifier:inZone:)``.
    public mutating func delete<Model>(
        _ type: Model.Type, identifier: some CustomStringConvertible, inZone zone: String? = nil
    ) throws {
        try deleteRecord(for: RecordStore.key(of: type, identifier: identifier, inZone: zone))
    }

    /// Deletes every model of `type`; see ``RecordStore/deleteAll(_:inZone:)``.
    public mutating func deleteAll<Model>(_ type: Model.Type, inZone zone: String? = nil) throws {
        let recordType = RecordEncoder.recordType(of: type)
        let keys = try keys(where: { key, _ in key.recordType == recordType && (zone == nil || key.zone == zone) })
        try atomically { batch in
            for key in keys { try batch.deleteRecord(for: key) }
        }
    }

    // MARK: Parking

    /// The records to save for `model`: its record and those of the models it links to.
    ///
    /// A record the server has is saved as an update of the server's version, made through
    /// `RecordEncoder.encodeGraph(_:updating:linkedOriginals:)`: so the fields the model does
    /// not know — written by a newer version of the app — stay as the server has them, instead
    /// of being cleared by the next request.
    private func records<Model: Codable>(parking model: Model, inZone zone: String) throws -> [Record] {
        let encoder = options.modelEncoder
        let records = try encoder.encodeGraph(model)
        guard let root = records.first, let rootOriginal = try serverVersion(of: root, inZone: zone) else {
            return records
        }
        // By type and name: records of two types may share a name.
        func key(of record: Record) -> RecordKey {
            RecordKey(zone: zone, recordType: record.recordType, recordName: record.recordName)
        }
        var originals: [RecordKey: Record] = [key(of: root): rootOriginal]
        for record in records.dropFirst() {
            guard let original = try serverVersion(of: record, inZone: zone) else { continue }
            originals[key(of: record)] = original
        }
        // The records the originals link to, directly, in lists or through other records, are
        // looked up by name as the original model reads its links, so that a link the edited
        // model no longer writes was removed. (Not gathered first: records chained by plain
        // references, which no model reads as links, would be gathered from each model to the
        // end of the chain.) A link names no type, so each record of its name comes, when the
        // server has them all; when one of them is the store's alone, the link may mean that one,
        // and is left as the server has it, as a link whose record the reader does not find
        // (which the model read as `nil` too) is. Names are looked up in the model's zone, where
        // the store's reader follows a link into the zone its reference names: a model whose
        // links cross zones, or loop back to it, may read otherwise here, and then fails to park
        // rather than risk an update that it did not make.
        var lookupError: (any Error)?
        func serverVersions(named name: String) -> [Record] {
            do {
                let versions = try visibleRecords(named: name, inZone: zone).map {
                    try serverVersion(of: $0, inZone: zone)
                }
                return versions.contains { $0 == nil } ? [] : versions.compactMap { $0 }
            } catch {
                lookupError = lookupError ?? error
                return []
            }
        }
        let linkedOriginals = originals.filter { $0.key != key(of: root) }.sorted { $0.key < $1.key }.map(\.value)
        let updates: [Record]
        do {
            updates = try encoder.encodeGraph(
                model, updating: rootOriginal, linkedOriginals: linkedOriginals, keepingUnreadLinks: true,
                linkedOriginalsNamed: serverVersions(named:))
        } catch {
            // An error looking a record up comes first: the model's may follow from the record missing.
            throw lookupError ?? error
        }
        if let lookupError { throw lookupError }
        return updates.map { update in originals[key(of: update)]?.applying(update) ?? update }
    }

    /// The version of `record` that the server has, if the store knows it. A record the server
    /// deleted has none: a model saved over its deletion marker makes it anew.
    private func serverVersion(of record: Record, inZone zone: String) throws -> Record? {
        let key = RecordKey(zone: zone, recordType: record.recordType, recordName: record.recordName)
        guard let server = try entry(for: key)?.serverVersion?.decoded(as: key) else { return nil }
        return server.metadata?.deleted == true ? nil : server
    }

    // MARK: Reading models

    /// A reader that finds linked records through this batch: the visible ones, and those deleted
    /// locally, as they were before, when `readingDeleted`.
    func modelReader(readingDeleted: Bool = false) -> ModelReader {
        ModelReader(decoder: options.decoder) { name, zone, decoded in
            try visibleRecords(named: name, inZone: zone, orDeleted: readingDeleted, decoded: decoded)
        }
    }

    /// The visible records named `name` in `zone`, of any type, as the batch sees them; with
    /// those deleted locally, as they were before, when `orDeleted`.
    ///
    /// - Parameter decoded: Records already decoded from the local versions of their keys, as
    ///   this batch sees them, taken as they are rather than decoded again: which records are
    ///   read is decided by the entries alone.
    func visibleRecords(
        named name: String, inZone zone: String, orDeleted: Bool = false, decoded: [RecordKey: Record] = [:]
    ) throws -> [Record] {
        var types = Set(try engine.index.records(named: name, inZone: zone).map(\.key.recordType))
        types.formUnion(stagedTypes(named: name, inZone: zone))
        func isRead(_ state: RecordState) -> Bool {
            state.isVisible || (orDeleted && state.status == .deletedLocally)
        }
        return try types.sorted().compactMap { recordType in
            let key = RecordKey(zone: zone, recordType: recordType, recordName: name)
            if let record = decoded[key] {
                // Where it stands is read from the index: its entry is not read again.
                return try state(for: key).map(isRead) == true ? record : nil
            }
            guard let entry = try entry(for: key), isRead(entry.state) else { return nil }
            return try entry.local.decoded(as: key)
        }
    }
}

extension RecordEntry {
    /// The version of the record that the server has, as far as the store knows.
    var serverVersion: EncodedRecord? {
        server ?? (status == .synced ? local : nil)
    }
}

extension Record {
    /// This record, as the server has it, with `update` applied: its changed fields set, its
    /// cleared fields removed.
    func applying(_ update: Record) -> Record {
        var result = self
        for (name, value) in update.fields { result.fields[name] = value }
        for name in update.clearedFields { result.fields[name] = nil }
        result.encryptedFields = update.encryptedFields.union(encryptedFields).filter { result.fields[$0] != nil }
        result.clearedFields = []
        return result
    }
}

extension RecordStore {
    /// The key of the model of `type` whose identifier is `identifier`.
    static func key<Model>(of type: Model.Type, identifier: some CustomStringConvertible, inZone zone: String?)
        -> RecordKey
    {
        RecordKey(
            zone: zone ?? defaultZone, recordType: RecordEncoder.recordType(of: type),
            recordName: identifier.description)
    }
}
