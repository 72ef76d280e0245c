import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// The index checkpoint: opening from it, replaying the journal after it, and rebuilding from
/// the journal whenever it is missing, damaged or stale.
@Suite("Index checkpoints")
struct CheckpointTests {
    /// Options that write a checkpoint however small the journal, when the store closes (and,
    /// with `interval`, after commits).
    static func options(interval: Int = CheckpointSchedule.defaultInterval) -> RecordStore.Options {
        var options = RecordStore.Options()
        options.checkpointThreshold = 0
        options.checkpointInterval = interval
        return options
    }

    /// Options that never write a checkpoint.
    static var withoutCheckpoints: RecordStore.Options {
        var options = RecordStore.Options()
        options.checkpointThreshold = .max
        return options
    }

    /// Everything the index holds, and every record as read through it.
    struct Contents: Equatable, CustomStringConvertible {
        var slots: [RecordKey: StoreIndex.Slot] = [:]
        var tokens: [String: [String?]] = [:]
        var count = 0
        var liveBytes = 0
        var stored: [StoredRecord] = []

        init(_ store: RecordStore, zones: [String] = ["Notes", "Archive", RecordStore.defaultZone]) throws {
            try store.withEngine { engine in
                for (key, slot) in try engine.index.records(where: { _, _ in true }) {
                    #expect(slots.updateValue(slot, forKey: key) == nil, "\(key) listed twice")
                    #expect(try engine.index[key] == slot)
                }
                for zone in zones {
                    tokens[zone] = [engine.index.syncToken(forZone: zone), engine.index.owner(ofZone: zone)]
                }
                count = engine.index.count
                liveBytes = engine.index.liveBytes
            }
            stored = try slots.keys.sorted().compactMap { try store.storedRecord(for: $0) }
        }

        var description: String { "\(count) records, \(liveBytes) live bytes, tokens \(tokens)" }
    }

    /// Commits, through the engine, records in every state the index keeps, names with two types,
    /// and zones' sync tokens; then replaces and removes some.
    static func fill(_ store: RecordStore, records: Int = 40, seed: UInt64 = 1) throws {
        var random = SplitMix64(seed: seed)
        let statuses: [SyncStatus] = [.localOnly, .pending, .synced, .deletedLocally, .conflict]
        try store.withEngine { engine in
            var commit = StoreEngine.Commit()
            for number in 0..<records {
                let zone = ["Notes", "Archive", RecordStore.defaultZone][number % 3]
                let type = number % 5 == 4 ? "Folder" : "Note"
                // Every seventh name has a record of each type.
                let name = number % 7 == 0 ? "shared-\(number / 7)" : "r\(number)"
                let key = RecordKey(zone: zone, recordType: type, recordName: name)
                let status = statuses[Int.random(in: 0..<statuses.count, using: &random)]
                var record = noteRecord(name, title: String(repeating: "t", count: number % 13))
                record.recordType = type
                let encoded = try EncodedRecord(record)
                var entry = RecordEntry(
                    key: key, status: status, isDeletion: status == .deletedLocally, local: encoded,
                    server: status == .conflict || status == .synced ? encoded : nil, lastError: nil)
                entry.wasOffered = Bool.random(using: &random)
                commit.records.append((key, entry))
            }
            commit.syncTokens = [("Notes", "token-1", "_owner"), ("Archive", "token-2", nil)]
            try engine.commit(commit)
        }
        // Replacements and removals after the first commit.
        try store.save(noteRecord("r1", title: "replaced", zone: "Archive"))
        try store.withEngine { engine in
            try engine.commit(
                StoreEngine.Commit(
                    records: [(RecordKey(zone: "Archive", recordType: "Note", recordName: "r2"), nil)],
                    syncTokens: [("Notes", "token-3", "_owner")]))
        }
    }

    @Test("Reopened, a store opens from its checkpoint, reads nothing of the journal, and holds the same")
    func openedFromCheckpoint() throws {
        let directory = MemoryDirectory(faults: nil)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        // Enough records for several blocks of rows, each found through its fence.
        try Self.fill(store, records: 1_000)
        let before = try Contents(store)
        #expect(!store.checkpointReport.usedCheckpoint)
        store.close()
        #expect(try directory.openFile(named: IndexCheckpoint.fileName) != nil)

        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        #expect(store.checkpointReport.usedCheckpoint)
        #expect(store.checkpointReport.replayedBytes == 0)
        #expect(store.checkpointReport.checkpointProblem == nil)
        #expect(try Contents(store) == before)
    }

