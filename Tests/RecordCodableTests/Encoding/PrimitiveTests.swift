import Foundation
import Testing

@testable import RecordCodable

/// Every plain Swift value, at its boundaries: what field it becomes, and that it comes back.
@Suite("Primitive values")
struct PrimitiveTests {
    /// Checks that `value` is stored as `.int64(expected)` and decodes back equal.
    private func checkInteger<I: FixedWidthInteger & Codable>(_ value: I) throws {
        let record = try roundTrip(Box(value: value))
        #expect(record["value"] == .int64(Int64(value)))
    }

    @Test(arguments: [Int.min, -1, 0, 1, Int.max])
    func int(_ value: Int) throws { try checkInteger(value) }

    @Test(arguments: [Int8.min, -1, 0, 1, Int8.max])
    func int8(_ value: Int8) throws { try checkInteger(value) }

    @Test(arguments: [Int16.min, -1, 0, 1, Int16.max])
    func int16(_ value: Int16) throws { try checkInteger(value) }

    @Test(arguments: [Int32.min, -1, 0, 1, Int32.max])
    func int32(_ value: Int32) throws { try checkInteger(value) }

    @Test(arguments: [Int64.min, -1, 0, 1, Int64.max])
    func int64(_ value: Int64) throws { try checkInteger(value) }

    @Test(arguments: [UInt8.min, 1, UInt8.max])
    func uint8(_ value: UInt8) throws { try checkInteger(value) }

    @Test(arguments: [UInt16.min, 1, UInt16.max])
    func uint16(_ value: UInt16) throws { try checkInteger(value) }

    @Test(arguments: [UInt32.min, 1, UInt32.max])
    func uint32(_ value: UInt32) throws { try checkInteger(value) }

    @Test(arguments: [UInt64.min, 1, UInt64(Int64.max)])
    func uint64(_ value: UInt64) throws { try checkInteger(value) }

    @Test(arguments: [UInt.min, 1, UInt(Int64.max)])
    func uint(_ value: UInt) throws { try checkInteger(value) }

    @Test(
        "128-bit integers are stored when they fit in 64 bits",
        arguments: [Int128(Int64.min), -1, 0, Int128(Int64.max)])
    func int128(_ value: Int128) throws {
        #expect(try roundTrip(Box(value: value))["value"] == .int64(Int64(value)))
        #expect(try roundTrip(Box(value: [value]))["value"] == .list([.int64(Int64(value))]))
        #expect(try roundTrip(OptionalBox(value: value))["value"] == .int64(Int64(value)))
        if value >= 0 {
            #expect(try roundTrip(Box(value: UInt128(value)))["value"] == .int64(Int64(value)))
        }
    }

    /// Every integer type as a property of its own type, so that the containers' concrete overloads
    /// are called, not the generic one a `Box` calls.
    struct EveryInteger: Codable, Equatable {
        var id = "every"
        var int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
        var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
        var int128: Int128, uint128: UInt128
        var optionalInt16: Int16?, optionalUInt: UInt?, optionalInt128: Int128?, optionalUInt128: UInt128?

        static let lowest = EveryInteger(
            int: .min, int8: .min, int16: .min, int32: .min, int64: .min, uint: 0, uint8: 0, uint16: 0, uint32: 0,
            uint64: 0, int128: Int128(Int64.min), uint128: 0, optionalInt16: .min, optionalUInt: 0,
            optionalInt128: Int128(Int64.min), optionalUInt128: 0)
        static let highest = EveryInteger(
            int: .max, int8: .max, int16: .max, int32: .max, int64: .max, uint: UInt(Int64.max), uint8: .max,
            uint16: .max, uint32: .max, uint64: UInt64(Int64.max), int128: Int128(Int64.max),
            uint128: UInt128(Int64.max), optionalInt16: .max, optionalUInt: UInt(Int64.max),
            optionalInt128: Int128(Int64.max), optionalUInt128: UInt128(Int64.max))
        static let absent = EveryInteger(
            int: 1, int8: 1, int16: 1, int32: 1, int64: 1, uint: 1, uint8: 1, uint16: 1, uint32: 1, uint64: 1,
            int128: 1, uint128: 1, optionalInt16: nil, optionalUInt: nil, optionalInt128: nil, optionalUInt128: nil)
    }

