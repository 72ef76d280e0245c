// Assets, references and locations: a photo album whose photos are files beside their records,
// whose pages refer to the album, and whose photos know where they were taken.
//
//     swift run assets-and-references
import Foundation
import RecordCodable

/// Notes too long for a record field: stored as a file beside the record.
struct Caption: RecordAssetValue, Equatable {
    var paragraphs: [String]
}

struct Photo: Codable, Equatable {
    var id: String
    var image: URL  // a local file: stored as an asset
    var caption: Caption  // a RecordAssetValue: written to a file, stored as an asset
    var album: RecordReference  // deleted with its album
    var takenAt: RecordLocation
}

// A folder of this run's own, removed at the end: files left by an earlier run, or written by one
// running at the same time, would be counted below.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "assets-and-references-example-\(UUID().uuidString)")
try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let imageFile = folder.appendingPathComponent("sunset.jpg")
try? Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: imageFile)

let photo = Photo(
    id: "photo-1",
    image: imageFile,
    caption: Caption(paragraphs: Array(repeating: "A long evening by the sea.", count: 3)),
    album: RecordReference(recordName: "album-summer", action: .deleteSelf),
    takenAt: RecordLocation(latitude: 43.2965, longitude: 5.3698, horizontalAccuracy: 10))

var encoder = RecordEncoder()
encoder.assetDirectory = folder.appendingPathComponent("assets")

do {
    let record = try encoder.encode(photo)
    print("Record \(record.recordType) \(record.recordName), \(record.encodedSize) bytes against the limit")
    for (name, value) in record.fields.sorted(by: { $0.key < $1.key }) {
        switch value {
        case .asset(let asset):
            print("  \(name): asset, local file \(asset.fileURL?.lastPathComponent ?? "none")")
        case .reference(let reference):
            print("  \(name): reference to \(reference.recordName), action \(reference.action.rawValue)")
        case .location(let location):
            print("  \(name): location \(location.latitude), \(location.longitude)")
        default:
            print("  \(name): \(value.typeName)")
        }
    }

    // Encoding the same photo again writes no second caption file: files are named by content.
    _ = try encoder.encode(photo)
    let files = try FileManager.default.contentsOfDirectory(atPath: encoder.assetDirectory.path)
    print("Caption files after two encodes: \(files.count)")

    let decoded = try RecordDecoder().decode(Photo.self, from: record)
    print(decoded == photo ? "Round trip held: the caption was read back from its file." : "Round trip FAILED.")

    // On the wire, an asset is what the server knows of it; the local file is uploaded first.
    let jsonEncoder = JSONEncoder()
    jsonEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var uploaded = record
    uploaded["image"] = .asset(RecordAsset(fileChecksum: "AbCd", size: 4, receipt: "r-1"))
    uploaded["caption"] = .asset(RecordAsset(fileChecksum: "EfGh", size: 96, receipt: "r-2"))
    print(String(decoding: try jsonEncoder.encode(uploaded), as: UTF8.self))
} catch {
    print("Error: \(error)")
    exit(1)
}
