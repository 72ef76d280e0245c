// The quick start: a model with every kind of field, encoded as a record and decoded back.
//
//     swift run quickstart
import Foundation
import RecordCodable

/// A member of a club: one property of every kind RecordCodable maps.
struct Member: Codable, Equatable, RecordRepresentable {
    static var recordType: String { "Member" }

    enum Level: String, RecordEnum {
        case bronze, silver, gold, unknown
        static var fallbackCase: Level { .unknown }
    }

    struct Preferences: Codable, Equatable {
        var newsletter: Bool
        var language: String
        var quietHours: ClosedRange<Int>
    }

    /// A long history, stored as a file beside the record so it never counts against the size limit.
    struct History: RecordAssetValue, Equatable {
        var visits: [Date]
    }

    var id: UUID
    var name: String
    var age: Int
    var height: Double
    var isActive: Bool
    var joined: Date
    var signature: Data
    var website: URL
    var portrait: URL
    var balance: Decimal
    var level: Level
    var nicknames: [String]
    var scores: [Int]
    var club: RecordReference
    var home: RecordLocation
    var preferences: Preferences
    var history: History
    var referrer: String?
    var metadata: RecordMetadata?
}

let member = Member(
    id: UUID(uuidString: "7C0F7E5A-1111-4B8E-9C3B-2D5A6F7E8A9B")!,
    name: "Ada Lovelace",
    age: 36,
    height: 1.65,
    isActive: true,
    joined: Date(timeIntervalSince1970: 1_699_920_000),
    signature: Data([0xCA, 0xFE]),
    website: URL(string: "https://example.com/ada")!,
    portrait: URL(fileURLWithPath: NSTemporaryDirectory() + "ada.png"),
    balance: Decimal(string: "1815.12")!,
    level: .gold,
    nicknames: ["Enchantress of Numbers"],
    scores: [98, 100],
    club: RecordReference(recordName: "analytical-society", action: .none),
    home: RecordLocation(latitude: 51.5072, longitude: -0.1276),
    preferences: .init(newsletter: true, language: "en", quietHours: 22...23),
    history: .init(visits: [Date(timeIntervalSince1970: 1_700_000_000.25)]),
    referrer: nil,
    metadata: nil)

do {
    let record = try RecordEncoder().encode(member)
    print("Record \(record.recordType) \(record.recordName), \(record.encodedSize) bytes")
    let width = record.fields.keys.map(\.count).max() ?? 0
    for (name, value) in record.fields.sorted(by: { $0.key < $1.key }) {
        let padding = String(repeating: " ", count: width - name.count)
        let typeName = value.typeName.padding(toLength: 12, withPad: " ", startingAt: 0)
        print("  \(name)\(padding)  \(typeName)  \(describe(value))")
    }
    let decoded = try RecordDecoder().decode(Member.self, from: record)
    print(decoded == member ? "Round trip held: the decoded member equals the original." : "Round trip FAILED.")
} catch {
    print("Error: \(error)")
    exit(1)
}

/// A short, readable form of a field's value.
func describe(_ value: RecordValue) -> String {
    switch value {
    case .string(let string): return "\"\(string)\""
    case .int64(let number): return String(number)
    case .double(let number): return String(number)
    case .bytes(let data):
        let text = String(decoding: data, as: UTF8.self)
        return text.hasPrefix("{") || text.hasPrefix("[") ? "JSON \(text)" : "\(data.count) raw bytes"
    case .date(let date): return date.formatted(.iso8601)
    case .asset(let asset): return asset.fileURL?.lastPathComponent ?? asset.downloadURL ?? "asset"
    case .reference(let reference): return "→ \(reference.recordName)"
    case .location(let location): return "\(location.latitude), \(location.longitude)"
    case .list(let elements): return "[" + elements.map(describe).joined(separator: ", ") + "]"
    }
}
