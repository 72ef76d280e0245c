import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// An item with fields of several kinds, some indexed, some missing in some records.
struct Item: Codable, Hashable, Sendable, QueryableModel {
    var id: String
    var name: String?
    var rank: Int?
    var score: Double?
    var when: Date?

    enum CodingKeys: String, CodingKey { case id, name, rank, score, when }
    static let indexedFields: [CodingKeys] = [.rank, .name, .when]
}

/// The items most tests query: ranks 1 to 5 with a tie at 3, one without a rank or a name.
let items: [Item] = [
    Item(id: "a", name: "apple", rank: 3, score: 3.0),
    Item(id: "b", name: "apricot", rank: 1, score: 1.5),
    Item(id: "c", name: "banana", rank: 5),
    Item(id: "d", name: "Apple", rank: 3, score: -2),
    Item(id: "e", name: "cherry", rank: 2, score: 2.0),
    Item(id: "f", rank: nil, score: 9),
    Item(id: "g", name: "apple pie", rank: 4),
]

/// A store holding `items`.
func itemStore() throws -> RecordStore {
    let store = try RecordStore.inMemory()
    try store.parkAll(items)
    return store
}

/// The identifiers `query` fetches, checked to be the same with the indexes and without.
func ids(_ query: Query<Item>, in store: RecordStore) throws -> [String] {
    var scanning = query
    scanning.scansOnly = true
    let found = try store.fetch(query).map(\.id)
    #expect(try store.fetch(scanning).map(\.id) == found, "the index and the scan disagree")
    #expect(try store.count(query) == found.count)
    return found
}

@Suite("Queries")
struct QueryTests {
    @Test(
        "Each condition and its boundaries",
        arguments: [
            (FieldCondition.equals(3), ["a", "d"]),
            (.equals(3.0), ["a", "d"]),
            (.equals(6), []),
            (.lessThan(3), ["b", "e"]),
            (.lessThan(1), []),
            (.atMost(3), ["a", "b", "d", "e"]),
            (.atMost(2.5), ["b", "e"]),
            (.greaterThan(3), ["c", "g"]),
            (.greaterThan(5), []),
            (.atLeast(3), ["a", "c", "d", "g"]),
            (.atLeast(5), ["c"]),
            (.between(2, 4), ["a", "d", "e", "g"]),
            (.between(3, 3), ["a", "d"]),
            (.between(4, 2), []),
            (.isIn([5, 1, 9, 1]), ["b", "c"]),
            (.isIn([Int]()), []),
            (.atLeast("a"), []),
        ])
    func conditionOnRank(condition: FieldCondition, expected: [String]) throws {
        let store = try itemStore()
        #expect(try ids(Query<Item>().filter(.rank, condition), in: store) == expected)
    }

    @Test(
        "A prefix compares bytes: case counts, the empty prefix takes every string, a missing field none",
        arguments: [
            ("ap", ["a", "b", "g"]),
            ("apple", ["a", "g"]),
            ("apple pie", ["g"]),
            ("apple pies", []),
            ("A", ["d"]),
            ("", ["a", "b", "c", "d", "e", "g"]),
            ("\u{10FFFF}", []),
        ])
    func prefixOnName(prefix: String, expected: [String]) throws {
        let store = try itemStore()
        #expect(try ids(Query<Item>().filter(.name, .hasPrefix(prefix)), in: store) == expected)
    }

    @Test("A condition on a field that is not indexed reads every record, and gives the same answers")
    func unindexedField() throws {
        let store = try itemStore()
        let query = Query<Item>().filter(.score, .greaterThan(1.5)).sorted(by: .score, ascending: false)
        #expect(try ids(query, in: store) == ["f", "a", "e"])
        #expect(try store.access(of: query) == .scan)
        #expect(try store.access(of: Query<Item>().filter(.rank, .equals(3))) == .index("rank"))
        #expect(try store.access(of: Query<Item>().sorted(by: .when)) == .index("when"))
        // Integers and doubles compare by value: 3.0 equals 3 and -2 is below 1.5.
        #expect(try ids(Query<Item>().filter(.score, .atMost(1.5)), in: store) == ["b", "d"])
    }

    @Test("The identifier is the record's name")
    func identifier() throws {
        let store = try itemStore()
        #expect(try ids(Query<Item>().filter(.id, .isIn(["c", "a", "z"])), in: store) == ["a", "c"])
        #expect(try ids(Query<Item>().sorted(by: .id, ascending: false).limit(2), in: store) == ["g", "f"])
    }