    @Test(
        "Each integer type's own overload stores its whole range that fits in 64 bits",
        arguments: [EveryInteger.lowest, EveryInteger.highest, EveryInteger.absent])
    func everyIntegerOverload(_ model: EveryInteger) throws {
        let record = try roundTrip(model)
        #expect(record.fields.count == (model.optionalInt16 == nil ? 12 : 16))
        #expect(record["int128"] == .int64(Int64(model.int128)))
        #expect(record["uint128"] == .int64(Int64(model.uint128)))
        #expect(record["uint32"] == .int64(Int64(model.uint32)))
    }

    @Test("Each integer type's own overload refuses what does not fit, with the field's path")
    func everyIntegerOverloadOutOfRange() throws {
        var model = EveryInteger.highest
        model.int128 = Int128(Int64.max) + 1
        expectEncodingError(at: "int128") { _ = try RecordEncoder().encode(model) }
        model = .highest
        model.optionalUInt128 = UInt128(Int64.max) + 1
        expectEncodingError(at: "optionalUInt128") { _ = try RecordEncoder().encode(model) }

        var record = try RecordEncoder().encode(EveryInteger.highest)
        for field in ["int16", "int32", "uint", "uint16", "uint32", "optionalInt16", "optionalUInt"] {
            var changed = record
            changed[field] = .int64(-1 &- Int64(Int32.max) &* 4)
            let error = expectDecodingError("dataCorrupted", at: field) {
                _ = try RecordDecoder().decode(EveryInteger.self, from: changed)
            }
            #expect(error?.context?.debugDescription.hasPrefix("Number -") == true)
        }
        record["uint128"] = .int64(-1)
        expectDecodingError("dataCorrupted", at: "uint128") {
            _ = try RecordDecoder().decode(EveryInteger.self, from: record)
        }
        record["uint128"] = .int64(1)
        record["optionalInt128"] = .string("1")
        expectDecodingError("typeMismatch", at: "optionalInt128") {
            _ = try RecordDecoder().decode(EveryInteger.self, from: record)
        }
        record["optionalInt128"] = .double(-2)
        record["optionalUInt128"] = .double(-2)
        expectDecodingError("dataCorrupted", at: "optionalUInt128") {
            _ = try RecordDecoder().decode(EveryInteger.self, from: record)
        }
    }

