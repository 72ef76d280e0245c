import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Ownership and failing writes")
struct OwnershipAndFaultTests {
    @Test("A second opener of a store gets a clear error until the first closes it")
    func oneOwner() throws {
        try withStoreDirectory { directory in
            let first = try RecordStore(directory: directory)
            expectStoreError(.locked(path: directory.path)) { _ = try RecordStore(directory: directory) }
            #expect(RecordStoreError.locked(path: directory.path).description.contains("another process"))
            first.close()
            _ = try RecordStore(directory: directory)
        }
    }

    @Test(
        "A lock held a moment longer, as a process being started holds a closed store's, is waited for; one held on is not"
    )
    func lockHeldAMoment() throws {
        try withStoreDirectory { directory in
            try RecordStore(directory: directory).close()
            let lockPath = directory.appendingPathComponent(DiskDirectory.lockFileName).path
            // A descriptor of the lock file with the lock, as a child between fork and exec has.
            let held = open(lockPath, O_RDWR | O_CLOEXEC)
            #expect(held >= 0)
            #expect(Self.lock(held))
            let release = Thread {
                usleep(60_000)
                close(held)
            }
            release.start()
            let store = try RecordStore(directory: directory)
            store.close()

            let kept = open(lockPath, O_RDWR | O_CLOEXEC)
            defer { close(kept) }
            #expect(Self.lock(kept))
            expectStoreError(.locked(path: directory.path)) { _ = try RecordStore(directory: directory) }
        }
    }

    /// Takes the lock a store takes on its lock file, through `descriptor`.
    static func lock(_ descriptor: Int32) -> Bool {
        #if os(Linux)
            var region = flock()
            region.l_type = Int16(F_WRLCK)
            region.l_whence = Int16(SEEK_SET)
            return fcntl(descriptor, 37, &region) == 0  // F_OFD_SETLK
        #else
            return flock(descriptor, LOCK_EX | LOCK_NB) == 0
        #endif
    }

    @Test("Another descriptor of the lock file, opened and closed in the owner's process, leaves the store owned")
    func lockOutlivesAnotherDescriptor() throws {
        try withStoreDirectory { directory in
            let store = try RecordStore(directory: directory)
            // What any code in the process may do: a backup tool reading the directory, say.
            let other = open(directory.appendingPathComponent(DiskDirectory.lockFileName).path, O_RDWR | O_CLOEXEC)
            #expect(other >= 0)
            close(other)
            // A child that opens the store prints "ready"; one refused exits without a word.
            let (process, output) = try CrashTests.start(directory, mode: "write")
            let childOpened = CrashTests.waitUntilReady(output).starts(with: Data("ready\n".utf8))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(!childOpened, "another process opened the store that this one owns")
            try store.save(noteRecord("mine"))
            store.close()
        }
    }

    @Test("Creating a store's directory and the missing ones above it makes each level durable in its parent")
    func everyCreatedLevelIsSynchronized() throws {
        try withStoreDirectory { base in
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
            let faults = StoreFaults()
            var options = RecordStore.Options()
            options.faults = faults
            let levels = ["a", "b", "c"].reduce(into: [base]) { $0.append($0[$0.count - 1].appendingPathComponent($1)) }
            let store = try RecordStore(directory: levels[3], options: options)
            store.close()
            let synchronized = Set(faults.synchronizedDirectories)
            for parent in levels.dropLast() {
                #expect(synchronized.contains(parent.path), "\(parent.path) was not synchronized")
            }
        }
    }

