import Foundation
import Testing

@testable import RecordCodable

/// An encoder keeps its engine for the next record of the same type, and empties it in place (see
/// `SpareEngines` and `RecordDraft.clear(startingFrom:allowsShortcut:)`). Whatever a record did —
/// threw midway, named itself badly, nested containers, wrote a superclass, left its layout — the
/// next record must come out exactly as a new engine writes it.
///
/// Each record here is a script of writes. One encoder, which keeps its engine, encodes each script
/// with one model type; a new encoder, whose engine is new, encodes it with a twin type. Their
/// records, or their errors, must be the same. A failure names its seed and round.
@Suite("Kept engines", .serialized)
struct KeptEngineTests {
    /// One write of a scripted record.
    enum Step: Sendable {
        case string(String)
        case int(String)
        case encodeNil(String)
        case absent(String)
        case encrypted(String)
        case identifier(String)
        case integerIdentifier, nilIdentifier, absentIdentifier
        case boolIdentifier, unnamableIdentifier, listIdentifier
        case metadata(String)
        case nestedKeyed(String)
        case nestedUnkeyed(String)
        case superEncoderForKey(String)
        case superclass(String)
        case secondKeyedContainer(String)
        case listOfOptionals(String)
        case strings(String)
        case mixedList(String)
        case listThenKeyed(String)
        case throwingList(String)
        case topLevelUnkeyed, fail
        /// A step whose error the model catches.
        indirect case caught(Step)

        static let keys = ["alpha", "bravoCharlie", "c", "aB", "a_b", "e1"]

        /// Every step, for every key.
        static let all: [Step] =
            keys.flatMap { key -> [Step] in
                [
                    .string(key), .int(key), .encodeNil(key), .absent(key), .encrypted(key), .nestedKeyed(key),
                    .nestedUnkeyed(key), .superEncoderForKey(key), .superclass(key), .secondKeyedContainer(key),
                    .listOfOptionals(key), .strings(key), .mixedList(key), .listThenKeyed(key),
                    .throwingList(key),
                ]
            } + [
                .identifier("rec-1"), .identifier("rec-2"), .integerIdentifier, .nilIdentifier, .absentIdentifier,
                .boolIdentifier, .unnamableIdentifier, .listIdentifier, .metadata("t1"), .metadata("t2"),
                .topLevelUnkeyed, .fail,
            ]
    }

    struct Failure: Error {}