    @Test("A 128-bit integer beyond 64 bits cannot be stored, and does not fit when decoded")
    func int128OutOfRange() throws {
        expectEncodingError(at: "value") { _ = try RecordEncoder().encode(Box(value: Int128(Int64.max) + 1)) }
        expectEncodingError(at: "value") { _ = try RecordEncoder().encode(Box(value: UInt128.max)) }
        expectEncodingError(at: "value.Index 0") { _ = try RecordEncoder().encode(Box(value: [Int128.min])) }
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try RecordDecoder().decode(Box<UInt128>.self, from: boxRecord(.int64(-1)))
        }
        #expect(
            try RecordDecoder().decode(Box<Int128>.self, from: boxRecord(.double(1e18))).value
                == 1_000_000_000_000_000_000)
    }

    @Test("An unsigned integer over Int64.max cannot be stored", arguments: [UInt64(Int64.max) + 1, UInt64.max])
    func uint64OverInt64Max(_ value: UInt64) throws {
        let error = expectEncodingError(at: "value") { _ = try RecordEncoder().encode(Box(value: value)) }
        #expect(error?.context?.debugDescription.contains("\(value)") == true)
        expectEncodingError(at: "value") { _ = try RecordEncoder().encode(Box(value: UInt(value))) }
        expectEncodingError(at: "value.Index 1") { _ = try RecordEncoder().encode(Box(value: [1, value])) }
    }

    @Test(arguments: [false, true])
    func bool(_ value: Bool) throws {
        let record = try roundTrip(Box(value: value))
        #expect(record["value"] == .int64(value ? 1 : 0))
    }

    @Test(arguments: [
        0.0, -0.0, 1.5, -1.5, 0.1, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude,
        Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.infinity, -Double.infinity,
        9_007_199_254_740_993.0, Double.pi,
    ])
    func double(_ value: Double) throws {
        let record = try roundTrip(Box(value: value))
        #expect(record["value"] == .double(value))
        let decoded = try RecordDecoder().decode(Box<Double>.self, from: record)
        #expect(decoded.value.sign == value.sign)
        #expect(decoded.value.bitPattern == value.bitPattern)
    }

    @Test func doubleNaN() throws {
        let record = try RecordEncoder().encode(Box(value: Double.nan))
        guard case .double(let stored)? = record["value"] else {
            Issue.record("expected a double field")
            return
        }
        #expect(stored.isNaN)
        #expect(try RecordDecoder().decode(Box<Double>.self, from: record).value.isNaN)
    }

    @Test(arguments: [
        Float(0), -Float(0), 1.5, 0.1, Float.leastNonzeroMagnitude, Float.greatestFiniteMagnitude, Float.infinity,
        -Float.infinity, Float(16_777_216).nextUp,
    ])
    func float(_ value: Float) throws {
        let record = try roundTrip(Box(value: value))
        #expect(record["value"] == .double(Double(value)))
        #expect(try RecordDecoder().decode(Box<Float>.self, from: record).value.bitPattern == value.bitPattern)
    }

    @Test("A Float decodes a double rounded to the nearest Float")
    func floatRoundsToNearest() throws {
        let decoded = try RecordDecoder().decode(Box<Float>.self, from: boxRecord(.double(0.1)))
        #expect(decoded.value == Float(0.1))
        let large = try RecordDecoder().decode(Box<Float>.self, from: boxRecord(.double(16_777_217)))
        #expect(large.value == 16_777_216)
    }

    @Test(arguments: ["", "plain", "héllo wörld", "👋🏽 family: 👨‍👩‍👧‍👦", "line\nbreak\ttab\"quote\\", "\u{0}nul", "日本語"])
    func string(_ value: String) throws {
        let record = try roundTrip(Box(value: value))
        #expect(record["value"] == .string(value))
    }

    @Test func longString() throws {
        let value = String(repeating: "long text ", count: 10_000)
        let record = try roundTrip(Box(value: value))
        #expect(record.encodedSize == "value".utf8.count + value.utf8.count)
    }

    // MARK: Lists of primitives

    @Test func listsOfEveryPrimitive() throws {
        #expect(try roundTrip(Box(value: [true, false]))["value"] == .list([.int64(1), .int64(0)]))
        #expect(try roundTrip(Box(value: [Int8.min, Int8.max]))["value"] == .list([.int64(-128), .int64(127)]))
        #expect(try roundTrip(Box(value: [Int16.min]))["value"] == .list([.int64(Int64(Int16.min))]))
        #expect(try roundTrip(Box(value: [Int32.max]))["value"] == .list([.int64(Int64(Int32.max))]))
        #expect(try roundTrip(Box(value: [Int64.min, Int64.max]))["value"] == .list([.int64(.min), .int64(.max)]))
        #expect(
            try roundTrip(Box(value: [Int.min, 0, Int.max]))["value"] == .list([.int64(.min), .int64(0), .int64(.max)]))
        #expect(try roundTrip(Box(value: [UInt8.max]))["value"] == .list([.int64(255)]))
        #expect(try roundTrip(Box(value: [UInt16.max]))["value"] == .list([.int64(65_535)]))
        #expect(try roundTrip(Box(value: [UInt32.max]))["value"] == .list([.int64(Int64(UInt32.max))]))
        #expect(try roundTrip(Box(value: [UInt64(Int64.max)]))["value"] == .list([.int64(.max)]))
        #expect(try roundTrip(Box(value: [UInt(7)]))["value"] == .list([.int64(7)]))
        #expect(try roundTrip(Box(value: [Float(1.5), -0.0]))["value"] == .list([.double(1.5), .double(-0.0)]))
        #expect(
            try roundTrip(Box(value: [0.5, -0.0, .infinity]))["value"]
                == .list([.double(0.5), .double(-0.0), .double(.infinity)]))
        #expect(
            try roundTrip(Box(value: ["a", "", "ü"]))["value"] == .list([.string("a"), .string(""), .string("ü")]))
    }

    @Test func emptyListsOfEveryPrimitive() throws {
        #expect(try roundTrip(Box(value: [Bool]()))["value"] == .list([]))
        #expect(try roundTrip(Box(value: [Int8]()))["value"] == .list([]))
        #expect(try roundTrip(Box(value: [UInt64]()))["value"] == .list([]))
        #expect(try roundTrip(Box(value: [Double]()))["value"] == .list([]))
        #expect(try roundTrip(Box(value: [String]()))["value"] == .list([]))
        #expect(try roundTrip(Box(value: [Int]()))["value"] == .list([]))
    }

    @Test("An empty list decodes into an empty collection of any element type")
    func emptyListDecodesIntoAnyCollection() throws {
        let record = boxRecord(.list([]))
        #expect(try RecordDecoder().decode(Box<[Date]>.self, from: record).value == [])
        #expect(try RecordDecoder().decode(Box<Set<String>>.self, from: record).value == [])
        #expect(try RecordDecoder().decode(Box<[[Int]]>.self, from: record).value == [])
        #expect(try RecordDecoder().decode(Box<[String?]>.self, from: record).value == [])
        #expect(try RecordDecoder().decode(Box<[URL]>.self, from: record).value == [])
    }

    @Test func sets() throws {
        let record = try roundTrip(Box(value: Set([3, 1, 2])))
        guard case .list(let elements)? = record["value"] else {
            Issue.record("a set is a list")
            return
        }
        #expect(Set(elements) == [.int64(1), .int64(2), .int64(3)])
        try roundTrip(Box(value: Set(["a", "b"])))
        try roundTrip(Box(value: Set<Double>()))
    }

    // MARK: Optionals

    @Test func nilStoresNoField() throws {
        let record = try roundTrip(OptionalBox<Int>(value: nil))
        #expect(record.fields.isEmpty)
        #expect(try roundTrip(OptionalBox(value: 5))["value"] == .int64(5))
        #expect(try roundTrip(OptionalBox<String>(value: nil)).fields.isEmpty)
        #expect(try roundTrip(OptionalBox(value: "x"))["value"] == .string("x"))
        #expect(try roundTrip(OptionalBox<[Int]>(value: nil)).fields.isEmpty)
        #expect(try roundTrip(OptionalBox<Double>(value: 1.5))["value"] == .double(1.5))
        #expect(try roundTrip(OptionalBox<Bool>(value: false))["value"] == .int64(0))
        #expect(try roundTrip(OptionalBox<UInt8>(value: 200))["value"] == .int64(200))
        #expect(try roundTrip(OptionalBox<Float>(value: 2))["value"] == .double(2))
    }

    @Test("A double optional stores its inner nil as no field too")
    func nestedOptional() throws {
        struct Model: Codable, Equatable {
            var id = "m"
            var value: Int??
        }
        #expect(try RecordEncoder().encode(Model(value: .some(nil))).fields.isEmpty)
        #expect(try roundTrip(Model(value: .some(.some(3))))["value"] == .int64(3))
    }
}
