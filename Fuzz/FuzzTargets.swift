// libFuzzer targets for RecordCodable. This file is compiled into a fuzzing binary of its own (see
// run.sh), which imports the library built for testing: the `wire` target checks its internal
// JSON tape too.
//
// RECORD_FUZZ_TARGET chooses the target:
//   json    — the bytes are JSON: decode a Record and the service bodies from them.
//   record  — the bytes are a recipe for a Record: decode models from it.
//   wire    — the bytes are JSON: RecordJSONDecoder and RecordJSONEncoder give what JSONDecoder and
//             JSONEncoder give, value for value, error for error and byte for byte.
//
// A target may only end in a decoded value or a DecodingError. Anything else — another error, a
// decoded value that does not survive a second trip — stops the fuzzer through `failure(_:)`.
import Foundation

@testable import RecordCodable

private let target = ProcessInfo.processInfo.environment["RECORD_FUZZ_TARGET"] ?? "json"

/// libFuzzer's entry point: runs the chosen target on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    switch target {
    case "record": fuzzRecordIntoModels(bytes)
    case "wire": fuzzRecordJSONCoders(bytes)
    default: fuzzJSONIntoRecord(bytes)
    }
    return 0
}

/// Stops the fuzzer with a crash that it records, for a property that did not hold.
private func failure(_ message: String) -> Never {
    fatalError("fuzz property failed: \(message)")
}

// MARK: JSON → Record

private func fuzzJSONIntoRecord(_ bytes: Data) {
    let decoder = JSONDecoder()
    do {
        let record = try decoder.decode(Record.self, from: bytes)
        // Whatever reads as a record writes again and reads back the same.
        let json: Data
        do {
            json = try JSONEncoder().encode(record)
        } catch {
            failure("a decoded record did not encode: \(error)")
        }
        guard let again = try? decoder.decode(Record.self, from: json), again == record else {
            failure("a decoded record did not survive a second trip")
        }
        _ = record.encodedSize
        _ = record.fields.values.map(\.typeName)
    } catch is DecodingError {
    } catch {
        failure("JSON → Record threw \(type(of: error)): \(error)")
    }
    expectDecodedOrDecodingError { _ = try decoder.decode(RecordsModifyResponse.self, from: bytes) }
    expectDecodedOrDecodingError { _ = try decoder.decode(RecordsQueryResponse.self, from: bytes) }
    expectDecodedOrDecodingError { _ = try decoder.decode(RecordsModifyRequest.self, from: bytes) }
}

private func expectDecodedOrDecodingError(_ body: () throws -> Void) {
    do {
        try body()
    } catch is DecodingError {
    } catch {
        failure("threw \(type(of: error)): \(error)")
    }
}

// MARK: RecordJSONEncoder and RecordJSONDecoder against Foundation's

/// What a decoder made of some JSON: a value, or an error's kind and coding path.
private enum Outcome<Value: Equatable>: Equatable {
    case value(Value)
    case error(kind: String, path: String)

    init(_ decode: () throws -> Value) {
        do {
            self = .value(try decode())
        } catch let error as DecodingError {
            self = .error(kind: Self.kind(of: error), path: Self.path(of: error))
        } catch {
            failure("decoding threw \(type(of: error)): \(error)")
        }
    }

    private static func kind(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch: "typeMismatch"
        case .valueNotFound: "valueNotFound"
        case .keyNotFound: "keyNotFound"
        case .dataCorrupted: "dataCorrupted"
        @unknown default: "unknown"
        }
    }

    private static func path(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.map(\.stringValue).joined(separator: ".")
        @unknown default: ""
        }
    }
}

/// The fast reader and writer against Foundation's coders, on any bytes: the tape never crashes
/// or loops on them (AddressSanitizer and the fuzzer's timeout watch), and every type reads to the
/// same value or fails with the same kind of error at the same path, and writes the same bytes.
private func fuzzRecordJSONCoders(_ bytes: Data) {
    _ = JSONTape.parsing(bytes, maximumDepth: WireJSON.maximumNesting + 1)
    compareRecordJSONCoders(Record.self, bytes)
    compareRecordJSONCoders(RecordsQueryResponse.self, bytes)
    compareRecordJSONCoders(RecordsModifyRequest.self, bytes)
    compareRecordJSONCoders([Record].self, bytes)
}