    @Test("A system write that writes nothing and reports no error fails the commit instead of looping forever")
    func writeOfNothingFails() throws {
        try withStoreDirectory { directory in
            let faults = StoreFaults()
            var options = RecordStore.Options()
            options.faults = faults
            do {
                let store = try RecordStore(directory: directory, options: options)
                try store.save(noteRecord("before"))
                // A few only, so that a store that asks again and again ends up writing.
                faults.writeNothing(times: 3)
                expectStoreError(
                    .fileSystem(operation: "write", path: directory.path + "/" + Journal.fileName, code: EIO)
                ) {
                    try store.save(noteRecord("lost"))
                }
                #expect(try store.titles() == ["before": "Title"])
                faults.writeNothing(times: 0)
                try store.save(noteRecord("after"))
            }
            #expect(try RecordStore(directory: directory).titles() == ["before": "Title", "after": "Title"])
        }
    }

    @Test(
        "A store moved while open keeps its files in its own directory, whatever takes its old path",
        arguments: [false, true])
    func movedStoreKeepsToItsDirectory(linkAtOldPath: Bool) throws {
        try withStoreDirectory { directory in
            let parent = directory.deletingLastPathComponent()
            let moved = parent.appendingPathComponent("moved-\(UUID().uuidString)")
            let other = parent.appendingPathComponent("other-\(UUID().uuidString)")
            defer {
                try? FileManager.default.removeItem(at: moved)
                try? FileManager.default.removeItem(at: other)
            }
            let first = try RecordStore(directory: directory)
            try first.save(noteRecord("a1"))
            try FileManager.default.moveItem(at: directory, to: moved)
            // At the old path: a directory made anew, or a link to another one. Either is another
            // store's, which the first never touches, not even when it compacts its journal.
            let second: RecordStore
            if linkAtOldPath {
                try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(at: directory, withDestinationURL: other)
                second = try RecordStore(directory: other)
            } else {
                second = try RecordStore(directory: directory)
            }
            try second.save(noteRecord("b1"))
            try first.save(noteRecord("a2"))
            try first.compact()
            try first.save(noteRecord("a3"))
            first.close()
            second.close()
            #expect(try RecordStore(directory: moved).titles() == ["a1": "Title", "a2": "Title", "a3": "Title"])
            #expect(try RecordStore(directory: directory).titles() == ["b1": "Title"])
        }
    }

    @Test("A closed store holds no descriptor, though the app still holds the store")
    func closedStoreHoldsNoDescriptor() throws {
        let descriptors = "/proc/self/fd"
        guard FileManager.default.fileExists(atPath: descriptors) else { return }
        // Only this store's descriptors are counted: those open on its directory or a file in it.
        // Tests running beside this one open and close descriptors of their own meanwhile.
        func openIn(_ directory: URL) throws -> [String] {
            let path = directory.resolvingSymlinksInPath().path
            return try FileManager.default.contentsOfDirectory(atPath: descriptors).compactMap { name in
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(name)")
                guard let target, target == path || target.hasPrefix(path + "/") else { return nil }
                return target
            }
        }
        try withStoreDirectory { directory in
            let store = try RecordStore(directory: directory)
            try store.save(noteRecord("a1"))
            #expect(try !openIn(directory).isEmpty)
            store.close()
            #expect(try openIn(directory) == [])
            expectStoreError(.closed(path: directory.path)) { try store.save(noteRecord("a2")) }
            withExtendedLifetime(store) {}
        }
    }

