import Foundation
import Testing

@testable import RecordCodable

/// Values with no native field type are stored as JSON bytes: lossless and deterministic.
@Suite("Nested values")
struct NestedValueTests {
    struct Address: Codable, Equatable {
        var street: String
        var zipCode: String
        var movedIn: Date
    }

    struct Customer: Codable, Equatable {
        var id = "c"
        var address: Address
        var previous: Address?
        var history: [Address]
    }

    static let address = Address(
        street: "1 Infinite Loop", zipCode: "95014", movedIn: Date(timeIntervalSince1970: 1_000_000_000.123_456_7))

    @Test("A nested struct is stored as sorted JSON")
    func nestedStruct() throws {
        let record = try roundTrip(Customer(address: Self.address, previous: nil, history: []))
        let json = try #require(record["address"].flatMap { if case .bytes(let data) = $0 { data } else { nil } })
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.hasPrefix(#"{"movedIn":"#))
        #expect(text.hasSuffix(#""street":"1 Infinite Loop","zipCode":"95014"}"#))
        #expect(record["previous"] == nil)
        #expect(record["history"] == .list([]))
    }

    @Test func optionalAndListOfChildren() throws {
        let record = try roundTrip(
            Customer(address: Self.address, previous: Self.address, history: [Self.address, Self.address]))
        guard case .bytes? = record["previous"], case .bytes? = record["history"] else {
            Issue.record("children are JSON bytes")
            return
        }
    }

    @Test("Encoding the same value twice gives the same bytes")
    func deterministic() throws {
        let customer = Customer(address: Self.address, previous: nil, history: [Self.address])
        let dictionary = Box(value: ["b": 2, "a": 1, "c": 3, "d": 4, "e": 5, "f": 6])
        #expect(try RecordEncoder().encode(customer) == RecordEncoder().encode(customer))
        let first = try RecordEncoder().encode(dictionary)
        #expect(first["value"] == .bytes(Data(#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}"#.utf8)))
        for _ in 0..<20 {
            #expect(try RecordEncoder().encode(dictionary) == first)
        }
    }

    @Test("A date inside a nested value keeps sub-millisecond precision")
    func subMillisecondDates() throws {
        let dates = [
            Date(timeIntervalSince1970: 1_699_920_000.000_123_4), Date(timeIntervalSinceReferenceDate: 0.000_000_1),
            Date(timeIntervalSinceReferenceDate: -1e-9), Date.distantPast, Date.distantFuture, Date(),
        ]
        for date in dates {
            let decoded = try RecordDecoder().decode(
                Box<Address>.self,
                from: RecordEncoder().encode(Box(value: Address(street: "", zipCode: "", movedIn: date))))
            #expect(decoded.value.movedIn == date)
            #expect(
                decoded.value.movedIn.timeIntervalSinceReferenceDate.bitPattern
                    == date.timeIntervalSinceReferenceDate.bitPattern)
        }
    }

    @Test("Doubles JSON cannot carry survive inside nested values")
    func nonFiniteDoublesInsideNestedValues() throws {
        struct Reading: Codable, Equatable {
            var values: [Double]
            var label: String
        }
        let reading = Reading(values: [.infinity, -.infinity, 1.5], label: "NaN")
        let record = try roundTrip(Box(value: reading))
        let decoded = try RecordDecoder().decode(Box<Reading>.self, from: record)
        #expect(decoded.value.label == "NaN")
        let withNaN = try RecordDecoder().decode(
            Box<Reading>.self, from: RecordEncoder().encode(Box(value: Reading(values: [.nan], label: ""))))
        #expect(withNaN.value.values.first?.isNaN == true)
    }

