import Foundation
import Testing

@testable import RecordCodable

/// A field whose type differs between records: Photos keeps `filenameEnc` as `ENCRYPTED_BYTES` of
/// UTF-8 text in most records and as `STRING` in some. `readsStringsFromUTF8Bytes` reads both into
/// a `String`, and only when asked (issue 41).
@Suite("Strings from UTF-8 bytes")
struct StringsFromBytesTests {
    struct CPLMaster: Codable, Equatable {
        var id: String
        var filenameEnc: String
        var importedByDisplayNameEnc: String?
    }

    /// A master record as the server sends it, with `filenameEnc` as given.
    static func master(filenameEnc: String) throws -> Record {
        let json = """
            {"recordName": "AR5gg657a+rfmRM8ThJ6m7rgIEWN", "recordType": "CPLMaster",
             "fields": {"filenameEnc": \(filenameEnc),
                        "importedByDisplayNameEnc": {"value": "UGhvdG9z", "type": "ENCRYPTED_BYTES"},
                        "itemType": {"value": "public.png", "type": "STRING"}},
             "pluginFields": {}, "recordChangeTag": "g", "deleted": false}
            """
        return try RecordJSONDecoder().decode(Record.self, from: Data(json.utf8))
    }

    static let asBytes = #"{"value": "c29sdmVqIGRrLnBuZw==", "type": "ENCRYPTED_BYTES"}"#
    static let asString = #"{"value": "solvej dk.png", "type": "STRING"}"#

    private var lenient: RecordDecoder {
        var decoder = RecordDecoder()
        decoder.readsStringsFromUTF8Bytes = true
        return decoder
    }

    @Test("By default a String does not read bytes: the strictness is unchanged")
    func strictByDefault() throws {
        #expect(!RecordDecoder().readsStringsFromUTF8Bytes)
        let record = try Self.master(filenameEnc: Self.asBytes)
        expectDecodingError("typeMismatch", at: "filenameEnc") {
            _ = try RecordDecoder().decode(CPLMaster.self, from: record)
        }
    }

    @Test("Turned on, a String reads the text of ENCRYPTED_BYTES and of STRING alike")
    func readsBothShapes() throws {
        let fromBytes = try lenient.decode(CPLMaster.self, from: Self.master(filenameEnc: Self.asBytes))
        let fromString = try lenient.decode(CPLMaster.self, from: Self.master(filenameEnc: Self.asString))
        #expect(fromBytes.filenameEnc == "solvej dk.png")
        #expect(fromBytes.importedByDisplayNameEnc == "Photos")
        #expect(fromString == fromBytes)
    }

    @Test("Bytes that are not UTF-8 are dataCorrupted at the field, with a clear message")
    func notUTF8() throws {
        var record = try Self.master(filenameEnc: Self.asString)
        record["filenameEnc"] = .bytes(Data([0x66, 0xFF, 0xFE]))
        let error = expectDecodingError("dataCorrupted", at: "filenameEnc") {
            _ = try lenient.decode(CPLMaster.self, from: record)
        }
        #expect(error?.context?.debugDescription.contains("not valid UTF-8") == true)
        record["filenameEnc"] = .string("x")
        record["importedByDisplayNameEnc"] = .bytes(Data([0xC3]))
        expectDecodingError("dataCorrupted", at: "importedByDisplayNameEnc") {
            _ = try lenient.decode(CPLMaster.self, from: record)
        }
    }

    @Test("List elements, single values and raw values read text from bytes too; Data does not read text")
    func otherStringRoutes() throws {
        enum Kind: String, Codable { case png }
        let names = boxRecord(.list([.bytes(Data("a.png".utf8)), .bytes(Data("b.png".utf8))]))
        #expect(try lenient.decode(Box<[String]>.self, from: names).value == ["a.png", "b.png"])
        expectDecodingError("typeMismatch", at: "value.Index 0") {
            _ = try RecordDecoder().decode(Box<[String]>.self, from: names)
        }
        #expect(
            try lenient.decode(Box<Encrypted<String>>.self, from: boxRecord(.bytes(Data("x".utf8)))).value.wrappedValue
                == "x")
        #expect(try lenient.decode(Box<Kind>.self, from: boxRecord(.bytes(Data("png".utf8)))).value == .png)
        expectDecodingError("typeMismatch", at: "value") {
            _ = try lenient.decode(Box<Data>.self, from: boxRecord(.string("text")))
        }
    }
}