    /// A list that throws after its first element.
    struct ThrowingList: Encodable {
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode("a")
            throw Failure()
        }
    }

    /// A list of two kinds of element, which is stored as JSON.
    struct MixedList: Encodable {
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode("a")
            try list.encode(2)
        }
    }

    /// Notes when the bytes of a `Data` are let go of.
    final class ReleaseFlag: @unchecked Sendable {
        var released = false
    }

    /// A value that begins a list and then asks for a keyed container, so that it is stored as JSON
    /// (where it writes a string): the list it began must not outlive its record.
    struct ListThenKeyed: Encodable {
        var data: Data
        func encode(to encoder: any Encoder) throws {
            guard !encoder.codingPath.isEmpty else {
                var single = encoder.singleValueContainer()
                return try single.encode("json")
            }
            var list = encoder.unkeyedContainer()
            try list.encode(data)
            _ = encoder.container(keyedBy: AnyCodingKey.self)
        }
    }

    /// A key of a superclass's own type, so that its fields are told from the class's.
    struct SuperclassKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A model that writes its script.
    protocol Scripted: Encodable {
        var steps: [Step] { get }
    }

    /// The model the encoder that keeps its engine encodes.
    struct KeptModel: Scripted { var steps: [Step] }
    /// Its twin, which a new encoder encodes.
    struct NewModel: Scripted { var steps: [Step] }

    /// What encoding gave, as text that does not depend on the model's type name or on a new UUID.
    static func outcome(_ encode: () throws -> Record) -> String {
        do {
            let record = try encode()
            let name = record.recordName.utf8.count == 36 ? "<uuid>" : record.recordName
            let fields = record.fields.keys.sorted().map { "\($0)=\(record.fields[$0].map { "\($0)" } ?? "")" }
            return "name=\(name) fields=\(fields) encrypted=\(record.encryptedFields.sorted()) "
                + "tag=\(record.metadata?.changeTag ?? "-") size=\(record.encodedSize)"
        } catch {
            return "error: " + "\(error)".replacingOccurrences(of: "NewModel", with: "KeptModel")
        }
    }

    /// An encoder with the options each test runs with, which it shares with no other encoder: an
    /// engine is kept for the encoder and its copies alone, so a new one always makes a new engine.
    static func encoder(_ options: Int) -> RecordEncoder {
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = 1_000_000
        switch options {
        case 1: encoder.keyEncodingStrategy = .convertToSnakeCase
        case 2: encoder.keyEncodingStrategy = .custom { AnyCodingKey(stringValue: "f_" + ($0.last?.stringValue ?? "")) }
        case 3: encoder.encryptedKeys = ["alpha", "c"]
        case 4: encoder.storesIdentifierAsField = true
        case 5: encoder.maximumRecordSize = 60
        case 6: encoder.identifierKey = "id"
        default: break
        }
        return encoder
    }

    /// Encodes each script with one encoder, which keeps its engine, and with a new one.
    static func expectSameRecords(options: Int, seed: UInt64, scripts: (inout RandomSource, Int) -> [Step]) {
        var random = RandomSource(seed: seed)
        let keeping = encoder(options)
        var mismatches = 0
        for round in 0..<2_000 {
            let steps = scripts(&random, round)
            let kept = outcome { try keeping.encode(KeptModel(steps: steps)) }
            let new = outcome { try encoder(options).encode(NewModel(steps: steps)) }
            guard kept != new else { continue }
            mismatches += 1
            if mismatches <= 3 {
                Issue.record("seed \(seed), round \(round), steps \(steps)\nkept: \(kept)\nnew:  \(new)")
            }
        }
        #expect(mismatches == 0)
    }

    /// Up to eight random writes, the first of which may fail and be caught.
    static func randomSteps(using random: inout RandomSource) -> [Step] {
        var steps = (0..<random.int(in: 0...8)).compactMap { _ in Step.all.randomElement(using: &random) }
        if random.int(in: 0...3) == 0, let step = Step.all.randomElement(using: &random) {
            steps.insert(.caught(step), at: 0)
        }
        return steps
    }

    @Test("Records of random writes come out of a kept engine as out of a new one", arguments: 0..<7)
    func randomWrites(options: Int) {
        Self.expectSameRecords(options: options, seed: 0xBEEF &+ UInt64(options)) { random, _ in
            Self.randomSteps(using: &random)
        }
    }

    @Test(
        "Records that mostly follow one key order, among random ones, come out of a kept engine as out of a new one",
        arguments: 0..<7)
    func mostlyInOrder(options: Int) {
        Self.expectSameRecords(options: options, seed: 0xF00D &+ UInt64(options)) { random, round in
            // A random record now and then teaches the engine another layout, keys written twice included.
            if random.int(in: 0...3) == 0 { return Self.randomSteps(using: &random) }
            var steps: [Step] = []
            if random.int(in: 0...4) != 0 {
                steps.append(random.int(in: 0...5) == 0 ? .nilIdentifier : .identifier("r\(round)"))
            }
            for key in ["alpha", "bravoCharlie", "c", "aB", "e1"] {
                switch random.int(in: 0...19) {
                case 0: steps.append(.encodeNil(key))
                case 1: steps.append(.absent(key))
                case 2: break
                case 3: steps.append(.int(key))
                case 4...6: steps.append(Step.all.randomElement(using: &random) ?? .fail)
                case 7: if random.int(in: 0...3) == 0 { steps.append(.fail) }
                default: steps.append(.string(key))
                }
            }
            return steps
        }
    }

    @Test("A kept engine lets go of a record's values, also of a list that a value began and gave up")
    func keptEngineHoldsNothingOfItsRecord() throws {
        struct Holder: Encodable {
            var id = "h-1"
            var payload: ListThenKeyed
        }
        let flag = ReleaseFlag()
        let encoder = RecordEncoder()
        do {
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)
            let data = Data(
                bytesNoCopy: bytes, count: 4096,
                deallocator: .custom { pointer, _ in
                    pointer.deallocate()
                    flag.released = true
                })
            let record = try encoder.encode(Holder(payload: ListThenKeyed(data: data)))
            #expect(record["payload"] == .bytes(Data(#""json""#.utf8)))
        }
        // The engine is kept for Holder's next record; the list's bytes must be gone already.
        #expect(flag.released)
        #expect(try encoder.encode(Holder(payload: ListThenKeyed(data: Data([1])))).recordName == "h-1")
    }
}

