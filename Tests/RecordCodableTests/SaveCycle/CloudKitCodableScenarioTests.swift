import Foundation
import Testing

@testable import RecordCodable

/// The scenarios the closest existing library, CloudKitCodable, tests, held to this package's rules.
@Suite("CloudKitCodable scenarios")
struct CloudKitCodableScenarioTests {
    struct Person: Codable, Equatable {
        var id: String
        var name: String
        var age: Int
        var website: URL
        var avatar: URL
        var isDeveloper: Bool
    }

    static let person = Person(
        id: "rambo", name: "Guilherme Rambo", age: 26, website: URL(string: "https://rambo.codes")!,
        avatar: URL(fileURLWithPath: "/tmp/rambo.png"), isDeveloper: true)

    @Test("A person maps field by field")
    func personFieldByField() throws {
        let record = try roundTrip(Self.person)
        #expect(record.recordType == "Person")
        #expect(record.recordName == "rambo")
        #expect(
            record.fields == [
                "name": .string("Guilherme Rambo"),
                "age": .int64(26),
                "website": .string("https://rambo.codes"),
                "avatar": .asset(RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/rambo.png"))),
                "isDeveloper": .int64(1),
            ])
    }

    @Test("A custom identifier names the record")
    func customIdentifier() throws {
        struct Contact: Codable, Equatable {
            var handle: String
            var name: String
        }
        var encoder = RecordEncoder()
        encoder.identifierKey = "handle"
        var decoder = RecordDecoder()
        decoder.identifierKey = "handle"
        let record = try roundTrip(Contact(handle: "@rambo", name: "G"), encoder: encoder, decoder: decoder)
        #expect(record.recordName == "@rambo")
        #expect(record.fields == ["name": .string("G")])
    }

    enum Platform: String, Codable {
        case iOS, macOS
    }

    enum Rating: Int, Codable {
        case bad = 1
        case good = 5
    }

    struct App: Codable, Equatable {
        var id = "app"
        var platform: Platform
        var rating: Rating
        var secondaryPlatform: Platform?
        var previousRating: Rating?
    }

    @Test("String- and Int-backed enums, populated and nil")
    func enums() throws {
        let full = try roundTrip(App(platform: .iOS, rating: .good, secondaryPlatform: .macOS, previousRating: .bad))
        #expect(full["platform"] == .string("iOS"))
        #expect(full["rating"] == .int64(5))
        #expect(full["secondaryPlatform"] == .string("macOS"))
        #expect(full["previousRating"] == .int64(1))
        let sparse = try roundTrip(App(platform: .macOS, rating: .bad, secondaryPlatform: nil, previousRating: nil))
        #expect(sparse["secondaryPlatform"] == nil)
        #expect(sparse["previousRating"] == nil)
    }

    struct Pet: Codable, Equatable {
        var name: String
        var species: String
    }

    struct Owner: Codable, Equatable {
        var id = "owner"
        var pet: Pet
        var secondPet: Pet?
        var pets: [Pet]
    }

    @Test("A nested child, an optional child present and nil, and a collection of children")
    func children() throws {
        let pet = Pet(name: "Rex", species: "dog")
        let record = try roundTrip(Owner(pet: pet, secondPet: pet, pets: [pet, Pet(name: "Tom", species: "cat")]))
        #expect(record["pet"] == .bytes(Data(#"{"name":"Rex","species":"dog"}"#.utf8)))
        #expect(record["secondPet"] == record["pet"])
        #expect(
            record["pets"]
                == .bytes(Data(#"[{"name":"Rex","species":"dog"},{"name":"Tom","species":"cat"}]"#.utf8)))
        let none = try roundTrip(Owner(pet: pet, secondPet: nil, pets: []))
        #expect(none["secondPet"] == nil)
        #expect(none["pets"] == .list([]))
    }

    @Test("A raw Data field stays raw bytes, not JSON")
    func rawData() throws {
        struct Blob: Codable, Equatable {
            var id = "b"
            var payload: Data
        }
        let bytes = Data((0...255).map(UInt8.init))
        #expect(try roundTrip(Blob(payload: bytes))["payload"] == .bytes(bytes))
    }

    @Test("An asset value round-trips")
    func assetValue() throws {
        struct Drawing: RecordAssetValue, Equatable {
            var strokes: [[Double]]
        }
        struct Sketch: Codable, Equatable {
            var id = "s"
            var drawing: Drawing
        }
        var encoder = RecordEncoder()
        try withTemporaryDirectory { directory in
            encoder.assetDirectory = directory
            let record = try roundTrip(Sketch(drawing: Drawing(strokes: [[0, 1], [2.5, 3]])), encoder: encoder)
            guard case .asset? = record["drawing"] else {
                Issue.record("an asset value is an asset")
                return
            }
        }
    }

    @Test("A model with every kind of field round-trips")
    func everything() throws {
        var encoder = RecordEncoder()
        try withTemporaryDirectory { directory in
            encoder.assetDirectory = directory
            let record = try roundTrip(EveryKindModel.sample, encoder: encoder)
            #expect(record.fields.count == 17)
        }
    }
}