    @Test("Each error says what happened, where, and what to do, as its description and its errorDescription")
    func errorDescriptions() {
        let path = "/data/notes"
        let expected: [(RecordStoreError, [String])] = [
            (.locked(path: path), [path, "another process", "close the other RecordStore"]),
            (
                .fileSystem(operation: "write", path: path, code: ENOSPC),
                [path, "write", "errno \(ENOSPC)", "Free some space"]
            ),
            (.fileSystem(operation: "open", path: path, code: EACCES), [path, "open", "errno \(EACCES)"]),
            (.notAStore(path: path), [path, "not a RecordStore journal"]),
            (.unsupportedFormat(path: path, version: 9), [path, "version 9", "newer version"]),
            (
                .corruptJournal(path: path, offset: 4096, reason: "bad checksum"),
                [path, "offset 4096", "bad checksum", "recoversDamagedFrames"]
            ),
            (.cipherRequired(path: path), [path, "encrypted", "with the cipher"]),
            (.notEncrypted(path: path), [path, "not encrypted", "without one"]),
            (.wrongCipher(path: path), [path, "not the cipher"]),
            (
                .cipherFailed(path: path, offset: 128, reason: "key locked"),
                [path, "offset 128", "key locked", "cipher"]
            ),
            (.closed(path: path), [path, "closed"]),
            (.unnamedRecord(recordType: "Note"), ["'Note'", "no name", "identifier"]),
            (.commitTooLarge(bytes: 5_000, limit: 4_096), ["5000 bytes", "4096", "several batches"]),
            (.nestedWrite, ["write(_:)", "batch"]),
        ]
        for (error, phrases) in expected {
            for phrase in phrases {
                #expect(error.description.contains(phrase), "\(error): \(error.description)")
            }
            #expect(error.errorDescription == error.description)
            #expect(error.localizedDescription == error.description)
        }
        // Only a full disk gets the advice to free space.
        let denied = RecordStoreError.fileSystem(operation: "open", path: path, code: EACCES)
        #expect(!denied.description.contains("Free some space"))
    }

    func failingStore(_ directory: URL) throws -> (RecordStore, StoreFaults) {
        var options = RecordStore.Options()
        let faults = StoreFaults()
        options.faults = faults
        options.compactionThreshold = 1
        return (try RecordStore(directory: directory, options: options), faults)
    }

    /// A store in memory whose file operations ``faults`` fails on demand, and that ``open()``
    /// opens again over the same files, as a restarted app would.
    struct FaultedMemoryStore {
        let faults = StoreFaults()
        let directory: MemoryDirectory

        init() {
            directory = MemoryDirectory(faults: faults)
        }

        func open() throws -> RecordStore {
            var options = RecordStore.Options()
            options.faults = faults
            return try RecordStore(storeDirectory: directory, url: nil, options: options)
        }
    }

    @Test("A full disk fails the commit and changes nothing; the store stays usable, and reopens whole")
    func fullDisk() throws {
        try withStoreDirectory { directory in
            do {
                let (store, faults) = try failingStore(directory)
                try store.save(noteRecord("before"))
                for afterBytes in [0, 1, 11, 12, 40, 200] {
                    faults.failWrites(with: ENOSPC, afterBytes: afterBytes)
                    expectStoreError(
                        .fileSystem(operation: "write", path: directory.path + "/" + Journal.fileName, code: ENOSPC)
                    ) {
                        try store.save(noteRecord("lost \(afterBytes)", title: String(repeating: "x", count: 400)))
                    }
                    #expect(try store.titles() == ["before": "Title"])
                }
                faults.failWrites(with: nil)
                try store.save(noteRecord("after"))
                #expect(try store.titles() == ["before": "Title", "after": "Title"])
            }
            let reopened = try RecordStore(directory: directory)
            #expect(try reopened.titles() == ["before": "Title", "after": "Title"])
            #expect(reopened.openReport.discardedTail == nil)
        }
    }

    @Test("A disk with room for a commit but not for the room the journal reserves after it takes the commit")
    func roomForTheFrameOnly() throws {
        try withStoreDirectory { directory in
            do {
                let (store, faults) = try failingStore(directory)
                // Each time, room for the frame and a few bytes more, but not for 256 KB of zeros.
                faults.failWrites(with: ENOSPC, afterBytes: 2_048)
                try store.save(noteRecord("fits"))
                faults.failWrites(with: ENOSPC, afterBytes: 2_048)
                try store.save(noteRecord("fits too"))
                #expect(try store.titles() == ["fits": "Title", "fits too": "Title"])
            }
            let reopened = try RecordStore(directory: directory)
            #expect(try reopened.titles() == ["fits": "Title", "fits too": "Title"])
            #expect(reopened.openReport.discardedTail == nil)
        }
    }

