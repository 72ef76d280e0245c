import Foundation
import Testing

@testable import RecordCodable

/// The bodies that public projects recorded from the real CloudKit server, or printed, vendored in
/// `Tests/Fixtures/cloudkit-wire` with where each comes from (`Tests/Fixtures/README.md`). Every
/// test that reads them fails, rather than being skipped, when they are missing.
enum RecordedBodies {
    /// `Tests/Fixtures/cloudkit-wire`, found from this file by walking up to the `Tests` folder.
    static let directory: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.lastPathComponent != "Tests" && folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("Fixtures/cloudkit-wire")
    }()

    /// One body and what it is, as the fixtures' MANIFEST.json lists it.
    struct Entry: Decodable, CustomTestStringConvertible {
        var file: String
        var kind: String
        var realServer: Bool
        var testDescription: String { file }
    }

    /// The fixtures are not where the tests look for them.
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "\(RecordedBodies.directory.path)/MANIFEST.json is missing: the CloudKit bodies vendored under Tests/Fixtures are needed"
        }
    }

    private static let manifest = Result<[Entry], any Error> {
        let file = directory.appendingPathComponent("MANIFEST.json")
        guard FileManager.default.fileExists(atPath: file.path) else { throw Missing() }
        return try JSONDecoder().decode([Entry].self, from: Data(contentsOf: file))
    }

    /// Every body the manifest lists, in its order; throws when the fixtures are missing.
    static func entries() throws -> [Entry] { try manifest.get() }

    /// The bodies of `kind`.
    static func files(of kind: String) throws -> [URL] {
        try entries().filter { $0.kind == kind }.map { directory.appendingPathComponent($0.file) }
    }

    /// Every body, sorted by path.
    static func allFiles() throws -> [URL] {
        try entries().map { directory.appendingPathComponent($0.file) }.sorted { $0.path < $1.path }
    }

    static func data(_ entry: Entry) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(entry.file))
    }
}

/// iCloud.com's own batch endpoint: `{"batch": [...]}` of query requests or responses.
struct Batch<Element: Codable & Hashable>: Codable, Hashable {
    var batch: [Element]
}

@Suite("Real server traffic")
struct RealTrafficTests {
    // MARK: Recorded bodies

