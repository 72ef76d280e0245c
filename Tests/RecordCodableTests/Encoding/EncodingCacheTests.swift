import Foundation
import Testing

@testable import RecordCodable

/// The encoder's speed machinery — engines kept from record to record, layouts learned from a
/// type's records, and the shortcut that writes a key the layout expects without asking its role —
/// sits beneath the rules of what a property becomes (`PropertyRoles`) as a cache. Switched off
/// (`RecordEncoder.usesEncodingCaches`), every record and every error must be the same.
///
/// Each model of the suite is encoded three times in a row by an encoder with its caches on, so
/// that the later records start from a learned layout in a kept engine, and once by an encoder with
/// them off; under each set of options the other tests use.
@Suite("Encoding caches", .serialized)
struct EncodingCacheTests {
    /// What encoding gave: the records, or the error's description.
    enum Outcome: Equatable {
        case records([Record])
        case error(String)

        init(_ encode: () throws -> [Record]) {
            do {
                // A model without an identifier gets a new UUID each time.
                self = .records(
                    try encode().map { record in
                        var record = record
                        if UUID(uuidString: record.recordName) != nil { record.recordName = "<uuid>" }
                        return record
                    })
            } catch {
                self = .error("\(error)")
            }
        }
    }

    /// The options of the other tests: default keys, snake case, a custom strategy, encrypted
    /// keys, the identifier kept as a field, a small size limit, another identifier key or none.
    static func encoder(_ options: Int, assets: URL) -> RecordEncoder {
        var encoder = RecordEncoder()
        encoder.assetDirectory = assets
        switch options {
        case 1: encoder.keyEncodingStrategy = .convertToSnakeCase
        case 2: encoder.keyEncodingStrategy = .custom { AnyCodingKey(stringValue: "f_" + ($0.last?.stringValue ?? "")) }
        case 3: encoder.encryptedKeys = ["pin", "title", "id", "alpha", "c", "a"]
        case 4: encoder.storesIdentifierAsField = true
        case 5: encoder.maximumRecordSize = 200
        case 6: encoder.identifierKey = "name"
        case 7: encoder.identifierKey = nil
        default: break
        }
        return encoder
    }

    static let optionSets = 0..<8

    /// A model of the suite, and how it is encoded: alone, or with the models it links to.
    struct Model {
        var label: String
        var encode: (RecordEncoder) throws -> [Record]

        init(_ label: String, _ value: some Encodable) {
            self.label = label
            encode = { [try $0.encode(value)] }
        }

        init(graph label: String, _ value: some Encodable) {
            self.label = label + " (graph)"
            encode = { try $0.encodeGraph(value) }
        }
    }

