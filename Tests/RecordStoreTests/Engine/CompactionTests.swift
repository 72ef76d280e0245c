import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Compaction")
struct CompactionTests {
    /// An in-memory store that compacts whenever most of its journal is dead, and its faults.
    func compactingStore() throws -> (RecordStore, StoreFaults) {
        let faults = StoreFaults()
        var options = RecordStore.Options()
        options.faults = faults
        options.compactionThreshold = 1
        return (try RecordStore.inMemory(options: options), faults)
    }

    @Test("A compaction that fails after a commit is not swallowed: the commit stands, the store says why")
    func failedCompactionIsReported() throws {
        let (store, faults) = try compactingStore()
        try store.save(noteRecord("N", title: "round 0"))
        #expect(store.compactionFailure == nil)
        faults.fail(.create, times: 1, with: ENOSPC)
        let created = faults.count(of: .create)
        try store.save(noteRecord("N", title: "round 1"))
        #expect(faults.count(of: .create) == created + 1, "the commit did not try to compact")
        #expect(try store.titles() == ["N": "round 1"])
        let expected = RecordStoreError.fileSystem(
            operation: "create", path: "memory/" + Journal.compactingFileName, code: ENOSPC)
        #expect(store.compactionFailure as? RecordStoreError == expected)
        // The app can compact when it sees fit; success clears the failure.
        let before = try store.journalSize
        try store.compact()
        #expect(store.compactionFailure == nil)
        #expect(try store.journalSize < before)
    }

    @Test("After a compaction fails, commits try again once the journal has grown by a quarter, not every time")
    func failedCompactionIsRetriedSparingly() throws {
        let (store, faults) = try compactingStore()
        let title = String(repeating: "x", count: 1_000)
        faults.fail(.create, times: 1_000, with: ENOSPC)
        let created = faults.count(of: .create)
        var sizes: [Int] = []
        for round in 0..<40 {
            try store.save(noteRecord("N", title: "\(round) \(title)"))
            sizes.append(try store.journalSize)
        }
        #expect(store.compactionFailure is RecordStoreError)
        let attempts = faults.count(of: .create) - created
        // Every commit but the first leaves most of the journal dead; a quarter's growth between
        // attempts keeps them to a few.
        #expect(attempts > 1 && attempts <= 12, "\(attempts) compactions tried in 39 commits that wanted one")
        #expect(sizes == sizes.sorted(), "a compaction succeeded")

        // Room again: the next attempt, a few commits on, compacts and clears the failure.
        faults.fail(.create, times: 0, with: ENOSPC)
        for round in 40..<60 where store.compactionFailure != nil {
            try store.save(noteRecord("N", title: "\(round) \(title)"))
        }
        #expect(store.compactionFailure == nil)
        #expect(try store.journalSize < sizes[sizes.count - 1] / 4)
        #expect(try store.titles().count == 1)
    }

    @Test("A compaction asked for that fails throws, and is the store's compaction failure until one succeeds")
    func failedExplicitCompaction() throws {
        let (store, faults) = try compactingStore()
        try store.save(noteRecord("N"))
        faults.fail(.create, times: 1, with: EIO)
        #expect(throws: RecordStoreError.self) { try store.compact() }
        #expect(store.compactionFailure as? RecordStoreError != nil)
        try store.compact()
        #expect(store.compactionFailure == nil)
    }
}