    @Test func dictionaries() throws {
        #expect(try roundTrip(Box(value: ["x": 1]))["value"] == .bytes(Data(#"{"x":1}"#.utf8)))
        #expect(
            try roundTrip(Box(value: [1: "one", 2: "two"]))["value"] == .bytes(Data(#"{"1":"one","2":"two"}"#.utf8)))
        try roundTrip(Box(value: [String: Int]()))
        try roundTrip(Box(value: ["a": [1, 2], "b": []]))
        try roundTrip(Box(value: ["nested": ["deeper": Self.address]]))
    }

    @Test("A dictionary whose keys are neither strings nor integers is JSON too, not a list")
    func dictionaryWithOtherKeys() throws {
        let value: [Double: Double] = [1.5: 2.5]
        let record = try roundTrip(Box(value: value))
        #expect(record["value"] == .bytes(Data("[1.5,2.5]".utf8)))
        let byUUID = [UUID(): "a"]
        #expect(try roundTrip(Box(value: byUUID))["value"].map { if case .bytes = $0 { true } else { false } } == true)
    }

    /// 128-bit integers written and read by hand, through nested containers and a super encoder.
    struct WideNumbers: Codable, Equatable {
        enum Keys: String, CodingKey { case range, limits, single, low, high }
        var low: Int128
        var high: UInt128
        var limits: [Int128]
        var single: UInt128

        init(low: Int128, high: UInt128, limits: [Int128], single: UInt128) {
            self.low = low
            self.high = high
            self.limits = limits
            self.single = single
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var range = container.nestedContainer(keyedBy: Keys.self, forKey: .range)
            try range.encode(low, forKey: .low)
            try range.encode(high, forKey: .high)
            var limitList = container.nestedUnkeyedContainer(forKey: .limits)
            for limit in limits { try limitList.encode(limit) }
            var singleValue = container.superEncoder(forKey: .single).singleValueContainer()
            try singleValue.encode(single)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let range = try container.nestedContainer(keyedBy: Keys.self, forKey: .range)
            low = try range.decode(Int128.self, forKey: .low)
            high = try range.decode(UInt128.self, forKey: .high)
            var limitList = try container.nestedUnkeyedContainer(forKey: .limits)
            var limits: [Int128] = []
            while !limitList.isAtEnd { limits.append(try limitList.decode(Int128.self)) }
            self.limits = limits
            single = try container.superDecoder(forKey: .single).singleValueContainer().decode(UInt128.self)
        }
    }

    @Test("128-bit integers beyond 64 bits, in containers a model nests by hand, are kept exactly as JSON")
    func wideIntegersInNestedContainers() throws {
        let value = WideNumbers(
            low: Int128(Int64.min) - 1, high: UInt128(UInt64.max) + 1, limits: [Int128(Int64.min), Int128(Int64.max)],
            single: UInt128(Int64.max))
        let record = try RecordEncoder().encode(value)
        #expect(try RecordDecoder().decode(WideNumbers.self, from: record) == value)
        guard case .bytes(let range)? = record["range"] else {
            Issue.record("range is \(String(describing: record["range"]))")
            return
        }
        #expect(String(decoding: range, as: UTF8.self) == #"{"high":18446744073709551616,"low":-9223372036854775809}"#)
        // A list of integers, and a single one, are native fields: a value beyond 64 bits is refused at its path.
        var tooLow = value
        tooLow.limits = [.min]
        expectEncodingError(at: "limits.Index 0") { _ = try RecordEncoder().encode(tooLow) }
        var tooHigh = value
        tooHigh.single = .max
        expectEncodingError(at: "single") { _ = try RecordEncoder().encode(tooHigh) }
    }

    @Test("A list of lists is JSON")
    func listOfLists() throws {
        #expect(try roundTrip(Box(value: [[1, 2], [3]]))["value"] == .bytes(Data("[[1,2],[3]]".utf8)))
        #expect(try roundTrip(Box(value: [[String]]()))["value"] == .list([]))
        #expect(try roundTrip(Box(value: [[String](), ["a"]]))["value"] == .bytes(Data(#"[[],["a"]]"#.utf8)))
    }

    /// A value that reads leniently: whatever it cannot read becomes a default, as models that
    /// accept data from older versions often do.
    struct Lenient: Codable, Equatable {
        enum Keys: CodingKey { case name }
        var name: String

        init(name: String) { self.name = name }

        init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: Keys.self),
                let name = try? container.decode(String.self, forKey: .name)
            {
                self.name = name
            } else {
                name = "default"
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
        }
    }

    /// A list, written with a `nil` at its end, that reads as empty when it cannot be read.
    struct LenientList: Codable, Equatable {
        var values: [Int]

        init(values: [Int]) { self.values = values }

        init(from decoder: any Decoder) throws {
            guard var container = try? decoder.unkeyedContainer() else {
                values = []
                return
            }
            var values: [Int] = []
            while !container.isAtEnd {
                if try container.decodeNil() { continue }
                values.append(try container.decode(Int.self))
            }
            self.values = values
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(contentsOf: values)
            try container.encodeNil()
        }
    }

    /// A payload that is either structured or raw bytes, and reads whichever it finds.
    enum Payload: Codable, Equatable {
        case named(String)
        case raw(Data)

        enum Keys: CodingKey { case name }

        init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: Keys.self) {
                self = .named(try container.decode(String.self, forKey: .name))
            } else {
                self = .raw(try decoder.singleValueContainer().decode(Data.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .named(let name):
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(name, forKey: .name)
            case .raw(let data):
                var container = encoder.singleValueContainer()
                try container.encode(data)
            }
        }
    }

    @Test("A value that tries a keyed container and falls back to raw bytes reads both forms")
    func keyedOrRawBytes() throws {
        #expect(try roundTrip(Box(value: Payload.named("n")))["value"] == .bytes(Data(#"{"name":"n"}"#.utf8)))
        #expect(try roundTrip(Box(value: Payload.raw(Data([0, 255, 7]))))["value"] == .bytes(Data([0, 255, 7])))
        #expect(try roundTrip(Box(value: [Payload.raw(Data([1])), .named("m")]))["value"] != nil)
    }

    @Test("A value that catches its own errors reads its JSON whole, as with Foundation's JSON decoder")
    func lenientValue() throws {
        let lenient = Lenient(name: "real")
        #expect(try roundTrip(Box(value: lenient))["value"] == .bytes(Data(#"{"name":"real"}"#.utf8)))
        #expect(try roundTrip(OptionalBox(value: lenient))["value"] != nil)
        #expect(try roundTrip(Box(value: [lenient]))["value"] == .bytes(Data(#"[{"name":"real"}]"#.utf8)))
        #expect(try JSONDecoder().decode(Lenient.self, from: JSONEncoder().encode(lenient)) == lenient)
        #expect(try roundTrip(Box(value: LenientList(values: [1, 2])))["value"] == .bytes(Data("[1,2,null]".utf8)))
    }

    @Test("A collection of optionals is JSON, with or without a nil, so its field keeps one type")
    func listOfOptionals() throws {
        #expect(try roundTrip(Box(value: ["a", nil, "c"]))["value"] == .bytes(Data(#"["a",null,"c"]"#.utf8)))
        #expect(try roundTrip(Box(value: [Int?]([1, 2])))["value"] == .bytes(Data("[1,2]".utf8)))
        #expect(try roundTrip(Box(value: Set<Int?>([5])))["value"] == .bytes(Data("[5]".utf8)))
        #expect(try roundTrip(Box(value: [Int?]?.some([nil])))["value"] == .bytes(Data("[null]".utf8)))
        #expect(try roundTrip(Box(value: [String?]()))["value"] == .list([]))
        // A record written by other code may hold such a collection as a list: it decodes.
        let decoded = try RecordDecoder().decode(Box<[Int?]>.self, from: boxRecord(.list([.int64(1), .int64(2)])))
        #expect(decoded.value == [1, 2])
    }

    @Test("A list whose elements map to different field types is JSON")
    func mixedList() throws {
        let urls = [URL(string: "https://example.com")!, URL(fileURLWithPath: "/tmp/file")]
        let record = try RecordEncoder().encode(Box(value: urls))
        guard case .bytes? = record["value"] else {
            Issue.record("a list of web and file URLs cannot be one list")
            return
        }
        #expect(
            try RecordDecoder().decode(Box<[URL]>.self, from: record).value.map(\.absoluteString)
                == urls.map(\.absoluteString))
    }