private func compareRecordJSONCoders<T: Codable & Equatable>(_ type: T.Type, _ bytes: Data) {
    let fast = Outcome { try RecordJSONDecoder().decode(T.self, from: bytes) }
    let foundation = Outcome { try JSONDecoder().decode(T.self, from: bytes) }
    if fast != foundation {
        // A document the fast reader hands to JSONDecoder gets JSONDecoder's outcome by
        // construction; of two values it cannot read in one object, JSONDecoder reports the one
        // it meets first in a Dictionary's order, which differs from one decoding to the next.
        guard case .error(let fastKind, _) = fast, case .error(let kind, _) = foundation, fastKind == kind,
            !isParsed(JSONTape.parsing(bytes, maximumDepth: WireJSON.maximumNesting + 1))
        else {
            failure("\(T.self): RecordJSONDecoder gave \(fast), JSONDecoder \(foundation)")
        }
    }
    guard case .value(let value) = fast else { return }
    let sorted = JSONEncoder()
    sorted.outputFormatting = .sortedKeys
    switch (Result { try RecordJSONEncoder().encode(value) }, Result { try sorted.encode(value) }) {
    case (.success(let fastBytes), .success(let foundationBytes)):
        guard fastBytes == foundationBytes else { failure("\(T.self): RecordJSONEncoder wrote other bytes") }
    case (.failure(is EncodingError), .failure(is EncodingError)):
        break
    case (let fastResult, let foundationResult):
        failure("\(T.self): RecordJSONEncoder gave \(fastResult), JSONEncoder \(foundationResult)")
    }
}

// MARK: Bytes → Record → model

/// Reads a Record from fuzz bytes: each field takes a name from `fieldNames`, a kind, and a
/// payload from the bytes that follow.
private struct RecipeReader {
    var bytes: Data.SubSequence

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    mutating func take(_ count: Int) -> Data { Data(bytes.prefix(count)).also { bytes = bytes.dropFirst(count) } }

    mutating func int64() -> Int64 {
        take(8).reduce(0) { $0 << 8 | Int64($1) }
    }

    mutating func string() -> String {
        String(decoding: take(Int(byte() % 24)), as: UTF8.self)
    }

    mutating func value(depth: Int = 0) -> RecordValue {
        switch byte() % 12 {
        case 0: return .string(string())
        case 1: return .int64(int64())
        case 2: return .int64(Int64(byte() % 4))
        case 3: return .double(Double(bitPattern: UInt64(bitPattern: int64())))
        case 4: return .bytes(take(Int(byte())))
        case 5: return .date(Date(timeIntervalSince1970: Double(bitPattern: UInt64(bitPattern: int64()))))
        case 6:
            return .asset(
                RecordAsset(
                    fileURL: byte() % 2 == 0 ? nil : URL(fileURLWithPath: "/nonexistent/\(string())"),
                    downloadURL: string()))
        case 7: return .reference(RecordReference(recordName: string()))
        case 8: return .location(RecordLocation(latitude: Double(int64()), longitude: Double(int64())))
        case 9: return .bytes(Data(string().utf8))
        default:
            guard depth < 3 else { return .list([]) }
            return .list((0..<Int(byte() % 6)).map { _ in value(depth: depth + 1) })
        }
    }
}

extension Data {
    fileprivate func also(_ body: () -> Void) -> Data {
        body()
        return self
    }
}

private let fieldNames = [
    "id", "name", "age", "score", "ratio", "flag", "when", "blob", "link", "file", "uuid", "amount", "mood", "tags",
    "numbers", "dates", "set", "map", "child", "children", "matrix", "optionals", "ref", "place", "asset", "metadata",
]