    /// The models of the other tests, their misuses included.
    static func models() -> [Model] {
        typealias Linked = LinkedRecordTests
        var random = RandomSource(seed: PropertyTests.seed &+ 77)
        var models: [Model] = [
            Model("EveryKindModel", EveryKindModel.sample),
            Model("Profile", FieldLayoutTests.Profile()),
            Model("Note", IdentityTests.Note(id: "N1", title: "Hello")),
            Model("Note, unnamable", IdentityTests.Note(id: "_hidden", title: "Hello")),
            Model("Note, empty name", IdentityTests.Note(id: "", title: "Hello")),
            Model("Synced", IdentityTests.Synced(id: "s1", title: "Hi", metadata: IdentityTests.metadata)),
            Model("Synced, no metadata", IdentityTests.Synced(id: "s1", title: "Hi", metadata: nil)),
            Model("WrappedID", OneField(name: "id", value: IdentityTests.WrappedID("w-1"))),
            Model("key strategy Profile", KeyStrategyTests.profile),
            Model(
                "Customer",
                NestedValueTests.Customer(
                    address: NestedValueTests.address, previous: NestedValueTests.address,
                    history: [NestedValueTests.address])),
            Model("Payload, keyed", OneField(name: "p", value: NestedValueTests.Payload.named("n"))),
            Model("Payload, top level", NestedValueTests.Payload.raw(Data([1, 2]))),
            Model("EveryInteger, lowest", PrimitiveTests.EveryInteger.lowest),
            Model("EveryInteger, highest", PrimitiveTests.EveryInteger.highest),
            Model("integer identifier over Int64", OneField(name: "id", value: UInt64.max)),
            Model("integer field over Int64", OneField(name: "n", value: UInt64.max)),
            Model("Bool identifier", OneField(name: "id", value: true)),
            Model("list identifier", OneField(name: "id", value: [1, 2])),
            Model("metadata under the identifier key", OneField(name: "id", value: IdentityTests.metadata)),
            Model("Account", EncryptedTests.account),
            Model("encrypted Int", EncryptedTests.Secret(value: 5)),
            Model("encrypted references", EncryptedTests.Secret(value: [RecordReference(recordName: "r")])),
            Model("Task", EnumTests.task),
            Model("Episode", AssetValueTests.Episode(id: "e1", title: "One", transcript: AssetValueTests.transcript)),
            Model("Post", Linked.post),
            Model(graph: "Post", Linked.post),
            Model(graph: "Board", Linked.Board(id: "b", note: Linked.AnonymousNote(text: "hi"))),
            Model("IdentifierAfterKeyed", ContainerTests.IdentifierAfterKeyed()),
        ]
        models += FieldLayoutTests.sparseModels.enumerated().map { Model("Sparse \($0.offset)", $0.element) }
        models += ContainerTests.Rewrite.allCases.map { Model("Rewrite \($0)", $0) }
        models += HandWrittenConformanceTests.FirstWrite.allCases.map {
            Model("FirstWrite \($0)", HandWrittenConformanceTests.FirstWriteHolder(value: $0))
        }
        models += (0..<100).map {
            Model("ContainerScript \($0)", ContainerTests.ContainerScript.random(using: &random))
        }
        models += (0..<100).map { Model("Everything \($0)", Everything.random(using: &random, forWire: false)) }
        return models
    }

    @Test(
        "The suite's models encode to the same records, or errors, with the encoder's caches off", arguments: optionSets
    )
    func suiteModels(options: Int) {
        withTemporaryDirectory { assets in
            var uncached = Self.encoder(options, assets: assets)
            uncached.usesEncodingCaches = false
            let cached = Self.encoder(options, assets: assets)
            for model in Self.models() {
                let expected = Outcome { try model.encode(uncached) }
                for round in 0..<3 {
                    let outcome = Outcome { try model.encode(cached) }
                    #expect(outcome == expected, "options \(options), \(model.label), round \(round)")
                }
            }
        }
    }

    @Test("Records of random writes, misuses included, are the same with the encoder's caches off", arguments: 0..<7)
    func scriptedRecords(options: Int) {
        var random = RandomSource(seed: 0xCAFE &+ UInt64(options))
        let cached = KeptEngineTests.encoder(options)
        var uncached = KeptEngineTests.encoder(options)
        uncached.usesEncodingCaches = false
        var mismatches = 0
        for round in 0..<1_000 {
            // Mostly one order of keys, which the cached encoder learns, and now and then another.
            let steps =
                random.int(in: 0...3) == 0
                ? KeptEngineTests.randomSteps(using: &random)
                : [.identifier("r\(round)"), .string("alpha"), .int("c"), .string("e1")]
                    + (random.bool() ? KeptEngineTests.randomSteps(using: &random) : [])
            let model = KeptEngineTests.KeptModel(steps: steps)
            let outcome = KeptEngineTests.outcome { try cached.encode(model) }
            let expected = KeptEngineTests.outcome { try uncached.encode(model) }
            guard outcome != expected else { continue }
            mismatches += 1
            if mismatches <= 3 {
                Issue.record(
                    "options \(options), round \(round), steps \(steps)\ncached:   \(outcome)\nuncached: \(expected)")
            }
        }
        #expect(mismatches == 0)
    }

    @Test("With the caches off, no engine is kept and no layout is learned")
    func cachesOff() throws {
        struct Unseen: Encodable {
            var id = "u"
            var title = "t"
        }
        var encoder = RecordEncoder()
        encoder.usesEncodingCaches = false
        for _ in 0..<2 { _ = try encoder.encode(Unseen()) }
        #expect(ModelEncodingInfo.of(Unseen.self).layout(for: .useDefaultKeys) == nil)
        #expect(SpareEngines.take(for: Unseen.self, options: encoder) == nil)
    }
}
