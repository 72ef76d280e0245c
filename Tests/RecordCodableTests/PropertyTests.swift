import Foundation
import Testing

@testable import RecordCodable

/// Seeded, reproducible random tests: thousands of random models round-trip exactly, and random or
/// mutated records either decode or throw `DecodingError`, never anything else.
///
/// A failure names its seed and iteration; `RandomSource(seed:)` with that seed replays it.
@Suite("Properties")
struct PropertyTests {
    static let seed: UInt64 = 0x5EED_2026

    @Test("Random models round-trip through Record")
    func modelsRoundTripThroughRecords() throws {
        var random = RandomSource(seed: Self.seed)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        try withTemporaryDirectory { directory in
            encoder.assetDirectory = directory
            for iteration in 0..<2_000 {
                let model = Everything.random(using: &random, forWire: false)
                let record = try encoder.encode(model)
                let decoded = try RecordDecoder().decode(Everything.self, from: record)
                #expect(decoded == model, "seed \(Self.seed), iteration \(iteration)")
                guard decoded == model else { return }
            }
        }
    }

    @Test("Random models round-trip through Record, its JSON, and back, with dates on whole milliseconds")
    func modelsRoundTripThroughTheWire() throws {
        var random = RandomSource(seed: Self.seed &+ 1)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        for iteration in 0..<1_000 {
            let model = Everything.random(using: &random, forWire: true)
            let record = try encoder.encode(model)
            let json = try JSONEncoder().encode(record)
            let readBack = try JSONDecoder().decode(Record.self, from: json)
            #expect(readBack == record, "seed \(Self.seed &+ 1), iteration \(iteration)")
            let decoded = try RecordDecoder().decode(Everything.self, from: readBack)
            #expect(decoded == model, "seed \(Self.seed &+ 1), iteration \(iteration)")
            guard decoded == model else { return }
        }
    }

    @Test("Random records of any shape decode into a model or throw DecodingError")
    func randomRecordsNeverCrash() {
        var random = RandomSource(seed: Self.seed &+ 2)
        var outcomes = Outcomes()
        for iteration in 0..<3_000 {
            let record = Record.random(using: &random)
            outcomes.add(expectDecodedOrDecodingError(record, "seed \(Self.seed &+ 2), iteration \(iteration)"))
        }
        // Both ways out are taken, so the inputs reach the decoder's checks and get past them.
        #expect(outcomes.decoded > 100)
        #expect(outcomes.errors > 100)
    }

    @Test("Mutations of valid records decode into a model or throw DecodingError")
    func mutatedRecordsNeverCrash() throws {
        var random = RandomSource(seed: Self.seed &+ 3)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        var outcomes = Outcomes()
        for iteration in 0..<3_000 {
            var record = try encoder.encode(Everything.random(using: &random, forWire: true))
            for _ in 0...random.int(in: 0...4) {
                record.mutate(using: &random)
            }
            outcomes.add(expectDecodedOrDecodingError(record, "seed \(Self.seed &+ 3), iteration \(iteration)"))
        }
        #expect(outcomes.decoded > 100)
        #expect(outcomes.errors > 100)
    }

