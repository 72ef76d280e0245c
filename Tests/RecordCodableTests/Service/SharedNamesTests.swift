import Foundation
import Testing

@testable import RecordCodable

/// Names shared between the records of a page (`ReadFields.List`): random pages whose records name
/// fields alike or nearly alike, each read straight compared, name by name in its bytes, with the
/// general way's page and with each record read alone. (Written first as an outside review of
/// the change.)
@Suite("Service: records of a page that share names read as the general way reads them")
struct SharedNamesTests {
    /// Names as JSON text: plain, escaped, not ASCII, canonically equal, long, empty.
    static let pool = [
        "a", "b", "c", "ab", "K", "\u{212A}", #"\u212A"#, #"\u004B"#, #"\u0061"#, "é", #"e\u0301"#, #"\u00e9"#, "",
        "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopr", "abcdefghijklmnopqrstuvwx",
        "abcdefghijklmnopqrstuvwy", "abcdefghijklmnopqrstuvw", #"a\nb"#, #"a\\nb"#, "a/b", #"a\/b"#, "ñ", "abcdefgh",
        "abcdefghi", "abcdefghijklmnopé", "abcdefghijklmnop\u{212A}",
    ]

    static func fieldsObject(_ names: [String], _ random: inout RandomSource) -> String {
        let members = names.enumerated().map { place, name in
            switch Int.random(in: 0..<4, using: &random) {
            case 0: #""\#(name)":{"type":"STRING_LIST","value":[]}"#
            case 1: #""\#(name)":{"type":"INT64","value":\#(place)}"#
            default: #""\#(name)":{"type":"STRING","value":"v\#(Int.random(in: 0..<3, using: &random))"}"#
            }
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The names of the next record, made from `previous` most often.
    static func nextNames(_ previous: [String], _ random: inout RandomSource) -> [String] {
        var names = previous
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3: break
        case 4: if !names.isEmpty { names.removeLast() }
        case 5: names.append(pool.randomElement(using: &random) ?? "a")
        case 6:
            if !names.isEmpty {
                names[Int.random(in: 0..<names.count, using: &random)] = pool.randomElement(using: &random) ?? "a"
            }
        case 7: names.shuffle(using: &random)
        case 8:
            if let name = names.randomElement(using: &random) { names.append(name) }
        default:
            names = (0..<Int.random(in: 0..<5, using: &random)).map { _ in
                Self.pool.randomElement(using: &random) ?? "a"
            }
        }
        return names
    }

    /// Each field as its name's UTF-8 bytes and its value, sorted.
    static func pairs(_ record: Record) -> [String] {
        var pairs: [String] = []
        record.forEachField { name, value in pairs.append("\(Array(name.utf8))=\(value)") }
        return pairs.sorted()
    }

    static func expectSame(_ straight: Record?, _ other: Record?, _ text: String) {
        guard let straight, let other else {
            #expect(straight == nil && other == nil, "\(text)")
            return
        }
        #expect(Array(straight.recordType.utf8) == Array(other.recordType.utf8), "\(text)")
        #expect(straight.recordName == other.recordName, "\(text)")
        #expect(pairs(straight) == pairs(other), "\(text)")
        #expect(straight == other && straight.hashValue == other.hashValue, "\(text)")
        #expect(straight.fields == other.fields, "\(text)")
        #expect(straight.fieldTypeHints == other.fieldTypeHints, "\(text)")
        #expect(
            straight.fieldStorage.names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                == other.fieldStorage.names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) },
            "\(text)")
        for name in other.fieldStorage.names { #expect(straight[name] == other[name], "\(text) \(name)") }
        for name in pool + ["missing", "k", "B"] { #expect(straight[name] == other[name], "\(text) \(name)") }
    }

    @Test("Random pages of records named alike", arguments: 0..<40)
    func randomPages(_ seed: Int) {
        var random = RandomSource(seed: UInt64(seed) &* 7919)
        var straightCount = 0
        var sharing = 0
        for _ in 0..<200 {
            var names = (0..<Int.random(in: 0..<5, using: &random)).map { _ in
                Self.pool.randomElement(using: &random) ?? "a"
            }
            var records: [String] = []
            for number in 0..<Int.random(in: 1..<7, using: &random) {
                let type =
                    [
                        "Note", "Note", #"No\u0074e"#, "Post", "AVeryLongRecordTypeName", "K", "\u{212A}", "T",
                        "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOQ", "ABCDEFGH", "ABCDEFGHI",
                    ]
                    .randomElement(using: &random) ?? "Note"
                // The type last, near the end of the text, half of the time.
                let fields = #""fields":\#(Self.fieldsObject(names, &random))"#
                records.append(
                    Bool.random(using: &random)
                        ? #"{"recordName":"R\#(number)","recordType":"\#(type)",\#(fields)}"#
                        : #"{\#(fields),"recordName":"R\#(number)","recordType":"\#(type)"}"#)
                names = Self.nextNames(names, &random)
            }
            let text = #"{"records":[\#(records.joined(separator: ","))]}"#
            let data = Data(text.utf8)
            guard let straight = RecordsQueryResponse.straight(from: data) else { continue }
            straightCount += 1
            sharing += straight.records.count { $0.record?.sharesNames == true }
            guard case .value(let general) = RecordPageBytesReaderTests.generalOutcome(RecordsQueryResponse.self, data)
            else {
                Issue.record("read straight, not the general way: \(text)")
                continue
            }
            #expect(straight.records.count == general.records.count, "\(text)")
            for (mine, theirs) in zip(straight.records, general.records) {
                Self.expectSame(mine.record, theirs.record, text)
            }
            let objects = (try? JSONSerialization.jsonObject(with: data) as? [String: [Any]])?["records"] ?? []
            for (mine, object) in zip(straight.records, objects) {
                let alone = (try? JSONSerialization.data(withJSONObject: object)).flatMap(
                    RecordBytesReader.record(from:))
                if let alone { Self.expectSame(mine.record, alone, text) }
            }
        }
        #expect(
            straightCount > 20 && sharing > 5, "\(straightCount) pages read straight, \(sharing) records sharing names")
    }

    @Test("Pages of many fields, past a list's 64, named alike", arguments: 0..<10)
    func manyFields(_ seed: Int) {
        var random = RandomSource(seed: UInt64(seed) &+ 1)
        for _ in 0..<30 {
            var records: [String] = []
            for number in 0..<4 {
                var names = (0..<Int.random(in: 60..<68, using: &random)).map { "f\($0)" }
                if Bool.random(using: &random), !names.isEmpty {
                    names[Int.random(in: 0..<names.count, using: &random)] =
                        Self.pool.randomElement(using: &random) ?? "a"
                }
                records.append(
                    #"{"recordName":"R\#(number)","recordType":"Note","fields":\#(Self.fieldsObject(names, &random))}"#)
            }
            let text = #"{"records":[\#(records.joined(separator: ","))]}"#
            let data = Data(text.utf8)
            guard let straight = RecordsQueryResponse.straight(from: data) else { continue }
            guard case .value(let general) = RecordPageBytesReaderTests.generalOutcome(RecordsQueryResponse.self, data)
            else {
                Issue.record("read straight, not the general way: \(text)")
                continue
            }
            for (mine, theirs) in zip(straight.records, general.records) {
                Self.expectSame(mine.record, theirs.record, text)
            }
        }
    }
}

extension SharedNamesTests {
    @Test("The sizes the comments give: a read field 40 bytes, an entry of a page 72, a record 72")
    func sizes() {
        #expect(MemoryLayout<ReadFields.Field>.stride == 40)
        #expect(MemoryLayout<RecordResult>.stride == 72)
        #expect(MemoryLayout<Record>.stride == 72)
    }

    @Test("Records that share names, read on many threads at once, each give their own fields")
    func concurrentReads() async throws {
        let names = (0..<20).map { "name\($0)" }
        let records = (0..<50).map { number in
            let members = names.enumerated().map { #""\#($1)":{"type":"INT64","value":\#(number * 100 + $0)}"# }
            return #"{"recordName":"R\#(number)","recordType":"Note","fields":{\#(members.joined(separator: ","))}}"#
        }
        let text = #"{"records":[\#(records.joined(separator: ","))]}"#
        let page = try #require(RecordsQueryResponse.straight(from: Data(text.utf8)))
        let read = page.records.compactMap(\.record)
        #expect(read.dropFirst().allSatisfy { $0.sharesNames })
        let wrong = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for (number, record) in read.enumerated() {
                        let fields = record.fields
                        for (place, name) in names.enumerated()
                        where record[name] != .int64(Int64(number * 100 + place))
                            || fields[name] != .int64(Int64(number * 100 + place))
                        {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
