import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// Damage in the blocks of a checkpoint that opening does not check: found by the look-up that
/// first reads the block, which then reads the records from the journal instead, so that every
/// answer is the one a store without a checkpoint gives.
@Suite("Index checkpoints damaged after opening")
struct CheckpointDamageTests {
    /// A closed store's journal and checkpoint: records in every state (see
    /// ``CheckpointTests/fill(_:records:seed:)``) and items to query, over several blocks of rows
    /// and of names.
    static func closedStore() throws -> (journal: [UInt8], checkpoint: [UInt8]) {
        let directory = MemoryDirectory(faults: nil)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: CheckpointTests.options())
        try CheckpointTests.fill(store, records: 300)
        try store.parkAll(items)
        store.close()
        return (
            try CheckpointTests.bytes(of: Journal.fileName, in: directory),
            try CheckpointTests.bytes(of: IndexCheckpoint.fileName, in: directory)
        )
    }

    /// Where the blocks that opening does not check start in `checkpoint`.
    static func blocksStart(of checkpoint: [UInt8]) throws -> Int {
        let directory = MemoryDirectory(faults: nil)
        try directory.createFile(named: IndexCheckpoint.fileName).write(checkpoint, at: 0)
        return try #require(try IndexCheckpoint.read(in: directory)).blocksStart
    }

    /// `checkpoint` with a bit flipped in every 4 KB block after opening's part: whatever a
    /// look-up reads, it finds damage.
    static func damagingEveryBlock(of checkpoint: [UInt8]) throws -> [UInt8] {
        var damaged = checkpoint
        for offset in stride(from: try blocksStart(of: checkpoint) + 7, to: checkpoint.count, by: 4096) {
            damaged[offset] ^= 0x04
        }
        return damaged
    }

    /// What a store answers to reads of every record of `keys` one at a time, listings, a query,
    /// then writes and the same again: the transcript two stores of the same journal must share.
    static func transcript(of store: RecordStore, keys: [RecordKey]) throws -> [String] {
        var lines: [String] = []
        func read() throws {
            for key in keys {
                lines.append("\(key): \(String(describing: try store.storedRecord(for: key)))")
            }
            lines.append("count \(try store.count)")
            lines.append("keys \(try store.keys())")
            lines.append("pending \(try store.records(in: .pending).map(\.key))")
            lines.append("notes \(try store.records(ofType: "Note", inZone: "Notes").map(\.recordName))")
            lines.append("query \(try store.fetch(Query<Item>().filter(.rank, .atLeast(3))).map(\.id))")
        }
        try read()
        try store.save(noteRecord("r4", title: "saved over", zone: "Notes"))
        try store.save(noteRecord("new", title: "added"))
        try store.deleteRecord(for: RecordKey(zone: "Archive", recordType: "Note", recordName: "r10"))
        try store.park(Item(id: "h", name: "fig", rank: 7))
        try read()
        return lines
    }

    /// Every key the store holds, and one it does not.
    static func keys(of journal: [UInt8]) throws -> [RecordKey] {
        let store = try RecordStore(
            storeDirectory: try MemoryDirectory(journal: journal), url: nil, options: CheckpointTests.withoutCheckpoints
        )
        return try store.keys() + [RecordKey(zone: "Notes", recordType: "Note", recordName: "no-such-record")]
    }

    /// The transcript of the store of `journal` without its checkpoint.
    static func expectedTranscript(of journal: [UInt8], keys: [RecordKey]) throws -> [String] {
        let store = try RecordStore(
            storeDirectory: try MemoryDirectory(journal: journal), url: nil, options: CheckpointTests.withoutCheckpoints
        )
        #expect(!store.checkpointReport.usedCheckpoint)
        return try transcript(of: store, keys: keys)
    }

    @Test(
        "A byte changed in the rows or names, at every offset of a sample: opening uses the checkpoint, the first read finds the damage, every answer is the journal's"
    )
    func damagedBlocksBeforeOpening() throws {
        let closed = try Self.closedStore()
        let keys = try Self.keys(of: closed.journal)
        let expected = try Self.expectedTranscript(of: closed.journal, keys: keys)
        let start = try Self.blocksStart(of: closed.checkpoint)
        // Several blocks of each kind, so that a read first checks some whole blocks.
        #expect(closed.checkpoint.count - start > 3 * 4096)
        let sample = Array(stride(from: start, to: closed.checkpoint.count, by: 53)) + [closed.checkpoint.count - 1]
        for offset in sample {
            var damaged = closed.checkpoint
            damaged[offset] ^= UInt8(1 << (offset % 8))
            let directory = try MemoryDirectory(journal: closed.journal)
            try directory.createFile(named: IndexCheckpoint.fileName).write(damaged, at: 0)
            let store = try RecordStore(
                storeDirectory: directory, url: nil, options: CheckpointTests.withoutCheckpoints)
            #expect(store.checkpointReport.usedCheckpoint, "opening does not read the blocks: \(offset)")
            let answers = try Self.transcript(of: store, keys: keys)
            #expect(answers == expected, "damaged at \(offset)")
            let engine = try store.withEngine { $0 }
            #expect(engine.index.checkpoint?.damage != nil, "the damage at \(offset) is found")
        }
    }

    @Test("Written into the mapped file after opening, at every offset of a sample: every answer is the journal's")
    func damagedThroughTheMapping() throws {
        let closed = try Self.closedStore()
        let keys = try Self.keys(of: closed.journal)
        let expected = try Self.expectedTranscript(of: closed.journal, keys: keys)
        let start = try Self.blocksStart(of: closed.checkpoint)
        let sample = Array(stride(from: start, to: closed.checkpoint.count, by: 499)) + [closed.checkpoint.count - 1]
        for offset in sample {
            try withStoreDirectory { url in
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                try Data(closed.journal).write(to: url.appendingPathComponent(Journal.fileName))
                let checkpointURL = url.appendingPathComponent(IndexCheckpoint.fileName)
                try Data(closed.checkpoint).write(to: checkpointURL)
                let store = try RecordStore(directory: url, options: CheckpointTests.withoutCheckpoints)
                #expect(store.checkpointReport.usedCheckpoint)
                // The file changed under the mapping, whose pages show the file's.
                let handle = try FileHandle(forWritingTo: checkpointURL)
                try handle.seek(toOffset: UInt64(offset))
                try handle.write(contentsOf: [~closed.checkpoint[offset]])
                try handle.close()
                let answers = try Self.transcript(of: store, keys: keys)
                #expect(answers == expected, "damaged at \(offset)")
                let engine = try store.withEngine { $0 }
                #expect(engine.index.checkpoint?.damage != nil, "the damage at \(offset) is found")
                store.close()
            }
        }
    }

    @Test("A block found damaged stays unread: a replay that fails throws, and the next read replays again")
    func replayFailureThrows() throws {
        let cipher = FailingCipher()
        /// Options with the cipher, writing checkpoints or not.
        func options(writingCheckpoints: Bool) -> RecordStore.Options {
            var options = writingCheckpoints ? CheckpointTests.options() : CheckpointTests.withoutCheckpoints
            options.cipher = cipher
            return options
        }
        let directory = MemoryDirectory(faults: nil)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: options(writingCheckpoints: true))
        try CheckpointTests.fill(store, records: 200)
        let keys = try store.keys()
        store.close()
        let checkpoint = try Self.damagingEveryBlock(
            of: try CheckpointTests.bytes(of: IndexCheckpoint.fileName, in: directory))
        try directory.createFile(named: IndexCheckpoint.fileName).write(checkpoint, at: 0)
        store = try RecordStore(storeDirectory: directory, url: nil, options: options(writingCheckpoints: false))
        #expect(store.checkpointReport.usedCheckpoint)
        // Listing the keys reads the index alone, and no entry: only the replay opens entries.
        cipher.fail()
        #expect(throws: RecordStoreError.self) { try store.keys() }
        #expect(throws: RecordStoreError.self) { try store.keys() }
        // A save looks its record up before it writes: it fails having written nothing.
        let size = try store.journalSize
        #expect(throws: RecordStoreError.self) { try store.save(noteRecord("during", zone: "Notes")) }
        #expect(try store.journalSize == size)
        cipher.recover()
        #expect(try store.keys() == keys)
        try store.save(noteRecord("during", zone: "Notes"))
        #expect(try store.keys().count == keys.count + 1)
        let engine = try store.withEngine { $0 }
        #expect(engine.index.checkpoint?.damage?.contains("rows 0") == true)
    }

    @Test("A checkpoint found damaged after opening is written anew when the store closes")
    func rewrittenOnClose() throws {
        let closed = try Self.closedStore()
        let directory = try MemoryDirectory(journal: closed.journal)
        let damaged = try Self.damagingEveryBlock(of: closed.checkpoint)
        try directory.createFile(named: IndexCheckpoint.fileName).write(damaged, at: 0)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: CheckpointTests.options())
        let contents = try CheckpointTests.Contents(store)
        let engine = try store.withEngine { $0 }
        #expect(engine.index.checkpoint?.damage != nil)
        // Nothing committed: closing writes a checkpoint for the damage alone.
        store.close()
        #expect(try CheckpointTests.bytes(of: IndexCheckpoint.fileName, in: directory) != damaged)
        store = try RecordStore(storeDirectory: directory, url: nil, options: CheckpointTests.options())
        #expect(store.checkpointReport.usedCheckpoint)
        #expect(try CheckpointTests.Contents(store) == contents)
        let reopened = try store.withEngine { $0 }
        #expect(reopened.index.checkpoint?.damage == nil)
    }

    @Test("A checkpoint of the earlier format is not used: the journal is read, and closing writes one of this format")
    func earlierFormatReplaced() throws {
        let directory = MemoryDirectory(faults: nil)
        var store = try RecordStore(storeDirectory: directory, url: nil, options: CheckpointTests.options())
        try CheckpointTests.fill(store)
        let contents = try CheckpointTests.Contents(store)
        store.close()
        var checkpoint = try CheckpointTests.bytes(of: IndexCheckpoint.fileName, in: directory)
        #expect(checkpoint.prefix(8).elementsEqual("RSINDEX2".utf8))
        checkpoint.replaceSubrange(0..<8, with: Array("RSINDEX1".utf8))
        try directory.createFile(named: IndexCheckpoint.fileName).write(checkpoint, at: 0)

        store = try RecordStore(storeDirectory: directory, url: nil, options: CheckpointTests.options())
        #expect(!store.checkpointReport.usedCheckpoint)
        #expect(store.checkpointReport.checkpointProblem == "it does not start as a checkpoint does")
        #expect(try CheckpointTests.Contents(store) == contents)
        store.close()
        #expect(
            try CheckpointTests.bytes(of: IndexCheckpoint.fileName, in: directory).prefix(8).elementsEqual(
                "RSINDEX2".utf8))
        store = try RecordStore(storeDirectory: directory, url: nil, options: CheckpointTests.options())
        #expect(store.checkpointReport.usedCheckpoint)
        #expect(try CheckpointTests.Contents(store) == contents)
    }

    @Test(
        "A commit whose look-ups find the checkpoint damaged, a status change and a compaction hold what the journal holds"
    )
    func writesOverDamage() throws {
        let closed = try Self.closedStore()
        var stores: [RecordStore] = []
        for checkpoint in [try Self.damagingEveryBlock(of: closed.checkpoint), nil] {
            let directory = try MemoryDirectory(journal: closed.journal)
            if let checkpoint { try directory.createFile(named: IndexCheckpoint.fileName).write(checkpoint, at: 0) }
            stores.append(
                try RecordStore(storeDirectory: directory, url: nil, options: CheckpointTests.withoutCheckpoints))
        }
        #expect(stores[0].checkpointReport.usedCheckpoint)
        for store in stores {
            try store.write { batch in
                for number in stride(from: 0, to: 300, by: 7) {
                    try batch.save(noteRecord("r\(number)", title: "batch", zone: "Notes"))
                }
                try batch.deleteRecord(for: RecordKey(zone: "Archive", recordType: "Note", recordName: "r10"))
            }
        }
        // The batch's first look-up found the damage; the commit was made over the journal's records.
        let engine = try stores[0].withEngine { $0 }
        #expect(engine.index.checkpoint?.damage != nil)
        for store in stores {
            try store.withEngine { engine in
                try engine.setStatus(.sent, for: RecordKey(zone: "Notes", recordType: "Note", recordName: "r3"))
            }
        }
        #expect(try CheckpointTests.Contents(stores[0]) == CheckpointTests.Contents(stores[1]))
        for store in stores { try store.compact() }
        #expect(try CheckpointTests.Contents(stores[0]) == CheckpointTests.Contents(stores[1]))
    }
}
