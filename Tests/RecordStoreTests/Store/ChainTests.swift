import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

@Suite("Chains of models")
struct ChainTests {
    /// A step that names the next by a plain reference, as a page from the server holds them.
    struct Step: Codable, Hashable {
        var id: String
        var next: RecordReference?
        var visits: Int
    }

    /// A stop whose next stop is a linked model, decoded with it.
    final class Stop: Codable, LinkedRecord {
        var id: String
        var next: Stop?

        init(id: String, next: Stop?) {
            self.id = id
            self.next = next
        }

        /// The identifiers from this stop to the end of its line.
        var line: [String] {
            var ids: [String] = []
            var stop: Stop? = self
            while let current = stop, ids.count <= 100 {
                ids.append(current.id)
                stop = current.next
            }
            return ids
        }
    }

    /// A store holding a chain of `length` steps, as fetched from the server.
    static func chainStore(of length: Int) throws -> (store: RecordStore, steps: [Step]) {
        let store = try RecordStore.inMemory()
        let steps = (0..<length).map {
            Step(id: "s\($0)", next: $0 < length - 1 ? RecordReference(recordName: "s\($0 + 1)") : nil, visits: $0)
        }
        try store.applyFetched(
            try steps.map { step in
                var record = try RecordEncoder().encode(step)
                record.metadata = RecordMetadata(changeTag: "t1")
                return .success(record)
            })
        return (store, steps)
    }

    @Test("Models chained by plain references read alone, as the walk over the chain reads them")
    func plainChainReadsAlone() throws {
        let (store, steps) = try Self.chainStore(of: 300)
        let sorted = steps.sorted { $0.id < $1.id }
        let read = try store.retrieveAll(Step.self)
        #expect(read == sorted)
        #expect(!RecordDecoder.readsLinkedRecords(Step.self))
        // A batch's read walks the links of its models: the same models.
        #expect(try store.write { try $0.retrieveAll(Step.self) } == read)
        #expect(try store.retrieveEach(Step.self).compactMap(\.model) == read)
        #expect(try store.retrieve(Step.self, identifier: "s41") == steps[41])
        #expect(try store.retrieveAll(Step.self, status: .synced) == read)
        #expect(try store.retrieveAll(Step.self, inZone: "elsewhere").isEmpty)
        // A step parked again is pending, its reference to the next as it was.
        try store.park(Step(id: "s7", next: steps[7].next, visits: 70))
        #expect(try store.retrieveAll(Step.self, status: .pending) == [Step(id: "s7", next: steps[7].next, visits: 70)])
        #expect(try store.retrieveAll(Step.self).first { $0.id == "s7" }?.visits == 70)
    }

    /// A leg of a trip: its stop is a linked model, when it has one.
    struct Leg: Codable {
        var id: String
        var stop: Stop?
    }

    /// A visit: its stop is a linked model, always there.
    struct Visit: Codable {
        var id: String
        var stop: Stop
    }

    @Test("A model that reads a link after models that read none is read again, every model with its links")
    func linkAfterModelsWithout() throws {
        let store = try RecordStore.inMemory()
        for number in 0..<5 { try store.park(Leg(id: "l\(number)", stop: nil)) }
        try store.park(Leg(id: "l5", stop: Stop(id: "p1", next: Stop(id: "p2", next: nil))))
        #expect(!RecordDecoder.readsLinkedRecords(Leg.self))
        let legs = try store.retrieveAll(Leg.self)
        #expect(legs.map(\.id) == (0...5).map { "l\($0)" })
        #expect(legs.map { $0.stop?.line ?? [] } == [[], [], [], [], [], ["p1", "p2"]])
        // Noted: the next read gathers the links from the start, and reads the same.
        #expect(RecordDecoder.readsLinkedRecords(Leg.self))
        #expect(try store.retrieveAll(Leg.self).map { $0.stop?.line ?? [] } == [[], [], [], [], [], ["p1", "p2"]])
    }