    @Test("Mutations of valid record JSON decode into a Record or throw DecodingError")
    func mutatedJSONNeverCrashes() throws {
        var random = RandomSource(seed: Self.seed &+ 4)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        // Sorted keys: the JSON that the seed's mutations cut into is the same in every run, whatever
        // order this process's hashing gives the record's fields.
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        for iteration in 0..<1_500 {
            let record = try encoder.encode(Everything.random(using: &random, forWire: true))
            var json = Array(try sorted.encode(record))
            for _ in 0...random.int(in: 0...3) where !json.isEmpty {
                let index = random.int(in: 0...(json.count - 1))
                switch random.int(in: 0...3) {
                case 0: json[index] = random.byte()
                case 1: json.remove(at: index)
                case 2: json.insert(contentsOf: Array(#"{"type":"INT64","value":1.5}"#.utf8), at: index)
                default: json = Array(json[..<index])
                }
            }
            do {
                let decoded = try JSONDecoder().decode(Record.self, from: Data(json))
                expectDecodedOrDecodingError(decoded, "seed \(Self.seed &+ 4), iteration \(iteration)")
            } catch is DecodingError {
                // Expected for most mutations.
            } catch {
                Issue.record("seed \(Self.seed &+ 4), iteration \(iteration): \(type(of: error)) \(error)")
            }
        }
    }

    /// How many decodes succeeded and how many threw `DecodingError`.
    struct Outcomes {
        var decoded = 0
        var errors = 0

        mutating func add(_ other: Outcomes) {
            decoded += other.decoded
            errors += other.errors
        }
    }

    @discardableResult
    private func expectDecodedOrDecodingError(_ record: Record, _ comment: Comment) -> Outcomes {
        var outcomes = Outcomes()
        for decode in [decodeEverything, decodeNestedOnly] {
            do {
                try decode(record)
                outcomes.decoded += 1
            } catch is DecodingError {
                // A clear error is what malformed input gets.
                outcomes.errors += 1
            } catch {
                Issue.record("\(comment): \(type(of: error)) \(error)")
            }
        }
        return outcomes
    }

    private func decodeEverything(_ record: Record) throws {
        _ = try RecordDecoder().decode(Everything.self, from: record)
    }

    private func decodeNestedOnly(_ record: Record) throws {
        _ = try RecordDecoder().decode(Everything.Nested.self, from: record)
    }
}

// MARK: Random values

/// SplitMix64: small, fast, and the same sequence for the same seed on every platform.
struct RandomSource: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func bool() -> Bool { Bool.random(using: &self) }
    mutating func byte() -> UInt8 { UInt8.random(in: 0...255, using: &self) }

    /// Either `nil` or a value, evenly.
    mutating func maybe<T>(_ make: (inout RandomSource) -> T) -> T? {
        bool() ? make(&self) : nil
    }

    /// An integer of type `T`, often one of its boundaries.
    mutating func integer<T: FixedWidthInteger>(_ type: T.Type, max: T = .max) -> T {
        switch int(in: 0...6) {
        case 0: T.min
        case 1: max
        case 2: 0
        case 3: T.isSigned ? 0 &- 1 : 1
        default: T.random(in: T.min...max, using: &self)
        }
    }

    mutating func double(finite: Bool) -> Double {
        let specials: [Double] = [
            0, -0.0, 1, -1, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .leastNormalMagnitude, 0.1, 1e-300,
        ]
        switch int(in: 0...4) {
        case 0: return specials[int(in: 0...(specials.count - 1))]
        case 1 where !finite: return bool() ? .infinity : -.infinity
        default: return Double(bitPattern: next() & 0x7FEF_FFFF_FFFF_FFFF) * (bool() ? 1 : -1)
        }
    }

    mutating func string(maximumLength: Int = 24) -> String {
        let ranges: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x00...0x1F, 0xA0...0x17F, 0x300...0x36F, 0x4E00...0x4FFF, 0x1F600...0x1F64F,
            0x1F3FB...0x1F3FF,
        ]
        let count = int(in: 0...maximumLength)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            let range = ranges[int(in: 0...(ranges.count - 1))]
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &self)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// A name that CloudKit accepts for a record: ASCII, not starting with an underscore.
    mutating func recordName() -> String {
        let characters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. @")
        return "r" + String((0..<int(in: 0...30)).map { _ in characters[int(in: 0...(characters.count - 1))] })
    }

