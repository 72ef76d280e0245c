import Foundation
import Testing

@testable import RecordCodable

/// Raw-value enums, and the fallback that lets old app versions read new cases.
@Suite("Enums")
struct EnumTests {
    enum Color: String, Codable, Equatable {
        case red, green
    }

    enum Priority: Int, Codable, Equatable {
        case low = 1
        case high = 2
    }

    enum Status: String, RecordEnum, Equatable {
        case draft, published, unknown
        static var fallbackCase: Status { .unknown }
    }

    enum Level: Int, RecordEnum, Equatable {
        case one = 1
        case two = 2
        case unknown = 0
        static var fallbackCase: Level { .unknown }
    }

    enum Tiny: UInt8, RecordEnum, Equatable {
        case a = 1
        case unknown = 0
        static var fallbackCase: Tiny { .unknown }
    }

    struct Task: Codable, Equatable {
        var id = "t"
        var color: Color
        var priority: Priority
        var status: Status
        var level: Level
        var optionalStatus: Status?
        var history: [Status]
        var optionalColor: Color?
        var optionalPriority: Priority?
    }

    static let task = Task(
        color: .green, priority: .high, status: .published, level: .two, optionalStatus: .draft,
        history: [.draft, .published], optionalColor: .red, optionalPriority: .low)

    @Test("An enum is stored as its raw value")
    func rawValues() throws {
        let record = try roundTrip(Self.task)
        #expect(record["color"] == .string("green"))
        #expect(record["priority"] == .int64(2))
        #expect(record["status"] == .string("published"))
        #expect(record["level"] == .int64(2))
        #expect(record["optionalStatus"] == .string("draft"))
        #expect(record["history"] == .list([.string("draft"), .string("published")]))
        #expect(record["optionalColor"] == .string("red"))
        #expect(record["optionalPriority"] == .int64(1))
    }

    @Test("Nil enums store no field")
    func nilEnums() throws {
        var task = Self.task
        task.optionalStatus = nil
        task.optionalColor = nil
        task.optionalPriority = nil
        let record = try roundTrip(task)
        #expect(record["optionalStatus"] == nil)
        #expect(record["optionalColor"] == nil)
        #expect(record["optionalPriority"] == nil)
    }

    @Test("An unknown raw value decodes to the fallback case: in a property, a list and an optional")
    func fallback() throws {
        var record = try RecordEncoder().encode(Self.task)
        record["status"] = .string("archived")
        record["level"] = .int64(99)
        record["optionalStatus"] = .string("scheduled")
        record["history"] = .list([.string("draft"), .string("reviewed"), .string("published")])
        let task = try RecordDecoder().decode(Task.self, from: record)
        #expect(task.status == .unknown)
        #expect(task.level == .unknown)
        #expect(task.optionalStatus == .unknown)
        #expect(task.history == [.draft, .unknown, .published])
    }

