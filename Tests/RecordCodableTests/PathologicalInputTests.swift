import Foundation
import Testing

@testable import RecordCodable

/// Input of extreme shapes and sizes: each gives a clear error or works, with no crash and no
/// stack overflow. (How the cost grows with size is measured by the benchmark, not here.)
@Suite("Pathological input")
struct PathologicalInputTests {
    indirect enum Tree: Codable, Equatable {
        case leaf
        case node([Tree])
    }

    struct Holder: Codable, Equatable {
        var id = "h"
        var tree: Tree
    }

    static func deeplyNestedJSON(depth: Int) -> Data {
        Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
    }

    @Test("200,000-deep nested JSON in a bytes field is a clear error")
    func deepJSONInBytes() throws {
        let record = Record(
            recordType: "Holder", recordName: "h", fields: ["tree": .bytes(Self.deeplyNestedJSON(depth: 200_000))])
        expectDecodingError("dataCorrupted", at: "tree") { _ = try RecordDecoder().decode(Holder.self, from: record) }
        let matrix = Record(
            recordType: "Box", recordName: "b", fields: ["value": .bytes(Self.deeplyNestedJSON(depth: 200_000))])
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try RecordDecoder().decode(Box<[[Int]]>.self, from: matrix)
        }
    }

    @Test("Nesting the JSON decoder accepts decodes")
    func moderatelyNestedJSON() throws {
        var tree = Tree.leaf
        for _ in 0..<100 { tree = .node([tree]) }
        try roundTrip(Holder(tree: tree))
    }

    /// A value that holds the next one through a single-value container, as a wrapper does: a
    /// chain of them writes what its last one holds.
    indirect enum Wrapped: Codable, Equatable, Sendable {
        case text(String)
        case wrapped(Wrapped)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .wrapped(try container.decode(Wrapped.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .wrapped(let inner): try container.encode(inner)
            }
        }

        /// `depth` wrappers around a text: `depth + 1` values, each encoded inside the one before.
        static func nested(_ depth: Int) -> Wrapped {
            var value = Wrapped.text("innermost")
            for _ in 0..<depth { value = .wrapped(value) }
            return value
        }
    }

    @Test("Values encoded inside one another past the limit are an error, not a stack overflow, on a 512 KB stack")
    func valuesNestedTooDeep() throws {
        let limit = RecordEncodingEngine.maximumValueNesting
        let field = try onSmallStack { try RecordEncoder().encode(Box(value: Wrapped.nested(limit - 1)))["value"] }
        #expect(field == .string("innermost"))
        for depth in [limit, 1_000] {
            let failure = try onSmallStack { () -> (path: String, description: String)? in
                do {
                    _ = try RecordEncoder().encode(Box(value: Wrapped.nested(depth)))
                    return nil
                } catch let error as EncodingError {
                    return (error.path, error.context?.debugDescription ?? "")
                }
            }
            #expect(failure?.path == "value")
            #expect(failure?.description.hasPrefix("Values nested too deep") == true)
        }
    }

    @Test("200,000-deep nested JSON as a field of a record's wire form is a clear error")
    func deepJSONOnTheWire() throws {
        let nested = String(decoding: Self.deeplyNestedJSON(depth: 200_000), as: UTF8.self)
        let json = #"{"recordName":"n","recordType":"T","fields":{"x":{"value":\#(nested)}}}"#
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(Record.self, from: Data(json.utf8)) }
    }

    @Test("A list of 1,000,000 elements works, in a record and on the wire")
    func millionElementList() throws {
        let numbers: [Int] = (0..<1_000_000).map { $0 &* 7919 }
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        #expect(throws: RecordEncodingError.self) { _ = try RecordEncoder().encode(Box(value: numbers)) }
        let record = try roundTrip(Box(value: numbers), encoder: encoder)
        guard case .list(let elements)? = record["value"] else {
            Issue.record("a list")
            return
        }
        #expect(elements.count == 1_000_000)
        let readBack = try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(record))
        #expect(readBack == record)
        let strings: [String] = (0..<1_000_000).map { String($0) }
        #expect(
            try roundTrip(Box(value: strings), encoder: encoder)["value"].map {
                if case .list(let list) = $0 { list.count } else { 0 }
            } == 1_000_000)
    }

    @Test("A 10 MB string is too large for CloudKit, and works where the limit allows it")
    func tenMegabyteString() throws {
        let text = String(repeating: "0123456789", count: 1_000_000)
        #expect(throws: RecordEncodingError.self) { _ = try RecordEncoder().encode(Box(value: text)) }
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = 20_000_000
        let record = try roundTrip(Box(value: text), encoder: encoder)
        #expect(record.encodedSize == 10_000_005)
        let readBack = try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(record))
        #expect(readBack == record)
    }

    @Test(
        "Field names of every odd shape are refused by the encoder and kept by the wire form",
        arguments: [
            "", " ", "_", "1", "naïve", "日本", "👋🏽", "a b", "a\u{0}b", "line\nbreak", "\"quoted\"", "back\\slash",
            String(repeating: "x", count: 10_000), "recordName", "fields", "__proto__",
        ])
    func oddFieldNames(_ name: String) throws {
        if !FieldName.isValid(name) {
            expectEncodingError(at: name) { _ = try RecordEncoder().encode(OneField(name: name, value: 1)) }
        }
        let record = Record(recordType: "T", recordName: "n", fields: [name: .string("v")])
        #expect(try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(record)) == record)
        var snakeCase = RecordEncoder()
        snakeCase.keyEncodingStrategy = .convertToSnakeCase
        _ = try? snakeCase.encode(OneField(name: name, value: 1))
    }

    @Test("NaN and infinite doubles: kept in a record, refused on the wire, kept inside nested values")
    func nonFiniteDoubles() throws {
        for value in [Double.nan, .infinity, -.infinity] {
            let record = try RecordEncoder().encode(Box(value: value))
            let decoded = try RecordDecoder().decode(Box<Double>.self, from: record).value
            #expect(decoded.bitPattern == value.bitPattern || (decoded.isNaN && value.isNaN))
            expectEncodingError(at: "fields.value.value") { _ = try JSONEncoder().encode(record) }
            let nested = try RecordEncoder().encode(Box(value: ["x": value]))
            let wire = try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(nested))
            let back = try RecordDecoder().decode(Box<[String: Double]>.self, from: wire).value["x"]
            #expect(back?.bitPattern == value.bitPattern || (back?.isNaN == true && value.isNaN))
            let float = try RecordDecoder().decode(Box<Float>.self, from: record).value
            #expect(float.isNaN == value.isNaN && float.isInfinite == value.isInfinite)
        }
    }

    @Test("Dates beyond the milliseconds an Int64 counts: refused on the wire, read strictly from it")
    func datesOutOfRange() throws {
        for seconds in [1e16, -1e16, 1e300, Double.greatestFiniteMagnitude, .infinity, -.infinity, .nan] {
            let record = try RecordEncoder().encode(Box(value: Date(timeIntervalSince1970: seconds)))
            expectEncodingError(at: "fields.value.value") { _ = try JSONEncoder().encode(record) }
        }
        for text in ["1e300", "9223372036854775808", "1.5", "-1e19"] {
            let json = #"{"recordName":"n","recordType":"T","fields":{"d":{"type":"TIMESTAMP","value":\#(text)}}}"#
            expectDecodingError("dataCorrupted", at: "fields.d.value") {
                _ = try JSONDecoder().decode(Record.self, from: Data(json.utf8))
            }
        }
        // Int64.max milliseconds is a Date that would write back beyond Int64: refused. Int64.min
        // is exactly -2^63, which a Date holds and writes back unchanged.
        expectDecodingError("dataCorrupted", at: "fields.a.value") {
            let json =
                #"{"recordName":"n","recordType":"T","fields":{"a":{"type":"TIMESTAMP","value":9223372036854775807}}}"#
            _ = try JSONDecoder().decode(Record.self, from: Data(json.utf8))
        }
        let lowest =
            #"{"recordName":"n","recordType":"T","fields":{"b":{"type":"TIMESTAMP","value":-9223372036854775808}}}"#
        let record = try JSONDecoder().decode(Record.self, from: Data(lowest.utf8))
        #expect(record["b"] == .date(Date(timeIntervalSince1970: Double(Int64.min) / 1000)))
        #expect(try String(decoding: JSONEncoder().encode(record), as: UTF8.self).contains("-9223372036854775808"))
    }

    @Test("A record of 10,000 fields encodes, decodes and travels")
    func manyFields() throws {
        let record = Record(
            recordType: "T", recordName: "n",
            fields: Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("f\($0)", RecordValue.int64(Int64($0))) }))
        struct Bag: Decodable {
            var count: Int
            init(from decoder: any Decoder) throws {
                count = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.count
            }
        }
        #expect(try anyTypeDecoder.decode(Bag.self, from: record).count == 10_000)
        #expect(try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(record)) == record)
    }

    @Test(
        "Bytes that are not JSON, where a nested value is expected, are a clear error",
        arguments: [
            Data(), Data([0xFF, 0xFE]), Data("{".utf8), Data(#"{"street":"#.utf8), Data(repeating: 0, count: 1_000),
        ])
    func garbageBytes(_ bytes: Data) throws {
        expectDecodingError("dataCorrupted", at: "address") {
            _ = try RecordDecoder().decode(
                NestedValueTests.Customer.self,
                from: Record(
                    recordType: "Customer", recordName: "c", fields: ["address": .bytes(bytes), "history": .list([])]))
        }
    }
}
