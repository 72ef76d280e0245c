import Foundation
import Testing

@testable import RecordCodable

@Suite("A stored record's fields read alone")
struct RecordFieldValuesTests {
    /// The fields `names` of the record `json` holds, or `nil`.
    private func read(_ names: [String], _ json: String) -> RecordFieldValues? {
        RecordJSONDecoder.fieldValues(names, ofRecordIn: Data(json.utf8))
    }

    @Test("The fields asked for are the whole record's values; those it lacks, or has null, are absent")
    func valuesMatchTheWholeRecord() throws {
        let json = """
            {"recordName":"N1","recordType":"Note","fields":{
            "title":{"value":"Milk","type":"STRING"},"score":{"value":2.5},"when":{"value":1700000000123,"type":"TIMESTAMP"},
            "tags":{"value":["a","b"],"type":"STRING_LIST"},"gone":{"value":null,"type":"STRING"},
            "title":{"value":"second","type":"STRING"}},"recordChangeTag":"t1"}
            """
        let whole = try RecordJSONDecoder().decode(Record.self, from: Data(json.utf8))
        let names = ["title", "score", "when", "tags", "gone", "absent"]
        let part = try #require(read(names, json))
        #expect(part.recordName == "N1")
        #expect(part.recordType == "Note")
        #expect(part.values == whole.fields.filter { names.contains($0.key) })
        #expect(part.values["title"] == .string("Milk"), "of a field given twice, the first")
        #expect(part.values["gone"] == nil && part.values["absent"] == nil)
        #expect(read([], json)?.values == [:])
        #expect(read(["title"], #"{"recordName":"N1","recordType":"Note"}"#)?.values == [:])
    }

    @Test(
        "Whatever reading the whole record could answer otherwise is left to it",
        arguments: [
            (["title"], #"{"recordName":"N1","recordType":"Note","fields":{"title":{"value":"x","type":"INT64"}}}"#),
            (["title"], #"{"recordName":"N1","recordType":"Note","fields":{"title":null}}"#),
            (["title"], #"{"recordName":"N1","recordType":"Note","fields":[]}"#),
            (["title"], #"{"recordType":"Note","fields":{}}"#),
            (["title"], #"{"recordName":"N1","fields":{},"deleted":true}"#),
            (["title"], #"{"recordName":"N1","recordType":"","fields":{}}"#),
            (["title"], #"{"recordName":"N1","recordType":"Note","fields":{"#),
            (["title"], #"["N1"]"#),
            (["titlé"], #"{"recordName":"N1","recordType":"Note","fields":{"titlé":{"value":"x"}}}"#),
        ])
    func leftToTheWholeRecord(names: [String], json: String) {
        #expect(read(names, json) == nil)
    }

    @Test("A field not asked for is not read: one that does not read costs nothing here")
    func otherFieldsUnread() throws {
        let json = """
            {"recordName":"N1","recordType":"Note","fields":{"a":{"value":1},"b":{"value":"x","type":"INT64"}}}
            """
        #expect(read(["a"], json)?.values == ["a": .int64(1)])
        #expect(throws: DecodingError.self) { try RecordJSONDecoder().decode(Record.self, from: Data(json.utf8)) }
    }
}
