import Foundation
import RecordCodable

/// The store's engine: the journal, the index built from it, and the cipher between them.
///
/// It commits a batch of entries as one frame and updates the index once the frame is durable,
/// reads an entry through the index, and compacts the journal when most of it is dead. It knows
/// entries, not sync rules or models: the ``RecordStore`` above it decides what to write.
///
/// Not thread-safe: the store calls it with its lock held.
final class StoreEngine {
    let journal: Journal
    private(set) var index = StoreIndex()
    let directory: any StoreDirectory
    private let cipher: (any RecordStoreCipher)?
    /// The store's directory, for messages.
    let path: String
    /// The journal's path, for messages: made once, as every read would otherwise build it.
    private let journalPath: String
    /// The journal's size under which it is never compacted.
    private let compactionThreshold: Int
    /// What opening found: a cut tail, skipped frames.
    let openReport: Journal.OpenReport
    /// The records in requests whose responses are not applied yet, as the last request that
    /// carried each one sent it.
    var sent: [RecordKey: SentVersion] = [:]
    /// The records a `CONFLICT` or `EXISTS` answer put in conflict, with the whole version the
    /// refused request sent, kept in memory until the server's version is fetched: when it is
    /// that version, the store's own request reached the server before (its answer was lost),
    /// and nothing is in conflict.
    var refused: [RecordKey: EncodedRecord] = [:]
    /// The frame that commits are written into, kept from one commit to the next.
    private var frame = FrameBuilder()
    /// Why the last compaction failed; `nil` once one succeeds.
    private(set) var compactionFailure: (any Error)?
    /// The journal's size from which a commit tries again to compact, after a compaction that
    /// failed: a quarter more than when it failed. A full disk would otherwise have every commit
    /// copy the live entries only to fail again.
    private var nextCompactionAttempt = 0
    /// What the commits not known durable yet changed in the index, oldest first: what a failed
    /// flush undoes (see `StoreEngine+GroupCommit`).
    var unflushed: [Undo] = []
    /// When checkpoints are written, and where the last one ends (see `StoreEngine+Checkpoint`).
    var checkpoints: CheckpointSchedule
    /// How opening built the index: from a checkpoint and the frames after it, or from every frame.
    let opening: Opening

    init(
        directory: any StoreDirectory, cipher: (any RecordStoreCipher)?, recover: Bool, compactionThreshold: Int,
        checkpoints: CheckpointSchedule = CheckpointSchedule()
    ) throws {
        self.cipher = cipher
        self.compactionThreshold = compactionThreshold
        self.directory = directory
        path = directory.path
        let journalPath = directory.path + "/" + Journal.fileName
        self.journalPath = journalPath
        let journal = try Journal(directory: directory, newHeader: try StoreHeader.bytes(cipher: cipher))
        var index = StoreIndex()
        do {
            // The header holds the cipher's check value: it is checked before any entry is
            // opened, so that a wrong cipher is reported as that, and not as damage.
            try StoreHeader.verify(journal.header, cipher: cipher, path: journalPath)
            let checkpoint = Self.openCheckpoint(in: directory, for: journal)
            if case .success(let found) = checkpoint {
                let end = found.coveredEnd
                let records = CheckpointRecords(found) {
                    try Self.replayIndex(of: journal, upTo: end, cipher: cipher, path: journalPath)
                }
                index = StoreIndex(checkpoint: found, records: records)
            }
            // With a checkpoint, the index is not filled entry by entry: nothing to reserve.
            var reserved = index.checkpoint != nil
            var seen = (entries: 0, bytes: 0)
            openReport = try journal.readFrames(recover: recover) { entries in
                if !reserved, let first = entries.first, let last = entries.last {
                    seen.entries += entries.count
                    seen.bytes += last.location.offset + Int(last.location.count) - first.location.offset
                    // Once a fair sample is read, the index makes room for as many records as
                    // entries of that size fit in the file, instead of growing again and again.
                    if seen.entries >= 256 || seen.bytes >= 1 << 20 {
                        reserved = true
                        let expected = journal.openedSize / max(seen.bytes / seen.entries, 1)
                        index.reserveCapacity(min(expected, 1 << 22))
                    }
                }
                try Self.apply(entries, to: &index, path: journalPath, cipher: cipher)
            }
            opening = Opening(
                checkpoint: checkpoint, replayedBytes: journal.end - journal.firstFrameRead)
        } catch {
            journal.close()
            throw error
        }
        self.journal = journal
        self.index = index
        // Without a checkpoint, closing writes one; the interval counts from here.
        self.checkpoints = checkpoints
        self.checkpoints.salt = journal.salt
        self.checkpoints.end = index.checkpoint?.coveredEnd ?? journal.end
        self.checkpoints.isWritten = index.checkpoint != nil
        if !openReport.skipped.isEmpty {
            // Frames were skipped: rewrite the journal without them, so that the next opening
            // finds it whole.
            do {
                try compact()
            } catch {
                journal.close()
                throw error
            }
        }
    }