    @Test("Lists of nested values, and nested values holding lists")
    func listsOfNestedValues() throws {
        try roundTrip(Box(value: [Self.address]))
        try roundTrip(Box(value: [[Self.address], []]))
        try roundTrip(Box(value: Set([1, 2]).map { ["k": $0] }))
    }

    @Test("Key strategies never apply inside nested JSON")
    func keyStrategyStopsAtTheField() throws {
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var decoder = RecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Holder: Codable, Equatable {
            var id = "h"
            var homeAddress: Address
        }
        let record = try roundTrip(Holder(homeAddress: Self.address), encoder: encoder, decoder: decoder)
        let json = try #require(record["home_address"].flatMap { if case .bytes(let data) = $0 { data } else { nil } })
        #expect(String(decoding: json, as: UTF8.self).contains(#""zipCode":"95014""#))
    }

    @Test("A value that encodes nothing is an empty JSON object")
    func valueThatEncodesNothing() throws {
        struct Empty: Codable, Equatable {}
        #expect(try roundTrip(Box(value: Empty()))["value"] == .bytes(Data("{}".utf8)))
        // One that asks for no container at all is written as Foundation's JSON encoder writes
        // such a value inside another.
        struct Silent: Codable, Equatable {
            init() {}
            init(from decoder: any Decoder) throws {}
            func encode(to encoder: any Encoder) throws {}
        }
        #expect(try NestedJSON.encoder.encode(["value": Silent()]) == Data(#"{"value":{}}"#.utf8))
        #expect(try roundTrip(Box(value: Silent()))["value"] == .bytes(Data("{}".utf8)))
    }

