import Foundation
import Testing

@testable import RecordCodable

/// Values whose hand-written `encode(to:)` and `init(from:)` call the containers' overloads for
/// each concrete type — the calls synthesized conformances never make, since they go through the
/// generic overload for anything but a property's own type.
@Suite("Hand-written conformances")
struct HandWrittenConformanceTests {
    // MARK: Values that write their own lists

    /// Integers of every width and a Bool, written one by one through the value's own unkeyed
    /// container: every one is an integer field, so the value is one list of them.
    struct Counters: Codable, Equatable {
        var int = -1
        var int8: Int8 = -8
        var int16: Int16 = -16
        var int32: Int32 = -32
        var int64: Int64 = -64
        var uint: UInt = 1
        var uint8: UInt8 = 8
        var uint16: UInt16 = 16
        var uint32: UInt32 = 32
        var uint64: UInt64 = 64
        var flag = true

        init() {}

        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode(int)
            try list.encode(int8)
            try list.encode(int16)
            try list.encode(int32)
            try list.encode(int64)
            try list.encode(uint)
            try list.encode(uint8)
            try list.encode(uint16)
            try list.encode(uint32)
            try list.encode(uint64)
            try list.encode(flag)
        }

        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            int = try list.decode(Int.self)
            int8 = try list.decode(Int8.self)
            int16 = try list.decode(Int16.self)
            int32 = try list.decode(Int32.self)
            int64 = try list.decode(Int64.self)
            uint = try list.decode(UInt.self)
            uint8 = try list.decode(UInt8.self)
            uint16 = try list.decode(UInt16.self)
            uint32 = try list.decode(UInt32.self)
            uint64 = try list.decode(UInt64.self)
            #expect(try !list.decodeNil())
            flag = try list.decode(Bool.self)
            #expect(list.isAtEnd)
        }
    }

    /// Text written element by element.
    struct Words: Codable, Equatable {
        var words: [String]

        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            for word in words { try list.encode(word) }
        }

        init(_ words: [String]) {
            self.words = words
        }

        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            var words: [String] = []
            while !list.isAtEnd { words.append(try list.decode(String.self)) }
            self.words = words
        }
    }

    /// A Double and a Float, written one after the other: both are double fields.
    struct Measure: Codable, Equatable {
        var length: Double
        var ratio: Float

        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode(length)
            try list.encode(ratio)
        }

        init(length: Double, ratio: Float) {
            self.length = length
            self.ratio = ratio
        }

        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            length = try list.decode(Double.self)
            ratio = try list.decode(Float.self)
        }
    }

    struct Readings: Codable, Equatable {
        var id = "r1"
        var counters = Counters()
        var words = Words(["a", "b"])
        var measure = Measure(length: 2.5, ratio: 0.5)
    }

    @Test("A value that writes each element through its own unkeyed container is a native list")
    func elementsWrittenOneByOne() throws {
        let record = try roundTrip(Readings())
        #expect(
            record["counters"]
                == .list([-1, -8, -16, -32, -64, 1, 8, 16, 32, 64, 1].map { RecordValue.int64($0) }))
        #expect(record["words"] == .list([.string("a"), .string("b")]))
        #expect(record["measure"] == .list([.double(2.5), .double(0.5)]))
    }

    @Test("Errors in a list written or read element by element name the element")
    func elementErrors() throws {
        var readings = Readings()
        readings.counters.uint64 = .max
        let overflow = expectEncodingError(at: "counters.Index 9") { _ = try RecordEncoder().encode(readings) }
        #expect(overflow?.context?.debugDescription.contains("UInt64 value 18446744073709551615") == true)

        var record = try RecordEncoder().encode(Readings())
        record["counters"] = .list([-1, 300, -16, -32, -64, 1, 8, 16, 32, 64, 1].map { RecordValue.int64($0) })
        expectDecodingError("dataCorrupted", at: "counters.Index 1") {
            _ = try RecordDecoder().decode(Readings.self, from: record)
        }
        record["counters"] = .list([.int64(1)])
        let atEnd = expectDecodingError("valueNotFound", at: "counters.Index 1") {
            _ = try RecordDecoder().decode(Readings.self, from: record)
        }
        #expect(atEnd?.context?.debugDescription == "Unkeyed container is at end.")
        record = try RecordEncoder().encode(Readings())
        record["words"] = .list([.string("a"), .int64(2)])
        expectDecodingError("typeMismatch", at: "words.Index 1") {
            _ = try RecordDecoder().decode(Readings.self, from: record)
        }
        record = try RecordEncoder().encode(Readings())
        record["measure"] = .list([.double(1), .double(1e300)])
        expectDecodingError("dataCorrupted", at: "measure.Index 1") {
            _ = try RecordDecoder().decode(Readings.self, from: record)
        }
    }

    /// A value whose unkeyed container holds what no field type can: `nil`, a keyed container, a
    /// list, and an element written through `superEncoder()`.
    struct Jumble: Codable, Equatable {
        var label: String?
        var point: [String: Int]
        var inner: [Bool]
        var last: String

        enum PointKeys: String, CodingKey { case x, y }

        init(label: String?, point: [String: Int], inner: [Bool], last: String) {
            self.label = label
            self.point = point
            self.inner = inner
            self.last = last
        }

        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            if let label { try list.encode(label) } else { try list.encodeNil() }
            var point = list.nestedContainer(keyedBy: PointKeys.self)
            try point.encode(self.point["x"] ?? 0, forKey: .x)
            try point.encode(self.point["y"] ?? 0, forKey: .y)
            var inner = list.nestedUnkeyedContainer()
            for flag in self.inner { try inner.encode(flag) }
            var last = list.superEncoder().singleValueContainer()
            try last.encode(self.last)
        }

        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            label = try list.decodeNil() ? nil : try list.decode(String.self)
            let point = try list.nestedContainer(keyedBy: PointKeys.self)
            self.point = ["x": try point.decode(Int.self, forKey: .x), "y": try point.decode(Int.self, forKey: .y)]
            var inner = try list.nestedUnkeyedContainer()
            var flags: [Bool] = []
            while !inner.isAtEnd { flags.append(try inner.decode(Bool.self)) }
            self.inner = flags
            last = try list.superDecoder().singleValueContainer().decode(String.self)
        }
    }

    struct Holder: Codable, Equatable {
        var id = "h1"
        var jumble: Jumble
    }

    @Test("A value whose own unkeyed container holds nil, containers or a super encoder is JSON")
    func elementsWithoutNativeForm() throws {
        for label in ["tag", nil] {
            let jumble = Jumble(label: label, point: ["x": 1, "y": -2], inner: [true, false], last: "end")
            let record = try roundTrip(Holder(jumble: jumble))
            let expected = try NestedJSON.encoder.encode(jumble)
            #expect(record["jumble"] == .bytes(expected))
            let labelJSON = label.map { "\"\($0)\"" } ?? "null"
            #expect(String(decoding: expected, as: UTF8.self) == #"[\#(labelJSON),{"x":1,"y":-2},[true,false],"end"]"#)
        }
    }

    /// A value whose first write that no field can hold is one of the less common container calls;
    /// each case stops the value at a different place.
    enum FirstWrite: String, CaseIterable, Encodable {
        // Inside the value's own unkeyed container, after a plain element.
        case listInList, superEncoderInList
        // Inside the value's keyed container.
        case nilForKey, bool, string, double, float, int, int8, int16, int32, int64
        case uint, uint8, uint16, uint32, uint64, int128, uint128
        case listForKey, superEncoder, superEncoderForKey

        enum Keys: String, CodingKey { case a, b }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .listInList:
                var list = encoder.unkeyedContainer()
                try list.encode("a")
                var inner = list.nestedUnkeyedContainer()
                try inner.encode(1)
            case .superEncoderInList:
                var list = encoder.unkeyedContainer()
                try list.encode("a")
                var element = list.superEncoder().singleValueContainer()
                try element.encode("b")
            default:
                try encodeKeyed(to: encoder)
            }
        }

        private func encodeKeyed(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            switch self {
            case .nilForKey: try container.encodeNil(forKey: .a)
            case .bool: try container.encode(true, forKey: .a)
            case .string: try container.encode("text", forKey: .a)
            case .double: try container.encode(1.5, forKey: .a)
            case .float: try container.encode(Float(2.5), forKey: .a)
            case .int: try container.encode(-1, forKey: .a)
            case .int8: try container.encode(Int8(-8), forKey: .a)
            case .int16: try container.encode(Int16(-16), forKey: .a)
            case .int32: try container.encode(Int32(-32), forKey: .a)
            case .int64: try container.encode(Int64(-64), forKey: .a)
            case .uint: try container.encode(UInt(1), forKey: .a)
            case .uint8: try container.encode(UInt8(8), forKey: .a)
            case .uint16: try container.encode(UInt16(16), forKey: .a)
            case .uint32: try container.encode(UInt32(32), forKey: .a)
            case .uint64: try container.encode(UInt64(64), forKey: .a)
            case .int128: try container.encode(Int128(-128), forKey: .a)
            case .uint128: try container.encode(UInt128(128), forKey: .a)
            case .listForKey:
                var list = container.nestedUnkeyedContainer(forKey: .a)
                try list.encode(1)
            case .superEncoder:
                var parent = container.superEncoder().container(keyedBy: Keys.self)
                try parent.encode(2, forKey: .b)
            case .superEncoderForKey:
                var parent = container.superEncoder(forKey: .b).singleValueContainer()
                try parent.encode(3)
            case .listInList, .superEncoderInList:
                break
            }
        }
    }

    struct FirstWriteHolder: Encodable {
        var id = "w1"
        var value: FirstWrite
    }

    @Test(
        "A value stops being a native field at its first write that no field holds, and is JSON",
        arguments: FirstWrite.allCases)
    func firstWriteWithoutNativeForm(_ firstWrite: FirstWrite) throws {
        let record = try RecordEncoder().encode(FirstWriteHolder(value: firstWrite))
        #expect(record["value"] == .bytes(try NestedJSON.encoder.encode(firstWrite)))
        #expect(record.fields.count == 1)
    }

    /// Reads a native list's elements through containers of their own.
    struct ElementReader: Decodable {
        var words: [String]

        enum Keys: String, CodingKey { case words }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            var list = try container.nestedUnkeyedContainer(forKey: .words)
            #expect(pathText(list.codingPath) == "words")
            var words: [String] = []
            while !list.isAtEnd {
                let element = try list.superDecoder()
                #expect(pathText(element.codingPath) == "words.Index \(words.count)")
                words.append(try element.singleValueContainer().decode(String.self))
            }
            self.words = words
        }
    }

    /// Asks for a keyed or an unkeyed container where a list holds a plain element.
    struct ContainerInElementReader: Decodable {
        enum Keys: String, CodingKey { case words }
        enum NoKeys: CodingKey {}

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            var list = try container.nestedUnkeyedContainer(forKey: .words)
            if decoder.userInfo[Self.wantsKeyed] as? Bool == true {
                _ = try list.nestedContainer(keyedBy: NoKeys.self)
            } else {
                _ = try list.nestedUnkeyedContainer()
            }
        }

        static let wantsKeyed = CodingUserInfoKey(rawValue: "wantsKeyed")!
    }

    @Test("A list's elements read through containers of their own, with their paths")
    func elementsThroughContainers() throws {
        let record = Record(recordType: "R", recordName: "r", fields: ["words": .list([.string("a"), .string("b")])])
        #expect(try anyTypeDecoder.decode(ElementReader.self, from: record).words == ["a", "b"])

        var keyed = anyTypeDecoder
        keyed.userInfo = [ContainerInElementReader.wantsKeyed: true]
        let keyedError = expectDecodingError("typeMismatch", at: "words.Index 0") {
            _ = try keyed.decode(ContainerInElementReader.self, from: record)
        }
        #expect(
            keyedError?.context?.debugDescription
                == "Expected to decode Dictionary<String, Any> but found a string instead.")
        let unkeyedError = expectDecodingError("typeMismatch", at: "words.Index 0") {
            _ = try anyTypeDecoder.decode(ContainerInElementReader.self, from: record)
        }
        #expect(unkeyedError?.context?.debugDescription == "Expected to decode Array<Any> but found a string instead.")
    }

    // MARK: Nested containers on the record

    /// Every scalar type, written into a record's nested keyed and unkeyed containers — stored as
    /// JSON — and read back through the JSON decoder's containers.
    struct Scalars: Codable, Equatable {
        var id = "s1"
        var bool = true
        var string = "text"
        var double = 2.5
        var float: Float = 0.25
        var int = -1
        var int8: Int8 = -8
        var int16: Int16 = -16
        var int32: Int32 = -32
        var int64: Int64 = -64
        var uint: UInt = 1
        var uint8: UInt8 = 8
        var uint16: UInt16 = 16
        var uint32: UInt32 = 32
        var uint64: UInt64 = .max
        var note: String?

        enum Keys: String, CodingKey { case id, values, list }
        enum ValueKeys: String, CodingKey {
            case bool, string, double, float, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
            case note, more, parent, extra
        }

        init() {}

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(id, forKey: .id)
            var values = container.nestedContainer(keyedBy: ValueKeys.self, forKey: .values)
            try values.encode(bool, forKey: .bool)
            try values.encode(string, forKey: .string)
            try values.encode(double, forKey: .double)
            try values.encode(float, forKey: .float)
            try values.encode(int, forKey: .int)
            try values.encode(int8, forKey: .int8)
            try values.encode(int16, forKey: .int16)
            try values.encode(int32, forKey: .int32)
            try values.encode(int64, forKey: .int64)
            try values.encode(uint, forKey: .uint)
            try values.encode(uint8, forKey: .uint8)
            try values.encode(uint16, forKey: .uint16)
            try values.encode(uint32, forKey: .uint32)
            try values.encode(uint64, forKey: .uint64)
            if let note { try values.encode(note, forKey: .note) } else { try values.encodeNil(forKey: .note) }
            var more = values.nestedUnkeyedContainer(forKey: .more)
            try more.encode(string)
            var parent = values.superEncoder().singleValueContainer()
            try parent.encode(int)
            var extra = values.superEncoder(forKey: .extra).container(keyedBy: ValueKeys.self)
            try extra.encode(bool, forKey: .bool)

            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(bool)
            try list.encode(string)
            try list.encode(double)
            try list.encode(float)
            try list.encode(int)
            try list.encode(int8)
            try list.encode(int16)
            try list.encode(int32)
            try list.encode(int64)
            try list.encode(uint)
            try list.encode(uint8)
            try list.encode(uint16)
            try list.encode(uint32)
            try list.encode(uint64)
            if let note { try list.encode(note) } else { try list.encodeNil() }
            var nested = list.nestedContainer(keyedBy: ValueKeys.self)
            try nested.encode(int, forKey: .int)
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode(bool)
            var element = list.superEncoder().singleValueContainer()
            try element.encode(string)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(String.self, forKey: .id)
            // The shape is checked only when the JSON is whole: the error tests break it.
            let checksShape = decoder.userInfo[Self.checksShape] != nil
            let values = try container.nestedContainer(keyedBy: ValueKeys.self, forKey: .values)
            #expect(pathText(values.codingPath) == "values")
            if checksShape {
                // Every key but `super`, which is not one of the model's; `note` is there when nil too.
                #expect(values.allKeys.count == 17)
                #expect(values.contains(.note))
            }
            bool = try values.decode(Bool.self, forKey: .bool)
            string = try values.decode(String.self, forKey: .string)
            double = try values.decode(Double.self, forKey: .double)
            float = try values.decode(Float.self, forKey: .float)
            int = try values.decode(Int.self, forKey: .int)
            int8 = try values.decode(Int8.self, forKey: .int8)
            int16 = try values.decode(Int16.self, forKey: .int16)
            int32 = try values.decode(Int32.self, forKey: .int32)
            int64 = try values.decode(Int64.self, forKey: .int64)
            uint = try values.decode(UInt.self, forKey: .uint)
            uint8 = try values.decode(UInt8.self, forKey: .uint8)
            uint16 = try values.decode(UInt16.self, forKey: .uint16)
            uint32 = try values.decode(UInt32.self, forKey: .uint32)
            uint64 = try values.decode(UInt64.self, forKey: .uint64)
            note = try values.decodeNil(forKey: .note) ? nil : try values.decode(String.self, forKey: .note)
            // Every optional overload reads the same values.
            #expect(try values.decodeIfPresent(Bool.self, forKey: .bool) == bool)
            #expect(try values.decodeIfPresent(String.self, forKey: .string) == string)
            #expect(try values.decodeIfPresent(Double.self, forKey: .double) == double)
            #expect(try values.decodeIfPresent(Float.self, forKey: .float) == float)
            #expect(try values.decodeIfPresent(Int.self, forKey: .int) == int)
            #expect(try values.decodeIfPresent(Int8.self, forKey: .int8) == int8)
            #expect(try values.decodeIfPresent(Int16.self, forKey: .int16) == int16)
            #expect(try values.decodeIfPresent(Int32.self, forKey: .int32) == int32)
            #expect(try values.decodeIfPresent(Int64.self, forKey: .int64) == int64)
            #expect(try values.decodeIfPresent(UInt.self, forKey: .uint) == uint)
            #expect(try values.decodeIfPresent(UInt8.self, forKey: .uint8) == uint8)
            #expect(try values.decodeIfPresent(UInt16.self, forKey: .uint16) == uint16)
            #expect(try values.decodeIfPresent(UInt32.self, forKey: .uint32) == uint32)
            #expect(try values.decodeIfPresent(UInt64.self, forKey: .uint64) == uint64)
            #expect(try values.decodeIfPresent(String.self, forKey: .note) == note)
            var more = try values.nestedUnkeyedContainer(forKey: .more)
            #expect(pathText(more.codingPath) == "values.more")
            #expect(try more.decode(String.self) == string)
            let parent = try values.superDecoder()
            #expect(pathText(parent.codingPath) == "values.super")
            #expect(try parent.singleValueContainer().decode(Int.self) == int)
            let extra = try values.superDecoder(forKey: .extra).container(keyedBy: ValueKeys.self)
            #expect(pathText(extra.codingPath) == "values.extra")
            #expect(try extra.decode(Bool.self, forKey: .bool) == bool)

            var list = try container.nestedUnkeyedContainer(forKey: .list)
            if checksShape { #expect(list.count == 18) }
            #expect(try list.decodeIfPresent(Bool.self) == bool)
            #expect(try list.decodeIfPresent(String.self) == string)
            #expect(try list.decodeIfPresent(Double.self) == double)
            #expect(try list.decodeIfPresent(Float.self) == float)
            #expect(try list.decodeIfPresent(Int.self) == int)
            #expect(try list.decodeIfPresent(Int8.self) == int8)
            #expect(try list.decodeIfPresent(Int16.self) == int16)
            #expect(try list.decodeIfPresent(Int32.self) == int32)
            #expect(try list.decodeIfPresent(Int64.self) == int64)
            #expect(try list.decodeIfPresent(UInt.self) == uint)
            #expect(try list.decodeIfPresent(UInt8.self) == uint8)
            #expect(try list.decodeIfPresent(UInt16.self) == uint16)
            #expect(try list.decodeIfPresent(UInt32.self) == uint32)
            #expect(list.currentIndex == 13)
            #expect(try list.decode(UInt64.self) == uint64)
            #expect(try list.decodeIfPresent(String.self) == note)
            let nested = try list.nestedContainer(keyedBy: ValueKeys.self)
            #expect(pathText(nested.codingPath) == "list.Index 15")
            #expect(try nested.decode(Int.self, forKey: .int) == int)
            var deeper = try list.nestedUnkeyedContainer()
            #expect(try deeper.decode(Bool.self) == bool)
            #expect(try list.superDecoder().singleValueContainer().decode(String.self) == string)
            #expect(list.isAtEnd)
        }

        static let checksShape = CodingUserInfoKey(rawValue: "checksShape")!
    }

    @Test("Every scalar type round-trips through a record's nested containers, as JSON")
    func scalarsThroughNestedContainers() throws {
        var scalars = Scalars()
        var decoder = RecordDecoder()
        decoder.userInfo = [Scalars.checksShape: true]
        let record = try roundTrip(scalars, decoder: decoder)
        guard case .bytes(let values)? = record["values"], case .bytes(let list)? = record["list"] else {
            Issue.record("nested containers are stored as JSON")
            return
        }
        #expect(
            String(decoding: values, as: UTF8.self)
                == #"{"bool":true,"double":2.5,"extra":{"bool":true},"float":0.25,"int":-1,"int16":-16,"int32":-32,"#
                + #""int64":-64,"int8":-8,"more":["text"],"note":null,"string":"text","super":-1,"uint":1,"#
                + #""uint16":16,"uint32":32,"uint64":18446744073709551615,"uint8":8}"#)
        #expect(
            String(decoding: list, as: UTF8.self)
                == #"[true,"text",2.5,0.25,-1,-8,-16,-32,-64,1,8,16,32,18446744073709551615,null,{"int":-1},[true],"text"]"#
        )
        scalars.note = "noted"
        try roundTrip(scalars, decoder: decoder)
    }

    /// Reads each value of a JSON field through a single value container of its own, which
    /// `superDecoder(forKey:)` hands out inside the field's keyed container.
    struct SingleValueReader: Decodable {
        enum Keys: String, CodingKey { case values }
        enum ValueKeys: String, CodingKey {
            case bool, string, double, float, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
            case int128, uint128, date, note
        }

        init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: Keys.self).nestedContainer(
                keyedBy: ValueKeys.self, forKey: .values)
            func single(_ key: ValueKeys) throws -> any SingleValueDecodingContainer {
                let container = try values.superDecoder(forKey: key).singleValueContainer()
                #expect(pathText(container.codingPath) == "values.\(key.rawValue)")
                return container
            }
            #expect(try single(.bool).decode(Bool.self) == true)
            #expect(try single(.string).decode(String.self) == "text")
            #expect(try single(.double).decode(Double.self) == 2.5)
            #expect(try single(.float).decode(Float.self) == 0.25)
            #expect(try single(.int).decode(Int.self) == -1)
            #expect(try single(.int8).decode(Int8.self) == -8)
            #expect(try single(.int16).decode(Int16.self) == -16)
            #expect(try single(.int32).decode(Int32.self) == -32)
            #expect(try single(.int64).decode(Int64.self) == -64)
            #expect(try single(.uint).decode(UInt.self) == 1)
            #expect(try single(.uint8).decode(UInt8.self) == 8)
            #expect(try single(.uint16).decode(UInt16.self) == 16)
            #expect(try single(.uint32).decode(UInt32.self) == 32)
            #expect(try single(.uint64).decode(UInt64.self) == .max)
            #expect(try single(.int128).decode(Int128.self) == Int128(Int64.min) - 1)
            #expect(try single(.uint128).decode(UInt128.self) == UInt128(UInt64.max) + 1)
            #expect(try single(.date).decode(Date.self) == Date(timeIntervalSinceReferenceDate: 0.5))
            #expect(try single(.note).decodeNil())
            #expect(try !single(.string).decodeNil())
            let decoder = try values.superDecoder(forKey: .int)
            #expect(decoder.userInfo[Scalars.checksShape] as? Bool == true)
        }
    }

    @Test("Every scalar type reads through a JSON field's single value containers, with its path")
    func scalarsThroughSingleValueContainers() throws {
        let json =
            #"{"bool":true,"string":"text","double":2.5,"float":0.25,"int":-1,"int8":-8,"int16":-16,"#
            + #""int32":-32,"int64":-64,"uint":1,"uint8":8,"uint16":16,"uint32":32,"#
            + #""uint64":18446744073709551615,"int128":-9223372036854775809,"uint128":18446744073709551616,"#
            + #""date":0.5,"note":null}"#
        var record = Record(recordType: "SingleValueReader", recordName: "r1")
        record["values"] = .bytes(Data(json.utf8))
        var decoder = RecordDecoder()
        decoder.userInfo = [Scalars.checksShape: true]
        _ = try decoder.decode(SingleValueReader.self, from: record)

        // Errors carry the record's path, and a number the type cannot hold is corrupt data.
        record["values"] = .bytes(Data(json.replacingOccurrences(of: #""int8":-8"#, with: #""int8":300"#).utf8))
        expectDecodingError("dataCorrupted", at: "values.int8") {
            _ = try RecordDecoder().decode(SingleValueReader.self, from: record)
        }
        record["values"] = .bytes(Data(json.replacingOccurrences(of: #""bool":true"#, with: #""bool":1"#).utf8))
        expectDecodingError("typeMismatch", at: "values.bool") {
            _ = try RecordDecoder().decode(SingleValueReader.self, from: record)
        }
    }

    @Test("Errors read through a JSON field's containers carry the record's path")
    func errorsThroughNestedContainers() throws {
        var record = try RecordEncoder().encode(Scalars())
        record["values"] = .bytes(Data(#"{"bool":1}"#.utf8))
        expectDecodingError("typeMismatch", at: "values.bool") {
            _ = try RecordDecoder().decode(Scalars.self, from: record)
        }
        record["values"] = .bytes(Data(#"{"bool":true}"#.utf8))
        expectDecodingError("keyNotFound", at: "values.string") {
            _ = try RecordDecoder().decode(Scalars.self, from: record)
        }
        record["values"] = .bytes(Data("[]".utf8))
        expectDecodingError("typeMismatch", at: "values") { _ = try RecordDecoder().decode(Scalars.self, from: record) }
        record = try RecordEncoder().encode(Scalars())
        record["list"] = .bytes(Data(#"["yes"]"#.utf8))
        expectDecodingError("typeMismatch", at: "list.Index 0") {
            _ = try RecordDecoder().decode(Scalars.self, from: record)
        }
    }

    @Test("JSON that Foundation's decoder cannot read, met through containers, is corrupt data at its path")
    func unreadableJSONThroughContainers() throws {
        // Foundation's JSON decoder reads numbers and escapes only when a value is asked for, and
        // reports what it cannot read with an error type of its own.
        var record = try RecordEncoder().encode(Scalars())
        let cases: [(field: String, json: String, path: String)] = [
            ("list", #"[true,"text",2.5,0.25,-1,300]"#, "list.Index 5"),
            ("list", #"[true,"text",2.5,0.25,-1,-8,-16,-32,-64,1,8,16,32,1e400]"#, "list.Index 13"),
            ("list", #"[true,"\ud800x"]"#, "list.Index 1"),
            ("values", #"{"bool":true,"string":"\ud800x"}"#, "values.string"),
            ("values", #"{"bool":true,"string":"s","double":1,"float":1,"int":1,"int8":300}"#, "values.int8"),
        ]
        for (field, json, path) in cases {
            record = try RecordEncoder().encode(Scalars())
            record[field] = .bytes(Data(json.utf8))
            let error = expectDecodingError("dataCorrupted", at: path) {
                _ = try RecordDecoder().decode(Scalars.self, from: record)
            }
            #expect(error?.context?.debugDescription == "The given data was not valid JSON.")
            #expect(error?.context?.underlyingError != nil)
        }
    }
}