    @Test("Sorts: a missing value first ascending and last descending, ties in key order, later sorts break ties")
    func sortOrders() throws {
        let store = try itemStore()
        #expect(try ids(Query<Item>().sorted(by: .rank), in: store) == ["f", "b", "e", "a", "d", "g", "c"])
        #expect(
            try ids(Query<Item>().sorted(by: .rank, ascending: false), in: store) == [
                "c", "g", "a", "d", "e", "b", "f",
            ])
        #expect(
            try ids(Query<Item>().sorted(by: .rank, ascending: false).sorted(by: .name), in: store)
                == ["c", "g", "d", "a", "e", "b", "f"])
        // Strings sort by bytes: "Apple" before "apple".
        #expect(try ids(Query<Item>().sorted(by: .name), in: store) == ["f", "d", "a", "g", "b", "c", "e"])
        #expect(
            try ids(Query<Item>().filter(.rank, .atLeast(3)).sorted(by: .score), in: store) == ["c", "g", "d", "a"])
        // With no sort, key order, whichever index found them.
        #expect(try ids(Query<Item>().filter(.rank, .atLeast(2)), in: store) == ["a", "c", "d", "e", "g"])
    }

    @Test("Limit and count")
    func limitAndCount() throws {
        let store = try itemStore()
        let byRank = Query<Item>().filter(.rank, .atLeast(2)).sorted(by: .rank)
        #expect(try ids(byRank.limit(3), in: store) == ["e", "a", "d"])
        #expect(try ids(byRank.limit(0), in: store) == [])
        #expect(try ids(byRank.limit(-4), in: store) == [])
        #expect(try ids(byRank.limit(100), in: store) == ["e", "a", "d", "g", "c"])
        #expect(try store.count(byRank) == 5)
        #expect(try store.count(Query<Item>()) == 7)
        #expect(try ids(Query<Item>().limit(2), in: store) == ["a", "b"])
    }

    @Test("Zones: a query of one zone reads only its records")
    func zones() throws {
        let store = try itemStore()
        try store.park(Item(id: "w", name: "apple", rank: 3), inZone: "Work")
        // Key order: "Work" sorts before "_defaultZone".
        #expect(try ids(Query<Item>().filter(.rank, .equals(3)), in: store) == ["w", "a", "d"])
        #expect(try ids(Query<Item>(inZone: "Work").filter(.rank, .equals(3)), in: store) == ["w"])
        #expect(
            try ids(Query<Item>(inZone: RecordStore.defaultZone).filter(.rank, .equals(3)), in: store) == ["a", "d"])
    }

    @Test("The indexes follow updates, deletes, local deletes of synced records, and applied server changes")
    func indexesFollowChanges() throws {
        let store = try itemStore()
        let threes = Query<Item>().filter(.rank, .equals(3))
        #expect(try ids(threes, in: store) == ["a", "d"])
        try store.park(Item(id: "c", name: "banana", rank: 3))
        try store.delete(Item.self, identifier: "a")
        #expect(try ids(threes, in: store) == ["c", "d"])
        // The server's changes: new records, then an update and a deletion.
        try store.applyFetched(try fetched([Item(id: "h", rank: 3), Item(id: "k", rank: 3)], tag: "t1"))
        #expect(try ids(threes, in: store) == ["c", "d", "h", "k"])
        try store.applyFetched(try fetched([Item(id: "h", rank: 8)], tag: "t2") + [.success(deletionMarker("k"))])
        #expect(try ids(threes, in: store) == ["c", "d"])
        #expect(try ids(Query<Item>().filter(.rank, .atLeast(8)), in: store) == ["h"])
        // A synced record deleted locally is hidden until the delete is sent.
        try store.delete(Item.self, identifier: "h")
        #expect(try store.storedRecord(for: RecordKey(recordType: "Item", recordName: "h"))?.status == .deletedLocally)
        #expect(try ids(Query<Item>().filter(.rank, .atLeast(8)), in: store) == [])
    }

    /// `models` as the server sends them, with the change tag `tag`.
    private func fetched(_ models: [Item], tag: String) throws -> [RecordResult] {
        try models.map { model in
            var record = try RecordEncoder().encode(model)
            record.metadata = RecordMetadata(changeTag: tag)
            return .success(record)
        }
    }

    @Test("Many changes in one commit re-sort the index, with the same answers as a scan")
    func bulkChanges() throws {
        let store = try itemStore()
        #expect(try ids(Query<Item>().sorted(by: .rank), in: store).count == 7)
        try store.parkAll((0..<500).map { Item(id: "n\($0)", name: "n\($0 % 7)", rank: $0 % 10) })
        #expect(try ids(Query<Item>().filter(.rank, .equals(9)), in: store).count == 50)
        #expect(try ids(Query<Item>().filter(.name, .hasPrefix("n6")).sorted(by: .rank).limit(5), in: store).count == 5)
    }

    @Test("Indexes after reopening and after compaction")
    func reopenAndCompaction() throws {
        try withStoreDirectory { directory in
            do {
                let store = try RecordStore(directory: directory)
                try store.parkAll(items)
                #expect(try ids(Query<Item>().filter(.rank, .equals(3)), in: store) == ["a", "d"])
                try store.delete(Item.self, identifier: "a")
                try store.compact()
                #expect(try ids(Query<Item>().filter(.rank, .equals(3)), in: store) == ["d"])
                try store.park(Item(id: "a", name: "apple", rank: 3))
            }
            let store = try RecordStore(directory: directory)
            #expect(try ids(Query<Item>().filter(.rank, .equals(3)), in: store) == ["a", "d"])
            #expect(try ids(Query<Item>().filter(.name, .hasPrefix("apple")), in: store) == ["a", "g"])
        }
    }

    @Test("An encrypted store on disk answers queries, its records read in runs of neighbouring entries")
    func encryptedStore() throws {
        try withStoreDirectory { directory in
            var options = RecordStore.Options()
            options.cipher = ToyCipher(key: 7)
            let store = try RecordStore(directory: directory, options: options)
            // Records far apart in the journal and close together, some deleted between them.
            try store.parkAll((0..<300).map { (number: Int) in Item(id: "far\(number)", name: "x", rank: number) })
            try store.parkAll(items)
            try store.write { batch in
                for number in stride(from: 0, to: 300, by: 3) {
                    try batch.delete(Item.self, identifier: "far\(number)")
                }
            }
            let ranks = Query<Item>().filter(.rank, .between(2, 10)).sorted(by: .rank, ascending: false)
            let found = try ids(ranks, in: store)
            #expect(found == ["far10", "far8", "far7", "c", "far5", "far4", "g", "a", "d", "e", "far2"], "\(found)")
        }
    }

    @Test("An index holds dates to the nanosecond, as the records do, though their JSON keeps milliseconds")
    func exactDatesInAnIndex() throws {
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let store = try RecordStore.inMemory()
        // Four dates within one millisecond, which their JSON alone would make one.
        try store.parkAll((0..<4).map { Item(id: "t\($0)", when: base.addingTimeInterval(Double($0) * 0.0002)) })
        let exact = Query<Item>().filter(.when, .equals(base.addingTimeInterval(0.0004)))
        #expect(try ids(exact, in: store) == ["t2"])
        let range = Query<Item>().filter(
            .when, .between(base.addingTimeInterval(0.0001), base.addingTimeInterval(0.0005))
        ).sorted(by: .when, ascending: false)
        #expect(try ids(range, in: store) == ["t2", "t1"])
        // A record changed after the index is built is read again the same way.
        try store.park(Item(id: "t3", when: base.addingTimeInterval(0.0003)))
        #expect(try ids(range, in: store) == ["t2", "t3", "t1"])
    }

    @Test("Seeded random data: every query gives the same answers from the indexes as from a scan")
    func indexMatchesScan() throws {
        var random = SplitMix64(seed: 42)
        let store = try RecordStore.inMemory()
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        func randomItem(_ id: String) -> Item {
            Item(
                id: id,
                name: Bool.random(using: &random)
                    ? ["a", "ab", "abc", "b", "B", "é"].randomElement(using: &random) : nil,
                rank: Int.random(in: 0..<8, using: &random) == 0 ? nil : Int.random(in: -3...12, using: &random),
                score: Bool.random(using: &random) ? Double(Int.random(in: -6...6, using: &random)) / 2 : nil,
                when: Bool.random(using: &random)
                    ? base.addingTimeInterval(Double.random(in: 0...20, using: &random).rounded()) : nil)
        }
        try store.parkAll((0..<300).map { randomItem("i\($0)") })
        func randomCondition(on field: Item.CodingKeys) -> FieldCondition {
            let value: any QueryValue
            switch field {
            case .rank: value = Int.random(in: -4...13, using: &random)
            case .score: value = Double(Int.random(in: -7...7, using: &random)) / 2
            case .when: value = base.addingTimeInterval(Double(Int.random(in: -1...21, using: &random)))
            default: value = ["a", "ab", "b", "B", "c", "é"].randomElement(using: &random) ?? "a"
            }
            switch Int.random(in: 0..<7, using: &random) {
            case 0: return .equals(value)
            case 1: return .lessThan(value)
            case 2: return .atMost(value)
            case 3: return .greaterThan(value)
            case 4: return .atLeast(value)
            case 5: return .isIn([value.recordValue, value.recordValue])
            default: return .between(value, value)
            }
        }
        let fields: [Item.CodingKeys] = [.name, .rank, .score, .when, .id]
        for round in 0..<120 {
            if round % 20 == 0 {
                // Changes between queries: updates, deletes and new records.
                try store.write { batch in
                    for _ in 0..<Int.random(in: 1...40, using: &random) {
                        let id = "i\(Int.random(in: 0..<340, using: &random))"
                        if Bool.random(using: &random) {
                            try batch.park(randomItem(id))
                        } else {
                            try batch.delete(Item.self, identifier: id)
                        }
                    }
                }
            }
            var query = Query<Item>()
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let field = fields.randomElement(using: &random) ?? .rank
                query = query.filter(field, randomCondition(on: field))
            }
            if Bool.random(using: &random) {
                query = query.filter(.name, .hasPrefix(["", "a", "ab", "B"].randomElement(using: &random) ?? ""))
            }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                query = query.sorted(
                    by: fields.randomElement(using: &random) ?? .rank, ascending: .random(using: &random))
            }
            if Bool.random(using: &random) { query = query.limit(Int.random(in: 0...30, using: &random)) }
            _ = try ids(query, in: store)
        }
    }
}
