import Foundation
import RecordCodable

/// The secondary indexes of a store: for each record type that a query has used an index of,
/// one ``FieldIndex`` per indexed field, and the records changed since the indexes last caught up.
///
/// An index is built from the records the first time a query needs it, so that opening a store
/// costs nothing here. A commit only notes the keys it changed (``noteChanged(_:)``), which costs
/// the writer a set insertion; the next query of the type reads those records again and moves
/// their entries. The store's index says which records are visible, so compaction, which moves
/// records but changes none, needs nothing.
///
/// Not thread-safe: the store calls it with its lock held.
final class SecondaryIndexes {
    /// The indexes of one record type.
    private struct TypeIndexes {
        var fields: [String: FieldIndex] = [:]
        /// Records changed by commits since the fields caught up.
        var stale: Set<RecordKey> = []
    }

    private var types: [String: TypeIndexes] = [:]

    /// Notes records that a commit wrote or removed, for the indexes of their types to read again.
    func noteChanged(_ keys: some Sequence<RecordKey>) {
        for key in keys where types[key.recordType] != nil {
            types[key.recordType]?.stale.insert(key)
        }
    }

    /// The indexes of `fields` of `recordType`, built or brought up to date from `engine`.
    func indexes(of recordType: String, fields: Set<String>, engine: StoreEngine) throws -> [String: FieldIndex] {
        // Taken out while it changes, so that its arrays are not copied; put back even when a
        // record fails to read, with what caught up so far and its stale records still noted.
        var typeIndexes = types.removeValue(forKey: recordType) ?? TypeIndexes()
        defer { types[recordType] = typeIndexes }
        let missing = fields.subtracting(typeIndexes.fields.keys)
        if !missing.isEmpty {
            try build(missing, of: recordType, into: &typeIndexes, engine: engine)
        }
        if !typeIndexes.stale.isEmpty {
            try catchUp(&typeIndexes, engine: engine)
        }
        for name in typeIndexes.fields.keys { typeIndexes.fields[name]?.sortIfNeeded() }
        return typeIndexes.fields
    }

    /// Builds the indexes of `fields` from every visible record of `recordType`.
    private func build(
        _ fields: Set<String>, of recordType: String, into typeIndexes: inout TypeIndexes, engine: StoreEngine
    ) throws {
        // Stale records are read below anyway: the new fields read them as they are now.
        var built = Dictionary(uniqueKeysWithValues: fields.map { ($0, FieldIndex()) })
        // In the journal's order, so that neighbouring entries come in one read.
        let keys = try engine.index.records { key, slot in key.recordType == recordType && slot.state.isVisible }
            .sorted { $0.slot.location.offset < $1.slot.location.offset }.map(\.key)
        try Self.forEachRecord(of: keys, fields: Array(fields), engine: engine) { key, values in
            guard let values else { return }
            for name in fields { built[name]?.set(values[name], for: key, inPlace: false) }
        }
        typeIndexes.fields.merge(built) { _, new in new }
    }

    /// Calls `body` with each of `keys` and the values of `fields` of its record, `nil` when it
    /// has none visible, reading the records a chunk at a time: neighbours in one read, and only
    /// a chunk's bytes held at once.
    private static func forEachRecord(
        of keys: [RecordKey], fields: [String], engine: StoreEngine,
        _ body: (RecordKey, [String: RecordValue]?) throws -> Void
    ) throws {
        var start = keys.startIndex
        while start < keys.endIndex {
            let chunk = Array(keys[start..<min(start + 1024, keys.endIndex)])
            for (key, record) in zip(chunk, try engine.visibleRecords(for: chunk)) {
                try body(key, try record?.fieldValues(fields, as: key))
            }
            start += chunk.count
        }
    }

    /// Reads the stale records again and moves their entries: in place for a few, sorting again
    /// for many.
    private func catchUp(_ typeIndexes: inout TypeIndexes, engine: StoreEngine) throws {
        let size = typeIndexes.fields.values.first.map { $0.values.count + $0.missing.count } ?? 0
        let inPlace = typeIndexes.stale.count <= max(64, size / 32)
        let names = Array(typeIndexes.fields.keys)
        try Self.forEachRecord(of: Array(typeIndexes.stale), fields: names, engine: engine) { key, values in
            for name in names {
                if let values {
                    typeIndexes.fields[name]?.set(values[name], for: key, inPlace: inPlace)
                } else {
                    typeIndexes.fields[name]?.remove(key, inPlace: inPlace)
                }
            }
        }
        typeIndexes.stale = []
    }
}
