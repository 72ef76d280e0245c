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
