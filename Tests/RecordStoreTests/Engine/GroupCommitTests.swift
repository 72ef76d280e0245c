import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// Group commit: commits of several threads made durable by one flush, and a failed flush
/// failing every commit it was for.
@Suite("Group commit")
struct GroupCommitTests {
    /// A file whose flushes wait until the test lets them go, and count themselves.
    final class HeldFile: StoreFile, @unchecked Sendable {
        var path = "held"
        private let lock = NSCondition()
        private var released = 0
        private(set) var started = 0
        var failing = false

        func size() throws -> Int { 0 }
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {}
        func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {}
        func truncate(to size: Int) throws {}
        func close() {}

        func synchronize() throws {
            try lock.locked {
                started += 1
                lock.broadcast()
                while released < started { lock.wait() }
                if failing { throw RecordStoreError.fileSystem(operation: "fsync", path: path, code: EIO) }
            }
        }

        /// Waits until `count` flushes have started.
        func waitForFlushes(_ count: Int) {
            lock.locked { while started < count { lock.wait() } }
        }

        /// Lets one more flush finish.
        func release() {
            lock.locked {
                released += 1
                lock.broadcast()
            }
        }

        var flushes: Int { lock.locked { started } }
    }

    /// Runs `body` on a new thread; the returned group is left when it ends.
    func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            body()
            group.leave()
        }
        return group
    }

    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int: Bool] = [:]
        func set(_ ticket: Int, _ succeeded: Bool) { lock.locked { values[ticket] = succeeded } }
        var all: [Int: Bool] { lock.locked { values } }
    }

    @Test("Commits written while a flush runs share the next one: three commits, two flushes")
    func flushShared() throws {
        let file = HeldFile()
        let flush = GroupFlush(file: file, end: 0)
        let outcomes = Outcomes()
        let first = flush.noteWritten(end: 10)
        let leader = onThread {
            outcomes.set(first, (try? flush.waitUntilDurable(first)) != nil)
        }
        file.waitForFlushes(1)
        // Written while the first flush runs: they wait for it, then share one.
        let second = flush.noteWritten(end: 20)
        let third = flush.noteWritten(end: 30)
        let followers = [second, third].map { ticket in
            onThread { outcomes.set(ticket, (try? flush.waitUntilDurable(ticket)) != nil) }
        }
        file.release()
        leader.wait()
        file.waitForFlushes(2)
        file.release()
        for follower in followers { follower.wait() }
        #expect(outcomes.all == [first: true, second: true, third: true])
        #expect(file.flushes == 2)
        #expect(flush.durableState.ticket == third)
        #expect(flush.durableState.end == 30)
        // Nothing left to flush: waiting again flushes nothing.
        try flush.waitUntilDurable(third)
        #expect(file.flushes == 2)
    }

    @Test("A failed flush fails every commit it was for, and their tickets stay failed after the reset")
    func failedFlushFailsAll() throws {
        let file = HeldFile()
        let flush = GroupFlush(file: file, end: 0)
        file.release()
        let durable = flush.noteWritten(end: 10)
        try flush.waitUntilDurable(durable)
        file.failing = true
        let tickets = [flush.noteWritten(end: 20), flush.noteWritten(end: 30)]
        let outcomes = Outcomes()
        file.release()
        let waiters = tickets.map { ticket in
            onThread { outcomes.set(ticket, (try? flush.waitUntilDurable(ticket)) != nil) }
        }
        for waiter in waiters { waiter.wait() }
        #expect(outcomes.all == [tickets[0]: false, tickets[1]: false])
        #expect(flush.hasFailed)
        #expect(flush.durableState.ticket == durable)
        #expect(flush.durableState.end == 10)
        flush.reset()
        file.failing = false
        let next = flush.noteWritten(end: 20)
        #expect(next > tickets[1])
        file.release()
        try flush.waitUntilDurable(next)
        for ticket in tickets {
            #expect(throws: RecordStoreError.self) { try flush.waitUntilDurable(ticket) }
        }
        try flush.waitUntilDurable(durable)
    }

    @Test("A failed flush undoes the index changes of every commit not durable, and cuts them off the journal")
    func failedFlushUndone() throws {
        let faults = StoreFaults()
        let directory = MemoryDirectory(faults: faults)
        var options = RecordStore.Options()
        options.faults = faults
        var store = try RecordStore(storeDirectory: directory, url: nil, options: options)
        try store.save(noteRecord("kept", title: "v1"))
        let size = try store.journalSize
        let before = try CheckpointTests.Contents(store)
        let engine = try store.withEngine { $0 }
        // Two commits written, not flushed: a new record, a replaced one, a token.
        let tickets = try store.withEngine { engine in
            [
                try engine.commitDeferringFlush(
                    StoreEngine.Commit(records: [(noteKey("new"), try pendingEntry("new"))])),
                try engine.commitDeferringFlush(
                    StoreEngine.Commit(
                        records: [(noteKey("kept"), try pendingEntry("kept", title: "v2"))],
                        syncTokens: [("Notes", "t1", nil)])),
            ].compactMap { $0 }
        }
        #expect(tickets.count == 2)
        #expect(try store.record(for: noteKey("new")) != nil)
        faults.fail(.flush, times: 1, with: EIO)
        for ticket in tickets.reversed() {
            #expect(throws: RecordStoreError.self) { try engine.finishCommit(ticket) }
        }
        // The next call to take the lock undoes them.
        try store.withEngine { $0.recoverFromFailedFlush() }
        #expect(try CheckpointTests.Contents(store) == before)
        #expect(try store.journalSize == size)
        try store.save(noteRecord("after"))
        store.close()
        store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
        #expect(try store.keys().map(\.recordName) == ["after", "kept"])
        #expect(try store.record(for: noteKey("kept"))?["title"] == .string("v1"))
        #expect(try store.syncToken(forZone: "Notes") == nil)
    }

    @Test("A save whose flush fails throws, and leaves the store as before it, usable")
    func failedFlushOfASave() throws {
        let faults = StoreFaults()
        var options = RecordStore.Options()
        options.faults = faults
        let store = try RecordStore(storeDirectory: MemoryDirectory(faults: faults), url: nil, options: options)
        try store.save(noteRecord("kept"))
        faults.fail(.flush, times: 1, with: EIO)
        #expect(throws: RecordStoreError.self) { try store.save(noteRecord("lost")) }
        #expect(try store.keys().map(\.recordName) == ["kept"])
        try store.save(noteRecord("next"))
        #expect(try store.keys().map(\.recordName) == ["kept", "next"])
    }

    @Test("Eight threads saving at once: every commit is there, after reopening too")
    func eightWriters() throws {
        try withStoreDirectory { directory in
            let store = try RecordStore(directory: directory)
            let commits = 40
            let failures = Outcomes()
            let writers = (0..<8).map { thread in
                onThread {
                    for number in 0..<commits {
                        let saved = (try? store.save(noteRecord("w\(thread)-\(number)"))) != nil
                        if !saved { failures.set(thread * 1_000 + number, false) }
                    }
                }
            }
            for writer in writers { writer.wait() }
            #expect(failures.all.isEmpty)
            #expect(try store.count == 8 * commits)
            store.close()
            let reopened = try RecordStore(directory: directory)
            #expect(try reopened.count == 8 * commits)
        }
    }

    func noteKey(_ name: String) -> RecordKey {
        RecordKey(recordType: "Note", recordName: name)
    }

    func pendingEntry(_ name: String, title: String = "Title") throws -> RecordEntry {
        RecordEntry(
            key: noteKey(name), status: .pending, isDeletion: false,
            local: try EncodedRecord(noteRecord(name, title: title)),
            server: nil, lastError: nil)
    }
}