    /// Reads a body as `T`, checks that writing and reading it again gives an equal value, and
    /// returns it.
    @discardableResult
    private func readAndRoundTrip<T: Codable & Hashable>(
        _ type: T.Type, _ data: Data, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> T {
        let value = try JSONDecoder().decode(T.self, from: data)
        let again = try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
        #expect(again == value, sourceLocation: sourceLocation)
        return value
    }

    /// The record dictionaries of a body, found as the objects under a `records` key.
    private func recordCount(in data: Data) throws -> Int {
        func count(_ value: Any) -> Int {
            if let array = value as? [Any] { return array.map(count).reduce(0, +) }
            guard let object = value as? [String: Any] else { return 0 }
            var total = 0
            for (key, member) in object {
                if key == "records", let records = member as? [Any] {
                    total += records.count
                } else {
                    total += count(member)
                }
            }
            return total
        }
        // One hand-written stub has a trailing comma, which JSONDecoder accepts and
        // JSONSerialization does not.
        let text = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: #",\s*([}\]])"#, with: "$1", options: .regularExpression)
        return count(try JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    /// The entries of a page: none lost, none unreadable.
    private func expectWhole(_ results: [RecordResult], of data: Data, _ entry: RecordedBodies.Entry) throws {
        #expect(results.count == (try recordCount(in: data)), "\(entry.file)")
        for result in results {
            #expect(result.unreadable == nil, "\(entry.file): \(result.unreadable.map(String.init(describing:)) ?? "")")
        }
    }

    @Test(
        "Every recorded body reads with the package type for its kind, and round-trips",
        arguments: try RecordedBodies.entries())
    func recordedBody(_ entry: RecordedBodies.Entry) throws {
        let data = try RecordedBodies.data(entry)
        switch entry.kind {
        case "record":
            try readAndRoundTrip(Record.self, data)
        case "operation":
            try readAndRoundTrip(RecordOperation.self, data)
        case "modifyRequest":
            let request = try readAndRoundTrip(RecordsModifyRequest.self, data)
            #expect(request.operations.count > 0)
        case "modifyResponse":
            try expectWhole(try readAndRoundTrip(RecordsModifyResponse.self, data).records, of: data, entry)
        case "queryResponse":
            try expectWhole(try readAndRoundTrip(RecordsQueryResponse.self, data).records, of: data, entry)
        case "batchQueryResponse":
            let batch = try readAndRoundTrip(Batch<RecordsQueryResponse>.self, data)
            try expectWhole(batch.batch.flatMap(\.records), of: data, entry)
        case "lookupResponse":
            try expectWhole(try readAndRoundTrip(RecordsLookupResponse.self, data).records, of: data, entry)
        case "errorBody":
            try readAndRoundTrip(RecordServerError.self, data)
        default:
            try readOtherKind(entry, data)
        }
    }

    /// The kinds of the records API's other bodies.
    private func readOtherKind(_ entry: RecordedBodies.Entry, _ data: Data) throws {
        switch entry.kind {
        case "queryRequest":
            try readAndRoundTrip(RecordsQueryRequest.self, data)
        case "batchQueryRequest":
            #expect(try readAndRoundTrip(Batch<RecordsQueryRequest>.self, data).batch.count > 0)
        case "lookupRequest":
            #expect(try readAndRoundTrip(RecordsLookupRequest.self, data).records.count > 0)
        case "changesResponse":
            try expectWhole(try readAndRoundTrip(RecordsChangesResponse.self, data).records, of: data, entry)
        case "zonesListResponse":
            #expect(try readAndRoundTrip(ZonesListResponse.self, data).zones.count > 0)
        case "assetTokensResponse":
            #expect(try readAndRoundTrip(AssetsUploadResponse.self, data).tokens.count > 0)
        case "assetUploadResult":
            try readAndRoundTrip(AssetUploadResult.self, data)
        case "zoneChangesResponse":
            // `zones/changes`: the package has no type for it; it is still JSON.
            _ = try JSONSerialization.jsonObject(with: data)
        default:
            Issue.record("No package type reads \(entry.kind) (\(entry.file))")
        }
    }

    @Test("The recorded bodies hold thousands of records, every one read")
    func everyRecordRead() throws {
        var read = 0
        var encrypted = 0
        for entry in try RecordedBodies.entries()
        where entry.kind.hasSuffix("Response") && entry.kind != "zoneChangesResponse" {
            let data = try RecordedBodies.data(entry)
            let results: [RecordResult]
            switch entry.kind {
            case "batchQueryResponse":
                results = try JSONDecoder().decode(Batch<RecordsQueryResponse>.self, from: data).batch.flatMap(
                    \.records)
            case "modifyResponse": results = try JSONDecoder().decode(RecordsModifyResponse.self, from: data).records
            case "lookupResponse": results = try JSONDecoder().decode(RecordsLookupResponse.self, from: data).records
            case "queryResponse": results = try JSONDecoder().decode(RecordsQueryResponse.self, from: data).records
            case "changesResponse": results = try JSONDecoder().decode(RecordsChangesResponse.self, from: data).records
            default: continue
            }
            for result in results {
                if let record = result.record {
                    read += 1
                    encrypted += record.encryptedFields.count
                }
            }
        }
        #expect(read > 250)
        #expect(encrypted > 200)
    }

    // MARK: Encrypted fields

    private func record(_ json: String) throws -> Record {
        try JSONDecoder().decode(Record.self, from: Data(json.utf8))
    }

    private func json(_ record: Record) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    @Test(
        "An ENCRYPTED_ type reads as its plain value, for every type the schema can encrypt",
        arguments: [
            (#""ENCRYPTED_BYTES","value":"AAEC""#, RecordValue.bytes(Data([0, 1, 2]))),
            (#""ENCRYPTED_STRING","value":"secret""#, .string("secret")),
            (#""ENCRYPTED_INT64","value":42"#, .int64(42)),
            (#""ENCRYPTED_DOUBLE","value":0.5"#, .double(0.5)),
            (#""ENCRYPTED_TIMESTAMP","value":1700000000000"#, .date(Date(timeIntervalSince1970: 1_700_000_000))),
            (
                #""ENCRYPTED_LOCATION","value":{"latitude":1,"longitude":2}"#,
                .location(RecordLocation(latitude: 1, longitude: 2))
            ),
            (#""ENCRYPTED_STRING_LIST","value":["a","b"]"#, .list([.string("a"), .string("b")])),
            (#""ENCRYPTED_INT64_LIST","value":[1,2]"#, .list([.int64(1), .int64(2)])),
            (#""ENCRYPTED_BYTES_LIST","value":["AA=="]"#, .list([.bytes(Data([0]))])),
        ])
    func encryptedType(_ field: String, _ value: RecordValue) throws {
        let read = try record(#"{"recordName":"n","recordType":"T","fields":{"secret":{"type":\#(field)}}}"#)
        #expect(read["secret"] == value)
        #expect(read.encryptedFields == ["secret"])
        // Written back in the documented form: the plain type, marked encrypted.
        let written = try json(read)
        #expect(written.contains(#""isEncrypted":true,"type":"\#(value.typeName)""#), "\(written)")
        #expect(try record(written) == read)
    }

    @Test("A field marked isEncrypted reads as its plain value; false or absent is not encrypted")
    func isEncryptedFlag() throws {
        let read = try record(
            #"{"recordName":"n","fields":{"a":{"type":"STRING","value":"x","isEncrypted":true},"b":{"type":"STRING","value":"y","isEncrypted":false},"c":{"type":"INT64","value":1}}}"#
        )
        #expect(read.fields == ["a": .string("x"), "b": .string("y"), "c": .int64(1)])
        #expect(read.encryptedFields == ["a"])
        expectDecodingError("typeMismatch", at: "fields.a.isEncrypted") {
            _ = try record(#"{"recordName":"n","fields":{"a":{"type":"STRING","value":"x","isEncrypted":"yes"}}}"#)
        }
    }

    @Test("The exact JSON of an encrypted field")
    func encryptedGolden() throws {
        var record = Record(recordType: "Secret", recordName: "s", fields: ["pin": .string("1234"), "note": .int64(1)])
        record.encryptedFields = ["pin", "missing"]
        #expect(
            try json(record)
                == #"{"fields":{"note":{"type":"INT64","value":1},"pin":{"isEncrypted":true,"type":"STRING","value":"1234"}},"recordName":"s","recordType":"Secret"}"#
        )
    }

    @Test("Assets and references are never encrypted: a flag on them is ignored, and asking for it is an error")
    func assetsAndReferencesAreNotEncrypted() throws {
        let read = try record(
            #"{"recordName":"n","fields":{"r":{"type":"REFERENCE","value":{"recordName":"x"},"isEncrypted":true},"a":{"type":"ENCRYPTED_ASSETID","value":{"fileChecksum":"c"}}}}"#
        )
        #expect(read["r"] == .reference(RecordReference(recordName: "x")))
        #expect(read["a"] == .asset(RecordAsset(fileChecksum: "c")))
        #expect(read.encryptedFields.isEmpty)

        // Without a type, and as empty lists of them: a record that reads writes back, on both
        // paths.
        let others =
            #"{"recordName":"n","recordType":"T","fields":{"#
            + #""r":{"value":{"recordName":"x"},"isEncrypted":true},"a":{"value":{"fileChecksum":"c"},"isEncrypted":true},"#
            + #""rs":{"type":"REFERENCE_LIST","value":[],"isEncrypted":true},"#
            + #""as":{"type":"ENCRYPTED_ASSETID_LIST","value":[]},"#
            + #""s":{"type":"STRING_LIST","value":[],"isEncrypted":true}}}"#
        for read in [try record(others), try RecordJSONDecoder().decode(Record.self, from: Data(others.utf8))] {
            #expect(read["r"] == .reference(RecordReference(recordName: "x")))
            #expect(read["rs"] == .list([]))
            #expect(read.encryptedFields == ["s"])
            #expect(try self.record(json(read)) == read)
            #expect(try RecordJSONDecoder().decode(Record.self, from: RecordJSONEncoder().encode(read)) == read)
        }

        var record = Record(
            recordType: "T", recordName: "n",
            fields: ["refs": .list([.reference(RecordReference(recordName: "x"))])])
        record.encryptedFields = ["refs"]
        let error = expectEncodingError(at: "fields.refs") { _ = try JSONEncoder().encode(record) }
        #expect(error?.context?.debugDescription.contains("neither assets") == true)
    }

    // MARK: Values the server sends

    @Test("A null or missing value is an absent field, whatever its type, kept as cleared")
    func nullValues() throws {
        let read = try record(
            #"{"recordName":"n","fields":{"a":{"type":"STRING","value":null},"b":{"type":"FUTURE_TYPE"},"c":{"type":"INT64","value":3},"d":{"type":"ASSETID","value":null,"isEncrypted":true}}}"#
        )
        #expect(read.fields == ["c": .int64(3)])
        #expect(read.clearedFields == ["a", "b", "d"])
        // An asset is never encrypted, even cleared.
        #expect(read.encryptedFields.isEmpty)
        #expect(try self.record(json(read)) == read)
        #expect(try json(read).contains(#""a":{"type":"STRING","value":null}"#))
    }

    @Test("A cleared field set by hand, and one that also has a value, round-trip")
    func clearedFieldsByHand() throws {
        var record = Record(recordType: "T", recordName: "n", fields: ["a": .int64(1)])
        record.clearedFields = ["a", "b"]
        #expect(record.clearedFields == ["b"])
        #expect(try self.record(json(record)) == record)
    }

    @Test(
        "Numbers sent as strings read exactly",
        arguments: [
            (#"{"type":"INT64","value":"9223372036854775807"}"#, RecordValue.int64(.max)),
            (#"{"type":"INT64","value":"-9223372036854775808"}"#, .int64(.min)),
            (#"{"type":"INT64","value":"1e3"}"#, .int64(1000)),
            (#"{"type":"DOUBLE","value":"0.1"}"#, .double(0.1)),
            (#"{"type":"DOUBLE","value":"-0"}"#, .double(-0.0)),
            (#"{"type":"DOUBLE","value":"1.7976931348623157e308"}"#, .double(.greatestFiniteMagnitude)),
            (#"{"type":"TIMESTAMP","value":"1700000000123"}"#, .date(Date(timeIntervalSince1970: 1_700_000_000.123))),
            (#"{"type":"INT64_LIST","value":["1","2"]}"#, .list([.int64(1), .int64(2)])),
        ])
    func numbersAsStrings(_ field: String, _ value: RecordValue) throws {
        let read = try record(#"{"recordName":"n","fields":{"x":\#(field)}}"#)
        #expect(read["x"] == value)
        #expect(read["x"].map { if case .double(let number) = $0 { number.sign } else { .plus } } == value.doubleSign)
    }

    @Test(
        "A number spelled as a string that is not one, or does not fit, is corrupt at its path",
        arguments: [
            #"{"type":"INT64","value":"9223372036854775808"}"#, #"{"type":"INT64","value":"1.5"}"#,
            #"{"type":"INT64","value":" 1"}"#, #"{"type":"DOUBLE","value":"NaN"}"#,
            #"{"type":"DOUBLE","value":"1e400"}"#, #"{"type":"DOUBLE","value":"0x10"}"#,
            #"{"type":"TIMESTAMP","value":"soon"}"#, #"{"type":"DOUBLE","value":".5"}"#,
        ])
    func badNumbersAsStrings(_ field: String) {
        expectDecodingError("dataCorrupted", at: "fields.x.value") {
            _ = try record(#"{"recordName":"n","fields":{"x":\#(field)}}"#)
        }
    }

    @Test("Keys the server adds never fail a read; the sharing keys and deleted are kept")
    func serverKeys() throws {
        let read = try record(
            #"""
            {"recordName":"n","recordType":"T","fields":{},"pluginFields":{"p":{"value":1}},"expirationTime":1700000000000,
             "deleted":true,"zoneID":{"zoneName":"Z","ownerRecordName":"_o","zoneType":"REGULAR_CUSTOM_ZONE"},
             "parent":{"recordName":"P","action":"NONE"},"share":{"recordName":"S","zoneID":{"zoneName":"Z"}},
             "shortGUID":"0abc","createShortGUID":true,"futureKey":[1,{"x":null}]}
            """#)
        #expect(read.parent == RecordReference(recordName: "P"))
        #expect(read.metadata?.share == RecordReference(recordName: "S", zoneID: RecordZoneID(zoneName: "Z")))
        #expect(read.metadata?.shortGUID == "0abc")
        #expect(read.metadata?.deleted == true)
        #expect(read.metadata?.zoneID == RecordZoneID(zoneName: "Z", ownerRecordName: "_o"))
        #expect(try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(read)) == read)
    }

    // MARK: Pages

    @Test("One record that cannot be read does not lose the page")
    func unreadableRecordInPage() throws {
        let body = #"""
            {"records":[
              {"recordName":"a","recordType":"T","fields":{"x":{"type":"STRING","value":"ok"}}},
              {"recordName":"b","recordType":"T","fields":{"x":{"type":"HOLOGRAM","value":"?"}}},
              {"recordName":"c","serverErrorCode":"NOT_FOUND"},
              {"recordName":"d","recordType":"T","fields":{"x":{"type":"INT64","value":"many"}}},
              "not a record",
              {"recordName":"e","recordType":"T"}
            ],"continuationMarker":"m"}
            """#
        let page = try JSONDecoder().decode(RecordsQueryResponse.self, from: Data(body.utf8))
        #expect(page.records.map(\.recordName) == ["a", "b", "c", "d", nil, "e"])
        #expect(page.records[0].record?["x"] == .string("ok"))
        #expect(page.records[2].error?.serverErrorCode == .notFound)
        #expect(page.continuationMarker == "m")

        let unknownType = try #require(page.records[1].unreadable)
        #expect(unknownType.error.kind == "dataCorrupted")
        #expect(unknownType.error.fullPath == "records.Index 1.fields.x.type")
        #expect(
            unknownType.description
                == "Record 'b' could not be read: records.1.fields.x.type: Unknown field type 'HOLOGRAM'.")
        let malformed = try #require(page.records[3].unreadable)
        #expect(malformed.error.fullPath == "records.Index 3.fields.x.value")
        let notAnObject = try #require(page.records[4].unreadable)
        #expect(notAnObject.error.kind == "typeMismatch")
        #expect(throws: UnreadableRecord.self) { try page.records[1].get() }
        #expect(throws: RecordServerError.self) { try page.records[2].get() }

        // Written again, the unreadable entries are as they came, and read the same.
        let again = try JSONDecoder().decode(RecordsQueryResponse.self, from: JSONEncoder().encode(page))
        #expect(again == page)

        let lookup = try JSONDecoder().decode(RecordsLookupResponse.self, from: Data(body.utf8))
        #expect(lookup.records.compactMap(\.unreadable).count == 3)
        let modify = try JSONDecoder().decode(RecordsModifyResponse.self, from: Data(body.utf8))
        #expect(modify.records.compactMap(\.record).map(\.recordName) == ["a", "e"])
    }

    @Test("A response without records is an empty page")
    func emptyResponses() throws {
        #expect(try JSONDecoder().decode(RecordsModifyResponse.self, from: Data("{}".utf8)).records.isEmpty)
        #expect(try JSONDecoder().decode(RecordsQueryResponse.self, from: Data("{}".utf8)).records.isEmpty)
        #expect(try JSONDecoder().decode(RecordsLookupResponse.self, from: Data("{}".utf8)).records.isEmpty)
    }

    // MARK: Requests

    private static let zoneA = RecordZoneID(zoneName: "A", ownerRecordName: "_o")

    /// A record as the server returns it: with every system field.
    private static func fetched(_ name: String, zone: RecordZoneID? = zoneA) -> Record {
        let stamp = RecordMetadata.Stamp(timestamp: Date(timeIntervalSince1970: 1_700_000_000), userRecordName: "_u")
        return Record(
            recordType: "Note", recordName: name, fields: ["title": .string("t")],
            metadata: RecordMetadata(
                changeTag: "tag-\(name)", created: stamp, modified: stamp, zoneID: zone, deleted: false,
                share: RecordReference(recordName: "share"), shortGUID: "g"))
    }

    private func requestJSON(_ request: RecordsModifyRequest) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(request), as: UTF8.self)
    }

    @Test("A fetched record is saved with request keys only, to the zone it came from")
    func savingAFetchedRecord() throws {
        var record = Self.fetched("N1")
        record.parent = RecordReference(recordName: "folder")
        record.encryptedFields = ["title"]
        let request = RecordsModifyRequest(savingRecords: [record])
        #expect(
            try requestJSON(request)
                == #"{"operations":[{"operationType":"update","record":{"fields":{"title":{"isEncrypted":true,"type":"STRING","value":"t"}},"parent":{"action":"NONE","recordName":"folder"},"recordChangeTag":"tag-N1","recordName":"N1","recordType":"Note"}}],"zoneID":{"ownerRecordName":"_o","zoneName":"A"}}"#
        )
        // The zone given wins.
        let elsewhere = RecordsModifyRequest(savingRecords: [record], zoneID: RecordZoneID(zoneName: "B"))
        #expect(try requestJSON(elsewhere).hasSuffix(#""zoneID":{"zoneName":"B"}}"#))
    }

    @Test("Records of different zones in one request are an error that names them")
    func mixedZones() throws {
        let request = RecordsModifyRequest(
            savingRecords: [
                Self.fetched("N1"), Self.fetched("N2", zone: nil),
                Self.fetched("N3", zone: RecordZoneID(zoneName: "B")),
            ])
        let error = expectEncodingError(at: "operations.Index 2") { _ = try JSONEncoder().encode(request) }
        #expect(
            error?.context?.debugDescription
                == "Record 'N3' is in zone 'B' but record 'N1' is in zone 'A': a request saves to one zone. Send a request for each zone."
        )
        // Two zones of one name are told apart by their owners.
        let owners = RecordsModifyRequest(
            savingRecords: [Self.fetched("N1"), Self.fetched("N4", zone: RecordZoneID(zoneName: "A"))])
        let ownersError = expectEncodingError(at: "operations.Index 1") { _ = try JSONEncoder().encode(owners) }
        #expect(
            ownersError?.context?.debugDescription
                == "Record 'N4' is in zone 'A' of the current user but record 'N1' is in zone 'A' of owner '_o': "
                + "a request saves to one zone. Send a request for each zone.")
        // Records of one zone, beside new ones, share it.
        let sameZone = RecordsModifyRequest(savingRecords: [Self.fetched("N1"), Self.fetched("N2", zone: nil)])
        #expect(try requestJSON(sameZone).hasSuffix(#""zoneID":{"ownerRecordName":"_o","zoneName":"A"}}"#))
    }

    @Test("Every operation is written with the change tag its record has, or none, for the server to judge")
    func changeTags() throws {
        let untagged = Record(recordType: "Note", recordName: "N1", fields: ["title": .string("t")])
        var tagged = untagged
        tagged.metadata = RecordMetadata(changeTag: "e1")
        let fields = #""fields":{"title":{"type":"STRING","value":"t"}},"#
        for type in RecordOperation.OperationType.allCases {
            let written = try requestJSON(RecordsModifyRequest(operations: [RecordOperation(type, record: untagged)]))
            let writtenTagged = try requestJSON(
                RecordsModifyRequest(operations: [RecordOperation(type, record: tagged)]))
            switch type {
            case .delete, .forceDelete:
                let start = #"{"operations":[{"operationType":"\#(type.rawValue)","record":{"#
                #expect(written == start + #""recordName":"N1"}}]}"#)
                // Only a delete sends the tag: a forced delete removes any version.
                let tag = type == .delete ? #""recordChangeTag":"e1","# : ""
                #expect(writtenTagged == start + tag + #""recordName":"N1"}}]}"#)
            default:
                #expect(
                    written
                        == #"{"operations":[{"operationType":"\#(type.rawValue)","record":{\#(fields)"#
                        + #""recordName":"N1","recordType":"Note"}}]}"#)
                #expect(writtenTagged.contains(#""recordChangeTag":"e1""#))
            }
        }
        // Saving and deleting by name choose an operation that needs no tag when there is none.
        #expect(RecordOperation(saving: untagged).operationType == .create)
        #expect(RecordOperation(saving: tagged).operationType == .update)
        #expect(RecordOperation(deleting: "N1").operationType == .forceDelete)
    }

    @Test("A record without a name is named by the server; one without a type is an error")
    func namesAndTypes() throws {
        let unnamed = RecordsModifyRequest(savingRecords: [Record(recordType: "Note", recordName: "")])
        #expect(
            try requestJSON(unnamed)
                == #"{"operations":[{"operationType":"create","record":{"fields":{},"recordType":"Note"}}]}"#)
        #expect(try JSONDecoder().decode(RecordsModifyRequest.self, from: JSONEncoder().encode(unnamed)) == unnamed)

        let untyped = RecordsModifyRequest(savingRecords: [Record(recordType: "", recordName: "N1")])
        let error = expectEncodingError(at: "operations.Index 0.record.recordType") {
            _ = try JSONEncoder().encode(untyped)
        }
        #expect(
            error?.context?.debugDescription == "Record 'N1' has no record type, which the server needs to save it.")
        // An update may leave the type out, as Apple's examples do; a delete needs none.
        let update = RecordsModifyRequest(operations: [
            RecordOperation(
                .update, record: Record(recordType: "", recordName: "N1", metadata: RecordMetadata(changeTag: "t")))
        ])
        #expect(
            try requestJSON(update)
                == #"{"operations":[{"operationType":"update","record":{"fields":{},"recordChangeTag":"t","recordName":"N1"}}]}"#
        )
        let delete = RecordsModifyRequest(operations: [RecordOperation(deleting: "N1", changeTag: "t")])
        #expect(
            try requestJSON(delete)
                == #"{"operations":[{"operationType":"delete","record":{"recordChangeTag":"t","recordName":"N1"}}]}"#)
        let forceDelete = RecordOperation(deleting: "N1")
        #expect(forceDelete.operationType == .forceDelete)
    }

    @Test("A record on its own keeps every key the server sent")
    func storedRecordKeepsSystemFields() throws {
        let record = Self.fetched("N1")
        let written = try json(record)
        for key in ["created", "modified", "zoneID", "share", "shortGUID"] {
            #expect(written.contains("\"\(key)\""), "\(key)")
        }
        #expect(try self.record(written) == record)
    }
}

extension RecordValue {
    /// The sign of a double, or plus for any other value: to tell -0.0 from 0.0, which `==` does not.
    fileprivate var doubleSign: FloatingPointSign {
        if case .double(let number) = self { return number.sign }
        return .plus
    }
}

@Suite("Real server traffic through the fast coders")
struct RealTrafficFastPathTests {
    @Test("Cleared fields, emptied lists of other types and encrypted fields write the same bytes on both paths")
    func sameBytesForUpdates() throws {
        let fetched = try JSONDecoder().decode(
            Record.self,
            from: Data(
                #"{"recordName":"S1","recordType":"S","recordChangeTag":"t","fields":{"a":{"type":"INT64_LIST","value":[]},"b":{"type":"STRING","value":null},"c":{"type":"ENCRYPTED_TIMESTAMP_LIST","value":[]},"d":{"type":"STRING","value":"x"}}}"#
                    .utf8))
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        let fast = RecordJSONEncoder()
        #expect(try fast.encode(fetched) == foundation.encode(fetched))
        #expect(try RecordJSONDecoder().decode(Record.self, from: fast.encode(fetched)) == fetched)
        let text = String(decoding: try fast.encode(fetched), as: UTF8.self)
        #expect(text.contains(#""a":{"type":"INT64_LIST","value":[]}"#), "\(text)")
        let request = RecordsModifyRequest(savingRecords: [fetched])
        #expect(try fast.encode(request) == foundation.encode(request))
    }
}
