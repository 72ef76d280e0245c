import Foundation
import Testing

@testable import RecordCodable

/// Every part of the `Encoder` and `Decoder` API, which hand-written `Codable` conformances use.
@Suite("Containers")
struct ContainerTests {
    // MARK: Class hierarchies

    class Animal: Codable {
        var id: String
        var name: String

        init(id: String, name: String) {
            self.id = id
            self.name = name
        }

        private enum CodingKeys: String, CodingKey { case id, name }
    }

    final class Dog: Animal, Equatable {
        var breed: String

        init(id: String, name: String, breed: String) {
            self.breed = breed
            super.init(id: id, name: name)
        }

        private enum CodingKeys: String, CodingKey { case breed }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            breed = try container.decode(String.self, forKey: .breed)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(breed, forKey: .breed)
            try super.encode(to: encoder)
        }

        static func == (lhs: Dog, rhs: Dog) -> Bool {
            lhs.id == rhs.id && lhs.name == rhs.name && lhs.breed == rhs.breed
        }
    }

    @Test("A subclass and its superclass write one flat record through the same encoder")
    func classHierarchyOnTheSameEncoder() throws {
        let record = try roundTrip(Dog(id: "d1", name: "Rex", breed: "Collie"))
        #expect(record.recordName == "d1")
        #expect(record.fields == ["name": .string("Rex"), "breed": .string("Collie")])
        #expect(record.recordType == "Dog")
    }

    final class Cat: Animal, Equatable {
        var lives: Int

        init(id: String, name: String, lives: Int) {
            self.lives = lives
            super.init(id: id, name: name)
        }

        private enum CodingKeys: String, CodingKey { case lives }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            lives = try container.decode(Int.self, forKey: .lives)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(lives, forKey: .lives)
            try super.encode(to: container.superEncoder())
        }

        static func == (lhs: Cat, rhs: Cat) -> Bool {
            lhs.id == rhs.id && lhs.name == rhs.name && lhs.lives == rhs.lives
        }
    }

    @Test("superEncoder() and superDecoder() share the record")
    func superEncoderSharesTheRecord() throws {
        let record = try roundTrip(Cat(id: "c1", name: "Tom", lives: 9))
        #expect(record.recordName == "c1")
        #expect(record.fields == ["name": .string("Tom"), "lives": .int64(9)])
    }

    /// A class whose key writes the field its superclass's `name` writes, before or after
    /// handing the record to its superclass.
    final class Nicknamed: Animal {
        var nickname: String
        let superclassFirst: Bool

        init(id: String, name: String, nickname: String, superclassFirst: Bool) {
            self.nickname = nickname
            self.superclassFirst = superclassFirst
            super.init(id: id, name: name)
        }

        private enum CodingKeys: String, CodingKey { case nickname = "name" }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            nickname = try container.decode(String.self, forKey: .nickname)
            superclassFirst = false
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if superclassFirst { try super.encode(to: container.superEncoder()) }
            try container.encode(nickname, forKey: .nickname)
            if !superclassFirst { try super.encode(to: container.superEncoder()) }
        }
    }

    @Test(
        "A class and its superclass that write one field through superEncoder() are an error, not a value lost",
        arguments: [false, true])
    func superclassFieldCollision(superclassFirst: Bool) throws {
        let model = Nicknamed(id: "n", name: "Thomas", nickname: "Tom", superclassFirst: superclassFirst)
        let encoder = RecordEncoder()
        // Twice: the second record follows the layout the first taught, until the superclass's turn.
        for _ in 0..<2 {
            let error = expectEncodingError(at: "name") { _ = try encoder.encode(model) }
            #expect(error?.debugDescription.contains("A class and its superclass both write field 'name'") == true)
        }
        // Foundation's encoder nests the superclass under "super", so both values survive there.
        let json = try JSONDecoder().decode(Nicknamed.self, from: JSONEncoder().encode(model))
        #expect(json.name == "Thomas" && json.nickname == "Tom")
    }

    @Test("A class and its superclass through superEncoder(), record after record: one flat record each time")
    func superclassesRecordAfterRecord() throws {
        let encoder = RecordEncoder()
        for lives in 1...3 {
            let record = try encoder.encode(Cat(id: "c\(lives)", name: "Tom", lives: lives))
            #expect(record.fields == ["name": .string("Tom"), "lives": .int64(Int64(lives))])
            #expect(
                try RecordDecoder().decode(Cat.self, from: record) == Cat(id: "c\(lives)", name: "Tom", lives: lives))
        }
    }

    final class Bird: Animal, Equatable {
        var wingspan: Double

        init(id: String, name: String, wingspan: Double) {
            self.wingspan = wingspan
            super.init(id: id, name: name)
        }

        private enum CodingKeys: String, CodingKey { case wingspan, parent }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            wingspan = try container.decode(Double.self, forKey: .wingspan)
            try super.init(from: container.superDecoder(forKey: .parent))
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(wingspan, forKey: .wingspan)
            try super.encode(to: container.superEncoder(forKey: .parent))
        }

        static func == (lhs: Bird, rhs: Bird) -> Bool {
            lhs.id == rhs.id && lhs.name == rhs.name && lhs.wingspan == rhs.wingspan
        }
    }

    @Test("superEncoder(forKey:) stores the superclass as a nested value under its key")
    func superEncoderForKey() throws {
        let record = try roundTrip(Bird(id: "b1", name: "Tweety", wingspan: 0.2))
        #expect(record["wingspan"] == .double(0.2))
        #expect(record["parent"] == .bytes(Data(#"{"id":"b1","name":"Tweety"}"#.utf8)))
        #expect(UUID(uuidString: record.recordName) != nil)
    }

    @Test("superEncoder(forKey:) with a single value stores a native field")
    func superEncoderForKeySingleValue() throws {
        struct Model: Codable, Equatable {
            var id = "m"
            var count: Int
            enum CodingKeys: String, CodingKey { case id, count }
            init(count: Int) { self.count = count }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(String.self, forKey: .id)
                count = try container.superDecoder(forKey: .count).singleValueContainer().decode(Int.self)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                var single = container.superEncoder(forKey: .count).singleValueContainer()
                try single.encode(count)
            }
        }
        #expect(try roundTrip(Model(count: 3))["count"] == .int64(3))
    }

    // MARK: Nested containers

    struct Flattened: Codable, Equatable {
        var id: String
        var width: Double
        var height: Double
        var scores: [Int]
        var labels: [String?]
        var createdAt: Date

        enum CodingKeys: String, CodingKey { case id, size, scores, labels }
        enum SizeKeys: String, CodingKey { case width, height, createdAt, inner }
        enum InnerKeys: String, CodingKey { case flag }

        init(id: String, width: Double, height: Double, scores: [Int], labels: [String?], createdAt: Date) {
            self.id = id
            self.width = width
            self.height = height
            self.scores = scores
            self.labels = labels
            self.createdAt = createdAt
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            let size = try container.nestedContainer(keyedBy: SizeKeys.self, forKey: .size)
            width = try size.decode(Double.self, forKey: .width)
            height = try size.decode(Double.self, forKey: .height)
            createdAt = try size.decode(Date.self, forKey: .createdAt)
            let inner = try size.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            _ = try inner.decode(Bool.self, forKey: .flag)
            var scoresContainer = try container.nestedUnkeyedContainer(forKey: .scores)
            var scores: [Int] = []
            while !scoresContainer.isAtEnd { scores.append(try scoresContainer.decode(Int.self)) }
            self.scores = scores
            var labelsContainer = try container.nestedUnkeyedContainer(forKey: .labels)
            var labels: [String?] = []
            while !labelsContainer.isAtEnd {
                labels.append(try labelsContainer.decodeNil() ? nil : try labelsContainer.decode(String.self))
            }
            self.labels = labels
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            var size = container.nestedContainer(keyedBy: SizeKeys.self, forKey: .size)
            try size.encode(width, forKey: .width)
            try size.encode(height, forKey: .height)
            try size.encode(createdAt, forKey: .createdAt)
            var inner = size.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            try inner.encode(true, forKey: .flag)
            var scoresContainer = container.nestedUnkeyedContainer(forKey: .scores)
            for score in scores { try scoresContainer.encode(score) }
            var labelsContainer = container.nestedUnkeyedContainer(forKey: .labels)
            for label in labels {
                if let label { try labelsContainer.encode(label) } else { try labelsContainer.encodeNil() }
            }
        }
    }

    static let flattened = Flattened(
        id: "f", width: 2, height: 3.5, scores: [1, 2, 3], labels: ["a", nil],
        createdAt: Date(timeIntervalSince1970: 12.000_000_3))

    @Test("Nested containers are stored like the values they hold")
    func nestedContainers() throws {
        let record = try roundTrip(Self.flattened)
        #expect(record["scores"] == .list([.int64(1), .int64(2), .int64(3)]))
        #expect(record["labels"] == .bytes(Data(#"["a",null]"#.utf8)))
        guard case .bytes(let size)? = record["size"] else {
            Issue.record("a nested keyed container is JSON")
            return
        }
        let text = String(decoding: size, as: UTF8.self)
        #expect(text.hasPrefix(#"{"createdAt":"#))
        #expect(text.hasSuffix(#""height":3.5,"inner":{"flag":true},"width":2}"#))
    }

    @Test("Errors inside nested containers carry the field's path")
    func nestedContainerErrors() throws {
        var record = try RecordEncoder().encode(Self.flattened)
        record["size"] = .bytes(Data(#"{"width":"wide","height":1,"createdAt":0,"inner":{"flag":true}}"#.utf8))
        expectDecodingError("typeMismatch", at: "size.width") {
            _ = try RecordDecoder().decode(Flattened.self, from: record)
        }
        record["size"] = .bytes(Data(#"{"width":1,"height":1,"createdAt":0,"inner":{"flag":3}}"#.utf8))
        expectDecodingError("typeMismatch", at: "size.inner.flag") {
            _ = try RecordDecoder().decode(Flattened.self, from: record)
        }
        record["size"] = .bytes(Data(#"{"width":1,"height":1,"createdAt":0}"#.utf8))
        expectDecodingError("keyNotFound", at: "size.inner") {
            _ = try RecordDecoder().decode(Flattened.self, from: record)
        }
        record = try RecordEncoder().encode(Self.flattened)
        record["scores"] = .list([.int64(1), .string("two")])
        expectDecodingError("typeMismatch", at: "scores.Index 1") {
            _ = try RecordDecoder().decode(Flattened.self, from: record)
        }
        record = try RecordEncoder().encode(Self.flattened)
        record["size"] = nil
        expectDecodingError("keyNotFound", at: "size") { _ = try RecordDecoder().decode(Flattened.self, from: record) }
        record = try RecordEncoder().encode(Self.flattened)
        record["size"] = .int64(1)
        expectDecodingError("typeMismatch", at: "size") { _ = try RecordDecoder().decode(Flattened.self, from: record) }
    }

    @Test("Coding paths seen by a model inside nested containers start at the record")
    func codingPathsInsideNestedContainers() throws {
        struct PathRecorder: Codable, Equatable {
            var id = "p"
            enum Keys: String, CodingKey { case id, outer }
            enum Inner: String, CodingKey { case leaf }
            init() {}
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                let outer = try container.nestedContainer(keyedBy: Inner.self, forKey: .outer)
                #expect(pathText(outer.codingPath) == "outer")
                let leaf = try outer.superDecoder(forKey: .leaf)
                #expect(pathText(leaf.codingPath) == "outer.leaf")
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(id, forKey: .id)
                var outer = container.nestedContainer(keyedBy: Inner.self, forKey: .outer)
                #expect(pathText(outer.codingPath) == "outer")
                try outer.encode(1, forKey: .leaf)
            }
        }
        try roundTrip(PathRecorder())
    }

    // MARK: A key written more than once

    /// Writes one key of a record more than once, through nested containers, `superEncoder(forKey:)`
    /// or plain values, as each case says.
    enum Rewrite: String, CaseIterable, Encodable, Sendable {
        case keyedTwice, keyedTwiceInside, unkeyedTwice, unkeyedTwiceInside
        case valueAfterKeyed, superEncoderAfterUnkeyed, keyedAfterSuperEncoder
        // Misuses, which Foundation's JSON encoder stops the program for.
        case unkeyedAfterKeyed, keyedAfterUnkeyed, unkeyedAfterKeyedInside, singleTwice, keyedAfterSingle
        case unkeyedAfterSingle, nilAfterSingle, unkeyedAfterValue, keyedAfterValue, keyedAfterValueInside
        case unkeyedAfterNil, unkeyedAfterIdentifier

        enum Keys: String, CodingKey { case id, a, b, x, y }

        func encode(to encoder: any Encoder) throws {
            var record = encoder.container(keyedBy: Keys.self)
            try record.encode("r1", forKey: .id)
            switch self {
            case .keyedTwice:
                var first = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try first.encode(1, forKey: .x)
                var second = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try second.encode(2, forKey: .y)
            case .keyedTwiceInside:
                var outer = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                var first = outer.nestedContainer(keyedBy: Keys.self, forKey: .b)
                try first.encode(1, forKey: .x)
                var second = outer.nestedContainer(keyedBy: Keys.self, forKey: .b)
                try second.encode(2, forKey: .y)
            case .unkeyedTwice:
                var first = record.nestedUnkeyedContainer(forKey: .a)
                try first.encode(1)
                var second = record.nestedUnkeyedContainer(forKey: .a)
                try second.encode(2)
            case .unkeyedTwiceInside:
                var outer = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                var first = outer.nestedUnkeyedContainer(forKey: .b)
                try first.encode("p")
                var second = outer.nestedUnkeyedContainer(forKey: .b)
                try second.encode("q")
            case .valueAfterKeyed:
                var nested = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try nested.encode(1, forKey: .x)
                try record.encode(5, forKey: .a)
            case .superEncoderAfterUnkeyed:
                var list = record.nestedUnkeyedContainer(forKey: .a)
                try list.encode(1)
                var single = record.superEncoder(forKey: .a).singleValueContainer()
                try single.encode(9)
            case .keyedAfterSuperEncoder:
                var single = record.superEncoder(forKey: .a).singleValueContainer()
                try single.encode(9)
                var nested = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try nested.encode(1, forKey: .x)
            default:
                try encodeMisuse(into: &record)
            }
        }

        private func encodeMisuse(into record: inout KeyedEncodingContainer<Keys>) throws {
            switch self {
            case .unkeyedAfterKeyed:
                var nested = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try nested.encode(1, forKey: .x)
                var list = record.nestedUnkeyedContainer(forKey: .a)
                try list.encode(2)
            case .keyedAfterUnkeyed:
                var list = record.nestedUnkeyedContainer(forKey: .a)
                try list.encode(2)
                var nested = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try nested.encode(1, forKey: .x)
            case .unkeyedAfterKeyedInside:
                var outer = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                var nested = outer.nestedContainer(keyedBy: Keys.self, forKey: .b)
                try nested.encode(1, forKey: .x)
                var list = outer.nestedUnkeyedContainer(forKey: .b)
                try list.encode(2)
            case .singleTwice, .keyedAfterSingle, .unkeyedAfterSingle, .nilAfterSingle:
                var outer = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                let inner = outer.superEncoder(forKey: .b)
                var single = inner.singleValueContainer()
                try single.encode(1)
                if self == .singleTwice { try single.encode(2) }
                if self == .nilAfterSingle { try single.encodeNil() }
                if self == .keyedAfterSingle {
                    var nested = inner.container(keyedBy: Keys.self)
                    try nested.encode(2, forKey: .x)
                }
                if self == .unkeyedAfterSingle {
                    var list = inner.unkeyedContainer()
                    try list.encode(2)
                }
            case .unkeyedAfterValue:
                try record.encode(1, forKey: .a)
                var list = record.nestedUnkeyedContainer(forKey: .a)
                try list.encode(2)
            case .keyedAfterValue:
                try record.encode("x", forKey: .a)
                var nested = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try nested.encode(2, forKey: .b)
            case .keyedAfterValueInside:
                var outer = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try outer.encode(Date(timeIntervalSince1970: 0), forKey: .b)
                var nested = outer.nestedContainer(keyedBy: Keys.self, forKey: .b)
                try nested.encode(2, forKey: .x)
            case .unkeyedAfterNil:
                var outer = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try outer.encodeNil(forKey: .b)
                var list = outer.nestedUnkeyedContainer(forKey: .b)
                try list.encode(2)
            case .unkeyedAfterIdentifier:
                var list = record.nestedUnkeyedContainer(forKey: .id)
                try list.encode(2)
            default:
                break
            }
        }
    }

    @Test(
        "A key written again keeps both writes or the last, as Foundation's JSON encoder does",
        arguments: [
            (Rewrite.keyedTwice, #"{"x":1,"y":2}"#), (.keyedTwiceInside, #"{"b":{"x":1,"y":2}}"#),
            (.unkeyedTwiceInside, #"{"b":["p","q"]}"#), (.keyedAfterSuperEncoder, #"{"x":1}"#),
        ])
    func rewrittenKeyAsJSON(_ rewrite: Rewrite, expected: String) throws {
        let record = try RecordEncoder().encode(rewrite)
        #expect(record["a"] == .bytes(Data(expected.utf8)))
        // Foundation's encoder stores what a super encoder wrote only when that encoder is released,
        // which the optimizer decides: there the later write wins here, whatever Foundation does.
        if rewrite != .keyedAfterSuperEncoder {
            #expect(try foundationJSON(of: rewrite).contains(#""a":\#(expected)"#))
        }
    }

    @Test("A key written again as a list or a single value keeps both writes or the last")
    func rewrittenKeyAsField() throws {
        #expect(try RecordEncoder().encode(Rewrite.unkeyedTwice)["a"] == .list([.int64(1), .int64(2)]))
        #expect(try foundationJSON(of: Rewrite.unkeyedTwice).contains(#""a":[1,2]"#))
        #expect(try RecordEncoder().encode(Rewrite.valueAfterKeyed)["a"] == .int64(5))
        #expect(try foundationJSON(of: Rewrite.valueAfterKeyed).contains(#""a":5"#))
        #expect(try RecordEncoder().encode(Rewrite.superEncoderAfterUnkeyed)["a"] == .int64(9))
        #expect(try foundationJSON(of: Rewrite.superEncoderAfterUnkeyed).contains(#""a":9"#))
    }

    /// A model that begins a nested container under its identifier, then writes the identifier.
    struct IdentifierAfterKeyed: Encodable {
        enum Keys: String, CodingKey { case id, x, title }

        func encode(to encoder: any Encoder) throws {
            var record = encoder.container(keyedBy: Keys.self)
            var nested = record.nestedContainer(keyedBy: Keys.self, forKey: .id)
            try nested.encode(1, forKey: .x)
            try record.encode("t", forKey: .title)
            try record.encode("r2", forKey: .id)
        }
    }

    @Test("An identifier written after a nested container under its key names the record, record after record")
    func identifierAfterKeyed() throws {
        let encoder = RecordEncoder()
        // The second record starts from the layout the first taught, and takes its shortcuts.
        for _ in 0..<2 {
            let record = try encoder.encode(IdentifierAfterKeyed())
            #expect(record.recordName == "r2")
            #expect(record.fields == ["title": .string("t")])
        }
        #expect(try foundationJSON(of: IdentifierAfterKeyed()) == #"{"id":"r2","title":"t"}"#)
    }

    /// A model that writes two fields through a random script of plain values and nested
    /// containers, one and two levels deep, in any order Foundation's JSON encoder accepts.
    struct ContainerScript: Encodable, CustomStringConvertible {
        enum Key: String, CodingKey, CaseIterable { case id, a, b, x, y }
        enum Step {
            case value(Key, Int)
            case keyed(Key, [(Key, Int)])
            case unkeyed(Key, [Int])
            case keyedInKeyed(Key, Key, [(Key, Int)])
            case unkeyedInKeyed(Key, Key, [Int])
        }

        var steps: [Step] = []
        var description: String { "\(steps)" }

        /// A script of up to eight steps. Each key, and each key inside a keyed container, keeps the
        /// kind it was first given a container of; a plain value may follow any container, but no
        /// container follows a plain value, which Foundation's encoder stops the program for.
        static func random(using random: inout RandomSource) -> ContainerScript {
            enum Kind { case value, keyed, unkeyed }
            var kinds: [String: Kind] = [:]
            func allows(_ kind: Kind, _ path: String) -> Bool { kinds[path].map { $0 == kind } ?? true }
            func writes(_ random: inout RandomSource) -> [(Key, Int)] {
                (0..<random.int(in: 0...2)).map { _ in (random.bool() ? .x : .y, random.int(in: 0...9)) }
            }
            var script = ContainerScript()
            for _ in 0..<random.int(in: 1...8) {
                let key: Key = random.bool() ? .a : .b
                let inner: Key = random.bool() ? .x : .y
                let path = key.rawValue + "." + inner.rawValue
                let numbers = (0..<random.int(in: 0...3)).map { _ in random.int(in: 0...9) }
                switch random.int(in: 0...4) {
                case 0:
                    script.steps.append(.value(key, random.int(in: 0...9)))
                    kinds[key.rawValue] = .value
                case 1 where allows(.keyed, key.rawValue):
                    let written = writes(&random)
                    guard written.allSatisfy({ allows(.value, key.rawValue + "." + $0.0.rawValue) }) else { continue }
                    script.steps.append(.keyed(key, written))
                    kinds[key.rawValue] = .keyed
                    for (inner, _) in written { kinds[key.rawValue + "." + inner.rawValue] = .value }
                case 2 where allows(.unkeyed, key.rawValue):
                    script.steps.append(.unkeyed(key, numbers))
                    kinds[key.rawValue] = .unkeyed
                case 3 where allows(.keyed, key.rawValue) && allows(.keyed, path):
                    script.steps.append(.keyedInKeyed(key, inner, writes(&random)))
                    kinds[key.rawValue] = .keyed
                    kinds[path] = .keyed
                case 4 where allows(.keyed, key.rawValue) && allows(.unkeyed, path):
                    script.steps.append(.unkeyedInKeyed(key, inner, numbers))
                    kinds[key.rawValue] = .keyed
                    kinds[path] = .unkeyed
                default:
                    continue
                }
            }
            return script
        }

        func encode(to encoder: any Encoder) throws {
            var record = encoder.container(keyedBy: Key.self)
            try record.encode("script", forKey: .id)
            for step in steps {
                switch step {
                case .value(let key, let number):
                    try record.encode(number, forKey: key)
                case .keyed(let key, let writes):
                    var nested = record.nestedContainer(keyedBy: Key.self, forKey: key)
                    for (inner, number) in writes { try nested.encode(number, forKey: inner) }
                case .unkeyed(let key, let numbers):
                    var list = record.nestedUnkeyedContainer(forKey: key)
                    for number in numbers { try list.encode(number) }
                case .keyedInKeyed(let key, let inner, let writes):
                    var outer = record.nestedContainer(keyedBy: Key.self, forKey: key)
                    var nested = outer.nestedContainer(keyedBy: Key.self, forKey: inner)
                    for (innermost, number) in writes { try nested.encode(number, forKey: innermost) }
                case .unkeyedInKeyed(let key, let inner, let numbers):
                    var outer = record.nestedContainer(keyedBy: Key.self, forKey: key)
                    var list = outer.nestedUnkeyedContainer(forKey: inner)
                    for number in numbers { try list.encode(number) }
                }
            }
        }
    }

    /// The shapes a script writes, read from JSON or from a field, to compare the two.
    indirect enum Shape: Decodable, Equatable {
        case number(Int)
        case string(String)
        case list([Shape])
        case object([String: Shape])

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let number = try? single.decode(Int.self) {
                self = .number(number)
            } else if let string = try? single.decode(String.self) {
                self = .string(string)
            } else if let list = try? single.decode([Shape].self) {
                self = .list(list)
            } else {
                self = .object(try single.decode([String: Shape].self))
            }
        }

        init(_ field: RecordValue) throws {
            switch field {
            case .int64(let number): self = .number(Int(number))
            case .string(let string): self = .string(string)
            case .list(let elements): self = .list(try elements.map(Shape.init))
            case .bytes(let json): self = try JSONDecoder().decode(Shape.self, from: json)
            default: throw NotAShape()
            }
        }
    }

    struct NotAShape: Error {}

    @Test("Random scripts of nested containers give the fields Foundation's JSON encoder gives")
    func randomContainerScripts() throws {
        var random = RandomSource(seed: PropertyTests.seed &+ 10)
        for iteration in 0..<1_000 {
            let script = ContainerScript.random(using: &random)
            let record = try RecordEncoder().encode(script)
            let expected = try JSONDecoder().decode(
                [String: Shape].self, from: try JSONEncoder().encode(script))
            var fields = try record.fields.mapValues(Shape.init)
            fields["id"] = .string(record.recordName)
            #expect(fields == expected, "iteration \(iteration): \(script)")
            guard fields == expected else { return }
        }
    }

    /// The JSON that Foundation's encoder writes for `value`, keys sorted.
    private func foundationJSON(of value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(
        "A nested container misused is an error at its path, not a lost write",
        arguments: [
            (
                Rewrite.unkeyedAfterKeyed, "a",
                "Cannot create an unkeyed container for key 'a': a keyed container was already created for it."
            ),
            (
                .keyedAfterUnkeyed, "a",
                "Cannot create a keyed container for key 'a': an unkeyed container was already created for it."
            ),
            (
                .unkeyedAfterKeyedInside, "a.b",
                "Cannot create an unkeyed container for key 'b': a keyed container was already created for it."
            ),
            (
                .singleTwice, "a.b",
                "Cannot encode a value through a single value container: a single value was already encoded "
                    + "at this path."
            ),
            (
                .nilAfterSingle, "a.b",
                "Cannot encode nil through a single value container: a single value was already encoded "
                    + "at this path."
            ),
            (
                .keyedAfterSingle, "a.b",
                "Cannot create a keyed container: a single value was already encoded at this path."
            ),
            (
                .unkeyedAfterSingle, "a.b",
                "Cannot create an unkeyed container: a single value was already encoded at this path."
            ),
            (
                .unkeyedAfterValue, "a",
                "Cannot create an unkeyed container for key 'a': a value was already encoded for it."
            ),
            (
                .keyedAfterValue, "a",
                "Cannot create a keyed container for key 'a': a value was already encoded for it."
            ),
            (
                .keyedAfterValueInside, "a.b",
                "Cannot create a keyed container for key 'b': a value was already encoded for it."
            ),
            (
                .unkeyedAfterNil, "a.b",
                "Cannot create an unkeyed container for key 'b': a value was already encoded for it."
            ),
            (
                .unkeyedAfterIdentifier, "id",
                "Cannot create an unkeyed container for key 'id': a value was already encoded for it."
            ),
        ])
    func misusedNestedContainer(_ rewrite: Rewrite, path: String, description: String) throws {
        let error = expectEncodingError(at: path) { _ = try RecordEncoder().encode(rewrite) }
        #expect(error?.context?.debugDescription == description)
        if rewrite == .singleTwice { #expect(error?.value as? Int == 2) }
    }

    /// A value that throws when it is encoded.
    struct Refusing: Encodable {
        struct Refusal: Error {}
        func encode(to encoder: any Encoder) throws { throw Refusal() }
    }

    /// A class whose value changes after the model writes it.
    final class Counter: Encodable {
        var count = 1
        /// The coding path the counter was encoded at.
        var encodedAt: [String] = []

        enum Keys: CodingKey { case count }

        func encode(to encoder: any Encoder) throws {
            encodedAt = encoder.codingPath.map(\.stringValue)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(count, forKey: .count)
        }
    }

    /// Writes through the record's nested containers the way Foundation's JSON encoder lets a
    /// model: catching a value's error and writing another, and changing a class after writing it.
    struct WritesAsWritten: Encodable {
        let counter: Counter
        let elementCounter: Counter

        enum Keys: CodingKey { case id, a, x, y, list }

        func encode(to encoder: any Encoder) throws {
            var record = encoder.container(keyedBy: Keys.self)
            try record.encode("w1", forKey: .id)
            var nested = record.nestedContainer(keyedBy: Keys.self, forKey: .a)
            do {
                try nested.encode(Refusing(), forKey: .x)
            } catch is Refusing.Refusal {
                try nested.encode("fallback", forKey: .x)
            }
            try nested.encode(counter, forKey: .y)
            counter.count = 2
            var list = nested.nestedUnkeyedContainer(forKey: .list)
            try? list.encode(Refusing())
            try list.encode(elementCounter)
            elementCounter.count = 2
        }
    }

    @Test("A value written into a nested container is encoded as it is written, as in Foundation's JSON encoder")
    func nestedContainerWritesAsWritten() throws {
        let record = try RecordEncoder().encode(WritesAsWritten(counter: Counter(), elementCounter: Counter()))
        let expected = #"{"list":[{"count":1}],"x":"fallback","y":{"count":1}}"#
        #expect(record["a"] == .bytes(Data(expected.utf8)))
        let model = WritesAsWritten(counter: Counter(), elementCounter: Counter())
        #expect(try foundationJSON(of: model).contains(#""a":\#(expected)"#))
        // The value sees its full coding path. (Foundation's encoder leaves out the nested
        // container's own key here.)
        #expect(model.counter.encodedAt == ["y"])
        let counter = Counter()
        _ = try RecordEncoder().encode(WritesAsWritten(counter: counter, elementCounter: Counter()))
        #expect(counter.encodedAt == ["a", "y"])
    }

    /// Writes collections whole through super encoders, and a value that fails half-way.
    struct CollectionsThroughSuperEncoders: Encodable {
        /// Writes a keyed container, then throws.
        struct HalfWritten: Encodable {
            enum Keys: CodingKey { case partial }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .partial)
                throw Refusing.Refusal()
            }
        }

        enum Keys: CodingKey { case id, byUUID, optionals, numbers, retried }

        func encode(to encoder: any Encoder) throws {
            var record = encoder.container(keyedBy: Keys.self)
            try record.encode("c1", forKey: .id)
            var byUUID = record.superEncoder(forKey: .byUUID).singleValueContainer()
            try byUUID.encode([UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)): "one"])
            var optionals = record.superEncoder(forKey: .optionals).singleValueContainer()
            try optionals.encode([1, 2] as [Int?])
            var numbers = record.superEncoder(forKey: .numbers).singleValueContainer()
            try numbers.encode([Int32](1...3))
            var retried = record.superEncoder(forKey: .retried).singleValueContainer()
            do {
                try retried.encode(HalfWritten())
            } catch is Refusing.Refusal {
                try retried.encode("fallback")
            }
        }
    }

    @Test("Collections written through super encoders are stored as they would be as properties")
    func collectionsThroughSuperEncoders() throws {
        let record = try RecordEncoder().encode(CollectionsThroughSuperEncoders())
        #expect(record["byUUID"] == .bytes(Data(#"["00000000-0000-0000-0000-000000000001","one"]"#.utf8)))
        #expect(record["optionals"] == .bytes(Data("[1,2]".utf8)))
        #expect(record["numbers"] == .list([.int64(1), .int64(2), .int64(3)]))
        #expect(record["retried"] == .string("fallback"))
    }

    /// Nests unkeyed or keyed containers `depth` deep below the field `deep`, and writes 1 in
    /// the deepest.
    struct DeepContainers: Encodable {
        var depth: Int
        var keyed = false

        func encode(to encoder: any Encoder) throws {
            var record = encoder.container(keyedBy: AnyCodingKey.self)
            try record.encode("d1", forKey: AnyCodingKey(stringValue: "id"))
            let key = AnyCodingKey(stringValue: "deep")
            if keyed {
                var container = record.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
                for _ in 1..<depth { container = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key) }
                try container.encode(1, forKey: key)
            } else {
                var container = record.nestedUnkeyedContainer(forKey: key)
                for _ in 1..<depth { container = container.nestedUnkeyedContainer() }
                try container.encode(1)
            }
        }
    }

    @Test(
        "Nested containers 256 deep are stored; deeper is an error at the first level too deep, not a crash",
        arguments: [false, true])
    func deeplyNestedContainers(keyed: Bool) throws {
        let stored = try RecordEncoder().encode(DeepContainers(depth: 256, keyed: keyed))
        let json =
            keyed
            ? String(repeating: #"{"deep":"#, count: 256) + "1" + String(repeating: "}", count: 256)
            : String(repeating: "[", count: 256) + "1" + String(repeating: "]", count: 256)
        #expect(stored["deep"] == .bytes(Data(json.utf8)))

        let tooDeep = "deep" + String(repeating: keyed ? ".deep" : ".Index 0", count: 256)
        for depth in [257, 10_000, 100_000] {
            let error = expectEncodingError(at: tooDeep) {
                _ = try RecordEncoder().encode(DeepContainers(depth: depth, keyed: keyed))
            }
            #expect(
                error?.context?.debugDescription
                    == "Too many nested arrays or dictionaries: a value nests at most 256 containers deep.")
        }
    }

    // MARK: The top level

    @Test("A top-level value that is not keyed is an error, never a trap")
    func topLevelNotKeyed() throws {
        let array = expectEncodingError(at: "") { _ = try RecordEncoder().encode([Int8(1), 2, 3]) }
        #expect(array?.context?.debugDescription.contains("unkeyed container") == true)
        let list = expectEncodingError(at: "") { _ = try RecordEncoder().encode([1, 2, 3]) }
        #expect(list?.context?.debugDescription.contains("a record holds named fields") == true)
        expectEncodingError(at: "") { _ = try RecordEncoder().encode([Int]()) }
        expectEncodingError(at: "") { _ = try RecordEncoder().encode("text") }
        expectEncodingError(at: "") { _ = try RecordEncoder().encode(42) }
        expectEncodingError(at: "") { _ = try RecordEncoder().encode(Optional<Int>.none) }
        expectEncodingError(at: "") { _ = try RecordEncoder().encode(Date()) }
        expectEncodingError(at: "") { _ = try RecordEncoder().encode(URL(string: "https://example.com")!) }
    }

    @Test("A type stored as one field is refused as a record every time, also by an encoder that kept its engine")
    func topLevelSingleFieldTypeEveryTime() throws {
        // A reference encodes itself with a keyed container, so only the check of its type, not
        // its containers, refuses it: an engine kept for the type must not skip that check.
        let encoder = RecordEncoder()
        for _ in 0..<3 {
            let error = expectEncodingError(at: "") {
                _ = try encoder.encode(RecordReference(recordName: "author-7"))
            }
            #expect(
                error?.context?.debugDescription
                    == "Top-level RecordReference is stored as a reference, but a record holds named fields: "
                    + "encode a struct or class with a keyed container.")
        }
    }

    /// Encodes and decodes a single top-level value of one primitive type, which a record cannot be.
    struct TopLevelCase: CustomTestStringConvertible, Sendable {
        var typeName: String
        var encode: @Sendable () throws -> Void
        var decode: @Sendable () throws -> Void
        var testDescription: String { typeName }

        init<Value: Codable & Sendable>(_ value: Value) {
            typeName = "\(Value.self)"
            encode = { _ = try RecordEncoder().encode(value) }
            decode = {
                _ = try anyTypeDecoder.decode(Value.self, from: Record(recordType: "T", recordName: "n"))
            }
        }
    }

    @Test(
        "A single value of every primitive type is refused at the top level, both ways",
        arguments: [
            TopLevelCase(true), TopLevelCase("text"), TopLevelCase(1.5), TopLevelCase(Float(1.5)), TopLevelCase(1),
            TopLevelCase(Int8(1)), TopLevelCase(Int16(1)), TopLevelCase(Int32(1)), TopLevelCase(Int64(1)),
            TopLevelCase(UInt(1)), TopLevelCase(UInt8(1)), TopLevelCase(UInt16(1)), TopLevelCase(UInt32(1)),
            TopLevelCase(UInt64(1)), TopLevelCase(Int128(1)), TopLevelCase(UInt128(1)),
        ])
    func topLevelPrimitive(_ topLevel: TopLevelCase) throws {
        let encoding = expectEncodingError(at: "") { try topLevel.encode() }
        #expect(
            encoding?.context?.debugDescription
                == "A record holds named fields and cannot be encoded from a single \(topLevel.typeName); "
                + "encode a struct or class with a keyed container.")
        let decoding = expectDecodingError("typeMismatch", at: "") { try topLevel.decode() }
        #expect(
            decoding?.context?.debugDescription
                == "Expected to decode \(topLevel.typeName) but found a record instead.")
    }

    @Test("A top-level unkeyed container with containers inside it is an error, never a trap")
    func topLevelUnkeyedNesting() throws {
        struct Nesting: Encodable {
            func encode(to encoder: any Encoder) throws {
                var list = encoder.unkeyedContainer()
                #expect(list.codingPath.isEmpty)
                #expect(list.count == 0)
                var keyed = list.nestedContainer(keyedBy: AnyCodingKey.self)
                try keyed.encode(1, forKey: AnyCodingKey(stringValue: "a"))
                var inner = list.nestedUnkeyedContainer()
                try inner.encode(2)
                var single = list.superEncoder().singleValueContainer()
                try single.encode(3)
            }
        }
        let error = expectEncodingError(at: "") { _ = try RecordEncoder().encode(Nesting()) }
        #expect(
            error?.context?.debugDescription
                == "Top-level Nesting encoded an unkeyed container, but a record holds named fields: "
                + "encode a struct or class with a keyed container.")

        struct NilInList: Encodable {
            func encode(to encoder: any Encoder) throws {
                var list = encoder.unkeyedContainer()
                try list.encodeNil()
            }
        }
        let nilError = expectEncodingError(at: "") { _ = try RecordEncoder().encode(NilInList()) }
        #expect(nilError?.context?.debugDescription.hasPrefix("A record holds named fields") == true)
    }

    @Test("A string-keyed dictionary is keyed, so it encodes as a record")
    func topLevelDictionary() throws {
        let record = try RecordEncoder().encode(["id": "d1", "a": "x"])
        #expect(record.recordName == "d1")
        #expect(record.fields == ["a": .string("x")])
        // Read back, a dictionary holds the fields: the name is the record's, not an entry.
        #expect(try RecordDecoder().decode([String: String].self, from: record) == ["a": "x"])
    }

    @Test("A top-level wrapper hands its model on to the record")
    func topLevelWrapper() throws {
        let model: IdentityTests.Note? = IdentityTests.Note(id: "n", title: "t")
        let record = try RecordEncoder().encode(model)
        #expect(record.recordName == "n")
        #expect(record.fields == ["title": .string("t")])
        let decoded = try RecordDecoder().decode(IdentityTests.Note?.self, from: record)
        #expect(decoded == model)
    }

    @Test("allKeys sees the fields; contains and decodeNil see the fields and the identifier")
    func keyedContainerQueries() throws {
        struct Inspector: Decodable {
            var keys: [String]
            var containsID: Bool
            var containsMissing: Bool
            var nilMissing: Bool
            var nilPresent: Bool
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                keys = container.allKeys.map(\.stringValue).sorted()
                containsID = container.contains(AnyCodingKey(stringValue: "id"))
                containsMissing = container.contains(AnyCodingKey(stringValue: "missing"))
                nilMissing = try container.decodeNil(forKey: AnyCodingKey(stringValue: "missing"))
                nilPresent = try container.decodeNil(forKey: AnyCodingKey(stringValue: "a"))
            }
        }
        let record = Record(recordType: "T", recordName: "n", fields: ["a": .int64(1), "b": .string("x")])
        let inspector = try anyTypeDecoder.decode(Inspector.self, from: record)
        #expect(inspector.keys == ["a", "b"])
        #expect(inspector.containsID)
        #expect(!inspector.containsMissing)
        #expect(inspector.nilMissing)
        #expect(!inspector.nilPresent)
    }

    @Test("A dictionary-like model reads every field through allKeys")
    func dynamicKeys() throws {
        struct Bag: Codable, Equatable {
            var values: [String: Int]
            init(values: [String: Int]) { self.values = values }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                var values: [String: Int] = [:]
                for key in container.allKeys where key.stringValue != "id" {
                    values[key.stringValue] = try container.decode(Int.self, forKey: key)
                }
                self.values = values
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyCodingKey.self)
                for (key, value) in values { try container.encode(value, forKey: AnyCodingKey(stringValue: key)) }
            }
        }
        let record = try roundTrip(Bag(values: ["one": 1, "two": 2]))
        #expect(record.fields == ["one": .int64(1), "two": .int64(2)])
    }

    @Test("Writing a field twice keeps the last value and counts its size once")
    func fieldWrittenTwice() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case id, value }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode("t", forKey: .id)
                try container.encode("a long first value", forKey: .value)
                try container.encode("short", forKey: .value)
                try container.encodeNil(forKey: .id)
            }
        }
        let record = try RecordEncoder().encode(Twice())
        #expect(record["value"] == .string("short"))
        #expect(record.encodedSize == "value".utf8.count + "short".utf8.count)
        // The identifier was written last as nil: the server names the record.
        #expect(record.recordName == "")
    }

    @Test("A value written under a key replaces a nested container asked for under it, the identifier's too")
    func valueReplacesNestedContainer() throws {
        struct Replaced: Encodable {
            enum Keys: String, CodingKey { case id, value }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                _ = container.nestedContainer(keyedBy: Keys.self, forKey: .id)
                _ = container.nestedUnkeyedContainer(forKey: .value)
                try container.encode("named", forKey: .id)
                try container.encode(5, forKey: .value)
            }
        }
        let record = try RecordEncoder().encode(Replaced())
        #expect(record.recordName == "named")
        #expect(record.fields == ["value": .int64(5)])
    }

    @Test("encodeNil removes a field written before")
    func encodeNilRemovesField() throws {
        struct Clearing: Encodable {
            enum Keys: String, CodingKey { case value }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(3, forKey: .value)
                try container.encodeNil(forKey: .value)
            }
        }
        let record = try RecordEncoder().encode(Clearing())
        #expect(record.fields.isEmpty)
        #expect(record.encodedSize == 0)
    }

    @Test("userInfo reaches models and the values nested inside them")
    func userInfo() throws {
        let key = try #require(CodingUserInfoKey(rawValue: "unit"))
        struct Reader: Codable, Equatable {
            var id = "r"
            var inner: Inner
            struct Inner: Codable, Equatable {
                var unit: String
                init(unit: String) { self.unit = unit }
                init(from decoder: any Decoder) throws {
                    unit = decoder.userInfo[CodingUserInfoKey(rawValue: "unit")!] as? String ?? "none"
                }
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: AnyCodingKey.self)
                    try container.encode(
                        encoder.userInfo[CodingUserInfoKey(rawValue: "unit")!] as? String ?? "none",
                        forKey: AnyCodingKey(stringValue: "unit"))
                }
            }
        }
        var encoder = RecordEncoder()
        encoder.userInfo = [key: "cm"]
        var decoder = RecordDecoder()
        decoder.userInfo = [key: "mm"]
        let record = try encoder.encode(Reader(inner: .init(unit: "")))
        #expect(record["inner"] == .bytes(Data(#"{"unit":"cm"}"#.utf8)))
        #expect(try decoder.decode(Reader.self, from: record).inner.unit == "mm")
    }
}