    /// Applies the entries of one frame to `index`: whole or not at all, since every entry is
    /// read before any is applied.
    private static func apply(
        _ entries: [Journal.OpenedEntry], to index: inout StoreIndex, path: String, cipher: (any RecordStoreCipher)?
    ) throws {
        let summaries = try entries.map { entry in
            try withPlainBytes(entry.bytes, at: entry.location.offset, in: path, cipher: cipher) {
                try JournalEntry.summary(of: $0)
            }
        }
        for (summary, entry) in zip(summaries, entries) {
            try index.apply(summary, at: entry.location)
        }
    }

    /// The index of the journal's frames up to `end`, where a checkpoint ends: the records that
    /// checkpoint holds, read again when it is found damaged after opening. Every error is the
    /// store's: a frame that read when the store opened and does not now is damage.
    private static func replayIndex(
        of journal: Journal, upTo end: Int, cipher: (any RecordStoreCipher)?, path: String
    ) throws -> StoreIndex {
        var index = StoreIndex()
        do {
            try journal.readFrames(upTo: end) { try apply($0, to: &index, path: path, cipher: cipher) }
        } catch let error as RecordStoreError {
            throw error
        } catch {
            throw RecordStoreError.corruptJournal(path: path, offset: 0, reason: "replaying it failed: \(error)")
        }
        return index
    }

    /// Calls `body` with the bytes of the entry at `offset` of the journal at `path` as written
    /// before sealing.
    ///
    /// A cipher that fails to open them throws ``RecordStoreError/cipherFailed(path:offset:reason:)``,
    /// which opening does not take for damage: a cipher that fails for a while (its key not
    /// available yet) would otherwise have the frame skipped, and its commits lost.
    private static func withPlainBytes<Result>(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, in path: String, cipher: (any RecordStoreCipher)?,
        _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        guard let cipher else { return try body(bytes) }
        let opened: Data
        do {
            opened = try cipher.open(Data(bytes))
        } catch {
            throw RecordStoreError.cipherFailed(path: path, offset: offset, reason: "\(error)")
        }
        return try opened.withUnsafeBytes(body)
    }

    // MARK: Reading

    /// The entry of the record of `key`.
    func entry(for key: RecordKey) throws -> RecordEntry? {
        guard let slot = try index[key] else { return nil }
        return try entry(at: slot.location, status: slot.status)
    }

    /// The local version of the record of `key`, unless it is deleted locally.
    func visibleRecord(for key: RecordKey) throws -> EncodedRecord? {
        guard let slot = try index[key], slot.state.isVisible else { return nil }
        return try read(slot.location) { try JournalEntry.localRecord(in: $0) }
    }

    /// The record entry at `location`, with the status the index holds for it (which knows
    /// what the journal does not: that a record was sent).
    func entry(at location: EntryLocation, status: SyncStatus) throws -> RecordEntry {
        try read(location) { bytes in
            guard case .record(var record) = try JournalEntry(from: bytes) else {
                throw ByteReader.Malformed(description: "the index points at an entry that is not a record's")
            }
            record.status = status
            return record
        }
    }

    /// The local versions of the records of `keys`, in their order, `nil` where a record is absent
    /// or deleted locally: as ``visibleRecord(for:)`` reads each, but with one read of the journal
    /// for each run of entries that lie close together, as the records of one batch do.
    func visibleRecords(for keys: [RecordKey]) throws -> [EncodedRecord?] {
        try visibleRecords(for: keys) { try JournalEntry.localRecord(in: $0) }
    }