    @Test("A model whose required link fails it alone is read again with it: by retrieveEach, and by retrieve")
    func requiredLinkReadAgain() throws {
        let store = try RecordStore.inMemory()
        try store.park(Visit(id: "v1", stop: Stop(id: "p1", next: nil)))
        try store.park(Visit(id: "v2", stop: Stop(id: "p2", next: Stop(id: "p3", next: nil))))
        #expect(!RecordDecoder.readsLinkedRecords(Visit.self))
        let visits = try store.retrieveEach(Visit.self).compactMap(\.model)
        #expect(visits.map(\.stop.line) == [["p1"], ["p2", "p3"]])
        #expect(try store.retrieve(Visit.self, identifier: "v2")?.stop.line == ["p2", "p3"])
        #expect(try store.retrieveAll(Visit.self).map(\.stop.line) == [["p1"], ["p2", "p3"]])
        // Read first by identifier: alone, then again with its links.
        struct Call: Codable {
            var id: String
            var stop: Stop
        }
        try store.park(Call(id: "c1", stop: Stop(id: "p4", next: Stop(id: "p5", next: nil))))
        #expect(try store.retrieve(Call.self, identifier: "c1")?.stop.line == ["p4", "p5"])
        #expect(RecordDecoder.readsLinkedRecords(Call.self))
    }

    /// A leg that, decoded for the first time, runs `commitOnFirstDecode`: a commit made after a
    /// read's records were taken, while its models are decoded.
    struct Detour: Codable {
        nonisolated(unsafe) static var commitOnFirstDecode: (() throws -> Void)?
        var id: String
        var stop: Stop?
    }

    @Test("Read again with their links, the models are a snapshot of the store as it is then, roots and links alike")
    func readAgainIsASnapshot() throws {
        let store = try RecordStore.inMemory()
        try store.park(Detour(id: "d0", stop: nil))
        try store.park(Detour(id: "d1", stop: Stop(id: "p1", next: nil)))
        // While d0 decodes alone, d1 is moved to another stop and d2 added: d1 then reads a link,
        // and the read is made again, all of it as the store is after that commit.
        Detour.commitOnFirstDecode = {
            try store.write { batch in
                try batch.park(Detour(id: "d1", stop: Stop(id: "p9", next: Stop(id: "p10", next: nil))))
                try batch.park(Detour(id: "d2", stop: Stop(id: "p1", next: nil)))
            }
        }
        let detours = try store.retrieveAll(Detour.self)
        #expect(Detour.commitOnFirstDecode == nil)
        #expect(detours.map(\.id) == ["d0", "d1", "d2"])
        #expect(detours.map { $0.stop?.line ?? [] } == [[], ["p9", "p10"], ["p1"]])
    }

    @Test("A chain of 2,000 records fetched from the server reads whole: each model, its reference to the next")
    func longChain() throws {
        let store = try RecordStore.inMemory()
        let steps = (0..<2_000).map {
            Step(id: "s\($0)", next: $0 < 1_999 ? RecordReference(recordName: "s\($0 + 1)") : nil, visits: $0)
        }
        try store.applyFetched(
            try steps.map { step in
                var record = try RecordEncoder().encode(step)
                record.metadata = RecordMetadata(changeTag: "t1")
                return .success(record)
            })
        let read = try store.retrieveAll(Step.self)
        #expect(read.count == 2_000)
        #expect(Set(read) == Set(steps))
        #expect(try store.retrieveAll(Step.self, status: .synced).count == 2_000)
        // Parked again, each an update of the server's version, and read again.
        try store.parkAll(read.map { Step(id: $0.id, next: $0.next, visits: $0.visits + 1) })
        let again = try store.retrieveAll(Step.self)
        #expect(again.map(\.visits).sorted() == (1...2_000).map { $0 })
        #expect(Dictionary(uniqueKeysWithValues: again.map { ($0.id, $0.next?.recordName) })["s41"] == "s42")
    }

