import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

@Suite("Assets end to end, and zones")
struct AssetsAndZonesTests {
    /// A file with the given bytes in a fresh directory.
    static func file(_ bytes: String, named name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ckws-assets-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes.utf8).write(to: url)
        return url
    }

    /// A Note record whose `image` is a local file of one byte.
    static func noteWithImage(named name: String) throws -> Record {
        var record = noteRecord(name, title: "a")
        record["image"] = .asset(RecordAsset(fileURL: try file("x", named: "image.bin")))
        return record
    }

    static func uploadAnswer(_ checksum: String, size: Int) -> ScriptedTransport.Step {
        .ok(#"{"singleFile":{"fileChecksum":"\#(checksum)","size":\#(size),"receipt":"R-\#(checksum)"}}"#)
    }

    @Test("Saving a record with asset files asks for tokens, uploads each file, and saves the ASSETID values")
    func saveWithAssets() async throws {
        let cover = try Self.file("cover bytes", named: "cover.png")
        let page1 = try Self.file("page one", named: "p1.png")
        let page2 = try Self.file("page two!", named: "p2.png")
        var record = Record(recordType: "Book", recordName: "B1", fields: ["title": .string("Odyssey")])
        record["cover"] = .asset(RecordAsset(fileURL: cover))
        record["pages"] = .list([.asset(RecordAsset(fileURL: page1)), .asset(RecordAsset(fileURL: page2))])
        let transport = ScriptedTransport([
            .ok(
                #"{"tokens":[{"recordName":"B1","fieldName":"cover","url":"https://cvws.test/upload/1"},"#
                    + #"{"recordName":"B1","fieldName":"pages","url":"https://cvws.test/upload/2"},"#
                    + #"{"recordName":"B1","fieldName":"pages","url":"https://cvws.test/upload/3"}]}"#),
            Self.uploadAnswer("C1", size: 11), Self.uploadAnswer("C2", size: 8), Self.uploadAnswer("C3", size: 9),
            .ok(#"{"records":[{"recordName":"B1","recordType":"Book","fields":{},"recordChangeTag":"t"}]}"#),
        ])
        let database = testDatabase(
            transport, credentials: .serverToServer(keyID: "K") { _ in Data([1]) }, policy: RecordedSleeps().policy())
        let answer = try await database.saveRecords([record])
        #expect(answer.records.first?.record?.recordName == "B1")

        let sent = transport.requests
        try #require(sent.count == 5)
        #expect(sent[0].path == "\(databasePath)/assets/upload")
        let tokens = jsonObject(sent[0].body)["tokens"] as? [[String: Any]] ?? []
        #expect(tokens.map { $0["fieldName"] as? String } == ["cover", "pages", "pages"])
        #expect(tokens.map { $0["recordType"] as? String } == ["Book", "Book", "Book"])
        #expect(tokens.map { $0["recordName"] as? String } == ["B1", "B1", "B1"])
        #expect(sent[1...3].map(\.path) == ["/upload/1", "/upload/2", "/upload/3"])
        #expect(
            sent[1...3].map { String(decoding: $0.body, as: UTF8.self) } == ["cover bytes", "page one", "page two!"])
        #expect(sent[1...3].allSatisfy { $0.header("X-Apple-CloudKit-Request-SignatureV1") == nil })
        #expect(sent[4].path == "\(databasePath)/records/modify")
        let saved = (jsonObject(sent[4].body)["operations"] as? [[String: Any]])?.first?["record"] as? [String: Any]
        let fields = saved?["fields"] as? [String: Any]
        let coverValue = (fields?["cover"] as? [String: Any])?["value"] as? [String: Any]
        #expect(coverValue?["receipt"] as? String == "R-C1")
        #expect(coverValue?["fileChecksum"] as? String == "C1")
        #expect(coverValue?["size"] as? Int == 11)
        let pageValues = (fields?["pages"] as? [String: Any])?["value"] as? [[String: Any]]
        #expect(pageValues?.map { $0["receipt"] as? String } == ["R-C2", "R-C3"])
        #expect((fields?["title"] as? [String: Any])?["value"] as? String == "Odyssey")
    }

    @Test("Records without local files are saved with no asset request")
    func noAssets() async throws {
        let transport = ScriptedTransport([.ok(#"{"records":[\#(noteJSON("N1", title: "a"))]}"#)])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        var record = noteRecord("N1", title: "a")
        record["image"] = .asset(RecordAsset(fileChecksum: "known", size: 3, receipt: "R"))
        _ = try await database.saveRecords([record])
        #expect(transport.requests.map { $0.path.contains("/records/modify?") } == [true])
    }

    @Test("An upload that gets no answer is sent again; a file that cannot be read fails before the upload")
    func uploadFaults() async throws {
        let file = try Self.file("bytes", named: "a.bin")
        let transport = ScriptedTransport([.noAnswer, Self.uploadAnswer("C", size: 5)])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let result = try await database.uploadAsset(Data("bytes".utf8), to: "https://cvws.test/u")
        #expect(result.asset.receipt == "R-C")
        #expect(transport.requests.count == 2)

        let missing = file.deletingLastPathComponent().appendingPathComponent("missing.bin")
        var record = noteRecord("N1", title: "a")
        record["image"] = .asset(RecordAsset(fileURL: missing))
        let tokens = ScriptedTransport([
            .ok(#"{"tokens":[{"recordName":"N1","fieldName":"image","url":"https://cvws.test/u"}]}"#)
        ])
        let error = try await #require(throws: CloudKitError.self) {
            try await testDatabase(tokens, policy: RecordedSleeps().policy()).uploadAssets(of: [record])
        }
        #expect(error.recordName == "N1")
        #expect(error.description.contains("missing.bin"))
        #expect(tokens.requests.count == 1)

        let badURL = try await #require(throws: CloudKitError.self) {
            try await database.uploadAsset(Data(), to: "not a url")
        }
        #expect(badURL.operation == "asset upload")

        let tooLarge = try await #require(throws: CloudKitError.self) {
            try await database.uploadAsset(
                Data(count: CloudKitDatabase.maximumAssetSize + 1), to: "https://cvws.test/u")
        }
        #expect(tooLarge.description.contains("52428801 bytes"))
        #expect(transport.requests.count == 2)
    }

    @Test("More than 200 asset tokens are asked for in parts")
    func tokensSplit() async throws {
        func tokens(_ count: Int) -> ScriptedTransport.Step {
            let entries = (0..<count).map { _ in #"{"fieldName":"f","url":"https://u.test/x"}"# }
            return .ok(#"{"tokens":[\#(entries.joined(separator: ","))]}"#)
        }
        let transport = ScriptedTransport([tokens(200), tokens(1)])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let request = AssetsUploadRequest(tokens: Array(repeating: .init(recordType: "T", fieldName: "f"), count: 201))
        let answer = try await database.requestAssetUploads(request)
        #expect(answer.tokens.count == 201)
        #expect(transport.requests.map { (jsonObject($0.body)["tokens"] as? [Any])?.count } == [200, 1])
    }

    @Test("Zones: a create is sent again after a lost answer; a delete is not")
    func zones() async throws {
        let zone = RecordZoneID(zoneName: "Notes")
        let transport = ScriptedTransport([
            .noAnswer, .ok(#"{"zones":[{"zoneID":{"zoneName":"Notes"}}]}"#), .noAnswer,
            .ok(
                #"{"zones":[{"zoneID":{"zoneName":"Notes"}},{"zoneID":{"zoneName":"Gone"},"serverErrorCode":"ZONE_NOT_FOUND"}]}"#
            ),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let created = try await database.modifyZones(ZonesModifyRequest(creating: [zone]))
        #expect(created.zones.first?.zone?.zoneID == zone)
        await #expect(throws: CloudKitError.self) {
            try await database.modifyZones(ZonesModifyRequest(deleting: [zone]))
        }
        #expect(transport.requests.count == 3)
        let looked = try await database.lookupZones([zone, RecordZoneID(zoneName: "Gone")])
        #expect(looked.map { $0.error?.serverErrorCode } == [nil, .zoneNotFound])
    }

    @Test("Upload tokens that are not those asked for, in order, are an error before any upload")
    func mismatchedTokens() async throws {
        let record = try Self.noteWithImage(named: "N1")
        let transport = ScriptedTransport([
            .ok(#"{"tokens":[{"recordName":"N1","fieldName":"other","url":"https://u.test/1"}]}"#)
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let error = try await #require(throws: CloudKitError.self) { try await database.uploadAssets(of: [record]) }
        #expect(error.operation == "assets/upload")
        #expect(transport.requests.count == 1)
    }

    @Test("A record without a name takes the name the server chose for its upload token")
    func serverChosenName() async throws {
        let record = try Self.noteWithImage(named: "")
        let transport = ScriptedTransport([
            .ok(#"{"tokens":[{"recordName":"SERVER-1","fieldName":"image","url":"https://u.test/1"}]}"#),
            .ok(#"{"singleFile":{"fileChecksum":"C","size":1,"receipt":"R"}}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let uploaded = try await database.uploadAssets(of: [record])
        #expect(uploaded.first?.recordName == "SERVER-1")
        #expect(uploaded.first?["image"] == .asset(RecordAsset(fileChecksum: "C", size: 1, receipt: "R")))
        let tokens = jsonObject(transport.requests[0].body)["tokens"] as? [[String: Any]]
        #expect(tokens?.first?["recordName"] == nil)
    }
}