    /// The local versions of the records of `keys`, as ``visibleRecords(for:)`` reads them, each
    /// with its JSON as the text the decoder reads: for a reader that decodes them at once.
    func visibleRecordTexts(for keys: [RecordKey]) throws -> [EncodedRecord.Text?] {
        try visibleRecords(for: keys) { try JournalEntry.localRecordText(in: $0) }
    }

    /// What `read` takes from the entries of the visible records of `keys`, in their order; see
    /// ``visibleRecords(for:)``.
    private func visibleRecords<Read>(
        for keys: [RecordKey], _ read: (UnsafeRawBufferPointer) throws -> Read
    ) throws -> [Read?] {
        var records = [Read?](repeating: nil, count: keys.count)
        let found = try keys.indices.compactMap { place in
            try index[keys[place]].flatMap { $0.state.isVisible ? (place, $0.location) : nil }
        }.sorted { $0.1.offset < $1.1.offset }
        var start = 0
        while start < found.count {
            // A run: entries each within 4 KB of the last, up to 1 MB in all.
            let first = found[start].1.offset
            var end = start + 1
            var runEnd = first + Int(found[start].1.count)
            while end < found.count, found[end].1.offset <= runEnd + 4096,
                found[end].1.offset + Int(found[end].1.count) - first <= 1 << 20
            {
                runEnd = max(runEnd, found[end].1.offset + Int(found[end].1.count))
                end += 1
            }
            let bytes = try journal.read(EntryLocation(offset: first, count: UInt32(runEnd - first)))
            for (place, location) in found[start..<end] {
                let from = location.offset - first
                records[place] = try open(bytes[from..<(from + Int(location.count))], at: location, read)
            }
            start = end
        }
        return records
    }

    /// What `body` reads from the entry at `location`, opened by the cipher; an entry that does
    /// not read is damage at its offset, and a cipher that fails is the cipher's failure.
    private func read<Result>(_ location: EntryLocation, _ body: (UnsafeRawBufferPointer) throws -> Result) throws
        -> Result
    {
        try open(try journal.read(location)[...], at: location, body)
    }

    /// What `body` reads from `bytes`, the stored entry at `location`; see ``read(_:_:)``.
    private func open<Result>(
        _ bytes: ArraySlice<UInt8>, at location: EntryLocation, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        do {
            return try bytes.withUnsafeBytes { stored in
                try Self.withPlainBytes(stored, at: location.offset, in: journalPath, cipher: cipher, body)
            }
        } catch RecordStoreError.cipherFailed(let path, let offset, let reason) {
            throw RecordStoreError.cipherFailed(path: path, offset: offset, reason: reason)
        } catch {
            throw RecordStoreError.corruptJournal(
                path: journalPath, offset: location.offset, reason: "an entry cannot be read: \(error)")
        }
    }

    // MARK: Writing

    /// What a commit writes: records' new entries or removals, and zones' sync tokens.
    struct Commit {
        var records: [(key: RecordKey, entry: RecordEntry?)] = []
        var syncTokens: [(zone: String, token: String?, owner: String?)] = []
    }

    /// Writes `commit` in one frame, durably, and updates the index. Nothing is written when
    /// there is nothing to write; when the write or its flush fails, nothing changes.
    func commit(_ commit: Commit) throws {
        guard let ticket = try commitDeferringFlush(commit) else { return }
        do {
            try finishCommit(ticket)
        } catch {
            recoverFromFailedFlush()
            throw error
        }
    }

