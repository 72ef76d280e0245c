import Foundation
import Testing

@testable import RecordCodable

/// `FieldNameTable` keeps the field names `RecordBytesReader` made, so that the next record's are
/// found by their bytes: a name found there must be the very name the bytes spell, whatever its
/// length, its neighbours in the table or the text after it.
@Suite("Wire: field names kept from record to record")
struct FieldNameTableTests {
    /// The name that `lookup` gives for the string content `text`, placed at the start of a
    /// document followed by `after`.
    static func name(
        _ text: String, after: String = #"":{"type":"STRING","value":"x"}}"#,
        in lookup: inout FieldNameLookup
    ) -> String {
        let data = Data((text + after).utf8)
        return lookup.name(data.span, 0..<text.utf8.count)
    }

    @Test(
        "A name is the one its bytes spell, made and then found, at every length a place takes and beyond",
        arguments: ["", "a", "title", "eightchr", "ninechars", "sixteen_chars_ab", "seventeen_chars_a", "authorName"])
    func namesOfEveryLength(_ text: String) {
        let table = FieldNameTable()
        var first = FieldNameLookup(table: table)
        #expect(Self.name(text, in: &first) == text)
        first.finish()
        let keptPlace = table.contents.firstIndex { $0?.name == text }
        // Up to 16 bytes a name takes a place; a longer one is made each time.
        #expect((keptPlace != nil) == (text.utf8.count <= 16))
        var second = FieldNameLookup(table: table)
        #expect(Self.name(text, in: &second) == text)
        // Names that share their first bytes, or differ only past the eighth, are told apart.
        #expect(Self.name(text + "x", in: &second) == text + "x")
        #expect(Self.name(String(text.dropLast()), in: &second) == String(text.dropLast()))
    }

    @Test(
        "A name at the end of the text, with fewer than 16 bytes after its start, is read byte by byte and kept",
        arguments: ["", "a", "Note", "eightchr", "ninechars", "sixteen_chars_ab"])
    func nameAtTheEnd(_ text: String) {
        let table = FieldNameTable()
        var lookup = FieldNameLookup(table: table)
        #expect(Self.name(text, after: "\"}", in: &lookup) == text)
        lookup.finish()
        #expect(table.contents.compactMap { $0?.name } == [text])
        // Found again, near the end or far from it, as the same words.
        var next = FieldNameLookup(table: table)
        #expect(Self.name(text, after: "\"}", in: &next) == text)
        #expect(Self.name(text, in: &next) == text)
        #expect(Self.name(text + "s", after: "\"}", in: &next) == text + "s")
    }

    @Test("A name whose place another holds is made each time, and the place keeps its first name")
    func namesThatShareAPlace() throws {
        // Two names of one place, found by trying names in turn.
        var byPlace: [Int: String] = [:]
        var pair: (String, String)?
        for number in 0..<10_000 where pair == nil {
            let name = "field\(number)"
            let data = Data((name + "________________").utf8)
            let found = ByteScan.words(data.span, 0..<name.utf8.count)
            let words = try #require(found)
            let place = FieldNameTable.place(head: words.head, tail: words.tail)
            if let other = byPlace[place] { pair = (other, name) } else { byPlace[place] = name }
        }
        let (first, second) = try #require(pair)
        let table = FieldNameTable()
        var lookup = FieldNameLookup(table: table)
        #expect(Self.name(first, in: &lookup) == first)
        #expect(Self.name(second, in: &lookup) == second)
        lookup.finish()
        var next = FieldNameLookup(table: table)
        #expect(Self.name(second, in: &next) == second)
        #expect(Self.name(first, in: &next) == first)
        #expect(table.contents.compactMap { $0?.name }.sorted() == [first])
    }

    @Test("Records of one model read alike the first time and after, their names found in the table")
    func recordsReadAgain() throws {
        let text =
            #"{"fields":{"a":{"type":"STRING","value":"1"},"na\u006de":{"type":"INT64","value":2},"#
            + #""sixteen_chars_ab":{"type":"STRING","value":"3"}},"recordName":"N1","recordType":"Note"}"#
        let data = Data(text.utf8)
        guard case .value(let general) = RecordBytesReaderTests.generalOutcome(data) else {
            Issue.record("the general way does not read \(text)")
            return
        }
        let table = FieldNameTable()
        for _ in 0..<3 {
            let record = RecordBytesReader.document(data.span, table: table)
            #expect(record == general)
        }
        // The plain names and the record's type are kept; the escaped name is made each time.
        #expect(table.contents.compactMap { $0?.name }.sorted() == ["Note", "a", "sixteen_chars_ab"])
    }

    @Test("A document the reader leaves to the general way gives the table none of its names")
    func declinedDocumentsKeepNothing() {
        let table = FieldNameTable()
        let declined = #"{"fields":{"a":{"type":"STRING","value":"1"}},"recordName":"N1","recordType":null}"#
        let declinedRecord = RecordBytesReader.document(Data(declined.utf8).span, table: table)
        #expect(declinedRecord == nil)
        #expect(table.contents.allSatisfy { $0 == nil })
        let read = #"{"fields":{"a":{"type":"STRING","value":"1"}},"recordName":"N1","recordType":"Note"}"#
        let readRecord = RecordBytesReader.document(Data(read.utf8).span, table: table)
        #expect(readRecord != nil)
        #expect(table.contents.compactMap { $0?.name }.sorted() == ["Note", "a"])
    }
}