private struct FuzzModel: Codable {
    enum Mood: String, RecordEnum {
        case calm, busy, unknown
        static var fallbackCase: Mood { .unknown }
    }

    struct Child: Codable {
        var name: String
        var when: Date
        var values: [Double?]
    }

    var id: String
    var name: String?
    var age: Int8?
    var score: UInt32?
    var ratio: Float?
    var flag: Bool?
    var when: Date?
    var blob: Data?
    var link: URL?
    var file: URL?
    var uuid: UUID?
    var amount: Decimal?
    var mood: Mood?
    var tags: [String]?
    var numbers: [Int]?
    var dates: [Date]?
    var set: Set<Int16>?
    var map: [String: Int]?
    var child: Child?
    var children: [Child]?
    var matrix: [[UInt8]]?
    var optionals: [String?]?
    var ref: RecordReference?
    var place: RecordLocation?
    var asset: RecordAsset?
    var metadata: RecordMetadata?
}

private struct Strict: Codable {
    var id: Int
    var name: String
    var age: UInt8
    var tags: Set<String>
    var child: FuzzModel.Child
}

/// Reads JSON-stored fields through nested containers, as hand-written conformances do: the JSON
/// decoder's own containers, used after its `decode(_:from:)` has returned.
private struct ContainerReader: Decodable {
    enum Keys: String, CodingKey { case id, child, matrix, map }
    enum ChildKeys: String, CodingKey { case name, when, values }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if container.contains(.child) {
            let child = try container.nestedContainer(keyedBy: ChildKeys.self, forKey: .child)
            _ = try child.decode(String.self, forKey: .name)
            _ = try child.decodeIfPresent(Int8.self, forKey: .when)
            var values = try child.nestedUnkeyedContainer(forKey: .values)
            while !values.isAtEnd { _ = try values.decodeIfPresent(Float.self) }
        }
        if container.contains(.matrix) {
            var rows = try container.nestedUnkeyedContainer(forKey: .matrix)
            while !rows.isAtEnd {
                var row = try rows.nestedUnkeyedContainer()
                while !row.isAtEnd { _ = try row.decode(UInt8.self) }
            }
        }
        if container.contains(.map) {
            _ = try container.superDecoder(forKey: .map).singleValueContainer().decode([String: Int].self)
        }
    }
}

private func fuzzRecordIntoModels(_ bytes: Data) {
    var reader = RecipeReader(bytes: bytes[...])
    var record = Record(recordType: "FuzzModel", recordName: reader.string())
    for _ in 0..<Int(reader.byte() % 16) {
        record[fieldNames[Int(reader.byte()) % fieldNames.count]] = reader.value()
    }
    expectDecodedOrDecodingError { _ = try RecordDecoder().decode(FuzzModel.self, from: record) }
    // The other models read the FuzzModel records too, and strings from bytes of UTF-8 text.
    var anyType = RecordDecoder()
    anyType.checksRecordType = false
    anyType.readsStringsFromUTF8Bytes = true
    expectDecodedOrDecodingError { _ = try anyType.decode(Strict.self, from: record) }
    expectDecodedOrDecodingError { _ = try anyType.decode(ContainerReader.self, from: record) }
    var snakeCase = RecordDecoder()
    snakeCase.keyDecodingStrategy = .convertFromSnakeCase
    expectDecodedOrDecodingError { _ = try snakeCase.decode(FuzzModel.self, from: record) }
    // A model that decoded encodes again, unless a value cannot be stored (an error, not a trap).
    if let model = try? RecordDecoder().decode(FuzzModel.self, from: record) {
        do {
            _ = try RecordEncoder().encode(model)
        } catch is EncodingError {
        } catch is RecordEncodingError {
        } catch {
            failure("re-encoding threw \(type(of: error)): \(error)")
        }
    }
}

/// Whether the fast path read the text itself.
private func isParsed(_ outcome: JSONParseOutcome<JSONTape>) -> Bool {
    if case .parsed = outcome { true } else { false }
}
