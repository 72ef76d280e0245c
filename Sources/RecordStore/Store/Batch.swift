import Foundation
import RecordCodable

extension RecordStore {
    /// Changes made together: what ``RecordStore/write(_:)`` hands its closure, committed as one
    /// durable write when the closure returns.
    ///
    /// A batch has the store's writing calls — ``park(_:inZone:)``, ``save(_:inZone:)``,
    /// ``deleteRecord(for:)`` and the rest — and reads that see what it staged:
    ///
    /// ```swift
    /// try store.write { batch in
    ///     try batch.park(note)
    ///     let staged = try batch.record(for: RecordKey(recordType: "Note", recordName: note.id))
    /// }
    /// ```
    public struct Batch {
        let engine: StoreEngine
        let options: Options
        /// What the batch changes, by record: the new entry, or `nil` for a removal.
        private var staged: [RecordKey: RecordEntry?] = [:]
        /// The records in the order they were first changed, so that a commit is deterministic.
        private var order: [RecordKey] = []
        /// Sync tokens changed, by zone.
        private var tokens: [(zone: String, token: String?)] = []

        init(engine: StoreEngine, options: Options) {
            self.engine = engine
            self.options = options
        }

        /// The entries to commit.
        var journalEntries: [JournalEntry] {
            var entries: [JournalEntry] = []
            entries.reserveCapacity(order.count + tokens.count)
            for key in order {
                switch staged[key] {
                case .some(.some(let entry)): entries.append(.record(entry))
                case .some(.none): entries.append(.removal(key))
                case .none: break
                }
            }
            entries += tokens.map { .syncToken(zone: $0.zone, token: $0.token) }
            return entries
        }

        // MARK: Staging

        /// The entry of `key` as the batch sees it: staged, else committed.
        func entry(for key: RecordKey) throws -> RecordEntry? {
            if let staged = staged[key] { return staged }
            return try engine.entry(for: key)
        }

        /// Stages the record's new entry.
        mutating func stage(_ entry: RecordEntry) {
            if staged.updateValue(entry, forKey: entry.key) == nil { order.append(entry.key) }
        }

        /// Stages the record's removal.
        mutating func stageRemoval(of key: RecordKey) {
            guard engine.index[key] != nil else {
                // Made in this batch and removed in it: nothing to write.
                staged[key] = nil
                order.removeAll { $0 == key }
                return
            }
            if staged.updateValue(RecordEntry?.none, forKey: key) == nil { order.append(key) }
        }

        /// Stages a zone's sync token.
        mutating func stageSyncToken(_ token: String?, forZone zone: String) {
            tokens.removeAll { $0.zone == zone }
            tokens.append((zone, token))
        }

        /// The records the batch sees whose keys `include` picks: committed ones, changed as
        /// staged, and the staged new ones.
        func keys(where include: (RecordKey, RecordState) -> Bool) -> [RecordKey] {
            var keys = Set(
                engine.index.records(where: { key, slot in staged[key] == nil && include(key, slot.state) }).map(\.key)
            )
            for (key, entry) in staged {
                if let entry, include(key, entry.state) { keys.insert(key) }
            }
            return keys.sorted()
        }

        /// The types of the records named `name` in `zone` that the batch staged.
        func stagedTypes(named name: String, inZone zone: String) -> [String] {
            staged.keys.filter { $0.zone == zone && $0.recordName == name }.map(\.recordType)
        }

        // MARK: Records

        /// The record of `key` as the batch sees it, or `nil`.
        public func record(for key: RecordKey) throws -> Record? {
            guard let entry = try entry(for: key), entry.state.isVisible else { return nil }
            return try entry.local.decoded()
        }

        /// Saves a record; see ``RecordStore/save(_:inZone:)``.
        public mutating func save(_ record: Record, inZone zone: String? = nil) throws {
            try save(record, inZone: zone, localOnly: false)
        }

        /// Saves records; see ``RecordStore/save(contentsOf:inZone:)``.
        public mutating func save(contentsOf records: some Sequence<Record>, inZone zone: String? = nil) throws {
            for record in records { try save(record, inZone: zone) }
        }

        /// Saves a record, kept on the device only when `localOnly`.
        mutating func save(_ record: Record, inZone zone: String?, localOnly: Bool) throws {
            guard !record.recordName.isEmpty else {
                throw RecordStoreError.unnamedRecord(recordType: record.recordType)
            }
            let key = RecordKey(
                zone: zone ?? record.metadata?.zoneID?.zoneName ?? RecordStore.defaultZone,
                recordType: record.recordType, recordName: record.recordName)
            stage(try LocalChanges.saving(EncodedRecord(record), key: key, over: entry(for: key), localOnly: localOnly))
        }

        /// Deletes the record of `key`; see ``RecordStore/deleteRecord(for:)``.
        public mutating func deleteRecord(for key: RecordKey) throws {
            guard let existing = try entry(for: key) else { return }
            if let deleted = LocalChanges.deleting(existing) {
                stage(deleted)
            } else {
                stageRemoval(of: key)
            }
        }
    }
}
