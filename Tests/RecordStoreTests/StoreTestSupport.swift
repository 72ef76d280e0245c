import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// Runs `body` with a new, empty directory, removed afterwards.
func withStoreDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "RecordStoreTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// `withStoreDirectory(_:)` for a test whose body awaits.
func withStoreDirectoryAsync<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "RecordStoreTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// The path of a store's journal.
func journalURL(in directory: URL) -> URL {
    directory.appendingPathComponent(Journal.fileName)
}

/// A note: the model most tests park.
struct Note: Codable, Hashable {
    var id: String
    var title: String
    var body: String = ""
    var tags: [String] = []
    var edited: Date = Date(timeIntervalSince1970: 1_700_000_000)
}

/// A folder that notes link to: a record of its own.
struct Folder: Codable, Hashable, LinkedRecord {
    var id: String
    var name: String
}

/// A note in a folder.
struct FiledNote: Codable, Hashable {
    var id: String
    var title: String
    var folder: Folder
}

/// A record of type "Note" named `name`.
func noteRecord(_ name: String, title: String = "Title", zone: String? = nil) -> Record {
    var record = Record(recordType: "Note", recordName: name, fields: ["title": .string(title)])
    if let zone { record.metadata = RecordMetadata(zoneID: RecordZoneID(zoneName: zone)) }
    return record
}

/// The server's record of `record` after it saved it: a change tag, its zone.
func serverCopy(of record: Record, tag: String) -> Record {
    var saved = record
    saved.metadata = RecordMetadata(changeTag: tag, zoneID: RecordZoneID(zoneName: RecordStore.defaultZone))
    return saved
}

/// The server's record of a deletion: no fields, and no type, as CloudKit sends it.
func deletionMarker(_ name: String, tag: String? = nil) -> Record {
    var marker = Record(recordType: "", recordName: name)
    marker.metadata = RecordMetadata(changeTag: tag, deleted: true)
    return marker
}

/// The key of the "Note" record named `name`.
func noteKey(_ name: String, zone: String = RecordStore.defaultZone) -> RecordKey {
    RecordKey(zone: zone, recordType: "Note", recordName: name)
}

extension RecordStore {
    /// The records' titles, by name: a short way to compare contents.
    func titles() throws -> [String: String] {
        var titles: [String: String] = [:]
        for key in try keys() {
            if let record = try record(for: key), case .string(let title) = record["title"] {
                titles[key.recordName] = title
            }
        }
        return titles
    }
}

/// Expects `body` to throw `expected`.
func expectStoreError(
    _ expected: RecordStoreError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("Expected \(expected), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as RecordStoreError {
        #expect(error == expected, sourceLocation: sourceLocation)
    } catch {
        Issue.record("Expected \(expected), got \(error)", sourceLocation: sourceLocation)
    }
}

extension DecodingError {
    /// The error's kind, as a word to compare in tests.
    var kind: String {
        switch self {
        case .typeMismatch: "typeMismatch"
        case .valueNotFound: "valueNotFound"
        case .keyNotFound: "keyNotFound"
        case .dataCorrupted: "dataCorrupted"
        @unknown default: "unknown"
        }
    }

    /// The full path of the failure, keys joined by dots; for a missing key, with the key.
    var fullPath: String {
        switch self {
        case .keyNotFound(let key, let context):
            (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.map(\.stringValue).joined(separator: ".")
        @unknown default:
            ""
        }
    }
}

extension MemoryDirectory {
    /// A directory whose journal holds `bytes`.
    convenience init(journal bytes: [UInt8]) throws {
        self.init(faults: nil)
        try createFile(named: Journal.fileName).write(bytes, at: 0)
    }
}

/// A small seeded random number generator, so that a failing random test can be run again.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
