import Foundation
import Testing

@testable import RecordCodable

/// The encoder learns each type's key order and fills the next records from it (see
/// `RecordFieldWriter`). Whatever order, gaps or repeats the records of one type have, each
/// record must hold exactly the fields written and know its exact size.
@Suite("Field layouts")
struct FieldLayoutTests {
    struct Profile: Codable, Equatable {
        var id = "p"
        var displayName = "Ada"
        var imageURL = URL(string: "https://example.com/a.png")!
        var userID = 7
    }

    @Test("One type encoded with default keys, then snake case, then default keys again gets each strategy's names")
    func strategiesKeepTheirOwnNames() throws {
        var snakeCase = RecordEncoder()
        snakeCase.keyEncodingStrategy = .convertToSnakeCase
        var prefixed = RecordEncoder()
        prefixed.keyEncodingStrategy = .custom { path in
            AnyCodingKey(stringValue: "f_" + (path.last?.stringValue ?? ""))
        }
        for _ in 0..<3 {
            #expect(
                try RecordEncoder().encode(Profile()).fields.keys.sorted() == ["displayName", "imageURL", "userID"])
            #expect(try snakeCase.encode(Profile()).fields.keys.sorted() == ["display_name", "image_url", "user_id"])
            #expect(try prefixed.encode(Profile()).fields.keys.sorted() == ["f_displayName", "f_imageURL", "f_userID"])
        }
    }

    struct Sparse: Codable, Equatable {
        var id = "s"
        var a: Int?
        var b: String?
        var c: Double?
        var d: Bool?
        var e: [Int]?
    }

    /// Every combination of present and absent optionals, so that records skip places of the
    /// layout at the start, in the middle and at the end, and leave out most or all of it.
    static let sparseModels: [Sparse] = (0..<32).map { mask in
        Sparse(
            a: mask & 1 != 0 ? 1 : nil, b: mask & 2 != 0 ? "two" : nil, c: mask & 4 != 0 ? 3.5 : nil,
            d: mask & 8 != 0 ? true : nil, e: mask & 16 != 0 ? [5, 5] : nil)
    }

    /// The fields a `Sparse` record holds: one for each property that is not `nil`.
    static func fields(of model: Sparse) -> [String: RecordValue] {
        [
            "a": model.a.map { RecordValue.int64(Int64($0)) }, "b": model.b.map(RecordValue.string),
            "c": model.c.map(RecordValue.double), "d": model.d.map { RecordValue.int64($0 ? 1 : 0) },
            "e": model.e.map { RecordValue.list($0.map { .int64(Int64($0)) }) },
        ]
        .compactMapValues { $0 }
    }

    @Test("Optional properties that come and go from record to record")
    func optionalsComeAndGo() throws {
        var random = RandomSource(seed: 0x1A70_0001)
        for round in 0..<4 {
            // Fullest first, emptiest first, then twice in a random order.
            let models =
                switch round {
                case 0: Array(Self.sparseModels.reversed())
                case 1: Self.sparseModels
                default: Self.sparseModels.shuffled(using: &random)
                }
            for model in models {
                let record = try roundTrip(model)
                #expect(record.fields == Self.fields(of: model))
                try expectExactSize(model, record: record)
            }
        }
    }

    @Test(
        "Keys in any order, skipped, repeated or set to nil give the fields a dictionary filled in that order",
        arguments: ["default", "snake case", "custom"])
    func scriptedKeys(strategy: String) throws {
        var encoder = RecordEncoder()
        let fieldName: (String) -> String
        switch strategy {
        case "snake case":
            encoder.keyEncodingStrategy = .convertToSnakeCase
            fieldName = SnakeCase.fromCamelCase
        case "custom":
            encoder.keyEncodingStrategy = .custom { path in
                AnyCodingKey(stringValue: "f_" + (path.last?.stringValue ?? ""))
            }
            fieldName = { "f_" + $0 }
        default:
            fieldName = { $0 }
        }
        var random = RandomSource(seed: 0x1A70_0002)
        for iteration in 0..<400 {
            let model = Scripted(steps: Scripted.randomSteps(using: &random))
            var expected: [String: RecordValue] = [:]
            // Two keys the strategy stores in one field are an error at the second one.
            var keysByField: [String: String] = [:]
            var joinedKey: String?
            for step in model.steps {
                let name = fieldName(step.key)
                if let other = keysByField.updateValue(step.key, forKey: name), other != step.key, joinedKey == nil {
                    joinedKey = step.key
                }
                expected[name] = step.value.map(RecordValue.string)
            }
            if let joinedKey {
                expectEncodingError(at: joinedKey) { _ = try encoder.encode(model) }
                continue
            }
            let record = try encoder.encode(model)
            #expect(record.fields == expected, "iteration \(iteration): \(model.steps)")
            try expectExactSize(model, record: record, encoder: encoder)
        }
    }

    @Test("A record that leaves most of its type's layout empty turns the type's prepared dictionary off")
    func sparseRecordsTurnTheTemplateOff() throws {
        /// Writes the keys `k0` up to `count`: one type whose records differ in size.
        struct Numbered: Encodable {
            var count: Int

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyCodingKey.self)
                for index in 0..<count { try container.encode(index, forKey: AnyCodingKey(stringValue: "k\(index)")) }
            }
        }
        func template() -> [String: RecordValue]? {
            ModelTypes.info(of: Numbered.self).layout(for: .useDefaultKeys)?.template
        }
        let encoder = RecordEncoder()
        #expect(try encoder.encode(Numbered(count: 40)).fields.count == 40)
        #expect(template()?.count == 40)
        // A few keys left out: the template stays.
        #expect(try encoder.encode(Numbered(count: 30)).fields.count == 30)
        #expect(template()?.count == 40)
        // Most keys left out: the type's records are written key by key from now on.
        #expect(try encoder.encode(Numbered(count: 10)).fields.count == 10)
        #expect(template() == nil)
        #expect(ModelTypes.info(of: Numbered.self).layout(for: .useDefaultKeys)?.fields.count == 40)
        for count in [40, 50, 0, 25] {
            let record = try encoder.encode(Numbered(count: count))
            #expect(
                record.fields == Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", .int64(Int64($0))) }))
        }
        #expect(template() == nil)
    }

    @Test("Records of one type encoded from many tasks at once hold their own fields")
    func concurrentRecordsOfOneType() async throws {
        let encoder = RecordEncoder()
        let models = Self.sparseModels
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var allMatch = true
                    for index in 0..<400 {
                        let model = models[(index &* 7 &+ task) % models.count]
                        let record = try encoder.encode(model)
                        allMatch = allMatch && record.fields == Self.fields(of: model)
                    }
                    return allMatch
                }
            }
            for try await allMatch in group { #expect(allMatch) }
        }
    }

    /// Checks that the size the encoder kept as fields were written is the record's
    /// ``Record/encodedSize``: a limit of exactly that size passes, one byte less does not.
    private func expectExactSize(
        _ model: some Encodable, record: Record, encoder: RecordEncoder = RecordEncoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var limited = encoder
        limited.maximumRecordSize = record.encodedSize
        #expect(try limited.encode(model) == record, sourceLocation: sourceLocation)
        guard record.encodedSize > 0 else { return }
        limited.maximumRecordSize = record.encodedSize - 1
        #expect(sourceLocation: sourceLocation) {
            try limited.encode(model)
        } throws: { error in
            guard case .recordTooLarge(let size, _, _)? = error as? RecordEncodingError else { return false }
            return size == record.encodedSize
        }
    }

    /// Writes the keys it is given in order: "nil" with `encodeNil(forKey:)`, "[key]" as a nested
    /// unkeyed container, any other as text.
    struct Writes: Encodable {
        var keys: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for key in keys {
                if key.hasPrefix("nil ") {
                    try container.encodeNil(forKey: AnyCodingKey(stringValue: String(key.dropFirst(4))))
                } else if key.hasPrefix("[") {
                    var list = container.nestedUnkeyedContainer(
                        forKey: AnyCodingKey(stringValue: key.trimmingCharacters(in: ["[", "]"])))
                    try list.encode(1)
                } else {
                    try container.encode("v", forKey: AnyCodingKey(stringValue: key))
                }
            }
        }
    }

    @Test("A nested container after nil for a key, in a layout that holds the key twice, is no misuse")
    func nestedContainerAfterNilInLayoutWithRepeatedKey() throws {
        let encoder = RecordEncoder()
        // The first record teaches the layout [a, b, a]; the second writes a, then nil for a at its
        // second place, then a nested container for a: as without a layout, nil left no value.
        _ = try encoder.encode(Writes(keys: ["a", "b", "a"]))
        for _ in 0..<2 {
            #expect(
                try encoder.encode(Writes(keys: ["a", "b", "nil a", "[a]"])).fields == [
                    "a": .list([.int64(1)]), "b": .string("v"),
                ])
        }
    }

    @Test("A nested container for a field that another key wrote is the same misuse with a layout as without")
    func nestedContainerForFieldOfAnotherKey() throws {
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // Records that teach the layout [aB]: `aB` writes field `a_b`.
        for _ in 0..<2 { _ = try encoder.encode(Writes(keys: ["aB"])) }
        // The key `a_b` then asks for a nested container of the same field.
        let model = Writes(keys: ["aB", "[a_b]"])
        for _ in 0..<2 {
            let error = expectEncodingError(at: "a_b") { _ = try encoder.encode(model) }
            #expect(
                error?.context?.debugDescription
                    == "Cannot create an unkeyed container for key 'a_b': a value was already encoded for it.")
        }
    }

    /// A model of two fields, whose layout the test below teaches the encoder.
    struct Pair: Encodable {
        var id = "pair-1"
        var a = "A"
        var b = 2
    }

    @Test("A value stored as the layout's next where the layout has no place for it is stored by name, not lost")
    func expectedValueWithoutPlace() throws {
        let encoder = RecordEncoder()
        // Two records teach the layout [a, b] and give it a template.
        for _ in 0..<2 { _ = try encoder.encode(Pair()) }
        let engine = RecordEncodingEngine(options: encoder, typeInfo: ModelEncodingInfo.of(Pair.self), graph: nil)
        #expect(engine.expects("a"))
        try engine.storeExpected(.string("A"), size: 1, keyName: "a")
        try engine.storeExpected(.int64(2), size: 8, keyName: "b")
        // The broken state: the layout ends, and nothing expects these keys. Each value is stored
        // by its role, as without a layout: a field, and the identifier, which names the record.
        #expect(!engine.expects("c"))
        try engine.storeExpected(.string("C"), size: 1, keyName: "c")
        try engine.storeExpected(.string("pair-2"), size: 6, keyName: "id")
        let record = try engine.finish(encoding: Pair())
        #expect(record.recordName == "pair-2")
        // (The writer checks, in debug builds, that the size it kept is the fields' own.)
        #expect(record.fields == ["a": .string("A"), "b": .int64(2), "c": .string("C")])
    }

    @Test("A value stored as expected by a record without a layout is stored by name, not lost")
    func expectedValueWithoutLayout() throws {
        struct Unseen: Encodable {}
        let engine = RecordEncodingEngine(
            options: RecordEncoder(), typeInfo: ModelEncodingInfo.of(Unseen.self), graph: nil)
        try engine.storeExpected(.string("Ada"), size: 3, keyName: "name")
        #expect(try engine.finish(encoding: Unseen()).fields == ["name": .string("Ada")])
    }

    @Test("A nested container for a key already written is an error also after a record that wrote a key twice")
    func misusedNestedContainerAfterRepeatedKey() throws {
        /// The first record writes `a` twice, which the type's layout then holds at two places; the
        /// second writes `a` at the second place, then asks for a nested container for it.
        struct Twice: Encodable {
            var first: Bool
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyCodingKey.self)
                let a = AnyCodingKey(stringValue: "a")
                if first { try container.encode("one", forKey: a) }
                try container.encode("b", forKey: AnyCodingKey(stringValue: "b"))
                try container.encode("two", forKey: a)
                if !first { _ = container.nestedUnkeyedContainer(forKey: a) }
            }
        }
        let encoder = RecordEncoder()
        #expect(try encoder.encode(Twice(first: true)).fields == ["a": .string("two"), "b": .string("b")])
        let error = expectEncodingError(at: "a") { _ = try encoder.encode(Twice(first: false)) }
        #expect(
            error?.context?.debugDescription
                == "Cannot create an unkeyed container for key 'a': a value was already encoded for it.")
    }
}

