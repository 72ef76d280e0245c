import Foundation
import Testing

@testable import RecordCodable

/// Values stored as files beside the record.
@Suite("Asset values")
struct AssetValueTests {
    struct Transcript: RecordAssetValue, Equatable {
        var lines: [String]
        var recorded: Date
    }

    struct Episode: Codable, Equatable {
        var id: String
        var title: String
        var transcript: Transcript
        var notes: Transcript?
    }

    static let transcript = Transcript(lines: ["Hello", "World"], recorded: Date(timeIntervalSince1970: 1.000_000_1))

    private func encoder(_ directory: URL) -> RecordEncoder {
        var encoder = RecordEncoder()
        encoder.assetDirectory = directory
        return encoder
    }

    @Test("An asset value round-trips through its file")
    func roundTripThroughAFile() throws {
        try withTemporaryDirectory { directory in
            let record = try roundTrip(
                Episode(id: "e1", title: "Pilot", transcript: Self.transcript, notes: nil), encoder: encoder(directory))
            guard case .asset(let asset)? = record["transcript"], let file = asset.fileURL else {
                Issue.record("an asset value is an asset with a local file")
                return
            }
            #expect(file.deletingLastPathComponent().standardizedFileURL.path == directory.standardizedFileURL.path)
            #expect(file.lastPathComponent.count == 64 + ".json".count)
            let stored = try JSONDecoder().decode(Transcript.self, from: Data(contentsOf: file))
            #expect(stored == Self.transcript)
            #expect(record["notes"] == nil)
        }
    }

    @Test("Encoding the same model twice writes one file")
    func deterministicFileName() throws {
        try withTemporaryDirectory { directory in
            let episode = Episode(id: "e1", title: "Pilot", transcript: Self.transcript, notes: Self.transcript)
            let first = try encoder(directory).encode(episode)
            let second = try encoder(directory).encode(episode)
            #expect(first == second)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
            var changed = episode
            changed.transcript.lines.append("!")
            _ = try encoder(directory).encode(changed)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 2)
        }
    }

    @Test("The file is named by the SHA-256 digest of its content")
    func contentDigest() throws {
        #expect(
            SHA256.hexDigest(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hexDigest(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hexDigest(of: long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(of: million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("A list of asset values is a list of assets")
    func listOfAssetValues() throws {
        try withTemporaryDirectory { directory in
            let other = Transcript(lines: ["Other"], recorded: Date(timeIntervalSince1970: 2))
            let record = try roundTrip(Box(value: [Self.transcript, other]), encoder: encoder(directory))
            guard case .list(let elements)? = record["value"] else {
                Issue.record("a list")
                return
            }
            #expect(elements.count == 2)
            #expect(elements.allSatisfy { if case .asset = $0 { true } else { false } })
        }
    }

    @Test("A missing asset file is a decoding error at the field")
    func missingFile() throws {
        let record = Record(
            recordType: "Episode", recordName: "e1",
            fields: [
                "title": .string("t"),
                "transcript": .asset(RecordAsset(fileURL: URL(fileURLWithPath: "/nonexistent/\(UUID()).json"))),
            ])
        expectDecodingError("dataCorrupted", at: "transcript") {
            _ = try RecordDecoder().decode(Episode.self, from: record)
        }
        var remote = record
        remote["transcript"] = .asset(RecordAsset(fileChecksum: "abc", downloadURL: "https://example.com/${f}"))
        let error = expectDecodingError("dataCorrupted", at: "transcript") {
            _ = try RecordDecoder().decode(Episode.self, from: remote)
        }
        #expect(error?.context?.debugDescription.contains("download") == true)
    }

    @Test("An asset file whose content is not the value's JSON is corrupt, with its path inside")
    func corruptFile() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("bad.json")
            try Data(#"{"lines":[1],"recorded":0}"#.utf8).write(to: file)
            let record = Record(
                recordType: "Episode", recordName: "e1",
                fields: ["title": .string("t"), "transcript": .asset(RecordAsset(fileURL: file))])
            expectDecodingError("typeMismatch", at: "transcript.lines.Index 0") {
                _ = try RecordDecoder().decode(Episode.self, from: record)
            }
        }
    }

    @Test("An asset directory that cannot be written is an encoding error at the field")
    func unwritableDirectory() throws {
        try withTemporaryDirectory { blocker in
            try Data("a file, not a folder".utf8).write(to: blocker)
            let episode = Episode(id: "e1", title: "t", transcript: Self.transcript, notes: nil)
            expectEncodingError(at: "transcript") {
                _ = try encoder(blocker.appendingPathComponent("sub")).encode(episode)
            }
        }
    }

    @Test("An asset value that is not stored as an asset is a type mismatch")
    func assetValueFromOtherField() throws {
        let record = Record(
            recordType: "Episode", recordName: "e1", fields: ["title": .string("t"), "transcript": .string("x")])
        expectDecodingError("typeMismatch", at: "transcript") {
            _ = try RecordDecoder().decode(Episode.self, from: record)
        }
    }

    @Test("A downloaded asset value that the edit did not touch is not sent again")
    func untouchedAssetValueInAnUpdate() throws {
        try withTemporaryDirectory { directory in
            let encoder = encoder(directory)
            let local = try encoder.encode(Episode(id: "e1", title: "Pilot", transcript: Self.transcript, notes: nil))
            guard case .asset(let written)? = local["transcript"] else {
                Issue.record("an asset value is an asset")
                return
            }
            // As the server returns it, once the app has downloaded its file.
            var fetched = local
            fetched["transcript"] = .asset(
                RecordAsset(fileURL: written.fileURL, fileChecksum: "c1", size: 40, downloadURL: "https://x/${f}"))
            fetched.metadata = RecordMetadata(changeTag: "t")
            var episode = try RecordDecoder().decode(Episode.self, from: fetched)
            episode.title = "Pilot, part 1"
            let update = try encoder.encode(episode, updating: fetched)
            #expect(update.fields == ["title": .string("Pilot, part 1")])
        }
    }
}