    @Test("An encoding error thrown inside a nested value carries the field's path before its own")
    func encodingErrorsInsideNestedValues() throws {
        struct Checked: Codable, Equatable {
            var level: Int

            enum CodingKeys: String, CodingKey { case level }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                guard level >= 0 else {
                    throw EncodingError.invalidValue(
                        level,
                        EncodingError.Context(
                            codingPath: container.codingPath + [CodingKeys.level], debugDescription: "Negative level."))
                }
                try container.encode(level, forKey: .level)
            }
        }
        let single = expectEncodingError(at: "value.level") {
            _ = try RecordEncoder().encode(Box(value: Checked(level: -1)))
        }
        #expect(single?.context?.debugDescription == "Negative level.")
        expectEncodingError(at: "value.Index 1.level") {
            _ = try RecordEncoder().encode(Box(value: [Checked(level: 1), Checked(level: -1)]))
        }
        #expect(try roundTrip(Box(value: Checked(level: 2)))["value"] == .bytes(Data(#"{"level":2}"#.utf8)))
    }

    @Test("A wrapper of a single value is stored as the value it wraps")
    func singleValueWrappers() throws {
        struct Celsius: Codable, Equatable {
            var degrees: Double
            init(_ degrees: Double) { self.degrees = degrees }
            init(from decoder: any Decoder) throws { degrees = try decoder.singleValueContainer().decode(Double.self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(degrees)
            }
        }
        struct Tagged<Value: Codable & Equatable>: Codable, Equatable {
            var value: Value
            init(_ value: Value) { self.value = value }
            init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value)
            }
        }
        #expect(try roundTrip(Box(value: Celsius(21.5)))["value"] == .double(21.5))
        #expect(try roundTrip(Box(value: [Celsius(1), Celsius(2)]))["value"] == .list([.double(1), .double(2)]))
        #expect(try roundTrip(Box(value: Tagged(["a", "b"])))["value"] == .list([.string("a"), .string("b")]))
        #expect(
            try roundTrip(Box(value: Tagged(Date(timeIntervalSince1970: 5))))["value"]
                == .date(Date(timeIntervalSince1970: 5)))
        #expect(
            try roundTrip(Box(value: Tagged(Self.address)))["value"]
                == RecordEncoder().encode(Box(value: Self.address))["value"])
        #expect(try roundTrip(Box(value: Tagged<Int?>(nil))).fields.isEmpty)
        #expect(
            try roundTrip(Box(value: [Tagged(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)]))["value"]
                == .list([.string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")]))
    }
}