/// A model that writes the keys it is given, in the order given: a `nil` value is written with
/// `encodeNil(forKey:)`. Every instance is one type, so its records share what the encoder learns.
private struct Scripted: Encodable {
    var steps: [(key: String, value: String?)]

    /// Keys whose snake-case forms collide (`userID`, `user_id`: an error) or not, of several
    /// lengths.
    static let keys = ["a", "b", "displayName", "imageURL", "userID", "user_id", "count", "aLongerKeyNameThanMost"]

    /// Mostly the keys in one order with some left out, as models write them; sometimes shuffled,
    /// repeated, or set to nil, as hand-written `encode(to:)` methods and dictionaries do.
    static func randomSteps(using random: inout RandomSource) -> [(key: String, value: String?)] {
        var keys = Self.keys.filter { _ in random.int(in: 0...9) < 8 }
        if random.int(in: 0...3) == 0 { keys.shuffle(using: &random) }
        if random.int(in: 0...5) == 0, let repeated = keys.randomElement(using: &random) {
            keys.insert(repeated, at: random.int(in: 0...keys.count))
        }
        return keys.map { key in
            (key, random.int(in: 0...9) == 0 ? nil : String(repeating: "v", count: random.int(in: 0...20)))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode("scripted", forKey: AnyCodingKey(stringValue: "id"))
        for (key, value) in steps {
            if let value {
                try container.encode(value, forKey: AnyCodingKey(stringValue: key))
            } else {
                try container.encodeNil(forKey: AnyCodingKey(stringValue: key))
            }
        }
    }
}