    @Test("The frames after the checkpoint are replayed over it")
    func tailReplayed() throws {
        let directory = MemoryDirectory(faults: nil)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        try Self.fill(store)
        store.close()
        // Commits after the checkpoint, the store closed without writing another.
        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
        let covered = try store.journalSize
        try Self.fill(store, records: 30, seed: 2)
        try store.deleteRecord(for: RecordKey(zone: "Notes", recordType: "Note", recordName: "shared-0"))
        try store.save(noteRecord("new", zone: "Notes"))
        let before = try Contents(store)
        let end = try store.journalSize
        store.close()

        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        #expect(store.checkpointReport.usedCheckpoint)
        #expect(store.checkpointReport.replayedBytes == end - covered)
        #expect(try Contents(store) == before)
        // Changes over the checkpoint read back too, after another reopen.
        try store.deleteRecord(for: RecordKey(zone: "Archive", recordType: "Note", recordName: "r1"))
        let after = try Contents(store)
        store.close()
        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        #expect(try Contents(store) == after)
    }

    @Test("An index opened from a checkpoint and changed holds what one built from the journal holds")
    func changesOverCheckpoint() throws {
        let directory = MemoryDirectory(faults: nil)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        try Self.fill(store, records: 60)
        store.close()
        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
        #expect(store.checkpointReport.usedCheckpoint)
        // Both types of a shared name changed, one removed; a name removed, then saved again.
        try store.save(noteRecord("shared-1", title: "again", zone: "Notes"))
        try store.withEngine { engine in
            try engine.commit(
                StoreEngine.Commit(records: [
                    (RecordKey(zone: "Notes", recordType: "Folder", recordName: "shared-1"), nil),
                    (RecordKey(zone: RecordStore.defaultZone, recordType: "Note", recordName: "r5"), nil),
                    (RecordKey(zone: "Notes", recordType: "Note", recordName: "no-such-record"), nil),
                ]))
        }
        try store.save(noteRecord("r5", title: "back"))
        let overCheckpoint = try Contents(store)
        store.close()
        // The same journal, read whole.
        try directory.removeFile(named: IndexCheckpoint.fileName)
        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
        #expect(!store.checkpointReport.usedCheckpoint)
        #expect(try Contents(store) == overCheckpoint)
    }

    /// A closed store's files: the journal, and its checkpoint.
    static func closedStore() throws -> (journal: [UInt8], checkpoint: [UInt8], contents: Contents) {
        let directory = MemoryDirectory(faults: nil)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        try fill(store, records: 12)
        let contents = try Contents(store)
        store.close()
        return (
            try bytes(of: Journal.fileName, in: directory), try bytes(of: IndexCheckpoint.fileName, in: directory),
            contents
        )
    }

    static func bytes(of name: String, in directory: MemoryDirectory) throws -> [UInt8] {
        let file = try #require(try directory.openFile(named: name))
        return try file.read(count: try file.size(), at: 0)
    }

