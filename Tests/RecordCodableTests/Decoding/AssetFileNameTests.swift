import Foundation
import Testing

@testable import RecordCodable

/// The file name in an asset's download address: CloudKit's `${f}` is filled with the field's name
/// by default (`resOriginalRes`), with the caller's choice when asked, or kept (issue 41).
@Suite("Asset file names")
struct AssetFileNameTests {
    struct Original: Codable {
        var id: String
        var resOriginalRes: URL
    }

    /// A master record shaped like Photos' answers, with its original's download template.
    static let master: Record = {
        let template =
            "https://cvws.icloud-content.com/B/AY6c-BsE0jjaXx9tmVGJM1D2VcEOAfUMnLhKAW8bwnMCwMMXLMKCslue/${f}"
            + "?o=Ai7aJAyHfwftjSjEUZUly0UQWlCGQJLWjedI3fGj1Df0&v=1&x=3&ckc=com.apple.photos.cloud&ckz=PrimarySync"
        let asset = RecordAsset(
            fileChecksum: "AR5gg657a+rfmRM8ThJ6m7rgIEWN", size: 93124,
            referenceChecksum: "ASgJo4fn2OhfdcrjsD7mVR+DV9uY",
            wrappingKey: "Kydhp1H4MbMxEftozAZ/wA==", downloadURL: template)
        return Record(
            recordType: "Original", recordName: "AR5gg657a+rfmRM8ThJ6m7rgIEWN",
            fields: ["resOriginalRes": .asset(asset), "filenameEnc": .bytes(Data("solvej dk.png".utf8))])
    }()

    @Test("By default the file is named after the field")
    func fieldNameByDefault() throws {
        let url = try RecordDecoder().decode(Original.self, from: Self.master).resOriginalRes
        #expect(url.lastPathComponent == "resOriginalRes")
        #expect(url.query?.hasPrefix("o=Ai7a") == true)
    }

    @Test("assetFileName = .custom names the file as the caller says, percent-encoded")
    func customName() throws {
        var decoder = RecordDecoder()
        decoder.assetFileName = .custom { codingPath, asset in
            #expect(codingPath.map(\.stringValue) == ["resOriginalRes"])
            return "\(asset.size ?? 0) solvej/dk.png"
        }
        let url = try decoder.decode(Original.self, from: Self.master).resOriginalRes
        #expect(url.absoluteString.contains("/93124%20solvej%2Fdk.png?o=Ai7a"))
    }

    @Test("A RecordAsset keeps the placeholder, and downloadURL(fileName:) fills it later")
    func keptPlaceholder() throws {
        guard case .asset(let asset) = Self.master["resOriginalRes"] else { throw RecordedBodies.Missing() }
        #expect(asset.downloadURL?.contains("/${f}?") == true)
        let url = try #require(asset.downloadURL(fileName: "solvej dk.png"))
        #expect(url.absoluteString.contains("/solvej%20dk.png?o="))
        #expect(RecordAsset(fileChecksum: "A").downloadURL(fileName: "x") == nil)
    }
}