    @Test("After a commit whose flush failed, compacting succeeds: nothing of it is left to flush")
    func compactAfterFailedFlush() throws {
        let memory = FaultedMemoryStore()
        let faults = memory.faults
        var store = try memory.open()
        try store.save(noteRecord("before"))
        // Two in a row: the second's range of cut-off commits starts right after the first's.
        faults.fail(.flush, times: 1, with: EIO)
        #expect(throws: RecordStoreError.self) { try store.save(noteRecord("lost")) }
        faults.fail(.flush, times: 1, with: EIO)
        #expect(throws: RecordStoreError.self) { try store.save(noteRecord("lost too")) }
        // The fuzzer's `ops` target found compaction failing here with the lost commit's error.
        try store.compact()
        #expect(try store.titles() == ["before": "Title"])
        store.close()
        store = try memory.open()
        #expect(try store.titles() == ["before": "Title"])
    }

    @Test("A commit whose flush and cut both failed is cut off when the store closes: it is not there when reopened")
    func failedCommitCutOnClose() throws {
        let memory = FaultedMemoryStore()
        let faults = memory.faults
        var store = try memory.open()
        try store.save(noteRecord("before"))
        faults.fail(.flush, times: 1, with: EIO)
        faults.fail(.truncate, times: 1, with: EIO)
        #expect(throws: RecordStoreError.self) { try store.save(noteRecord("lost")) }
        #expect(try store.titles() == ["before": "Title"])
        store.close()
        store = try memory.open()
        #expect(try store.titles() == ["before": "Title"])
    }

    @Test("A failed flush fails the commit, cut off before the next write even when cutting fails at first")
    func failedFlushAndCut() throws {
        let memory = FaultedMemoryStore()
        let faults = memory.faults
        var store = try memory.open()
        let journal = "memory/" + Journal.fileName
        try store.save(noteRecord("before"))

        // The commit's flush fails, and so does the flush after cutting the commit off.
        faults.fail(.flush, times: 2, with: EIO)
        expectStoreError(.fileSystem(operation: "flush", path: journal, code: EIO)) {
            try store.save(noteRecord("lost"))
        }
        #expect(try store.titles() == ["before": "Title"])
        // The next write cuts it off first; here the cut fails once more, and the write with it.
        faults.fail(.truncate, times: 1, with: EIO)
        expectStoreError(.fileSystem(operation: "truncate", path: journal, code: EIO)) {
            try store.save(noteRecord("after"))
        }
        try store.save(noteRecord("after"))
        #expect(try store.titles() == ["before": "Title", "after": "Title"])

        // What was flushed is what a power cut leaves: the failed commit is not in it.
        memory.directory.loseUnflushedWrites()
        store = try memory.open()
        #expect(try store.titles() == ["before": "Title", "after": "Title"])
        #expect(store.openReport.discardedTail == nil)
    }

    @Test("Closing the store inside a write closes it once the write is committed")
    func closeInsideWrite() throws {
        try withStoreDirectory { directory in
            do {
                let store = try RecordStore(directory: directory)
                try store.write { batch in
                    try batch.save(noteRecord("N1"))
                    store.close()
                    try batch.save(noteRecord("N2"))
                }
                expectStoreError(.closed(path: directory.path)) { _ = try store.titles() }
            }
            let reopened = try RecordStore(directory: directory)
            #expect(try reopened.titles() == ["N1": "Title", "N2": "Title"])
        }
    }