    /// Writes `commit` in one frame and updates the index, and returns the ticket that
    /// ``finishCommit(_:)`` waits on for the frame to be durable, or `nil` when there was nothing
    /// to write. The commit is not durable yet: see `StoreEngine+GroupCommit`.
    func commitDeferringFlush(_ commit: Commit) throws -> Int? {
        if let failure = journal.flusher.failureToRecover {
            // The commit was staged over commits whose flush failed since: it fails with them.
            recoverFromFailedFlush()
            throw failure
        }
        frame.reset()
        // A huge batch's memory is not kept for the small commits after it.
        defer { if frame.capacity > 8 << 20 { frame = FrameBuilder() } }
        // Every record is looked up before the frame is written: a look-up is what can fail
        // (see `StoreIndex`), and after the write the index changes without one.
        let places = try commit.records.map { try index.place(for: $0.key) }
        // Where each record's entry is in the frame; nil for a removal of a record never written.
        var placed: [EntryLocation?] = []
        placed.reserveCapacity(commit.records.count)
        for ((key, entry), place) in zip(commit.records, places) {
            if let entry {
                placed.append(try add { JournalEntry.write(entry, to: &$0) })
            } else if index.slot(at: place) != nil {
                placed.append(try add { JournalEntry.writeRemoval(of: key, to: &$0) })
            } else {
                placed.append(nil)
            }
        }
        let tokensPlaced = try commit.syncTokens.map { zone, token, owner in
            try add { JournalEntry.writeSyncToken(token, owner: owner, forZone: zone, to: &$0) }
        }
        guard frame.entryCount > 0 else { return nil }
        let (start, ticket) = try journal.write(&frame)
        var undo = Undo(ticket: ticket)
        for (number, (_, entry)) in commit.records.enumerated() {
            guard let relative = placed[number] else { continue }
            let place = places[number]
            undo.records.append((place, index.slot(at: place)))
            if let entry {
                let location = EntryLocation(offset: start + relative.offset, count: relative.count)
                index.set(StoreIndex.Slot(location: location, state: entry.state), at: place)
            } else {
                index.set(nil, at: place)
            }
        }
        for ((zone, token, owner), relative) in zip(commit.syncTokens, tokensPlaced) {
            undo.tokens.append((zone, index.syncTokenEntry(forZone: zone)))
            index.setSyncToken(
                token, owner: owner, forZone: zone,
                at: EntryLocation(offset: start + relative.offset, count: relative.count))
        }
        noteUnflushed(undo)
        if needsCompaction, journal.end >= nextCompactionAttempt {
            // The commit is durable, and returns: a compaction that fails (a full disk) leaves
            // the journal as it was, and its error in `compactionFailure` for the app to see.
            do {
                try compact()
            } catch {
                nextCompactionAttempt = journal.end + journal.end / 4
            }
        }
        checkpointIfDue()
        return ticket
    }

    /// Puts back in the index what a commit changed, its last change first.
    func revert(_ undo: Undo) {
        for (zone, entry) in undo.tokens.reversed() {
            index.setSyncToken(
                entry?.token, owner: entry?.owner, forZone: zone,
                at: entry?.location ?? EntryLocation(offset: 0, count: 0))
        }
        for (place, slot) in undo.records.reversed() {
            index.set(slot, at: place)
        }
    }

    /// Adds an entry that `write` writes to the frame, sealed when the store has a cipher.
    private func add(_ write: (inout ByteWriter) -> Void) throws -> EntryLocation {
        guard let cipher else { return frame.add(write) }
        var plain = ByteWriter(capacity: 512)
        write(&plain)
        return frame.add(try cipher.seal(Data(plain.bytes)))
    }

    /// Changes the status the index holds for `key`, without writing: a record marked sent.
    func setStatus(_ status: SyncStatus, for key: RecordKey) throws {
        let place = try index.place(for: key)
        guard var slot = index.slot(at: place) else { return }
        slot.status = status
        index.set(slot, at: place)
    }

    /// Whether most of the journal is dead: entries replaced or removed since.
    private var needsCompaction: Bool {
        journal.end >= compactionThreshold && index.liveBytes * 2 < journal.end
    }

    /// Rewrites the journal with only its live entries. A failure leaves the journal as it was,
    /// and is kept in ``compactionFailure`` until a compaction succeeds.
    func compact() throws {
        let live = try index.liveEntries()
        let moved: [EntryLocation]
        do {
            moved = try journal.rewrite(keeping: live.map(\.location))
        } catch {
            compactionFailure = error
            throw error
        }
        // Every live entry moved: the index holds them all, and no checkpoint under them.
        index = StoreIndex(moving: live, to: moved)
        // Everything copied is durable: no commit is left to undo.
        unflushed.removeAll()
        compactionFailure = nil
        nextCompactionAttempt = 0
        checkpointAfterCompaction()
    }

    /// The journal's size in bytes.
    var journalSize: Int { journal.end }

    func close() {
        if (try? journal.flushAll()) == nil { recoverFromFailedFlush() }
        checkpointOnClose()
        journal.close()
    }
}
