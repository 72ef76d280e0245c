import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// The first `count` elements of `stream`, or fewer when it ends or `seconds` pass first.
func first<Element: Sendable>(
    _ count: Int, of stream: some AsyncSequence<Element, Never> & Sendable, within seconds: Double = 10
) async -> [Element] {
    await withTaskGroup(of: [Element]?.self) { group in
        group.addTask {
            var found: [Element] = []
            for await element in stream {
                found.append(element)
                if found.count == count { break }
            }
            return found
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let found = await group.next() ?? nil
        group.cancelAll()
        return found ?? []
    }
}

/// Waits, a bounded time, until `condition` holds; whether it did.
///
/// What it waits for is work of other tasks, which run on the same few threads as this one; on a
/// loaded machine, with other tests holding those threads, a minute can pass before they run. So
/// it gives up only after both a minute and 200 looks, each after a sleep that lets them run.
func eventually(within seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    var looks = 0
    while ContinuousClock.now < deadline || looks < 200 {
        if condition() { return true }
        looks += 1
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

@Suite("Observation")
struct ObservationTests {
    @Test("Each commit is one change, in order, none missed or repeated, a batch included")
    func changesInOrder() async throws {
        let store = try RecordStore.inMemory()
        let changes = store.changes(of: Item.self)
        let unwatched = store.changes(of: Note.self)
        try store.park(Item(id: "a", rank: 1))
        try store.write { batch in
            try batch.parkAll([Item(id: "b", rank: 2), Item(id: "c", rank: 3)])
            try batch.park(Item(id: "a", rank: 4))
            try batch.park(Note(id: "n", title: "not watched"))
        }
        try store.park(Note(id: "n2", title: "not watched either"))
        try store.delete(Item.self, identifier: "b")
        // A removal of a record the store does not have writes nothing, and is no change.
        try store.delete(Item.self, identifier: "nothing")
        try store.park(Item(id: "z", rank: 0))
        let received = await first(4, of: changes)
        let key = { (name: String) in RecordKey(recordType: "Item", recordName: name) }
        #expect(received.map(\.keys) == [[key("a")], [key("a"), key("b"), key("c")], [key("b")], [key("z")]])
        #expect(received.map(\.commit) == [1, 2, 4, 5])
        #expect(await first(2, of: unwatched).map(\.commit) == [2, 3])
    }

    @Test("A change arrives once its commit holds: the reader sees what it changed")
    func deliveredAfterCommit() async throws {
        let store = try RecordStore.inMemory()
        let changes = store.changes(to: RecordKey(recordType: "Item", recordName: "a"))
        let reader = Task {
            var ranks: [Int?] = []
            for await _ in changes {
                ranks.append(try store.retrieve(Item.self, identifier: "a")?.rank)
                if ranks.count == 3 { break }
            }
            return ranks
        }
        try store.park(Item(id: "b", rank: 9))
        try store.park(Item(id: "a", rank: 1))
        try store.park(Item(id: "b", rank: 8))
        try store.park(Item(id: "a", rank: 2))
        try store.delete(Item.self, identifier: "a")
        let ranks = try await reader.value
        // Each read follows its commit; a read may see a later commit too, never an earlier one.
        #expect(ranks.count == 3)
        #expect(ranks.last == .some(nil))
        #expect(ranks.first != .some(nil) || ranks == [nil, nil, nil])
    }

    @Test("Changes applied by sync are delivered: fetched records, and a modify answer")
    func syncChanges() async throws {
        let store = try RecordStore.inMemory()
        let changes = store.changes(of: Item.self)
        var record = try RecordEncoder().encode(Item(id: "s", rank: 1))
        record.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(record)], zone: nil, syncToken: "token")
        try store.park(Item(id: "p", rank: 2))
        let request = try #require(try store.modifyRequests().first)
        var saved = try RecordEncoder().encode(Item(id: "p", rank: 2))
        saved.metadata = RecordMetadata(changeTag: "t2")
        try store.apply(RecordsModifyResponse(records: [.success(saved)]), for: request)
        let received = await first(4, of: changes)
        #expect(received.count == 4)
        #expect(received.first?.keys == [RecordKey(recordType: "Item", recordName: "s")])
        #expect(received.last?.keys == [RecordKey(recordType: "Item", recordName: "p")])
        #expect(try store.storedRecord(for: RecordKey(recordType: "Item", recordName: "p"))?.status == .synced)
    }

    @Test("Cancelling the reading task removes its observer, for changes and for observed queries")
    func cancellationFreesObservers() async throws {
        let store = try RecordStore.inMemory()
        let changes = store.changes(of: Item.self)
        let snapshots = store.observe(Query<Item>().sorted(by: .rank))
        #expect(store.observers.count == 2)
        let readers = [
            Task { for await _ in changes {} },
            Task { for try await _ in snapshots {} },
        ]
        try store.park(Item(id: "a", rank: 1))
        for reader in readers { reader.cancel() }
        #expect(await eventually { store.observers.count == 0 })
        // Commits go on with no one watching.
        try store.park(Item(id: "b", rank: 2))
        #expect(store.observers.count == 0)
    }

    @Test("A stream released unread removes its observer")
    func releasedStream() throws {
        let store = try RecordStore.inMemory()
        do {
            let changes = store.changes(of: Item.self)
            #expect(store.observers.count == 1)
            _ = changes
        }
        #expect(store.observers.count == 0)
    }

    @Test("Closing the store ends the streams; a stream asked of a closed store ends at once")
    func closingEnds() async throws {
        let store = try RecordStore.inMemory()
        let changes = store.changes(of: Item.self)
        let snapshots = store.observe(Query<Item>())
        try store.park(Item(id: "a", rank: 1))
        store.close()
        #expect(await first(5, of: changes).count == 1)
        var count = 0
        do {
            for try await _ in snapshots { count += 1 }
        } catch RecordStoreError.closed {
            // The first read may find the store closed already.
        }
        #expect(count <= 2)
        #expect(await first(1, of: store.changes(of: Item.self)).isEmpty)
        #expect(store.observers.count == 0)
    }

    @Test("An observed query gives its results now, then after each commit that changes them")
    func observedQuery() async throws {
        let store = try itemStore()
        let query = Query<Item>().filter(.rank, .atLeast(4)).sorted(by: .rank)
        var iterator = store.observe(query).makeAsyncIterator()
        #expect(try await iterator.next()?.map(\.id) == ["g", "c"])
        try store.park(Item(id: "x", rank: 7))
        #expect(try await iterator.next()?.map(\.id) == ["g", "c", "x"])
        try store.write { batch in
            try batch.delete(Item.self, identifier: "g")
            try batch.park(Item(id: "a", rank: 4))
        }
        #expect(try await iterator.next()?.map(\.id) == ["a", "c", "x"])
        try store.park(Note(id: "n", title: "another type: no new results"))
        try store.park(Item(id: "b", rank: 1))
        #expect(try await iterator.next()?.map(\.id) == ["a", "c", "x"])
    }

    @Test("An observed model: nil, then each version, then nil when deleted")
    func observedModel() async throws {
        let store = try RecordStore.inMemory()
        var iterator = store.observe(Item.self, identifier: "m").makeAsyncIterator()
        #expect(try await iterator.next() == .some(nil))
        try store.park(Item(id: "other", rank: 0))
        try store.park(Item(id: "m", rank: 1))
        #expect(try await iterator.next()??.rank == 1)
        try store.park(Item(id: "m", rank: 2))
        #expect(try await iterator.next()??.rank == 2)
        try store.delete(Item.self, identifier: "m")
        #expect(try await iterator.next() == .some(nil))
    }

    @Test("Observed results never go back to an earlier commit, and end at the last one")
    func snapshotsOnlyMoveForward() async throws {
        let store = try RecordStore.inMemory()
        let stream = store.observe(Query<Item>())
        let reader = Task {
            var counts: [Int] = []
            for try await models in stream {
                counts.append(models.count)
                if models.count == 50 { break }
            }
            return counts
        }
        for index in 0..<50 { try store.park(Item(id: "i\(index)", rank: index)) }
        let counts = try await reader.value
        #expect(counts == counts.sorted())
        #expect(Set(counts).count == counts.count)
        #expect(counts.last == 50)
    }
}
