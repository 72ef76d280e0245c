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
    ///
    /// A batch belongs to its closure: it reads and writes under the store's lock, which the
    /// closure holds. Keep none of it afterwards.
    ///
    /// A call of the batch that throws stages nothing, as a call of the store that throws changes
    /// nothing: a model whose linked model cannot be stored is not parked without it, and the
    /// closure may catch the error and go on with the rest.
    public struct Batch {
        let engine: StoreEngine
        let options: Options
        /// What the batch changes, in the order first changed, so that a commit is deterministic:
        /// each record's new entry, or its removal; zones' sync tokens.
        private(set) var changes = StoreEngine.Commit()
        /// Where each changed record is in `changes`.
        private var positions: [RecordKey: Int] = [:]
        /// Where the changed records of each zone and name are in `changes`, so that the types
        /// staged under a name are found without a walk over the whole batch.
        private var positionsByName: [NameInZone: [Int]] = [:]
        /// While a call runs ``atomically(_:)``: the entries it replaced in `changes`, as they were,
        /// to be put back if it throws. `nil` outside such a call.
        private var replaced: [(position: Int, entry: RecordEntry?)]?

        init(engine: StoreEngine, options: Options) {
            self.engine = engine
            self.options = options
        }

        // MARK: Staging

        /// The entry of `key` as the batch sees it: staged, else committed.
        func entry(for key: RecordKey) throws -> RecordEntry? {
            if let position = positions[key] { return changes.records[position].entry }
            return try engine.entry(for: key)
        }

        /// Stages the record's new entry.
        mutating func stage(_ entry: RecordEntry) {
            stage(entry, for: entry.key)
        }

        /// Stages the record's removal.
        mutating func stageRemoval(of key: RecordKey) {
            stage(nil, for: key)
        }

        private mutating func stage(_ entry: RecordEntry?, for key: RecordKey) {
            if let position = positions[key] {
                replaced?.append((position, changes.records[position].entry))
                changes.records[position].entry = entry
            } else {
                positions[key] = changes.records.count
                positionsByName[key.nameInZone, default: []].append(changes.records.count)
                changes.records.append((key, entry))
            }
        }

        /// Runs `body`, which stages changes, and takes back all it staged when it throws. A call
        /// inside another is part of the outer one, which takes back both.
        ///
        /// What a call staged is the changes appended after those before it, and the entries it
        /// replaced: so taking it back costs what it staged, not what the batch holds.
        mutating func atomically<Result>(_ body: (inout Self) throws -> Result) rethrows -> Result {
            guard replaced == nil else { return try body(&self) }
            let appended = changes.records.count
            let syncTokens = changes.syncTokens
            replaced = []
            do {
                let result = try body(&self)
                replaced = nil
                return result
            } catch {
                for (position, entry) in (replaced ?? []).reversed() where position < appended {
                    changes.records[position].entry = entry
                }
                for (key, _) in changes.records[appended...] {
                    positions[key] = nil
                    // The positions of a name grow in order: the call's are its last.
                    let name = key.nameInZone
                    positionsByName[name]?.removeAll { $0 >= appended }
                    if positionsByName[name]?.isEmpty == true { positionsByName[name] = nil }
                }
                changes.records.removeSubrange(appended...)
                changes.syncTokens = syncTokens
                replaced = nil
                throw error
            }
        }

        /// Stages a zone's sync token, with the zone's owner when the server named it; else the
        /// owner known for the zone stays.
        mutating func stageSyncToken(_ token: String?, owner: String? = nil, forZone zone: String) {
            let known = changes.syncTokens.last { $0.zone == zone }.map(\.owner) ?? engine.index.owner(ofZone: zone)
            changes.syncTokens.removeAll { $0.zone == zone }
            changes.syncTokens.append((zone, token, owner ?? known))
        }

        /// The records the batch sees whose keys `include` picks: committed ones, changed as
        /// staged, and the staged new ones.
        func keys(where include: (RecordKey, RecordState) -> Bool) throws -> [RecordKey] {
            var keys = Set(
                try engine.index.records(where: { key, slot in positions[key] == nil && include(key, slot.state) }).map(
                    \.key))
            for (key, entry) in changes.records {
                if let entry, include(key, entry.state) { keys.insert(key) }
            }
            return keys.sorted()
        }

        /// The types of the records named `name` in `zone` that the batch staged.
        func stagedTypes(named name: String, inZone zone: String) -> [String] {
            (positionsByName[NameInZone(zone: zone, name: name)] ?? []).compactMap { position in
                let staged = changes.records[position]
                return staged.entry != nil ? staged.key.recordType : nil
            }
        }

        // MARK: Records

        /// The record of `key` as the batch sees it, or `nil`.
        public func record(for key: RecordKey) throws -> Record? {
            guard let entry = try entry(for: key), entry.state.isVisible else { return nil }
            return try entry.local.decoded(as: key)
        }

        /// Saves a record; see ``RecordStore/save(_:inZone:)``.
        public mutating func save(_ record: Record, inZone zone: String? = nil) throws {
            try save(record, inZone: zone, localOnly: false)
        }

        /// Saves records; see ``RecordStore/save(contentsOf:inZone:)``.
        public mutating func save(contentsOf records: some Sequence<Record>, inZone zone: String? = nil) throws {
            try atomically { batch in
                for record in records { try batch.save(record, inZone: zone) }
            }
        }

        /// Saves a record, kept on the device only when `localOnly`.
        mutating func save(_ record: Record, inZone zone: String?, localOnly: Bool) throws {
            guard !record.recordName.isEmpty else {
                throw RecordStoreError.unnamedRecord(recordType: record.recordType)
            }
            let key = RecordKey(
                zone: zone ?? record.metadata?.zoneID?.zoneName ?? RecordStore.defaultZone,
                recordType: record.recordType, recordName: record.recordName)
            try save(EncodedRecord(record), for: key, localOnly: localOnly)
        }

        /// Saves a record, already encoded, as the record of `key`.
        mutating func save(_ record: EncodedRecord, for key: RecordKey, localOnly: Bool) throws {
            let saved = try LocalChanges.saving(record, key: key, over: state(for: key), localOnly: localOnly) {
                try entry(for: key)
            }
            stage(saved)
        }

        /// Where the record of `key` stands, as the batch sees it, read from the index alone.
        func state(for key: RecordKey) throws -> RecordState? {
            if let position = positions[key] { return changes.records[position].entry?.state }
            return try engine.index[key]?.state
        }

        /// Deletes the record of `key`; see ``RecordStore/deleteRecord(for:)``.
        public mutating func deleteRecord(for key: RecordKey) throws {
            guard let existing = try entry(for: key) else { return }
            if let deleted = try LocalChanges.deleting(existing) {
                stage(deleted)
            } else {
                stageRemoval(of: key)
            }
        }
    }
}