extension KeptEngineTests.Scripted {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for step in steps { try write(step, into: &container, of: encoder) }
    }

    private func write(
        _ step: KeptEngineTests.Step, into container: inout KeyedEncodingContainer<AnyCodingKey>,
        of encoder: any Encoder
    ) throws {
        func key(_ name: String) -> AnyCodingKey { AnyCodingKey(stringValue: name) }
        switch step {
        case .string(let name): try container.encode("v-" + name, forKey: key(name))
        case .int(let name): try container.encode(name.count, forKey: key(name))
        case .encodeNil(let name): try container.encodeNil(forKey: key(name))
        case .absent(let name): try container.encodeIfPresent(nil as String?, forKey: key(name))
        case .encrypted(let name): try container.encode(Encrypted(wrappedValue: "secret"), forKey: key(name))
        case .identifier(let name): try container.encode(name, forKey: key("id"))
        case .integerIdentifier: try container.encode(42, forKey: key("id"))
        case .nilIdentifier: try container.encodeNil(forKey: key("id"))
        case .absentIdentifier: try container.encodeIfPresent(nil as String?, forKey: key("id"))
        case .boolIdentifier: try container.encode(true, forKey: key("id"))
        case .unnamableIdentifier: try container.encode("bad/name\u{0}", forKey: key("id"))
        case .listIdentifier: try container.encode([1.5, 2.5], forKey: key("id"))
        case .metadata(let tag): try container.encode(RecordMetadata(changeTag: tag), forKey: key("meta"))
        case .nestedKeyed(let name):
            var nested = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key(name))
            try nested.encode(1, forKey: key("x"))
        case .nestedUnkeyed(let name):
            var nested = container.nestedUnkeyedContainer(forKey: key(name))
            try nested.encode("u")
        case .superEncoderForKey(let name):
            var nested = container.superEncoder(forKey: key(name)).container(keyedBy: AnyCodingKey.self)
            try nested.encode(2, forKey: key("y"))
        case .superclass(let name):
            var superclass = container.superEncoder().container(keyedBy: KeptEngineTests.SuperclassKey.self)
            try superclass.encode("S", forKey: KeptEngineTests.SuperclassKey(stringValue: name))
        case .secondKeyedContainer(let name):
            var second = encoder.container(keyedBy: KeptEngineTests.SuperclassKey.self)
            try second.encode("s", forKey: KeptEngineTests.SuperclassKey(stringValue: name))
        case .listOfOptionals(let name): try container.encode([1, nil, 3] as [Int?], forKey: key(name))
        case .strings(let name): try container.encode(["a", "b"], forKey: key(name))
        case .mixedList(let name): try container.encode(KeptEngineTests.MixedList(), forKey: key(name))
        case .listThenKeyed(let name):
            try container.encode(KeptEngineTests.ListThenKeyed(data: Data("a".utf8)), forKey: key(name))
        case .throwingList(let name): try container.encode(KeptEngineTests.ThrowingList(), forKey: key(name))
        case .topLevelUnkeyed: _ = encoder.unkeyedContainer()
        case .fail: throw KeptEngineTests.Failure()
        case .caught(let step):
            do { try write(step, into: &container, of: encoder) } catch {}
        }
    }
}
