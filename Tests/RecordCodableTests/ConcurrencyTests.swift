import Foundation
import Testing

@testable import RecordCodable

/// One encoder and one decoder shared by many tasks at once. Run under the thread sanitizer
/// (`swift test --sanitize=thread`, as CI does) this shows the coders share no unsynchronized
/// state — including the per-type information they learn on a type's first record.
@Suite("Concurrency")
struct ConcurrencyTests {
    /// Types that no other test encodes, so that tasks race to be the first to learn them.
    struct First: Codable, Equatable {
        var id: String
        var a: Int
        var b: [String]
    }
    struct Second: Codable, Equatable {
        var id: String
        var when: Date
        var status: EnumTests.Status
    }
    struct Third: Codable, Equatable, RecordRepresentable {
        static var recordType: String { "ThirdKind" }
        var id: String
        var nested: NestedValueTests.Address
    }

    @Test("A shared encoder and decoder give every task its own correct records")
    func sharedCoders() async throws {
        var sharedEncoder = RecordEncoder()
        try await withTemporaryDirectoryAsync { directory in
            sharedEncoder.assetDirectory = directory
            sharedEncoder.maximumRecordSize = 10_000_000
            let encoder = sharedEncoder
            let decoder = RecordDecoder()
            let failures = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<16 {
                    group.addTask {
                        var failures = 0
                        for iteration in 0..<100 {
                            let id = "t\(task)-\(iteration)"
                            let first = First(id: id, a: iteration, b: [id, "\(task)"])
                            let second = Second(
                                id: id, when: Date(timeIntervalSince1970: Double(iteration)), status: .draft)
                            let third = Third(id: id, nested: NestedValueTests.address)
                            let records = try [encoder.encode(first), encoder.encode(second), encoder.encode(third)]
                            if try decoder.decode(First.self, from: records[0]) != first { failures += 1 }
                            if try decoder.decode(Second.self, from: records[1]) != second { failures += 1 }
                            if try decoder.decode(Third.self, from: records[2]) != third { failures += 1 }
                            if records.map(\.recordType) != ["First", "Second", "ThirdKind"] { failures += 1 }
                            if try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(records[0]))
                                != records[0]
                            {
                                failures += 1
                            }
                            if try decoder.decode(EveryKindModel.self, from: encoder.encode(EveryKindModel.sample))
                                != EveryKindModel.sample
                            {
                                failures += 1
                            }
                        }
                        return failures
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(failures == 0)
        }
    }

    /// A model type of its own for each `Tag`, with a record type of its own, so that a test can
    /// encode more model types than the encoder keeps engines for (`SpareEngines.capacity`), and
    /// tell whether a record was written by another type's engine.
    struct Tagged<Tag>: Codable, Equatable, RecordRepresentable {
        static var recordType: String { "Tagged\(String(describing: Tag.self).count)" }
        var id: String
        var number: Int
        var words: [String]
    }

    @Test("More model types than the encoder keeps engines for, encoded in turn, get their own records")
    func moreTypesThanKeptEngines() async throws {
        let typeCount = SpareEngines.capacity + 8
        // In turn on one thread: every place is taken, and new types take the places of others.
        for round in 0..<3 {
            #expect(try Self.checkTagged(Never.self, types: typeCount, id: "r\(round)") == 0)
        }
        // And by many tasks at once.
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var failures = 0
                    for round in 0..<3 {
                        failures += try Self.checkTagged(Never.self, types: typeCount, id: "t\(task)-r\(round)")
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    /// Encodes and decodes a `Tagged<Tag>`, then does the same for `[Tag]`, `[[Tag]]`… until
    /// `types` types are done; returns how many records were not as expected.
    private static func checkTagged<Tag>(_ tag: Tag.Type, types: Int, id: String) throws -> Int {
        guard types > 0 else { return 0 }
        let model = Tagged<Tag>(id: "\(id)-\(types)", number: types, words: [id, "\(types)"])
        let record = try RecordEncoder().encode(model)
        let expected: [String: RecordValue] = [
            "number": .int64(Int64(types)), "words": .list([.string(id), .string("\(types)")]),
        ]
        var failures = 0
        if record.recordName != model.id || record.recordType != Tagged<Tag>.recordType || record.fields != expected {
            failures += 1
        }
        if try RecordDecoder().decode(Tagged<Tag>.self, from: record) != model { failures += 1 }
        return failures + (try checkTagged([Tag].self, types: types - 1, id: id))
    }

    @Test("Asset values written by many tasks at once land in one file each")
    func concurrentAssetWrites() async throws {
        var sharedEncoder = RecordEncoder()
        try await withTemporaryDirectoryAsync { directory in
            sharedEncoder.assetDirectory = directory
            let encoder = sharedEncoder
            let episode = AssetValueTests.Episode(
                id: "e", title: "t", transcript: AssetValueTests.transcript, notes: nil)
            let records = try await withThrowingTaskGroup(of: Record.self) { group in
                for _ in 0..<16 {
                    group.addTask { try encoder.encode(episode) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(records).count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: encoder.assetDirectory.path).count == 1)
            for record in records {
                #expect(try RecordDecoder().decode(AssetValueTests.Episode.self, from: record) == episode)
            }
        }
    }
}