    @Test("A full disk during compaction leaves the old journal in place and the store usable")
    func fullDiskInCompaction() throws {
        try withStoreDirectory { directory in
            do {
                let (store, faults) = try failingStore(directory)
                for round in 0..<5 { try store.save(noteRecord("N", title: "round \(round)")) }
                faults.failWrites(with: ENOSPC, afterBytes: 30)
                #expect(throws: RecordStoreError.self) { try store.compact() }
                #expect(
                    !FileManager.default.fileExists(
                        atPath: directory.appendingPathComponent(Journal.compactingFileName).path))
                faults.failWrites(with: nil)
                try store.save(noteRecord("M"))
                #expect(try store.titles() == ["N": "round 4", "M": "Title"])
            }
            #expect(try RecordStore(directory: directory).titles() == ["N": "round 4", "M": "Title"])
        }
    }

    @Test("Compaction keeps the latest version of each record and their sync state, in a smaller journal")
    func compaction() throws {
        try withStoreDirectory { directory in
            var options = RecordStore.Options()
            options.compactionThreshold = 1 << 30
            do {
                let store = try RecordStore(directory: directory, options: options)
                var fetched = noteRecord("synced")
                fetched.metadata = RecordMetadata(changeTag: "t1")
                try store.applyFetched([.success(fetched)], syncToken: "token")
                for round in 0..<50 { try store.save(noteRecord("busy", title: "round \(round)")) }
                try store.deleteRecord(for: noteKey("synced"))
                let before = try store.journalSize
                try store.compact()
                #expect(try store.journalSize < before / 10)
                #expect(try store.records(in: .deletedLocally).map(\.key) == [noteKey("synced")])
            }
            let store = try RecordStore(directory: directory)
            #expect(try store.titles() == ["busy": "round 49"])
            #expect(try store.storedRecord(for: noteKey("synced"))?.status == .deletedLocally)
            #expect(try store.syncToken() == "token")
        }
    }

    @Test("An apply whose commit fails changes nothing: applied again, it gives what it would have given")
    func failedApplyChangesNothing() throws {
        for editedMeanwhile in [false, true] {
            let memory = FaultedMemoryStore()
            let faults = memory.faults
            let store = try memory.open()
            try store.save(noteRecord("A", title: "v1"))
            let request = try #require(try store.modifyRequests().first)
            if editedMeanwhile { try store.save(noteRecord("A", title: "v2")) }
            let saved = serverCopy(of: noteRecord("A", title: "v1"), tag: "t1")
            faults.fail(.flush, times: 1, with: EIO)
            #expect(throws: RecordStoreError.self) {
                try store.apply(RecordsModifyResponse(records: [.success(saved)]), for: request)
            }
            #expect(try store.storedRecord(for: noteKey("A"))?.status == (editedMeanwhile ? .pending : .sent))
            if editedMeanwhile {
                // The server's copy of what was sent, fetched now, is the app's own: no conflict.
                try store.applyFetched([.success(saved)], zone: RecordStore.defaultZone)
                #expect(try store.storedRecord(for: noteKey("A"))?.status == .pending)
                #expect(try store.titles() == ["A": "v2"])
            } else {
                let outcome = try store.apply(RecordsModifyResponse(records: [.success(saved)]), for: request)
                #expect(outcome.saved == [noteKey("A")])
                #expect(try store.storedRecord(for: noteKey("A"))?.status == .synced)
            }
        }
    }

    @Test("Opening a store where a file is gives the system's reason")
    func storeOverAFile() throws {
        try withStoreDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("plain")
            try Data("text".utf8).write(to: file)
            expectStoreError(.fileSystem(operation: "create directory", path: file.path, code: EEXIST)) {
                _ = try RecordStore(directory: file)
            }
            expectStoreError(
                .fileSystem(
                    operation: "create directory", path: file.appendingPathComponent("inner").path, code: ENOTDIR)
            ) {
                _ = try RecordStore(directory: file.appendingPathComponent("inner"))
            }
        }
    }

    @Test("The store compacts on its own once most of the journal is dead")
    func automaticCompaction() throws {
        var options = RecordStore.Options()
        options.compactionThreshold = 4096
        let store = try RecordStore.inMemory(options: options)
        for round in 0..<500 { try store.save(noteRecord("N", title: "round \(round)")) }
        #expect(try store.journalSize < 8192)
        #expect(try store.titles() == ["N": "round 499"])
    }
}
