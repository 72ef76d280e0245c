/// The records that an index checkpoint holds, as the ``StoreIndex`` over it reads them: from
/// the checkpoint's file while its blocks check, or, once a block does not, from the journal's
/// frames up to the checkpoint's end, replayed once: they hold the same records.
///
/// Damage that opening did not look for (opening checks the checkpoint's header alone; see
/// ``IndexCheckpoint``) is thus dealt with where a look-up finds it: the records are read from
/// the journal instead, the index's changes since the checkpoint stay as they are, and the
/// operation that looked goes on with the right answer. Nothing is undone or run again. A
/// replay that fails (the journal cannot be read; the cipher fails) throws from the look-up,
/// which answers nothing; the next look-up that reads the damaged block tries again.
///
/// Where the records are read from is state that reads change: like the engine that owns the
/// index, it is touched by one thread at a time, with the store's lock held.
final class CheckpointRecords {
    /// The checkpoint, until a look-up finds it damaged.
    private var checkpoint: IndexCheckpoint?
    /// The same records replayed from the journal, once the checkpoint is found damaged.
    private var replayed: StoreIndex?
    /// Builds ``replayed``: an index of the journal's frames up to ``coveredEnd``.
    private let replay: () throws -> StoreIndex
    /// The end of the journal that the records are as of.
    let coveredEnd: Int
    /// The damage a look-up found in the checkpoint after opening, if any.
    private(set) var damage: String?

    /// The records of `checkpoint`; `replay` replays the journal up to its end.
    init(_ checkpoint: IndexCheckpoint, replay: @escaping () throws -> StoreIndex) {
        self.checkpoint = checkpoint
        self.replay = replay
        coveredEnd = checkpoint.coveredEnd
    }

    /// The records named `name` in `zone`, by type.
    func records(named name: String, inZone zone: String) throws -> [(recordType: String, slot: StoreIndex.Slot)] {
        if let checkpoint {
            do {
                return try checkpoint.records(named: name, inZone: zone)
            } catch let damaged as IndexCheckpoint.Damaged {
                try replayJournal(after: damaged)
            }
        }
        return try replayed?.records(named: name, inZone: zone).map { ($0.key.recordType, $0.slot) } ?? []
    }

    /// Calls `body` with every record, each once.
    func forEachRecord(_ body: (RecordKey, StoreIndex.Slot) throws -> Void) throws {
        if let checkpoint {
            do {
                // The checkpoint checks every block before its first call: damage is found
                // before any record is handed over, never halfway.
                return try checkpoint.forEachRecord(body)
            } catch let damaged as IndexCheckpoint.Damaged {
                try replayJournal(after: damaged)
            }
        }
        for (key, slot) in try replayed?.records(where: { _, _ in true }) ?? [] {
            try body(key, slot)
        }
    }

    /// Reads the records from the journal from now on; on failure, the checkpoint stays, and
    /// its damaged block fails the next look-up that reads it again.
    private func replayJournal(after damaged: IndexCheckpoint.Damaged) throws {
        damage = damaged.description
        replayed = try replay()
        checkpoint = nil
    }
}