    /// Opens a store of `journal` and `checkpoint` and checks that it found the damage, when
    /// opening or when its contents were read, and read the records from the journal.
    static func expectRebuilt(journal: [UInt8], checkpoint: [UInt8], holding contents: Contents, _ comment: String)
        throws
    {
        let directory = try MemoryDirectory(journal: journal)
        try directory.createFile(named: IndexCheckpoint.fileName).write(checkpoint, at: 0)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: withoutCheckpoints)
        let foundOpening = store.checkpointReport.checkpointProblem != nil
        #expect(store.checkpointReport.usedCheckpoint != foundOpening, "\(comment)")
        #expect(try Contents(store) == contents, "\(comment)")
        let foundLater = try store.withEngine { $0.index.checkpoint?.damage } != nil
        #expect(foundOpening != foundLater, "found once, opening or reading: \(comment)")
    }

    @Test("A byte of the checkpoint changed at any offset: it is found, and the index read from the journal")
    func damagedAtEveryOffset() throws {
        let closed = try Self.closedStore()
        // The whole file is the sample: header, tokens, rows and names, every offset of each.
        for offset in closed.checkpoint.indices {
            var damaged = closed.checkpoint
            damaged[offset] ^= UInt8(1 << (offset % 8))
            try Self.expectRebuilt(
                journal: closed.journal, checkpoint: damaged, holding: closed.contents, "bit flipped at \(offset)")
            damaged[offset] = ~closed.checkpoint[offset]
            try Self.expectRebuilt(
                journal: closed.journal, checkpoint: damaged, holding: closed.contents, "byte inverted at \(offset)")
        }
    }

    @Test("A checkpoint changed anywhere and its checksums made to match again is read without a crash")
    func forgedAtEveryOffset() throws {
        // Only a deliberate change passes the checksum: what such a checkpoint holds may be
        // wrong, but reading it must throw or answer, never stop the process.
        let closed = try Self.closedStore()
        for offset in 40..<closed.checkpoint.count {
            for value: UInt8 in [0, 0xFF, closed.checkpoint[offset] ^ 0x10] {
                var forged = closed.checkpoint
                forged[offset] = value
                forged.withUnsafeMutableBytes { IndexCheckpoint.seal($0) }
                let directory = try MemoryDirectory(journal: closed.journal)
                try directory.createFile(named: IndexCheckpoint.fileName).write(forged, at: 0)
                let store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
                for key in try store.keys() { _ = try? store.storedRecord(for: key) }
                _ = try? store.records(in: .pending)
                _ = try store.count
                try? store.save(noteRecord("after"))
                try? store.compact()
                store.close()
            }
        }
    }

    @Test("A checkpoint cut short at any length, or grown, is not used")
    func cutAtEveryLength() throws {
        let closed = try Self.closedStore()
        for length in 0..<closed.checkpoint.count {
            try Self.expectRebuilt(
                journal: closed.journal, checkpoint: Array(closed.checkpoint.prefix(length)), holding: closed.contents,
                "cut at \(length)")
        }
        try Self.expectRebuilt(
            journal: closed.journal, checkpoint: closed.checkpoint + [0], holding: closed.contents, "a byte added")
    }

    @Test("A checkpoint of the journal before compaction is stale: not used, and replaced")
    func staleAfterCompaction() throws {
        let directory = MemoryDirectory(faults: nil)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        try Self.fill(store)
        store.close()
        let old = try Self.bytes(of: IndexCheckpoint.fileName, in: directory)

        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
        try store.compact()
        // Under the threshold, compaction removes the stale checkpoint rather than write one.
        #expect(try directory.openFile(named: IndexCheckpoint.fileName) == nil)
        let compacted = try Contents(store)
        store.close()
        // The stale one put back, as a crash before its removal would leave it.
        try directory.createFile(named: IndexCheckpoint.fileName).write(old, at: 0)
        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        #expect(!store.checkpointReport.usedCheckpoint)
        #expect(store.checkpointReport.checkpointProblem?.contains("older journal") == true)
        #expect(try Contents(store) == compacted)

        // Compacting a store over the threshold writes a new checkpoint at once.
        try store.compact()
        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        #expect(store.checkpointReport.usedCheckpoint)
        #expect(try Contents(store) == compacted)
    }

    @Test("A checkpoint of a longer journal is not used: the journal was cut since")
    func journalShorterThanCheckpoint() throws {
        let closed = try Self.closedStore()
        let directory = try MemoryDirectory(journal: closed.journal)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        try store.save(noteRecord("later"))
        store.close()
        let checkpoint = try Self.bytes(of: IndexCheckpoint.fileName, in: directory)
        // The journal as it was before the last commit, with the checkpoint written after it.
        try Self.expectRebuilt(
            journal: closed.journal, checkpoint: checkpoint, holding: closed.contents, "the journal cut back")
    }

    @Test("A crash while writing a checkpoint leaves the old one, or none: the copy being written is removed")
    func crashWhileWriting() throws {
        let closed = try Self.closedStore()
        let directory = try MemoryDirectory(journal: closed.journal)
        try directory.createFile(named: IndexCheckpoint.fileName).write(closed.checkpoint, at: 0)
        // Half a new checkpoint, under the name it is written under.
        try directory.createFile(named: IndexCheckpoint.writingFileName).write(
            Array(closed.checkpoint.prefix(closed.checkpoint.count / 2)), at: 0)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
        #expect(store.checkpointReport.usedCheckpoint)
        #expect(try Contents(store) == closed.contents)
        #expect(try directory.openFile(named: IndexCheckpoint.writingFileName) == nil)
    }

    @Test("Writes lost in a crash while a checkpoint is written leave the old checkpoint whole")
    func unflushedCheckpointLost() throws {
        let directory = MemoryDirectory(faults: nil)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options())
        try Self.fill(store)
        store.close()
        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
        try store.save(noteRecord("later"))
        let contents = try Contents(store)
        let engine = try store.withEngine { $0 }
        let checkpoint = try #require(
            try IndexCheckpoint.make(of: engine.index, salt: engine.journal.salt, lastFrame: try engine.lastFrame()))
        #expect(checkpoint.recordCount == contents.count)
        // The new checkpoint written and renamed over the old one, but neither it nor the
        // directory flushed, when the power fails: the old one is what is left.
        try directory.createFile(named: IndexCheckpoint.writingFileName).write(checkpoint.fileBytes, at: 0)
        try directory.rename(IndexCheckpoint.writingFileName, to: IndexCheckpoint.fileName)
        directory.loseUnflushedWrites()
        store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
        #expect(store.checkpointReport.usedCheckpoint)
        #expect(store.checkpointReport.replayedBytes > 0)
        #expect(try Contents(store) == contents)
    }

    @Test("A checkpoint that cannot be written does not fail the store: the next opening reads the journal")
    func writeFailure() throws {
        let faults = StoreFaults()
        var options = Self.options()
        options.faults = faults
        let directory = MemoryDirectory(faults: faults)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: options)
        try Self.fill(store)
        let contents = try Contents(store)
        faults.fail(.create, times: 1, with: ENOSPC)
        store.close()
        #expect(try directory.openFile(named: IndexCheckpoint.fileName) == nil)
        store = try RecordStore(storeDirectory: directory, url: nil, options: options)
        #expect(!store.checkpointReport.usedCheckpoint)
        #expect(store.checkpointReport.checkpointProblem == nil)
        #expect(try Contents(store) == contents)
    }

    @Test("A commit that takes the journal past the interval writes a checkpoint")
    func writtenAfterInterval() throws {
        let directory = MemoryDirectory(faults: nil)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options(interval: 4096))
        var number = 0
        while try directory.openFile(named: IndexCheckpoint.fileName) == nil, number < 1_000 {
            try store.save(noteRecord("n\(number)", title: String(repeating: "x", count: 100)))
            number += 1
        }
        #expect(number > 1 && number < 1_000)
        let size = try store.journalSize
        let engine = try store.withEngine { $0 }
        #expect(engine.checkpoints.end == size)
        #expect(size >= 4096)
    }

    @Test("Wherever a checkpoint was written, the journal from there holds the rest")
    func checkpointAtEveryCommit() throws {
        // A checkpoint written after each commit of a sequence, each then opened with the
        // journal at the sequence's end: the replay starts at every frame boundary.
        let directory = MemoryDirectory(faults: nil)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: Self.withoutCheckpoints)
        var checkpoints: [[UInt8]] = []
        for number in 0..<12 {
            try store.save(noteRecord("n\(number % 5)", title: "v\(number)", zone: number % 2 == 0 ? "Notes" : nil))
            if number % 3 == 2 {
                try store.deleteRecord(for: RecordKey(recordType: "Note", recordName: "n\(number % 5)"))
            }
            try store.withEngine { try $0.writeCheckpoint() }
            checkpoints.append(try Self.bytes(of: IndexCheckpoint.fileName, in: directory))
        }
        let contents = try Contents(store)
        let journal = try Self.bytes(of: Journal.fileName, in: directory)
        store.close()
        for (number, checkpoint) in checkpoints.enumerated() {
            let reopened = try MemoryDirectory(journal: journal)
            try reopened.createFile(named: IndexCheckpoint.fileName).write(checkpoint, at: 0)
            let store = try RecordStore(storeDirectory: reopened, url: nil, options: Self.withoutCheckpoints)
            #expect(store.checkpointReport.usedCheckpoint, "checkpoint \(number)")
            #expect(try Contents(store) == contents, "checkpoint \(number)")
        }
    }

    @Test("On disk: a store closed and reopened opens from its checkpoint")
    func onDisk() throws {
        try withStoreDirectory { directory in
            var store = try RecordStore(directory: directory, options: Self.options())
            try Self.fill(store)
            let contents = try Contents(store)
            store.close()
            store = try RecordStore(directory: directory, options: Self.options())
            #expect(store.checkpointReport.usedCheckpoint)
            #expect(try Contents(store) == contents)
            store.close()
        }
    }
}