    @Test("Linked models in a chain: each model holds the rest of the chain, as stored when read")
    func linkedChain() throws {
        let store = try RecordStore.inMemory()
        var last: Stop?
        for number in (0..<20).reversed() { last = Stop(id: "p\(number)", next: last) }
        let first = try #require(last)
        try store.park(first)
        let stops = try store.retrieveAll(Stop.self)
        #expect(stops.map(\.id) == (0..<20).map { "p\($0)" }.sorted())
        for stop in stops {
            let number = try #require(Int(stop.id.dropFirst()))
            #expect(stop.line == (number..<20).map { "p\($0)" })
        }
        // The chain cut at p10: every chain that reached past it ends there, the rest are as they were.
        try store.park(Stop(id: "p10", next: nil))
        let cut = try store.retrieveAll(Stop.self)
        #expect(cut.first { $0.id == "p0" }?.line == (0...10).map { "p\($0)" })
        #expect(cut.first { $0.id == "p15" }?.line == (15..<20).map { "p\($0)" })
    }

    @Test("A chain with models deleted locally: each read reads a model's links as its own models are read")
    func chainWithDeletions() throws {
        let store = try RecordStore.inMemory()
        var last: Stop?
        for number in (0..<10).reversed() { last = Stop(id: "p\(number)", next: last) }
        let fetched = try RecordEncoder().encodeGraph(try #require(last)).map { record -> RecordResult in
            var record = record
            record.metadata = RecordMetadata(changeTag: "t1")
            return .success(record)
        }
        try store.applyFetched(fetched)
        try store.delete(Stop.self, identifier: "p5")
        try store.delete(Stop.self, identifier: "p6")
        // The visible models end where the chain reaches a model deleted locally.
        let visible = try store.retrieveAll(Stop.self)
        #expect(visible.map(\.id) == ["p0", "p1", "p2", "p3", "p4", "p7", "p8", "p9"])
        #expect(visible.first { $0.id == "p2" }?.line == ["p2", "p3", "p4"])
        #expect(visible.first { $0.id == "p7" }?.line == ["p7", "p8", "p9"])
        // The models deleted locally read as they were, through one another to the end.
        let deleted = try store.retrieveAll(Stop.self, status: .deletedLocally)
        #expect(deleted.map(\.id) == ["p5", "p6"])
        #expect(deleted.first?.line == (5..<10).map { "p\($0)" })
        #expect(deleted.last?.line == (6..<10).map { "p\($0)" })
        // The synced models, read by status, do not read the deleted ones as links.
        let synced = try store.retrieveAll(Stop.self, status: .synced)
        #expect(synced.map(\.id) == ["p0", "p1", "p2", "p3", "p4", "p7", "p8", "p9"])
        #expect(synced.first { $0.id == "p4" }?.line == ["p4"])
        #expect(try store.retrieve(Stop.self, identifier: "p3")?.line == ["p3", "p4"])
    }

    @Test("A chain read in a batch reads the changes staged in it, as models and as links")
    func chainInABatch() throws {
        let store = try RecordStore.inMemory()
        var last: Stop?
        for number in (0..<6).reversed() { last = Stop(id: "p\(number)", next: last) }
        try store.park(try #require(last))
        try store.withBatch { batch in
            try batch.park(Stop(id: "p3", next: Stop(id: "q", next: nil)))
            let stops = try batch.retrieveAll(Stop.self)
            #expect(stops.map(\.id) == ["p0", "p1", "p2", "p3", "p4", "p5", "q"])
            #expect(stops.first?.line == ["p0", "p1", "p2", "p3", "q"])
            #expect(stops.first { $0.id == "p4" }?.line == ["p4", "p5"])
        }
        #expect(try store.retrieve(Stop.self, identifier: "p1")?.line == ["p1", "p2", "p3", "q"])
    }
}

extension ChainTests.Detour {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        if let commit = Self.commitOnFirstDecode {
            Self.commitOnFirstDecode = nil
            try commit()
        }
        stop = try container.decodeIfPresent(ChainTests.Stop.self, forKey: .stop)
    }
}