    /// A date with sub-millisecond digits, or on a whole millisecond when it must survive the wire.
    mutating func date(wholeMilliseconds: Bool) -> Date {
        let milliseconds = Int64.random(in: -62_135_596_800_000...253_402_300_799_000, using: &self)
        if wholeMilliseconds { return Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
        return Date(
            timeIntervalSinceReferenceDate: Double(milliseconds) / 1000 + Double.random(in: 0..<0.001, using: &self))
    }

    mutating func uuid() -> UUID {
        let bytes = (0..<16).map { _ in byte() }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    mutating func data(maximumCount: Int = 64) -> Data {
        Data((0..<int(in: 0...maximumCount)).map { _ in byte() })
    }

    mutating func array<T>(maximumCount: Int = 8, _ make: (inout RandomSource) -> T) -> [T] {
        (0..<int(in: 0...maximumCount)).map { _ in make(&self) }
    }
}

// MARK: A model with every supported type

struct Everything: Codable, Equatable {
    enum Mood: String, RecordEnum {
        case happy, sad, unknown
        static var fallbackCase: Mood { .unknown }
    }

    enum Size: Int, Codable {
        case small = 1
        case large = 100
    }

    struct Nested: Codable, Equatable {
        var name: String
        var when: Date
        var values: [Double]
        var flags: [Bool?]
        var child: Child?

        struct Child: Codable, Equatable {
            var count: Int64
            var moments: [Date]
        }
    }

    var id: String
    var string: String?
    var int: Int?
    var int8: Int8?
    var int16: Int16?
    var int32: Int32?
    var int64: Int64?
    var uint: UInt?
    var uint8: UInt8?
    var uint16: UInt16?
    var uint32: UInt32?
    var uint64: UInt64?
    var bool: Bool?
    var float: Float?
    var double: Double?
    var date: Date?
    var data: Data?
    var webURL: URL?
    var fileURL: URL?
    var uuid: UUID?
    var decimal: Decimal?
    var mood: Mood?
    var size: Size?
    var strings: [String]?
    var integers: [Int]?
    var smallIntegers: [Int8]?
    var doubles: [Double]?
    var dates: [Date]?
    var booleans: [Bool]?
    var set: Set<UInt16>?
    var dictionary: [String: Int]?
    var nested: Nested?
    var nestedList: [Nested]?
    var matrix: [[Int]]?
    var optionals: [String?]?
    var moods: [Mood]?
    var reference: RecordReference?
    var location: RecordLocation?
    var asset: RecordAsset?
    var metadata: RecordMetadata?

    /// A random model. `forWire` keeps it to what survives CloudKit's JSON: dates on whole
    /// milliseconds, finite doubles, and no local file URLs.
    static func random(using random: inout RandomSource, forWire: Bool) -> Everything {
        Everything(
            id: random.recordName(),
            string: random.maybe { $0.string() },
            int: random.maybe { $0.integer(Int.self) },
            int8: random.maybe { $0.integer(Int8.self) },
            int16: random.maybe { $0.integer(Int16.self) },
            int32: random.maybe { $0.integer(Int32.self) },
            int64: random.maybe { $0.integer(Int64.self) },
            uint: random.maybe { $0.integer(UInt.self, max: UInt(Int64.max)) },
            uint8: random.maybe { $0.integer(UInt8.self) },
            uint16: random.maybe { $0.integer(UInt16.self) },
            uint32: random.maybe { $0.integer(UInt32.self) },
            uint64: random.maybe { $0.integer(UInt64.self, max: UInt64(Int64.max)) },
            bool: random.maybe { $0.bool() },
            float: random.maybe {
                let float = Float($0.double(finite: true))
                return float.isFinite ? float : 1.5
            },
            double: random.maybe { $0.double(finite: forWire) },
            date: random.maybe { $0.date(wholeMilliseconds: forWire) },
            data: random.maybe { $0.data() },
            webURL: random.maybe {
                URL(string: "https://example.com/\($0.int(in: 0...999))?q=\($0.int(in: 0...9))") ?? URL(filePath: "/")
            },
            fileURL: forWire ? nil : random.maybe { URL(fileURLWithPath: "/tmp/file-\($0.int(in: 0...999)).bin") },
            uuid: random.maybe { $0.uuid() },
            decimal: random.maybe { Decimal(string: "\($0.int(in: -999_999...999_999)).\($0.int(in: 0...9999))") ?? 0 },
            mood: random.maybe { $0.bool() ? .happy : .sad },
            size: random.maybe { $0.bool() ? .small : .large },
            strings: random.maybe { $0.array { $0.string() } },
            integers: random.maybe { $0.array { $0.integer(Int.self) } },
            smallIntegers: random.maybe { $0.array { $0.integer(Int8.self) } },
            doubles: random.maybe { $0.array { $0.double(finite: forWire) } },
            dates: random.maybe { $0.array { $0.date(wholeMilliseconds: forWire) } },
            booleans: random.maybe { $0.array { $0.bool() } },
            set: random.maybe { Set($0.array { $0.integer(UInt16.self) }) },
            dictionary: random.maybe {
                Dictionary($0.array { ($0.string(), $0.integer(Int.self)) }, uniquingKeysWith: { $1 })
            },
            nested: random.maybe { Nested.random(using: &$0) },
            nestedList: random.maybe { $0.array(maximumCount: 3) { Nested.random(using: &$0) } },
            matrix: random.maybe { $0.array(maximumCount: 3) { $0.array { $0.integer(Int.self) } } },
            optionals: random.maybe { $0.array { $0.maybe { $0.string() } } },
            moods: random.maybe { $0.array { $0.bool() ? .happy : .sad } },
            reference: random.maybe {
                RecordReference(
                    recordName: $0.recordName(), action: [.none, .deleteSelf, .validate][$0.int(in: 0...2)],
                    zoneID: $0.maybe {
                        RecordZoneID(zoneName: $0.recordName(), ownerRecordName: $0.maybe { $0.recordName() })
                    })
            },
            location: random.maybe {
                RecordLocation(
                    latitude: $0.double(finite: true), longitude: $0.double(finite: true),
                    altitude: $0.maybe { $0.double(finite: true) }, speed: $0.maybe { $0.double(finite: true) },
                    timestamp: $0.maybe { $0.date(wholeMilliseconds: true) })
            },
            asset: random.maybe {
                RecordAsset(
                    fileChecksum: $0.maybe { $0.string() }, size: $0.maybe { $0.int(in: 0...Int.max) },
                    receipt: $0.maybe { $0.string() }, downloadURL: "https://example.com/\($0.int(in: 0...99))/${f}")
            },
            metadata: random.maybe {
                // Metadata with nothing in it is written as no metadata at all, so give it a tag.
                RecordMetadata(
                    changeTag: $0.string(),
                    created: $0.maybe { .init(timestamp: $0.date(wholeMilliseconds: true), userRecordName: "_u") },
                    modified: $0.maybe { .init(timestamp: $0.date(wholeMilliseconds: true), deviceID: "d") },
                    deleted: $0.bool())
            })
    }
}

extension Everything.Nested {
    static func random(using random: inout RandomSource) -> Everything.Nested {
        Everything.Nested(
            name: random.string(),
            when: random.date(wholeMilliseconds: false),
            values: random.array { $0.double(finite: false) },
            flags: random.array { $0.maybe { $0.bool() } },
            child: random.maybe {
                Child(count: $0.integer(Int64.self), moments: $0.array { $0.date(wholeMilliseconds: false) })
            })
    }
}

// MARK: Random and mutated records

extension RecordValue {
    static func random(using random: inout RandomSource, depth: Int = 0) -> RecordValue {
        switch random.int(in: 0...(depth < 2 ? 9 : 8)) {
        case 0: return .string(random.string())
        case 1: return .int64(random.integer(Int64.self))
        case 2: return .double(random.double(finite: false))
        case 3: return .bytes(random.bool() ? random.data() : Data(random.string(maximumLength: 40).utf8))
        case 4: return .date(random.date(wholeMilliseconds: random.bool()))
        case 5: return .asset(RecordAsset(fileURL: random.maybe { _ in URL(fileURLWithPath: "/nonexistent") }))
        case 6: return .reference(RecordReference(recordName: random.string()))
        case 7: return .location(RecordLocation(latitude: random.double(finite: false), longitude: 0))
        case 8: return .int64(random.int(in: -2...2) == 0 ? 2 : Int64(random.int(in: -1...1)))
        default: return .list(random.array { RecordValue.random(using: &$0, depth: depth + 1) })
        }
    }
}

extension Record {
    static let everythingFields = [
        "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "bool",
        "float", "double", "date", "data", "webURL", "fileURL", "uuid", "decimal", "mood", "size", "strings",
        "integers",
        "smallIntegers", "doubles", "dates", "booleans", "set", "dictionary", "nested", "nestedList", "matrix",
        "optionals", "moods", "reference", "location", "asset", "name", "when", "values", "flags", "child",
    ]

    static func random(using random: inout RandomSource) -> Record {
        var record = Record(recordType: "Everything", recordName: random.bool() ? random.recordName() : random.string())
        for _ in 0..<random.int(in: 0...12) {
            record[everythingFields[random.int(in: 0...(everythingFields.count - 1))]] = .random(using: &random)
        }
        return record
    }

    mutating func mutate(using random: inout RandomSource) {
        let name = Self.everythingFields[random.int(in: 0...(Self.everythingFields.count - 1))]
        switch random.int(in: 0...5) {
        case 0:
            self[name] = nil
        case 1:
            self[name] = .random(using: &random)
        case 2:
            if case .bytes(var bytes)? = self[name], !bytes.isEmpty {
                bytes[bytes.startIndex + random.int(in: 0...(bytes.count - 1))] = random.byte()
                self[name] = .bytes(bytes)
            }
        case 3:
            if case .list(var elements)? = self[name] {
                elements.append(.random(using: &random))
                self[name] = .list(elements)
            }
        case 4:
            recordName = random.string()
        default:
            if case .bytes(let bytes)? = self[name] {
                self[name] = .bytes(bytes.prefix(random.int(in: 0...bytes.count)))
            }
        }
    }
}
