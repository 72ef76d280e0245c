import Foundation

@testable import RecordCodable

/// A model with a property of every kind the package maps.
struct EveryKindModel: Codable, Equatable {
    enum Mood: String, RecordEnum {
        case happy, calm, unknown
        static var fallbackCase: Mood { .unknown }
    }

    struct Settings: Codable, Equatable {
        var theme: String
        var fontSize: Double
        var updated: Date
    }

    var id: UUID
    var name: String
    var age: Int
    var height: Double
    var weight: Float
    var isMember: Bool
    var joined: Date
    var avatar: Data
    var homepage: URL
    var photo: URL
    var balance: Decimal
    var mood: Mood
    var tags: [String]
    var scores: [Int]
    var friend: RecordReference
    var place: RecordLocation
    var file: RecordAsset
    var settings: Settings
    var nickname: String?
    var metadata: RecordMetadata?

    static let sample = EveryKindModel(
        id: UUID(uuidString: "7C0F7E5A-1111-4B8E-9C3B-2D5A6F7E8A9B")!,
        name: "Ada",
        age: 36,
        height: 1.68,
        weight: 58.5,
        isMember: true,
        joined: Date(timeIntervalSince1970: 1_699_920_000),
        avatar: Data([0, 1, 2, 255]),
        homepage: URL(string: "https://example.com/ada")!,
        photo: URL(fileURLWithPath: "/tmp/ada.png"),
        balance: Decimal(string: "1234.56")!,
        mood: .happy,
        tags: ["math", "engines"],
        scores: [3, 1, 4],
        friend: RecordReference(recordName: "charles", action: .none),
        place: RecordLocation(latitude: 51.5, longitude: -0.12),
        file: RecordAsset(fileChecksum: "abc", size: 3, downloadURL: "https://example.com/${f}"),
        settings: Settings(theme: "dark", fontSize: 14, updated: Date(timeIntervalSince1970: 1_699_920_000.000_1)),
        nickname: nil,
        metadata: nil)
}

/// A model of one property whose key is chosen at run time: for field names no Swift property has.
struct OneField<Value: Encodable>: Encodable {
    var name: String
    var value: Value

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(value, forKey: AnyCodingKey(stringValue: name))
    }
}