    @Test func fallbackForOtherRawTypes() throws {
        #expect(try RecordDecoder().decode(Box<Tiny>.self, from: boxRecord(.int64(9))).value == .unknown)
        #expect(try RecordDecoder().decode(Box<Tiny>.self, from: boxRecord(.int64(1))).value == .a)
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try RecordDecoder().decode(Box<Tiny>.self, from: boxRecord(.int64(300)))
        }
    }

    enum Int8Level: Int8, RecordEnum, Equatable {
        case known = -1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum Int16Level: Int16, RecordEnum, Equatable {
        case known = -1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum Int32Level: Int32, RecordEnum, Equatable {
        case known = -1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum Int64Level: Int64, RecordEnum, Equatable {
        case known = -1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum IntLevel: Int, RecordEnum, Equatable {
        case known = -1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum UIntLevel: UInt, RecordEnum, Equatable {
        case known = 1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum UInt16Level: UInt16, RecordEnum, Equatable {
        case known = 1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum UInt32Level: UInt32, RecordEnum, Equatable {
        case known = 1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum UInt64Level: UInt64, RecordEnum, Equatable {
        case known = 1
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum DoubleLevel: Double, RecordEnum, Equatable {
        case known = 0.5
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    enum FloatLevel: Float, RecordEnum, Equatable {
        case known = 0.5
        case unknown = 0
        static var fallbackCase: Self { .unknown }
    }
    /// A `Bool`-backed value: only `true` is a known raw value.
    struct Switch: RecordEnum, Equatable {
        var rawValue: Bool
        init?(rawValue: Bool) {
            guard rawValue else { return nil }
            self.rawValue = rawValue
        }
        private init() { rawValue = true }
        static var fallbackCase: Self { Switch() }
    }

    /// A value whose raw type the standard library gives no `init(from:)` for, so it takes the
    /// protocol's own: only one UUID is known.
    struct Region: RecordEnum, Equatable {
        static let homeID = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        static let home = Region(uncheckedRawValue: UUID(uuidString: homeID) ?? UUID())
        static let elsewhere = Region(uncheckedRawValue: UUID())
        var rawValue: UUID
        init?(rawValue: UUID) {
            guard rawValue == Self.home.rawValue else { return nil }
            self.rawValue = rawValue
        }
        private init(uncheckedRawValue: UUID) { rawValue = uncheckedRawValue }
        static var fallbackCase: Self { elsewhere }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// Checks that `E` stores `known` as `stored`, reads it back, and reads `unknown` as its
    /// fallback case; a value of the wrong kind is still a type mismatch.
    private func checkFallback<E: RecordEnum & Equatable>(
        _ known: E, storedAs stored: RecordValue, unknown: RecordValue,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try roundTrip(Box(value: known))["value"] == stored, sourceLocation: sourceLocation)
        let fallback = try RecordDecoder().decode(Box<E>.self, from: boxRecord(unknown)).value
        #expect(fallback == E.fallbackCase, sourceLocation: sourceLocation)
        expectDecodingError("typeMismatch", at: "value", sourceLocation: sourceLocation) {
            _ = try RecordDecoder().decode(Box<E>.self, from: boxRecord(.string("text")))
        }
    }

    @Test("Every raw type the standard library codes gets the fallback")
    func fallbackForEveryRawType() throws {
        try checkFallback(Int8Level.known, storedAs: .int64(-1), unknown: .int64(7))
        try checkFallback(Int16Level.known, storedAs: .int64(-1), unknown: .int64(7))
        try checkFallback(Int32Level.known, storedAs: .int64(-1), unknown: .int64(7))
        try checkFallback(Int64Level.known, storedAs: .int64(-1), unknown: .int64(7))
        try checkFallback(IntLevel.known, storedAs: .int64(-1), unknown: .int64(7))
        try checkFallback(UIntLevel.known, storedAs: .int64(1), unknown: .int64(7))
        try checkFallback(UInt16Level.known, storedAs: .int64(1), unknown: .int64(7))
        try checkFallback(UInt32Level.known, storedAs: .int64(1), unknown: .int64(7))
        try checkFallback(UInt64Level.known, storedAs: .int64(1), unknown: .int64(7))
        try checkFallback(DoubleLevel.known, storedAs: .double(0.5), unknown: .double(7.5))
        try checkFallback(FloatLevel.known, storedAs: .double(0.5), unknown: .double(7.5))
        #expect(try roundTrip(Box(value: Switch.fallbackCase))["value"] == .int64(1))
        #expect(try RecordDecoder().decode(Box<Switch>.self, from: boxRecord(.int64(0))).value == .fallbackCase)
        // A raw value out of its type's range is corrupt, not unknown.
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try RecordDecoder().decode(Box<Int8Level>.self, from: boxRecord(.int64(300)))
        }
    }

    @Test("A raw type without a standard library init(from:) gets the fallback too")
    func fallbackForOtherRawType() throws {
        #expect(try roundTrip(Box(value: Region.home))["value"] == .string(Region.homeID))
        let unknown = boxRecord(.string(UUID().uuidString))
        #expect(try RecordDecoder().decode(Box<Region>.self, from: unknown).value == .fallbackCase)
        // Text that is no UUID at all is corrupt, not unknown.
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try RecordDecoder().decode(Box<Region>.self, from: boxRecord(.string("text")))
        }
    }

    @Test("The fallback works inside nested values stored as JSON")
    func fallbackInsideNestedJSON() throws {
        struct Step: Codable, Equatable {
            var status: Status
        }
        let record = boxRecord(.bytes(Data(#"[{"status":"draft"},{"status":"future"}]"#.utf8)))
        let steps = try RecordDecoder().decode(Box<[Step]>.self, from: record).value
        #expect(steps == [Step(status: .draft), Step(status: .unknown)])
    }

    @Test("A raw value of the wrong type is still a type mismatch")
    func wrongRawType() throws {
        var record = try RecordEncoder().encode(Self.task)
        record["status"] = .int64(1)
        expectDecodingError("typeMismatch", at: "status") { _ = try RecordDecoder().decode(Task.self, from: record) }
    }

    @Test("A plain enum with an unknown raw value is corrupt")
    func unknownRawValueWithoutFallback() throws {
        var record = try RecordEncoder().encode(Self.task)
        record["color"] = .string("purple")
        expectDecodingError("dataCorrupted", at: "color") { _ = try RecordDecoder().decode(Task.self, from: record) }
        record = try RecordEncoder().encode(Self.task)
        record["priority"] = .int64(3)
        expectDecodingError("dataCorrupted", at: "priority") { _ = try RecordDecoder().decode(Task.self, from: record) }
    }

    /// A raw-value enum that reads its raw value itself and words its own error.
    enum Mood: String, Codable {
        case calm, busy

        init(from decoder: any Decoder) throws {
            let rawValue = try decoder.singleValueContainer().decode(String.self)
            guard let mood = Mood(rawValue: rawValue) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "No mood \(rawValue)"))
            }
            self = mood
        }
    }

    /// A raw-value type that refuses a raw value it has, in the standard library's words.
    struct Even: RawRepresentable, Codable, Equatable {
        var rawValue: Int

        init(rawValue: Int) { self.rawValue = rawValue }

        init(from decoder: any Decoder) throws {
            let rawValue = try decoder.singleValueContainer().decode(Int.self)
            guard rawValue.isMultiple(of: 2) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath, debugDescription: "Cannot initialize Even from odd \(rawValue)")
                )
            }
            self.init(rawValue: rawValue)
        }
    }

    @Test("An unknown raw value is told by the type, whatever its error says")
    func unknownRawValueToldByType() throws {
        // A raw value that no case has gets the advice, in the enum's own words.
        let mood = Record(recordType: "Box", recordName: "b", fields: ["value": .string("sleepy")])
        let moodError = expectDecodingError("dataCorrupted", at: "value") {
            _ = try RecordDecoder().decode(Box<Mood>.self, from: mood)
        }
        #expect(
            moodError?.context?.debugDescription
                == #"No mood sleepy in record Box "b". If other versions of the app may store values that Mood "#
                + "does not have, make it a RecordEnum, whose fallbackCase reads them.")
        // A raw value the type has, refused for another reason, is the type's error alone.
        let even = Record(recordType: "Box", recordName: "b", fields: ["value": .int64(3)])
        let evenError = expectDecodingError("dataCorrupted", at: "value") {
            _ = try RecordDecoder().decode(Box<Even>.self, from: even)
        }
        #expect(evenError?.context?.debugDescription == "Cannot initialize Even from odd 3")
        // Inside a list, the element's raw value is the one told.
        let list = Record(
            recordType: "Box", recordName: "b", fields: ["value": .list([.string("calm"), .string("x")])])
        let listError = expectDecodingError("dataCorrupted", at: "value.Index 1") {
            _ = try RecordDecoder().decode(Box<[Mood]>.self, from: list)
        }
        #expect(listError?.context?.debugDescription.hasPrefix("No mood x in record Box") == true)
    }

    @Test("An enum with associated values is a nested value")
    func enumWithAssociatedValues() throws {
        enum Shape: Codable, Equatable {
            case circle(radius: Double)
            case square(side: Double)
        }
        let record = try roundTrip(Box(value: Shape.circle(radius: 2)))
        #expect(record["value"] == .bytes(Data(#"{"circle":{"radius":2}}"#.utf8)))
        try roundTrip(Box(value: [Shape.square(side: 1), .circle(radius: 0.5)]))
    }
}
